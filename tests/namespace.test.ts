// `cachewarden namespace`: the per-namespace path a README reader takes. From a settings file
// (policy → settings) it writes a kustomization that stands on its own: copied out of the
// repository it renders, and what it renders is only AdmissionPolicies in that namespace, applied
// (`kubectl apply -k --dry-run=server`) by the suite's real API server with the controller's CRDs
// installed, with settings that pass each policy's validate_settings and the
// registration deploy/ uses. Bad input is refused with a message before anything is written.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { validateSettings } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { namespaceObjects, readNamespaceSettings, writeNamespace } from "../tools/publish/namespace";
import { discoverPolicies } from "../tools/wasm/index";
import { EXAMPLE_SETTINGS, renderNamespaceExample } from "./helpers/namespace-path";
import { ROOT } from "./helpers/host-guests";
import { Kube, kubeServer, vendoredCRDs } from "./helpers/apiserver";

type Obj = Record<string, unknown>;
const POLICIES = discoverPolicies(path.join(ROOT, "policies"));
const wasmOf = (p: string): string => path.join(ROOT, "policies", p, "annotated-policy.wasm");
let kube: Kube;
before(async () => {
  kube = await kubeServer();
  kube.installCRDs(vendoredCRDs("kubewarden"));
});
const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-ns-test-"));

describe(
  "the README's per-namespace path",
  { skip: !POLICIES.every((p) => fs.existsSync(wasmOf(p))) && "not built" },
  () => {
    const rendered = renderNamespaceExample("team-a");
    const example = readNamespaceSettings(EXAMPLE_SETTINGS);

    test("a copy outside the repository renders only AdmissionPolicies, all in that namespace", () => {
      assert.ok(!rendered.copy.startsWith(ROOT));
      assert.deepEqual(
        rendered.objects.map(
          (o) => `${String(o.kind)} ${String((o.metadata as Obj).namespace)}/${String((o.metadata as Obj).name)}`,
        ),
        Object.keys(example).map((p) => `AdmissionPolicy team-a/${p}`),
      );
    });

    test("the copy is applied by the API server (kubectl apply -k --dry-run=server): only AdmissionPolicies", () => {
      const r = kube.applyKustomize(rendered.copy);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        r.stdout.trim().split("\n"),
        Object.keys(example).map((p) => `admissionpolicy.policies.kubewarden.io/${p} created (server dry run)`),
      );
    });

    for (const ap of rendered.objects) {
      const name = String((ap.metadata as Obj).name);
      test(`${name}: created by the API server, settings as given and valid, registration as deploy/`, () => {
        const created = kube.one({ verb: "create", dryRun: true, object: ap }, true);
        assert.ok(created.ok, created.status?.message ?? created.error);
        const spec = ap.spec as Obj;
        assert.deepEqual(spec.settings, example[name]);
        assert.deepEqual(validateSettings(PolicyModule.fromFile(wasmOf(name)), { settings: spec.settings as Obj }), {
          valid: true,
        });
        const deployed = yaml.load(
          fs.readFileSync(path.join(ROOT, "deploy", "base", "policies", `${name}.yaml`), "utf8"),
        ) as Obj;
        const cap = deployed.spec as Obj;
        for (const k of [
          "policyServer",
          "module",
          "mode",
          "mutating",
          "backgroundAudit",
          "failurePolicy",
          "rules",
          "objectSelector",
        ])
          assert.deepEqual(spec[k], cap[k], k);
        assert.equal("contextAwareResources" in spec, false);
        assert.equal("namespaceSelector" in spec, false);
      });
    }

    test("the written files are the user's to edit (no 'Do not edit'), and name no path outside the folder", () => {
      const out = tmp();
      writeNamespace("team-b", EXAMPLE_SETTINGS, out);
      for (const f of fs.readdirSync(out)) {
        const text = fs.readFileSync(path.join(out, f), "utf8");
        assert.doesNotMatch(text, /Do not edit/);
        assert.doesNotMatch(text, /\.\.\//);
      }
      const k = yaml.load(fs.readFileSync(path.join(out, "kustomization.yaml"), "utf8")) as Obj;
      assert.deepEqual(
        k.resources,
        Object.keys(example).map((p) => `${p}.yaml`),
      );
      assert.equal(k.namespace, undefined, "kustomize's namespace: would also move what it does not own");
    });

    test("options: registry, policy server, mode", () => {
      const [ap] = namespaceObjects(
        "team-c",
        { "hicache-injector": example["hicache-injector"] },
        {
          registry: "registry.example.com/mine",
          policyServer: "team-c",
          mode: "monitor",
        },
      );
      const spec = ap.spec as Obj;
      assert.match(String(spec.module), /^registry:\/\/registry\.example\.com\/mine\/hicache-injector:v\d+\.\d+\.\d+$/);
      assert.equal(spec.policyServer, "team-c");
      assert.equal(spec.mode, "monitor");
    });

    test("bad input is refused before anything is written", () => {
      const file = (text: string): string => {
        const f = path.join(tmp(), "s.yaml");
        fs.writeFileSync(f, text);
        return f;
      };
      const out = path.join(tmp(), "never");
      const refuse = (settings: string, message: string | RegExp, ns = "team-a") => {
        assert.throws(() => writeNamespace(ns, settings, out), { message });
        assert.equal(fs.existsSync(out), false);
      };
      refuse(
        file("lmcache-injector: {lookup: yes-please}\n"),
        "lmcache-injector: settings are not valid: lookup: must be a boolean",
      );
      refuse(file("not-a-policy: {}\n"), /^"not-a-policy" is not a policy \(known: /);
      refuse(file("{}\n"), "the settings file names no policy");
      refuse(file("lmcache-injector: {}\n"), 'namespace "Team_A" is not a DNS-1123 label', "Team_A");
      const manifest = file(
        "apiVersion: policies.kubewarden.io/v1\nkind: AdmissionPolicy\nmetadata: {name: x}\nspec: {settings: {}}\n",
      );
      refuse(
        manifest,
        `${manifest}: this is a AdmissionPolicy manifest, not a settings file: write \`<policy>: <its spec.settings>\` (see deploy/namespace-settings.example.yaml)`,
      );
      const missing = path.join(tmp(), "missing.yaml");
      refuse(missing, `cannot read settings ${missing}: ENOENT: no such file (check the path)`);
    });

    test("a lookup policy without lookup: false gets a warning (an AdmissionPolicy cannot read the cluster)", () => {
      const warnings: string[] = [];
      namespaceObjects("team-a", { "lmcache-injector": {} }, { warn: (l) => warnings.push(l) });
      assert.deepEqual(warnings, [
        "lmcache-injector looks up cluster resources, which an AdmissionPolicy may not: give what it reads in its settings with lookup: false (see policies/lmcache-injector/README.md)",
      ]);
    });
  },
);
