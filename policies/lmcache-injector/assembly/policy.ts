// lmcache-injector `validate`: decode → plan → the shared LMCache-injector response
// (docs/policies/lmcache-injector.md#responses). Never rejects: every outcome is `accepted: true`.
import {
  decodeValidationPayload,
  DecodedRequest,
  KubernetesLookups,
  ValidationResponse,
  WapcLookups,
} from "../../../assembly/kubewarden/index";
import { lmcacheKeys } from "../../../assembly/keys/index";
import { respondInjection } from "../../../assembly/lmcache/index";
import { Decision, planLmcacheInjection } from "./plan";

export function validate(payload: Uint8Array): Uint8Array {
  return evaluate(payload, new WapcLookups()).toBytesOver(payload); // the payload is not read again
}

/** The whole evaluation with an injectable lookup seam (unit tests pass RecordedLookups). */
export function evaluate(payload: Uint8Array, lookups: KubernetesLookups): ValidationResponse {
  const decoded = decodeValidationPayload(payload);
  return respond(decoded, planLmcacheInjection(decoded, lookups));
}

/** Turns a decision into its response. */
export function respond(decoded: DecodedRequest, decision: Decision): ValidationResponse {
  return respondInjection(decoded, decision, lmcacheKeys());
}
