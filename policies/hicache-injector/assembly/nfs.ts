// The NFS wiring plan (docs/policies/hicache-injector.md#nfs-wiring): the planned env, volume and
// mount, and for each the existing entries it must equal. Only decides; the caller turns the
// `append*` answers into edits.
import { JsonValue } from "../../../assembly/json/index";
import { envVar } from "../../../assembly/k8s/index";
import {
  HICACHE_L3_VOLUME,
  HICACHE_STORAGE_DIR_ENV,
  REASON_ENV_CONFLICT,
  REASON_MOUNT_CONFLICT,
  REASON_VOLUME_CONFLICT,
} from "../../../assembly/keys/index";
import { isListedWord } from "../../../assembly/util/text";
import { shortenRendered } from "../../../assembly/validate/index";
import { INJECT } from "./args";
import { HiCacheBackend } from "./backend";

export function plannedEnv(b: HiCacheBackend): JsonValue {
  return envVar(HICACHE_STORAGE_DIR_ENV, b.mountPath);
}

export function plannedMount(b: HiCacheBackend): JsonValue {
  const o = JsonValue.object();
  o.set("name", JsonValue.str(HICACHE_L3_VOLUME));
  o.set("mountPath", JsonValue.str(b.mountPath));
  return o;
}

export function plannedVolume(b: HiCacheBackend): JsonValue {
  const nfs = JsonValue.object();
  nfs.set("server", JsonValue.str(b.server));
  nfs.set("path", JsonValue.str(b.path));
  const o = JsonValue.object();
  o.set("name", JsonValue.str(HICACHE_L3_VOLUME));
  o.set("nfs", nfs);
  return o;
}

/** What the NFS plan decided: a conflict (reason + detail), or which of the three to append. */
export class NfsPlan {
  reason: string = "";
  detail: string = "";
  appendEnv: bool = false;
  appendVolume: bool = false;
  appendMount: bool = false;
  get ok(): bool {
    return this.reason.length == 0;
  }
  fail(reason: string, detail: string): NfsPlan {
    this.reason = reason;
    this.detail = INJECT + detail;
    return this;
  }
}

/** absent, null, or false */
function falsy(entry: JsonValue, key: string): bool {
  const v = entry.getPresent(key);
  return v === null || (v.isBool() && !v.asBool().value);
}

/** absent, null, or "" */
function emptyString(entry: JsonValue, key: string): bool {
  const v = entry.getPresent(key);
  return v === null || (v.isString() && v.stringValue() == "");
}

function stringIs(entry: JsonValue, key: string, want: string): bool {
  return entry.stringEquals(key, want);
}

/** Existing env entry equal to the planned one: value == mountPath, no valueFrom. */
export function envMatches(entry: JsonValue, b: HiCacheBackend): bool {
  return stringIs(entry, "value", b.mountPath) && entry.getPresent("valueFrom") === null;
}

/** Existing volume equal to the planned one: only source nfs with that server and path, and
 *  readOnly absent or false. */
export function volumeMatches(volume: JsonValue, b: HiCacheBackend): bool {
  const nfs = volume.getPresent("nfs");
  if (nfs === null || !nfs.isObject()) return false;
  if (!stringIs(nfs, "server", b.server) || !stringIs(nfs, "path", b.path) || !falsy(nfs, "readOnly")) return false;
  // a second non-null volume source makes it another volume; unknown members are ignored as the
  // Go types ignore them
  for (let i = 0; i < volume.size(); i++) {
    const key = volume.keyAt(i);
    if (key == "name" || key == "nfs") continue;
    const v = volume.at(i);
    if (v !== null && !v.isNull() && isVolumeSource(key)) return false;
  }
  return true;
}

/** The volume-source members of a core/v1 Volume. */
function isVolumeSource(key: string): bool {
  return isListedWord(
    ",hostPath,emptyDir,gcePersistentDisk,awsElasticBlockStore,gitRepo,secret,iscsi,glusterfs,persistentVolumeClaim,rbd,flexVolume,cinder,cephfs,flocker,downwardAPI,fc,azureFile,configMap,vsphereVolume,quobyte,azureDisk,photonPersistentDisk,projected,portworxVolume,scaleIO,storageos,csi,ephemeral,image,",
    key,
  );
}

