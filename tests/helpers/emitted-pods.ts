// Would the API server take the Pod a policy emitted? Asked of the suite's real kube-apiserver
// (tests/helpers/apiserver.ts), never of a copy of its rules:
//   - assertEmittedPodsAccepted: every emitted Pod is created (dry run, strict field validation)
//     in a namespace enforcing `privileged`, so only the Pod's validity is judged; a refusal fails
//     the test with the server's message, unless the incoming Pod was refused for the same reasons
//     (a policy is not to blame for what it was given);
//   - podSecurityLevels: the strictest Pod Security level whose namespace admits each Pod.
import assert from "node:assert/strict";
import { Admission, Kube, PodSecurityLevel } from "./apiserver";

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
