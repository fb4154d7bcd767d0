// validate of cachebackend-defaulter (docs/policies/cachebackend-defaulter.md#responses): decode the
// request, read the CacheBackend, plan the five steps, write them over the request's object and
// answer with the whole object and the warnings. Never rejects: a request it cannot default is
// accepted unchanged with the reason as a warning.
import { JsonValue } from "../../../assembly/json/index";
import {
  accept,
  decodeValidationPayload,
  OPERATION_CREATE,
  OPERATION_UPDATE,
  ValidationResponse,
} from "../../../assembly/kubewarden/index";
import { CACHEBACKEND_KIND, detailInvalidRequest, POLICY_CACHEBACKEND_DEFAULTER } from "../../../assembly/keys/index";
import { MUST_BE_OBJECT } from "../../../assembly/validate/index";
import { readBackend, pathOf } from "./backend";
import { applyDefaults } from "./apply";
import { planDefaults, warnsNfsFailOpen } from "./steps";

/** The warning for an NFS HiCache backend that leaves `integration.failOpen` to the schema default. */
// @ts-ignore: decorator
@lazy
export const NFS_FAIL_OPEN_WARNING =
  "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";

/** `cachebackend-defaulter: not defaulted: <reason>`. */
export function notDefaultedWarning(reason: string): string {
  return POLICY_CACHEBACKEND_DEFAULTER + ": not defaulted: " + reason;
}

export function validate(payload: Uint8Array): Uint8Array {
  return evaluate(payload).toBytesOver(payload); // the payload is not read again
}

/** The whole evaluation: the response, not yet written. */
export function evaluate(payload: Uint8Array): ValidationResponse {
  const decoded = decodeValidationPayload(payload);
  const request = decoded.request;
  if (request === null) return accept().withWarning(notDefaultedWarning(detailInvalidRequest(decoded.error)));
  if (request.kind.kind != CACHEBACKEND_KIND) return accept(); // misconfigured rules: not ours
  const operation = request.operation;
  if (operation != OPERATION_CREATE && operation != OPERATION_UPDATE) return accept(); // DELETE: nothing to default
  const object = request.object;
  if (object === null || !object.isObject())
    return accept().withWarning(notDefaultedWarning("object: " + MUST_BE_OBJECT));
  return defaultObject(object); // on UPDATE too: the old object is not read
}

/** Defaults one CacheBackend object in place; the response carries it only when a step wrote. */
export function defaultObject(object: JsonValue): ValidationResponse {
  const view = readBackend(object);
  const response = accept();
  if (!view.readable) {
    return response.withWarning(notDefaultedWarning(pathOf(view.mistypedAt) + ": " + view.mistypedAs));
  }
  if (warnsNfsFailOpen(view)) response.withWarning(NFS_FAIL_OPEN_WARNING);
  const defaults = planDefaults(view);
  if (!defaults.changes) return response;
  applyDefaults(object, view, defaults);
  return response.withMutatedObject(object);
}
