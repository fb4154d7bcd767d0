// `cachewarden preview` as a CI gate: it fails when it checked nothing (a dump path that cannot be
// read, a policy left out, no policy built, an empty dump), it reports a wired pod the namespace's
// Pod Security `enforce` level refuses as `refused`, monitor-mode policies say what they would do,
// and every workload kind's pod template is previewed (what is not previewed is named and counted).
// Needs the built policies (`cachewarden build`, which `npm test` runs first).
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPreview } from "../tools/preview/commands";
import { parseDump } from "../tools/preview/dump";
import { renderText } from "../tools/preview/report";
import { preview } from "../tools/preview/run";
import { connection, engine, listYaml, pod, podSpec } from "../tools/preview/sample-dump";
import { ROOT } from "./helpers/host-guests";

const POLICIES = path.join(ROOT, "policies");
const ENGINE = "lmcache.ai/lmcache-engine";
const STAGING = { payloadImage: { repository: "registry.example.com/lmcache/payload", tag: "pinned" } };
let dir: string;
let lmcacheOnly: string;

const sink = () => {
  const s = { text: "", write: (t: string) => ((s.text += t), true) };
  return s;
};

async function gate(dumps: string[], flags: Record<string, unknown> = {}): Promise<{ code: number; errors: string[] }> {
  const err = sink();
  const code = await runPreview(
    dumps,
    { output: "json", workers: 0, policies: lmcacheOnly, ...flags },
    { stdout: sink(), stderr: err },
  );
  return { code, errors: err.text.split("\n").filter((l) => l.startsWith("cachewarden:")) };
}

const namespace = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, labels },
});

function write(name: string, objects: Record<string, unknown>[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, listYaml(objects));
  return file;
}

before(() => {
  assert.ok(fs.existsSync(path.join(POLICIES, "lmcache-injector", "annotated-policy.wasm")), "run `cachewarden build`");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-gate-"));
  lmcacheOnly = path.join(dir, "policies");
  fs.mkdirSync(lmcacheOnly);
  fs.symlinkSync(path.join(POLICIES, "lmcache-injector"), path.join(lmcacheOnly, "lmcache-injector"), "dir");
});

