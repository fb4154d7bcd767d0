// The rules of docs/policies/cacheengine-validator.md#rules, one function per table row and in the
// table's order. Pure: an engine object in, its violations out. Containers are read once (a wrong
// JSON type is reported where the field is first read, never a trap) and handed to the rules that
// need them.
import { JsonValue, Read } from "../../../assembly/json/index";
import {
  FieldErrorList, required, invalidString, notSupportedString,
  dns1123SubdomainErrors, dns1123LabelErrors, isDns1123Subdomain, child, index, containsWhitespaceOrControl,
} from "../../../assembly/validate/index";
import {
  RepositoryCheck, checkPayloadRepository, isValidPullPolicy, isValidCudagraph,
} from "../../../assembly/lmcache/image";
import {
  LMCACHE_ENGINE_KIND, CACHEBLEND_ENGINE_KIND, CACHEBLEND_CHUNK_SIZE, REPOSITORY_FOOTGUN_DETAIL,
  MUST_NOT_CONTAIN_WHITESPACE_DETAIL, pullPolicies, cudagraphModes,
} from "../../../assembly/keys/index";
import {
  readObjectAt, readListAt, readStringAt, readInt32At, readNumberAt, invalidJsonValue,
  presentMember, MUST_BE_OBJECT, MUST_BE_STRING,
} from "./fields";

export enum EngineKind { LMCache, CacheBlend, Other }

// ---- details as docs/policies/cacheengine-validator.md#rules lists them (two live in keys) ----
// @ts-ignore: decorator
@lazy
export const CHUNK_SIZE_DETAIL = "must be 256 for CacheBlend (chunk_size == block_size 64 * 4)";
// @ts-ignore: decorator
@lazy
export const CHECK_LAYER_DETAIL = "must be >= 0";
// @ts-ignore: decorator
@lazy
export const RECOMP_RATIO_DETAIL = "must be in (0.0, 1.0]";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_INJECTION_DETAIL = "must be specified for CacheBlend injection";
// @ts-ignore: decorator
@lazy
export const REPOSITORY_REQUIRED_DETAIL = "must be a non-empty string";
// @ts-ignore: decorator
@lazy
export const SECRET_NAME_REQUIRED_DETAIL = "must be a non-empty Secret name";

// ---- field paths ----
// @ts-ignore: decorator
@lazy
const SPEC = "spec";
// @ts-ignore: decorator
@lazy
const SERVER = "spec.server";
// @ts-ignore: decorator
@lazy
const CHUNK_SIZE = "spec.server.chunkSize";
// @ts-ignore: decorator
@lazy
const BLEND = "spec.blend";
// @ts-ignore: decorator
@lazy
const CHECK_LAYER = "spec.blend.checkLayer";
// @ts-ignore: decorator
@lazy
const RECOMP_RATIO = "spec.blend.recompRatio";
// @ts-ignore: decorator
@lazy
const INJECTION = "spec.injection";
// @ts-ignore: decorator
@lazy
const PAYLOAD_IMAGE = "spec.injection.payloadImage";
// @ts-ignore: decorator
@lazy
const REPOSITORY = "spec.injection.payloadImage.repository";
// @ts-ignore: decorator
@lazy
const TAG = "spec.injection.payloadImage.tag";
// @ts-ignore: decorator
@lazy
const PULL_POLICY = "spec.injection.payloadImage.pullPolicy";
// @ts-ignore: decorator
@lazy
const IMAGE_PULL_SECRETS = "spec.injection.imagePullSecrets";
// @ts-ignore: decorator
@lazy
const TARGET_CONTAINER = "spec.injection.targetContainer";
// @ts-ignore: decorator
@lazy
const CUDAGRAPH = "spec.injection.cudagraph";

/** The engine kind named by `request.kind.kind`; `Other` for any kind this policy does not check. */
export function engineKindOf(kind: string): EngineKind {
  if (kind == LMCACHE_ENGINE_KIND) return EngineKind.LMCache;
  if (kind == CACHEBLEND_ENGINE_KIND) return EngineKind.CacheBlend;
  return EngineKind.Other;
}

