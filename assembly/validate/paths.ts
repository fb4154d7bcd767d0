// Absolute-path rules for NFS export paths and mount paths (docs/shared-rules.md#nfs-paths).
import { trimGoSpace } from "./chars";
import { ValueCheck } from "./check";

/** Go `path.Clean(v) == v` for a path starting with `/`: no empty, `.` or `..` segment and no
 *  trailing `/`, except the root `/` itself (allowed only when `allowRoot`). */
export function isCleanAbsolutePath(v: string, allowRoot: bool = true): bool {
  const len = v.length;
  if (len == 0 || v.charCodeAt(0) != 0x2f) return false;
  if (len == 1) return allowRoot;
  let segStart = 1;
  for (let i = 1; i <= len; i++) {
    if (i == len || v.charCodeAt(i) == 0x2f) {
      const segLen = i - segStart;
      if (segLen == 0) return false; // `//` or trailing `/`
      if (segLen == 1 && v.charCodeAt(segStart) == 0x2e) return false;
      if (segLen == 2 && v.charCodeAt(segStart) == 0x2e && v.charCodeAt(segStart + 1) == 0x2e) return false;
      segStart = i + 1;
    }
  }
  return true;
}

/** True when `v` equals `prefix` or continues it with `/` (segment-wise prefix). */
function isAtOrBelow(v: string, prefix: string): bool {
  if (!v.startsWith(prefix)) return false;
  return v.length == prefix.length || v.charCodeAt(prefix.length) == 0x2f;
}

/** V2: `/proc`, `/sys`, `/dev` or any path below them (`/dev/shm`, not `/devices`). */
export function isUnderProcSysDev(v: string): bool {
  return isAtOrBelow(v, "/proc") || isAtOrBelow(v, "/sys") || isAtOrBelow(v, "/dev");
}

// @ts-ignore: decorator
@lazy
export const PATH_REQUIRED_DETAIL = "absolute path is required";
// @ts-ignore: decorator
@lazy
export const PATH_NOT_CLEAN_DETAIL = "must be a clean absolute path without surrounding whitespace";
// @ts-ignore: decorator
@lazy
export const MOUNT_PATH_ROOT_DETAIL = "must not mount remote storage over the container root";
// @ts-ignore: decorator
@lazy
export const MOUNT_PATH_SYSTEM_DETAIL = "must not mount remote storage over /proc, /sys or /dev";

/** Rules 1–2, shared by `nfs.path` and `nfs.mountPath`. */
function checkCleanAbsolute(v: string): ValueCheck {
  const trimmed = trimGoSpace(v);
  if (trimmed.length == 0) return ValueCheck.requiredValue(PATH_REQUIRED_DETAIL);
  if (trimmed != v || !isCleanAbsolutePath(v, true)) return ValueCheck.invalid(PATH_NOT_CLEAN_DETAIL);
  return ValueCheck.pass();
}

/** `spec.remoteStorage.nfs.path`: clean absolute path, root allowed. */
export function checkNfsExportPath(v: string): ValueCheck {
  return checkCleanAbsolute(v);
}

/** `spec.remoteStorage.nfs.mountPath`: clean absolute, not `/`, not under /proc, /sys, /dev (V2). */
export function checkMountPath(v: string): ValueCheck {
  const base = checkCleanAbsolute(v);
  if (!base.ok) return base;
  if (v == "/") return ValueCheck.invalid(MOUNT_PATH_ROOT_DETAIL);
  if (isUnderProcSysDev(v)) return ValueCheck.invalid(MOUNT_PATH_SYSTEM_DETAIL);
  return ValueCheck.pass();
}