describe("a preview that checked nothing fails, whatever --fail-on says", () => {
  test("a dump path that cannot be read stops the run with the path and a hint", async () => {
    const missing = path.join(dir, "clsuter.yaml");
    await assert.rejects(preview([missing], { policies: lmcacheOnly, workers: 0 }), {
      message: `cannot read dump ${missing}: ENOENT: no such file (check the path)`,
    });
    await assert.rejects(preview([dir], { policies: lmcacheOnly, workers: 0 }), {
      message: `cannot read dump ${dir}: EISDIR: is a directory (give a file)`,
    });
  });

  test("a policy left out for invalid settings fails the run, with or without --fail-on", async () => {
    const dump = write("one.yaml", [pod("team-a", "p")]);
    const policies = path.join(dir, "bad-settings.yaml");
    fs.writeFileSync(
      policies,
      `apiVersion: policies.kubewarden.io/v1
kind: ClusterAdmissionPolicy
metadata: {name: lmcache-injector}
spec:
  module: ghcr.io/cachewarden/policies/lmcache-injector:v0.1.0
  rules: [{apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}]
  settings: {lookup: "yes"}
`,
    );
    for (const failOn of [undefined, ["rejected"]]) {
      const r = await gate([dump], { policies, modules: POLICIES, ...(failOn ? { failOn } : {}) });
      assert.equal(r.code, 1);
      assert.deepEqual(r.errors, [
        "cachewarden: preview failed: no policy was evaluated",
        'cachewarden: preview failed: 1 policy was left out (see "Policy problems")',
      ]);
    }
  });

  test("nothing built: the failure says how to build", async () => {
    const unbuilt = path.join(dir, "unbuilt", "some-policy");
    fs.mkdirSync(unbuilt, { recursive: true });
    fs.writeFileSync(path.join(unbuilt, "metadata.yml"), "rules: []\n");
    const dump = write("p.yaml", [pod("team-a", "p")]);
    const r = await gate([dump], { policies: path.dirname(unbuilt) });
    assert.equal(r.code, 1);
    assert.deepEqual(r.errors, [
      "cachewarden: preview failed: no policy was evaluated",
      'cachewarden: preview failed: 1 policy was left out (see "Policy problems")',
    ]);
    const report = await preview([dump], { policies: path.dirname(unbuilt), workers: 0 });
    assert.deepEqual(
      report.problems.map((p) => p.reason),
      ["some-policy is not built (run `cachewarden build some-policy`)"],
    );
    // an empty policies folder: nothing left out, so the failure itself says how to build
    const empty = path.join(dir, "no-policies");
    fs.mkdirSync(empty, { recursive: true });
    assert.match(
      (await gate([dump], { policies: empty })).errors[0],
      /no policy was evaluated: build them first \(`npm run build`/,
    );
  });

  test("an empty dump fails; a dump with objects and every policy evaluated passes", async () => {
    assert.deepEqual(await gate([write("empty.yaml", [])]), {
      code: 1,
      errors: ["cachewarden: preview failed: the dumps hold no object to preview"],
    });
    assert.deepEqual(await gate([write("fine.yaml", [pod("team-a", "p")])]), { code: 0, errors: [] });
  });
});

describe("Pod Security: a wired pod its namespace's enforce level refuses", () => {
  // engine `cb` is a first-operator engine: the pod is wired with spec.hostIPC, which baseline refuses
  const cluster = (labels: Record<string, string>) => [
    namespace("team-a", labels),
    engine("team-a", "cb", STAGING),
    connection("team-a", "cb"),
    pod("team-a", "vllm", { [ENGINE]: "cb" }),
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "team-a" },
      spec: { template: { metadata: { annotations: { [ENGINE]: "cb" } }, spec: podSpec() } },
    },
  ];

  test("enforce: baseline → refused with the API server's reason; counted; matched by --fail-on", async () => {
    const dump = write("ps.yaml", cluster({ "pod-security.kubernetes.io/enforce": "baseline" }));
    const report = await preview([dump], { policies: lmcacheOnly, workers: 0 });
    const rows = report.rows.filter((r) => r.policy === "lmcache-injector");
    assert.deepEqual(
      rows.map((r) => [r.object, r.outcome, r.reason, r.message]),
      [
        [
          "Pod/vllm",
          "refused",
          "pod-security",
          'violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)',
        ],
        [
          "Deployment/web (pod template)",
          "refused",
          "pod-security",
          'violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)',
        ],
      ],
    );
    assert.ok(
      rows.every((r) => r.patch && r.patch.length > 0),
      "the patch that causes it is kept",
    );
    assert.equal(report.totals.policies["lmcache-injector"].refused, 2);
    assert.match(renderText(report), /^ {2}lmcache-injector +0 +0 +0 +0 +0 +2 +0 +0 +0$/m);
    assert.deepEqual(await gate([dump], { failOn: ["refused"] }), {
      code: 1,
      errors: ["cachewarden: preview failed (--fail-on): 2 refused"],
    });
  });

  test("a pinned version is honoured; privileged and no label leave the pod wired", async () => {
    const pinned = write(
      "pinned.yaml",
      cluster({
        "pod-security.kubernetes.io/enforce": "restricted",
        "pod-security.kubernetes.io/enforce-version": "v1.21",
      }),
    );
    const row = (await preview([pinned], { policies: lmcacheOnly, workers: 0 })).rows.find(
      (r) => r.object === "Pod/vllm",
    )!;
    assert.equal(row.outcome, "refused");
    assert.match(row.message, /^violates PodSecurity "restricted:v1\.21": host namespaces \(hostIPC=true\), /);
    assert.doesNotMatch(row.message, /unrestricted capabilities/, "restricted's capability rule starts at v1.22");
    for (const labels of [{ "pod-security.kubernetes.io/enforce": "privileged" }, {}] as Record<string, string>[]) {
      const r = (await preview([write("open.yaml", cluster(labels))], { policies: lmcacheOnly, workers: 0 })).rows;
      assert.equal(r.find((x) => x.object === "Pod/vllm")!.outcome, "wired");
    }
  });

  test("warn: the pod stays wired and the row carries the warning", async () => {
    const dump = write("warn.yaml", cluster({ "pod-security.kubernetes.io/warn": "baseline" }));
    const row = (await preview([dump], { policies: lmcacheOnly, workers: 0 })).rows.find(
      (r) => r.object === "Pod/vllm",
    )!;
    assert.equal(row.outcome, "wired");
    assert.equal(
      row.message,
      'Pod Security warning: violates PodSecurity "baseline:latest": host namespaces (hostIPC=true)',
    );
  });
});

