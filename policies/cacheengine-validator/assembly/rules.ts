// The rules of docs/policies/cacheengine-validator.md#rules, one function per table row and in the
// table's order. Pure: an engine object in, its violations out. Containers are read once (a wrong
// JSON type is reported where the field is first read, never a trap) and handed to the rules that
// need them.
import { JsonValue, Read } from "../../../assembly/json/index";
import {
  FieldErrorList,
  required,
  invalidString,
  notSupportedString,
  newPath,
  Path,
  dns1123SubdomainErrors,
  dns1123LabelErrors,
  isDns1123Subdomain,
  isDns1123SubdomainBytes,
  containsWhitespaceOrControl,
  readObjectAt,
  readListAt,
  readStringAt,
  readInt32At,
  invalidJsonValue,
  presentAt,
  MUST_BE_OBJECT,
  MUST_BE_STRING,
} from "../../../assembly/validate/index";
import {
  RepositoryCheck,
  checkPayloadRepository,
  isValidPullPolicy,
  isValidCudagraph,
} from "../../../assembly/lmcache/image";
import {
  LMCACHE_ENGINE_KIND,
  CACHEBLEND_ENGINE_KIND,
  CACHEBLEND_CHUNK_SIZE,
  REPOSITORY_FOOTGUN_DETAIL,
  MUST_NOT_CONTAIN_WHITESPACE_DETAIL,
  REPOSITORY_TAG_DETAIL,
  pullPolicies,
  cudagraphModes,
} from "../../../assembly/keys/index";
import { concat } from "../../../assembly/util/text";
import { i32ToDecimal } from "../../../assembly/util/decimal";
import { operatorViolations, rejectOutsideUnitInterval, NON_EMPTY_STRING_DETAIL } from "./operator";

export enum EngineKind {
  LMCache,
  CacheBlend,
  Other,
}

// ---- details as docs/policies/cacheengine-validator.md#rules lists them (two live in keys) ----
// @ts-ignore: decorator
@lazy
export const CHUNK_SIZE_DETAIL = "must be 256 for CacheBlend (chunk_size == block_size 64 * 4)";
// @ts-ignore: decorator
@lazy
export const CHECK_LAYER_DETAIL = "must be >= 0";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_INJECTION_DETAIL = "must be specified for CacheBlend injection";
// @ts-ignore: decorator
@lazy
export const SECRET_NAME_REQUIRED_DETAIL = "must be a non-empty Secret name";

/** The engine kind named by `request.kind.kind`; `Other` for any kind this policy does not check. */
export function engineKindOf(kind: string): EngineKind {
  if (kind == LMCACHE_ENGINE_KIND) return EngineKind.LMCache;
  if (kind == CACHEBLEND_ENGINE_KIND) return EngineKind.CacheBlend;
  return EngineKind.Other;
}

/** Every violation of one engine object (a JSON object), in rule order. */
export function engineViolations(kind: EngineKind, object: JsonValue): FieldErrorList {
  const errs = new FieldErrorList();
  const spec = readObjectAt(object, "spec", null, errs);
  if (spec.invalid) return errs; // nothing else can be read
  const specNode = spec.value;
  // container paths are values built on the way down; a leaf's path is built only for a violation
  const specPath = newPath("spec");

  // CacheBlend reads `server` and `blend` here, LMCache only `server`, at rule 17
  let server: Read<JsonValue | null> | null = null;
  let blend: Read<JsonValue | null> | null = null;
  if (kind == EngineKind.CacheBlend) {
    const serverRead = readObjectAt(specNode, "server", specPath, errs);
    server = serverRead;
    rejectChunkSizeOtherThan256(serverRead.value, specPath.child("server"), errs); // 1
    const blendRead = readObjectAt(specNode, "blend", specPath, errs);
    blend = blendRead;
    const blendPath = specPath.child("blend");
    rejectNegativeCheckLayer(blendRead.value, blendPath, errs); // 2
    rejectOutsideUnitInterval(blendRead.value, "recompRatio", blendPath, errs); // 3
  }

  const injection = readObjectAt(specNode, "injection", specPath, errs);
  const injectionPath = specPath.child("injection");
  const payloadImage = readObjectAt(injection.value, "payloadImage", injectionPath, errs);
  const imagePath = injectionPath.child("payloadImage");
  if (kind == EngineKind.CacheBlend) {
    requireCacheBlendInjection(injection, injectionPath, errs); // 4
    if (injection.ok) requireCacheBlendPayloadImage(payloadImage, imagePath, errs); // 5 ("else")
  }

  const image = payloadImage.value;
  if (image !== null) {
    const repository = readStringAt(image, "repository", imagePath, errs);
    requireRepository(repository, imagePath, errs); // 6
    rejectImageSpecDefaultRepository(repository, imagePath, errs); // 7
    rejectRepositoryWhitespace(repository, imagePath, errs); // 8
    rejectRepositoryTag(repository, imagePath, errs); // 8c (decision, see README)
    rejectTagWhitespace(readStringAt(image, "tag", imagePath, errs), imagePath, errs); // 8b (decision, see README)
    rejectUnsupportedPullPolicy(image, imagePath, errs); // 9
  }

  checkImagePullSecretNames(injection.value, injectionPath, errs); // 10, 11
  rejectInvalidTargetContainer(injection.value, injectionPath, errs); // 12
  if (kind == EngineKind.CacheBlend) {
    rejectUnsupportedCudagraph(injection.value, injectionPath, errs); // 13
  }
  operatorViolations(kind == EngineKind.CacheBlend, specNode, specPath, server, blend, errs); // 14–36
  return errs;
}

