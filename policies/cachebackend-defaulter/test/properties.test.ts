// Properties of cachebackend-defaulter over every fixture in test_data/cases.yml and over damaged
// variants of them, run against the shipped annotated-policy.wasm in the project's Node host
// (fresh instance per call, like policy-server) (docs/policies/cachebackend-defaulter.md):
//   - accepted is always true, the module never traps, warnings are the policy's two kinds;
//   - no member the request holds is overwritten, and members are written only where a step may
//     write (#steps);
//   - the policy's own output evaluated again gives no mutation (#idempotency);
//   - unknown fields, number spellings and escapes come back byte for byte (#steps).
// Run: node bin/cachewarden.js build cachebackend-defaulter && node --import tsx --test policies/cachebackend-defaulter/test/properties.test.ts
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import {
  caseFixtures,
  damagedVariants,
  evaluateFixture,
  Fixture,
  loadBuiltModule,
  seededRandom,
} from "../../../tests/helpers/policy-fixtures";
import { EvaluationResult, guestPayloads } from "../../../tools/host/evaluate";
import { PolicyModule } from "../../../tools/host/guest";
import { AdmissionRequest } from "../../../tools/host/request";

const POLICY_DIR = path.resolve(__dirname, "..");
const TEST_DATA = path.join(POLICY_DIR, "test_data");
const NFS_WARNING =
  "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";
const NOT_DEFAULTED = /^cachebackend-defaulter: not defaulted: \S+: must be (an object|a string|a number|a duration)$/;

/** Where a step may write a member (a path of keys from the object's root). */
const WRITABLE = new Set([
  "spec",
  "spec.resources",
  "spec.integration",
  "spec.integration.engine",
  "spec.integration.firstEventTimeout",
  "spec.observation",
  "spec.observation.firstEventTimeout",
  "spec.autoscaling.minReplicas",
]);

/** The one member where an empty string counts as absent. */
const EMPTY_IS_ABSENT = "spec.integration.engine";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What the output did to the input's members: every member of `before` that is not null must be
 * in `after` with the same value (never overwritten), and every member `after` adds (or puts in
 * place of a null) must lie at a writable path. Returns the problems.
 */
