// cacheengine-validator and lmcache-injector agree on LMCacheEngine payload images
// (docs/policies/cacheengine-validator.md#agreement): every LMCacheEngine object in the validator's
// test_data is (1) validated as a CREATE by cacheengine-validator and (2) served, through a
// cluster-objects answer together with its `<name>-connection` ConfigMap, to lmcache-injector for a
// pod that references it. Then:
//   - an engine the validator accepts never makes the injector skip with payload-image-invalid
//     (or any other reason: the pod is wired);
//   - an engine the validator rejects for its payload image (rules 7–9: the ImageSpec default,
//     whitespace in the repository, a non-empty pull policy outside the enum) is one the injector
//     skips with payload-image-invalid, and no other rejected engine is;
//   - an engine rejected only because the repository is empty or blank (rule 6) is wired by the
//     injector without staging (docs/policies/lmcache-injector.md#staging, "no staging").
// Where the two deliberately differ, the validator is the stricter one: `pullPolicy: ""` is outside
// the CRD enum for the validator (rule 9) but the injector's "unset" (defaulted to IfNotPresent),
// and a wrong JSON type is a V3 field error for the validator but an unreadable lookup result
// (lookup-failed) for the injector.
// (The specs disagreed on tag whitespace; the validator's rule 8b closes that gap: docs/decisions.md.)
// Skips, with the reason, only when lmcache-injector has not been built.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { loadCases } from "../tools/host/cases";
import { evaluate, EvaluationResult } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { KubeObject } from "../tools/host/cluster";
import { loadAdmissionRequest, requestFromManifest } from "../tools/host/request";
import { metadataContextAwareResources, readPolicyMetadata } from "../tools/host/metadata";

const ROOT = path.resolve(__dirname, "..");
const VALIDATOR_DIR = path.join(ROOT, "policies", "cacheengine-validator");
const VALIDATOR_WASM = path.join(VALIDATOR_DIR, "annotated-policy.wasm");
const INJECTOR_WASM = path.join(ROOT, "policies", "lmcache-injector", "annotated-policy.wasm");
const NAMESPACE = "vllm-ns";

const REPOSITORY_FIELD = "spec.injection.payloadImage.repository";
const PULL_POLICY_FIELD = "spec.injection.payloadImage.pullPolicy";
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A Go `%q` string; NON_EMPTY_QUOTED excludes `""`. */
const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const NON_EMPTY_QUOTED = String.raw`"(?:[^"\\]|\\.)+"`;
const IMAGE_REJECTIONS = [
  new RegExp(`${escapeRegExp(REPOSITORY_FIELD)}: Invalid value: ${QUOTED}: is the ImageSpec default `), // rule 7
  new RegExp(`${escapeRegExp(REPOSITORY_FIELD)}: Invalid value: ${QUOTED}: must not contain whitespace`), // rule 8
  new RegExp(
    `${escapeRegExp(REPOSITORY_FIELD.replace(/repository$/, "tag"))}: Invalid value: ${QUOTED}: must not contain whitespace`,
  ), // rule 8b
  new RegExp(`${escapeRegExp(REPOSITORY_FIELD)}: Invalid value: ${QUOTED}: must not contain a tag `), // rule 8c
  new RegExp(`${escapeRegExp(PULL_POLICY_FIELD)}: Unsupported value: ${NON_EMPTY_QUOTED}: supported values: `), // rule 9
];
const REPOSITORY_REQUIRED = `${REPOSITORY_FIELD}: Required value: `; // rule 6

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface EngineFixture {
  source: string;
  engine: Record<string, unknown>;
}

/** Every distinct LMCacheEngine object (object and oldObject) of the validator's cases. */
function lmcacheEngineFixtures(): EngineFixture[] {
  const testData = path.join(VALIDATOR_DIR, "test_data");
  const seen = new Set<string>();
  const out: EngineFixture[] = [];
  for (const c of loadCases(VALIDATOR_DIR)) {
    if (c.request === undefined) continue;
    const request = loadAdmissionRequest(path.join(testData, c.request)) as Record<string, unknown>;
    const kind = (request.kind as { kind?: string } | undefined)?.kind;
    if (kind !== "LMCacheEngine") continue;
    for (const key of ["object", "oldObject"]) {
      const engine = request[key];
      if (typeof engine !== "object" || engine === null || Array.isArray(engine)) continue;
      const text = JSON.stringify(engine);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ source: `${c.name}.${key}`, engine: engine as Record<string, unknown> });
    }
  }
  return out;
}

