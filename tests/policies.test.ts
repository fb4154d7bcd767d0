// End-to-end cases: one node:test test per `test_data/cases.yml` case of every policy under
// policies/ that has both a cases.yml and a built annotated-policy.wasm (run `cachewarden build`
// first), plus the host-policy fixture, which always runs (its module is the host-probe guest).
// Every Pod a mutating policy emits must be one the API server accepts (tests/helpers/pod-admission.ts).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { CaseResult, CaseSpec, loadCases, policiesWithCases, runPolicyCases } from "../tools/host/cases";
import { loadAdmissionRequest } from "../tools/host/request";
import { annotatedProbePath, PROBE_METADATA, ROOT } from "./helpers/host-guests";
import { assertAcceptedPod, loadPodSchema } from "./helpers/pod-admission";

before(loadPodSchema);

function reportOf(r: CaseResult): string {
  return [
    `${r.policy}/${r.name}: ${r.decision}${r.summary ? ` (${r.summary})` : ""}`,
    ...r.failures.map((f) => `  ✗ ${f}`),
  ].join("\n");
}

/** A patched Pod must still be one the API server accepts, unless the incoming Pod already was not. */
function checkEmittedPod(policyDir: string, c: CaseSpec, r: CaseResult): void {
  if (!r.evaluation?.patchOperations || c.request === undefined) return;
  const request = loadAdmissionRequest(path.join(policyDir, "test_data", c.request));
  if ((request.kind as { kind?: unknown } | undefined)?.kind !== "Pod") return;
  const belowBaseline = assertAcceptedPod(request.object, r.evaluation.mutatedObject, `${r.policy}/${r.name}`);
  if (belowBaseline.length > 0) {
    // reported, not failed: the LMCache injectors' host-IPC and host-shm modes need `privileged`,
    // as their READMEs say; hicache-injector's wired pods meet `baseline`
    assert.notEqual(
      r.policy,
      "hicache-injector",
      `${r.policy}/${r.name} pushed the pod below baseline: ${belowBaseline}`,
    );
    BELOW_BASELINE.push(`${r.policy}/${r.name}: ${belowBaseline.join(", ")}`);
  }
}

/** The wired pods that a namespace enforcing Pod Security `baseline` would refuse, by case. */
const BELOW_BASELINE: string[] = [];

after(() => {
  // the report: how many wired pods of each policy need the `privileged` level
  const perPolicy = new Map<string, number>();
  for (const line of BELOW_BASELINE) {
    const policy = line.slice(0, line.indexOf("/"));
    perPolicy.set(policy, (perPolicy.get(policy) ?? 0) + 1);
  }
  for (const [policy, n] of perPolicy) console.log(`${policy}: ${n} wired pods below Pod Security baseline`);
});

/** Declares one test per case; the policy's module is compiled once and shared by its cases. */
function declareCases(policyDir: string, modulePath: string): void {
  const policy = path.basename(policyDir);
  let cases: CaseSpec[];
  try {
    cases = loadCases(policyDir);
  } catch (e) {
    const message = (e as Error).message;
    test(`${policy}: cases.yml`, () => assert.fail(message));
    return;
  }
  let run: ReturnType<typeof runPolicyCases> | undefined;
  const results = (): ReturnType<typeof runPolicyCases> => (run ??= runPolicyCases(policyDir, { modulePath }));
  describe(policy, () => {
    for (const c of cases) {
      const name = c.name;
      test(name, () => {
        const all = results();
        assert.equal(all.error, undefined, all.error);
        const r = all.results.find((x) => x.name === name)!;
        assert.ok(r.ok, reportOf(r));
        checkEmittedPod(policyDir, c, r);
      });
    }
  });
}

declareCases(path.join(ROOT, "tests", "fixtures", "host-policy"), annotatedProbePath(PROBE_METADATA));

const policiesDir = path.join(ROOT, "policies");
for (const policy of policiesWithCases(policiesDir)) {
  const dir = path.join(policiesDir, policy);
  const module = path.join(dir, "annotated-policy.wasm");
  if (fs.existsSync(module)) declareCases(dir, module);
  else
    test(
      `${policy}: cases`,
      { skip: `${path.relative(ROOT, module)} is not built (run \`cachewarden build\`)` },
      () => undefined,
    );
}
