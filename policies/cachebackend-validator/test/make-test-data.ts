// Writes policies/cachebackend-validator/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/cachebackend-validator/test/make-test-data.ts
//
// Every expected message is written out by hand from docs/policies/cachebackend-validator.md (rule
// details, rendering, aggregation), never taken from the policy's output. Objects in messages are
// compact JSON with members in sorted order: policy-server hands the request over re-serialized by
// serde_json, whose maps are sorted (docs/decisions.md#cachebackend-validator).
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";
import * as yaml from "js-yaml";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const OUT = testDataDir(__dirname);
const clone = (x: Json): Json => JSON.parse(JSON.stringify(x));
const GROUP = "inferencecache.io";

/** The NFS sample of the inference-cache pull request (docs/policies/cachebackend-validator.md#acceptance). */
function nfsSample(): Json {
  return {
    apiVersion: "inferencecache.io/v1alpha1",
    kind: "CacheBackend",
    metadata: { name: "sglang-hicache-l3-nfs", namespace: "ns" },
    spec: {
      runtime: "SGLang",
      type: "SGLangHiCache",
      integration: { failOpen: false },
      engineSelector: { matchLabels: { app: "sglang" } },
      hiCache: { ratio: "2.0", storagePrefetchPolicy: "wait_complete" },
      remoteStorage: {
        provider: "NFS",
        ownership: "External",
        nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/mnt/hicache" },
      },
    },
  };
}
/** Host-only SGLang HiCache (the other HiCache sample). */
function hostOnlyHiCache(): Json {
  return {
    apiVersion: "inferencecache.io/v1alpha1",
    kind: "CacheBackend",
    metadata: { name: "sglang-hicache", namespace: "ns" },
    spec: {
      runtime: "SGLang",
      type: "SGLangHiCache",
      engineSelector: { matchLabels: { app: "sglang" } },
      hiCache: { sizeGB: 8 },
    },
  };
}
/** A canonical vLLM LMCache backend; `spec` replaces the spec. */
function backend(name: string, spec: Json, namespace = "ns"): Json {
  return {
    apiVersion: "inferencecache.io/v1alpha1",
    kind: "CacheBackend",
    metadata: { name, namespace },
    spec,
  };
}
function nfsWith(mut: (spec: Json) => void): Json {
  const o = nfsSample();
  mut(o.spec);
  return o;
}

function request(op: string, obj: Json, oldObj?: Json): Json {
  const meta = (obj && obj.metadata) || (oldObj && oldObj.metadata) || {};
  const r: Json = {
    uid: "6a1d5f4e-2c3b-4b8a-9f1e-0c2d3e4f5a6b",
    kind: { group: GROUP, version: "v1alpha1", kind: "CacheBackend" },
    resource: { group: GROUP, version: "v1alpha1", resource: "cachebackends" },
    requestKind: { group: GROUP, version: "v1alpha1", kind: "CacheBackend" },
    requestResource: { group: GROUP, version: "v1alpha1", resource: "cachebackends" },
    name: typeof meta.name === "string" ? meta.name : undefined,
    namespace: typeof meta.namespace === "string" ? meta.namespace : "ns",
    operation: op,
    userInfo: { username: "kubernetes-admin", groups: ["kubeadm:cluster-admins", "system:authenticated"] },
  };
  if (obj !== undefined) r.object = obj;
  if (oldObj !== undefined) r.oldObject = oldObj;
  r.dryRun = false;
  r.options = {
    apiVersion: "meta.k8s.io/v1",
    kind: op === "CREATE" ? "CreateOptions" : op === "UPDATE" ? "UpdateOptions" : "DeleteOptions",
  };
  return r;
}

const P = (name: string): string => `CacheBackend.inferencecache.io "${name}" is invalid: `;
const NFS = "sglang-hicache-l3-nfs";
const one = (name: string, e: string): string => P(name) + e;
const many = (name: string, es: string[]): string => P(name) + "[" + es.join(", ") + "]";
const reject = (message: string, warnings: string[] = []): Json => ({ allowed: false, code: 422, message, warnings });
const accept = (warnings: string[] = []): Json => ({ allowed: true, warnings });
const MOONCAKE_WARNING =
  "Mooncake: set spec.integration.engineHostNetwork=true or engine pods can't join the transfer mesh (Ready, no KV)";
const PAIRS =
  "supported pairs in this build: sglang/LMCache, sglang/SGLangHiCache, vllm/External, vllm/LMCache, vllm/Mooncake";
const SERVER_INVALID = "must be a valid IPv4 address, IPv6 address, or DNS-1123 hostname";
const NOT_CLEAN = "must be a clean absolute path without surrounding whitespace";
const FAIL_OPEN_NFS =
  "spec.integration.failOpen: Invalid value: true: must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency";
const reservedArg = (flag: string, rid: string): string =>
  `arg "${flag}" is reserved by the "${rid}" runtime adapter and cannot be overridden or suppressed via spec.integration.engineOverrides; the adapter strictly requires this flag for the integration to function`;
const reservedEnv = (name: string, rid: string): string =>
  `env "${name}" is reserved by the "${rid}" runtime adapter and cannot be overridden or suppressed via spec.integration.engineOverrides; the adapter strictly requires this env for the integration to function`;
const ENV_PATTERN =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

const cases: Json[] = [];
function add(name: string, covers: string, description: string, req: Json, expect: Json): void {
  cases.push({ name, description, covers, request: `request_${name}.json`, req, expect });
}
const create = (o: Json): Json => request("CREATE", o);

