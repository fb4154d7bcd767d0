// How a wired pod shares memory with its engine (docs/policies/lmcache-injector.md#ipc-modes):
// host IPC (the first operator's `hostIPC: true`), a private in-memory `/dev/shm` (today's NVIDIA
// default, admitted by Pod Security `baseline`) or the host's `/dev/shm` through a hostPath. The
// mode comes from the engine's generation fields, the connection config, or the `ipcMode` setting;
// the pod-side guards follow upstream's `applyIPCSharing`. Nothing here edits the pod.
import { JsonKind, JsonValue, parseJsonString } from "../json/index";
import { i32ToDecimal } from "../util/decimal";
import { checkNamedObjectArray, nameRef, Plan, volumeMount } from "../k8s/index";
import { DEV_SHM_PATH, DEV_SHM_VOLUME, ISOLATED_IPC_CONNECTION_KEY } from "../keys/index";
import { EngineGeneration, Tristate } from "./generation";

export enum IpcMode {
  HostIPC = 0,
  PrivateShm = 1,
  HostShm = 2,
  /** no IPC wiring at all (a CacheBlend decoder pod) */
  None = 3,
}

// @ts-ignore: decorator
@lazy
export const SETTING_IPC_MODE = "ipcMode";

/** The `ipcMode` values in the order of the settings message; cacheblend-injector has no `isolated`. */
export function ipcModeValues(cacheBlend: bool): string[] {
  return cacheBlend ? ["auto", "hostIPC", "hostShm"] : ["auto", "isolated", "hostIPC", "hostShm"];
}

/** The mode the `ipcMode` setting forces, or -1 for `auto`/absent (validated settings). */
export function forcedIpcMode(settings: JsonValue): i32 {
  if (settings.stringEquals(SETTING_IPC_MODE, "isolated")) return IpcMode.PrivateShm;
  if (settings.stringEquals(SETTING_IPC_MODE, "hostIPC")) return IpcMode.HostIPC;
  if (settings.stringEquals(SETTING_IPC_MODE, "hostShm")) return IpcMode.HostShm;
  return -1;
}

/** `kv_connector_extra_config["lmcache.mp.isolated_ipc"]` is JSON `true` (already checked to be an object). */
export function connectionSaysIsolated(kvText: string): bool {
  const parsed = parseJsonString(kvText).value;
  if (parsed === null) return false;
  const extra = parsed.getPresent("kv_connector_extra_config");
  return extra !== null && extra.isObject() && extra.memberIsBool(ISOLATED_IPC_CONNECTION_KEY, true);
}

/** The mode table: `cacheBlend` engines have no isolated mode; a legacy LMCache engine (or none)
 *  follows its connection config; a legacy CacheBlendEngine keeps host IPC. */
export function decideIpcMode(
  settings: JsonValue,
  generation: EngineGeneration,
  kvText: string,
  cacheBlend: bool,
): IpcMode {
  const forced = forcedIpcMode(settings);
  if (forced >= 0) return <IpcMode>forced;
  let isolated = false;
  let hostIPC = true;
  if (generation.current) {
    hostIPC = generation.hostIPC == Tristate.True;
    if (!cacheBlend)
      isolated = generation.isolatedIPC == Tristate.Unset ? !generation.amd : generation.isolatedIPC == Tristate.True;
  } else if (!cacheBlend) {
    isolated = connectionSaysIsolated(kvText);
    hostIPC = !isolated;
  }
  if (isolated) return IpcMode.PrivateShm;
  return hostIPC ? IpcMode.HostIPC : IpcMode.HostShm;
}

/** What the commit writes for the mode, decided on the pod as it arrived. */
export class IpcPlan {
  mode: IpcMode = IpcMode.HostIPC;
  /** append the `lmcache-dev-shm` volume and its mount */
  addVolume: bool = false;
  /** host shm with the target's own `/dev/shm` that is not the host's: warn */
  hiddenHostShm: bool = false;
}