// 1. `spec.server.chunkSize` present and ≠ 256.
function rejectChunkSizeOtherThan256(server: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const chunkSize = readInt32At(server, "chunkSize", at, errs);
  if (!chunkSize.ok || chunkSize.value == CACHEBLEND_CHUNK_SIZE) return;
  const node = presentAt(server, "chunkSize");
  if (node !== null) errs.add(invalidJsonValue(at.child("chunkSize"), node, CHUNK_SIZE_DETAIL));
}

// 2. `spec.blend.checkLayer` present and < 0.
function rejectNegativeCheckLayer(blend: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const checkLayer = readInt32At(blend, "checkLayer", at, errs);
  if (!checkLayer.ok || checkLayer.value >= 0) return;
  const node = presentAt(blend, "checkLayer");
  if (node !== null) errs.add(invalidJsonValue(at.child("checkLayer"), node, CHECK_LAYER_DETAIL));
}

// 3. `spec.blend.recompRatio` present and (≤ 0 or > 1): rejectOutsideUnitInterval (operator.ts),
// shared with rules 15 and 16.

// 4. CacheBlend: `spec.injection` absent (null counts as absent; a wrong type was already reported).
function requireCacheBlendInjection(injection: Read<JsonValue | null>, path: Path, errs: FieldErrorList): void {
  if (injection.missing) errs.add(required(path, CACHEBLEND_INJECTION_DETAIL));
}

// 5. CacheBlend: else `spec.injection.payloadImage` absent.
function requireCacheBlendPayloadImage(payloadImage: Read<JsonValue | null>, path: Path, errs: FieldErrorList): void {
  if (payloadImage.missing) errs.add(required(path, CACHEBLEND_INJECTION_DETAIL));
}

// 6. `payloadImage` present and `repository` absent, "" or blank.
function requireRepository(repository: Read<string>, at: Path, errs: FieldErrorList): void {
  if (repository.invalid) return;
  if (repository.missing || checkPayloadRepository(repository.value) == RepositoryCheck.Unset) {
    errs.add(required(at.child("repository"), NON_EMPTY_STRING_DETAIL));
  }
}

// 7. `repository` is exactly the ImageSpec default `lmcache/vllm-openai`.
function rejectImageSpecDefaultRepository(repository: Read<string>, at: Path, errs: FieldErrorList): void {
  if (repository.ok && checkPayloadRepository(repository.value) == RepositoryCheck.ImageSpecDefault) {
    errs.add(invalidString(at.child("repository"), repository.value, REPOSITORY_FOOTGUN_DETAIL));
  }
}

// 8. `repository` contains whitespace or control characters.
function rejectRepositoryWhitespace(repository: Read<string>, at: Path, errs: FieldErrorList): void {
  if (repository.ok && checkPayloadRepository(repository.value) == RepositoryCheck.Whitespace) {
    errs.add(invalidString(at.child("repository"), repository.value, MUST_NOT_CONTAIN_WHITESPACE_DETAIL));
  }
}

// 8c. `repository` holds a tag after its last `/` (`reg/p:v1`; `reg:5000/p` is a port): the
// injectors would build `reg/p:v1:latest` and skip such an engine as `payload-image-invalid`.
function rejectRepositoryTag(repository: Read<string>, at: Path, errs: FieldErrorList): void {
  if (repository.ok && checkPayloadRepository(repository.value) == RepositoryCheck.TagInRepository) {
    errs.add(invalidString(at.child("repository"), repository.value, REPOSITORY_TAG_DETAIL));
  }
}

