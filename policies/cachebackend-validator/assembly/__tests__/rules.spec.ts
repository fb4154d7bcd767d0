// One `it` per rule bound, from both sides (docs/contributing.md#every-bound-from-both-sides-in-the-rules-own-spec).
import { parseJsonString, JsonValue } from "../../../../assembly/json/index";
import { evaluate } from "../policy";
import { backendWarnings, leadingFlag, MOONCAKE_WARNING } from "../rules";
import { providerEndpointError, lmcacheEndpointError, inClusterNamespace } from "../endpoint";
import { resourceNameProblem } from "../resources";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.nul();
}

/** The aggregate of a backend named `b` in namespace `ns` whose spec is `spec` ("" = none). */
function errs(spec: string, metadataExtra: string = ""): string {
  const meta = '{"name":"b","namespace":"ns"' + metadataExtra + "}";
  return evaluate(parse('{"metadata":' + meta + ',"spec":' + spec + "}"), "ns").errors.aggregateText();
}

/** `actual` contains `part` (on failure the whole text is shown). */
function contains(actual: string, part: string): void {
  expect(actual.includes(part) ? part : actual).toBe(part);
}

function warnings(spec: string): string[] {
  return backendWarnings(evaluate(parse('{"metadata":{"name":"b"},"spec":' + spec + "}"), "ns").backend);
}

const VLLM = '"runtime":"VLLM","type":"LMCache"';
const SGLANG = '"runtime":"SGLang","type":"LMCache"';
const HICACHE = '"runtime":"SGLang","type":"SGLangHiCache","engineSelector":{"matchLabels":{"app":"s"}}';
const NFS_RS =
  '"remoteStorage":{"provider":"NFS","ownership":"External","nfs":{"server":"10.0.0.1","path":"/h","mountPath":"/mnt/h"}}';
/** HiCache + NFS with the given hiCache members (prefetch policy included by the caller). */
function nfs(hiCache: string, integration: string = '"failOpen":false'): string {
  return "{" + HICACHE + ',"integration":{' + integration + '},"hiCache":{' + hiCache + "}," + NFS_RS + "}";
}
function hostOnly(hiCache: string): string {
  return "{" + HICACHE + ',"hiCache":{' + hiCache + "}}";
}