function engineName(engine: Record<string, unknown>): string {
  const name = (engine.metadata as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : "";
}

/** What the operator's controller writes for a ready engine. */
function connectionConfigMap(name: string): KubeObject {
  const kv = {
    kv_connector: "LMCacheMPConnector",
    kv_connector_extra_config: {
      "lmcache.mp.host": `tcp://${name}.${NAMESPACE}.svc.cluster.local`,
      "lmcache.mp.port": "5555",
    },
    kv_connector_module_path: "lmcache.integration.vllm.lmcache_mp_connector",
    kv_role: "kv_both",
  };
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${name}-connection`, namespace: NAMESPACE },
    data: { "kv-transfer-config.json": JSON.stringify(kv, null, 2) },
  } as KubeObject;
}

/** A vLLM pod that opts in to the engine; its one container is `vllm` (also the fixtures' targetContainer). */
function podFor(name: string): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "vllm-pod",
      namespace: NAMESPACE,
      labels: { "lmcache.ai/lmcache-inject": "true" },
      annotations: { "lmcache.ai/lmcache-engine": name },
    },
    spec: { containers: [{ name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "Qwen/Qwen2.5-0.5B"] }] },
  };
}

function validatorMessage(
  validator: PolicyModule,
  engine: Record<string, unknown>,
): { allowed: boolean; message: string } {
  const r = evaluate(validator, requestFromManifest(engine), { timeBudgetMs: null, allowedToMutate: false });
  assert.equal(r.trap, undefined, `cacheengine-validator trapped: ${r.trap}`);
  assert.ok(r.response, `cacheengine-validator gave no response: ${r.settings.message}`);
  return { allowed: r.response.allowed, message: r.response.status?.message ?? "" };
}

function injectorRun(injector: PolicyModule, engine: Record<string, unknown>): EvaluationResult {
  const name = engineName(engine);
  const cluster = [engine as KubeObject, connectionConfigMap(name)];
  const r = evaluate(injector, requestFromManifest(podFor(name)), {
    timeBudgetMs: null,
    allowedToMutate: true,
    capabilities: {
      allowedHostCapabilities: ["*"],
      contextAwareResources: metadataContextAwareResources(readPolicyMetadata(injector.module)),
      cluster,
    },
  });
  assert.equal(r.trap, undefined, `lmcache-injector trapped: ${r.trap}`);
  assert.ok(r.response, `lmcache-injector gave no response: ${r.settings.message}`);
  return r;
}

function skipReason(r: EvaluationResult): string | undefined {
  return r.response?.auditAnnotations?.["skip-reason"];
}

function stagesPayload(r: EvaluationResult): boolean {
  const spec = (r.mutatedObject as { spec?: { initContainers?: { name?: string }[] } } | undefined)?.spec;
  return (spec?.initContainers ?? []).some((c) => c.name === "lmcache-payload-stage");
}

const injectorMissing = !fs.existsSync(INJECTOR_WASM)
  ? `${path.relative(ROOT, INJECTOR_WASM)} is not built (run \`cachewarden build lmcache-injector\`)`
  : false;

describe(
  "cacheengine-validator and lmcache-injector agree on LMCacheEngine payload images",
  { skip: injectorMissing },
  () => {
    const fixtures = lmcacheEngineFixtures();
    let modules: { validator: PolicyModule; injector: PolicyModule } | undefined;
    const load = (): { validator: PolicyModule; injector: PolicyModule } =>
      (modules ??= {
        validator: PolicyModule.fromFile(VALIDATOR_WASM),
        injector: PolicyModule.fromFile(INJECTOR_WASM),
      });

    test("the validator's test_data holds accepted, image-rejected and repository-required engines", () => {
      const { validator } = load();
      const verdicts = fixtures.map((f) => validatorMessage(validator, f.engine));
      assert.ok(
        verdicts.some((v) => v.allowed),
        "no accepted LMCacheEngine fixture",
      );
      assert.ok(
        verdicts.some((v) => IMAGE_REJECTIONS.some((p) => p.test(v.message))),
        "no image-rejected fixture",
      );
      assert.ok(
        verdicts.some((v) => v.message.includes(REPOSITORY_REQUIRED)),
        "no repository-required fixture",
      );
    });

    for (const fixture of fixtures) {
      test(fixture.source, () => {
        const { validator, injector } = load();
        const verdict = validatorMessage(validator, fixture.engine);
        const run = injectorRun(injector, fixture.engine);
        const reason = skipReason(run);
        const imageRejected = IMAGE_REJECTIONS.some((p) => p.test(verdict.message));
        if (verdict.allowed) {
          assert.equal(reason, undefined, `the validator accepts this engine, but the injector skips it (${reason})`);
        } else if (imageRejected) {
          assert.equal(
            reason,
            "payload-image-invalid",
            `the validator rejects the payload image (${verdict.message}), the injector says ${reason ?? "no skip"}`,
          );
        } else {
          assert.notEqual(
            reason,
            "payload-image-invalid",
            `the validator does not reject the payload image (${verdict.message}), the injector skips it as payload-image-invalid`,
          );
        }
        if (verdict.message.includes(REPOSITORY_REQUIRED) && reason === undefined) {
          assert.equal(stagesPayload(run), false, "an engine without repository must not be staged");
        }
      });
    }

    // today's operator fields the validator accepts are wired as current engines
    // (docs/policies/lmcache-injector.md#pd-roles): private shm, NIXL port as decimal text
    for (const source of ["lm-operator-fields-valid.object", "lm-pd-nixl-port-float-form.object"]) {
      test(`${source}: accepted and wired with private shm and the NIXL port 5600`, () => {
        const { validator, injector } = load();
        const fixture = fixtures.find((f) => f.source === source);
        assert.ok(fixture, `the validator's test_data has ${source}`);
        assert.equal(validatorMessage(validator, fixture.engine).allowed, true);
        const run = injectorRun(injector, fixture.engine);
        assert.equal(skipReason(run), undefined);
        const spec = (run.mutatedObject as { spec: Record<string, J> }).spec;
        assert.equal(spec.hostIPC, undefined, "private shm: no hostIPC");
        assert.deepEqual(spec.volumes, [{ name: "lmcache-dev-shm", emptyDir: { medium: "Memory" } }]);
        const env = spec.containers[0].env as J[];
        assert.deepEqual(
          env.find((e) => e.name === "VLLM_NIXL_SIDE_CHANNEL_PORT"),
          { name: "VLLM_NIXL_SIDE_CHANNEL_PORT", value: "5600" },
        );
      });
    }
  },
);

test("cacheengine-validator is built (engine agreement needs it)", () => {
  assert.ok(
    fs.existsSync(VALIDATOR_WASM),
    `${path.relative(ROOT, VALIDATOR_WASM)} is missing: run \`cachewarden build cacheengine-validator\``,
  );
});