// ---- the samples and the acceptance table ----
add("nfs-sample", "#acceptance", "the NFS sample of the pull request is accepted", create(nfsSample()), accept());
add(
  "host-only-hicache-sample",
  "#acceptance, #rule-19",
  "host-only SGLang HiCache (no remoteStorage, no integration) is accepted",
  create(hostOnlyHiCache()),
  accept(),
);
add(
  "nfs-fail-open-omitted",
  "#rule-19",
  "NFS without integration: failOpen defaults to true and is rejected",
  create(nfsWith((s) => delete s.integration)),
  reject(one(NFS, FAIL_OPEN_NFS)),
);
add(
  "nfs-fail-open-true",
  "#rule-19",
  "NFS with failOpen: true is rejected",
  create(nfsWith((s) => (s.integration.failOpen = true))),
  reject(one(NFS, FAIL_OPEN_NFS)),
);
const serverCases: [string, string, string | null][] = [
  ["ipv6", "2001:db8::25", null],
  ["ipv6-upper", "2001:DB8::25", null],
  ["ipv4-mapped", "::ffff:10.0.0.1", null],
  ["hostname", "nfs.example.com", null],
  ["uppercase", "NFS.example.com", SERVER_INVALID],
  ["bracketed", "[2001:db8::25]", SERVER_INVALID],
  ["zone", "fe80::1%eth0", SERVER_INVALID],
  ["trailing-dot", "nfs.example.com.", SERVER_INVALID],
  ["port", "nfs.example.com:2049", SERVER_INVALID],
  ["scheme", "nfs://10.0.0.25", SERVER_INVALID],
  ["at", "@", SERVER_INVALID],
  ["option", "-option", SERVER_INVALID],
  ["bad-octet", "999.1.1.1", SERVER_INVALID],
  ["unspecified", "0.0.0.0", "must not be the unspecified address"],
  ["unspecified-v6", "::", "must not be the unspecified address"],
  ["label-64", "a".repeat(64) + ".com", SERVER_INVALID],
  ["leading-space", " 10.0.0.25", "must not contain surrounding whitespace"],
  ["trailing-newline", "10.0.0.25\n", "must not contain surrounding whitespace"],
];
for (const [tag, server, detail] of serverCases) {
  const o = nfsWith((s) => (s.remoteStorage.nfs.server = server));
  const q = JSON.stringify(server).replace(/\\n/g, "\\n");
  add(
    `nfs-server-${tag}`,
    "#rule-1, #nfs-server",
    `NFS server ${JSON.stringify(server)} is ${detail ? "rejected" : "accepted"}`,
    create(o),
    detail ? reject(one(NFS, `spec.remoteStorage.nfs.server: Invalid value: ${q}: ${detail}`)) : accept(),
  );
}
add(
  "nfs-server-blank",
  "#rule-1, #nfs-server",
  "NFS server of spaces is Required",
  create(nfsWith((s) => (s.remoteStorage.nfs.server = "   "))),
  reject(
    one(NFS, "spec.remoteStorage.nfs.server: Required value: NFS mount-target hostname or IP address is required"),
  ),
);
const pathCases: [string, string, string | null, string | null][] = [
  // tag, value, path result, mountPath result
  ["root", "/", null, "must not mount remote storage over the container root"],
  ["with-space", "/hi cache", null, null],
  ["dev-shm", "/dev/shm", null, "must not mount remote storage over /proc, /sys or /dev"],
  ["proc", "/proc", null, "must not mount remote storage over /proc, /sys or /dev"],
  ["devices", "/devices", null, null],
  ["trailing-slash", "/hicache/", NOT_CLEAN, NOT_CLEAN],
  ["double-slash", "//hicache", NOT_CLEAN, NOT_CLEAN],
  ["dot-dot", "/a/../b", NOT_CLEAN, NOT_CLEAN],
  ["dot", "/a/./b", NOT_CLEAN, NOT_CLEAN],
  ["relative", "hicache", NOT_CLEAN, NOT_CLEAN],
  ["leading-space", " /hicache", NOT_CLEAN, NOT_CLEAN],
];
for (const [tag, value, pathResult, mountResult] of pathCases) {
  for (const [field, result] of [
    ["path", pathResult],
    ["mountPath", mountResult],
  ] as [string, string | null][]) {
    add(
      `nfs-${field.toLowerCase()}-${tag}`,
      "#rule-1, #nfs-paths",
      `NFS ${field} ${JSON.stringify(value)} is ${result ? "rejected" : "accepted"}`,
      create(nfsWith((s) => (s.remoteStorage.nfs[field] = value))),
      result
        ? reject(one(NFS, `spec.remoteStorage.nfs.${field}: Invalid value: ${JSON.stringify(value)}: ${result}`))
        : accept(),
    );
  }
}
add(
  "nfs-prefetch-removed",
  "#rule-19",
  "NFS without storagePrefetchPolicy",
  create(nfsWith((s) => delete s.hiCache.storagePrefetchPolicy)),
  reject(one(NFS, "spec.hiCache.storagePrefetchPolicy: Required value: required when remoteStorage.provider=NFS")),
);
add(
  "nfs-prefetch-forever",
  "#rule-19",
  "storagePrefetchPolicy outside the enum",
  create(nfsWith((s) => (s.hiCache.storagePrefetchPolicy = "forever"))),
  reject(
    one(
      NFS,
      'spec.hiCache.storagePrefetchPolicy: Unsupported value: "forever": supported values: "best_effort", "wait_complete", "timeout"',
    ),
  ),
);
add(
  "host-only-prefetch-forbidden",
  "#rule-19",
  "storagePrefetchPolicy without NFS",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache.storagePrefetchPolicy = "best_effort";
      return o;
    })(),
  ),
  reject(
    one("sglang-hicache", "spec.hiCache.storagePrefetchPolicy: Forbidden: valid only when remoteStorage.provider=NFS"),
  ),
);
add(
  "nfs-managed",
  "#rule-1",
  "Managed NFS is not supported",
  create(nfsWith((s) => (s.remoteStorage.ownership = "Managed"))),
  reject(one(NFS, 'spec.remoteStorage.ownership: Unsupported value: "Managed": supported values: "External"')),
);
add(
  "nfs-with-endpoint",
  "#rule-1",
  "NFS with an endpoint",
  create(nfsWith((s) => (s.remoteStorage.endpoint = "10.0.0.25:2049"))),
  reject(
    one(
      NFS,
      "spec.remoteStorage.endpoint: Forbidden: NFS uses remoteStorage.nfs.server and path instead of an endpoint",
    ),
  ),
);
add(
  "nfs-vllm-runtime",
  "#rule-19, #rule-23",
  "VLLM runtime with SGLang HiCache",
  create(nfsWith((s) => (s.runtime = "VLLM"))),
  reject(
    many(NFS, [
      'spec.integration.engine: Invalid value: "": SGLangHiCache requires integration.engine=sglang',
      `spec.integration.engine: Invalid value: "": no runtime adapter supports the (engine="vllm", backend="SGLangHiCache") pair; ${PAIRS}`,
    ]),
  ),
);
add(
  "nfs-block-removed",
  "#rule-1, #rule-23",
  "provider NFS without the nfs block",
  create(nfsWith((s) => delete s.remoteStorage.nfs)),
  reject(
    many(NFS, [
      "spec.remoteStorage.nfs: Required value: required when remoteStorage.provider=NFS",
      'spec.remoteStorage.provider: Invalid value: "NFS": runtime sglang with cache type SGLangHiCache does not accept this remote-storage binding: runtime adapter does not accept remote binding protocol "file"',
    ]),
  ),
);
add(
  "host-only-fail-open-false",
  "#rule-19",
  "host-only HiCache with failOpen: false",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.integration = { failOpen: false };
      return o;
    })(),
  ),
  reject(one("sglang-hicache", 'spec.integration.failOpen: Unsupported value: false: supported values: "true"')),
);
add(
  "host-only-fail-open-true",
  "#rule-19",
  "host-only HiCache with failOpen: true",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.integration = { failOpen: true };
      return o;
    })(),
  ),
  accept(),
);
add(
  "hicache-redis",
  "#rule-23",
  "HiCache with Redis remote storage",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.remoteStorage = { provider: "Redis", ownership: "Managed" };
      return o;
    })(),
  ),
  reject(
    one(
      "sglang-hicache",
      'spec.remoteStorage.provider: Invalid value: "Redis": runtime sglang with cache type SGLangHiCache does not accept this remote-storage binding: runtime adapter does not accept remote binding protocol "resp"',
    ),
  ),
);
add(
  "hicache-size-and-ratio",
  "#rule-19",
  "sizeGB and ratio together",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache.ratio = "2";
      return o;
    })(),
  ),
  reject(
    one(
      "sglang-hicache",
      'spec.hiCache: Invalid value: {"ratio":"2","sizeGB":8}: sizeGB and ratio are mutually exclusive',
    ),
  ),
);
add(
  "hicache-neither-size-nor-ratio",
  "#rule-19",
  "neither sizeGB nor ratio",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache = {};
      return o;
    })(),
  ),
  reject(one("sglang-hicache", "spec.hiCache: Required value: exactly one of sizeGB and ratio must be set")),
);
add(
  "hicache-size-zero",
  "#rule-19",
  "sizeGB 0 (just below the minimum)",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache.sizeGB = 0;
      return o;
    })(),
  ),
  reject(one("sglang-hicache", "spec.hiCache.sizeGB: Invalid value: 0: must be at least 1")),
);
add(
  "hicache-size-one",
  "#rule-19",
  "sizeGB 1 (the minimum)",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache.sizeGB = 1;
      return o;
    })(),
  ),
  accept(),
);
add(
  "nfs-ratio-inf",
  "#rule-19",
  'ratio "Inf"',
  create(nfsWith((s) => (s.hiCache.ratio = "Inf"))),
  reject(one(NFS, 'spec.hiCache.ratio: Invalid value: "Inf": must be a finite number greater than zero')),
);
add(
  "nfs-ratio-hex",
  "#rule-19",
  'ratio "0x1p-2" (a Go hexadecimal float)',
  create(nfsWith((s) => (s.hiCache.ratio = "0x1p-2"))),
  accept(),
);
add(
  "hicache-enums",
  "#rule-19",
  "writePolicy, ioBackend and memoryLayout outside their enums",
  create(
    (() => {
      const o = hostOnlyHiCache();
      Object.assign(o.spec.hiCache, { writePolicy: "write_around", ioBackend: "io_uring", memoryLayout: "page_last" });
      return o;
    })(),
  ),
  reject(
    many("sglang-hicache", [
      'spec.hiCache.writePolicy: Unsupported value: "write_around": supported values: "write_back", "write_through", "write_through_selective"',
      'spec.hiCache.ioBackend: Unsupported value: "io_uring": supported values: "direct", "kernel", "kernel_ascend"',
      'spec.hiCache.memoryLayout: Unsupported value: "page_last": supported values: "layer_first", "page_first", "page_first_direct", "page_first_kv_split", "page_head"',
    ]),
  ),
);
add(
  "hicache-selector-mode-role-autoscaling",
  "#rule-1, #rule-19",
  "HiCache without a selector, role ReadOnly, with autoscaling",
  create(
    (() => {
      const o = hostOnlyHiCache();
      delete o.spec.engineSelector;
      o.spec.integration = { role: "ReadOnly" };
      o.spec.autoscaling = { maxReplicas: 2 };
      return o;
    })(),
  ),
  reject(
    many("sglang-hicache", [
      "spec.autoscaling: Forbidden: canonical host-only backends omit spec.remoteStorage and provision no provider workload, so there is nothing to autoscale",
      "spec.engineSelector.matchLabels: Required value: SGLangHiCache must select the engine Pods to inject",
      "spec.autoscaling: Forbidden: SGLangHiCache is engine-local and has no backend workload to autoscale",
      'spec.integration.role: Unsupported value: "ReadOnly": supported values: "ReadWrite"',
    ]),
  ),
);
add(
  "legacy-hicache-backend-config",
  "#rule-19",
  "legacy HiCache with backendConfig keys other than model",
  create(
    backend("legacy-hicache", {
      type: "SGLangHiCache",
      integration: { engine: "sglang" },
      engineSelector: { matchLabels: { app: "sglang" } },
      hiCache: { sizeGB: 4 },
      backendConfig: { model: "m", l1SizeGB: "4" },
    }),
  ),
  reject(
    one("legacy-hicache", 'spec.backendConfig[l1SizeGB]: Unsupported value: "l1SizeGB": supported values: "model"'),
  ),
);
add(
  "lmcache-with-hicache",
  "#rule-19",
  "type LMCache with a hiCache block",
  create(backend("vllm-lmcache", { runtime: "VLLM", type: "LMCache", hiCache: { sizeGB: 8 } })),
  reject(one("vllm-lmcache", 'spec.hiCache: Forbidden: spec.hiCache is only valid when spec.type="SGLangHiCache"')),
);
add(
  "hicache-reserved-suppress-arg",
  "#rule-24",
  "HiCache engineOverrides suppressing --hicache-ratio",
  create(nfsWith((s) => (s.integration.engineOverrides = { suppressArgs: ["--hicache-ratio"] }))),
  reject(
    one(
      NFS,
      `spec.integration.engineOverrides.suppressArgs[0]: Forbidden: ${reservedArg("--hicache-ratio", "sglang")}`,
    ),
  ),
);
add(
  "vllm-reserved-arg-with-json",
  "#rule-24",
  "vLLM --kv-transfer-config with a JSON positional",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      type: "LMCache",
      integration: {
        engineOverrides: { args: ["--kv-transfer-config", '{"kv_connector":"x"}', "--max-model-len=4096"] },
      },
    }),
  ),
  reject(
    one(
      "vllm-lmcache",
      `spec.integration.engineOverrides.args[0]: Forbidden: ${reservedArg("--kv-transfer-config", "vllm")}`,
    ),
  ),
);
add(
  "vllm-reserved-env-and-suppress",
  "#rule-24",
  "vLLM reserved env and suppressEnv; an SGLang-only name is free",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      type: "LMCache",
      integration: {
        engineOverrides: {
          env: [
            { name: "PYTHONHASHSEED", value: "1" },
            { name: "LMCACHE_CHUNK_SIZE", value: "256" },
          ],
          suppressEnv: ["LMCACHE_USE_EXPERIMENTAL", "VLLM_USE_V1"],
          suppressArgs: ["--enable-lmcache"],
        },
      },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      `spec.integration.engineOverrides.env[0].name: Forbidden: ${reservedEnv("PYTHONHASHSEED", "vllm")}`,
      `spec.integration.engineOverrides.suppressEnv[1]: Forbidden: ${reservedEnv("VLLM_USE_V1", "vllm")}`,
    ]),
  ),
);
add(
  "env-name-invalid",
  "#rule-24",
  "engineOverrides env name starting with a digit",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      type: "LMCache",
      integration: { engineOverrides: { env: [{ name: "1BAD" }, {}] } },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      `spec.integration.engineOverrides.env[0].name: Invalid value: "1BAD": invalid env var name: ${ENV_PATTERN}`,
      "spec.integration.engineOverrides.env[1].name: Required value: engineOverrides env entries must declare a Name",
    ]),
  ),
);
add(
  "env-value-and-value-from",
  "#rule-24",
  "engineOverrides env with value and valueFrom, and valueFrom with zero and two sources",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      type: "LMCache",
      integration: {
        engineOverrides: {
          env: [
            { name: "X", value: "v", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
            { name: "Y", valueFrom: {} },
            {
              name: "Z",
              valueFrom: { fieldRef: { fieldPath: "metadata.name" }, secretKeyRef: { name: "s", key: "k" } },
            },
          ],
        },
      },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      'spec.integration.engineOverrides.env[0]: Invalid value: "X": env entry may set value OR valueFrom, not both — engine pods carrying this entry would fail Kubernetes Pod validation',
      "spec.integration.engineOverrides.env[1].valueFrom: Required value: valueFrom must select exactly one source (e.g. fieldRef, resourceFieldRef, configMapKeyRef, or secretKeyRef)",
      "spec.integration.engineOverrides.env[2].valueFrom: Invalid value: 2: valueFrom must select exactly one source — multiple set",
    ]),
  ),
);
add(
  "lmcache-server-https-endpoint",
  "#rule-1, #endpoint-shapes",
  "LMCacheServer External endpoint with an https scheme",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: { provider: "LMCacheServer", ownership: "External", endpoint: "https://x:1" },
    }),
  ),
  reject(
    one(
      "vllm-lmcache",
      'spec.remoteStorage.endpoint: Invalid value: "https://x:1": endpoint scheme "https" is not supported; use a bare host:port (the LMCache adapter adds the lm:// scheme) or an explicit lm://host:port URL',
    ),
  ),
);
add(
  "lmcache-server-lm-endpoint",
  "#rule-1, #endpoint-shapes",
  "LMCacheServer External endpoint lm://cache:8200 is accepted",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: { provider: "LMCacheServer", ownership: "External", endpoint: "lm://cache:8200" },
    }),
  ),
  accept(),
);
add(
  "lmcache-server-upper-case-scheme",
  "#rule-1, #endpoint-shapes",
  "the scheme is compared lower-cased: LM://cache:8200 is accepted",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: { provider: "LMCacheServer", ownership: "External", endpoint: "LM://cache:8200" },
    }),
  ),
  accept(),
);
add(
  "lmcache-server-non-ascii-scheme",
  "#rule-1, #endpoint-shapes, #effective-values",
  "a scheme with a non-ASCII capital: A–Z are lower-cased in the message, Ä is printed as written",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: { provider: "LMCacheServer", ownership: "External", endpoint: "ÄB://x:1" },
    }),
  ),
  reject(
    one(
      "vllm-lmcache",
      'spec.remoteStorage.endpoint: Invalid value: "ÄB://x:1": endpoint scheme "Äb" is not supported; use a bare host:port (the LMCache adapter adds the lm:// scheme) or an explicit lm://host:port URL',
    ),
  ),
);
add(
  "mooncake-kelvin-sign-scheme",
  "#rule-1, #endpoint-shapes",
  "Go lower-cases the Kelvin sign to k: a mooncaKestore:// scheme (U+212A) is the Mooncake scheme",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: { provider: "Mooncake", ownership: "External", endpoint: "moonca\u212Aestore://cache:50051" },
    }),
  ),
  accept([MOONCAKE_WARNING]),
);
add(
  "redis-port-70000",
  "#rule-1, #endpoint-shapes",
  "Redis External endpoint with port 70000 (just past 65535)",
  create(
    backend("sglang-redis", {
      runtime: "SGLang",
      remoteStorage: { provider: "Redis", ownership: "External", endpoint: "cache:70000" },
    }),
  ),
  reject(
    one(
      "sglang-redis",
      'spec.remoteStorage.endpoint: Invalid value: "cache:70000": Redis endpoint port "70000" must be an integer in 1-65535',
    ),
  ),
);
add(
  "redis-port-65535",
  "#rule-1, #endpoint-shapes",
  "Redis External endpoint with port 65535 is accepted",
  create(
    backend("sglang-redis", {
      runtime: "SGLang",
      remoteStorage: { provider: "Redis", ownership: "External", endpoint: "cache:65535" },
    }),
  ),
  accept(),
);
add(
  "external-endpoint-required",
  "#rule-1",
  "External ownership without an endpoint",
  create(backend("vllm-lmcache", { runtime: "VLLM", remoteStorage: { provider: "Mooncake", ownership: "External" } })),
  reject(
    one("vllm-lmcache", "spec.remoteStorage.endpoint: Required value: required when remoteStorage.ownership=External"),
    [MOONCAKE_WARNING],
  ),
);
add(
  "managed-endpoint-and-foreign-block",
  "#rule-1",
  "Managed provider with an endpoint and another provider's block, and an empty command",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      remoteStorage: {
        provider: "LMCacheServer",
        ownership: "Managed",
        endpoint: "cache:8200",
        redis: { image: "redis:7" },
        lmCacheServer: { command: [] },
      },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      "spec.remoteStorage.endpoint: Forbidden: managed providers publish their observed endpoint in status.endpoint",
      "spec.remoteStorage.redis: Forbidden: configuration belongs to provider Redis, but remoteStorage.provider=LMCacheServer",
      "spec.remoteStorage.lmCacheServer.command: Invalid value: []: must contain an executable",
    ]),
  ),
);
add(
  "legacy-cross-namespace",
  "#rule-6",
  "legacy External endpoint in another namespace without opt-in",
  create(backend("external", { type: "External", endpoint: "cache.team-b.svc:8200" }, "team-a")),
  reject(
    one(
      "external",
      'spec.endpoint: Forbidden: spec.endpoint references namespace "team-b" but CacheBackend is in namespace "team-a"; set spec.allowCrossNamespace=true to opt in to the cross-namespace reference',
    ),
  ),
);
add(
  "legacy-cross-namespace-upper-case",
  "#rule-6, #effective-values",
  "the in-cluster parse lower-cases the endpoint (İ is i in Go) before it takes the namespace",
  create(backend("external", { type: "External", endpoint: "cache.TEAM-İ.SVC:8200" }, "team-a")),
  reject(
    one(
      "external",
      'spec.endpoint: Forbidden: spec.endpoint references namespace "team-i" but CacheBackend is in namespace "team-a"; set spec.allowCrossNamespace=true to opt in to the cross-namespace reference',
    ),
  ),
);
add(
  "legacy-cross-namespace-opt-in",
  "#rule-6",
  "the same with allowCrossNamespace: true",
  create(
    backend("external", { type: "External", endpoint: "cache.team-b.svc:8200", allowCrossNamespace: true }, "team-a"),
  ),
  accept(),
);
add(
  "legacy-scale-to-zero-autoscaling",
  "#rule-7",
  "legacy LMCache, replicas 0 with autoscaling and no minReplicas",
  create(backend("legacy", { type: "LMCache", replicas: 0, autoscaling: { maxReplicas: 3 } })),
  reject(
    one(
      "legacy",
      "spec.autoscaling.minReplicas: Required value: spec.replicas=0 with spec.autoscaling enabled requires spec.autoscaling.minReplicas to be set explicitly (must be >=1). Set minReplicas to make the autoscaling floor explicit, or remove spec.autoscaling to scale to zero unconditionally.",
    ),
  ),
);
add(
  "mooncake-managed-warning",
  "#warnings, #support-matrix",
  "canonical vLLM LMCache with Mooncake Managed and no engineHostNetwork",
  create(backend("vllm-mooncake", { runtime: "VLLM", remoteStorage: { provider: "Mooncake", ownership: "Managed" } })),
  accept([MOONCAKE_WARNING]),
);
add(
  "mooncake-replicas-two",
  "#rule-8",
  "Mooncake master with 2 replicas (just above 1) and autoscaling",
  create(
    backend("vllm-mooncake", {
      runtime: "VLLM",
      replicas: 2,
      autoscaling: { minReplicas: 1, maxReplicas: 2 },
      integration: { engineHostNetwork: true },
      remoteStorage: { provider: "Mooncake", ownership: "Managed" },
    }),
  ),
  reject(
    many("vllm-mooncake", [
      "spec.replicas: Invalid value: 2: the Mooncake master is a singleton on the host network: a second replica cannot bind the node ports the first already holds, and on a different node it becomes an independent master that silently splits the store. Set spec.replicas to 0 or 1.",
      'spec.autoscaling: Invalid value: {"maxReplicas":2,"minReplicas":1}: spec.autoscaling is not supported for type=Mooncake: the master is a singleton on the host network, so scaling it out either cannot bind the node\'s ports or splits the store across independent masters. Remove spec.autoscaling.',
    ]),
  ),
);
add(
  "host-network-without-mooncake",
  "#rule-9",
  "SGLang LMCache host-only with engineHostNetwork: true",
  create(backend("sglang-lmcache", { runtime: "SGLang", integration: { engineHostNetwork: true } })),
  reject(
    one(
      "sglang-lmcache",
      "spec.integration.engineHostNetwork: Invalid value: true: spec.integration.engineHostNetwork is only meaningful when the effective remote storage provider is Mooncake, whose transfer engine dials engine pods on real node IPs; provider=none (host-only) does not need it and the flag would do nothing. Remove it.",
    ),
  ),
);
add(
  "events-only-with-remote-storage",
  "#rule-18",
  "EventsOnly LMCache with remoteStorage",
  create(
    backend("events", {
      runtime: "VLLM",
      integration: { mode: "EventsOnly" },
      remoteStorage: { provider: "LMCacheServer", ownership: "Managed" },
    }),
  ),
  reject(
    one(
      "events",
      'spec.remoteStorage: Forbidden: events-only backends (spec.integration.mode="EventsOnly") provision no remote-storage provider; remove spec.remoteStorage',
    ),
  ),
);
add(
  "events-only-host-only",
  "#rule-18, #support-matrix",
  "EventsOnly LMCache host-only is accepted",
  create(backend("events", { runtime: "VLLM", integration: { mode: "EventsOnly" } })),
  accept(),
);
add(
  "kernel-check-typo",
  "#rule-20",
  "kernel-check annotation strcit",
  create(
    (() => {
      const o = backend("vllm-lmcache", { runtime: "VLLM" });
      o.metadata.annotations = { "inferencecache.io/lmcache-kernel-check": "strcit" };
      return o;
    })(),
  ),
  reject(
    one(
      "vllm-lmcache",
      'metadata.annotations[inferencecache.io/lmcache-kernel-check]: Invalid value: "strcit": must be one of "auto", "report-only", "strict", "off" (or unset)',
    ),
  ),
);
add(
  "sglang-lmcache-read-only",
  "#rule-21",
  "SGLang LMCache with role ReadOnly",
  create(backend("sglang-lmcache", { runtime: "SGLang", type: "LMCache", integration: { role: "ReadOnly" } })),
  reject(
    one(
      "sglang-lmcache",
      'spec.integration.role: Invalid value: "ReadOnly": the sglang engine\'s LMCache integration has no producer/consumer split, so only "ReadWrite" (the default) is honored today; "ReadOnly" / "WriteOnly" are not yet wired for SGLang',
    ),
  ),
);
add(
  "sglang-redis-replicas-two",
  "#rule-22",
  "SGLang LMCache Redis Managed with 2 replicas",
  create(
    backend("sglang-redis", {
      runtime: "SGLang",
      replicas: 2,
      remoteStorage: { provider: "Redis", ownership: "Managed" },
    }),
  ),
  reject(
    one(
      "sglang-redis",
      "spec.replicas: Invalid value: 2: the (sglang, LMCache) backend's Redis L2 store is a single non-clustered instance: a second replica behind the one Service shards the keyspace and silently partitions the cache. Set spec.replicas to 0 or 1.",
    ),
  ),
);
add(
  "sglang-redis-replicas-one",
  "#rule-22",
  "SGLang LMCache Redis Managed with 1 replica is accepted",
  create(
    backend("sglang-redis", {
      runtime: "SGLang",
      replicas: 1,
      remoteStorage: { provider: "Redis", ownership: "Managed" },
    }),
  ),
  accept(),
);
add(
  "legacy-external-sglang",
  "#rule-3, #rule-23",
  "legacy External without endpoint on sglang",
  create(backend("external", { type: "External", integration: { engine: "sglang" } })),
  reject(
    many("external", [
      "spec.endpoint: Required value: CacheBackend with spec.type=External requires spec.endpoint to be set to the address of the pre-existing backend",
      `spec.integration.engine: Invalid value: "sglang": no runtime adapter supports the (engine="sglang", backend="External") pair; ${PAIRS}`,
    ]),
  ),
);
add(
  "legacy-endpoint-on-lmcache",
  "#rule-4",
  "legacy LMCache with spec.endpoint",
  create(backend("legacy", { type: "LMCache", endpoint: "cache:8200" })),
  reject(
    one(
      "legacy",
      'spec.endpoint: Invalid value: "cache:8200": spec.endpoint is only valid when spec.type=External; got spec.type="LMCache" with non-empty spec.endpoint. Managed backends learn their endpoint from the controller-rendered Service.',
    ),
  ),
);
add(
  "legacy-external-bad-endpoint",
  "#rule-5",
  "legacy External endpoint with a path",
  create(backend("external", { type: "External", endpoint: "cache:8200/v1" })),
  reject(
    one(
      "external",
      'spec.endpoint: Invalid value: "cache:8200/v1": spec.endpoint must be host:port (optionally prefixed lm://); paths/queries/fragments are not part of the LMCache wire and would be silently dropped',
    ),
  ),
);
add(
  "canonical-hierarchy",
  "#rule-1",
  "canonical backend with a legacy type, backendConfig, resources, a runtime conflict and lmCache on HiCache",
  create(
    backend("mixed", {
      runtime: "VLLM",
      type: "Mooncake",
      integration: { engine: "sglang" },
      backendConfig: { model: "m" },
      resources: { requests: { cpu: "1" } },
      remoteStorage: { provider: "Mooncake", ownership: "Managed" },
    }),
  ),
  reject(
    many("mixed", [
      'spec.integration.engine: Invalid value: "sglang": conflicts with spec.runtime; use spec.runtime as the runtime identity',
      'spec.type: Invalid value: "Mooncake": the canonical API uses spec.type only for the engine-side cache; move provider and ownership to spec.remoteStorage',
      "spec.backendConfig: Forbidden: deprecated top-level configuration is not valid in the canonical API; use spec.lmCache, spec.remoteStorage.<provider>, or spec.observation",
      "spec.resources: Forbidden: deprecated top-level resources are not valid in the canonical API; use spec.remoteStorage.<provider>.resources",
    ]),
    [MOONCAKE_WARNING],
  ),
);
add(
  "lmcache-block-on-hicache",
  "#rule-1",
  "spec.lmCache on an SGLang HiCache backend",
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.lmCache = { chunkSizeTokens: 256 };
      return o;
    })(),
  ),
  reject(one("sglang-hicache", "spec.lmCache: Forbidden: spec.lmCache is valid only when spec.type=LMCache")),
);
add(
  "vllm-redis-binding",
  "#rule-23, #support-matrix",
  "canonical vLLM LMCache with Redis",
  create(
    backend("vllm-redis", {
      runtime: "VLLM",
      type: "LMCache",
      remoteStorage: { provider: "Redis", ownership: "Managed" },
    }),
  ),
  reject(
    one(
      "vllm-redis",
      'spec.remoteStorage.provider: Invalid value: "Redis": runtime vllm with cache type LMCache does not accept this remote-storage binding: runtime adapter does not accept remote binding protocol "resp"',
    ),
  ),
);
add(
  "aibrix-no-adapter",
  "#rule-23, #support-matrix",
  "type AIBrix has no adapter",
  create(backend("aibrix", { type: "AIBrix" })),
  reject(
    one(
      "aibrix",
      `spec.integration.engine: Invalid value: "": no runtime adapter supports the (engine="vllm", backend="AIBrix") pair; ${PAIRS}`,
    ),
  ),
);
add(
  "legacy-mooncake-vllm",
  "#support-matrix, #warnings",
  "legacy vllm/Mooncake is admitted with the warning",
  create(backend("legacy-mooncake", { type: "Mooncake" })),
  accept([MOONCAKE_WARNING]),
);