describe("rule 1: canonical hierarchy", () => {
  it("runtime vs integration.engine: same runtime in any case passes, another is rejected", () => {
    expect(errs("{" + VLLM + ',"integration":{"engine":"vLLM"}}')).toBe("");
    expect(errs("{" + VLLM + ',"integration":{"engine":"sglang"}}')).toBe(
      'spec.integration.engine: Invalid value: "sglang": conflicts with spec.runtime; use spec.runtime as the runtime identity',
    );
  });
  it("canonical type: LMCache passes, Mooncake and External are rejected", () => {
    expect(errs('{"runtime":"VLLM","type":"LMCache"}')).toBe("");
    contains(errs('{"runtime":"VLLM","type":"External"}'), 'spec.type: Invalid value: "External": the canonical API');
  });
  it("backendConfig: empty map passes, one key is Forbidden; legacy is not canonical", () => {
    expect(errs("{" + VLLM + ',"backendConfig":{}}')).toBe("");
    contains(errs("{" + VLLM + ',"backendConfig":{"a":"b"}}'), "spec.backendConfig: Forbidden:");
    expect(errs('{"type":"LMCache","backendConfig":{"a":"b"}}')).toBe("");
  });
  it("legacy model conflict: equal or one side empty passes, different is rejected", () => {
    expect(errs('{"type":"LMCache","observation":{"modelID":"m"},"backendConfig":{"model":"m"}}')).toBe("");
    expect(errs('{"type":"LMCache","observation":{"modelID":""},"backendConfig":{"model":"n"}}')).toBe("");
    expect(errs('{"type":"LMCache","observation":{"modelID":"m"},"backendConfig":{"model":"n"}}')).toBe(
      'spec.backendConfig[model]: Invalid value: "n": conflicts with spec.observation.modelID',
    );
  });
  it("remoteStorage: empty provider and ownership are Required", () => {
    expect(errs("{" + VLLM + ',"remoteStorage":{}}')).toBe(
      '[spec.remoteStorage.provider: Required value: select a remote-storage provider, spec.remoteStorage.ownership: Required value: select Managed or External ownership, spec.remoteStorage.provider: Invalid value: "": no remote-storage provider supports the declaration: unknown provider=""]',
    );
  });
  it("an endpoint of blanks is empty on both ownerships", () => {
    expect(
      errs("{" + VLLM + ',"remoteStorage":{"provider":"LMCacheServer","ownership":"Managed","endpoint":" "}}'),
    ).toBe("");
    expect(
      errs("{" + VLLM + ',"remoteStorage":{"provider":"LMCacheServer","ownership":"External","endpoint":" "}}'),
    ).toBe("spec.remoteStorage.endpoint: Required value: required when remoteStorage.ownership=External");
  });
  it("a provider block with External ownership, and an nfs block under another provider", () => {
    expect(
      errs(
        "{" +
          VLLM +
          ',"remoteStorage":{"provider":"LMCacheServer","ownership":"External","endpoint":"c:1","lmCacheServer":{},"nfs":{}}}',
      ),
    ).toBe(
      "[spec.remoteStorage.lmCacheServer: Forbidden: provider workload configuration is valid only with Managed ownership, spec.remoteStorage.nfs: Forbidden: configuration belongs to provider NFS, but remoteStorage.provider=LMCacheServer]",
    );
  });
  it("command: one executable passes; [] and a blank item are rejected", () => {
    const rs = (command: string): string =>
      errs(
        "{" +
          VLLM +
          ',"remoteStorage":{"provider":"Mooncake","ownership":"Managed","mooncake":{"command":' +
          command +
          "}}}",
      );
    expect(rs('["mooncake_master"]')).toBe("");
    expect(rs("[]")).toBe("spec.remoteStorage.mooncake.command: Invalid value: []: must contain an executable");
    expect(rs('["m"," "]')).toBe('spec.remoteStorage.mooncake.command[1]: Invalid value: " ": must not be empty');
  });
  it("nfs block fields: an absent server is Required, paths are checked", () => {
    expect(
      errs(
        "{" +
          HICACHE +
          ',"integration":{"failOpen":false},"hiCache":{"sizeGB":1,"storagePrefetchPolicy":"timeout"},"remoteStorage":{"provider":"NFS","ownership":"External","nfs":{"path":"/","mountPath":"/sys/fs"}}}',
      ),
    ).toBe(
      '[spec.remoteStorage.nfs.server: Required value: NFS mount-target hostname or IP address is required, spec.remoteStorage.nfs.mountPath: Invalid value: "/sys/fs": must not mount remote storage over /proc, /sys or /dev]',
    );
  });
});

describe("rules 3-6: endpoints", () => {
  it("3: External without an endpoint, and with one", () => {
    expect(errs('{"type":"External","endpoint":"c:8200"}')).toBe("");
    contains(errs('{"type":"External","endpoint":"  "}'), "spec.endpoint: Required value:");
  });
  it("4: an endpoint on a non-External type; none when type is empty", () => {
    contains(errs('{"type":"Mooncake","endpoint":"c:1"}'), 'got spec.type="Mooncake" with non-empty spec.endpoint');
    expect(errs('{"endpoint":"c:1"}')).toBe("");
  });
  it("6: in-cluster namespace parse", () => {
    expect(inClusterNamespace("cache.team-b.svc:8200")).toBe("team-b");
    expect(inClusterNamespace("LM://Cache.Team-B.svc.cluster.local.:8200/x")).toBe("team-b");
    expect(inClusterNamespace("cache.svc:8200")).toBe(""); // one label before .svc
    expect(inClusterNamespace("cache.team-b.svc.example.org")).toBe(""); // custom domains are not recognized
    expect(inClusterNamespace("cache.team-b:8200")).toBe("");
    // no endpoint, or only Go whitespace: none (returned before any parsing)
    expect(inClusterNamespace("")).toBe("");
    expect(inClusterNamespace(" \t\n")).toBe("");
    expect(inClusterNamespace("  cache.team-b.svc  ")).toBe("team-b");
  });
  it("6: same namespace passes; another needs the opt-in; remoteStorage.endpoint wins", () => {
    expect(errs('{"type":"External","endpoint":"c.ns.svc:1"}')).toBe("");
    expect(errs('{"type":"External","endpoint":"c.other.svc:1","allowCrossNamespace":true}')).toBe("");
    expect(
      errs(
        "{" + VLLM + ',"remoteStorage":{"provider":"LMCacheServer","ownership":"External","endpoint":"c.other.svc:1"}}',
      ),
    ).toBe(
      'spec.remoteStorage.endpoint: Forbidden: spec.remoteStorage.endpoint references namespace "other" but CacheBackend is in namespace "ns"; set spec.allowCrossNamespace=true to opt in to the cross-namespace reference',
    );
  });
});

