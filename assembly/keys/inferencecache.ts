// inference-cache keys, HiCache fixed names, and the reserved args/env per runtime adapter
// (docs/shared-rules.md#reserved-keys), and the CacheBackend reading the three inference-cache
// policies share: canonical or legacy, the effective runtime and cache type, NFS storage.
import { goLowerAscii, goLowerEquals } from "../validate/chars";

// @ts-ignore: decorator
@lazy
export const CACHEBACKEND_GROUP = "inferencecache.io";
// @ts-ignore: decorator
@lazy
export const CACHEBACKEND_VERSION = "v1alpha1";
// @ts-ignore: decorator
@lazy
export const CACHEBACKEND_API_VERSION = "inferencecache.io/v1alpha1";
// @ts-ignore: decorator
@lazy
export const CACHEBACKEND_KIND = "CacheBackend";

// `spec.runtime` / `spec.integration.engine` as the effective runtime names them
// @ts-ignore: decorator
@lazy
export const RUNTIME_VLLM = "VLLM";
// @ts-ignore: decorator
@lazy
export const RUNTIME_SGLANG = "SGLang";

/** The effective runtime's normalization (docs/policies/cachebackend-validator.md#effective-values,
 *  the same in hicache-injector): `vllm` → `VLLM`, `sglang` → `SGLang`, compared as Go's
 *  `strings.ToLower` compares; other strings as written. */
export function normalizeRuntime(value: string): string {
  if (goLowerEquals(value, RUNTIME_ID_VLLM)) return RUNTIME_VLLM;
  if (goLowerEquals(value, RUNTIME_ID_SGLANG)) return RUNTIME_SGLANG;
  return value;
}

/** The effective runtime of a CacheBackend: `spec.runtime`, else `spec.integration.engine`, each
 *  normalized; VLLM when both are empty (docs/policies/cachebackend-validator.md#effective-values). */
export function effectiveRuntime(runtime: string, engine: string): string {
  if (runtime.length > 0) return normalizeRuntime(runtime);
  if (engine.length > 0) return normalizeRuntime(engine);
  return RUNTIME_VLLM;
}

/** The runtime ID: the effective runtime lower-cased as Go's `strings.ToLower` turns it into ASCII
 *  (`vllm`, `sglang`, other runtimes lower-cased). */
export function runtimeIdOf(runtime: string, engine: string): string {
  return goLowerAscii(effectiveRuntime(runtime, engine));
}

/** Canonical ⇔ `spec.runtime` non-empty (`hasRuntime`), or `spec.lmCache` or `spec.remoteStorage`
 *  present (not null); otherwise legacy (docs/policies/cachebackend-validator.md#effective-values). */
export function isCanonicalSpec(hasRuntime: bool, hasLmCache: bool, hasRemoteStorage: bool): bool {
  return hasRuntime || hasLmCache || hasRemoteStorage;
}

// `spec.type` values the policies compare with, and the NFS provider
// @ts-ignore: decorator
@lazy
export const TYPE_LMCACHE = "LMCache";
// @ts-ignore: decorator
@lazy
export const TYPE_SGLANG_HICACHE = "SGLangHiCache";
// @ts-ignore: decorator
@lazy
export const TYPE_MOONCAKE = "Mooncake";
// @ts-ignore: decorator
@lazy
export const TYPE_EXTERNAL = "External";
// @ts-ignore: decorator
@lazy
export const PROVIDER_NFS = "NFS";

/** The effective cache type: `""`, `Mooncake` and `External` are LMCache; any other type as written. */
export function effectiveCacheType(type: string): string {
  if (type.length == 0 || type == TYPE_MOONCAKE || type == TYPE_EXTERNAL) return TYPE_LMCACHE;
  return type;
}

/** NFS for the HiCache rules: `spec.remoteStorage` present with `provider: NFS` (ownership aside). */
export function isNfsStorage(hasRemoteStorage: bool, provider: string): bool {
  return hasRemoteStorage && provider == PROVIDER_NFS;
}

// @ts-ignore: decorator
@lazy
export const SKIP_INJECT_ANNOTATION = "inferencecache.io/skip-inject";
// @ts-ignore: decorator
@lazy
export const INJECTED_BY_ANNOTATION = "inferencecache.io/injected-by";
// @ts-ignore: decorator
@lazy
export const INJECTED_BY_UID_ANNOTATION = "inferencecache.io/injected-by-uid";
// @ts-ignore: decorator
@lazy
export const INJECT_SKIPPED_ANNOTATION = "inferencecache.io/inject-skipped";
/** Value of `inject-skipped` on opt-out. */
// @ts-ignore: decorator
@lazy
export const INJECT_SKIPPED_VALUE = "skip-inject-annotation";
// @ts-ignore: decorator
@lazy
export const KERNEL_CHECK_ANNOTATION = "inferencecache.io/lmcache-kernel-check";
/** Controller gate opt-out; not read by cachewarden. */
// @ts-ignore: decorator
@lazy
export const REQUIRE_KV_EVENTS_ANNOTATION = "inferencecache.io/require-kv-events";

/** Accepted non-empty values of the kernel-check annotation (case-sensitive). */
export function kernelCheckModes(): string[] {
  return ["auto", "report-only", "strict", "off"];
}

