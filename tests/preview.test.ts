// `cachewarden preview`: the outcome of every policy on every object of a generated dump, as the
// exact table and JSON an admin reads; broken documents; rendered ClusterAdmissionPolicy /
// AdmissionPolicy resources (an AdmissionPolicy carrying its own engines, one left without lookups);
// --fail-on, --show-patch, markdown; and the pieces (module resolution, selectors) on both sides.
// Needs the built policies (`cachewarden build`, which `npm test` runs first).
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseDump } from "../tools/preview/dump";
import { resolveModule } from "../tools/preview/policies";
import { renderJson, renderMarkdown, renderText, summarizePatch } from "../tools/preview/report";
import { preview, PreviewReport } from "../tools/preview/run";
import { runPreview } from "../tools/preview/commands";
import { evaluateMany } from "../tools/host/evaluate-pool";
import { guestPayloads } from "../tools/host/evaluate";
import { requestFromManifest } from "../tools/host/request";
import { engine } from "../tools/preview/sample-dump";
import { selectorMatches } from "../tools/preview/subjects";
import { deployObjects, listYaml, mixedObjects, pod, readmeObjects, streamYaml } from "../tools/preview/sample-dump";
import { ROOT } from "./helpers/host-guests";

const POLICIES = path.join(ROOT, "policies");
// The expected tables below are for these two policies: the tests run on a folder holding only
// them, so a policy added under policies/ does not change what they expect (the README example,
// which shows every built policy, is compared with a run over all of them).
const PINNED = path.join("build", "preview-policies");
const PINNED_POLICIES = ["cacheengine-validator", "lmcache-injector"];
const FIXTURE = path.join("tests", "fixtures", "preview-policies");
let dir: string;
let mixed: string;
let deploy: string;

before(() => {
  for (const name of ["lmcache-injector", "cacheengine-validator"])
    assert.ok(
      fs.existsSync(path.join(POLICIES, name, "annotated-policy.wasm")),
      `run \`cachewarden build\` first: ${name} is not built`,
    );
  process.chdir(ROOT); // reports show paths relative to the working directory
  fs.rmSync(PINNED, { recursive: true, force: true });
  fs.mkdirSync(PINNED, { recursive: true });
  for (const name of PINNED_POLICIES) fs.symlinkSync(path.join(POLICIES, name), path.join(PINNED, name), "dir");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-preview-"));
  mixed = path.join(dir, "mixed.yaml");
  fs.writeFileSync(mixed, listYaml(mixedObjects()));
  deploy = path.join(dir, "deploy.yaml");
  fs.writeFileSync(deploy, listYaml(deployObjects()));
});

const SKIP_PATCH = "1 op: add /metadata/annotations/lmcache.ai~1lmcache-skip-reason";
const WIRED_STAGING_PATCH =
  "8 ops: add /spec/containers/0/args, add /spec/containers/0/env, add /spec/containers/0/volumeMounts…";

