// Payload-image rules for LMCache / CacheBlend engines (`spec.injection.payloadImage`), shared by
// lmcache-injector, cacheblend-injector (docs/policies/lmcache-injector.md#staging, D6, X2/X3) and
// cacheengine-validator (docs/policies/cacheengine-validator.md#rules, 6–9 and 13). One home, so an
// engine the validator admits is exactly an engine the injectors can stage.
import { containsString, containsWhitespaceOrControl, isBlank } from "../validate/index";
import {
  PAYLOAD_FOOTGUN_REPOSITORY,
  DEFAULT_PAYLOAD_TAG,
  DEFAULT_PULL_POLICY,
  pullPolicies,
  cudagraphModes,
} from "../keys/index";

/** A repository containing this already names one immutable image: no tag is appended. */
// @ts-ignore: decorator
@lazy
const DIGEST_MARKER = "@sha256:";

/** What a payload repository is good for. */
export enum RepositoryCheck {
  /** empty or whitespace only (Go TrimSpace): no payload image configured */
  Unset,
  /** exactly the ImageSpec default `lmcache/vllm-openai` (the `payloadImage: {}` footgun: the API
   *  server stores this default when the user writes an empty payloadImage) */
  ImageSpecDefault,
  /** contains whitespace or a control character: no valid image reference can be built */
  Whitespace,
  /** a tag in the last path segment (`reg/p:v1`): appending the tag would give `reg/p:v1:latest`,
   *  which the kubelet refuses (a `:` before the last `/` is a registry port, `reg:5000/p`) */
  TagInRepository,
  /** usable as an image repository */
  Ok,
}

/** Classifies a payload repository, in this order: blank → Unset; the ImageSpec default →
 *  ImageSpecDefault; any whitespace/control character → Whitespace; a `:` after the last `/` of a
 *  repository without a digest → TagInRepository; otherwise Ok. */
export function checkPayloadRepository(repository: string): RepositoryCheck {
  if (isBlank(repository)) return RepositoryCheck.Unset;
  if (repository == PAYLOAD_FOOTGUN_REPOSITORY) return RepositoryCheck.ImageSpecDefault;
  if (containsWhitespaceOrControl(repository)) return RepositoryCheck.Whitespace;
  if (!repository.includes(DIGEST_MARKER) && lastSeparatorIsColon(repository)) return RepositoryCheck.TagInRepository;
  return RepositoryCheck.Ok;
}

/** whether the last `:` or `/` of `s` is a `:` (a `:` after the last `/`); one scan from the end
 *  instead of two `lastIndexOf` (which would link the standard library's search, ~150 bytes) */
function lastSeparatorIsColon(s: string): bool {
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if (c == 0x3a) return true;
    if (c == 0x2f) return false;
  }
  return false;
}

/** A tag that can be appended to a repository: no whitespace or control characters (X3).
 *  "" is fine (it means `latest`). */
export function isUsablePayloadTag(tag: string): bool {
  return !containsWhitespaceOrControl(tag);
}

/** The Kubernetes image pull policies, the ImageSpec `pullPolicy` enum. "" is not one of them
 *  (callers that treat "" as unset use `effectivePullPolicy` first). */
export function isValidPullPolicy(p: string): bool {
  return containsString(pullPolicies(), p);
}

/** The pull policies as a message lists them: `Always, IfNotPresent, Never`. */
export function pullPoliciesText(): string {
  return pullPolicies().join(", ");
}

/** `pullPolicy` as the staging init container gets it: "" (absent/null) → `IfNotPresent`,
 *  anything else unchanged (check it with `isValidPullPolicy`). */
export function effectivePullPolicy(p: string): string {
  return p.length == 0 ? DEFAULT_PULL_POLICY : p;
}

/** The image reference of the staging init container: a repository containing `@sha256:` is used
 *  as is (D6: appending a tag would make it invalid); otherwise `<repository>:<tag>`, with
 *  `latest` for an empty tag. Assumes `checkPayloadRepository(repository) == Ok`. */
export function payloadImageRef(repository: string, tag: string): string {
  if (repository.includes(DIGEST_MARKER)) return repository;
  return repository + ":" + (tag.length == 0 ? DEFAULT_PAYLOAD_TAG : tag);
}

/** CacheBlend `injection.cudagraph` enum (`eager` is the default; `full` is not a value). */
export function isValidCudagraph(v: string): bool {
  return containsString(cudagraphModes(), v);
}