// 8b. `tag` contains whitespace or control characters. The injectors skip such an engine as
// `payload-image-invalid` (docs/policies/lmcache-injector.md#x3), and an admitted engine must never
// cause that skip (docs/policies/cacheengine-validator.md#rule-8b).
function rejectTagWhitespace(tag: Read<string>, at: Path, errs: FieldErrorList): void {
  if (tag.ok && containsWhitespaceOrControl(tag.value)) {
    errs.add(invalidString(at.child("tag"), tag.value, MUST_NOT_CONTAIN_WHITESPACE_DETAIL));
  }
}

// 9. `pullPolicy` present and not `Always`, `Never` or `IfNotPresent` ("" is present and outside).
function rejectUnsupportedPullPolicy(image: JsonValue, at: Path, errs: FieldErrorList): void {
  const pullPolicy = readStringAt(image, "pullPolicy", at, errs);
  if (pullPolicy.ok && !isValidPullPolicy(pullPolicy.value)) {
    errs.add(notSupportedString(at.child("pullPolicy"), pullPolicy.value, pullPolicies()));
  }
}

// 10. `imagePullSecrets[i].name` absent or "" (a null item decodes to an empty reference).
// 11. `imagePullSecrets[i].name` not a DNS-1123 subdomain, one violation per message.
// Both rows are evaluated item by item, so each item's violations stay together. Items are probed
// in the records (no node, no path): a valid one costs no allocation but an escaped name, and
// once the error list is full every other item is only counted.
function checkImagePullSecretNames(injection: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const list = readListAt(injection, "imagePullSecrets", at, errs).value;
  if (list === null) return;
  const listPath = at.child("imagePullSecrets");
  let listText: string | null = null;
  const n = list.size();
  for (let i = 0; i < n; i++) {
    // a name without escapes is checked on its bytes; an escaped one may still decode to a valid name
    const raw = list.itemMemberRawTest(i, "name", isDns1123SubdomainBytes);
    if (raw == 1) continue;
    if (raw == -2) {
      const name = list.itemStringOrNull(i, "name");
      if (name !== null && name.length > 0 && isDns1123Subdomain(name)) continue;
    }
    if (errs.full) {
      errs.omit();
      continue;
    }
    if (raw == 0) {
      // an object's string name whose bytes are its text (nothing else to read from the item)
      const name = list.itemStringOrNull(i, "name");
      if (name !== null && name.length > 0) {
        if (listText === null) listText = listPath.toString();
        const field = concat(listText, "[", i32ToDecimal(i), "].name");
        errs.addInvalidStringPerMessageAt(field, name, dns1123SubdomainErrors(name)); // 11
        continue;
      }
    }
    const item = list.at(i);
    let name: JsonValue | null = null;
    if (item !== null && !item.isNull()) {
      if (!item.isObject()) {
        errs.add(invalidJsonValue(listPath.index(i), item, MUST_BE_OBJECT));
        continue;
      }
      name = item.getPresent("name");
    }
    if (name === null) {
      errs.add(required(secretNamePath(listPath, i), SECRET_NAME_REQUIRED_DETAIL)); // 10
      continue;
    }
    const text = name.asString();
    if (!text.ok) {
      errs.add(invalidJsonValue(secretNamePath(listPath, i), name, MUST_BE_STRING));
    } else if (text.value.length == 0) {
      errs.add(required(secretNamePath(listPath, i), SECRET_NAME_REQUIRED_DETAIL)); // 10
    } else if (!isDns1123Subdomain(text.value)) {
      errs.addInvalidStringPerMessage(secretNamePath(listPath, i), text.value, dns1123SubdomainErrors(text.value)); // 11
    }
  }
}

function secretNamePath(list: Path, i: i32): Path {
  return list.index(i).child("name");
}

// 12. `targetContainer` non-empty and not a DNS-1123 label ("" selects the first container).
function rejectInvalidTargetContainer(injection: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const target = readStringAt(injection, "targetContainer", at, errs);
  if (!target.ok || target.value.length == 0) return;
  const problems = dns1123LabelErrors(target.value);
  if (problems.length > 0) errs.addInvalidStringPerMessage(at.child("targetContainer"), target.value, problems);
}

// 13. CacheBlend: `cudagraph` present and not `eager`, `piecewise` or `full_decode_only`.
function rejectUnsupportedCudagraph(injection: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const cudagraph = readStringAt(injection, "cudagraph", at, errs);
  if (cudagraph.ok && !isValidCudagraph(cudagraph.value)) {
    errs.add(notSupportedString(at.child("cudagraph"), cudagraph.value, cudagraphModes()));
  }
}