function isDevShm(path: string): bool {
  return path == DEV_SHM_PATH || path == DEV_SHM_PATH + "/";
}

/** The volume named `name` is a hostPath of `/dev/shm`. */
function isHostDevShm(volumes: JsonValue | null, name: string): bool {
  if (volumes === null) return false;
  for (let i = 0; i < volumes.size(); i++) {
    const v = volumes.at(i);
    if (v === null || !v.stringEquals("name", name)) continue;
    const hostPath = v.getPresent("hostPath");
    return hostPath !== null && hostPath.isObject() && hostPath.stringEquals("path", DEV_SHM_PATH);
  }
  return false;
}

/**
 * Fills `out` for the pod; returns an invalid-request detail ("" when the fields read have their
 * types). Host IPC mode reads nothing, so legacy engines see exactly the first operator's checks.
 */
export function planIpc(
  pod: JsonValue,
  container: JsonValue,
  containerPath: string,
  mode: IpcMode,
  out: IpcPlan,
): string {
  out.mode = mode;
  if (mode == IpcMode.HostIPC || mode == IpcMode.None) return "";
  const spec = pod.getPresent("spec");
  if (spec === null || !spec.isObject()) return "spec is not an object";
  if (spec.getPresent("hostIPC") !== null) {
    if (spec.memberKind("hostIPC") != JsonKind.Bool) return "spec.hostIPC is not a boolean";
    if (spec.memberIsBool("hostIPC", true)) return "";
  }
  const volumesShape = checkNamedObjectArray(spec, "volumes", "spec");
  if (volumesShape.length > 0) return volumesShape;
  const volumes = spec.getPresent("volumes");
  const mounts = container.getPresent("volumeMounts");
  let ownShm = false;
  if (mounts !== null) {
    // checkContainerFields has made it a list of named objects
    for (let i = 0; i < mounts.size(); i++) {
      const m = mounts.at(i);
      if (m === null) continue;
      const path = m.stringOrNull("mountPath");
      if (path === null) return containerPath + ".volumeMounts[" + i32ToDecimal(i) + "].mountPath is not a string";
      if (!isDevShm(path)) continue;
      ownShm = true;
      const name = m.stringOrNull("name");
      if (mode == IpcMode.HostShm && name !== null && !isHostDevShm(volumes, name)) out.hiddenHostShm = true;
    }
  }
  let namedShm = false;
  if (volumes !== null)
    for (let i = 0; i < volumes.size(); i++) {
      const v = volumes.at(i);
      if (v !== null && v.stringEquals("name", DEV_SHM_VOLUME)) namedShm = true;
    }
  out.addVolume = !ownShm && !namedShm;
  return "";
}

/** The volume of a shm mode: `emptyDir {medium: Memory}` (private) or `hostPath /dev/shm` (host). */
export function devShmVolume(mode: IpcMode): JsonValue {
  const o = nameRef(DEV_SHM_VOLUME);
  const source = JsonValue.object();
  if (mode == IpcMode.PrivateShm) {
    // no sizeLimit: the pod's memory limit bounds it
    source.set("medium", JsonValue.str("Memory"));
    o.set("emptyDir", source);
  } else {
    source.set("path", JsonValue.str(DEV_SHM_PATH));
    source.set("type", JsonValue.str("Directory"));
    o.set("hostPath", source);
  }
  return o;
}

/** The IPC edits, before any staging edit. */
export function addIpcEdits(plan: Plan, target: i32, ipc: IpcPlan): void {
  if (ipc.mode == IpcMode.HostIPC) {
    plan.setHostIPC();
    return;
  }
  if (ipc.mode == IpcMode.None) return;
  if (!ipc.addVolume) return;
  plan.appendToPodList("volumes", devShmVolume(ipc.mode));
  plan.appendToContainerList(target, "volumeMounts", volumeMount(DEV_SHM_VOLUME, DEV_SHM_PATH, false));
}
