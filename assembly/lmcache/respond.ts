// The response of both LMCache-operator injectors (docs/policies/lmcache-injector.md#responses):
// a decision applied through the shared `applyEdits`, or the skip annotation alone. Never rejects:
// every outcome is `accepted: true`.
import { accept, DecodedRequest, mutate, ValidationResponse } from "../kubewarden/index";
import { JsonValue } from "../json/index";
import { applyEdits, checkAnnotations, Edit } from "../k8s/index";
import {
  AUDIT_SKIP_REASON_KEY,
  detailInvalidRequest,
  EngineKeys,
  kvTransferConfigPresentWarning,
  REASON_INVALID_REQUEST,
  skipWarning,
} from "../keys/index";
import { Decision, DecisionKind } from "./plan";

function podOf(decoded: DecodedRequest): JsonValue | null {
  const request = decoded.request;
  return request === null ? null : request.object;
}

/** Turns a decision into its response. */
export function respondInjection(decoded: DecodedRequest, decision: Decision, keys: EngineKeys): ValidationResponse {
  if (decision.kind == DecisionKind.Pass) return accept();
  const pod = podOf(decoded);
  if (decision.kind == DecisionKind.Skip || pod === null)
    return skipResponse(pod, decision.reason, decision.detail, keys, decision.annotationsChecked);

  // applyEdits checks every edit before changing anything, so a failure leaves the pod untouched
  const applied = applyEdits(pod, decision.plan.edits);
  // a failed plan left the pod untouched
  if (!applied.ok)
    return skipResponse(
      pod,
      REASON_INVALID_REQUEST,
      detailInvalidRequest(applied.error),
      keys,
      decision.annotationsChecked,
    );
  const response = mutate(pod);
  if (decision.userHasKV) response.withWarning(kvTransferConfigPresentWarning(keys.policyName, decision.container));
  for (let i = 0; i < decision.warnings.length; i++) response.withWarning(decision.warnings[i]);
  return response;
}

/**
 * Skip: the object with only the skip-reason annotation set, one warning, one audit annotation.
 * Not stampable: when the object cannot carry the annotation, the same without `mutated_object`.
 */
function skipResponse(
  pod: JsonValue | null,
  reason: string,
  detail: string,
  keys: EngineKeys,
  annotationsChecked: bool,
): ValidationResponse {
  const response = accept()
    .withWarning(skipWarning(keys.policyName, reason, detail))
    .withAuditAnnotation(AUDIT_SKIP_REASON_KEY, reason);
  if (pod === null || (!annotationsChecked && checkAnnotations(pod).length > 0)) return response;
  const stamp = applyEdits(pod, [Edit.setAnnotation(keys.skipReasonAnnotation, reason)]);
  if (stamp.ok) response.withMutatedObject(pod);
  return response;
}
