// deploy/ as a cluster admin applies it: `kubectl apply -k --dry-run=server` against the suite's
// real kube-apiserver with the Kubewarden controller's own CRDs installed (vendored in
// tests/fixtures/crds/kubewarden, with their source and commit), every Kubewarden object created
// (dry run) by the server, every policy's settings through its validate_settings, and every
// policy under policies/ present; the RBAC each policy's lookups need, derived once and held equal
// in deploy/, the READMEs and docs/publishing.md; a deploy tree of one's own (`generate --out`:
// registry, Kubewarden namespace, least privilege). Plus `cachewarden scaffold manifest`.
import { before, describe, test } from "node:test";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import * as yaml from "js-yaml";
import { validateSettings } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { registerPublish } from "../tools/publish/commands";
import { readmeManifests } from "../tools/publish/deploy";
import { lookupGrants, rbacSentence, rbacTable } from "../tools/publish/rbac";
import { discoverPolicies } from "../tools/wasm/index";
import { readMetadataYaml } from "../tools/wasm/metadata";
import { Kube, kubeServer, vendoredCRDs } from "./helpers/apiserver";

const ROOT = path.resolve(__dirname, "..");
const POLICIES = discoverPolicies(path.join(ROOT, "policies"));
type Obj = Record<string, unknown>;

function render(dir: string): Obj[] {
  const r = spawnSync("kubectl", ["kustomize", path.resolve(ROOT, dir)], { encoding: "utf8" });
  assert.equal(r.status, 0, `kubectl kustomize ${dir}: ${r.stderr}`);
  return yaml.loadAll(r.stdout) as Obj[];
}

let kube: Kube;
before(async () => {
  kube = await kubeServer();
  kube.installCRDs(vendoredCRDs("kubewarden"));
});

