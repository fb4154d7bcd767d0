// lmcache-injector `validate`: decode → plan → apply through the shared `applyEdits` → response
// (docs/policies/lmcache-injector.md#responses). Never rejects: every outcome is `accepted: true`.
import {
  accept,
  decodeValidationPayload,
  DecodedRequest,
  KubernetesLookups,
  mutate,
  ValidationResponse,
  WapcLookups,
} from "../../../assembly/kubewarden/index";
import { JsonValue } from "../../../assembly/json/index";
import { applyEdits, checkAnnotations, Edit } from "../../../assembly/k8s/index";
import {
  AUDIT_SKIP_REASON_KEY,
  detailInvalidRequest,
  kvTransferConfigPresentWarning,
  lmcacheKeys,
  REASON_INVALID_REQUEST,
  skipWarning,
} from "../../../assembly/keys/index";
import { Decision, DecisionKind, planLmcacheInjection } from "./plan";

export function validate(payload: Uint8Array): Uint8Array {
  return evaluate(payload, new WapcLookups()).toBytes();
}

/** The whole evaluation with an injectable lookup seam (unit tests pass RecordedLookups). */
export function evaluate(payload: Uint8Array, lookups: KubernetesLookups): ValidationResponse {
  const decoded = decodeValidationPayload(payload);
  return respond(decoded, planLmcacheInjection(decoded, lookups));
}

function podOf(decoded: DecodedRequest): JsonValue | null {
  const request = decoded.request;
  return request === null ? null : request.object;
}

/** Turns a decision into its response. */
export function respond(decoded: DecodedRequest, decision: Decision): ValidationResponse {
  if (decision.kind == DecisionKind.Pass) return accept();
  const pod = podOf(decoded);
  if (decision.kind == DecisionKind.Skip || pod === null) return skipResponse(pod, decision.reason, decision.detail);

  // applyEdits checks every edit before changing anything, so a failure leaves the pod untouched
  const applied = applyEdits(pod, decision.plan.edits);
  if (!applied.ok) return skipResponse(pod, REASON_INVALID_REQUEST, detailInvalidRequest(applied.error));
  const response = mutate(pod);
  if (decision.userHasKV)
    response.withWarning(kvTransferConfigPresentWarning(lmcacheKeys().policyName, decision.container));
  return response;
}

/**
 * Skip: the object with only the skip-reason annotation set, one warning, one audit annotation.
 * Not stampable: when the object cannot carry the annotation, the same without `mutated_object`.
 */
function skipResponse(pod: JsonValue | null, reason: string, detail: string): ValidationResponse {
  const keys = lmcacheKeys();
  const response = accept()
    .withWarning(skipWarning(keys.policyName, reason, detail))
    .withAuditAnnotation(AUDIT_SKIP_REASON_KEY, reason);
  if (pod === null || checkAnnotations(pod).length > 0) return response;
  const stamp = applyEdits(pod, [Edit.setAnnotation(keys.skipReasonAnnotation, reason)]);
  if (stamp.ok) response.withMutatedObject(pod);
  return response;
}
