// hicache-injector `validate`: decode → plan → apply through the shared `applyBasicEdits` → response
// (docs/policies/hicache-injector.md#responses). Never rejects: every outcome is `accepted: true`.
import {
  accept,
  decodeValidationPayload,
  DecodedRequest,
  KubernetesLookups,
  ValidationResponse,
  WapcLookups,
} from "../../../assembly/kubewarden/index";
import { JsonValue } from "../../../assembly/json/index";
import { applyBasicEdits, Plan } from "../../../assembly/k8s/index";
import {
  AUDIT_SKIP_REASON_KEY,
  detailInvalidRequest,
  POLICY_HICACHE_INJECTOR,
  REASON_INVALID_REQUEST,
  skipWarning,
} from "../../../assembly/keys/index";
import { Decision, DecisionKind, planHiCacheInjection, stripPlan } from "./plan";

export function validate(payload: Uint8Array): Uint8Array {
  return evaluate(payload, new WapcLookups()).toBytesOver(payload); // the payload is not read again
}

/** The whole evaluation with an injectable lookup seam (specs pass RecordedLookups). */
export function evaluate(payload: Uint8Array, lookups: KubernetesLookups): ValidationResponse {
  const decoded = decodeValidationPayload(payload);
  return respond(decoded, planHiCacheInjection(decoded, lookups));
}

function podOf(decoded: DecodedRequest): JsonValue | null {
  const request = decoded.request;
  return request === null ? null : request.object;
}

/** Turns a decision into its response. */
export function respond(decoded: DecodedRequest, decision: Decision): ValidationResponse {
  if (decision.kind == DecisionKind.Pass) return accept();
  const pod = podOf(decoded);
  if (decision.kind == DecisionKind.FailOpen) return failOpen(pod, decision.reason, decision.detail, decision.plan);
  if (pod === null || decision.plan.isEmpty) return accept();
  // applyBasicEdits checks every edit before changing anything, so a failure leaves the pod untouched
  const applied = applyBasicEdits(pod, decision.plan.edits);
  if (!applied.ok) {
    return failOpen(pod, REASON_INVALID_REQUEST, detailInvalidRequest(applied.error), stripPlan(pod));
  }
  return accept().withMutatedObject(pod);
}

/** Warning + audit annotation; the pod only when the strip changes it. */
function failOpen(pod: JsonValue | null, reason: string, detail: string, strip: Plan): ValidationResponse {
  const response = accept()
    .withWarning(skipWarning(POLICY_HICACHE_INJECTOR, reason, detail))
    .withAuditAnnotation(AUDIT_SKIP_REASON_KEY, reason);
  if (pod === null || strip.isEmpty) return response;
  if (applyBasicEdits(pod, strip.edits).ok) response.withMutatedObject(pod);
  return response;
}
