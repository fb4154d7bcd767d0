// deploy/ as a cluster admin applies it: rendered by `kubectl kustomize`, every Kubewarden object
// checked against the controller's own CRD schemas (vendored in tests/fixtures/kubewarden-crds, with
// their source and version), every policy's settings through its validate_settings, and every
// policy under policies/ present. Plus `cachewarden scaffold manifest`.
import { describe, test } from "node:test";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { ValidateFunction } from "ajv";
import { Command } from "commander";
import * as yaml from "js-yaml";
import { validateSettings } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { registerPublish } from "../tools/publish/commands";
import { readmeManifests } from "../tools/publish/deploy";
import { discoverPolicies } from "../tools/wasm/index";
import { readMetadataYaml } from "../tools/wasm/metadata";

const ROOT = path.resolve(__dirname, "..");
const POLICIES = discoverPolicies(path.join(ROOT, "policies"));
type Obj = Record<string, unknown>;

function render(dir: string): Obj[] {
  const r = spawnSync("kubectl", ["kustomize", path.join(ROOT, dir)], { encoding: "utf8" });
  assert.equal(r.status, 0, `kubectl kustomize ${dir}: ${r.stderr}`);
  return yaml.loadAll(r.stdout) as Obj[];
}

/**
 * The CRD schema as the API server applies it with strict field validation (kubectl's default):
 * an unknown field is an error unless the schema preserves unknown fields.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== "object") return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema as Obj)) out[k] = k === "properties" ? mapValues(v as Obj) : strict(v);
  if (out.properties && out.additionalProperties === undefined && !out["x-kubernetes-preserve-unknown-fields"])
    out.additionalProperties = false;
  return out;
}
const mapValues = (o: Obj): Obj => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, strict(v)]));

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const crds = new Map<string, ValidateFunction>();
for (const f of fs.readdirSync(path.join(ROOT, "tests", "fixtures", "kubewarden-crds"))) {
  const crd = JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", "kubewarden-crds", f), "utf8")) as Obj;
  crds.set(`${String(crd.apiVersion)} ${String(crd.kind)}`, ajv.compile(strict(crd.openAPIV3Schema) as object));
}

function schemaErrors(obj: Obj): string {
  const validate = crds.get(`${String(obj.apiVersion)} ${String(obj.kind)}`);
  if (!validate) return `no vendored CRD schema for ${String(obj.apiVersion)} ${String(obj.kind)}`;
  return validate(obj) ? "" : ajv.errorsText(validate.errors);
}

const isKubewarden = (o: Obj): boolean => String(o.apiVersion).startsWith("policies.kubewarden.io/");
const meta = (p: string): Obj => readMetadataYaml(path.join(ROOT, "policies", p, "metadata.yml"));
const wasmOf = (p: string): string => path.join(ROOT, "policies", p, "annotated-policy.wasm");
const sortJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Obj).sort()) : x,
  );
/** Lists compared as sets (the metadata section stores contextAwareResources sorted). */
const asSet = (v: unknown): string => sortJson(((v ?? []) as unknown[]).map((x) => sortJson(x)).sort());

const base = render("deploy");
const overlay = render("deploy/overlays/namespaced");

describe("deploy/ renders into valid Kubewarden objects", () => {
  test("deploy/ and deploy/base render the same objects", () => {
    assert.deepEqual(render("deploy/base"), base);
  });

  for (const [label, docs] of [
    ["deploy/", base],
    ["deploy/overlays/namespaced", overlay],
  ] as const) {
    test(`${label}: every Kubewarden object passes its CRD schema`, () => {
      const kw = docs.filter(isKubewarden);
      assert.ok(kw.length > 0);
      for (const o of kw) assert.equal(schemaErrors(o), "", `${String(o.kind)}/${String((o.metadata as Obj).name)}`);
    });

    for (const o of docs.filter((d) => d.kind === "ClusterAdmissionPolicy" || d.kind === "AdmissionPolicy")) {
      const name = String((o.metadata as Obj).name);
      test(
        `${label}: ${String(o.kind)} ${name}: its settings pass the policy's validate_settings`,
        { skip: !fs.existsSync(wasmOf(name)) && "annotated-policy.wasm is not built" },
        () => {
          const settings = ((o.spec as Obj).settings as Obj | null) ?? {};
          assert.deepEqual(validateSettings(PolicyModule.fromFile(wasmOf(name)), { settings }), { valid: true });
        },
      );
    }
  }

  test("the schemas catch mistakes: a wrong enum value, a bound, an unknown field, a missing required field", () => {
    const cap = structuredClone(base.find((o) => o.kind === "ClusterAdmissionPolicy")!);
    assert.equal(schemaErrors(cap), "");
    (cap.spec as Obj).mode = "enforce";
    assert.match(schemaErrors(cap), /spec\/mode must be equal to one of the allowed values/);
    (cap.spec as Obj).mode = "monitor";
    (cap.spec as Obj).timeoutSeconds = 31;
    assert.match(schemaErrors(cap), /spec\/timeoutSeconds must be <= 30/);
    (cap.spec as Obj).timeoutSeconds = 30;
    assert.equal(schemaErrors(cap), "");
    (cap.spec as Obj).objectSelectr = {};
    assert.match(schemaErrors(cap), /must NOT have additional properties/);
    delete (cap.spec as Obj).objectSelectr;
    delete (cap.spec as Obj).module;
    assert.match(schemaErrors(cap), /must have required property 'module'/);
  });
});

