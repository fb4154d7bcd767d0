// validate of cachebackend-validator (docs/policies/cachebackend-validator.md#responses): decode
// the request, read the CacheBackend, run the rules on CREATE, keep only introduced violations on
// UPDATE, and answer with the Kubernetes 422 message and the Mooncake warning.
import { JsonValue } from "../../../assembly/json/index";
import {
  decodeValidationPayload,
  accept,
  OPERATION_CREATE,
  OPERATION_UPDATE,
  reject,
  ValidationRequest,
  ValidationResponse,
} from "../../../assembly/kubewarden/index";
import { FieldErrorList, introducedErrors, invalidString, newPath } from "../../../assembly/validate/index";
import { CACHEBACKEND_KIND, CACHEBACKEND_GROUP, REJECTION_CODE } from "../../../assembly/keys/index";
import { Backend, readBackend } from "./backend";
import { backendViolations, backendWarnings } from "./rules";

/** Kubernetes validation errors are 422 Unprocessable Entity. */
const CODE_INVALID: u16 = <u16>REJECTION_CODE;

export function validate(payload: Uint8Array): Uint8Array {
  const decoded = decodeValidationPayload(payload);
  const request = decoded.request;
  if (request === null) {
    return reject("cannot read the admission request: " + decoded.error, CODE_INVALID).toBytes();
  }
  if (request.kind.kind != CACHEBACKEND_KIND) return accept().toBytes(); // misconfigured rules: not ours
  if (request.operation == OPERATION_CREATE) return respond(request, false);
  if (request.operation == OPERATION_UPDATE) return respond(request, true);
  return accept().toBytes(); // DELETE (not in the rules) and anything else
}

/** The violations of one object (type errors first, then the rules) and the backend read. */
export class Evaluation {
  constructor(
    public backend: Backend,
    public errors: FieldErrorList,
  ) {}
}

export function evaluate(object: JsonValue, requestNamespace: string): Evaluation {
  const errs = new FieldErrorList();
  const backend = readBackend(object, requestNamespace, errs);
  backendViolations(backend, errs);
  return new Evaluation(backend, errs);
}

function respond(request: ValidationRequest, onlyIntroduced: bool): Uint8Array {
  const object = request.object;
  if (object === null || !object.isObject()) {
    const errs = new FieldErrorList();
    const kindName = object === null ? "null" : object.kindName();
    errs.add(invalidString(newPath("object"), kindName, "must be a CacheBackend object"));
    return reject(errs.invalidMessage(CACHEBACKEND_KIND, CACHEBACKEND_GROUP, ""), CODE_INVALID).toBytes();
  }
  const current = evaluate(object, request.namespace);
  let errs = current.errors;
  if (onlyIntroduced) {
    const old = request.oldObject;
    // an unreadable oldObject has no violations, so every violation of the new object counts
    const oldErrs = old !== null && old.isObject() ? evaluate(old, request.namespace).errors : new FieldErrorList();
    errs = introducedErrors(errs, oldErrs);
  }
  let response: ValidationResponse;
  if (errs.isEmpty()) response = accept();
  else {
    response = reject(errs.invalidMessage(CACHEBACKEND_KIND, CACHEBACKEND_GROUP, current.backend.name), CODE_INVALID);
  }
  const warnings = backendWarnings(current.backend);
  for (let i = 0; i < warnings.length; i++) response.withWarning(warnings[i]);
  return response.toBytes();
}