/** "" when the API server would create `obj` (a dry run, strict field validation, as kubectl), else its message. */
function schemaErrors(obj: Obj): string {
  const namespace = (obj.metadata as Obj | undefined)?.namespace;
  if (typeof namespace === "string") kube.ensureNamespaces([namespace]);
  const r = kube.one({ verb: "create", dryRun: true, object: obj }, true);
  return r.ok ? "" : (r.status?.message ?? r.error ?? "refused");
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

async function cli(args: string[]): Promise<{ stdout: string; error?: string }> {
  let stdout = "";
  const program = new Command().exitOverride();
  registerPublish(program, { write: (s: string) => (stdout += s) });
  try {
    await program.parseAsync(["node", "cachewarden", ...args]);
    return { stdout };
  } catch (e) {
    return { stdout, error: (e as Error).message };
  }
}

/** `generate --out` with these flags, rendered from outside the repository. */
async function ownTree(flags: string[]): Promise<Obj[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-own-deploy-"));
  const r = await cli(["generate", "--out", out, ...flags]);
  assert.equal(r.error, undefined);
  return render(out);
}

describe("deploy/ renders into valid Kubewarden objects", () => {
  test("deploy/ and deploy/base render the same objects", () => {
    assert.deepEqual(render("deploy/base"), base);
  });

  for (const [label, docs] of [["deploy", base]] as const) {
    test(`${label}: the API server accepts \`kubectl apply -k --dry-run=server\``, () => {
      const r = kube.applyKustomize(path.join(ROOT, label));
      assert.equal(r.code, 0, r.stderr);
      // one line per object: `<kind>/<name> created (server dry run)`
      assert.equal(r.stdout.trim().split("\n").length, docs.length, r.stdout);
    });

    test(`${label}: the API server creates every Kubewarden object`, () => {
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

  test("the server catches mistakes: a wrong enum value, a bound, an unknown field, a missing required field", () => {
    const cap = structuredClone(base.find((o) => o.kind === "ClusterAdmissionPolicy")!);
    assert.equal(schemaErrors(cap), "");
    (cap.spec as Obj).mode = "enforce";
    assert.match(schemaErrors(cap), /spec\.mode: Unsupported value: "enforce": supported values: "protect", "monitor"/);
    (cap.spec as Obj).mode = "monitor";
    (cap.spec as Obj).timeoutSeconds = 31;
    assert.match(
      schemaErrors(cap),
      /spec\.timeoutSeconds: Invalid value: 31: spec\.timeoutSeconds in body should be less than or equal to 30/,
    );
    (cap.spec as Obj).timeoutSeconds = 30;
    assert.equal(schemaErrors(cap), "");
    (cap.spec as Obj).objectSelectr = {};
    assert.match(schemaErrors(cap), /unknown field "spec\.objectSelectr"/);
    delete (cap.spec as Obj).objectSelectr;
    delete (cap.spec as Obj).module;
    assert.match(schemaErrors(cap), /spec\.module: Required value/);
  });
});

const caps = new Map(
  base.filter((o) => o.kind === "ClusterAdmissionPolicy").map((o) => [String((o.metadata as Obj).name), o]),
);

describe("deploy/ holds every policy with its registration", () => {
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

  test("the ClusterRole grants exactly the verbs each policy's lookups use, on exactly its resources", () => {
    const role = base.find((o) => o.kind === "ClusterRole")!;
    const granted = (role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]).flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}: ${r.verbs.join(",")}`)),
    );
    // get_resource is a GET; the list capabilities a reflector's LIST and WATCH (docs/decisions.md)
    assert.deepEqual(granted.sort(), [
      "/configmaps: get",
      "inferencecache.io/cachebackends: list,watch",
      "lmcache.lmcache.ai/cacheblendengines: get",
      "lmcache.lmcache.ai/lmcacheengines: get",
    ]);
    const needed = POLICIES.flatMap((p) => lookupGrants(meta(p))).map(
      (g) => `${g.apiGroup}/${g.resource}: ${g.verbs.join(",")}`,
    );
    assert.deepEqual([...new Set(needed)].sort(), granted.sort(), "deploy/ follows the derivation");
    const binding = base.find((o) => o.kind === "ClusterRoleBinding")!;
    assert.deepEqual((binding.roleRef as Obj).name, (role.metadata as Obj).name);
  });

  test("everything is cluster-scoped except the ServiceAccount, which is in the Kubewarden namespace", () => {
    const namespaced = base.filter((o) => (o.metadata as Obj).namespace !== undefined);
    assert.deepEqual(
      namespaced.map((o) => `${String(o.kind)} ${String((o.metadata as Obj).namespace)}`),
      ["ServiceAccount kubewarden"],
    );
    const clusterKinds = new Set(["PolicyServer", "ClusterRole", "ClusterRoleBinding", "ClusterAdmissionPolicy"]);
    for (const o of base.filter((d) => d.kind !== "ServiceAccount"))
      assert.ok(clusterKinds.has(String(o.kind)), String(o.kind));
    const binding = base.find((o) => o.kind === "ClusterRoleBinding")!;
    assert.deepEqual(binding.subjects, [
      { kind: "ServiceAccount", name: "cachewarden-policy-server", namespace: "kubewarden" },
    ]);
  });

  test("every pod policy excludes the same system namespaces", () => {
    const podPolicies = [...caps.values()].filter((c) =>
      ((c.spec as Obj).rules as { resources: string[] }[]).some((r) => r.resources.includes("pods")),
    );
    assert.ok(podPolicies.length >= 3);
    const selectors = new Set(podPolicies.map((c) => sortJson((c.spec as Obj).namespaceSelector)));
    assert.equal(selectors.size, 1, [...selectors].join("\n"));
    assert.match([...selectors][0], /"values":\["kube-system","kube-public","lmcache-operator-system"\]/);
  });

  test("no namespaced overlay ships: the per-namespace path is `cachewarden namespace`", () => {
    assert.equal(fs.existsSync(path.join(ROOT, "deploy", "overlays")), false);
    const example = path.join(ROOT, "deploy", "namespace-settings.example.yaml");
    const doc = yaml.load(fs.readFileSync(example, "utf8")) as Obj;
    assert.equal(doc.apiVersion, undefined, "the example is not a manifest: kubectl apply cannot take it");
    assert.equal(doc.kind, undefined);
    assert.doesNotMatch(fs.readFileSync(example, "utf8"), /Do not edit/);
  });
});

describe("one statement of the lookups' RBAC, used by every doc", () => {
  for (const p of POLICIES) {
    const sentence = rbacSentence(meta(p));
    test(`${p}: the README states the derived RBAC${sentence ? "" : " (none: it looks nothing up)"}`, () => {
      const readme = fs.readFileSync(path.join(ROOT, "policies", p, "README.md"), "utf8");
      const stated = readme
        .split("\n\n")
        .filter((para) => para.startsWith("The policy server's service account needs"))
        .map((para) => para.replace(/\s+/g, " "));
      assert.deepEqual(stated, sentence ? [sentence] : []);
    });
  }

  test("docs/publishing.md has the derived table", () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs", "publishing.md"), "utf8");
    const table = rbacTable(POLICIES.map((name) => ({ name, meta: meta(name) })));
    assert.ok(doc.includes(`\n${table}\n`), `docs/publishing.md lacks:\n${table}`);
    assert.doesNotMatch(doc, /ClusterRole with `get`, `list` and `watch`/);
  });

  test("a policy that declares no host capabilities may use all of them, so gets every verb cluster-wide", () => {
    const g = lookupGrants({ contextAwareResources: [{ apiVersion: "apps/v1", kind: "Deployment" }] });
    assert.deepEqual(g, [
      {
        apiGroup: "apps",
        resource: "deployments",
        kind: "Deployment",
        verbs: ["get", "list", "watch"],
        namespaced: false,
      },
    ]);
    assert.deepEqual(lookupGrants({ hostCapabilities: ["kubernetes/get_resource"] }), []);
  });
});

describe("a deploy tree of your own (generate --out)", () => {
  test("--registry and --policy-server-namespace reach every module and every ServiceAccount reference", async () => {
    const docs = await ownTree([
      "--registry",
      "registry.example.com:5000/team/",
      "--policy-server-namespace",
      "cattle-kubewarden-system",
    ]);
    for (const o of docs.filter((d) => d.kind === "ClusterAdmissionPolicy")) {
      const name = String((o.metadata as Obj).name);
      const version = (meta(name).annotations as Record<string, string>)["io.kubewarden.policy.version"];
      assert.equal((o.spec as Obj).module, `registry://registry.example.com:5000/team/${name}:v${version}`);
      assert.equal(schemaErrors(o), "");
    }
    assert.equal(
      (docs.find((d) => d.kind === "ServiceAccount")!.metadata as Obj).namespace,
      "cattle-kubewarden-system",
    );
    const binding = docs.find((d) => d.kind === "ClusterRoleBinding")!;
    assert.equal((binding.subjects as Obj[])[0].namespace, "cattle-kubewarden-system");
    assert.ok(docs.some((d) => d.kind === "PolicyServer"));
  });

  test("--lookup-namespaces: Roles in those namespaces, no ClusterRole, lookup policies selected only there", async () => {
    const docs = await ownTree(["--lookup-namespaces", "team-b,team-a"]);
    assert.equal(docs.filter((d) => d.kind === "ClusterRole" || d.kind === "ClusterRoleBinding").length, 0);
    const roles = docs.filter((d) => d.kind === "Role");
    assert.deepEqual(roles.map((r) => (r.metadata as Obj).namespace).sort(), ["team-a", "team-b"]);
    const clusterRole = base.find((o) => o.kind === "ClusterRole")!;
    for (const r of roles) assert.deepEqual(r.rules, clusterRole.rules);
    for (const b of docs.filter((d) => d.kind === "RoleBinding"))
      assert.deepEqual(b.subjects, [
        { kind: "ServiceAccount", name: "cachewarden-policy-server", namespace: "kubewarden" },
      ]);
    for (const o of docs.filter((d) => d.kind === "ClusterAdmissionPolicy")) {
      const spec = o.spec as Obj;
      const reads = ((spec.contextAwareResources ?? []) as unknown[]).length > 0;
      const selector = sortJson(spec.namespaceSelector);
      if (reads)
        assert.equal(
          selector,
          sortJson({
            matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["team-a", "team-b"] }],
          }),
        );
      else
        assert.equal(selector, sortJson((caps.get(String((o.metadata as Obj).name))!.spec as Obj).namespaceSelector));
      assert.equal(schemaErrors(o), "");
    }
  });

  test("the options need --out: deploy/ keeps the published defaults", async () => {
    assert.match((await cli(["generate", "--registry", "x.io/p"])).error ?? "", /add --out <dir>/);
  });
});
async function scaffold(args: string[]): Promise<{ stdout: string; error?: string }> {
  return cli(["scaffold", "manifest", ...args]);
}