describe("endpoint shapes", () => {
  it("LMCache shape: accepted and rejected examples", () => {
    expect(lmcacheEndpointError("cache:8200")).toBe("");
    expect(lmcacheEndpointError("lm://cache:8200")).toBe("");
    expect(lmcacheEndpointError("LM://cache:8200")).toBe("");
    expect(lmcacheEndpointError("[::1]:8200")).toBe("");
    expect(lmcacheEndpointError("cache:http")).toBe(""); // the port need not be numeric
    expect(lmcacheEndpointError("")).toBe("endpoint is empty");
    contains(lmcacheEndpointError("ca che:1"), "must not contain whitespace");
    contains(lmcacheEndpointError("x:1/path"), "paths/queries/fragments");
    contains(lmcacheEndpointError("x:1#f"), "paths/queries/fragments");
    const hostPort = "endpoint must be a non-empty host AND port";
    contains(lmcacheEndpointError("lm://"), hostPort);
    contains(lmcacheEndpointError(":8200"), hostPort);
    contains(lmcacheEndpointError("cache"), hostPort);
    contains(lmcacheEndpointError("cache:"), hostPort);
    contains(lmcacheEndpointError("::1:8200"), hostPort);
    contains(lmcacheEndpointError("[::1]:8200:bad"), hostPort);
    contains(lmcacheEndpointError("[::1]8200"), hostPort);
  });
  it("Redis: bare host:port, port 1-65535 (both ends, both sides)", () => {
    expect(providerEndpointError("Redis", "x:0")).toBe('Redis endpoint port "0" must be an integer in 1-65535');
    expect(providerEndpointError("Redis", "x:1")).toBe("");
    expect(providerEndpointError("Redis", "x:65535")).toBe("");
    expect(providerEndpointError("Redis", "x:65536")).toBe('Redis endpoint port "65536" must be an integer in 1-65535');
    contains(providerEndpointError("Redis", "x:99999999999999999999"), "must be an integer in 1-65535");
    expect(providerEndpointError("Redis", "x:redis")).toBe('Redis endpoint port "redis" must be an integer in 1-65535');
    expect(providerEndpointError("Redis", "lm://x:1")).toBe(
      'scheme "lm" is not supported for remoteStorage.provider=Redis; use bare host:port',
    );
    expect(providerEndpointError("Redis", "a[b:1")).toBe(
      "Redis endpoint must be a bare host:port: address a[b:1: unexpected '[' in address",
    );
  });
  it("Mooncake: bare or mooncakestore://, nothing nested", () => {
    expect(providerEndpointError("Mooncake", "x:1")).toBe("");
    expect(providerEndpointError("Mooncake", "MooncakeStore://x:1")).toBe("");
    contains(
      providerEndpointError("Mooncake", "lm://x:1"),
      'scheme "lm" is not supported for remoteStorage.provider=Mooncake',
    );
    contains(providerEndpointError("Mooncake", "mooncakestore://lm://x:1"), "nested endpoint schemes");
    contains(providerEndpointError("Mooncake", "mooncakestore://x"), "endpoint must be a non-empty host AND port");
  });
  it("other providers have no endpoint protocol", () => {
    expect(providerEndpointError("NFS", "x:1")).toBe('remote-storage provider "NFS" has no endpoint protocol');
  });
});

