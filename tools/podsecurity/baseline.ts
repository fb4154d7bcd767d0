// The `baseline` level as short texts, for the injectors' pod-security tests (tests/helpers):
// a thin view of tools/podsecurity/levels.ts, where every control of both levels lives.
import { violations } from "./levels";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every `baseline` violation of `pod`, as `reason (detail)` texts (empty = the pod meets `baseline`). */
export function baselineViolations(pod: J): string[] {
  return violations("baseline", pod).map((v) => `${v.reason} (${v.detail})`);
}

/** The most restrictive level a pod meets. */
export function neededLevel(pod: J): "restricted" | "baseline" | "privileged" {
  if (violations("restricted", pod).length === 0) return "restricted";
  return violations("baseline", pod).length === 0 ? "baseline" : "privileged";
}
