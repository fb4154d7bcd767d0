// Properties of lmcache-injector over every fixture in test_data/cases.yml and over generated
// variants of them, run against the shipped annotated-policy.wasm in the project's Node host
// (fresh instance per call, like policy-server):
//   - accepted is always true and the module never traps (D1, docs/policies/lmcache-injector.md#never-reject);
//   - a result is the whole wiring or the skip-reason annotation alone (D2);
//   - evaluating the policy's own output again changes nothing (docs/policies/lmcache-injector.md#idempotency);
//   - untouched fields keep their bytes (the realistic pod's escapes and number spellings).
// Run: node bin/cachewarden.js build lmcache-injector && node --import tsx --test policies/lmcache-injector/test/properties.test.ts
import { describe, test } from "node:test";
import {
  caseFixtures,
  damagedVariants,
  evaluateFixture,
  Fixture,
  seededRandom,
  loadBuiltModule,
} from "../../../tests/helpers/policy-fixtures";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { HostCapabilities } from "../../../tools/host/capabilities";
import { EvaluationResult } from "../../../tools/host/evaluate";
import { PolicyModule } from "../../../tools/host/guest";
import { EmittedPod, testEmittedPodsAccepted } from "../../../tests/helpers/emitted-pods";
import { AdmissionRequest } from "../../../tools/host/request";
import { REALISTIC_POD_KEPT_BYTES } from "./realistic-pod";

const POLICY_DIR = path.resolve(__dirname, "..");
const TEST_DATA = path.join(POLICY_DIR, "test_data");

const INJECTED = "lmcache.ai/lmcache-injected";
const SKIP = "lmcache.ai/lmcache-skip-reason";
const KV_FLAG = "--kv-transfer-config";
const PAYLOAD = "lmcache-payload";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function annotationsOf(o: J): Record<string, unknown> {
  const a = o?.metadata?.annotations;
  return a && typeof a === "object" && !Array.isArray(a) ? a : {};
}

function withoutAnnotation(o: J, key: string): J {
  const c = clone(o);
  if (c?.metadata?.annotations && typeof c.metadata.annotations === "object") {
    delete c.metadata.annotations[key];
    if (Object.keys(c.metadata.annotations).length === 0) delete c.metadata.annotations;
  }
  if (c?.metadata && typeof c.metadata === "object" && Object.keys(c.metadata).length === 0) delete c.metadata;
  return c;
}

/** An array member, or [] for a damaged variant where it has another type. */
const list = (v: unknown): J[] => (Array.isArray(v) ? v : []);

/** The D2 shape check; returns a problem text or "". */
function wiringProblem(before: J, after: J): string {
  const injected = annotationsOf(after)[INJECTED] === "true" && annotationsOf(before)[INJECTED] !== "true";
  if (!injected) {
    // a skip (or nothing): apart from the skip-reason annotation, the object is unchanged
    assert.deepEqual(
      withoutAnnotation(after, SKIP),
      withoutAnnotation(before, SKIP),
      "a skip must carry only the skip-reason annotation",
    );
    return "";
  }
  const spec = after.spec ?? {};
  // IPC: hostIPC, or the /dev/shm volume, or a guard that kept the user's own wiring (docs/policies/lmcache-injector.md#ipc-modes)
  const ownShm = list(spec.containers).some((c: J) =>
    list(c.volumeMounts).some((m: J) => m?.mountPath === "/dev/shm" || m?.mountPath === "/dev/shm/"),
  );
  const shmVolume = list(spec.volumes).some((v: J) => v?.name === "lmcache-dev-shm");
  if (spec.hostIPC !== true && !shmVolume && !ownShm) return "wired without IPC sharing";
  const containers: J[] = list(spec.containers);
  const wired = containers.filter(
    (c) =>
      list(c.env).some((e: J) => e?.name === "PYTHONHASHSEED") &&
      list(c.args).some((t: unknown) => typeof t === "string" && (t === KV_FLAG || t.startsWith(`${KV_FLAG}=`))),
  );
  if (wired.length === 0) return "no container carries both --kv-transfer-config and PYTHONHASHSEED";
  const addedInit =
    list(spec.initContainers).some((c: J) => c?.name === `${PAYLOAD}-stage`) &&
    !list(before.spec?.initContainers).some((c: J) => c?.name === `${PAYLOAD}-stage`);
  const addedMount = containers.some((c) => list(c.volumeMounts).some((m: J) => m?.name === PAYLOAD));
  const hasVolume = list(spec.volumes).some((v: J) => v?.name === PAYLOAD);
  const hasPythonPath = containers.some((c) =>
    list(c.env).some((e: J) => e?.name === "PYTHONPATH" && String(e.value ?? "").startsWith(`/${PAYLOAD}`)),
  );
  const staged = [
    addedInit || list(spec.initContainers).some((c: J) => c?.name === `${PAYLOAD}-stage`),
    addedMount,
    hasVolume,
    hasPythonPath,
  ];
  const stagedBefore = JSON.stringify(before).includes(PAYLOAD);
  if (!stagedBefore && staged.some(Boolean) && !staged.every(Boolean))
    return `partial staging: ${JSON.stringify(staged)}`;
  return "";
}