describe("rules 7-9: replicas and host network", () => {
  it("7: replicas 0 with autoscaling needs minReplicas; 1 does not", () => {
    expect(errs('{"type":"LMCache","replicas":1,"autoscaling":{"maxReplicas":3}}')).toBe("");
    expect(errs('{"type":"LMCache","replicas":0,"autoscaling":{"maxReplicas":3,"minReplicas":1}}')).toBe("");
    contains(
      errs('{"type":"LMCache","replicas":0,"autoscaling":{"maxReplicas":3}}'),
      "spec.autoscaling.minReplicas: Required value:",
    );
  });
  it("8: the Mooncake master: 0 and 1 replicas pass, 2 and far above are rejected", () => {
    const mc = (replicas: string): string =>
      errs('{"type":"Mooncake","integration":{"engineHostNetwork":true},"replicas":' + replicas + "}");
    expect(mc("0")).toBe("");
    expect(mc("1")).toBe("");
    contains(mc("2"), "spec.replicas: Invalid value: 2: the Mooncake master is a singleton");
    contains(mc("2147483647"), "spec.replicas: Invalid value: 2147483647:");
  });
  it("8: an External Mooncake is not the master", () => {
    expect(
      errs(
        "{" + VLLM + ',"replicas":3,"remoteStorage":{"provider":"Mooncake","ownership":"External","endpoint":"x:1"}}',
      ),
    ).toBe("");
  });
  it("9: engineHostNetwork true without Mooncake names the provider; false passes", () => {
    expect(errs("{" + VLLM + ',"integration":{"engineHostNetwork":false}}')).toBe("");
    contains(
      errs('{"type":"LMCache","integration":{"engineHostNetwork":true}}'),
      "provider=LMCacheServer does not need it",
    );
  });
  it("the Mooncake warning: without engineHostNetwork, not with it, not for other providers", () => {
    expect(warnings('{"type":"Mooncake"}')).toStrictEqual([MOONCAKE_WARNING]);
    expect(warnings('{"type":"Mooncake","integration":{"engineHostNetwork":true}}')).toStrictEqual(new Array<string>());
    expect(warnings('{"type":"LMCache"}')).toStrictEqual(new Array<string>());
  });
});

describe("rules 10-17: resources", () => {
  const res = (resources: string): string => errs('{"type":"LMCache","resources":' + resources + "}");
  it("10: overcommittable limit below, at and above its request", () => {
    expect(res('{"requests":{"cpu":"1"},"limits":{"cpu":"999m"}}')).toBe(
      'spec.resources.limits[cpu]: Invalid value: "999m": must be greater than or equal to spec.resources.requests[cpu] (1)',
    );
    expect(res('{"requests":{"cpu":"1"},"limits":{"cpu":"1000m"}}')).toBe("");
    expect(res('{"requests":{"cpu":"1"},"limits":{"cpu":"1001m"}}')).toBe("");
  });
  it("10: non-overcommittable limit below, at and above its request", () => {
    contains(res('{"requests":{"example.com/x":"2"},"limits":{"example.com/x":"1"}}'), "must equal");
    expect(res('{"requests":{"example.com/x":"2"},"limits":{"example.com/x":"2"}}')).toBe("");
    contains(res('{"requests":{"example.com/x":"2"},"limits":{"example.com/x":"3"}}'), "must equal");
  });
  it("11: a non-overcommittable request needs a limit; memory does not", () => {
    expect(res('{"requests":{"memory":"1Gi"}}')).toBe("");
    contains(
      res('{"requests":{"example.com/x":"1"}}'),
      'spec.resources.requests[example.com/x]: Invalid value: "1": "example.com/x" is a non-overcommittable resource',
    );
  });
  it("12: claims: none and [] pass, one is Forbidden", () => {
    expect(res('{"claims":[]}')).toBe("");
    contains(res('{"claims":[{"name":"c"}]}'), "spec.resources.claims: Forbidden:");
  });
  it("13: negative just below zero, zero, positive", () => {
    expect(res('{"requests":{"cpu":"-1n"}}')).toBe(
      'spec.resources.requests[cpu]: Invalid value: "-1n": must be a non-negative quantity',
    );
    expect(res('{"requests":{"cpu":"0"}}')).toBe("");
    expect(res('{"limits":{"cpu":"1n"}}')).toBe("");
  });
  it("14: capacity below, at and above zero", () => {
    const cap = (q: string): string => errs("{" + VLLM + ',"lmCache":{"hostMemory":{"capacity":' + q + "}}}");
    expect(cap('"-1n"')).toBe('spec.lmCache.hostMemory.capacity: Invalid value: "-1n": must be greater than zero');
    expect(cap('"0"')).toBe('spec.lmCache.hostMemory.capacity: Invalid value: "0": must be greater than zero');
    expect(cap('"1n"')).toBe("");
    expect(cap("4")).toBe("");
  });
  it("15: resource names", () => {
    expect(resourceNameProblem("cpu")).toBe("");
    expect(resourceNameProblem("ephemeral-storage")).toBe("");
    expect(resourceNameProblem("hugepages-2Mi")).toBe("");
    contains(resourceNameProblem("hugepages-0"), "positive page size");
    contains(resourceNameProblem("hugepages-x"), "positive page size");
    contains(resourceNameProblem("gpu"), "without a domain prefix");
    contains(resourceNameProblem("kubernetes.io/x"), "reserved for native resources");
    contains(resourceNameProblem("requests.kubernetes.io/x"), "reserved for native resources");
    expect(resourceNameProblem("example.com/" + "a".repeat(63))).toBe("");
    contains(resourceNameProblem("example.com/" + "a".repeat(64)), "qualified name");
    contains(resourceNameProblem("example.com/a/b"), "qualified name");
    contains(resourceNameProblem("Example.com/a"), "qualified name");
    contains(resourceNameProblem("example.com/-a"), "qualified name");
  });
  it("16: extended resources are whole numbers (both sides of 1)", () => {
    contains(
      res('{"requests":{"example.com/x":"999m"},"limits":{"example.com/x":"999m"}}'),
      "must be an integer quantity",
    );
    expect(res('{"requests":{"example.com/x":"1"},"limits":{"example.com/x":"1"}}')).toBe("");
    contains(
      res('{"requests":{"example.com/x":"1001m"},"limits":{"example.com/x":"1001m"}}'),
      "must be an integer quantity",
    );
  });
  it("17: hugepages in whole pages (one byte each side of two pages)", () => {
    const hp = (q: string): string =>
      res('{"requests":{"hugepages-2Mi":"' + q + '"},"limits":{"hugepages-2Mi":"' + q + '"}}');
    contains(hp("4194303"), "must be a multiple of the page size 2Mi");
    expect(hp("4Mi")).toBe("");
    contains(hp("4194305"), "must be a multiple of the page size 2Mi");
  });
});