const MIXED_TABLE = `Policies (built policies in build/preview-policies): cacheengine-validator, lmcache-injector
Objects: 25, evaluations: 19, broken documents: 0

Namespace team-a
  OBJECT                         POLICY                 OUTCOME    REASON / MESSAGE                                                                                      PATCH
  LMCacheEngine/cb               cacheengine-validator  untouched
  Pod/vllm-wired                 lmcache-injector       wired                                                                                                            ${WIRED_STAGING_PATCH}
  Deployment/web (pod template)  lmcache-injector       wired                                                                                                            ${WIRED_STAGING_PATCH}
  Pod/plain                      lmcache-injector       untouched
  Pod/done                       lmcache-injector       untouched
  Pod/ghost                      lmcache-injector       skipped    engine-not-found: ConfigMap team-a/ghost-connection not found                                         ${SKIP_PATCH}
  Pod/sidecar                    lmcache-injector       skipped    target-container-not-found: no container named "sidecar"                                              ${SKIP_PATCH}
  Pod/shell                      lmcache-injector       skipped    command-override: container "vllm" sets command; only args can be extended                            ${SKIP_PATCH}
  Pod/nokey                      lmcache-injector       skipped    connection-config-missing: ConfigMap team-a/nokey-connection has no kv-transfer-config.json value     ${SKIP_PATCH}
  Pod/badjson                    lmcache-injector       skipped    invalid-connection-config: kv-transfer-config.json of team-a/badjson-connection is not a JSON object  ${SKIP_PATCH}
  Pod/upper                      lmcache-injector       skipped    invalid-engine-reference: "Bad_Engine" is not a valid engine reference                                ${SKIP_PATCH}
  Pod/secrets                    lmcache-injector       skipped    invalid-image-pull-secrets: "Bad_Secret" is not a valid Secret name                                   ${SKIP_PATCH}
  LMCacheEngine/footgun          cacheengine-validator  rejected   LMCacheEngine.lmcache.lmcache.ai "footgun" is invalid: spec.injection.payloadImage.repository: Inva…
  Pod/footgun                    lmcache-injector       skipped    payload-image-invalid: payloadImage.repository is the ImageSpec default lmcache/vllm-openai           ${SKIP_PATCH}
  LMCacheEngine/mangled          cacheengine-validator  rejected   LMCacheEngine.lmcache.lmcache.ai "mangled" is invalid: spec.injection.payloadImage: Invalid value: …
  Pod/mangled                    lmcache-injector       skipped    engine-invalid: LMCacheEngine team-a/mangled is malformed: spec.injection.payloadImage has the wron…  ${SKIP_PATCH}
  Pod/numeric                    lmcache-injector       skipped    invalid-request: request could not be read: metadata.annotations[example.com/replicas] is not a str…

Namespace team-b
  OBJECT                         POLICY                 OUTCOME    REASON / MESSAGE                                                                                      PATCH
  CacheBlendEngine/blend         cacheengine-validator  rejected   CacheBlendEngine.lmcache.lmcache.ai "blend" is invalid: spec.server.chunkSize: Invalid value: 128: …
  StatefulSet/db (pod template)  lmcache-injector       untouched

Totals per policy
  POLICY                 WIRED  WOULD-WIRE  SKIPPED  REJECTED  WOULD-REJECT  REFUSED  UNTOUCHED  DEFAULTED  WOULD-DEFAULT
  cacheengine-validator      0           0        0         3             0        0          1          0              0
  lmcache-injector           2           0       10         0             0        0          3          0              0

Totals per skip reason
  REASON                      COUNT
  command-override                1
  connection-config-missing       1
  engine-invalid                  1
  engine-not-found                1
  invalid-connection-config       1
  invalid-engine-reference        1
  invalid-image-pull-secrets      1
  invalid-request                 1
  payload-image-invalid           1
  target-container-not-found      1
`;

type RowTuple = [string, string, number, string, string, string, string, string];

/** namespace, object, List item, policy, outcome, reason, message, patch summary */
const MIXED_ROWS: RowTuple[] = [
  ["team-a", "LMCacheEngine/cb", 1, "cacheengine-validator", "untouched", "", "", ""],
  ["team-a", "Pod/vllm-wired", 3, "lmcache-injector", "wired", "", "", WIRED_STAGING_PATCH],
  ["team-a", "Deployment/web (pod template)", 4, "lmcache-injector", "wired", "", "", WIRED_STAGING_PATCH],
  ["team-a", "Pod/plain", 5, "lmcache-injector", "untouched", "", "", ""],
  ["team-a", "Pod/done", 6, "lmcache-injector", "untouched", "", "", ""],
  [
    "team-a",
    "Pod/ghost",
    7,
    "lmcache-injector",
    "skipped",
    "engine-not-found",
    "ConfigMap team-a/ghost-connection not found",
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/sidecar",
    8,
    "lmcache-injector",
    "skipped",
    "target-container-not-found",
    'no container named "sidecar"',
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/shell",
    9,
    "lmcache-injector",
    "skipped",
    "command-override",
    'container "vllm" sets command; only args can be extended',
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/nokey",
    11,
    "lmcache-injector",
    "skipped",
    "connection-config-missing",
    "ConfigMap team-a/nokey-connection has no kv-transfer-config.json value",
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/badjson",
    13,
    "lmcache-injector",
    "skipped",
    "invalid-connection-config",
    "kv-transfer-config.json of team-a/badjson-connection is not a JSON object",
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/upper",
    14,
    "lmcache-injector",
    "skipped",
    "invalid-engine-reference",
    '"Bad_Engine" is not a valid engine reference',
    SKIP_PATCH,
  ],
  [
    "team-a",
    "Pod/secrets",
    15,
    "lmcache-injector",
    "skipped",
    "invalid-image-pull-secrets",
    '"Bad_Secret" is not a valid Secret name',
    SKIP_PATCH,
  ],
  [
    "team-a",
    "LMCacheEngine/footgun",
    16,
    "cacheengine-validator",
    "rejected",
    "",
    'LMCacheEngine.lmcache.lmcache.ai "footgun" is invalid: spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": is the ImageSpec default (the vLLM engine image), not a payload image; set repository to your payload image (payloadImage: {} is defaulted to this value)',
    "",
  ],
  [
    "team-a",
    "Pod/footgun",
    18,
    "lmcache-injector",
    "skipped",
    "payload-image-invalid",
    "payloadImage.repository is the ImageSpec default lmcache/vllm-openai",
    SKIP_PATCH,
  ],
  [
    "team-a",
    "LMCacheEngine/mangled",
    19,
    "cacheengine-validator",
    "rejected",
    "",
    'LMCacheEngine.lmcache.lmcache.ai "mangled" is invalid: spec.injection.payloadImage: Invalid value: "registry.example.com/p:1": must be an object',
    "",
  ],
  [
    "team-a",
    "Pod/mangled",
    21,
    "lmcache-injector",
    "skipped",
    "engine-invalid",
    "LMCacheEngine team-a/mangled is malformed: spec.injection.payloadImage has the wrong JSON type",
    SKIP_PATCH,
  ],
  // annotations holding a number cannot be stamped: the skip is reported without a patch
  [
    "team-a",
    "Pod/numeric",
    22,
    "lmcache-injector",
    "skipped",
    "invalid-request",
    "request could not be read: metadata.annotations[example.com/replicas] is not a string",
    "",
  ],
  [
    "team-b",
    "CacheBlendEngine/blend",
    23,
    "cacheengine-validator",
    "rejected",
    "",
    'CacheBlendEngine.lmcache.lmcache.ai "blend" is invalid: spec.server.chunkSize: Invalid value: 128: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)',
    "",
  ],
  ["team-b", "StatefulSet/db (pod template)", 24, "lmcache-injector", "untouched", "", "", ""],
];

