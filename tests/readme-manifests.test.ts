// The manifests in each policy README are what cluster admins apply: they must match the policy's
// metadata (rules, mutating, contextAwareResources) and their settings must pass the policy's own
// validate_settings, or the policy-server refuses to start.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { PolicyModule } from "../tools/host/guest";
import { validateSettings } from "../tools/host/evaluate";
import { readmeManifests } from "../tools/publish/deploy";

const ROOT = path.resolve(__dirname, "..");
const POLICIES = path.join(ROOT, "policies");

type Obj = Record<string, unknown>;

const sortJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x,
  );

for (const name of fs
  .readdirSync(POLICIES)
  .filter((n) => fs.existsSync(path.join(POLICIES, n, "README.md")))
  .sort()) {
  const dir = path.join(POLICIES, name);
  const wasm = path.join(dir, "annotated-policy.wasm");
  const manifests = readmeManifests(fs.readFileSync(path.join(dir, "README.md"), "utf8"));

  test(`${name}: README has at least one ready Kubewarden manifest`, () => {
    assert.ok(manifests.length > 0, "no policies.kubewarden.io manifest in README.md");
  });

  for (const [i, manifest] of manifests.entries()) {
    const kind = String(manifest.kind);
    test(
      `${name}: README ${kind} #${i + 1} matches the metadata and its settings are valid`,
      { skip: !fs.existsSync(wasm) && "annotated-policy.wasm is not built" },
      () => {
        const meta = yaml.load(fs.readFileSync(path.join(dir, "metadata.yml"), "utf8")) as Obj;
        const spec = manifest.spec as Obj;
        assert.equal(sortJson(spec.rules), sortJson(meta.rules), "rules differ from metadata.yml");
        assert.equal(spec.mutating ?? false, meta.mutating, "mutating differs from metadata.yml");
        if (kind === "ClusterAdmissionPolicy" && spec.contextAwareResources !== undefined) {
          assert.equal(
            sortJson(spec.contextAwareResources),
            sortJson(meta.contextAwareResources ?? []),
            "contextAwareResources differ from metadata.yml",
          );
        }
        if (kind === "AdmissionPolicy")
          assert.equal(spec.contextAwareResources, undefined, "an AdmissionPolicy cannot have contextAwareResources");
        const outcome = validateSettings(PolicyModule.fromFile(wasm), {
          settings: (spec.settings as Obj | null) ?? {},
        });
        assert.deepEqual(outcome, { valid: true });
      },
    );
  }
}
