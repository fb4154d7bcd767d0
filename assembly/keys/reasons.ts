// Skip / fail-open reason codes (docs/policies/lmcache-injector.md#skip-reasons; the planned
// hicache-injector's fail-open reasons). Upstream values first, then the cachewarden additions.

// lmcache-injector / cacheblend-injector (upstream)
// @ts-ignore: decorator
@lazy
export const REASON_ENGINE_NOT_FOUND = "engine-not-found";
// @ts-ignore: decorator
@lazy
export const REASON_TARGET_CONTAINER_NOT_FOUND = "target-container-not-found";
// @ts-ignore: decorator
@lazy
export const REASON_COMMAND_OVERRIDE = "command-override";
/** Not a skip: written next to a successful injection. */
// @ts-ignore: decorator
@lazy
export const REASON_KV_TRANSFER_CONFIG_PRESENT = "kv-transfer-config-present";
// @ts-ignore: decorator
@lazy
export const REASON_PAYLOAD_IMAGE_UNSET = "payload-image-unset";
// cachewarden additions
// @ts-ignore: decorator
@lazy
export const REASON_PAYLOAD_IMAGE_INVALID = "payload-image-invalid";
// @ts-ignore: decorator
@lazy
export const REASON_CONNECTION_CONFIG_MISSING = "connection-config-missing";
// @ts-ignore: decorator
@lazy
export const REASON_INVALID_CONNECTION_CONFIG = "invalid-connection-config";
// @ts-ignore: decorator
@lazy
export const REASON_INVALID_ENGINE_REFERENCE = "invalid-engine-reference";
// @ts-ignore: decorator
@lazy
export const REASON_INVALID_IMAGE_PULL_SECRETS = "invalid-image-pull-secrets";
/** An engine CR was read but a field of its `spec.injection` has the wrong JSON type. */
// @ts-ignore: decorator
@lazy
export const REASON_ENGINE_INVALID = "engine-invalid";
/** The pod already uses the staging volume's name or mount path for something else. */
// @ts-ignore: decorator
@lazy
export const REASON_STAGING_CONFLICT = "staging-conflict";
/** The pod's `lmcache.ai/pd-role` names a role its PD engine has no connection config for. */
// @ts-ignore: decorator
@lazy
export const REASON_UNKNOWN_PD_ROLE = "unknown-pd-role";

// shared by all injectors
// @ts-ignore: decorator
@lazy
export const REASON_LOOKUP_DENIED = "lookup-denied";
// @ts-ignore: decorator
@lazy
export const REASON_LOOKUP_FAILED = "lookup-failed";
// @ts-ignore: decorator
@lazy
export const REASON_INVALID_REQUEST = "invalid-request";

// hicache-injector fail-open reasons (warnings/audit only)
// @ts-ignore: decorator
@lazy
export const REASON_AMBIGUOUS_BACKENDS = "ambiguous-backends";
// @ts-ignore: decorator
@lazy
export const REASON_INVALID_BACKEND = "invalid-backend";
// @ts-ignore: decorator
@lazy
export const REASON_ENGINE_CONTAINER_NOT_FOUND = "engine-container-not-found";
// @ts-ignore: decorator
@lazy
export const REASON_LMCACHE_ARGS_PRESENT = "lmcache-args-present";
// @ts-ignore: decorator
@lazy
export const REASON_ARG_CONFLICT = "arg-conflict";
// @ts-ignore: decorator
@lazy
export const REASON_ENV_CONFLICT = "env-conflict";
// @ts-ignore: decorator
@lazy
export const REASON_VOLUME_CONFLICT = "volume-conflict";
// @ts-ignore: decorator
@lazy
export const REASON_MOUNT_CONFLICT = "mount-conflict";

/** Every LMCache/CacheBlend skip-reason value, upstream first. */
export function lmcacheSkipReasons(): string[] {
  return [
    REASON_ENGINE_NOT_FOUND,
    REASON_TARGET_CONTAINER_NOT_FOUND,
    REASON_COMMAND_OVERRIDE,
    REASON_KV_TRANSFER_CONFIG_PRESENT,
    REASON_PAYLOAD_IMAGE_UNSET,
    REASON_PAYLOAD_IMAGE_INVALID,
    REASON_CONNECTION_CONFIG_MISSING,
    REASON_INVALID_CONNECTION_CONFIG,
    REASON_INVALID_ENGINE_REFERENCE,
    REASON_INVALID_IMAGE_PULL_SECRETS,
    REASON_ENGINE_INVALID,
    REASON_STAGING_CONFLICT,
    REASON_UNKNOWN_PD_ROLE,
    REASON_LOOKUP_DENIED,
    REASON_LOOKUP_FAILED,
    REASON_INVALID_REQUEST,
  ];
}

/** Every hicache-injector fail-open reason. */
export function hicacheFailOpenReasons(): string[] {
  return [
    REASON_INVALID_REQUEST,
    REASON_LOOKUP_DENIED,
    REASON_LOOKUP_FAILED,
    REASON_AMBIGUOUS_BACKENDS,
    REASON_INVALID_BACKEND,
    REASON_ENGINE_CONTAINER_NOT_FOUND,
    REASON_LMCACHE_ARGS_PRESENT,
    REASON_ARG_CONFLICT,
    REASON_ENV_CONFLICT,
    REASON_VOLUME_CONFLICT,
    REASON_MOUNT_CONFLICT,
  ];
}