const SKIP_REASONS = [
  "command-override",
  "connection-config-missing",
  "engine-invalid",
  "engine-not-found",
  "invalid-connection-config",
  "invalid-engine-reference",
  "invalid-image-pull-secrets",
  "invalid-request",
  "payload-image-invalid",
  "target-container-not-found",
];

function sink(): { write(t: string): boolean; text: string } {
  return {
    text: "",
    write(t: string) {
      this.text += t;
      return true;
    },
  };
}

describe("preview of a generated dump with the built policies", () => {
  let report: PreviewReport;
  before(async () => {
    report = await preview([mixed], { policies: PINNED, workers: 0 });
  });

  test("table: every outcome and every reachable skip reason, per namespace, with totals", () => {
    assert.equal(renderText(report), MIXED_TABLE);
  });

  test("JSON: the whole report", () => {
    const source = (item: number): string => `${mixed}#1.items[${item}]`;
    assert.deepEqual(JSON.parse(renderJson(report)), {
      policiesFrom: "built policies in build/preview-policies",
      policies: [
        {
          name: "cacheengine-validator",
          origin: "built",
          module: "build/preview-policies/cacheengine-validator/annotated-policy.wasm",
        },
        {
          name: "lmcache-injector",
          origin: "built",
          module: "build/preview-policies/lmcache-injector/annotated-policy.wasm",
        },
      ],
      objects: 25,
      evaluations: 19,
      rows: MIXED_ROWS.map(([namespace, object, item, policy, outcome, reason, message, patchSummary]) => ({
        namespace,
        object,
        source: source(item),
        policy,
        outcome,
        reason,
        message,
        patchSummary,
      })),
      totals: {
        policies: {
          "cacheengine-validator": {
            wired: 0,
            "would-wire": 0,
            skipped: 0,
            rejected: 3,
            "would-reject": 0,
            refused: 0,
            untouched: 1,
            defaulted: 0,
            "would-default": 0,
          },
          "lmcache-injector": {
            wired: 2,
            "would-wire": 0,
            skipped: 10,
            rejected: 0,
            "would-reject": 0,
            refused: 0,
            untouched: 3,
            defaulted: 0,
            "would-default": 0,
          },
        },
        reasons: Object.fromEntries(SKIP_REASONS.map((r) => [r, 1])),
      },
      broken: [],
      problems: [],
      leftOut: {},
    });
  });

  test("worker threads give the same report as the calling thread", async () => {
    const threaded = await preview([mixed], { policies: PINNED, workers: 2 });
    assert.equal(renderJson(threaded, { showPatch: true }), renderJson(report, { showPatch: true }));
  });

  test("a pod template is evaluated as the Pod it creates, in the owner's namespace", () => {
    const web = report.rows.find((r) => r.object === "Deployment/web (pod template)")!;
    const pod = report.rows.find((r) => r.object === "Pod/vllm-wired")!;
    assert.deepEqual(web.patch, pod.patch);
    assert.ok(web.patch!.some((op) => op.path === "/spec/hostIPC" && (op as { value?: unknown }).value === true));
  });

  test("--show-patch prints each operation under its row", () => {
    const text = renderText(report, { showPatch: true }).split("\n");
    const ghost = text.findIndex((l) => l.startsWith("  Pod/ghost "));
    assert.equal(
      text[ghost + 1],
      '      {"op":"add","path":"/metadata/annotations/lmcache.ai~1lmcache-skip-reason","value":"engine-not-found"}',
    );
    assert.ok(text[ghost + 2].startsWith("  Pod/sidecar "), text[ghost + 2]);
    // without the flag the next line is the next row
    const plain = renderText(report).split("\n");
    assert.ok(plain[plain.findIndex((l) => l.startsWith("  Pod/ghost ")) + 1].startsWith("  Pod/sidecar "));
  });
});

