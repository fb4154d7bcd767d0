// The LMCache operator's engine fields that both the cacheengine-validator and the two LMCache
// injectors read (docs/policies/lmcache-injector.md#which-lmcache-operator): the enums and bounds
// are kept here once so the validator accepts exactly what the injectors wire.
import { shortenRendered } from "../validate/shorten";

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

/** The spec fields whose presence marks an engine of today's operator. */
export function currentEngineFields(): string[] {
  return ["hostIPC", "isolatedIPC", "gpuVendor", "pd"];
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
