// The boundary checks (docs/policies/hicache-injector.md#step-9), each bound on both sides, and the
// order in which the first failure wins.
import { parseJsonString } from "../../../../assembly/json/index";
import { backendProblem, readHiCacheBackend } from "../backend";

const SEL = '"engineSelector":{"matchLabels":{"app":"sglang"}}';
const NFS_BINDING = '"remoteStorage":{"provider":"NFS","ownership":"External","nfs":';

function problem(spec: string): string {
  return backendProblem(readHiCacheBackend(parseJsonString(spec).value));
}
function hostOnly(hiCache: string, extra: string = ""): string {
  return '{"runtime":"SGLang","type":"SGLangHiCache",' + SEL + extra + ',"hiCache":' + hiCache + "}";
}
function nfs(
  server: string,
  path: string,
  mountPath: string,
  hiCache: string = '{"ratio":"2","storagePrefetchPolicy":"timeout"}',
): string {
  return (
    '{"runtime":"SGLang","type":"SGLangHiCache",' +
    SEL +
    ',"integration":{"failOpen":false},' +
    NFS_BINDING +
    '{"server":"' +
    server +
    '","path":"' +
    path +
    '","mountPath":"' +
    mountPath +
    '"}},"hiCache":' +
    hiCache +
    "}"
  );
}
const R = "resolve SGLang HiCache config: ";
const NFS_BAD = "invalid inline NFS binding: ";

describe("runtime (9.1)", () => {
  it("SGLang in any ASCII case, from runtime or integration.engine", () => {
    expect(problem(hostOnly('{"ratio":"2"}'))).toBe("");
    expect(problem('{"runtime":"sGlAnG","type":"SGLangHiCache",' + SEL + ',"hiCache":{"ratio":"2"}}')).toBe("");
    expect(
      problem('{"type":"SGLangHiCache","integration":{"engine":"SGLANG"},' + SEL + ',"hiCache":{"ratio":"2"}}'),
    ).toBe("");
  });
  it("anything else, and the VLLM default, is not ours", () => {
    expect(problem('{"type":"SGLangHiCache",' + SEL + ',"hiCache":{"ratio":"2"}}')).toBe(
      'no adapter for runtime="vllm" backend="SGLangHiCache"',
    );
    expect(problem('{"runtime":"SGLang2","type":"SGLangHiCache",' + SEL + ',"hiCache":{"ratio":"2"}}')).toBe(
      'no adapter for runtime="sglang2" backend="SGLangHiCache"',
    );
    // runtime wins over integration.engine
    expect(
      problem(
        '{"runtime":"VLLM","integration":{"engine":"sglang"},"type":"SGLangHiCache",' +
          SEL +
          ',"hiCache":{"ratio":"2"}}',
      ),
    ).toBe('no adapter for runtime="vllm" backend="SGLangHiCache"');
  });
});