// ---- tier 2: resources ----
const legacyResources = (resources: Json): Json => create(backend("legacy", { type: "LMCache", resources }));
add(
  "resources-limit-below-request",
  "#rule-10",
  "memory limit below its request; canonical quantity text in the message",
  legacyResources({ requests: { memory: "1.5Gi", cpu: "1500m" }, limits: { memory: "1Gi", cpu: "1.5" } }),
  reject(
    one(
      "legacy",
      'spec.resources.limits[memory]: Invalid value: "1Gi": must be greater than or equal to spec.resources.requests[memory] (1536Mi)',
    ),
  ),
);
add(
  "resources-limit-equals-request",
  "#rule-10",
  "limit equal to request, written differently (2000m and 2)",
  legacyResources({ requests: { cpu: "2000m" }, limits: { cpu: "2" } }),
  accept(),
);
add(
  "resources-extended-mismatch",
  "#rule-10, #rule-11",
  "extended resource limit differs from request; hugepages request without a limit",
  legacyResources({
    requests: { "nvidia.com/gpu": "1", "hugepages-2Mi": "4Mi" },
    limits: { "nvidia.com/gpu": "2" },
  }),
  reject(
    many("legacy", [
      'spec.resources.limits[nvidia.com/gpu]: Invalid value: "2": must equal spec.resources.requests[nvidia.com/gpu] (1) — "nvidia.com/gpu" is a non-overcommittable resource (hugepages and extended resources require request == limit)',
      'spec.resources.requests[hugepages-2Mi]: Invalid value: "4Mi": "hugepages-2Mi" is a non-overcommittable resource — it must also be set in spec.resources.limits with the same value (hugepages and extended resources require requests and limits to be declared together)',
    ]),
  ),
);
add(
  "resources-claims",
  "#rule-12",
  "resource claims",
  legacyResources({ claims: [{ name: "gpu" }] }),
  reject(
    one(
      "legacy",
      "spec.resources.claims: Forbidden: spec.resources.claims is not supported in v1alpha1: the runtime adapter does not plumb pod.spec.resourceClaims, so a claim-bound container.resources.claims would render a pod the apiserver rejects",
    ),
  ),
);
add(
  "resources-negative",
  "#rule-13",
  "negative request",
  legacyResources({ requests: { cpu: "-100m" } }),
  reject(one("legacy", 'spec.resources.requests[cpu]: Invalid value: "-100m": must be a non-negative quantity')),
);
add(
  "host-memory-zero",
  "#rule-14",
  "lmCache.hostMemory.capacity 0",
  create(backend("vllm-lmcache", { runtime: "VLLM", lmCache: { hostMemory: { capacity: "0Gi" } } })),
  reject(one("vllm-lmcache", 'spec.lmCache.hostMemory.capacity: Invalid value: "0": must be greater than zero')),
);
add(
  "host-memory-positive",
  "#rule-14",
  "lmCache.hostMemory.capacity 1n (the smallest positive quantity)",
  create(backend("vllm-lmcache", { runtime: "VLLM", lmCache: { hostMemory: { capacity: "1n" } } })),
  accept(),
);
add(
  "resources-invalid-name",
  "#rule-15",
  "unprefixed non-standard resource name",
  legacyResources({ requests: { gpu: "1" }, limits: { gpu: "1" } }),
  reject(
    many("legacy", [
      'spec.resources.requests[gpu]: Invalid value: "gpu": "gpu" is not a valid container resource name: a resource without a domain prefix must be cpu, memory, ephemeral-storage or hugepages-<size>',
      'spec.resources.limits[gpu]: Invalid value: "gpu": "gpu" is not a valid container resource name: a resource without a domain prefix must be cpu, memory, ephemeral-storage or hugepages-<size>',
    ]),
  ),
);
add(
  "resources-fractional-extended",
  "#rule-16",
  "fractional extended resource",
  legacyResources({ requests: { "example.com/foo": "500m" }, limits: { "example.com/foo": "0.5" } }),
  reject(
    many("legacy", [
      'spec.resources.requests[example.com/foo]: Invalid value: "500m": "example.com/foo" is an extended resource and must be an integer quantity — K8s allocates extended resources by whole units',
      'spec.resources.limits[example.com/foo]: Invalid value: "500m": "example.com/foo" is an extended resource and must be an integer quantity — K8s allocates extended resources by whole units',
    ]),
  ),
);
add(
  "resources-hugepages-not-multiple",
  "#rule-17",
  "hugepages-2Mi of 3Mi",
  legacyResources({ requests: { "hugepages-2Mi": "3Mi" }, limits: { "hugepages-2Mi": "3Mi" } }),
  reject(
    many("legacy", [
      'spec.resources.requests[hugepages-2Mi]: Invalid value: "3Mi": must be a multiple of the page size 2Mi — the Linux kernel allocates hugepages in whole-page chunks',
      'spec.resources.limits[hugepages-2Mi]: Invalid value: "3Mi": must be a multiple of the page size 2Mi — the Linux kernel allocates hugepages in whole-page chunks',
    ]),
  ),
);
add(
  "provider-resources",
  "#rule-2",
  "canonical Redis block resources: limit below request",
  create(
    backend("sglang-redis", {
      runtime: "SGLang",
      remoteStorage: {
        provider: "Redis",
        ownership: "Managed",
        redis: { resources: { requests: { memory: "2G" }, limits: { memory: "1500M" } } },
      },
    }),
  ),
  reject(
    one(
      "sglang-redis",
      'spec.remoteStorage.redis.resources.limits[memory]: Invalid value: "1500M": must be greater than or equal to spec.remoteStorage.redis.resources.requests[memory] (2G)',
    ),
  ),
);

