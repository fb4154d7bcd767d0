// Message formats shared across policies (docs/policies/lmcache-injector.md#responses,
// docs/policies/cacheengine-validator.md#rules). Every value taken from the request, the settings
// or the cluster is passed through `echo` (the shared shortening rule of
// assembly/validate/shorten.ts), so a warning stays bounded whatever the input.
import { JsonValue } from "../json/index";
import { shortenRendered } from "../validate/shorten";
import { CONNECTION_CONFIGMAP_DATA_KEY } from "./lmcache";

/** An echoed value as a message prints it: unchanged up to 1 KiB, else its start and how many
 *  bytes were left out. */
function echo(value: string): string {
  return shortenRendered(value);
}

/** Audit annotation key for every injector skip (the API server prefixes the webhook name). */
// @ts-ignore: decorator
@lazy
export const AUDIT_SKIP_REASON_KEY = "skip-reason";
/** HTTP code of every validator rejection. */
export const REJECTION_CODE: i32 = 422;

// @ts-ignore: decorator
@lazy
export const POLICY_LMCACHE_INJECTOR = "lmcache-injector";
// @ts-ignore: decorator
@lazy
export const POLICY_CACHEBLEND_INJECTOR = "cacheblend-injector";
// @ts-ignore: decorator
@lazy
export const POLICY_HICACHE_INJECTOR = "hicache-injector";
// @ts-ignore: decorator
@lazy
export const POLICY_CACHEBACKEND_VALIDATOR = "cachebackend-validator";
// @ts-ignore: decorator
@lazy
export const POLICY_CACHEENGINE_VALIDATOR = "cacheengine-validator";
// @ts-ignore: decorator
@lazy
export const POLICY_CACHEBACKEND_DEFAULTER = "cachebackend-defaulter";

/** `<policy>: injection skipped (<reason>): <detail>`. */
export function skipWarning(policy: string, reason: string, detail: string): string {
  return policy + ": injection skipped (" + reason + "): " + detail;
}

/** Success warning when the user already passes `--kv-transfer-config` (both LMCache injectors). */
export function kvTransferConfigPresentWarning(policy: string, container: string): string {
  return (
    policy +
    ': kv-transfer-config-present: container "' +
    echo(container) +
    '" already sets --kv-transfer-config; the engine connection config was not injected'
  );
}

/** `validate_settings` detail for a key that is not part of the settings schema. */
// @ts-ignore: decorator
@lazy
export const UNKNOWN_FIELD_DETAIL = "unknown field";

/** The settings problems of a policy that has no settings (the validators, the defaulter): every
 *  distinct key is `<key>: unknown field` (a key is shortened past 1 KiB), for `validateSettingsWith`. */
export function noSettingsProblems(settings: JsonValue): string[] {
  const problems = new Array<string>();
  if (!settings.isObject()) {
    problems.push("settings must be an object");
    return problems;
  }
  const seen = new Set<string>();
  const n = settings.size();
  for (let i = 0; i < n; i++) {
    const key = settings.keyAt(i);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(echo(key) + ": " + UNKNOWN_FIELD_DETAIL);
  }
  return problems;
}

// Skip details (docs/policies/lmcache-injector.md#skip-response; `<ns>/<n>` = resolved engine).