describe("remote storage (9.2–9.4)", () => {
  it("NFS External with a valid binding passes; Managed NFS is unsupported", () => {
    expect(problem(nfs("192.0.2.10", "/hicache", "/mnt/hicache"))).toBe("");
    expect(
      problem(
        '{"runtime":"SGLang",' +
          SEL +
          ',"remoteStorage":{"provider":"NFS","ownership":"Managed"},"hiCache":{"ratio":"2"}}',
      ),
    ).toBe(
      'unsupported remote-storage provider="NFS" ownership="Managed": no remote-storage provider supports the declaration: provider="NFS" ownership="Managed"',
    );
  });
  it("network providers are supported pairs but not HiCache bindings", () => {
    expect(
      problem(
        '{"runtime":"SGLang",' +
          SEL +
          ',"remoteStorage":{"provider":"Mooncake","ownership":"External"},"hiCache":{"ratio":"2"}}',
      ),
    ).toBe('runtime adapter does not accept remote binding protocol "mooncakestore"');
    expect(
      problem(
        '{"runtime":"SGLang",' +
          SEL +
          ',"remoteStorage":{"provider":"LMCacheServer","ownership":"Managed"},"hiCache":{"ratio":"2"}}',
      ),
    ).toBe('runtime adapter does not accept remote binding protocol "lm"');
  });
  it("NFS server: IP and hostname pass; all-numeric non-IP, unspecified, blank and padded fail", () => {
    expect(problem(nfs("nfs.example.com", "/", "/mnt/x"))).toBe("");
    expect(problem(nfs("2001:db8::1", "/hicache", "/mnt/x"))).toBe("");
    expect(problem(nfs("1.2.3.256", "/hicache", "/mnt/x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.server: NFS server must be a valid IPv4 address, IPv6 address, or DNS-1123 hostname",
    );
    expect(problem(nfs("0.0.0.0", "/hicache", "/mnt/x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.server: NFS server must not be the unspecified address",
    );
    expect(problem(nfs("", "/hicache", "/mnt/x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.server: NFS server must not be empty",
    );
    expect(problem(nfs(" nfs", "/hicache", "/mnt/x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.server: NFS server must not contain surrounding whitespace",
    );
  });
  it("paths: clean absolute; the mount path not / and not under /proc, /sys, /dev", () => {
    expect(problem(nfs("s1", "/a/", "/mnt/x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.path must be a clean absolute path without surrounding whitespace",
    );
    expect(problem(nfs("s1", "/a", "/mnt/../x"))).toBe(
      NFS_BAD + "remoteStorage.nfs.mountPath must be a clean absolute path without surrounding whitespace",
    );
    expect(problem(nfs("s1", "/a", "/"))).toBe(
      NFS_BAD + "remoteStorage.nfs.mountPath must not mount remote storage over the container root",
    );
    expect(problem(nfs("s1", "/a", "/dev"))).toBe(
      NFS_BAD + "remoteStorage.nfs.mountPath must not mount remote storage over /proc, /sys or /dev",
    );
    expect(problem(nfs("s1", "/a", "/devices"))).toBe("");
    expect(problem(nfs("s1", "/a", "/sysroot/x"))).toBe("");
  });
  it("an NFS endpoint is refused; an absent nfs block too", () => {
    expect(
      problem(
        '{"runtime":"SGLang",' +
          SEL +
          ',"integration":{"failOpen":false},"remoteStorage":{"provider":"NFS","ownership":"External","endpoint":" x "},"hiCache":{"ratio":"2","storagePrefetchPolicy":"timeout"}}',
      ),
    ).toBe(NFS_BAD + "remoteStorage.endpoint must be empty for an inline NFS binding");
    expect(
      problem(
        '{"runtime":"SGLang",' +
          SEL +
          ',"integration":{"failOpen":false},"remoteStorage":{"provider":"NFS","ownership":"External","endpoint":" "},"hiCache":{"ratio":"2","storagePrefetchPolicy":"timeout"}}',
      ),
    ).toBe(NFS_BAD + "remoteStorage.nfs is required for an inline NFS binding");
  });
});

function o(body: string): string {
  return problem(hostOnly('{"ratio":"2"}', ',"integration":{"engineOverrides":' + body + "}"));
}

describe("integration (9.5–9.16)", () => {
  it("mode and role", () => {
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"mode":"","role":""}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"mode":"Offload","role":"ReadWrite"}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"mode":"EventsOnly"}'))).toBe(
      R + "integration.mode must be Offload",
    );
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"role":"ReadOnly"}'))).toBe(
      R + "integration.role must be ReadWrite",
    );
  });
  it("failOpen: true (or absent) host-only, false with NFS; null counts as absent", () => {
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"failOpen":null}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"failOpen":false}'))).toBe(
      R + "integration.failOpen must be true",
    );
    expect(problem(hostOnly('{"ratio":"2"}', ',"integration":{"failOpen":"true"}'))).toBe(
      "spec.integration.failOpen must be a boolean",
    );
  });
  it("a string field of another type is the first error; null reads as absent (strings read in place)", () => {
    expect(problem(hostOnly('{"ratio":2}'))).toBe("spec.hiCache.ratio must be a string");
    expect(problem(hostOnly('{"ratio":"2","writePolicy":["write_back"]}'))).toBe(
      "spec.hiCache.writePolicy must be a string",
    );
    expect(problem(hostOnly('{"ratio":"2","writePolicy":null}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"\\ud800"}'))).toBe("spec.hiCache.ratio must be a string");
  });
  it("autoscaling, blank endpoint, selector, backendConfig", () => {
    expect(problem(hostOnly('{"ratio":"2"}', ',"autoscaling":{"maxReplicas":2}'))).toBe(
      R + "autoscaling is unsupported for an engine-local backend",
    );
    expect(problem(hostOnly('{"ratio":"2"}', ',"endpoint":" \\t"'))).toBe("");
    expect(problem(hostOnly('{"ratio":"2"}', ',"endpoint":"redis:6379"'))).toBe(
      R + "spec.endpoint is unsupported for an engine-local backend",
    );
    expect(problem('{"runtime":"SGLang","hiCache":{"ratio":"2"}}')).toBe(
      R + "spec.engineSelector.matchLabels is required",
    );
    expect(problem(hostOnly('{"ratio":"2"}', ',"backendConfig":{"model":"m"}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"2"}', ',"backendConfig":{"model":"m","url":"x"}'))).toBe(
      R + 'backendConfig key "url" is unsupported; only model is allowed',
    );
  });
  it("reserved overrides: leading flag token of - entries only", () => {
    expect(o('{"args":["--hicache-ratio-extra","--page-size=4","hicache-ratio"]}')).toBe("");
    expect(o('{"args":["--enable-hierarchical-cache"]}')).toBe(
      R + 'engine override for reserved argument "--enable-hierarchical-cache" is unsupported',
    );
    expect(o('{"args":["--hicache-size=3"]}')).toBe(
      R + 'engine override for reserved argument "--hicache-size" is unsupported',
    );
    expect(o('{"suppressArgs":["--hicache-mem-layout"]}')).toBe(
      R + 'suppression of reserved argument "--hicache-mem-layout" is unsupported',
    );
    expect(o('{"suppressArgs":["--hicache-size=3"]}')).toBe("");
    expect(o('{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/x"}]}')).toBe(
      R + 'engine override for reserved environment variable "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR" is unsupported',
    );
    expect(o('{"suppressEnv":["SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR"]}')).toBe(
      R + 'suppression of reserved environment variable "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR" is unsupported',
    );
    expect(o('{"env":[{"name":"FOO"}],"suppressEnv":["PYTHONHASHSEED"]}')).toBe("");
  });
});

describe("hiCache (9.17–9.26)", () => {
  it('required; exactly one of sizeGB and ratio (ratio "" is unset)', () => {
    expect(problem('{"runtime":"SGLang",' + SEL + "}")).toBe(R + "spec.hiCache is required");
    expect(problem(hostOnly("{}"))).toBe(R + "exactly one of spec.hiCache.sizeGB and ratio must be set");
    expect(problem(hostOnly('{"ratio":""}'))).toBe(R + "exactly one of spec.hiCache.sizeGB and ratio must be set");
    expect(problem(hostOnly('{"ratio":"","sizeGB":1}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"1","sizeGB":1}'))).toBe(
      R + "exactly one of spec.hiCache.sizeGB and ratio must be set",
    );
  });
  it("sizeGB at least 1, an integer", () => {
    expect(problem(hostOnly('{"sizeGB":1}'))).toBe("");
    expect(problem(hostOnly('{"sizeGB":0}'))).toBe(R + "sizeGB must be at least 1");
    expect(problem(hostOnly('{"sizeGB":-1}'))).toBe(R + "sizeGB must be at least 1");
    expect(problem(hostOnly('{"sizeGB":1.5}'))).toBe("spec.hiCache.sizeGB must be an integer");
  });
  it("ratio a finite Go float above zero", () => {
    expect(problem(hostOnly('{"ratio":"5e-324"}'))).toBe("");
    expect(problem(hostOnly('{"ratio":"0x1p1"}'))).toBe("");
    const bad = R + "ratio must be a finite number greater than zero";
    expect(problem(hostOnly('{"ratio":"0"}'))).toBe(bad);
    expect(problem(hostOnly('{"ratio":"-1"}'))).toBe(bad);
    expect(problem(hostOnly('{"ratio":"NaN"}'))).toBe(bad);
    expect(problem(hostOnly('{"ratio":"+Inf"}'))).toBe(bad);
    expect(problem(hostOnly('{"ratio":"1e400"}'))).toBe(bad);
    expect(problem(hostOnly('{"ratio":" 2"}'))).toBe(bad);
  });
  it("enums", () => {
    expect(
      problem(
        hostOnly(
          '{"ratio":"2","writePolicy":"write_through_selective","ioBackend":"kernel_ascend","memoryLayout":"page_head"}',
        ),
      ),
    ).toBe("");
    expect(problem(hostOnly('{"ratio":"2","writePolicy":"Write_back"}'))).toBe(
      R + 'unsupported writePolicy "Write_back"',
    );
    expect(problem(hostOnly('{"ratio":"2","ioBackend":"io_uring"}'))).toBe(R + 'unsupported ioBackend "io_uring"');
    expect(problem(hostOnly('{"ratio":"2","memoryLayout":"page"}'))).toBe(R + 'unsupported memoryLayout "page"');
    expect(problem(hostOnly('{"ratio":"2","storagePrefetchPolicy":"eager"}'))).toBe(
      R + 'unsupported storagePrefetchPolicy "eager"',
    );
  });
  it("prefetch policy: required with NFS, refused without", () => {
    expect(problem(nfs("s1", "/a", "/mnt/x", '{"ratio":"2"}'))).toBe(
      R + "storagePrefetchPolicy is required with remoteStorage.provider=NFS",
    );
    expect(problem(hostOnly('{"ratio":"2","storagePrefetchPolicy":"best_effort"}'))).toBe(
      R + "storagePrefetchPolicy requires remoteStorage.provider=NFS",
    );
  });
  it("the first failure wins: runtime before hiCache", () => {
    expect(problem('{"runtime":"VLLM",' + SEL + ',"hiCache":{"ratio":"0"}}')).toBe(
      'no adapter for runtime="vllm" backend="SGLangHiCache"',
    );
  });
});

// Every field the reader reads, one of the wrong type each: the path in the message is the
// field's full path (built only for the message: the reader is handed the object's place).
function typeError(spec: string): string {
  return readHiCacheBackend(parseJsonString(spec).value).typeError;
}
describe("wrong-type messages name the field's full path", () => {
  it("spec and its objects", () => {
    expect(typeError('{"runtime":1}')).toBe("spec.runtime must be a string");
    expect(typeError('{"integration":[]}')).toBe("spec.integration must be an object");
    expect(typeError('{"remoteStorage":"NFS"}')).toBe("spec.remoteStorage must be an object");
    expect(typeError('{"endpoint":true}')).toBe("spec.endpoint must be a string");
    expect(typeError('{"engineSelector":1}')).toBe("spec.engineSelector must be an object");
    expect(typeError('{"backendConfig":[]}')).toBe("spec.backendConfig must be an object");
    expect(typeError('{"hiCache":"2"}')).toBe("spec.hiCache must be an object");
  });
  it("spec.integration", () => {
    expect(typeError('{"integration":{"engine":1}}')).toBe("spec.integration.engine must be a string");
    expect(typeError('{"integration":{"mode":{}}}')).toBe("spec.integration.mode must be a string");
    expect(typeError('{"integration":{"role":[]}}')).toBe("spec.integration.role must be a string");
    expect(typeError('{"integration":{"failOpen":"no"}}')).toBe("spec.integration.failOpen must be a boolean");
    expect(typeError('{"integration":{"engineOverrides":[]}}')).toBe(
      "spec.integration.engineOverrides must be an object",
    );
  });
  it("spec.integration.engineOverrides", () => {
    const ov = (body: string): string => '{"integration":{"engineOverrides":' + body + "}}";
    expect(typeError(ov('{"args":"--x"}'))).toBe("spec.integration.engineOverrides.args must be a list of strings");
    expect(typeError(ov('{"args":[1]}'))).toBe("spec.integration.engineOverrides.args must be a list of strings");
    expect(typeError(ov('{"suppressArgs":{}}'))).toBe(
      "spec.integration.engineOverrides.suppressArgs must be a list of strings",
    );
    expect(typeError(ov('{"suppressEnv":[null]}'))).toBe(
      "spec.integration.engineOverrides.suppressEnv must be a list of strings",
    );
    expect(typeError(ov('{"env":{}}'))).toBe("spec.integration.engineOverrides.env must be a list");
    expect(typeError(ov('{"env":[{"value":"x"}]}'))).toBe(
      "spec.integration.engineOverrides.env items must be objects with a string name",
    );
  });
  it("spec.remoteStorage and its nfs", () => {
    expect(typeError('{"remoteStorage":{"provider":1}}')).toBe("spec.remoteStorage.provider must be a string");
    expect(typeError('{"remoteStorage":{"ownership":1}}')).toBe("spec.remoteStorage.ownership must be a string");
    expect(typeError('{"remoteStorage":{"endpoint":1}}')).toBe("spec.remoteStorage.endpoint must be a string");
    expect(typeError('{"remoteStorage":{"nfs":1}}')).toBe("spec.remoteStorage.nfs must be an object");
    expect(typeError('{"remoteStorage":{"nfs":{"server":1}}}')).toBe("spec.remoteStorage.nfs.server must be a string");
    expect(typeError('{"remoteStorage":{"nfs":{"path":1}}}')).toBe("spec.remoteStorage.nfs.path must be a string");
    expect(typeError('{"remoteStorage":{"nfs":{"mountPath":1}}}')).toBe(
      "spec.remoteStorage.nfs.mountPath must be a string",
    );
  });
  it("spec.engineSelector and spec.hiCache", () => {
    expect(typeError('{"engineSelector":{"matchLabels":[]}}')).toBe(
      "spec.engineSelector.matchLabels must be an object",
    );
    expect(typeError('{"hiCache":{"sizeGB":"1"}}')).toBe("spec.hiCache.sizeGB must be an integer");
    expect(typeError('{"hiCache":{"ratio":1}}')).toBe("spec.hiCache.ratio must be a string");
    expect(typeError('{"hiCache":{"writePolicy":1}}')).toBe("spec.hiCache.writePolicy must be a string");
    expect(typeError('{"hiCache":{"ioBackend":1}}')).toBe("spec.hiCache.ioBackend must be a string");
    expect(typeError('{"hiCache":{"memoryLayout":1}}')).toBe("spec.hiCache.memoryLayout must be a string");
    expect(typeError('{"hiCache":{"storagePrefetchPolicy":1}}')).toBe(
      "spec.hiCache.storagePrefetchPolicy must be a string",
    );
  });
  it("the first wrong field wins, in reading order", () => {
    expect(typeError('{"hiCache":{"ratio":1},"runtime":1}')).toBe("spec.runtime must be a string");
    expect(typeError('{"runtime":"SGLang","hiCache":{"ratio":2}}')).toBe("spec.hiCache.ratio must be a string");
  });
});
