// Properties of hicache-injector over every fixture in test_data/cases.yml and over generated
// variants of them, run against the shipped annotated-policy.wasm in the project's Node host
// (fresh instance per call, like policy-server):
//   - accepted is always true and the module never traps (docs/policies/hicache-injector.md#h5);
//   - a result is the whole wiring, or at most the provenance annotations changed (all-or-nothing);
//   - evaluating the policy's own output again changes nothing (#idempotency);
//   - the wiring adds nothing the `baseline` Pod Security level refuses (README, "Pod Security").
// Run: node bin/cachewarden.js build hicache-injector && node --import tsx --test policies/hicache-injector/test/properties.test.ts
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
import * as path from "node:path";
import {
  EmittedPod,
  podSecurityAnswers,
  podSecurityProblems,
  testEmittedPodsAccepted,
} from "../../../tests/helpers/emitted-pods";
import { readmeModesOf } from "../../../tests/helpers/readme-levels";
import { kubeServer } from "../../../tests/helpers/apiserver";
import { EvaluationResult } from "../../../tools/host/evaluate";
import { PolicyModule } from "../../../tools/host/guest";
import { AdmissionRequest } from "../../../tools/host/request";

const POLICY_DIR = path.resolve(__dirname, "..");

const PROVENANCE = [
  "inferencecache.io/injected-by",
  "inferencecache.io/injected-by-uid",
  "inferencecache.io/inject-skipped",
];
const ENABLE = "--enable-hierarchical-cache";
const L3 = "inferencecache-hicache-l3";
const DIR_ENV = "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function withoutProvenance(o: J): J {
  const c = clone(o);
  const a = c?.metadata?.annotations;
  if (a && typeof a === "object" && !Array.isArray(a)) {
    for (const k of PROVENANCE) delete a[k];
    if (Object.keys(a).length === 0) delete c.metadata.annotations;
  }
  return c;
}

const items = (v: unknown): J[] => (Array.isArray(v) ? v : []);

/** The all-or-nothing shape check; returns a problem text or "". */
function wiringProblem(before: J, after: J): string {
  const by = after?.metadata?.annotations?.[PROVENANCE[0]];
  const injected = typeof by === "string" && by.length > 0;
  if (!injected) {
    assert.deepEqual(
      withoutProvenance(after),
      withoutProvenance(before),
      "a pod not injected changed beyond provenance",
    );
    return "";
  }
  const containers = items(after.spec?.containers);
  const wired = containers.filter((c) => items(c?.args).includes(ENABLE));
  if (wired.length !== 1) return `${wired.length} containers carry ${ENABLE}`;
  const c = wired[0];
  const parts = [
    items(c.env).some((e) => e?.name === DIR_ENV),
    items(c.volumeMounts).some((m) => m?.name === L3),
    items(after.spec?.volumes).some((v) => v?.name === L3),
  ];
  if (parts.some(Boolean) && !parts.every(Boolean)) return `partial NFS wiring: ${JSON.stringify(parts)}`;
  return "";
}

/** A copy of `pod` hardened to meet Pod Security `restricted` (undefined when it has no containers to harden). */
function restricted(pod: J): J {
  if (!Array.isArray(pod?.spec?.containers)) return undefined;
  const c = clone(pod);
  c.spec.securityContext = { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } };
  for (const k of c.spec.containers)
    if (k && typeof k === "object")
      k.securityContext = { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };
  return c;
}

/** Every Pod the runs below emit, with the Pod it came from. */
const EMITTED: EmittedPod[] = [];

function checkOne(module: PolicyModule, f: Fixture, request: AdmissionRequest, label: string): EvaluationResult {
  const r = evaluateFixture(module, f, request);
  assert.equal(r.trap, undefined, `${label}: trapped: ${r.trap}`);
  assert.ok(r.settings.valid, `${label}: settings invalid: ${r.settings.message}`);
  assert.ok(r.response, `${label}: no response`);
  assert.equal(r.response!.allowed, true, `${label}: not accepted: ${JSON.stringify(r.response!.status)}`);
  if (request.object !== undefined && r.patchOperations) {
    const problem = wiringProblem(request.object, r.mutatedObject);
    assert.equal(problem, "", `${label}: ${problem}`);
    // every emitted Pod goes to the API server at the end of the file (testEmittedPodsAccepted)
    EMITTED.push({ before: request.object, after: r.mutatedObject, label });
  }
  return r;
}

describe("hicache-injector properties over the fixtures", () => {
  const module = loadBuiltModule(POLICY_DIR);
  const all = caseFixtures(module, POLICY_DIR);

  test("there are fixtures", () => assert.ok(all.length >= 80, `only ${all.length} validate cases`));

  test("accepted, no trap, whole wiring or provenance alone", () => {
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
    assert.ok(rewired >= 30, `only ${rewired} fixtures produced a patch`);
  });

  test("every wired pod, and a restricted copy of each, needs the level the README's table states (by the API server)", async () => {
    const wired: { before: J; after: J; label: string }[] = [];
    for (const f of all)
      for (const [object, label] of [
        [f.request.object, f.c.name],
        [restricted(f.request.object), `${f.c.name} (restricted)`],
      ]) {
        if (object === undefined) continue;
        const r = checkOne(module, f, { ...f.request, object }, label);
        if (r.patchOperations) wired.push({ before: object, after: r.mutatedObject, label });
      }
    const nfsWired = wired.filter((w) => items(w.after.spec?.volumes).some((v) => v?.name === L3 && v?.nfs)).length;
    assert.ok(nfsWired >= 5, `only ${nfsWired} fixtures wired the NFS volume`);
    const kube = await kubeServer();
    const problems = podSecurityProblems(kube, readmeModesOf(POLICY_DIR), wired);
    assert.deepEqual(problems, [], problems.join("\n"));
    // the runs reach every level the README's table names
    const levels = new Set(
      podSecurityAnswers(
        kube,
        wired.map((w) => w.after),
      ).map((a) => a.level),
    );
    for (const level of ["restricted", "baseline"])
      assert.ok(levels.has(level as never), `no wired pod meets ${level}`);
  });
});

describe("hicache-injector never traps and never rejects on damaged input", () => {
  const module = loadBuiltModule(POLICY_DIR);

  test("payloads that are not JSON or not requests: invalid-request with warning and audit annotation", () => {
    for (const p of [
      "",
      "not json",
      "[]",
      "{}",
      '{"request":7}',
      '{"request":{},"settings":[]}',
      "\u0000\u00ff",
      '{"request":{"operation":"CREATE","object":"pod"}}',
    ]) {
      const r = module.call("validate", p);
      assert.ok(r.ok && !r.trapped, `trapped on ${JSON.stringify(p)}: ${r.trap}`);
      const resp = JSON.parse(r.response!.toString("utf8"));
      assert.equal(resp.accepted, true);
      assert.equal(resp.mutated_object, undefined);
      assert.equal(resp.audit_annotations?.["skip-reason"], "invalid-request", p);
      assert.ok(
        resp.warnings[0].startsWith(
          "hicache-injector: injection skipped (invalid-request): request could not be read: ",
        ),
      );
    }
  });

  test("generated variants of every fixture: type changes and deletions along every path", () => {
    const all = caseFixtures(module, POLICY_DIR);
    const rand = seededRandom(20261203);
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

testEmittedPodsAccepted(EMITTED, 200);