// ---- UPDATE ----
const oldEndpoint = backend("legacy", { type: "LMCache", endpoint: "cache:8200" });
add(
  "update-preexisting-endpoint",
  "#update",
  "UPDATE keeps a stored rule-4 violation and only adds a label",
  request(
    "UPDATE",
    (() => {
      const o = clone(oldEndpoint);
      o.metadata.labels = { team: "a" };
      return o;
    })(),
    oldEndpoint,
  ),
  accept(),
);
add(
  "update-changes-endpoint",
  "#update, #rule-4",
  "UPDATE changes the bad endpoint to another value",
  request(
    "UPDATE",
    (() => {
      const o = clone(oldEndpoint);
      o.spec.endpoint = "cache:8300";
      return o;
    })(),
    oldEndpoint,
  ),
  reject(
    one(
      "legacy",
      'spec.endpoint: Invalid value: "cache:8300": spec.endpoint is only valid when spec.type=External; got spec.type="LMCache" with non-empty spec.endpoint. Managed backends learn their endpoint from the controller-rendered Service.',
    ),
  ),
);
add(
  "update-mount-path-root",
  "#update",
  "UPDATE of the valid NFS sample setting mountPath /",
  request(
    "UPDATE",
    nfsWith((s) => (s.remoteStorage.nfs.mountPath = "/")),
    nfsSample(),
  ),
  reject(
    one(
      NFS,
      'spec.remoteStorage.nfs.mountPath: Invalid value: "/": must not mount remote storage over the container root',
    ),
  ),
);
add(
  "update-keeps-old-adds-new",
  "#update",
  "UPDATE keeps a stored failOpen violation and adds a mountPath one: only the new one rejects",
  request(
    "UPDATE",
    nfsWith((s) => {
      delete s.integration;
      s.remoteStorage.nfs.mountPath = "/dev";
    }),
    nfsWith((s) => delete s.integration),
  ),
  reject(
    one(
      NFS,
      'spec.remoteStorage.nfs.mountPath: Invalid value: "/dev": must not mount remote storage over /proc, /sys or /dev',
    ),
  ),
);
add(
  "update-create-same-object",
  "#update",
  "CREATE of the stored failOpen violation is rejected (the UPDATE above is not)",
  create(nfsWith((s) => delete s.integration)),
  reject(one(NFS, FAIL_OPEN_NFS)),
);