function writeProblems(before: unknown, after: unknown, at = ""): string[] {
  if (!isObject(before) || !isObject(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [`${at || "/"} changed`];
  }
  const out: string[] = [];
  for (const [k, v] of Object.entries(before)) {
    const p = at ? `${at}.${k}` : k;
    // absent is null; an empty string only for the engine (step 3)
    if ((v === null || (v === "" && p === EMPTY_IS_ABSENT)) && after[k] !== v) {
      if (!WRITABLE.has(p)) out.push(`${p}: ${JSON.stringify(v)} replaced where no step writes`);
      continue;
    }
    if (!(k in after)) out.push(`${p}: removed`);
    else out.push(...writeProblems(v, after[k], p));
  }
  for (const k of Object.keys(after))
    if (!(k in before)) {
      const p = at ? `${at}.${k}` : k;
      if (!WRITABLE.has(p)) out.push(`${p}: written where no step writes`);
    }
  return out;
}

function checkOne(module: PolicyModule, f: Fixture, request: AdmissionRequest, label: string): EvaluationResult {
  const r = evaluateFixture(module, f, request);
  assert.equal(r.trap, undefined, `${label}: trapped: ${r.trap}`);
  assert.ok(r.response, `${label}: no response`);
  assert.equal(r.response.allowed, true, `${label}: not accepted: ${JSON.stringify(r.response.status)}`);
  for (const w of r.response.warnings ?? [])
    assert.ok(w === NFS_WARNING || NOT_DEFAULTED.test(w), `${label}: unexpected warning ${w}`);
  if (r.patchOperations) {
    assert.ok(isObject(request.object), `${label}: a patch for an object that is not an object`);
    assert.ok(
      !(r.response.warnings ?? []).some((w) => NOT_DEFAULTED.test(w)),
      `${label}: patched a backend it says it did not default`,
    );
    const problems = writeProblems(request.object, r.mutatedObject);
    assert.deepEqual(problems, [], `${label}: ${problems.join("; ")}`);
  }
  return r;
}

/** The output evaluated again: no patch, not even a mutated_object equal to it, and the same warnings. */
function checkIdempotent(module: PolicyModule, f: Fixture, request: AdmissionRequest, label: string): boolean {
  const first = checkOne(module, f, request, label);
  if (!first.patchOperations) return false;
  const againRequest = { ...request, object: first.mutatedObject as J };
  const again = checkOne(module, f, againRequest, `${label} (again)`);
  assert.equal(
    again.patchOperations,
    undefined,
    `${label}: evaluated again, it patched ${JSON.stringify(again.patchOperations)}`,
  );
  assert.deepEqual(again.response!.warnings ?? [], first.response!.warnings ?? [], `${label}: warnings changed`);
  // the guest's own answer, before the host diffs it: no mutated_object at all
  const raw = module.call("validate", guestPayloads(againRequest, f.settings).validate);
  assert.ok(raw.ok && raw.response, `${label} (again): ${raw.error ?? raw.trap}`);
  const answer = JSON.parse(raw.response.toString("utf8")) as J;
  assert.equal(answer.mutated_object, undefined, `${label}: evaluated again, it answered with a mutated_object`);
  return true;
}

describe("cachebackend-defaulter properties over the fixtures", () => {
  const module = loadBuiltModule(POLICY_DIR);
  const all = caseFixtures(module, POLICY_DIR);

  test("there are fixtures", () => assert.ok(all.length >= 70, `only ${all.length} validate cases`));

  test("accepted, no trap, nothing overwritten, written only where a step writes", () => {
    for (const f of all) checkOne(module, f, f.request, f.c.name);
  });

  test("idempotent: the policy's own output evaluated again gives no mutation", () => {
    let defaulted = 0;
    for (const f of all) if (checkIdempotent(module, f, f.request, f.c.name)) defaulted++;
    assert.ok(defaulted >= 50, `only ${defaulted} fixtures produced a patch`);
  });

  test("the checks see an overwrite and a write in the wrong place", () => {
    assert.deepEqual(writeProblems({ spec: { replicas: 2 } }, { spec: { replicas: 3 } }), ["spec.replicas changed"]);
    assert.deepEqual(writeProblems({ spec: { a: 1 } }, { spec: {} }), ["spec.a: removed"]);
    assert.deepEqual(writeProblems({ spec: {} }, { spec: { failOpen: true } }), [
      "spec.failOpen: written where no step writes",
    ]);
    assert.deepEqual(writeProblems({ spec: { integration: {} } }, { spec: { integration: { failOpen: false } } }), [
      "spec.integration.failOpen: written where no step writes",
    ]);
    assert.deepEqual(writeProblems({ spec: { replicas: null } }, { spec: { replicas: 1 } }), [
      "spec.replicas: null replaced where no step writes",
    ]);
    assert.deepEqual(writeProblems({ spec: { runtime: "" } }, { spec: { runtime: "vllm" } }), ["spec.runtime changed"]);
    assert.deepEqual(
      writeProblems({ spec: { integration: { engine: "" } } }, { spec: { integration: { engine: "x" } } }),
      [],
    );
    assert.deepEqual(writeProblems({ spec: { integration: null } }, { spec: { integration: {} } }), []);
  });
});

describe("cachebackend-defaulter on damaged input", () => {
  const module = loadBuiltModule(POLICY_DIR);

  test("payloads that are not JSON or not requests: accepted with the not-defaulted warning", () => {
    for (const p of ["", "not json", "[]", "{}", '{"request":7}', '{"request":{},"settings":[]}', "\u0000\u00ff"]) {
      const r = module.call("validate", p);
      assert.ok(r.ok && !r.trapped, `trapped on ${JSON.stringify(p)}: ${r.trap}`);
      const resp = JSON.parse(r.response!.toString("utf8"));
      assert.equal(resp.accepted, true);
      assert.equal(resp.mutated_object, undefined);
      assert.ok(
        resp.warnings[0].startsWith("cachebackend-defaulter: not defaulted: request could not be read: "),
        `${JSON.stringify(p)}: ${resp.warnings}`,
      );
    }
  });

  test("generated variants of every fixture: type changes and deletions along every path", () => {
    const all = caseFixtures(module, POLICY_DIR);
    const rand = seededRandom(20261206);
    let variants = 0;
    let defaulted = 0;
    for (const f of all)
      for (const v of damagedVariants(f.request.object, rand)) {
        const label = `${f.c.name} with ${v.path} changed`;
        if (checkIdempotent(module, f, { ...f.request, object: v.object as J }, label)) defaulted++;
        variants++;
      }
    assert.ok(variants > 300, `only ${variants} variants`);
    assert.ok(defaulted > 100, `only ${defaulted} variants were defaulted`);
  });
});

describe("cachebackend-defaulter keeps the request's bytes", () => {
  const module = loadBuiltModule(POLICY_DIR);
  const raw = (name: string): string => fs.readFileSync(path.join(TEST_DATA, `request_${name}.json`), "utf8");
  /** The mutated_object text of a direct guest call with the request as written (no re-encoding). */
  function mutatedText(request: string): string {
    const out = module.call("validate", `{"request":${request},"settings":{}}`);
    assert.ok(out.ok && out.response, `guest call failed: ${out.error ?? out.trap}`);
    const text = out.response!.toString("utf8");
    const at = text.indexOf('"mutated_object":');
    assert.ok(at > 0, `no mutated_object: ${text}`);
    return text.slice(at + '"mutated_object":'.length);
  }

  test("unknown fields, number spellings and escapes (acceptance 15)", () => {
    const text = mutatedText(raw("acceptance-15-unknown-fields-kept"));
    for (const kept of [
      String.raw`"annotations":{"team.example.com/owner":"ml \u0026 infra \u00e9"}`,
      String.raw`"x-unknown":{"weight":1000.0,"score":2.5e+3,"ratio":0.150}`,
      String.raw`"replicas":1.0e0`,
      String.raw`"backendConfig":{"model":"caf\u00e9 \/ r\u00e9sum\u00e9"}`,
    ])
      assert.ok(text.includes(kept), `mutated_object lost ${kept}: ${text}`);
    // the floor is added at the end of autoscaling, the rest at the end of spec, in step order
    assert.ok(text.includes(String.raw`"autoscaling":{"maxReplicas":2E0,"minReplicas":1}`), text);
    assert.ok(
      text.includes(
        String.raw`"resources":{"requests":{"memory":"4Gi"},"limits":{"memory":"8Gi"}},"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}`,
      ),
      text,
    );
  });

  test("the realistic backend: the written members appended, every other byte as sent", () => {
    const request = JSON.stringify(JSON.parse(raw("realistic-legacy-backend")));
    const object = JSON.stringify(JSON.parse(request).object);
    const spec = object.slice(object.indexOf('"spec":'), -1);
    const expected =
      object.slice(0, object.indexOf('"spec":')) +
      spec.replace('"autoscaling":{"maxReplicas":4}', '"autoscaling":{"maxReplicas":4,"minReplicas":2}').slice(0, -1) +
      ',"resources":{"requests":{"memory":"4Gi"},"limits":{"memory":"8Gi"}}' +
      ',"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}';
    const text = mutatedText(request);
    assert.equal(text.slice(0, expected.length), expected);
  });
});
