// lmcache-injector and cacheblend-injector on one pod, in both orders (the API server calls them in
// webhook-name order, docs/policies/lmcache-injector.md#registration): the first wires the pod as
// alone; the second finds the first's --kv-transfer-config, wires everything else, keeps the first's
// value and records `kv-transfer-config-present`. Each policy writes only its own annotation keys.
// Skips, with the reason, only when either injector has not been built.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { evaluate } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { KubeObject } from "../tools/host/cluster";
import { AdmissionRequest } from "../tools/host/request";
import { metadataContextAwareResources, readPolicyMetadata } from "../tools/host/metadata";
import { Kube, kubeServer } from "./helpers/apiserver";
import { assertEmittedPodsAccepted } from "./helpers/emitted-pods";

const ROOT = path.resolve(__dirname, "..");
const wasmOf = (policy: string): string => path.join(ROOT, "policies", policy, "annotated-policy.wasm");
const LMCACHE = "lmcache-injector";
const CACHEBLEND = "cacheblend-injector";
const NS = "vllm-ns";
const API = "lmcache.lmcache.ai/v1alpha1";
const KV_FLAG = "--kv-transfer-config";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

const LMCACHE_KV = JSON.stringify({ kv_connector: "LMCacheMPConnector", kv_role: "kv_both" }, null, 2);
const CACHEBLEND_KV = JSON.stringify({ kv_connector: "CBKVConnector", kv_role: "kv_both" }, null, 2);

/** LMCacheEngine `lmc` (no injection: connection-only) and CacheBlendEngine `cb` (staged plugin). */
const CLUSTER: KubeObject[] = [
  { apiVersion: API, kind: "LMCacheEngine", metadata: { name: "lmc", namespace: NS }, spec: {} },
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "lmc-connection", namespace: NS },
    data: { "kv-transfer-config.json": LMCACHE_KV },
  },
  {
    apiVersion: API,
    kind: "CacheBlendEngine",
    metadata: { name: "cb", namespace: NS },
    spec: { injection: { payloadImage: { repository: "reg/cb-payload", tag: "pinned" } } },
  },
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "cb-connection", namespace: NS },
    data: { "kv-transfer-config.json": CACHEBLEND_KV },
  },
];

const POD: J = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name: "vllm-pod",
    namespace: NS,
    labels: { "lmcache.ai/lmcache-inject": "true", "lmcache.ai/cacheblend-inject": "true" },
    annotations: { "lmcache.ai/lmcache-engine": "lmc", "lmcache.ai/cacheblend-engine": "cb" },
  },
  spec: { containers: [{ name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "m"] }] },
};

function requestFor(object: J): AdmissionRequest {
  return {
    uid: "b7f0c3d2-5a4e-4c1b-9e8f-2d3c4b5a6f70",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    name: "vllm-pod",
    namespace: NS,
    operation: "CREATE",
    userInfo: { username: "system:serviceaccount:kube-system:replicaset-controller" },
    object,
  } as AdmissionRequest;
}

interface Step {
  object: J;
  warnings: string[];
}

/** One admission by `policy` on `object`, as policy-server with the policy's own grants. */
function admit(policy: string, object: J): Step {
  const module = PolicyModule.fromFile(wasmOf(policy));
  const r = evaluate(module, requestFor(object), {
    settings: {},
    timeBudgetMs: null,
    allowedToMutate: true,
    policyId: `clusterwide-${policy}`,
    capabilities: {
      contextAwareResources: metadataContextAwareResources(readPolicyMetadata(module.module)),
      cluster: CLUSTER,
    },
  });
  assert.equal(r.trap, undefined, `${policy} trapped: ${r.trap}`);
  assert.equal(r.response?.allowed, true, JSON.stringify(r.response));
  return { object: r.mutatedObject as J, warnings: r.response?.warnings ?? [] };
}

const annotations = (o: J): Record<string, string> => o.metadata.annotations ?? {};
const prefixOf = (policy: string): string => (policy === LMCACHE ? "lmcache.ai/lmcache-" : "lmcache.ai/cacheblend-");

/** The annotation keys `after` adds, changes or removes relative to `before`. */
function changedAnnotationKeys(before: J, after: J): string[] {
  const a = annotations(before);
  const b = annotations(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

const kvTokens = (o: J): string[] =>
  (o.spec.containers[0].args as string[]).filter((t) => t === KV_FLAG || t.startsWith(`${KV_FLAG}=`));
const kvValue = (o: J): string => {
  const args: string[] = o.spec.containers[0].args;
  return args[args.indexOf(KV_FLAG) + 1];
};
const envNames = (o: J): string[] => (o.spec.containers[0].env ?? []).map((e: J) => e.name);

const built = [LMCACHE, CACHEBLEND].filter((p) => !fs.existsSync(wasmOf(p)));

let kube: Kube;
before(async () => {
  kube = await kubeServer();
});

describe(
  "lmcache-injector and cacheblend-injector on one pod",
  { skip: built.length === 0 ? false : `${built.join(", ")} not built (run cachewarden build)` },
  () => {
    for (const [first, second] of [
      [LMCACHE, CACHEBLEND],
      [CACHEBLEND, LMCACHE],
    ]) {
      test(`${first} then ${second}: each stamps only its own keys; ${second} records kv-transfer-config-present`, () => {
        const one = admit(first, clone(POD));
        assert.deepEqual(one.warnings, [], `${first} runs as if alone`);
        assert.deepEqual(changedAnnotationKeys(POD, one.object), [`${prefixOf(first)}injected`]);
        assert.equal(annotations(one.object)[`${prefixOf(first)}injected`], "true");
        assert.equal(kvTokens(one.object).length, 1);
        const firstKv = first === LMCACHE ? LMCACHE_KV : CACHEBLEND_KV;
        assert.equal(kvValue(one.object), firstKv);

        const two = admit(second, one.object);
        assert.deepEqual(changedAnnotationKeys(one.object, two.object), [
          `${prefixOf(second)}injected`,
          `${prefixOf(second)}skip-reason`,
        ]);
        assert.equal(annotations(two.object)[`${prefixOf(second)}injected`], "true");
        assert.equal(annotations(two.object)[`${prefixOf(second)}skip-reason`], "kv-transfer-config-present");
        assert.deepEqual(two.warnings, [
          `${second}: kv-transfer-config-present: container "vllm" already sets --kv-transfer-config; the engine connection config was not injected`,
        ]);
        // the first policy's connection stays the only one
        assert.equal(kvTokens(two.object).length, 1);
        assert.equal(kvValue(two.object), firstKv);

        // and both policies' own wiring is there
        const spec = two.object.spec;
        assert.equal(spec.hostIPC, true);
        assert.ok(envNames(two.object).includes("PYTHONHASHSEED"), "lmcache-injector's PYTHONHASHSEED");
        assert.deepEqual(
          spec.initContainers.map((c: J) => c.name),
          ["cb-plugin-stage"],
        );
        for (const flag of ["--attention-backend", "--block-size", "--no-async-scheduling", "--enforce-eager"])
          assert.ok(spec.containers[0].args.includes(flag), `cacheblend-injector's ${flag}`);

        // the API server takes the twice-wired pod, in a `privileged` namespace only (hostIPC)
        const label = `${first} then ${second}`;
        assertEmittedPodsAccepted(kube, [
          { before: POD, after: one.object, label: `${label}: first` },
          { before: one.object, after: two.object, label },
        ]);
        const [baseline] = kube.admitPods([two.object], "baseline", [label]);
        assert.match(baseline.message, /violates PodSecurity "baseline:latest": host namespaces \(hostIPC=true\)/);
      });
    }
  },
);
