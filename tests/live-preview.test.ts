// `cachewarden preview --kubeconfig` on a real kube-apiserver seeded with the preview tests' objects
// (tools/preview/sample-dump.ts), in a cluster of this file's own where the CacheBlendEngine CRD is
// not installed: the rows are exactly those of the dump-based preview of the same cluster (the
// README's `kubectl get … -A -o yaml` dump), the kind not served is listed as such while the rest is
// previewed, credentials that cannot list one namespace get that namespace reported and the others
// previewed, `--save-dump` gives the offline preview the same rows in the same order, and a cluster
// that cannot be reached stops the run with one line.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Kube, ownKubeServer } from "./helpers/apiserver";
import { ROOT } from "./helpers/host-guests";
import { mixedObjects } from "../tools/preview/sample-dump";
import { preview, PreviewReport, PreviewRow } from "../tools/preview/run";
import { runPreview } from "../tools/preview/commands";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
let kube: Kube;
let dir: string;
let policies: string;
/** objects the server refused, by name: a cluster cannot hold them, so neither preview shows them */
const refused: string[] = [];

before(async () => {
  kube = await ownKubeServer();
  kube.installCRDs([path.join(ROOT, "tests", "fixtures", "crds", "lmcache", "lmcache.lmcache.ai_lmcacheengines.yaml")]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-live-preview-"));
  policies = path.join(dir, "policies");
  fs.mkdirSync(policies);
  for (const name of ["cacheengine-validator", "lmcache-injector"])
    fs.symlinkSync(path.join(ROOT, "policies", name), path.join(policies, name), "dir");
  const objects = mixedObjects();
  // team-a with its labels, team-b plain; each with the `default` ServiceAccount pods need
  for (const object of objects.filter((o) => o.kind === "Namespace")) kube.one({ verb: "create", object });
  kube.ensureNamespaces(["team-b"]);
  kube.one({
    verb: "create",
    namespace: "team-a",
    object: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default" } },
  });
  const rest = objects
    .filter((o) => o.kind !== "Namespace")
    .map((o): J => {
      const copy = JSON.parse(JSON.stringify(o));
      if (/Engine$/.test(copy.kind)) copy.spec.l1 = { sizeGB: 1 }; // required by the CRD, read by no policy
      return copy;
    });
  const created = kube.batch(
    rest.map((object) => ({ verb: "create" as const, namespace: object.metadata.namespace, object })),
  );
  created.forEach((r, i) => {
    if (!r.ok) refused.push(`${rest[i].kind}/${rest[i].metadata.name}`);
  });
});

/** A row without where it was read from (a file's document or the cluster). */
const rowsOf = (r: PreviewReport): Omit<PreviewRow, "source">[] => r.rows.map(({ source: _s, ...row }) => row);
const sorted = <T>(rows: T[]): T[] => [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

describe("preview --kubeconfig", () => {
  test("the server refuses what no cluster can hold: the mangled engine, the numeric annotation, the CacheBlendEngine without its CRD", () => {
    assert.deepEqual(refused.sort(), ["CacheBlendEngine/blend", "LMCacheEngine/mangled", "Pod/numeric"]);
  });

  test("gives exactly the rows of the dump-based preview of the same cluster; the kind without a CRD is listed, the rest previewed", async () => {
    const dump = path.join(dir, "kubectl.yaml");
    const got = kube.kubectl([
      "get",
      "pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,configmaps,namespaces,lmcacheengines",
      "-A",
      "-o",
      "yaml",
    ]);
    assert.equal(got.code, 0, got.stderr);
    fs.writeFileSync(dump, got.stdout);
    let t = Date.now();
    const offline = await preview([dump], { policies });
    const offlineMs = Date.now() - t;
    t = Date.now();
    const live = await preview([], { policies, live: { source: { kubeconfig: kube.kubeconfig } } });
    const liveMs = Date.now() - t;
    process.stderr.write(`preview of the seeded cluster: live ${liveMs} ms, dump-based ${offlineMs} ms\n`);
    assert.deepEqual(sorted(rowsOf(live)), sorted(rowsOf(offline)));
    assert.ok(live.rows.some((r) => r.object === "Pod/vllm-wired" && r.outcome === "wired"));
    assert.ok(live.rows.some((r) => r.object === "Pod/ghost" && r.reason === "engine-not-found"));
    assert.deepEqual(live.cluster?.notRead, [
      {
        what: "cacheblendengines (lmcache.lmcache.ai/v1alpha1)",
        reason: "the cluster does not serve it (no CustomResourceDefinition for it is installed)",
      },
    ]);
    assert.deepEqual(live.totals, offline.totals);
  });

  test("--save-dump writes what was read: the offline preview of it gives the same rows in the same order", async () => {
    const saved = path.join(dir, "saved.json");
    const out = { stdout: "", stderr: "" };
    const sink = (k: "stdout" | "stderr") => ({ write: (t: string) => (out[k] += t) });
    const code = await runPreview(
      [],
      { policies, output: "table", kubeconfig: kube.kubeconfig, namespace: ["team-a", "team-b"], saveDump: saved },
      { stdout: sink("stdout"), stderr: sink("stderr") },
    );
    assert.equal(code, 0, out.stderr);
    assert.match(out.stdout, /^Cluster: context "cachewarden-test" \(https:\/\/127\.0\.0\.1:\d+\)$/m);
    assert.match(
      out.stdout,
      /\nNot read from the cluster \(the rest is previewed\)\n {2}cacheblendengines \(lmcache\.lmcache\.ai\/v1alpha1\): the cluster does not serve it \(no CustomResourceDefinition for it is installed\)\n$/,
    );
    assert.match(out.stderr, /^preview: read \d+ Pod object\(s\) \(/m, "progress goes to stderr");
    const live = await preview([], {
      policies,
      live: { source: { kubeconfig: kube.kubeconfig }, namespaces: ["team-a", "team-b"] },
    });
    const offline = await preview([saved], { policies });
    assert.deepEqual(rowsOf(offline), rowsOf(live));
    assert.ok(live.rows.length > 10);
  });

  test("credentials that cannot list one namespace: that namespace reported, the others previewed", async () => {
    const user = "team-a-reader";
    const kubeconfig = kube.userKubeconfig(user);
    kube.batch([
      {
        verb: "create",
        namespace: "team-a",
        object: {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "Role",
          metadata: { name: "read" },
          rules: [{ apiGroups: ["", "apps", "batch", "lmcache.lmcache.ai"], resources: ["*"], verbs: ["get", "list"] }],
        },
      },
      {
        verb: "create",
        namespace: "team-a",
        object: {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "RoleBinding",
          metadata: { name: "read" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "read" },
          subjects: [{ kind: "User", name: user }],
        },
      },
    ]);
    const limited = await preview([], {
      policies,
      live: { source: { kubeconfig }, namespaces: ["team-a", "team-b"] },
    });
    const admin = await preview([], {
      policies,
      live: { source: { kubeconfig: kube.kubeconfig }, namespaces: ["team-a", "team-b"] },
    });
    assert.deepEqual(
      rowsOf(limited),
      rowsOf(admin).filter((r) => r.namespace === "team-a"),
    );
    const notRead = limited.cluster!.notRead.map((n) => `${n.what}: ${n.reason}`);
    assert.ok(
      notRead.includes(
        `namespace team-b: the credentials may not list LMCacheEngine, Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, ConfigMap: lmcacheengines.lmcache.lmcache.ai is forbidden: User "${user}" cannot list resource "lmcacheengines" in API group "lmcache.lmcache.ai" in the namespace "team-b"`,
      ),
      notRead.join("\n"),
    );
    assert.ok(
      notRead.some((l) =>
        l.startsWith(`Namespace (v1): list Namespace in all namespaces: forbidden: namespaces is forbidden`),
      ),
      notRead.join("\n"),
    );
  });

  test("a lookup the credentials may not make is listed too, one line, and its row says it failed", async () => {
    const user = "no-configmaps";
    const kubeconfig = kube.userKubeconfig(user);
    const resources = [
      "pods",
      "lmcacheengines",
      "deployments",
      "statefulsets",
      "daemonsets",
      "replicasets",
      "jobs",
      "cronjobs",
    ];
    kube.batch([
      {
        verb: "create",
        namespace: "team-a",
        object: {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "Role",
          metadata: { name: "no-configmaps" },
          rules: [{ apiGroups: ["", "apps", "batch", "lmcache.lmcache.ai"], resources, verbs: ["get", "list"] }],
        },
      },
      {
        verb: "create",
        namespace: "team-a",
        object: {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "RoleBinding",
          metadata: { name: "no-configmaps" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "no-configmaps" },
          subjects: [{ kind: "User", name: user }],
        },
      },
    ]);
    const report = await preview([], { policies, live: { source: { kubeconfig }, namespaces: ["team-a"] } });
    const lookups = report.cluster!.notRead.filter((n) => n.what === "a lookup").map((n) => n.reason);
    assert.ok(lookups.length > 0, report.cluster!.notRead.map((n) => `${n.what}: ${n.reason}`).join("\n"));
    for (const l of lookups)
      assert.match(
        l,
        new RegExp(`^get ConfigMap team-a/\\S+: forbidden: configmaps "\\S+" is forbidden: User "${user}" cannot get`),
      );
    assert.equal(new Set(lookups).size, lookups.length, "each once");
    assert.ok(report.rows.some((r) => r.reason === "lookup-failed" || /forbidden/.test(r.message)));
  });

  test("an unreachable cluster stops the run with one line", async () => {
    const { file: kubeconfig, port } = await kube.unreachableKubeconfig(path.join(dir, "unreachable"));
    await assert.rejects(preview([], { policies, live: { source: { kubeconfig } } }), {
      message: `cannot reach the cluster of context "cachewarden-test" at https://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  test("dumps and --kubeconfig are one or the other; live-only flags need --kubeconfig", async () => {
    const sink = { write: () => true };
    const io = { stdout: sink, stderr: sink };
    await assert.rejects(runPreview(["a.yaml"], { output: "table", kubeconfig: true }, io), {
      message: "dump files and --kubeconfig cannot be used together",
    });
    await assert.rejects(runPreview([], { output: "table" }, io), {
      message: "give the dump files to preview, or --kubeconfig to read a live cluster",
    });
    await assert.rejects(runPreview(["a.yaml"], { output: "table", saveDump: "x" }, io), {
      message: "--save-dump reads a live cluster: give --kubeconfig too",
    });
  });
});