/** The NFS sample as the API server stores it: defaults applied, server-set metadata. */
function storedNfsSample(): Json {
  const o = nfsSample();
  o.metadata = {
    ...o.metadata,
    uid: "0b9c6a52-8d1e-4f7a-a3c2-5e6f7a8b9c0d",
    resourceVersion: "48213",
    generation: 3,
    creationTimestamp: "2026-11-30T09:12:44Z",
    labels: { "app.kubernetes.io/name": "sglang-hicache", "app.kubernetes.io/part-of": "inference" },
    annotations: {
      "kubectl.kubernetes.io/last-applied-configuration": JSON.stringify(nfsSample()),
      "inferencecache.io/lmcache-kernel-check": "auto",
    },
  };
  Object.assign(o.spec, { deploymentKind: "Deployment", replicas: 1 });
  Object.assign(o.spec.integration, { mode: "Offload", role: "ReadWrite", firstEventTimeout: "5m" });
  Object.assign(o.spec.hiCache, { writePolicy: "write_through", ioBackend: "kernel", memoryLayout: "page_first" });
  o.spec.integration.engineOverrides = {
    args: ["--mem-fraction-static=0.85", "--max-running-requests", "64"],
    env: [{ name: "SGLANG_LOG_LEVEL", value: "info" }],
  };
  return o;
}
add(
  "realistic-nfs-update",
  "#acceptance, #update",
  "a typical stored NFS CacheBackend, UPDATE that changes a label (the benchmark's primary case)",
  request(
    "UPDATE",
    (() => {
      const o = storedNfsSample();
      o.metadata.labels["app.kubernetes.io/version"] = "v2";
      return o;
    })(),
    storedNfsSample(),
  ),
  accept(),
);