/** Every violation of one engine object (a JSON object), in rule order. */
export function engineViolations(kind: EngineKind, object: JsonValue): FieldErrorList {
  const errs = new FieldErrorList();
  const spec = readObjectAt(object, "spec", SPEC, errs);
  if (spec.invalid) return errs; // nothing else can be read
  const specNode = spec.value;

  if (kind == EngineKind.CacheBlend) {
    const server = readObjectAt(specNode, "server", SERVER, errs);
    rejectChunkSizeOtherThan256(server.value, errs);                    // 1
    const blend = readObjectAt(specNode, "blend", BLEND, errs);
    rejectNegativeCheckLayer(blend.value, errs);                        // 2
    rejectRecompRatioOutsideUnitInterval(blend.value, errs);            // 3
  }

  const injection = readObjectAt(specNode, "injection", INJECTION, errs);
  const payloadImage = readObjectAt(injection.value, "payloadImage", PAYLOAD_IMAGE, errs);
  if (kind == EngineKind.CacheBlend) {
    requireCacheBlendInjection(injection, errs);                        // 4
    if (injection.ok) requireCacheBlendPayloadImage(payloadImage, errs);  // 5 ("else")
  }

  const image = payloadImage.value;
  if (image !== null) {
    const repository = readStringAt(image, "repository", REPOSITORY, errs);
    requireRepository(repository, errs);                                // 6
    rejectImageSpecDefaultRepository(repository, errs);                 // 7
    rejectRepositoryWhitespace(repository, errs);                       // 8
    rejectTagWhitespace(readStringAt(image, "tag", TAG, errs), errs);   // 8b (decision, see README)
    rejectUnsupportedPullPolicy(image, errs);                           // 9
  }

  checkImagePullSecretNames(injection.value, errs);                     // 10, 11
  rejectInvalidTargetContainer(injection.value, errs);                  // 12
  if (kind == EngineKind.CacheBlend) {
    rejectUnsupportedCudagraph(injection.value, errs);                  // 13
  }
  return errs;
}

// 1. `spec.server.chunkSize` present and ≠ 256.
function rejectChunkSizeOtherThan256(server: JsonValue | null, errs: FieldErrorList): void {
  const chunkSize = readInt32At(server, "chunkSize", CHUNK_SIZE, errs);
  const node = presentMember(server, "chunkSize");
  if (chunkSize.ok && chunkSize.value != CACHEBLEND_CHUNK_SIZE && node !== null) {
    errs.add(invalidJsonValue(CHUNK_SIZE, node, CHUNK_SIZE_DETAIL));
  }
}

// 2. `spec.blend.checkLayer` present and < 0.
function rejectNegativeCheckLayer(blend: JsonValue | null, errs: FieldErrorList): void {
  const checkLayer = readInt32At(blend, "checkLayer", CHECK_LAYER, errs);
  const node = presentMember(blend, "checkLayer");
  if (checkLayer.ok && checkLayer.value < 0 && node !== null) {
    errs.add(invalidJsonValue(CHECK_LAYER, node, CHECK_LAYER_DETAIL));
  }
}

// 3. `spec.blend.recompRatio` present and (≤ 0 or > 1). The controller decodes it as a float64, so
// the comparison is on the correctly rounded float64 value (`1.0` = 1 passes, `-0.0` fails), with
// no tolerance. A number beyond float64 range (`1e400`) is outside (0, 1] as well.
function rejectRecompRatioOutsideUnitInterval(blend: JsonValue | null, errs: FieldErrorList): void {
  const recompRatio = readNumberAt(blend, "recompRatio", RECOMP_RATIO, errs);
  const node = recompRatio.value;
  if (node === null) return;
  const f = node.asF64();
  if (!f.ok || f.value <= 0.0 || f.value > 1.0) {
    errs.add(invalidJsonValue(RECOMP_RATIO, node, RECOMP_RATIO_DETAIL));
  }
}

// 4. CacheBlend: `spec.injection` absent (null counts as absent; a wrong type was already reported).
function requireCacheBlendInjection(injection: Read<JsonValue | null>, errs: FieldErrorList): void {
  if (injection.missing) errs.add(required(INJECTION, CACHEBLEND_INJECTION_DETAIL));
}

// 5. CacheBlend: else `spec.injection.payloadImage` absent.
function requireCacheBlendPayloadImage(payloadImage: Read<JsonValue | null>, errs: FieldErrorList): void {
  if (payloadImage.missing) errs.add(required(PAYLOAD_IMAGE, CACHEBLEND_INJECTION_DETAIL));
}

// 6. `payloadImage` present and `repository` absent, "" or blank.
function requireRepository(repository: Read<string>, errs: FieldErrorList): void {
  if (repository.invalid) return;
  if (repository.missing || checkPayloadRepository(repository.value) == RepositoryCheck.Unset) {
    errs.add(required(REPOSITORY, REPOSITORY_REQUIRED_DETAIL));
  }
}

// 7. `repository` is exactly the ImageSpec default `lmcache/vllm-openai`.
function rejectImageSpecDefaultRepository(repository: Read<string>, errs: FieldErrorList): void {
  if (repository.ok && checkPayloadRepository(repository.value) == RepositoryCheck.ImageSpecDefault) {
    errs.add(invalidString(REPOSITORY, repository.value, REPOSITORY_FOOTGUN_DETAIL));
  }
}