/** Every Pod the runs below emit, with the Pod it came from. */
const EMITTED: EmittedPod[] = [];

function checkOne(module: PolicyModule, f: Fixture, request: AdmissionRequest, label: string): EvaluationResult {
  const r = evaluateFixture(module, f, request);
  assert.equal(r.trap, undefined, `${label}: trapped: ${r.trap}`);
  assert.ok(r.settings.valid, `${label}: settings invalid: ${r.settings.message}`);
  assert.ok(r.response, `${label}: no response`);
  assert.equal(r.response!.allowed, true, `${label}: not accepted: ${JSON.stringify(r.response!.status)}`);
  if (request.object !== undefined) {
    const problem = wiringProblem(request.object, r.mutatedObject);
    assert.equal(problem, "", `${label}: ${problem}`);
  }
  // every emitted Pod goes to the API server at the end of the file (testEmittedPodsAccepted)
  if (r.patchOperations) EMITTED.push({ before: request.object, after: r.mutatedObject, label });
  return r;
}

describe("lmcache-injector properties over the fixtures", () => {
  const module = loadBuiltModule(POLICY_DIR);
  const all = caseFixtures(module, POLICY_DIR);

  test("there are fixtures", () => assert.ok(all.length >= 80, `only ${all.length} validate cases`));

  test("accepted, no trap, whole wiring or skip annotation alone", () => {
    for (const f of all) checkOne(module, f, f.request, f.c.name);
  });

  test("idempotent: the policy's own output evaluated again changes nothing", () => {
    let rewired = 0;
    for (const f of all) {
      const first = checkOne(module, f, f.request, f.c.name);
      if (f.request.object === undefined || !first.patchOperations) continue;
      const again = checkOne(module, f, { ...f.request, object: first.mutatedObject }, `${f.c.name} (again)`);
      assert.equal(
        again.patchOperations,
        undefined,
        `${f.c.name}: second evaluation patched ${JSON.stringify(again.patchOperations)}`,
      );
      rewired++;
    }
    assert.ok(rewired >= 60, `only ${rewired} fixtures produced a patch`);
  });

  test("untouched fields keep their bytes (realistic pod)", () => {
    const f = all.find((x) => x.c.name === "full-injection");
    assert.ok(f, "full-injection case missing");
    const raw = fs.readFileSync(path.join(TEST_DATA, f!.c.request!), "utf8");
    const host = new HostCapabilities(f!.capabilities());
    const out = module.call("validate", `{"request":${raw},"settings":{}}`, { hostCall: host.handler });
    assert.ok(out.ok && out.response, `guest call failed: ${out.error ?? out.trap}`);
    const text = out.response!.toString("utf8");
    const at = text.indexOf('"mutated_object":');
    assert.ok(at > 0, "no mutated_object");
    const mutated = text.slice(at);
    for (const kept of REALISTIC_POD_KEPT_BYTES)
      assert.ok(mutated.includes(kept), `mutated_object lost the bytes ${kept.slice(0, 60)}…`);
    // and the value is exactly the expected wiring
    const expected = JSON.parse(fs.readFileSync(path.join(TEST_DATA, "expected_full-injection.json"), "utf8"));
    assert.deepEqual(JSON.parse(text).mutated_object, expected);
  });
});

describe("lmcache-injector never traps and never rejects on damaged input", () => {
  const module = loadBuiltModule(POLICY_DIR);

  test("payloads that are not JSON or not requests", () => {
    for (const p of [
      "",
      "not json",
      "[]",
      "{}",
      '{"request":7}',
      '{"request":{},"settings":[]}',
      "\u0000\u00ff",
      '{"request":{"operation":"CREATE","object":{}}}',
    ]) {
      const r = module.call("validate", p);
      assert.ok(r.ok && !r.trapped, `trapped on ${JSON.stringify(p)}: ${r.trap}`);
      const resp = JSON.parse(r.response!.toString("utf8"));
      assert.equal(resp.accepted, true);
    }
    const r = JSON.parse(module.call("validate", "not json").response!.toString("utf8"));
    assert.equal(r.mutated_object, undefined);
    assert.equal(r.audit_annotations["skip-reason"], "invalid-request");
    assert.ok(
      r.warnings[0].startsWith("lmcache-injector: injection skipped (invalid-request): request could not be read: "),
    );
  });

  test("generated variants of every fixture: type changes and deletions along every path", () => {
    const all = caseFixtures(module, POLICY_DIR);
    const rand = seededRandom(20261202);
    let variants = 0;
    for (const f of all)
      for (const v of damagedVariants(f.request.object, rand)) {
        checkOne(
          module,
          f,
          { ...f.request, object: v.object as typeof f.request.object },
          `${f.c.name} with ${v.path} changed`,
        );
        variants++;
      }
    assert.ok(variants > 300, `only ${variants} variants`);
  });
});

testEmittedPodsAccepted(EMITTED, 600);
