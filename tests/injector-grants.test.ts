// lmcache-injector under the context-aware grants policy-server gives it: a grant for LMCacheEngine
// matches on the whole apiVersion (group and version) and the kind. A grant of the same kind in
// another version or another group is no grant: the host denies the lookup with policy-server's
// text and the injector skips with `lookup-denied` (fail open), exactly as it does with no grant.
// Skips, with the reason, only when lmcache-injector has not been built.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { evaluate, EvaluationResult } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { ContextAwareResource } from "../tools/host/metadata";
import { loadClusterObjects } from "../tools/host/cluster";
import { loadAdmissionRequest, loadSettings } from "../tools/host/request";

const ROOT = path.resolve(__dirname, "..");
const INJECTOR = path.join(ROOT, "policies", "lmcache-injector");
const WASM = path.join(INJECTOR, "annotated-policy.wasm");
const data = (f: string): string => path.join(INJECTOR, "test_data", f);
const CONFIGMAP: ContextAwareResource = { apiVersion: "v1", kind: "ConfigMap" };
const ENGINE_API = "lmcache.lmcache.ai/v1alpha1";

function run(module: PolicyModule, engineGrant: string): EvaluationResult {
  return evaluate(module, loadAdmissionRequest(data("request_full-injection.json")), {
    settings: loadSettings(data("settings_default.json")),
    allowedToMutate: true,
    timeBudgetMs: null,
    capabilities: {
      contextAwareResources: [CONFIGMAP, { apiVersion: engineGrant, kind: "LMCacheEngine" }],
      cluster: loadClusterObjects(data("cluster_staging.yml")),
    },
  });
}

describe(
  "lmcache-injector: LMCacheEngine grants match apiVersion and kind",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  () => {
    const module = (): PolicyModule => PolicyModule.fromFile(WASM);

    test("the exact grant wires the pod (the lookup is answered)", () => {
      const r = run(module(), ENGINE_API);
      assert.equal(r.response?.allowed, true);
      assert.equal(r.response?.auditAnnotations?.["skip-reason"], undefined, JSON.stringify(r.response));
      assert.equal(r.hostCalls[0].ok, true, r.hostCalls[0].result);
      assert.equal(JSON.parse(r.hostCalls[0].payload).kind, "LMCacheEngine");
    });

    for (const [what, grant] of [
      ["another version", "lmcache.lmcache.ai/v1beta1"],
      ["another group", "cache.example.com/v1alpha1"],
    ]) {
      test(`a grant of LMCacheEngine in ${what} (${grant}) is denied: lookup-denied skip`, () => {
        const r = run(module(), grant);
        assert.deepEqual(
          r.hostCalls.map((c) => [c.operation, c.ok, c.result]),
          [
            [
              "get_resource",
              false,
              `Policy has not been granted access to Kubernetes ${ENGINE_API}/LMCacheEngine resources. The violation has been reported.`,
            ],
          ],
        );
        assert.equal(r.response?.allowed, true);
        assert.deepEqual(r.response?.auditAnnotations, { "skip-reason": "lookup-denied" });
        assert.deepEqual(r.response?.warnings, [
          "lmcache-injector: injection skipped (lookup-denied): lookup of LMCacheEngine vllm-ns/cb was denied; use settings.engines",
        ]);
        const annotations = (r.mutatedObject as { metadata: { annotations: Record<string, string> } }).metadata
          .annotations;
        assert.equal(annotations["lmcache.ai/lmcache-skip-reason"], "lookup-denied");
        assert.equal(annotations["lmcache.ai/lmcache-injected"], undefined);
      });
    }
  },
);