/** Existing mount equal to the planned one. */
export function mountMatches(mount: JsonValue, b: HiCacheBackend): bool {
  return (
    stringIs(mount, "name", HICACHE_L3_VOLUME) &&
    stringIs(mount, "mountPath", b.mountPath) &&
    falsy(mount, "readOnly") &&
    emptyString(mount, "subPath") &&
    emptyString(mount, "subPathExpr") &&
    mount.getPresent("mountPropagation") === null &&
    mount.getPresent("recursiveReadOnly") === null
  );
}

function listOf(parent: JsonValue | null, key: string): JsonValue | null {
  if (parent === null) return null;
  const v = parent.getPresent(key);
  return v !== null && v.isArray() ? v : null;
}

/** Plans env, volume and mount for an NFS backend against the engine container and the pod spec
 *  (types already checked: lists are arrays of named objects). */
export function planNfs(container: JsonValue, spec: JsonValue | null, b: HiCacheBackend): NfsPlan {
  const plan = new NfsPlan();
  // env
  const env = listOf(container, "env");
  let envCount = 0;
  let envEqual = true;
  if (env !== null) {
    // the entries of that name found by a walk over the records: no node per entry
    for (
      let i = env.indexOfItemWithString("name", HICACHE_STORAGE_DIR_ENV);
      i >= 0;
      i = env.indexOfItemWithString("name", HICACHE_STORAGE_DIR_ENV, i + 1)
    ) {
      const e = env.at(i);
      if (e === null) continue;
      envCount++;
      if (!envMatches(e, b)) envEqual = false;
    }
  }
  if (envCount > 1) return plan.fail(REASON_ENV_CONFLICT, "env " + HICACHE_STORAGE_DIR_ENV + " is duplicated");
  if (envCount == 1 && !envEqual)
    return plan.fail(
      REASON_ENV_CONFLICT,
      "existing env " + HICACHE_STORAGE_DIR_ENV + " conflicts with remoteStorage.nfs.mountPath",
    );
  plan.appendEnv = envCount == 0;
  // volume
  const volumes = listOf(spec, "volumes");
  let volumeCount = 0;
  let volumeEqual = true;
  if (volumes !== null) {
    for (
      let i = volumes.indexOfItemWithString("name", HICACHE_L3_VOLUME);
      i >= 0;
      i = volumes.indexOfItemWithString("name", HICACHE_L3_VOLUME, i + 1)
    ) {
      const v = volumes.at(i);
      if (v === null) continue;
      volumeCount++;
      if (!volumeMatches(v, b)) volumeEqual = false;
    }
  }
  // the messages are built only when reported (issue 8: a text is expanded on first use)
  if (volumeCount > 1) return plan.fail(REASON_VOLUME_CONFLICT, 'volume "' + HICACHE_L3_VOLUME + '" is duplicated');
  if (volumeCount == 1 && !volumeEqual)
    return plan.fail(REASON_VOLUME_CONFLICT, 'volume "' + HICACHE_L3_VOLUME + '" conflicts with remoteStorage.nfs');
  plan.appendVolume = volumeCount == 0;
  // mount: by name or by path
  const mounts = listOf(container, "volumeMounts");
  let mountCount = 0;
  let mountEqual = true;
  if (mounts !== null) {
    // the mounts of that name and those of that path, each found by a record walk (a node only for
    // a match), taken in index order so a mount that is both counts once
    let byName = mounts.indexOfItemWithString("name", HICACHE_L3_VOLUME);
    let byPath = mounts.indexOfItemWithString("mountPath", b.mountPath);
    while (byName >= 0 || byPath >= 0) {
      const i = byName < 0 ? byPath : byPath < 0 ? byName : min(byName, byPath);
      const m = mounts.at(i);
      if (m !== null) {
        mountCount++;
        if (!mountMatches(m, b)) mountEqual = false;
      }
      if (byName == i) byName = mounts.indexOfItemWithString("name", HICACHE_L3_VOLUME, i + 1);
      if (byPath == i) byPath = mounts.indexOfItemWithString("mountPath", b.mountPath, i + 1);
    }
  }
  if (mountCount > 1) return plan.fail(REASON_MOUNT_CONFLICT, 'volume mount "' + HICACHE_L3_VOLUME + '" is duplicated');
  if (mountCount == 1 && !mountEqual)
    return plan.fail(
      REASON_MOUNT_CONFLICT,
      'volume mount name "' +
        HICACHE_L3_VOLUME +
        '" or path "' +
        shortenRendered(b.mountPath) +
        '" conflicts with remoteStorage.nfs',
    );
  plan.appendMount = mountCount == 0;
  return plan;
}