describe("rule 18: EventsOnly", () => {
  it("LMCache host-only passes; the same in Offload mode is not checked", () => {
    expect(errs("{" + VLLM + ',"integration":{"mode":"EventsOnly"}}')).toBe("");
    expect(errs('{"type":"External","endpoint":"c:1","integration":{"mode":"Offload"}}')).toBe("");
  });
  it("type External, and another type", () => {
    expect(errs('{"type":"External","endpoint":"c:1","integration":{"mode":"EventsOnly"}}')).toBe(
      'spec.integration.mode: Forbidden: mode "EventsOnly" is incompatible with spec.type "External": events-only wires no KV connector, while External provisions an operator-run offload server the connector would dial',
    );
    expect(errs('{"type":"Mooncake","integration":{"mode":"EventsOnly","engineHostNetwork":true}}')).toBe(
      'spec.integration.mode: Forbidden: mode "EventsOnly" is only supported with spec.type "LMCache"; got spec.type "Mooncake". Events-only wires no KV connector, so a managed backend that provisions an offload store (e.g. a Mooncake master) has nothing the mode would use',
    );
  });
  it("autoscaling and remoteStorage", () => {
    contains(
      errs("{" + VLLM + ',"integration":{"mode":"EventsOnly"},"autoscaling":{"maxReplicas":2}}'),
      'spec.autoscaling: Forbidden: events-only backends (spec.integration.mode="EventsOnly") provision no server workload, so there is nothing to autoscale',
    );
  });
});