test("the README's example is the output of its dump", async () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Before you enable"));
  const example = /```text\n([\s\S]*?)```/.exec(section)![1];
  const file = path.join(dir, "cluster.yaml");
  fs.writeFileSync(file, listYaml(readmeObjects()));
  assert.equal(renderText(await preview([file], { workers: 0 })), example);
});

describe("broken documents", () => {
  test("are listed with the reason and skipped; the readable objects are still evaluated", async () => {
    const file = path.join(dir, "broken.yaml");
    const good = pod("team-a", "fine");
    fs.writeFileSync(
      file,
      [
        streamYaml([good]),
        "---\nkind: Pod\nmetadata: {name: no-api-version}\n",
        "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: [unclosed\n",
        "---\napiVersion: v1\nkind: List\nitems: {}\n",
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bare, namespace: team-a}\nspec: {}\n",
        "---\n- just\n- strings\n",
      ].join(""),
    );
    const out = sink();
    const err = sink();
    const code = await runPreview(
      [file],
      { output: "table", policies: PINNED, workers: 0 },
      { stdout: out, stderr: err },
    );
    assert.equal(code, 0);
    const report = await preview([file], { policies: PINNED, workers: 0 });
    assert.deepEqual(
      report.rows.map((r) => `${r.object} ${r.outcome}`),
      ["Pod/fine untouched"],
    );
    assert.deepEqual(report.broken, [
      { source: `${file}#2`, reason: "missing apiVersion" },
      {
        source: `${file}#3`,
        reason: "neither JSON nor YAML: unexpected end of the stream within a flow collection (24:18)",
      },
      { source: `${file}#4`, reason: "List.items is an object, not a list" },
      { source: `${file}#6[0]`, reason: "expected a Kubernetes object, got a string" },
      { source: `${file}#6[1]`, reason: "expected a Kubernetes object, got a string" },
      { source: `${file}#5`, reason: "Deployment/bare: spec.template is not an object" },
    ]);
    assert.match(out.text, /^Objects: 2, evaluations: 1, broken documents: 6$/m);
    assert.ok(
      out.text.endsWith(
        `Broken documents (left out)\n  ${file}#2: missing apiVersion\n${report.broken
          .slice(1)
          .map((b) => `  ${b.source}: ${b.reason}`)
          .join("\n")}\n`,
      ),
    );
  });

  test("an object is readable with apiVersion, kind and metadata.name, and not without one of them", () => {
    const one = (doc: string): string[] => {
      const d = parseDump(doc, "f");
      return [...d.objects.map((o) => `ok ${o.source}`), ...d.broken.map((b) => b.reason)];
    };
    assert.deepEqual(one("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"), ["ok f#1"]);
    assert.deepEqual(one("apiVersion: v1\nkind: Pod\nmetadata: {}\n"), ["missing metadata.name"]);
    assert.deepEqual(one("apiVersion: v1\nkind: Pod\n"), ["missing metadata"]);
    assert.deepEqual(one("apiVersion: v1\nmetadata: {name: p}\n"), ["missing kind"]);
    assert.deepEqual(one("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: 3}\n"), [
      "metadata.namespace is not a string",
    ]);
    assert.deepEqual(
      one('{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}]}'),
      ["ok f#1.items[0]"],
    );
  });
});

