// The LMCache operator's engine fields that both the cacheengine-validator and the two LMCache
// injectors read (docs/policies/lmcache-injector.md#which-lmcache-operator): the enums and bounds
// are kept here once so the validator accepts exactly what the injectors wire.
import { shortenRendered } from "../validate/shorten";
import { goQuoteShort } from "../validate/quote";

/** The CRD's `gpuVendor` enum (the injectors take anything but `amd` as NVIDIA). */
export function gpuVendors(): string[] {
  return ["nvidia", "amd"];
}

/** The CRD's `pd.nixlLoadFailurePolicy` enum. */
export function nixlLoadFailurePolicies(): string[] {
  return ["fail", "ignore"];
}

/** `server.port` and `pd.nixlSideChannelPort`: an unprivileged port. */
export const UNPRIVILEGED_PORT_MIN: i64 = 1024;
export const PORT_MAX: i64 = 65535;

// @ts-ignore: decorator
@lazy
export const GPU_VENDOR_AMD = "amd";

/** The spec fields whose presence marks an engine of today's operator. Not `gpuVendor`: the first
 *  operator's CRDs default it too, so every E1 engine carries it. */
export function currentEngineFields(): string[] {
  return ["hostIPC", "isolatedIPC", "pd"];
}

/** The private or host `/dev/shm` volume the injectors add (upstream's name). */
// @ts-ignore: decorator
@lazy
export const DEV_SHM_VOLUME = "lmcache-dev-shm";
// @ts-ignore: decorator
@lazy
export const DEV_SHM_PATH = "/dev/shm";
/** `kv_connector_extra_config` key that today's operator sets to `true` in isolated mode. */
// @ts-ignore: decorator
@lazy
export const ISOLATED_IPC_CONNECTION_KEY = "lmcache.mp.isolated_ipc";

/** Success warning: in host shm mode the target's own `/dev/shm` hides the host's. */
export function devShmHiddenWarning(policy: string, container: string): string {
  return (
    policy +
    ': container "' +
    shortenRendered(container) +
    "\" mounts its own /dev/shm, hiding the host's; CUDA IPC may fail"
  );
}

// ---- prefill/decode disaggregation (docs/policies/lmcache-injector.md#pd-roles)
// @ts-ignore: decorator
@lazy
export const PD_ROLE_ANNOTATION = "lmcache.ai/pd-role";
// @ts-ignore: decorator
@lazy
export const PD_ROLE_PREFILLER = "prefiller";
// @ts-ignore: decorator
@lazy
export const PD_ROLE_DECODER = "decoder";
// @ts-ignore: decorator
@lazy
export const NIXL_HOST_ENV = "VLLM_NIXL_SIDE_CHANNEL_HOST";
// @ts-ignore: decorator
@lazy
export const NIXL_PORT_ENV = "VLLM_NIXL_SIDE_CHANNEL_PORT";
// @ts-ignore: decorator
@lazy
export const NIXL_DEFAULT_PORT = "5558";

/** The ConfigMap key of a role: `kv-transfer-config-<role>.json` ("" = the plain key). */
export function roleConnectionKey(role: string): string {
  return role.length == 0 ? "kv-transfer-config.json" : "kv-transfer-config-" + role + ".json";
}

export function detailUnknownPdRole(role: string): string {
  return "pd-role " + goQuoteShort(role) + ' is not "prefiller" or "decoder"';
}

/** Success warning: a role on a pod whose engine has no `spec.pd`. */
export function pdRoleIgnoredWarning(policy: string, role: string, ns: string, engine: string): string {
  return (
    policy +
    ': lmcache.ai/pd-role "' +
    shortenRendered(role) +
    '" ignored: engine ' +
    shortenRendered(ns) +
    "/" +
    shortenRendered(engine) +
    " has no spec.pd"
  );
}