describe("rule 19: SGLang HiCache", () => {
  it("sizeGB: 0 and -1 are rejected, 1 and int32 max pass", () => {
    expect(errs(hostOnly('"sizeGB":0'))).toBe("spec.hiCache.sizeGB: Invalid value: 0: must be at least 1");
    expect(errs(hostOnly('"sizeGB":-1'))).toBe("spec.hiCache.sizeGB: Invalid value: -1: must be at least 1");
    expect(errs(hostOnly('"sizeGB":1'))).toBe("");
    expect(errs(hostOnly('"sizeGB":2147483647'))).toBe("");
  });
  it("ratio: finite and above zero", () => {
    const bad = (r: string): string =>
      "spec.hiCache.ratio: Invalid value: " + '"' + r + '"' + ": must be a finite number greater than zero";
    expect(errs(hostOnly('"ratio":"0"'))).toBe(bad("0"));
    expect(errs(hostOnly('"ratio":"-1"'))).toBe(bad("-1"));
    expect(errs(hostOnly('"ratio":"1e-400"'))).toBe(bad("1e-400"));
    expect(errs(hostOnly('"ratio":"5e-324"'))).toBe("");
    expect(errs(hostOnly('"ratio":"1e308"'))).toBe("");
    expect(errs(hostOnly('"ratio":"1e400"'))).toBe(bad("1e400"));
    expect(errs(hostOnly('"ratio":"NaN"'))).toBe(bad("NaN"));
    expect(errs(hostOnly('"ratio":" 2"'))).toBe(bad(" 2"));
    expect(errs(hostOnly('"ratio":".5"'))).toBe("");
  });
  it("an empty ratio counts as unset", () => {
    expect(errs(hostOnly('"ratio":""'))).toBe(
      "spec.hiCache: Required value: exactly one of sizeGB and ratio must be set",
    );
    expect(errs(hostOnly('"ratio":"","sizeGB":2'))).toBe("");
  });
  it("enums: every member passes, a near miss is NotSupported", () => {
    const members = ["write_back", "write_through", "write_through_selective"];
    for (let i = 0; i < members.length; i++)
      expect(errs(hostOnly('"sizeGB":1,"writePolicy":"' + members[i] + '"'))).toBe("");
    contains(
      errs(hostOnly('"sizeGB":1,"writePolicy":"Write_back"')),
      'spec.hiCache.writePolicy: Unsupported value: "Write_back"',
    );
    const io = ["direct", "kernel", "kernel_ascend"];
    for (let i = 0; i < io.length; i++) expect(errs(hostOnly('"sizeGB":1,"ioBackend":"' + io[i] + '"'))).toBe("");
    contains(errs(hostOnly('"sizeGB":1,"ioBackend":"kernel "')), "spec.hiCache.ioBackend: Unsupported value:");
    const layouts = ["layer_first", "page_first", "page_first_direct", "page_first_kv_split", "page_head"];
    for (let i = 0; i < layouts.length; i++)
      expect(errs(hostOnly('"sizeGB":1,"memoryLayout":"' + layouts[i] + '"'))).toBe("");
    contains(errs(hostOnly('"sizeGB":1,"memoryLayout":"page"')), "spec.hiCache.memoryLayout: Unsupported value:");
    const prefetch = ["best_effort", "wait_complete", "timeout"];
    for (let i = 0; i < prefetch.length; i++)
      expect(errs(nfs('"sizeGB":1,"storagePrefetchPolicy":"' + prefetch[i] + '"'))).toBe("");
    contains(
      errs(nfs('"sizeGB":1,"storagePrefetchPolicy":"Timeout"')),
      'spec.hiCache.storagePrefetchPolicy: Unsupported value: "Timeout"',
    );
  });
  it("failOpen: NFS needs false (true and absent rejected); host-only needs true (false rejected)", () => {
    contains(
      errs(nfs('"sizeGB":1,"storagePrefetchPolicy":"timeout"', '"failOpen":true')),
      "spec.integration.failOpen: Invalid value: true: must be false",
    );
    contains(
      errs(nfs('"sizeGB":1,"storagePrefetchPolicy":"timeout"', '"mode":"Offload"')),
      "spec.integration.failOpen: Invalid value: true: must be false",
    );
    expect(errs("{" + HICACHE + ',"integration":{"failOpen":false},"hiCache":{"sizeGB":1}}')).toBe(
      'spec.integration.failOpen: Unsupported value: false: supported values: "true"',
    );
  });
  it("mode, role and runtime", () => {
    expect(errs("{" + HICACHE + ',"integration":{"role":"ReadWrite","mode":"Offload"},"hiCache":{"sizeGB":1}}')).toBe(
      "",
    );
    expect(errs("{" + HICACHE + ',"integration":{"role":"WriteOnly"},"hiCache":{"sizeGB":1}}')).toBe(
      'spec.integration.role: Unsupported value: "WriteOnly": supported values: "ReadWrite"',
    );
    contains(
      errs("{" + HICACHE + ',"integration":{"mode":"EventsOnly"},"hiCache":{"sizeGB":1}}'),
      'spec.integration.mode: Unsupported value: "EventsOnly": supported values: "Offload"',
    );
  });
  it("hiCache absent and an empty selector", () => {
    expect(errs('{"runtime":"SGLang","type":"SGLangHiCache","engineSelector":{"matchLabels":{}}}')).toBe(
      '[spec.hiCache: Required value: required when spec.type="SGLangHiCache", spec.engineSelector.matchLabels: Required value: SGLangHiCache must select the engine Pods to inject]',
    );
  });
});