const DEPLOY_TABLE = (
  from: string,
  problemSource: string,
): string => `Policies (${from}): cacheengine-validator, lmcache-injector, team-c/lmcache-injector, team-d/lmcache-injector
Objects: 10, evaluations: 5, broken documents: 0

Namespace kube-system
  OBJECT      POLICY            OUTCOME    REASON / MESSAGE                  PATCH
  Pod/system  lmcache-injector  untouched  not selected (namespaceSelector)

Namespace kubewarden
  OBJECT          POLICY            OUTCOME    REASON / MESSAGE                  PATCH
  Pod/kubewarden  lmcache-injector  untouched  not selected (namespaceSelector)

Namespace team-a
  OBJECT            POLICY                 OUTCOME    REASON / MESSAGE               PATCH
  LMCacheEngine/cb  cacheengine-validator  untouched
  Pod/labelled      lmcache-injector       wired                                     5 ops: add /spec/containers/0/args, add /spec/containers/0/env, add /spec/hostIPC, add /metadata/an…
  Pod/unlabelled    lmcache-injector       untouched  not selected (objectSelector)

Namespace team-c
  OBJECT                          POLICY                   OUTCOME    REASON / MESSAGE                                                                    PATCH
  Deployment/chat (pod template)  lmcache-injector         untouched  not selected (namespaceSelector)
  Deployment/chat (pod template)  team-c/lmcache-injector  wired                                                                                          5 ops: add /spec/containers/0/args, add /spec/containers/0/env, add /spec/hostIPC, add /metadata/an…
  Pod/other                       lmcache-injector         untouched  not selected (namespaceSelector)
  Pod/other                       team-c/lmcache-injector  skipped    engine-not-found: engine other is not in settings.engines and lookups are disabled  ${SKIP_PATCH}

Namespace team-d
  OBJECT      POLICY                   OUTCOME    REASON / MESSAGE                                                                   PATCH
  Pod/denied  lmcache-injector         untouched  not selected (namespaceSelector)
  Pod/denied  team-d/lmcache-injector  skipped    lookup-denied: lookup of LMCacheEngine team-d/cb was denied; use settings.engines  ${SKIP_PATCH}

Totals per policy
  POLICY                   WIRED  WOULD-WIRE  SKIPPED  REJECTED  WOULD-REJECT  REFUSED  UNTOUCHED  DEFAULTED  WOULD-DEFAULT
  cacheengine-validator        0           0        0         0             0        0          1          0              0
  lmcache-injector             1           0        0         0             0        0          6          0              0
  team-c/lmcache-injector      1           0        1         0             0        0          0          0              0
  team-d/lmcache-injector      0           0        1         0             0        0          0          0              0

Totals per skip reason
  REASON            COUNT
  engine-not-found      1
  lookup-denied         1

Policy problems (left out)
  ${problemSource}: module ghcr.io/example/policies/not-built-here:v1.0.0: no local build of "not-built-here" in policies (a preview runs offline and does not pull from registries; build the policy or pass --modules)
`;

describe("rendered Kubewarden policies (deploy/-style settings)", () => {
  const rendered = path.join(FIXTURE, "policies.yaml");

  test("ClusterAdmissionPolicies with selectors and lookups, AdmissionPolicies with their own settings and no lookups", async () => {
    const report = await preview([deploy], { policies: rendered, workers: 0 });
    assert.equal(renderText(report), DEPLOY_TABLE(rendered, `${rendered}#4`));
  });

  test("cluster-wide policies skip the namespace Kubewarden runs in, as its controller writes their selectors: --policy-server-namespace moves it", async () => {
    const outcomeIn = (report: PreviewReport, namespace: string): string[] =>
      report.rows
        .filter((r) => r.namespace === namespace && r.policy === "lmcache-injector")
        .map((r) => `${r.object} ${r.outcome} ${r.reason ?? ""}`.trim());
    const byDefault = await preview([deploy], { policies: rendered, workers: 0 });
    assert.deepEqual(outcomeIn(byDefault, "kubewarden"), ["Pod/kubewarden untouched not selected (namespaceSelector)"]);
    const rancher = await preview([deploy], {
      policies: rendered,
      workers: 0,
      policyServerNamespace: "cattle-kubewarden-system",
    });
    // the pod in `kubewarden` reaches the policy now, which finds no engine `cb` in that namespace
    assert.deepEqual(outcomeIn(rancher, "kubewarden"), ["Pod/kubewarden skipped engine-not-found"]);
    // and nothing else moves
    const others = (r: PreviewReport): unknown[] => r.rows.filter((row) => row.namespace !== "kubewarden");
    assert.deepEqual(others(rancher), others(byDefault));
    // the CLI flag of the same name as `generate`'s
    const cli = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "bin", "cachewarden.js"),
        "preview",
        deploy,
        "--policies",
        rendered,
        "--policy-server-namespace",
        "cattle-kubewarden-system",
        "-o",
        "json",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    // 1: the fixture's policy with no local build is left out
    assert.equal(cli.status, 1, cli.stderr);
    assert.deepEqual(
      outcomeIn(JSON.parse(cli.stdout) as PreviewReport, "kubewarden"),
      outcomeIn(rancher, "kubewarden"),
    );
  });

  test("the AdmissionPolicy injects the kvTransferConfig of its own settings", async () => {
    const report = await preview([deploy], { policies: rendered, workers: 0 });
    const row = report.rows.find((r) => r.policy === "team-c/lmcache-injector" && r.outcome === "wired")!;
    assert.deepEqual(row.patch![1], {
      op: "add",
      path: "/spec/containers/0/args/3",
      value:
        '{"kv_connector":"LMCacheMPConnector","kv_connector_extra_config":{"lmcache.mp.host":"tcp://cb.team-c.svc.cluster.local"},"kv_role":"kv_both"}',
    });
    // the cluster-wide policy reads team-a's ConfigMap from the dump instead
    const clusterWide = report.rows.find((r) => r.object === "Pod/labelled")!;
    assert.match(
      String(clusterWide.patch![1].op === "add" && (clusterWide.patch![1] as { value: string }).value),
      /cb\.team-a\.svc/,
    );
  });

  test("a kustomization is rendered with kubectl kustomize and gives the same report", async (t) => {
    if (spawnSync("kubectl", ["version", "--client"]).status !== 0) {
      t.skip("kubectl is not installed");
      return;
    }
    const report = await preview([deploy], { policies: FIXTURE, workers: 0 });
    const from = `kubectl kustomize ${FIXTURE}`;
    // kustomize sorts resources by kind: the unresolvable policy is its fifth document
    assert.equal(renderText(report), DEPLOY_TABLE(from, `${from}#5`));
  });

  test("markdown: one table per namespace, the patches with --show-patch, the totals", async () => {
    const report = await preview([deploy], { policies: rendered, workers: 0 });
    const text = renderMarkdown(report, { showPatch: true });
    assert.ok(
      text.includes(
        [
          "### Namespace `team-d`",
          "",
          "| Object | Policy | Outcome | Reason / message | Patch |",
          "|---|---|---|---|---|",
          "| Pod/denied | lmcache-injector | untouched | not selected (namespaceSelector) |  |",
          `| Pod/denied | team-d/lmcache-injector | skipped | lookup-denied: lookup of LMCacheEngine team-d/cb was denied; use settings.engines | ${SKIP_PATCH} |`,
          "",
          "Pod/denied (team-d/lmcache-injector):",
          "",
          "```json",
          '{"op":"add","path":"/metadata/annotations/lmcache.ai~1lmcache-skip-reason","value":"lookup-denied"}',
          "```",
          "",
          "### Totals per policy",
          "",
          "| Policy | wired | would-wire | skipped | rejected | would-reject | refused | untouched | defaulted | would-default |",
          "|---|---|---|---|---|---|---|---|---|---|",
          "| cacheengine-validator | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 |",
        ].join("\n"),
      ),
      text,
    );
    assert.ok(text.startsWith("## cachewarden preview\n"), text);
  });
});