// 8. `repository` contains whitespace or control characters.
function rejectRepositoryWhitespace(repository: Read<string>, errs: FieldErrorList): void {
  if (repository.ok && checkPayloadRepository(repository.value) == RepositoryCheck.Whitespace) {
    errs.add(invalidString(REPOSITORY, repository.value, MUST_NOT_CONTAIN_WHITESPACE_DETAIL));
  }
}

// 8b. `tag` contains whitespace or control characters. The injectors skip such an engine as
// `payload-image-invalid` (docs/policies/lmcache-injector.md#x3), and an admitted engine must never
// cause that skip (docs/policies/cacheengine-validator.md#rule-8b).
function rejectTagWhitespace(tag: Read<string>, errs: FieldErrorList): void {
  if (tag.ok && containsWhitespaceOrControl(tag.value)) {
    errs.add(invalidString(TAG, tag.value, MUST_NOT_CONTAIN_WHITESPACE_DETAIL));
  }
}

// 9. `pullPolicy` present and not `Always`, `Never` or `IfNotPresent` ("" is present and outside).
function rejectUnsupportedPullPolicy(image: JsonValue, errs: FieldErrorList): void {
  const pullPolicy = readStringAt(image, "pullPolicy", PULL_POLICY, errs);
  if (pullPolicy.ok && !isValidPullPolicy(pullPolicy.value)) {
    errs.add(notSupportedString(PULL_POLICY, pullPolicy.value, pullPolicies()));
  }
}

// Whether an imagePullSecrets item violates rule 10 or 11 (or its type), without building the
// violation: once the error list is full, the rest of a long list is only counted.
function pullSecretItemViolates(item: JsonValue | null): bool {
  if (item === null || item.isNull()) return true;
  if (!item.isObject()) return true;
  const name = presentMember(item, "name");
  if (name === null) return true;
  const text = name.asString();
  return !text.ok || text.value.length == 0 || !isDns1123Subdomain(text.value);
}

// 10. `imagePullSecrets[i].name` absent or "" (a null item decodes to an empty reference).
// 11. `imagePullSecrets[i].name` not a DNS-1123 subdomain, one violation per message.
// Both rows are evaluated item by item, so each item's violations stay together.
function checkImagePullSecretNames(injection: JsonValue | null, errs: FieldErrorList): void {
  const list = readListAt(injection, "imagePullSecrets", IMAGE_PULL_SECRETS, errs).value;
  if (list === null) return;
  const n = list.size();
  for (let i = 0; i < n; i++) {
    // paths are built only for a violation: a valid list of any length allocates nothing per item
    const item = list.at(i);
    if (errs.full) {
      if (pullSecretItemViolates(item)) errs.omit();
      continue;
    }
    let name: JsonValue | null = null;
    if (item !== null && !item.isNull()) {
      if (!item.isObject()) {
        errs.add(invalidJsonValue(index(IMAGE_PULL_SECRETS, i), item, MUST_BE_OBJECT));
        continue;
      }
      name = presentMember(item, "name");
    }
    if (name === null) {
      errs.add(required(secretNamePath(i), SECRET_NAME_REQUIRED_DETAIL));                        // 10
      continue;
    }
    const text = name.asString();
    if (!text.ok) {
      errs.add(invalidJsonValue(secretNamePath(i), name, MUST_BE_STRING));
    } else if (text.value.length == 0) {
      errs.add(required(secretNamePath(i), SECRET_NAME_REQUIRED_DETAIL));                        // 10
    } else if (!isDns1123Subdomain(text.value)) {
      errs.addInvalidStringPerMessage(secretNamePath(i), text.value, dns1123SubdomainErrors(text.value)); // 11
    }
  }
}

function secretNamePath(i: i32): string {
  return child(index(IMAGE_PULL_SECRETS, i), "name");
}

// 12. `targetContainer` non-empty and not a DNS-1123 label ("" selects the first container).
function rejectInvalidTargetContainer(injection: JsonValue | null, errs: FieldErrorList): void {
  const target = readStringAt(injection, "targetContainer", TARGET_CONTAINER, errs);
  if (!target.ok || target.value.length == 0) return;
  errs.addInvalidStringPerMessage(TARGET_CONTAINER, target.value, dns1123LabelErrors(target.value));
}

// 13. CacheBlend: `cudagraph` present and not `eager`, `piecewise` or `full_decode_only`.
function rejectUnsupportedCudagraph(injection: JsonValue | null, errs: FieldErrorList): void {
  const cudagraph = readStringAt(injection, "cudagraph", CUDAGRAPH, errs);
  if (cudagraph.ok && !isValidCudagraph(cudagraph.value)) {
    errs.add(notSupportedString(CUDAGRAPH, cudagraph.value, cudagraphModes()));
  }
}