describe("monitor mode says what the policy would do", () => {
  test("would-wire with the patch, would-reject with the message; --fail-on takes either spelling", async () => {
    const policies = path.join(dir, "monitor.yaml");
    const cap = (name: string, extra: string) => `---
apiVersion: policies.kubewarden.io/v1
kind: ClusterAdmissionPolicy
metadata: {name: ${name}}
spec:
  module: ghcr.io/cachewarden/policies/${name}:v0.1.0
  mode: monitor
  rules: ${extra}
  contextAwareResources: [{apiVersion: v1, kind: ConfigMap}, {apiVersion: lmcache.lmcache.ai/v1alpha1, kind: LMCacheEngine}]
  mutating: true
`;
    fs.writeFileSync(
      policies,
      cap("lmcache-injector", '[{apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}]') +
        cap(
          "cacheengine-validator",
          "[{apiGroups: [lmcache.lmcache.ai], apiVersions: [v1alpha1], resources: [lmcacheengines], operations: [CREATE]}]",
        ),
    );
    const dump = write("monitor-dump.yaml", [
      engine("team-a", "cb", STAGING),
      connection("team-a", "cb"),
      pod("team-a", "vllm", { [ENGINE]: "cb" }),
      engine("team-a", "footgun", { payloadImage: { repository: "lmcache/vllm-openai", tag: "latest" } }),
    ]);
    const report = await preview([dump], { policies, modules: POLICIES, workers: 0 });
    const byObject = Object.fromEntries(report.rows.map((r) => [r.object, r]));
    assert.equal(byObject["Pod/vllm"].outcome, "would-wire");
    assert.ok(byObject["Pod/vllm"].patch?.some((op) => op.path === "/spec/hostIPC"));
    assert.equal(byObject["LMCacheEngine/footgun"].outcome, "would-reject");
    assert.match(byObject["LMCacheEngine/footgun"].message, /"footgun" is invalid: spec\.injection\.payloadImage/);
    assert.equal(byObject["LMCacheEngine/cb"].outcome, "untouched");
    const r = await gate([dump], { policies, modules: POLICIES, failOn: ["would-reject", "would-wire"] });
    assert.deepEqual(r, { code: 1, errors: ["cachewarden: preview failed (--fail-on): 1 would-reject, 1 would-wire"] });
  });
});

describe("workload kinds: every pod template is previewed, what is not previewed is named", () => {
  const template = { metadata: { annotations: { [ENGINE]: "cb" } }, spec: podSpec() };
  const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: "team-a", ...extra });
  const objects = [
    engine("team-a", "cb", { payloadImage: { repository: "registry.example.com/lmcache/payload", tag: "pinned" } }),
    connection("team-a", "cb"),
    { apiVersion: "apps/v1", kind: "DaemonSet", metadata: meta("ds"), spec: { template } },
    { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: meta("rs"), spec: { template } },
    { apiVersion: "batch/v1", kind: "Job", metadata: meta("job"), spec: { template } },
    { apiVersion: "batch/v1", kind: "CronJob", metadata: meta("cron"), spec: { jobTemplate: { spec: { template } } } },
    {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: meta("web-5d4f", { ownerReferences: [{ kind: "Deployment", name: "web", controller: true }] }),
      spec: { template },
    },
    {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: meta("cron-28000", { ownerReferences: [{ kind: "CronJob", name: "cron", controller: true }] }),
      spec: { template },
    },
    { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", metadata: meta("canary"), spec: { template } },
    { apiVersion: "v1", kind: "Service", metadata: meta("svc") },
    { apiVersion: "v1", kind: "Service", metadata: meta("svc2") },
  ];

  test("DaemonSets, ReplicaSets, Jobs and CronJobs are wired through their templates; owned ones by their owner", async () => {
    const report = await preview([write("workloads.yaml", objects)], { policies: lmcacheOnly, workers: 0 });
    assert.deepEqual(
      report.rows.map((r) => `${r.object} ${r.outcome}`),
      [
        "DaemonSet/ds (pod template) wired",
        "ReplicaSet/rs (pod template) wired",
        "Job/job (pod template) wired",
        "CronJob/cron (pod template) wired",
      ],
    );
    assert.deepEqual(report.leftOut, { Rollout: 1, Service: 2 });
    const text = renderText(report);
    assert.match(
      text,
      /\nNot previewed \(no policy evaluates these kinds\)\n {2}KIND +OBJECTS\n {2}Rollout +1\n {2}Service +2\n/,
    );
  });
});

test("a YAML error in a multi-document file names the file's line, not the document's", () => {
  const text = [
    "---",
    "apiVersion: v1",
    "kind: Pod",
    "metadata: {name: a}",
    "---",
    "# the second document",
    "apiVersion: v1",
    "kind: Pod",
    "metadata:",
    "  name: [unclosed",
    "  labels: {}",
  ].join("\n");
  assert.deepEqual(parseDump(text, "f.yaml").broken, [
    {
      source: "f.yaml#2",
      reason: "neither JSON nor YAML: deficient indentation (11:3)",
    },
  ]);
  const inline =
    "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n--- {apiVersion: v1, kind: Pod, metadata: {name: [x}}\n";
  assert.match(parseDump(inline, "g.yaml").broken[0].reason, /\(4:\d+\)$/);
});