describe("policy-server's post-processing", () => {
  const policy = (name: string, extra: string): string => `---
apiVersion: policies.kubewarden.io/v1
kind: ClusterAdmissionPolicy
metadata: {name: ${name}}
spec:
  module: ghcr.io/cachewarden/policies/lmcache-injector:v0.1.0
  rules: [{apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}]
  contextAwareResources: [{apiVersion: v1, kind: ConfigMap}, {apiVersion: lmcache.lmcache.ai/v1alpha1, kind: LMCacheEngine}]
${extra}
`;

  test("mutating: false turns a wiring into a rejection, spec.message replaces it, monitor says what it would wire", async () => {
    const file = path.join(dir, "post-processing.yaml");
    fs.writeFileSync(
      file,
      policy("not-mutating", "  mutating: false") +
        policy("custom-message", "  mutating: false\n  message: ask the platform team") +
        policy("monitored", "  mutating: true\n  mode: monitor") +
        policy("protecting", "  mutating: true"),
    );
    const dump = path.join(dir, "one-pod.yaml");
    fs.writeFileSync(dump, listYaml(mixedObjects().slice(1, 4)));
    const report = await preview([dump], { policies: file, workers: 0 });
    assert.deepEqual(
      report.rows.filter((r) => r.object === "Pod/vllm-wired").map((r) => [r.policy, r.outcome, r.message]),
      [
        ["custom-message", "rejected", "ask the platform team"],
        ["monitored", "would-wire", ""],
        [
          "not-mutating",
          "rejected",
          "Request rejected by policy clusterwide-not-mutating. The policy attempted to mutate the request, but it is currently configured to not allow mutations.",
        ],
        ["protecting", "wired", ""],
      ],
    );
  });
});

