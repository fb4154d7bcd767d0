// Properties of cacheblend-injector over every fixture in test_data/cases.yml and over generated
// variants of them, run against the shipped annotated-policy.wasm in the project's Node host
// (fresh instance per call, like policy-server):
//   - accepted is always true and the module never traps (docs/policies/cacheblend-injector.md#responses);
//   - a result is the whole wiring or the skip-reason annotation alone (D2);
//   - evaluating the policy's own output again changes nothing (the injected guard).
// Run: node bin/cachewarden.js build cacheblend-injector && node --import tsx --test policies/cacheblend-injector/test/properties.test.ts
import { describe, test } from "node:test";
import {
  caseFixtures,
  damagedVariants,
  evaluateFixture,
  Fixture,
  seededRandom,
} from "../../../tests/helpers/policy-fixtures";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EvaluationResult } from "../../../tools/host/evaluate";
import { PolicyModule } from "../../../tools/host/guest";
import { EmittedPod, testEmittedPodsAccepted } from "../../../tests/helpers/emitted-pods";
import { AdmissionRequest } from "../../../tools/host/request";

const POLICY_DIR = path.resolve(__dirname, "..");
const MODULE_PATH = path.join(POLICY_DIR, "annotated-policy.wasm");
const INJECTED = "lmcache.ai/cacheblend-injected";
const SKIP = "lmcache.ai/cacheblend-skip-reason";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

const annotationsOf = (o: J): Record<string, unknown> => {
  const a = o?.metadata?.annotations;
  return a && typeof a === "object" && !Array.isArray(a) ? a : {};
};

function withoutSkipAnnotation(o: J): J {
  const c = clone(o);
  if (c?.metadata?.annotations && typeof c.metadata.annotations === "object") {
    delete c.metadata.annotations[SKIP];
    if (Object.keys(c.metadata.annotations).length === 0) delete c.metadata.annotations;
  }
  if (c?.metadata && typeof c.metadata === "object" && Object.keys(c.metadata).length === 0) delete c.metadata;
  return c;
}

const named = (list: unknown, name: string): boolean =>
  Array.isArray(list) && list.some((x: J) => x && typeof x === "object" && x.name === name);

/** D2: a skip changes only the skip-reason annotation; a wiring carries all of its parts. */
function wiringProblem(before: J, after: J): string {
  const injected = annotationsOf(after)[INJECTED] === "true" && annotationsOf(before)[INJECTED] !== "true";
  if (!injected) {
    assert.deepEqual(withoutSkipAnnotation(after), withoutSkipAnnotation(before), "a skip carries only its annotation");
    return "";
  }
  const spec = after.spec ?? {};
  const hasNixl = (spec.containers ?? []).some((c: J) =>
    (c.env ?? []).some((e: J) => e?.name === "VLLM_NIXL_SIDE_CHANNEL_HOST"),
  );
  // a PD decoder gets only the kv flag, the NIXL env and the stamps (docs/policies/cacheblend-injector.md#pd-roles)
  if (String(annotationsOf(after)["lmcache.ai/pd-role"] ?? "").trim() === "decoder" && hasNixl) return "";
  // IPC: hostIPC, or the /dev/shm volume, or a guard that kept the user's own wiring
  const ownShm = (spec.containers ?? []).some((c: J) =>
    (c.volumeMounts ?? []).some((m: J) => m?.mountPath === "/dev/shm" || m?.mountPath === "/dev/shm/"),
  );
  if (spec.hostIPC !== true && !named(spec.volumes, "lmcache-dev-shm") && !ownShm) return "wired without IPC sharing";
  if (!named(spec.volumes, "cb-plugin")) return "wired without the cb-plugin volume";
  if (!named(spec.initContainers, "cb-plugin-stage")) return "wired without the cb-plugin-stage init container";
  const wired = (spec.containers ?? []).filter(
    (c: J) =>
      named(c.volumeMounts, "cb-plugin") &&
      (c.env ?? []).some((e: J) => e?.name === "PYTHONPATH" && String(e.value).startsWith("/cb-plugin")) &&
      (c.args ?? []).some(
        (t: unknown) =>
          typeof t === "string" &&
          (t === "--no-enable-chunked-prefill" || t.startsWith("--no-enable-chunked-prefill=")),
      ),
  );
  if (wired.length !== 1)
    return `${wired.length} containers carry the mount, PYTHONPATH and --no-enable-chunked-prefill`;
  const seeds = (o: J): number =>
    (o.spec?.containers ?? []).reduce(
      (n: number, c: J) => n + (c.env ?? []).filter((e: J) => e?.name === "PYTHONHASHSEED").length,
      0,
    );
  if (seeds(after) !== seeds(before)) return "PYTHONHASHSEED was changed";
  return "";
}

/** Every Pod the runs below emit, with the Pod it came from. */
const EMITTED: EmittedPod[] = [];

function checkOne(module: PolicyModule, f: Fixture, request: AdmissionRequest, label: string): EvaluationResult {
  const r = evaluateFixture(module, f, request);
  assert.equal(r.trap, undefined, `${label}: trapped: ${r.trap}`);
  assert.ok(r.settings.valid, `${label}: settings invalid: ${r.settings.message}`);
  assert.equal(r.response?.allowed, true, `${label}: not accepted: ${JSON.stringify(r.response)}`);
  if (request.object !== undefined) assert.equal(wiringProblem(request.object, r.mutatedObject), "", label);
  // every emitted Pod goes to the API server at the end of the file (testEmittedPodsAccepted)
  if (r.patchOperations) EMITTED.push({ before: request.object, after: r.mutatedObject, label });
  return r;
}

describe(
  "cacheblend-injector properties over the fixtures",
  { skip: fs.existsSync(MODULE_PATH) ? false : `${MODULE_PATH} not built (run cachewarden build)` },
  () => {
    const module = (): PolicyModule => PolicyModule.fromFile(MODULE_PATH);

    test("accepted, no trap, whole wiring or skip annotation alone; idempotent", () => {
      const m = module();
      const all = caseFixtures(m, POLICY_DIR);
      assert.ok(all.length >= 45, `only ${all.length} validate cases`);
      let rewired = 0;
      for (const f of all) {
        const first = checkOne(m, f, f.request, f.c.name);
        if (f.request.object === undefined || !first.patchOperations) continue;
        const again = checkOne(m, f, { ...f.request, object: first.mutatedObject }, `${f.c.name} (again)`);
        assert.equal(again.patchOperations, undefined, `${f.c.name}: the second evaluation patched`);
        rewired++;
      }
      assert.ok(rewired >= 40, `only ${rewired} fixtures produced a patch`);
    });

    test("generated variants of every fixture: type changes and deletions along every path", () => {
      const m = module();
      const rand = seededRandom(20261203);
      let variants = 0;
      for (const f of caseFixtures(m, POLICY_DIR))
        for (const v of damagedVariants(f.request.object, rand)) {
          checkOne(
            m,
            f,
            { ...f.request, object: v.object as typeof f.request.object },
            `${f.c.name} with ${v.path} changed`,
          );
          variants++;
        }
      assert.ok(variants > 250, `only ${variants} variants`);
    });
  },
);

testEmittedPodsAccepted(EMITTED, 300);
