// cacheblend-injector `validate`: decode → plan → the shared LMCache-injector response
// (docs/policies/cacheblend-injector.md#responses). Never rejects: every outcome is `accepted: true`.
import {
  decodeValidationPayload,
  KubernetesLookups,
  ValidationResponse,
  WapcLookups,
} from "../../../assembly/kubewarden/index";
import { cacheblendKeys } from "../../../assembly/keys/index";
import { respondInjection } from "../../../assembly/lmcache/index";
import { planCacheblendInjection } from "./plan";

export function validate(payload: Uint8Array): Uint8Array {
  return evaluate(payload, new WapcLookups()).toBytesOver(payload); // the payload is not read again
}

/** The whole evaluation with an injectable lookup seam (unit tests pass RecordedLookups). */
export function evaluate(payload: Uint8Array, lookups: KubernetesLookups): ValidationResponse {
  const decoded = decodeValidationPayload(payload);
  return respondInjection(decoded, planCacheblendInjection(decoded, lookups), cacheblendKeys());
}