const injector = POLICIES.find(
  (p) => meta(p).mutating === true && ((meta(p).contextAwareResources as []) ?? []).length,
);
const validator = POLICIES.find((p) => meta(p).mutating !== true);
const allBuilt = POLICIES.every((p) => fs.existsSync(wasmOf(p)));

describe("cachewarden scaffold manifest", { skip: !allBuilt && "annotated modules are not built" }, () => {
  for (const p of POLICIES)
    test(`${p}: by default, what deploy/ writes for it (registry module, failure policy, selectors, server)`, async () => {
      const r = await scaffold([wasmOf(p)]);
      assert.equal(r.error, undefined);
      assert.deepEqual(yaml.load(r.stdout), caps.get(p));
    });

  test("each field has a flag", async () => {
    const r = await scaffold([
      wasmOf(injector!),
      "--module-ref",
      `file://${wasmOf(injector!)}`,
      "--policy-server",
      "team-a-server",
      "--failure-policy",
      "Fail",
      "--mode",
      "monitor",
      "--object-selector",
      '{"matchLabels":{"inject":"yes"}}',
      "--namespace-selector",
      "none",
      "--no-context-aware",
      "--settings-json",
      '{"lookup":true}',
      "--title",
      "wire-x",
    ]);
    assert.equal(r.error, undefined);
    const cap = yaml.load(r.stdout) as Obj;
    assert.equal(schemaErrors(cap), "");
    const spec = cap.spec as Obj;
    assert.equal((cap.metadata as Obj).name, "wire-x");
    assert.equal(spec.module, `file://${wasmOf(injector!)}`);
    assert.equal(spec.policyServer, "team-a-server");
    assert.equal(spec.failurePolicy, "Fail");
    assert.equal(spec.mode, "monitor");
    assert.deepEqual(spec.objectSelector, { matchLabels: { inject: "yes" } });
    assert.equal("namespaceSelector" in spec, false);
    assert.deepEqual(spec.contextAwareResources, []);
    assert.deepEqual(spec.settings, { lookup: true });
    const reg = yaml.load((await scaffold([wasmOf(validator!), "--registry", "r.example:5000/x"])).stdout) as Obj;
    const version = (meta(validator!).annotations as Record<string, string>)["io.kubewarden.policy.version"];
    assert.equal((reg.spec as Obj).module, `registry://r.example:5000/x/${validator}:v${version}`);
    assert.match((await scaffold([wasmOf(injector!), "--object-selector", "{x"])).error ?? "", /not JSON/);
  });

  test("an AdmissionPolicy needs a namespace and gets no lookups", async () => {
    assert.equal(
      (await scaffold([wasmOf(injector!), "-t", "AdmissionPolicy"])).error,
      "an AdmissionPolicy lives in a namespace: pass --namespace <ns>",
    );
    const ap = yaml.load((await scaffold([wasmOf(injector!), "-t", "AdmissionPolicy", "-n", "team-a"])).stdout) as Obj;
    assert.equal(schemaErrors(ap), "");
    assert.deepEqual(ap.metadata, { name: injector, namespace: "team-a" });
    const spec = ap.spec as Obj;
    assert.equal("contextAwareResources" in spec, false);
    assert.equal("namespaceSelector" in spec, false);
    assert.equal(spec.failurePolicy, "Ignore");
    assert.equal(spec.policyServer, "cachewarden");
  });

  test("settings go through validate_settings first: invalid ones are refused with the policy's message", async () => {
    const r = await scaffold([wasmOf(injector!), "--settings-json", '{"lookup":"yes"}']);
    assert.equal(r.stdout, "");
    assert.equal(r.error, "settings are not valid: lookup: must be a boolean");
    assert.match((await scaffold([wasmOf(injector!), "--title", "Not_A_Name"])).error ?? "", /not an RFC 1123/);
  });
});

test("the README's monitor-mode patch, next to a copy of deploy/, puts every policy in monitor mode", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1].replace(/^ {2}/gm, ""))
    .find((b) => b.includes("kind: Kustomization") && b.includes("/spec/mode"));
  assert.ok(block, "README.md has the kustomization with the monitor patch");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-monitor-"));
  fs.cpSync(path.join(ROOT, "deploy"), path.join(tmp, "deploy"), { recursive: true });
  fs.mkdirSync(path.join(tmp, "mine"));
  fs.writeFileSync(path.join(tmp, "mine", "kustomization.yaml"), block);
  const docs = render(path.join(tmp, "mine"));
  const policies = docs.filter((d) => d.kind === "ClusterAdmissionPolicy");
  assert.equal(policies.length, POLICIES.length);
  for (const p of policies) {
    assert.equal((p.spec as Obj).mode, "monitor");
    assert.equal(schemaErrors(p), "");
  }
});
