// validate of cacheengine-validator
// (docs/policies/cacheengine-validator.md#responses): decode the request, pick the engine kind from
// `request.kind.kind`, run the rules on CREATE, keep only introduced violations on UPDATE, and
// answer with the Kubernetes 422 message.
import { JsonValue } from "../../../assembly/json/index";
import {
  decodeValidationPayload,
  accept,
  OPERATION_CREATE,
  OPERATION_UPDATE,
  reject,
  ValidationRequest,
} from "../../../assembly/kubewarden/index";
import { FieldErrorList, introducedErrors, invalidString, newPath } from "../../../assembly/validate/index";
import {
  LMCACHE_ENGINE_KIND,
  CACHEBLEND_ENGINE_KIND,
  LMCACHE_ENGINE_GROUP,
  REJECTION_CODE,
} from "../../../assembly/keys/index";
import { EngineKind, engineKindOf, engineViolations } from "./rules";

/** Kubernetes validation errors are 422 Unprocessable Entity; every rejection of this validator
 *  uses it, also for a payload that is not an admission request (never sent by a real host). */
const CODE_INVALID: u16 = <u16>REJECTION_CODE;

export function validate(payload: Uint8Array): Uint8Array {
  const decoded = decodeValidationPayload(payload);
  const request = decoded.request;
  if (request === null) {
    return reject("cannot read the admission request: " + decoded.error, CODE_INVALID).toBytes();
  }
  const kind = engineKindOf(request.kind.kind);
  if (kind == EngineKind.Other) return accept().toBytes(); // misconfigured rules: not ours
  const operation = request.operation;
  if (operation == OPERATION_CREATE) return respond(kind, request, false);
  if (operation == OPERATION_UPDATE) return respond(kind, request, true);
  return accept().toBytes(); // DELETE (not in the rules) and anything else
}

function respond(kind: EngineKind, request: ValidationRequest, onlyIntroduced: bool): Uint8Array {
  const object = request.object;
  if (object === null || !object.isObject()) {
    const errs = new FieldErrorList();
    const kindName = object === null ? "null" : object.kindName();
    errs.add(invalidString(newPath("object"), kindName, "must be a " + kindText(kind) + " object"));
    return reject(errs.invalidMessage(kindText(kind), LMCACHE_ENGINE_GROUP, ""), CODE_INVALID).toBytes();
  }
  let errs = engineViolations(kind, object);
  // an UPDATE whose new object has no violation has none to filter: the old one is not read
  if (onlyIntroduced && !errs.isEmpty()) {
    const old = request.oldObject;
    // an unreadable oldObject has no violations, so every violation of the new object counts
    const oldErrs = old !== null && old.isObject() ? engineViolations(kind, old) : new FieldErrorList();
    errs = introducedErrors(errs, oldErrs);
  }
  if (errs.isEmpty()) return accept().toBytes();
  return reject(errs.invalidMessage(kindText(kind), LMCACHE_ENGINE_GROUP, objectName(object)), CODE_INVALID).toBytes();
}

function kindText(kind: EngineKind): string {
  return kind == EngineKind.CacheBlend ? CACHEBLEND_ENGINE_KIND : LMCACHE_ENGINE_KIND;
}

/** `metadata.name` when it is a string, else "" (as Kubernetes prints a nameless object). */
function objectName(object: JsonValue): string {
  const metadata = object.get("metadata");
  if (metadata === null) return "";
  const name = metadata.readString("name");
  return name.ok ? name.value : "";
}