describe("deploy/ holds every policy with its registration", () => {
  const caps = new Map(
    base.filter((o) => o.kind === "ClusterAdmissionPolicy").map((o) => [String((o.metadata as Obj).name), o]),
  );

  test("every policy under policies/ is a ClusterAdmissionPolicy of deploy/, and nothing else is", () => {
    assert.deepEqual([...caps.keys()].sort(), POLICIES);
  });

  for (const p of POLICIES) {
    test(`${p}: bound to the cachewarden PolicyServer, module pinned to v<version>, registration from metadata.yml`, () => {
      const spec = caps.get(p)?.spec as Obj | undefined;
      assert.ok(spec, `${p} is missing from deploy/ (run cachewarden generate)`);
      const m = meta(p);
      const ann = m.annotations as Record<string, string>;
      assert.equal(spec.policyServer, "cachewarden");
      assert.equal(
        spec.module,
        `registry://${ann["io.kubewarden.policy.ociUrl"]}:v${ann["io.kubewarden.policy.version"]}`,
      );
      assert.equal(sortJson(spec.rules), sortJson(m.rules));
      assert.equal(spec.mutating, m.mutating);
      assert.equal(spec.backgroundAudit, m.backgroundAudit !== false);
      assert.equal(asSet(spec.contextAwareResources), asSet(m.contextAwareResources));
      // a pod injector must never block a pod: when the server is down the pod starts unwired
      // (the CacheBackend defaulter is mutating too, and Fail: a backend waits for its defaults)
      const pods = (m.rules as { resources: string[] }[]).some((r) => r.resources.includes("pods"));
      if (m.mutating === true && pods) assert.equal(spec.failurePolicy, "Ignore");
      else assert.ok(spec.failurePolicy === "Fail" || spec.failurePolicy === "Ignore");
      // the registration the policy's README documents (opt-in label, namespaces, failure policy, settings)
      const readme = readmeManifests(fs.readFileSync(path.join(ROOT, "policies", p, "README.md"), "utf8")).find(
        (o) => o.kind === "ClusterAdmissionPolicy",
      );
      assert.ok(readme, `policies/${p}/README.md has no ClusterAdmissionPolicy`);
      const documented = readme.spec as Obj;
      for (const k of ["objectSelector", "namespaceSelector", "matchConditions"])
        assert.equal(sortJson(spec[k]), sortJson(documented[k]), `${k} differs from the README`);
      if (documented.failurePolicy !== undefined) assert.equal(spec.failurePolicy, documented.failurePolicy);
      assert.deepEqual(spec.settings, documented.settings ?? {});
    });
  }

  test("the PolicyServer is sized for availability and has the policy timeout", () => {
    const ps = base.filter((o) => o.kind === "PolicyServer");
    assert.equal(ps.length, 1);
    const spec = ps[0].spec as Obj;
    assert.equal((ps[0].metadata as Obj).name, "cachewarden");
    assert.equal(spec.replicas, 2);
    assert.equal(spec.minAvailable, 1);
    for (const k of ["requests", "limits"]) {
      const r = spec[k] as Obj;
      assert.ok(r.cpu !== undefined && r.memory !== undefined, `${k} needs cpu and memory`);
    }
    const env = Object.fromEntries((spec.env as { name: string; value: string }[]).map((e) => [e.name, e.value]));
    assert.equal(env.KUBEWARDEN_POLICY_TIMEOUT, "2");
    const sa = base.find((o) => o.kind === "ServiceAccount")!;
    assert.equal(spec.serviceAccountName, (sa.metadata as Obj).name);
  });

  test("the ClusterRole reads exactly the policies' contextAwareResources, nothing broader", () => {
    const role = base.find((o) => o.kind === "ClusterRole")!;
    const granted = (role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]).flatMap((r) => {
      assert.deepEqual(r.verbs, ["get", "list", "watch"]);
      return r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}`));
    });
    const needed = new Set<string>();
    for (const p of POLICIES)
      for (const r of (meta(p).contextAwareResources ?? []) as { apiVersion: string; kind: string }[])
        needed.add(`${r.apiVersion.includes("/") ? r.apiVersion.split("/")[0] : ""}/${r.kind.toLowerCase()}s`);
    assert.deepEqual(granted.sort(), [...needed].sort());
    assert.ok(!granted.some((g) => g.includes("*")));
    const binding = base.find((o) => o.kind === "ClusterRoleBinding")!;
    assert.deepEqual((binding.roleRef as Obj).name, (role.metadata as Obj).name);
  });

  test("the overlay adds namespaced AdmissionPolicies; a policy that looks things up carries them in its settings", () => {
    const aps = overlay.filter((o) => o.kind === "AdmissionPolicy");
    assert.ok(aps.length > 0);
    for (const ap of aps) {
      assert.ok((ap.metadata as Obj).namespace, "an AdmissionPolicy lives in a namespace");
      const spec = ap.spec as Obj;
      assert.equal(spec.contextAwareResources, undefined);
      assert.equal(spec.policyServer, "cachewarden");
      const settings = spec.settings as Obj;
      const name = String((ap.metadata as Obj).name);
      if (((meta(name).contextAwareResources as unknown[] | undefined) ?? []).length > 0)
        assert.ok(settings.engines || settings.backends, `${name}: settings carry the engines or backends`);
    }
    assert.equal(overlay.filter((o) => o.kind === "ClusterAdmissionPolicy").length, POLICIES.length);
  });
});

async function scaffold(args: string[]): Promise<{ stdout: string; error?: string }> {
  let stdout = "";
  const program = new Command().exitOverride();
  registerPublish(program, { write: (s: string) => (stdout += s) });
  try {
    await program.parseAsync(["node", "cachewarden", "scaffold", "manifest", ...args]);
    return { stdout };
  } catch (e) {
    return { stdout, error: (e as Error).message };
  }
}

const injector = POLICIES.find(
  (p) => meta(p).mutating === true && ((meta(p).contextAwareResources as []) ?? []).length,
);
const validator = POLICIES.find((p) => meta(p).mutating !== true);
const built = [injector, validator].every((p) => p && fs.existsSync(wasmOf(p)));

describe("cachewarden scaffold manifest", { skip: !built && "annotated modules are not built" }, () => {
  test("a ClusterAdmissionPolicy from the module's metadata, valid against the CRD", async () => {
    const r = await scaffold([wasmOf(injector!), "--allow-context-aware"]);
    assert.equal(r.error, undefined);
    const cap = yaml.load(r.stdout) as Obj;
    const m = meta(injector!);
    assert.equal(schemaErrors(cap), "");
    assert.deepEqual(cap.metadata, {
      name: injector,
      annotations: Object.fromEntries(
        ["io.kubewarden.policy.severity", "io.kubewarden.policy.category"]
          .filter((k) => (m.annotations as Obj)[k] !== undefined)
          .map((k) => [k, (m.annotations as Obj)[k]]),
      ),
    });
    const spec = cap.spec as Obj;
    assert.equal(spec.module, `file://${wasmOf(injector!)}`);
    assert.deepEqual(spec.settings, {});
    assert.equal(sortJson(spec.rules), sortJson(m.rules));
    assert.equal(spec.mutating, true);
    assert.equal(spec.backgroundAudit, false);
    assert.equal(asSet(spec.contextAwareResources), asSet(m.contextAwareResources));
  });

  test("without --allow-context-aware the lookups are left empty; an AdmissionPolicy has none", async () => {
    const cap = yaml.load((await scaffold([wasmOf(injector!)])).stdout) as Obj;
    assert.deepEqual((cap.spec as Obj).contextAwareResources, []);
    const ap = yaml.load(
      (await scaffold([wasmOf(injector!), "-t", "AdmissionPolicy", "--title", "wire-x"])).stdout,
    ) as Obj;
    assert.equal(ap.kind, "AdmissionPolicy");
    assert.equal((ap.metadata as Obj).name, "wire-x");
    assert.equal("contextAwareResources" in (ap.spec as Obj), false);
  });

  test("a validator: backgroundAudit omitted when true, mutating false", async () => {
    const spec = (yaml.load((await scaffold([wasmOf(validator!)])).stdout) as Obj).spec as Obj;
    assert.equal(spec.mutating, false);
    assert.equal("backgroundAudit" in spec, false);
  });

  test("settings go through validate_settings first: invalid ones are refused with the policy's message", async () => {
    const r = await scaffold([wasmOf(injector!), "--settings-json", '{"lookup":"yes"}']);
    assert.equal(r.stdout, "");
    assert.equal(r.error, "settings are not valid: lookup: must be a boolean");
    const ok = await scaffold([wasmOf(injector!), "--settings-json", '{"lookup":true}']);
    assert.deepEqual(((yaml.load(ok.stdout) as Obj).spec as Obj).settings, { lookup: true });
    assert.match((await scaffold([wasmOf(injector!), "--title", "Not_A_Name"])).error ?? "", /not an RFC 1123/);
  });
});