export function detailConfigMapNotFound(ns: string, engine: string): string {
  return "ConfigMap " + echo(ns) + "/" + echo(engine) + "-connection not found";
}
export function detailEngineNotFound(kind: string, ns: string, engine: string): string {
  return kind + " " + echo(ns) + "/" + echo(engine) + " not found";
}
export function detailEngineNotInline(ref: string): string {
  return "engine " + echo(ref) + " is not in settings.engines and lookups are disabled";
}
export function detailNoContainerNamed(name: string): string {
  return 'no container named "' + echo(name) + '"';
}
// @ts-ignore: decorator
@lazy
export const DETAIL_POD_HAS_NO_CONTAINERS = "pod has no containers";
export function detailCommandOverride(container: string): string {
  return 'container "' + echo(container) + '" sets command; only args can be extended';
}
export function detailConnectionConfigMissing(
  ns: string,
  engine: string,
  key: string = CONNECTION_CONFIGMAP_DATA_KEY,
): string {
  return "ConfigMap " + echo(ns) + "/" + echo(engine) + "-connection has no " + key + " value";
}
export function detailInvalidConnectionConfig(
  ns: string,
  engine: string,
  key: string = CONNECTION_CONFIGMAP_DATA_KEY,
): string {
  return key + " of " + echo(ns) + "/" + echo(engine) + "-connection is not a JSON object";
}
export function detailInvalidEngineReference(ref: string): string {
  return '"' + echo(ref) + '" is not a valid engine reference';
}
export function detailInvalidPullSecret(name: string): string {
  return '"' + echo(name) + '" is not a valid Secret name';
}
export function detailAnnotationOverTotalLimit(key: string): string {
  return "annotation " + key + " is over Kubernetes' 262144-byte limit for all of a pod's annotations";
}
export function detailPayloadImageUnset(kind: string, ns: string, engine: string): string {
  return kind + " " + echo(ns) + "/" + echo(engine) + " has no injection.payloadImage.repository";
}
// @ts-ignore: decorator
@lazy
export const DETAIL_PAYLOAD_IMAGE_FOOTGUN = "payloadImage.repository is the ImageSpec default lmcache/vllm-openai";
export function detailPayloadImagePartInvalid(field: string): string {
  return "payloadImage " + field + " is not a valid image reference part";
}
/** `allowed` is the comma-separated list of the ImageSpec pullPolicy values. */
export function detailPullPolicyInvalid(value: string, allowed: string): string {
  return 'payloadImage.pullPolicy "' + echo(value) + '" is not one of ' + allowed;
}
export function detailRepositoryHasTag(repository: string): string {
  return (
    'payloadImage.repository "' +
    echo(repository) +
    '" holds a tag in its last path segment; put the tag in payloadImage.tag'
  );
}
/** `problem` is the reader's `<path> has the wrong JSON type`. */
export function detailEngineInvalid(kind: string, ns: string, engine: string, problem: string): string {
  return kind + " " + echo(ns) + "/" + echo(engine) + " is malformed: " + problem;
}
/** The target already mounts the staging volume elsewhere, or another volume at the staging path. */
export function detailStagingMountConflict(container: string, volume: string, mountPath: string): string {
  return (
    'container "' +
    echo(container) +
    '" mounts volume "' +
    echo(volume) +
    '" at "' +
    echo(mountPath) +
    '", which conflicts with the staging volume'
  );
}
/** `<what>` is `<kind or ConfigMap> <ns>/<name>`. */
export function detailLookupDenied(what: string, ns: string, name: string): string {
  return "lookup of " + what + " " + echo(ns) + "/" + echo(name) + " was denied; use settings.engines";
}
export function detailLookupFailed(what: string, ns: string, name: string): string {
  return "lookup of " + what + " " + echo(ns) + "/" + echo(name) + " failed";
}
export function detailInvalidRequest(what: string): string {
  return "request could not be read: " + what;
}

// cacheengine-validator rule texts shared with the injectors' settings validation
// @ts-ignore: decorator
@lazy
export const REPOSITORY_FOOTGUN_DETAIL =
  "is the ImageSpec default (the vLLM engine image), not a payload image; set repository to your payload image (payloadImage: {} is defaulted to this value)";
// @ts-ignore: decorator
@lazy
export const MUST_NOT_CONTAIN_WHITESPACE_DETAIL = "must not contain whitespace";
// @ts-ignore: decorator
@lazy
export const REPOSITORY_TAG_DETAIL = "must not contain a tag (a ':' after its last '/'); set the tag in tag";
