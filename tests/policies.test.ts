// End-to-end cases: one node:test test per `test_data/cases.yml` case of every policy under
// policies/ that has both a cases.yml and a built annotated-policy.wasm (run `cachewarden build`
// first), plus the host-policy fixture, which always runs (its module is the host-probe guest).
// Every Pod a Pod-mutating policy emits goes through the suite's real kube-apiserver
// (docs/test-data.md#emitted-pods-the-api-server-accepts): it must be accepted, and it must need
// exactly the Pod Security level the policy's README states for the mode it was wired in.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { CaseResult, CaseSpec, loadCases, policiesWithCases, runPolicyCases } from "../tools/host/cases";
import { loadAdmissionRequest } from "../tools/host/request";
import { readMetadataYaml } from "../tools/wasm/metadata";
import { Kube, kubeServer } from "./helpers/apiserver";
import { assertEmittedPodsAccepted, EmittedPod, podSecurityProblems } from "./helpers/emitted-pods";
import { annotatedProbePath, PROBE_METADATA, ROOT } from "./helpers/host-guests";
import { readmeModesOf } from "./helpers/readme-levels";

let kube: Kube;
before(async () => {
  kube = await kubeServer();
});

function reportOf(r: CaseResult): string {
  return [
    `${r.policy}/${r.name}: ${r.decision}${r.summary ? ` (${r.summary})` : ""}`,
    ...r.failures.map((f) => `  ✗ ${f}`),
  ].join("\n");
}

/** The Pods the policy's cases patched: incoming and emitted, by case. */
function emittedPods(policyDir: string, cases: CaseSpec[], results: CaseResult[]): EmittedPod[] {
  const out: EmittedPod[] = [];
  for (const c of cases) {
    const r = results.find((x) => x.name === c.name);
    if (!r?.evaluation?.patchOperations || c.request === undefined) continue;
    const request = loadAdmissionRequest(path.join(policyDir, "test_data", c.request));
    if ((request.kind as { kind?: unknown } | undefined)?.kind !== "Pod") continue;
    out.push({ before: request.object, after: r.evaluation.mutatedObject, label: `${r.policy}/${r.name}` });
  }
  return out;
}

/** Whether the policy mutates Pods, by its metadata.yml (the fixture without one counts as such). */
function mutatesPods(policyDir: string): boolean {
  const file = path.join(policyDir, "metadata.yml");
  if (!fs.existsSync(file)) return true;
  const meta = readMetadataYaml(file);
  const rules = (meta.rules ?? []) as { resources?: string[] }[];
  return meta.mutating === true && rules.some((r) => (r.resources ?? []).includes("pods"));
}

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
      });
    }
  });
  if (!mutatesPods(policyDir)) return;
  describe(`${policy}: emitted Pods through the API server`, () => {
    const pods = (): EmittedPod[] => {
      const all = results();
      assert.equal(all.error, undefined, all.error);
      return emittedPods(policyDir, cases, all.results);
    };
    test("the API server accepts every emitted Pod", () => {
      const emitted = pods();
      assert.ok(emitted.length > 0, "no case emits a Pod");
      assertEmittedPodsAccepted(kube, emitted);
    });
    // a policy's README promises a level; the host-policy fixture is no policy and has no such promise
    if (fs.existsSync(path.join(policyDir, "metadata.yml")))
      test("every emitted Pod needs the Pod Security level the README states for its mode", () => {
        const problems = podSecurityProblems(kube, readmeModesOf(policyDir), pods());
        assert.deepEqual(problems, [], problems.join("\n"));
      });
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