// HiCache fixed names
// @ts-ignore: decorator
@lazy
export const HICACHE_ENGINE_CONTAINER = "sglang";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_ENABLE = "--enable-hierarchical-cache";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_SIZE = "--hicache-size";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_RATIO = "--hicache-ratio";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_WRITE_POLICY = "--hicache-write-policy";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_IO_BACKEND = "--hicache-io-backend";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_MEM_LAYOUT = "--hicache-mem-layout";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_STORAGE_BACKEND = "--hicache-storage-backend";
// @ts-ignore: decorator
@lazy
export const HICACHE_FLAG_STORAGE_PREFETCH_POLICY = "--hicache-storage-prefetch-policy";
// @ts-ignore: decorator
@lazy
export const HICACHE_STORAGE_BACKEND_FILE = "file";
// @ts-ignore: decorator
@lazy
export const HICACHE_STORAGE_DIR_ENV = "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR";
/** Volume name and engine mount name for the NFS L3 tier. */
// @ts-ignore: decorator
@lazy
export const HICACHE_L3_VOLUME = "inferencecache-hicache-l3";
// @ts-ignore: decorator
@lazy
export const SGLANG_FLAG_ENABLE_LMCACHE = "--enable-lmcache";
// @ts-ignore: decorator
@lazy
export const SGLANG_FLAG_LMCACHE_CONFIG_FILE = "--lmcache-config-file";

/** The 7 HiCache value flags, in the order the injector writes them. */
export function hicacheValueFlags(): string[] {
  return [
    HICACHE_FLAG_SIZE,
    HICACHE_FLAG_RATIO,
    HICACHE_FLAG_WRITE_POLICY,
    HICACHE_FLAG_IO_BACKEND,
    HICACHE_FLAG_MEM_LAYOUT,
    HICACHE_FLAG_STORAGE_BACKEND,
    HICACHE_FLAG_STORAGE_PREFETCH_POLICY,
  ];
}

/** SGLang LMCache flags that conflict with HiCache. */
export function hicacheConflictingLmcacheFlags(): string[] {
  return [SGLANG_FLAG_ENABLE_LMCACHE, SGLANG_FLAG_LMCACHE_CONFIG_FILE];
}

// hiCache enums (CRD), in the order the NotSupported messages list them
export function hicacheWritePolicies(): string[] {
  return ["write_back", "write_through", "write_through_selective"];
}
export function hicacheIoBackends(): string[] {
  return ["direct", "kernel", "kernel_ascend"];
}
export function hicacheMemoryLayouts(): string[] {
  return ["layer_first", "page_first", "page_first_direct", "page_first_kv_split", "page_head"];
}
export function hicacheStoragePrefetchPolicies(): string[] {
  return ["best_effort", "wait_complete", "timeout"];
}
// the same enums as `,`-separated lists for `isListedWord` (hicache-injector only tests
// membership; keys.spec.ts holds each list to its array)
// @ts-ignore: decorator
@lazy
export const HICACHE_WRITE_POLICIES_LIST = ",write_back,write_through,write_through_selective,";
// @ts-ignore: decorator
@lazy
export const HICACHE_IO_BACKENDS_LIST = ",direct,kernel,kernel_ascend,";
// @ts-ignore: decorator
@lazy
export const HICACHE_MEMORY_LAYOUTS_LIST = ",layer_first,page_first,page_first_direct,page_first_kv_split,page_head,";
// @ts-ignore: decorator
@lazy
export const HICACHE_STORAGE_PREFETCH_POLICIES_LIST = ",best_effort,wait_complete,timeout,";

// @ts-ignore: decorator
@lazy
export const RUNTIME_ID_VLLM = "vllm";
// @ts-ignore: decorator
@lazy
export const RUNTIME_ID_SGLANG = "sglang";

/** The runtime adapters a CacheBackend can select, in selection order. */
export enum RuntimeAdapter {
  VllmLmcache = 0,
  VllmMooncakeLegacy = 1,
  ExternalLegacy = 2,
  SglangLmcache = 3,
  SglangHicache = 4,
}

/** Runtime ID (`vllm` / `sglang`) of an adapter. */
export function adapterRuntimeId(adapter: RuntimeAdapter): string {
  return adapter == RuntimeAdapter.SglangLmcache || adapter == RuntimeAdapter.SglangHicache
    ? RUNTIME_ID_SGLANG
    : RUNTIME_ID_VLLM;
}

/** Engine container name of an adapter (equal to its runtime ID). */
export function adapterEngineContainer(adapter: RuntimeAdapter): string {
  return adapterRuntimeId(adapter);
}

/** Args an adapter reserves (engineOverrides may not set or suppress them). */
export function reservedArgs(adapter: RuntimeAdapter): string[] {
  switch (adapter) {
    case RuntimeAdapter.SglangLmcache:
      return [SGLANG_FLAG_ENABLE_LMCACHE, SGLANG_FLAG_LMCACHE_CONFIG_FILE];
    case RuntimeAdapter.SglangHicache: {
      const flags = hicacheValueFlags();
      flags.unshift(HICACHE_FLAG_ENABLE);
      return flags;
    }
    default:
      return ["--kv-transfer-config"];
  }
}

/** Env names an adapter reserves. */
export function reservedEnv(adapter: RuntimeAdapter): string[] {
  switch (adapter) {
    case RuntimeAdapter.SglangLmcache:
      return ["LMCACHE_USE_EXPERIMENTAL", "INFERENCECACHE_FAIL_OPEN"];
    case RuntimeAdapter.SglangHicache:
      return [HICACHE_STORAGE_DIR_ENV];
    default:
      return ["LMCACHE_REMOTE_URL", "VLLM_USE_V1", "INFERENCECACHE_FAIL_OPEN", "PYTHONHASHSEED"];
  }
}

/** The fields of a CacheBackend `spec` (Profile N, docs/policies/hicache-injector.md#settings), as
 *  a `,`-separated list for `isListedWord`. */
// @ts-ignore: decorator
@lazy
export const CACHEBACKEND_SPEC_FIELDS =
  ",runtime,type,lmCache,remoteStorage,observation,deploymentKind,replicas,autoscaling,integration,engineSelector,hiCache,backendConfig,template,resources,endpoint,allowCrossNamespace,";
