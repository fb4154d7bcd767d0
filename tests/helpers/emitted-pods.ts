// Would the API server take the Pod a policy emitted? Asked of the suite's real kube-apiserver
// (tests/helpers/apiserver.ts), never of a copy of its rules:
//   - assertEmittedPodsAccepted: every emitted Pod is created (dry run, strict field validation)
//     in a namespace enforcing `privileged`, so only the Pod's validity is judged; a refusal fails
//     the test with the server's message, unless the incoming Pod was refused for the same reasons
//     (a policy is not to blame for what it was given);
//   - podSecurityLevels: the strictest Pod Security level whose namespace admits each Pod.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Admission, Kube, kubeServer, POD_SECURITY_REFUSAL, PodSecurityLevel } from "./apiserver";
import { baselineRefusalOf, ReadmeMode, wiredInMode } from "./readme-levels";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface EmittedPod {
  /** the Pod the policy was given */
  before: J;
  /** the Pod it returned */
  after: J;
  /** names the case in a failure */
  label: string;
}

/** Asks the server once per distinct Pod at `level`; answers in the order of `pods`. */
export function admitDistinct(kube: Kube, pods: J[], level: PodSecurityLevel, labels: string[] = []): Admission[] {
  const keys = pods.map((p) => JSON.stringify(p) ?? "null");
  const index = new Map<string, number>();
  const unique: J[] = [];
  const uniqueLabels: string[] = [];
  keys.forEach((k, i) => {
    if (index.has(k)) return;
    index.set(k, unique.length);
    unique.push(pods[i]);
    uniqueLabels.push(labels[i] ?? `pod ${i}`);
  });
  const answers = kube.admitPods(unique, level, uniqueLabels);
  return keys.map((k) => answers[index.get(k)!]);
}

/**
 * The reasons of a refusal, comparable between a Pod and its mutation: each field cause (or the
 * whole message when the server gives none) with list indices wildcarded, since a policy that
 * inserts an item shifts the positions of the others.
 */
export function refusalReasons(a: Admission): string[] {
  const wild = (s: string): string => s.replace(/\[\d+\]/g, "[*]");
  const causes = a.status?.details?.causes ?? [];
  if (causes.length > 0) return causes.map((c) => wild(`${c.field ?? ""}: ${c.reason ?? ""}: ${c.message ?? ""}`));
  return [wild(a.message)];
}

/** The reasons of `after` that `before` did not have as often (a multiset difference). */
function newReasons(before: Admission, after: Admission): string[] {
  if (after.accepted) return [];
  if (before.accepted) return refusalReasons(after);
  const had = new Map<string, number>();
  for (const r of refusalReasons(before)) had.set(r, (had.get(r) ?? 0) + 1);
  const out: string[] = [];
  for (const r of refusalReasons(after)) {
    const n = had.get(r) ?? 0;
    if (n > 0) had.set(r, n - 1);
    else out.push(r);
  }
  return out;
}

/**
 * Fails, with the API server's message, for every emitted Pod the server refuses for a reason the
 * incoming Pod did not have. Returns the server's answers for the emitted Pods.
 */
export function assertEmittedPodsAccepted(kube: Kube, pods: EmittedPod[]): Admission[] {
  const answers = admitDistinct(
    kube,
    pods.flatMap((p) => [p.before, p.after]),
    "privileged",
    pods.flatMap((p) => [`${p.label} (incoming)`, p.label]),
  );
  const failures: string[] = [];
  pods.forEach((p, i) => {
    const before = answers[2 * i];
    const after = answers[2 * i + 1];
    if (newReasons(before, after).length > 0)
      failures.push(
        `${p.label}: the API server refuses the emitted Pod: ${after.message}` +
          (before.accepted ? "" : `\n  (the incoming Pod was refused too: ${before.message})`),
      );
  });
  assert.deepEqual(failures, [], `${failures.length} emitted Pods refused:\n${failures.join("\n")}`);
  return answers.filter((_, i) => i % 2 === 1);
}

export const LEVELS: PodSecurityLevel[] = ["restricted", "baseline", "privileged"];

/** restricted < baseline < privileged: how much a level allows */
export const rank = (level: string): number => LEVELS.indexOf(level as PodSecurityLevel);

/** The server's answers for one Pod in namespaces enforcing each level, and the strictest that admits it. */
export interface PodSecurityAnswer {
  /** the strictest level that admits the Pod; `invalid` when none does (the Pod itself is refused) */
  level: PodSecurityLevel | "invalid";
  restricted: Admission;
  baseline: Admission;
  privileged: Admission;
}

/** Asks the server about every Pod at every level (once per distinct Pod and level). */
export function podSecurityAnswers(kube: Kube, pods: J[], labels: string[] = []): PodSecurityAnswer[] {
  const [restricted, baseline, privileged] = LEVELS.map((level) => admitDistinct(kube, pods, level, labels));
  return pods.map((_, i) => {
    const byLevel = { restricted: restricted[i], baseline: baseline[i], privileged: privileged[i] };
    return { level: LEVELS.find((l) => byLevel[l].accepted) ?? "invalid", ...byLevel };
  });
}

/**
 * Declares, where it is called (after a property run's tests), the test that sends every Pod the
 * run emitted, collected in `pods` while it ran, through the API server.
 */
export function testEmittedPodsAccepted(pods: EmittedPod[], minimum: number): void {
  test("the API server accepts every Pod the runs above emitted", async () => {
    assert.ok(pods.length >= minimum, `only ${pods.length} emitted Pods (at least ${minimum} expected)`);
    assertEmittedPodsAccepted(await kubeServer(), pods);
  });
}

/**
 * What the server says against what the README's mode table promises, per emitted Pod: a Pod wired
 * in a mode needs that mode's level (or the incoming Pod's, if that allows more); a Pod wired in no
 * mode of the table keeps the incoming Pod's level. A mode that needs `privileged` must also be
 * refused by a `baseline` namespace for what the mode adds, in the server's words. Returns the
 * broken promises (an incoming Pod the server refuses outright has no level and is left out).
 */
export function podSecurityProblems(kube: Kube, modes: ReadmeMode[], pods: EmittedPod[]): string[] {
  const answers = podSecurityAnswers(
    kube,
    pods.flatMap((p) => [p.before, p.after]),
    pods.flatMap((p) => [`${p.label} (incoming)`, p.label]),
  );
  const problems: string[] = [];
  pods.forEach((p, i) => {
    const before = answers[2 * i];
    const after = answers[2 * i + 1];
    if (before.level === "invalid") return;
    const mode = modes.find((m) => wiredInMode(m, p.before, p.after));
    const promised = mode && rank(mode.level) > rank(before.level) ? mode.level : before.level;
    const refusal = [after.restricted, after.baseline, after.privileged].find((a) => !a.accepted)?.message ?? "";
    if (after.level !== promised)
      problems.push(
        `${p.label}: wired${mode ? ` in mode "${mode.mode}"` : ""} from a ${before.level} pod, it needs ${after.level}; ` +
          `the README promises ${promised} (${refusal})`,
      );
    else if (mode && promised === "privileged" && before.level !== "privileged") {
      const message = after.baseline.message;
      if (!POD_SECURITY_REFUSAL.test(message) || !baselineRefusalOf(mode).test(message))
        problems.push(`${p.label}: a baseline namespace refuses it for another reason than its mode: ${message}`);
    }
  });
  return problems;
}