describe("rules 20-22", () => {
  it("20: every kernel-check mode and unset pass; a near miss is rejected", () => {
    const modes = ["auto", "report-only", "strict", "off", ""];
    for (let i = 0; i < modes.length; i++) {
      expect(
        errs("{" + VLLM + "}", ',"annotations":{"inferencecache.io/lmcache-kernel-check":"' + modes[i] + '"}'),
      ).toBe("");
    }
    contains(
      errs("{" + VLLM + "}", ',"annotations":{"inferencecache.io/lmcache-kernel-check":"Strict"}'),
      'metadata.annotations[inferencecache.io/lmcache-kernel-check]: Invalid value: "Strict"',
    );
  });
  it("21: SGLang LMCache honours ReadWrite only; vLLM takes any role", () => {
    expect(errs("{" + SGLANG + ',"integration":{"role":"ReadWrite"}}')).toBe("");
    contains(
      errs("{" + SGLANG + ',"integration":{"role":"WriteOnly"}}'),
      'spec.integration.role: Invalid value: "WriteOnly"',
    );
    expect(errs("{" + VLLM + ',"integration":{"role":"WriteOnly"}}')).toBe("");
  });
  it("22: the SGLang Redis L2 store: 1 replica passes, 2 are rejected, autoscaling too", () => {
    const rs = ',"remoteStorage":{"provider":"Redis","ownership":"Managed"}';
    expect(errs("{" + SGLANG + ',"replicas":1' + rs + "}")).toBe("");
    contains(
      errs("{" + SGLANG + ',"replicas":2' + rs + "}"),
      "spec.replicas: Invalid value: 2: the (sglang, LMCache) backend's Redis",
    );
    contains(
      errs("{" + SGLANG + ',"autoscaling":{"maxReplicas":2}' + rs + "}"),
      'spec.autoscaling: Invalid value: {"maxReplicas":2}: spec.autoscaling is not supported for the (sglang, LMCache) backend',
    );
  });
});

describe("rule 23: the support matrix", () => {
  const binding = (prefix: string, protocol: string): string =>
    prefix +
    ' does not accept this remote-storage binding: runtime adapter does not accept remote binding protocol "' +
    protocol +
    '"';
  it("vLLM LMCache: none, LMCacheServer, Mooncake pass; Redis and NFS do not", () => {
    expect(errs("{" + VLLM + "}")).toBe("");
    expect(errs("{" + VLLM + ',"remoteStorage":{"provider":"LMCacheServer","ownership":"Managed"}}')).toBe("");
    expect(
      errs(
        "{" +
          VLLM +
          ',"integration":{"engineHostNetwork":true},"remoteStorage":{"provider":"Mooncake","ownership":"Managed"}}',
      ),
    ).toBe("");
    contains(
      errs("{" + VLLM + ',"remoteStorage":{"provider":"Redis","ownership":"Managed"}}'),
      binding("runtime vllm with cache type LMCache", "resp"),
    );
  });
  it("SGLang LMCache: none and Redis pass; LMCacheServer does not", () => {
    expect(
      errs("{" + SGLANG + ',"remoteStorage":{"provider":"Redis","ownership":"External","endpoint":"r:6379"}}'),
    ).toBe("");
    contains(
      errs("{" + SGLANG + ',"remoteStorage":{"provider":"LMCacheServer","ownership":"Managed"}}'),
      binding("runtime sglang with cache type LMCache", "lm"),
    );
  });
  it("an unknown provider", () => {
    expect(errs("{" + VLLM + ',"remoteStorage":{"provider":"S3","ownership":"Managed"}}')).toBe(
      'spec.remoteStorage.provider: Invalid value: "S3": no remote-storage provider supports the declaration: unknown provider="S3"',
    );
  });
  it("legacy pairs: sglang/Mooncake and unknown engines have no adapter", () => {
    contains(
      errs('{"type":"Mooncake","integration":{"engine":"sglang"}}'),
      'no runtime adapter supports the (engine="sglang", backend="Mooncake") pair',
    );
    contains(
      errs('{"type":"LMCache","integration":{"engine":"TensorRT"}}'),
      'spec.integration.engine: Invalid value: "TensorRT": no runtime adapter supports the (engine="tensorrt", backend="LMCache") pair',
    );
    expect(
      errs(
        '{"type":"SGLangHiCache","integration":{"engine":"sglang"},"engineSelector":{"matchLabels":{"a":"b"}},"hiCache":{"sizeGB":1}}',
      ),
    ).toBe("");
  });
});