test("the worker pool answers in job order across chunks and threads", async () => {
  const module = fs.readFileSync(path.join(POLICIES, "cacheengine-validator", "annotated-policy.wasm"));
  const names = Array.from({ length: 40 }, (_, i) => `engine-${i}`);
  const jobs = names.map((name) => {
    const request = requestFromManifest(
      engine("ns", name, { payloadImage: { repository: "lmcache/vllm-openai" } }) as Record<string, unknown>,
    );
    return { policy: 0, request, payload: guestPayloads(request).validate };
  });
  const progress: number[] = [];
  const results = await evaluateMany([{ moduleBytes: module, source: "cacheengine-validator", options: {} }], jobs, {
    workers: 2,
    chunkSize: 3,
    onProgress: (done) => progress.push(done),
  });
  assert.deepEqual(
    results.map((r) => /"([^"]+)" is invalid/.exec(r.response.status?.message ?? "")?.[1]),
    names,
  );
  assert.equal(progress.length, 14); // one report per chunk of 3
  assert.equal(progress[progress.length - 1], 40);
});

describe("--fail-on", () => {
  async function exit(failOn: ("wired" | "skipped" | "rejected" | "untouched" | "broken")[], file: string) {
    const err = sink();
    const code = await runPreview(
      [file],
      { output: "json", failOn, policies: PINNED, workers: 0 },
      { stdout: sink(), stderr: err },
    );
    return { code, stderr: err.text.split("\n").filter((l) => l.startsWith("cachewarden:")) };
  }

  test("exits 1 naming what was found, 0 when nothing matches", async () => {
    assert.deepEqual(await exit(["rejected", "skipped"], mixed), {
      code: 1,
      stderr: ["cachewarden: preview failed (--fail-on): 3 rejected, 10 skipped"],
    });
    const wiredOnly = path.join(dir, "wired-only.yaml");
    fs.writeFileSync(wiredOnly, listYaml(mixedObjects().slice(0, 4)));
    assert.deepEqual(await exit(["rejected", "skipped", "broken"], wiredOnly), { code: 0, stderr: [] });
    assert.deepEqual(await exit(["wired"], wiredOnly), {
      code: 1,
      stderr: ["cachewarden: preview failed (--fail-on): 1 wired"],
    });
    assert.deepEqual(await exit([], mixed), { code: 0, stderr: [] });
  });

  test("the CLI command: output on stdout, progress and the failure on stderr, exit 1; a bad value exits 2", () => {
    const bin = path.join(ROOT, "bin", "cachewarden.js");
    const r = spawnSync(
      process.execPath,
      [bin, "preview", mixed, "--policies", PINNED, "-o", "json", "--fail-on", "rejected"],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).evaluations, 19);
    assert.match(r.stderr, /^preview: 19\/19 evaluations \(\d+\.\d s\)$/m);
    assert.match(r.stderr, /^cachewarden: preview failed \(--fail-on\): 3 rejected$/m);
    const bad = spawnSync(process.execPath, [bin, "preview", mixed, "--fail-on", "denied"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(bad.status, 2);
    assert.match(
      bad.stderr,
      /expected a comma list of wired, would-wire, skipped, rejected, would-reject, refused, untouched, defaulted, would-default, broken; got "denied"/,
    );
  });
});

describe("module references resolve to local builds", () => {
  const ok = (ref: string): string => {
    const r = resolveModule(ref, POLICIES, ROOT);
    assert.ok("path" in r, JSON.stringify(r));
    return path.relative(ROOT, r.path);
  };
  const built = path.join("policies", "lmcache-injector", "annotated-policy.wasm");

  test("by name from registry references (tag, digest, scheme) and file names", () => {
    assert.equal(ok("ghcr.io/cachewarden/policies/lmcache-injector:v0.1.0"), built);
    assert.equal(ok("registry://ghcr.io/cachewarden/policies/lmcache-injector@sha256:0123abcd"), built);
    assert.equal(ok("https://example.com/lmcache-injector.wasm"), built);
    assert.equal(ok("file:///nowhere/lmcache-injector/annotated-policy.wasm"), built);
    assert.equal(ok(built), built); // an existing path is used as it is
  });

  test("an unknown name is a reason, not a guess", () => {
    assert.deepEqual(resolveModule("ghcr.io/x/policies/lmcache:v1", POLICIES, ROOT), {
      reason: `module ghcr.io/x/policies/lmcache:v1: no local build of "lmcache" in policies (a preview runs offline and does not pull from registries; build the policy or pass --modules)`,
    });
  });
});

describe("selectors", () => {
  const labels = { app: "vllm", tier: "gpu" };
  test("each operator on both sides", () => {
    const expr = (operator: string, values?: string[], key = "tier") =>
      selectorMatches({ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }, labels);
    assert.equal(selectorMatches({ matchLabels: { app: "vllm" } }, labels), true);
    assert.equal(selectorMatches({ matchLabels: { app: "web" } }, labels), false);
    assert.equal(expr("In", ["gpu", "cpu"]), true);
    assert.equal(expr("In", ["cpu"]), false);
    assert.equal(expr("NotIn", ["cpu"]), true);
    assert.equal(expr("NotIn", ["gpu"]), false);
    assert.equal(expr("Exists"), true);
    assert.equal(expr("Exists", undefined, "zone"), false);
    assert.equal(expr("DoesNotExist", undefined, "zone"), true);
    assert.equal(expr("DoesNotExist"), false);
    assert.equal(expr("Sometimes", ["gpu"]), false);
    assert.equal(selectorMatches(undefined, labels), true);
  });
});

test("patch summary: count, paths without list indexes, clipped to one line", () => {
  assert.equal(summarizePatch(undefined), "");
  assert.equal(summarizePatch([{ op: "add", path: "/spec/hostIPC", value: true }]), "1 op: add /spec/hostIPC");
  assert.equal(
    summarizePatch([
      { op: "add", path: "/spec/containers/0/args/2", value: "a" },
      { op: "add", path: "/spec/containers/0/args/3", value: "b" },
      { op: "remove", path: "/metadata/annotations/x" },
    ]),
    "3 ops: add /spec/containers/0/args, remove /metadata/annotations/x",
  );
  const long = summarizePatch(Array.from({ length: 20 }, (_, i) => ({ op: "add" as const, path: `/a${i}`, value: 1 })));
  assert.equal(long.length, 100);
  assert.ok(long.endsWith("…"));
});

describe("CacheBackends", () => {
  const BACKENDS = path.join("build", "preview-backend-policies");
  const backend = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({
    apiVersion: "inferencecache.io/v1alpha1",
    kind: "CacheBackend",
    metadata: { name, namespace: "team-a" },
    spec,
  });
  const hiCache = { runtime: "SGLang", type: "SGLangHiCache", engineSelector: { matchLabels: { app: "sglang" } } };
  const nfs = { provider: "NFS", ownership: "External", nfs: { server: "192.0.2.10", path: "/", mountPath: "/l3" } };

  test("a backend the defaulter changes is `defaulted` with its patch; one it leaves alone `untouched`", async (t) => {
    const names = ["cachebackend-defaulter", "cachebackend-validator"];
    if (!names.every((n) => fs.existsSync(path.join(POLICIES, n, "annotated-policy.wasm"))))
      return t.skip("cachebackend-defaulter or cachebackend-validator is not built");
    fs.rmSync(BACKENDS, { recursive: true, force: true });
    fs.mkdirSync(BACKENDS, { recursive: true });
    for (const name of names) fs.symlinkSync(path.join(POLICIES, name), path.join(BACKENDS, name), "dir");
    const file = path.join(dir, "backends.yaml");
    fs.writeFileSync(
      file,
      listYaml([
        backend("host-only", { ...hiCache, hiCache: { ratio: "2.0" } }),
        backend("nfs", { ...hiCache, hiCache: { ratio: "2.0", storagePrefetchPolicy: "timeout" }, remoteStorage: nfs }),
        backend("stored", { resources: {}, integration: { engine: "vllm", firstEventTimeout: "5m0s" } }),
      ]),
    );
    const report = await preview([file], { policies: BACKENDS, workers: 0 });
    const rows = report.rows.map((r) => [r.object, r.policy, r.outcome, r.message, summarizePatch(r.patch)]);
    const nfsWarning =
      "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";
    assert.deepEqual(rows, [
      [
        "CacheBackend/host-only",
        "cachebackend-defaulter",
        "defaulted",
        "",
        "2 ops: add /spec/integration, add /spec/observation",
      ],
      ["CacheBackend/host-only", "cachebackend-validator", "untouched", "", ""],
      [
        "CacheBackend/nfs",
        "cachebackend-defaulter",
        "defaulted",
        nfsWarning,
        "2 ops: add /spec/integration, add /spec/observation",
      ],
      [
        "CacheBackend/nfs",
        "cachebackend-validator",
        "rejected",
        'CacheBackend.inferencecache.io "nfs" is invalid: spec.integration.failOpen: Invalid value: true: must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency',
        "",
      ],
      ["CacheBackend/stored", "cachebackend-defaulter", "untouched", "", ""],
      ["CacheBackend/stored", "cachebackend-validator", "untouched", "", ""],
    ]);
    assert.deepEqual(report.totals.policies["cachebackend-defaulter"], {
      wired: 0,
      "would-wire": 0,
      skipped: 0,
      rejected: 0,
      "would-reject": 0,
      refused: 0,
      untouched: 1,
      defaulted: 2,
      "would-default": 0,
    });
    // the patch itself, as --show-patch prints it
    const patch = report.rows[0].patch!;
    assert.deepEqual(patch, [
      { op: "add", path: "/spec/integration", value: { engine: "sglang" } },
      { op: "add", path: "/spec/observation", value: { firstEventTimeout: "5m0s" } },
    ]);
  });
});