// ---- malformed input, other operations, settings ----
add(
  "size-gb-string",
  "#malformed-input",
  'hiCache.sizeGB "8" is a type error, not a trap',
  create(
    (() => {
      const o = hostOnlyHiCache();
      o.spec.hiCache.sizeGB = "8";
      return o;
    })(),
  ),
  reject(one("sglang-hicache", 'spec.hiCache.sizeGB: Invalid value: "8": must be an integer')),
);
add(
  "spec-is-array",
  "#malformed-input",
  "spec is a list",
  create({ apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend", metadata: { name: "x" }, spec: [1] }),
  reject(one("x", "spec: Invalid value: [1]: must be an object")),
);
add(
  "wrong-types",
  "#malformed-input",
  "failOpen a string, args an object, replicas a fraction",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      replicas: 1.5,
      integration: { failOpen: "false", engineOverrides: { args: { a: 1 } } },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      "spec.replicas: Invalid value: 1.5: must be an integer",
      'spec.integration.failOpen: Invalid value: "false": must be a boolean',
      'spec.integration.engineOverrides.args: Invalid value: {"a":1}: must be a list',
    ]),
  ),
);
add(
  "first-event-timeouts-durations",
  "#malformed-input",
  "both first-event timeouts are Go durations, one at the largest Go accepts",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      observation: { firstEventTimeout: "1h30m" },
      integration: { firstEventTimeout: "2562047h47m16.854775807s" },
    }),
  ),
  accept(),
);
add(
  "first-event-timeouts-not-durations",
  "#malformed-input",
  "a first-event timeout Go's time.ParseDuration refuses is a type error (upstream cannot decode it)",
  create(
    backend("vllm-lmcache", {
      runtime: "VLLM",
      observation: { firstEventTimeout: "soon" },
      integration: { firstEventTimeout: "2562047h47m16.854775808s" },
    }),
  ),
  reject(
    many("vllm-lmcache", [
      'spec.observation.firstEventTimeout: Invalid value: "soon": must be a duration',
      'spec.integration.firstEventTimeout: Invalid value: "2562047h47m16.854775808s": must be a duration',
    ]),
  ),
);
add(
  "object-not-an-object",
  "#malformed-input",
  "object is a string",
  request("CREATE", "backend"),
  reject(
    'CacheBackend.inferencecache.io "" is invalid: object: Invalid value: "string": must be a CacheBackend object',
  ),
);
add(
  "delete",
  "#registration",
  "DELETE is accepted",
  request(
    "DELETE",
    undefined,
    nfsWith((s) => delete s.integration),
  ),
  accept(),
);
cases.push({
  name: "settings-unknown-key",
  description: "any settings key is unknown",
  covers: "#registration",
  operation: "validate_settings",
  settings: "settings_unknown-key.json",
  settingsBody: { strict: true },
  expect: { valid: false, message: "strict: unknown field" },
});
cases.push({
  name: "settings-empty",
  description: "empty settings are valid",
  covers: "#registration",
  operation: "validate_settings",
  settings: "settings_empty.json",
  settingsBody: {},
  expect: { valid: true },
});

// ---- write ----
const files = new Map<string, string>();
const index: Json[] = [];
for (const c of cases) {
  const entry: Json = { name: c.name, description: c.description, covers: c.covers };
  if (c.operation) entry.operation = c.operation;
  if (c.request) {
    entry.request = c.request;
    files.set(c.request, JSON.stringify(c.req, null, 2) + "\n");
  }
  if (c.settings) {
    entry.settings = c.settings;
    files.set(c.settings, JSON.stringify(c.settingsBody) + "\n");
  }
  entry.expect = c.expect;
  index.push(entry);
}
const header =
  "# cachebackend-validator e2e cases (format: docs/test-data.md), generated by\n" +
  "# policies/cachebackend-validator/test/make-test-data.ts. `covers` names the rows of\n" +
  "# docs/policies/cachebackend-validator.md: #rule-N, #update, #malformed-input and so on.\n";
writeTestData(
  OUT,
  index.map((e) => e.name),
  files,
  header + yaml.dump(index, { lineWidth: -1 }),
);