describe("rule 24: engineOverrides", () => {
  it("the leading flag of an arg", () => {
    expect(leadingFlag("--kv-transfer-config={}")).toBe("--kv-transfer-config");
    expect(leadingFlag("--kv-transfer-config")).toBe("--kv-transfer-config");
    expect(leadingFlag("-x=1=2")).toBe("-x");
    expect(leadingFlag("{json}")).toBe("");
  });
  it("reserved per adapter: SGLang LMCache reserves its flags and env, not vLLM's", () => {
    const ov = (o: string): string => errs("{" + SGLANG + ',"integration":{"engineOverrides":' + o + "}}");
    contains(
      ov('{"args":["--enable-lmcache"]}'),
      'spec.integration.engineOverrides.args[0]: Forbidden: arg "--enable-lmcache" is reserved by the "sglang" runtime adapter',
    );
    contains(ov('{"args":["--lmcache-config-file=/x"]}'), 'arg "--lmcache-config-file" is reserved');
    expect(ov('{"env":[{"name":"VLLM_USE_V1","value":"0"}],"args":["--kv-transfer-config"]}')).toBe("");
    contains(
      ov('{"suppressEnv":["INFERENCECACHE_FAIL_OPEN"]}'),
      'spec.integration.engineOverrides.suppressEnv[0]: Forbidden: env "INFERENCECACHE_FAIL_OPEN"',
    );
  });
  it("HiCache reserves every HiCache flag and the storage dir env", () => {
    const ov = (o: string): string =>
      errs("{" + HICACHE + ',"hiCache":{"sizeGB":1},"integration":{"engineOverrides":' + o + "}}");
    contains(ov('{"args":["--enable-hierarchical-cache","--hicache-size=4"]}'), "args[1]: Forbidden");
    contains(ov('{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/x"}]}'), "env[0].name: Forbidden");
    expect(ov('{"args":["--enable-lmcache"]}')).toBe("");
  });
  it("no reserved check without a type or an adapter", () => {
    expect(errs('{"runtime":"VLLM","integration":{"engineOverrides":{"args":["--kv-transfer-config"]}}}')).toBe("");
  });
  it("env names: the dot forms", () => {
    const env = (name: string): string =>
      errs("{" + VLLM + ',"integration":{"engineOverrides":{"env":[{"name":"' + name + '","value":"v"}]}}}');
    expect(env("A.B")).toBe("");
    expect(env(".")).toBe(
      "spec.integration.engineOverrides.env[0].name: Invalid value: \".\": invalid env var name: must not be '.'",
    );
    expect(env("..a")).toBe(
      "spec.integration.engineOverrides.env[0].name: Invalid value: \"..a\": invalid env var name: must not start with '..'",
    );
  });
  it("valueFrom with exactly one source passes", () => {
    expect(
      errs("{" + VLLM + ',"integration":{"engineOverrides":{"env":[{"name":"A","valueFrom":{"fileKeyRef":{}}}]}}}'),
    ).toBe("");
  });
});

describe("malformed input", () => {
  it("wrong types are field errors; a core field stops the rules", () => {
    expect(errs('{"type":5,"endpoint":"x:1","hiCache":{}}')).toBe("spec.type: Invalid value: 5: must be a string");
    expect(errs('{"runtime":"VLLM","replicas":2147483648}')).toBe(
      "spec.replicas: Invalid value: 2147483648: must be a 32-bit integer",
    );
    expect(errs('{"runtime":"VLLM","replicas":2.0}')).toBe("");
    expect(errs('{"runtime":"VLLM","allowCrossNamespace":"yes"}')).toBe(
      'spec.allowCrossNamespace: Invalid value: "yes": must be a boolean',
    );
    expect(errs('{"runtime":"VLLM","backendConfig":{"a":1}}')).toBe(
      'spec.backendConfig: Invalid value: {"a":1}: must be a map of strings',
    );
    expect(errs('{"runtime":"VLLM","integration":{"engineOverrides":{"suppressArgs":[1],"env":["x"]}}}')).toBe(
      '[spec.integration.engineOverrides.suppressArgs[0]: Invalid value: 1: must be a string, spec.integration.engineOverrides.env[0]: Invalid value: "x": must be an object]',
    );
    contains(
      errs('{"type":"LMCache","resources":{"requests":{"cpu":"1 core"}}}'),
      'spec.resources.requests[cpu]: Invalid value: "1 core": quantities must match the regular expression',
    );
  });
});
