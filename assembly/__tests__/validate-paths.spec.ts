import {
  MOUNT_PATH_ROOT_DETAIL,
  MOUNT_PATH_SYSTEM_DETAIL,
  PATH_NOT_CLEAN_DETAIL,
  PATH_REQUIRED_DETAIL,
  checkMountPath,
  checkNfsExportPath,
  isCleanAbsolutePath,
  isUnderProcSysDev,
} from "../validate/index";

function pathOk(v: string): void {
  expect(checkNfsExportPath(v).ok).toBe(true, v);
}
function pathNotClean(v: string): void {
  const r = checkNfsExportPath(v);
  expect(r.ok).toBe(false, v);
  expect(r.required).toBe(false, v);
  expect(r.detail).toBe(PATH_NOT_CLEAN_DETAIL, v);
}
function mountOk(v: string): void {
  expect(checkMountPath(v).ok).toBe(true, v);
}
function mountInvalid(v: string, detail: string): void {
  const r = checkMountPath(v);
  expect(r.ok).toBe(false, v);
  expect(r.required).toBe(false, v);
  expect(r.detail).toBe(detail, v);
}

describe("path vs mountPath", () => {
  it("/: path ok, mountPath root", () => {
    pathOk("/");
    mountInvalid("/", MOUNT_PATH_ROOT_DETAIL);
  });
  it("/hicache", () => {
    pathOk("/hicache");
    mountOk("/hicache");
  });
  it("/mnt/hicache", () => {
    pathOk("/mnt/hicache");
    mountOk("/mnt/hicache");
  });
  it("/hi cache", () => {
    pathOk("/hi cache");
    mountOk("/hi cache");
  });
  it("/dev (V2)", () => {
    pathOk("/dev");
    mountInvalid("/dev", MOUNT_PATH_SYSTEM_DETAIL);
  });
  it("/dev/shm (V2)", () => {
    pathOk("/dev/shm");
    mountInvalid("/dev/shm", MOUNT_PATH_SYSTEM_DETAIL);
  });
  it("/proc/x (V2)", () => {
    pathOk("/proc/x");
    mountInvalid("/proc/x", MOUNT_PATH_SYSTEM_DETAIL);
  });
  it("/sys/fs (V2)", () => {
    pathOk("/sys/fs");
    mountInvalid("/sys/fs", MOUNT_PATH_SYSTEM_DETAIL);
  });
  it("/proc and /sys (V2)", () => {
    mountInvalid("/proc", MOUNT_PATH_SYSTEM_DETAIL);
    mountInvalid("/sys", MOUNT_PATH_SYSTEM_DETAIL);
  });
  it("/devices", () => {
    pathOk("/devices");
    mountOk("/devices");
  });
  it("/system", () => {
    pathOk("/system");
    mountOk("/system");
  });
  it("/mnt/dev is not under /dev", () => {
    mountOk("/mnt/dev");
    mountOk("/processes");
  });
  it("not clean: both reject", () => {
    const bad = ["/hicache/", "//hicache", "/a//b", "/a/./b", "/a/../b", "/a/..", "/..", "/.", "//", "/a/.", "/./a"];
    for (let i = 0; i < bad.length; i++) {
      pathNotClean(bad[i]);
      mountInvalid(bad[i], PATH_NOT_CLEAN_DETAIL);
    }
  });
  it("relative: both reject", () => {
    const bad = ["hicache", "./hicache", "..", "."];
    for (let i = 0; i < bad.length; i++) {
      pathNotClean(bad[i]);
      mountInvalid(bad[i], PATH_NOT_CLEAN_DETAIL);
    }
  });
  it("surrounding whitespace: both reject", () => {
    const bad = [" /hicache", "/hicache ", "/hicache\n", "\u00a0/hicache"];
    for (let i = 0; i < bad.length; i++) {
      pathNotClean(bad[i]);
      mountInvalid(bad[i], PATH_NOT_CLEAN_DETAIL);
    }
  });
  it("blank: Required absolute path", () => {
    const vals = ["", "  "];
    for (let i = 0; i < vals.length; i++) {
      const p = checkNfsExportPath(vals[i]);
      expect(p.required).toBe(true);
      expect(p.detail).toBe(PATH_REQUIRED_DETAIL);
      const m = checkMountPath(vals[i]);
      expect(m.required).toBe(true);
      expect(m.detail).toBe(PATH_REQUIRED_DETAIL);
    }
  });
  it("dot-prefixed names are ordinary segments", () => {
    pathOk("/.hidden");
    pathOk("/a/..b");
    pathOk("/a/...");
  });
});

describe("clean absolute path helpers", () => {
  it("root allowed or not", () => {
    expect(isCleanAbsolutePath("/", true)).toBe(true);
    expect(isCleanAbsolutePath("/", false)).toBe(false);
    expect(isCleanAbsolutePath("/a", false)).toBe(true);
    expect(isCleanAbsolutePath("", true)).toBe(false);
  });
  it("segment-wise /proc,/sys,/dev", () => {
    expect(isUnderProcSysDev("/dev")).toBe(true);
    expect(isUnderProcSysDev("/dev/")).toBe(true);
    expect(isUnderProcSysDev("/proc/1")).toBe(true);
    expect(isUnderProcSysDev("/devices")).toBe(false);
    expect(isUnderProcSysDev("/sysfs")).toBe(false);
    expect(isUnderProcSysDev("/")).toBe(false);
  });
});
