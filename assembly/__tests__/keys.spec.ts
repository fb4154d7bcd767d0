import { parseJsonString } from "../json/index";
import {
  effectiveCacheType,
  effectiveRuntime,
  isCanonicalSpec,
  isNfsStorage,
  noSettingsProblems,
  normalizeRuntime,
  runtimeIdOf,
  AUDIT_SKIP_REASON_KEY,
  CACHEBACKEND_API_VERSION,
  CACHEBACKEND_KIND,
  CACHEBLEND_ENGINE_KIND,
  CONNECTION_CONFIGMAP_DATA_KEY,
  DETAIL_PAYLOAD_IMAGE_FOOTGUN,
  HICACHE_FLAG_ENABLE,
  HICACHE_L3_VOLUME,
  HICACHE_STORAGE_DIR_ENV,
  INJECT_SKIPPED_ANNOTATION,
  INJECT_SKIPPED_VALUE,
  INJECTED_BY_ANNOTATION,
  INJECTED_BY_UID_ANNOTATION,
  KERNEL_CHECK_ANNOTATION,
  LMCACHE_ENGINE_API_VERSION,
  LMCACHE_ENGINE_KIND,
  PAYLOAD_FOOTGUN_REPOSITORY,
  PD_ROLE_ANNOTATION,
  REQUIRE_KV_EVENTS_ANNOTATION,
  RuntimeAdapter,
  SHARED_DIR_ENV,
  SKIP_INJECT_ANNOTATION,
  adapterEngineContainer,
  adapterRuntimeId,
  cacheblendKeys,
  cacheblendWrittenArgs,
  cudagraphModes,
  detailCommandOverride,
  detailConfigMapNotFound,
  detailConnectionConfigMissing,
  detailEngineNotFound,
  detailEngineNotInline,
  detailInvalidConnectionConfig,
  detailInvalidEngineReference,
  detailInvalidPullSecret,
  detailInvalidRequest,
  detailLookupDenied,
  detailLookupFailed,
  detailNoContainerNamed,
  detailPayloadImagePartInvalid,
  detailPayloadImageUnset,
  hicacheConflictingLmcacheFlags,
  hicacheFailOpenReasons,
  hicacheIoBackends,
  hicacheMemoryLayouts,
  hicacheStoragePrefetchPolicies,
  hicacheValueFlags,
  hicacheWritePolicies,
  HICACHE_IO_BACKENDS_LIST,
  HICACHE_MEMORY_LAYOUTS_LIST,
  HICACHE_STORAGE_PREFETCH_POLICIES_LIST,
  HICACHE_WRITE_POLICIES_LIST,
  kernelCheckModes,
  kvTransferConfigPresentWarning,
  lmcacheKeys,
  lmcacheSkipReasons,
  lmcacheWrittenArgs,
  pullPolicies,
  reservedArgs,
  reservedEnv,
  skipWarning,
} from "../keys/index";

describe("LMCache / CacheBlend keys (README reserved-key sets)", () => {
  it("LMCache annotation keys", () => {
    const k = lmcacheKeys();
    expect(k.policyName).toBe("lmcache-injector");
    expect(k.engineKind).toBe("LMCacheEngine");
    expect(k.injectLabel).toBe("lmcache.ai/lmcache-inject");
    expect(k.engineAnnotation).toBe("lmcache.ai/lmcache-engine");
    expect(k.containerAnnotation).toBe("lmcache.ai/lmcache-container");
    expect(k.pullSecretsAnnotation).toBe("lmcache.ai/lmcache-image-pull-secrets");
    expect(k.injectedAnnotation).toBe("lmcache.ai/lmcache-injected");
    expect(k.skipReasonAnnotation).toBe("lmcache.ai/lmcache-skip-reason");
  });
  it("CacheBlend annotation keys", () => {
    const k = cacheblendKeys();
    expect(k.policyName).toBe("cacheblend-injector");
    expect(k.engineKind).toBe("CacheBlendEngine");
    expect(k.injectLabel).toBe("lmcache.ai/cacheblend-inject");
    expect(k.engineAnnotation).toBe("lmcache.ai/cacheblend-engine");
    expect(k.containerAnnotation).toBe("lmcache.ai/cacheblend-container");
    expect(k.pullSecretsAnnotation).toBe("lmcache.ai/cacheblend-image-pull-secrets");
    expect(k.injectedAnnotation).toBe("lmcache.ai/cacheblend-injected");
    expect(k.skipReasonAnnotation).toBe("lmcache.ai/cacheblend-skip-reason");
  });
  it("payload staging names", () => {
    const l = lmcacheKeys();
    expect(l.payloadVolume).toBe("lmcache-payload");
    expect(l.payloadMountPath).toBe("/lmcache-payload");
    expect(l.payloadInitContainer).toBe("lmcache-payload-stage");
    const c = cacheblendKeys();
    expect(c.payloadVolume).toBe("cb-plugin");
    expect(c.payloadMountPath).toBe("/cb-plugin");
    expect(c.payloadInitContainer).toBe("cb-plugin-stage");
    expect(SHARED_DIR_ENV).toBe("SHARED_DIR");
  });
  it("fixed names", () => {
    expect(lmcacheKeys().connectionConfigMapName("eng")).toBe("eng-connection");
    expect(CONNECTION_CONFIGMAP_DATA_KEY).toBe("kv-transfer-config.json");
    expect(PD_ROLE_ANNOTATION).toBe("lmcache.ai/pd-role");
    expect(LMCACHE_ENGINE_API_VERSION).toBe("lmcache.lmcache.ai/v1alpha1");
    expect(LMCACHE_ENGINE_KIND).toBe("LMCacheEngine");
    expect(CACHEBLEND_ENGINE_KIND).toBe("CacheBlendEngine");
    expect(PAYLOAD_FOOTGUN_REPOSITORY).toBe("lmcache/vllm-openai");
  });
  it("written args", () => {
    expect(lmcacheWrittenArgs()).toStrictEqual(["--kv-transfer-config"]);
    expect(cacheblendWrittenArgs()).toStrictEqual([
      "--attention-backend",
      "--kv-transfer-config",
      "--no-enable-chunked-prefill",
      "--block-size",
      "--pipeline-parallel-size",
      "--no-async-scheduling",
      "--enforce-eager",
      "--compilation-config",
    ]);
  });
  it("enums", () => {
    expect(pullPolicies()).toStrictEqual(["Always", "Never", "IfNotPresent"]);
    expect(cudagraphModes()).toStrictEqual(["eager", "piecewise", "full_decode_only"]);
  });
  it("accessors return fresh instances", () => {
    const a = lmcacheKeys();
    a.engineAnnotation = "changed";
    expect(lmcacheKeys().engineAnnotation).toBe("lmcache.ai/lmcache-engine");
  });
});

describe("skip reasons", () => {
  it("LMCache/CacheBlend reason values", () => {
    expect(lmcacheSkipReasons()).toStrictEqual([
      "engine-not-found",
      "target-container-not-found",
      "command-override",
      "kv-transfer-config-present",
      "payload-image-unset",
      "payload-image-invalid",
      "connection-config-missing",
      "invalid-connection-config",
      "invalid-engine-reference",
      "invalid-image-pull-secrets",
      "engine-invalid",
      "staging-conflict",
      "unknown-pd-role",
      "lookup-denied",
      "lookup-failed",
      "invalid-request",
    ]);
  });
  it("hicache fail-open reasons", () => {
    expect(hicacheFailOpenReasons()).toStrictEqual([
      "invalid-request",
      "lookup-denied",
      "lookup-failed",
      "ambiguous-backends",
      "invalid-backend",
      "engine-container-not-found",
      "lmcache-args-present",
      "arg-conflict",
      "env-conflict",
      "volume-conflict",
      "mount-conflict",
    ]);
  });
});

describe("inference-cache keys and HiCache names", () => {
  it("annotation keys", () => {
    expect(SKIP_INJECT_ANNOTATION).toBe("inferencecache.io/skip-inject");
    expect(INJECTED_BY_ANNOTATION).toBe("inferencecache.io/injected-by");
    expect(INJECTED_BY_UID_ANNOTATION).toBe("inferencecache.io/injected-by-uid");
    expect(INJECT_SKIPPED_ANNOTATION).toBe("inferencecache.io/inject-skipped");
    expect(INJECT_SKIPPED_VALUE).toBe("skip-inject-annotation");
    expect(KERNEL_CHECK_ANNOTATION).toBe("inferencecache.io/lmcache-kernel-check");
    expect(REQUIRE_KV_EVENTS_ANNOTATION).toBe("inferencecache.io/require-kv-events");
    expect(kernelCheckModes()).toStrictEqual(["auto", "report-only", "strict", "off"]);
    expect(CACHEBACKEND_API_VERSION).toBe("inferencecache.io/v1alpha1");
    expect(CACHEBACKEND_KIND).toBe("CacheBackend");
  });
  it("HiCache flags, env, volume", () => {
    expect(HICACHE_FLAG_ENABLE).toBe("--enable-hierarchical-cache");
    expect(hicacheValueFlags()).toStrictEqual([
      "--hicache-size",
      "--hicache-ratio",
      "--hicache-write-policy",
      "--hicache-io-backend",
      "--hicache-mem-layout",
      "--hicache-storage-backend",
      "--hicache-storage-prefetch-policy",
    ]);
    expect(hicacheConflictingLmcacheFlags()).toStrictEqual(["--enable-lmcache", "--lmcache-config-file"]);
    expect(HICACHE_STORAGE_DIR_ENV).toBe("SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR");
    expect(HICACHE_L3_VOLUME).toBe("inferencecache-hicache-l3");
  });
  it("hiCache enums", () => {
    expect(hicacheWritePolicies()).toStrictEqual(["write_back", "write_through", "write_through_selective"]);
    expect(hicacheIoBackends()).toStrictEqual(["direct", "kernel", "kernel_ascend"]);
    expect(hicacheMemoryLayouts()).toStrictEqual([
      "layer_first",
      "page_first",
      "page_first_direct",
      "page_first_kv_split",
      "page_head",
    ]);
    expect(hicacheStoragePrefetchPolicies()).toStrictEqual(["best_effort", "wait_complete", "timeout"]);
    expect(HICACHE_WRITE_POLICIES_LIST).toBe("," + hicacheWritePolicies().join(",") + ",");
    expect(HICACHE_IO_BACKENDS_LIST).toBe("," + hicacheIoBackends().join(",") + ",");
    expect(HICACHE_MEMORY_LAYOUTS_LIST).toBe("," + hicacheMemoryLayouts().join(",") + ",");
    expect(HICACHE_STORAGE_PREFETCH_POLICIES_LIST).toBe("," + hicacheStoragePrefetchPolicies().join(",") + ",");
  });
});

describe("the effective runtime's normalization (both inference-cache policies)", () => {
  it("folds vllm and sglang as Go lower-cases, keeps anything else as written", () => {
    expect(normalizeRuntime("vllm")).toBe("VLLM");
    expect(normalizeRuntime("vLLm")).toBe("VLLM");
    expect(normalizeRuntime("SGLANG")).toBe("SGLang");
    expect(normalizeRuntime("sglang")).toBe("SGLang");
    expect(normalizeRuntime("vllm ")).toBe("vllm ");
    expect(normalizeRuntime("Triton")).toBe("Triton");
    expect(normalizeRuntime("")).toBe("");
  });
  it("the effective runtime: spec.runtime, else integration.engine, else VLLM", () => {
    expect(effectiveRuntime("sglang", "vllm")).toBe("SGLang");
    expect(effectiveRuntime("", "SGLANG")).toBe("SGLang");
    expect(effectiveRuntime("Triton", "sglang")).toBe("Triton");
    expect(effectiveRuntime("", "")).toBe("VLLM");
  });
  it("the runtime ID: the effective runtime lower-cased as Go folds it into ASCII", () => {
    expect(runtimeIdOf("SGLang", "")).toBe("sglang");
    expect(runtimeIdOf("", "vLLm")).toBe("vllm");
    expect(runtimeIdOf("", "")).toBe("vllm");
    expect(runtimeIdOf("TRITON", "sglang")).toBe("triton");
    expect(runtimeIdOf("\u0130X", "")).toBe("ix"); // Go lower-cases İ to i
    expect(runtimeIdOf("\u00c4B", "")).toBe("\u00c4b"); // other capitals as written
  });
});

describe("canonical or legacy, effective cache type, NFS (the three inference-cache policies)", () => {
  it("canonical: runtime non-empty, or lmCache, or remoteStorage", () => {
    expect(isCanonicalSpec(false, false, false)).toBe(false);
    expect(isCanonicalSpec(true, false, false)).toBe(true);
    expect(isCanonicalSpec(false, true, false)).toBe(true);
    expect(isCanonicalSpec(false, false, true)).toBe(true);
  });
  it("effective cache type: empty, Mooncake and External are LMCache; the rest as written", () => {
    expect(effectiveCacheType("")).toBe("LMCache");
    expect(effectiveCacheType("Mooncake")).toBe("LMCache");
    expect(effectiveCacheType("External")).toBe("LMCache");
    expect(effectiveCacheType("LMCache")).toBe("LMCache");
    expect(effectiveCacheType("SGLangHiCache")).toBe("SGLangHiCache");
    expect(effectiveCacheType("external")).toBe("external");
    expect(effectiveCacheType("AIBrix")).toBe("AIBrix");
  });
  it("NFS: remoteStorage present with provider NFS, exactly", () => {
    expect(isNfsStorage(true, "NFS")).toBe(true);
    expect(isNfsStorage(false, "NFS")).toBe(false);
    expect(isNfsStorage(true, "nfs")).toBe(false);
    expect(isNfsStorage(true, "")).toBe(false);
  });
});

function settingsProblems(text: string): string {
  return noSettingsProblems(parseJsonString(text).value!).join("; ");
}

describe("the settings of a policy without settings", () => {
  it("{} has none", () => {
    expect(settingsProblems("{}")).toBe("");
  });
  it("every distinct key is unknown, in order", () => {
    expect(settingsProblems('{"x":1,"strict":true,"x":2}')).toBe("x: unknown field; strict: unknown field");
  });
  it("settings that are not an object", () => {
    expect(settingsProblems("[]")).toBe("settings must be an object");
  });
  it("a key past 1 KiB is shortened", () => {
    const key = "k".repeat(1030);
    expect(settingsProblems('{"' + key + '":1}')).toBe("k".repeat(1024) + "... (6 more bytes): unknown field");
  });
});

describe("reserved args/env per runtime adapter", () => {
  it("vLLM adapters", () => {
    const vllm = [RuntimeAdapter.VllmLmcache, RuntimeAdapter.VllmMooncakeLegacy, RuntimeAdapter.ExternalLegacy];
    for (let i = 0; i < vllm.length; i++) {
      expect(adapterRuntimeId(vllm[i])).toBe("vllm");
      expect(adapterEngineContainer(vllm[i])).toBe("vllm");
      expect(reservedArgs(vllm[i])).toStrictEqual(["--kv-transfer-config"]);
      expect(reservedEnv(vllm[i])).toStrictEqual([
        "LMCACHE_REMOTE_URL",
        "VLLM_USE_V1",
        "INFERENCECACHE_FAIL_OPEN",
        "PYTHONHASHSEED",
      ]);
    }
  });
  it("SGLang + LMCache", () => {
    expect(adapterRuntimeId(RuntimeAdapter.SglangLmcache)).toBe("sglang");
    expect(reservedArgs(RuntimeAdapter.SglangLmcache)).toStrictEqual(["--enable-lmcache", "--lmcache-config-file"]);
    expect(reservedEnv(RuntimeAdapter.SglangLmcache)).toStrictEqual([
      "LMCACHE_USE_EXPERIMENTAL",
      "INFERENCECACHE_FAIL_OPEN",
    ]);
  });
  it("SGLang HiCache", () => {
    expect(adapterEngineContainer(RuntimeAdapter.SglangHicache)).toBe("sglang");
    expect(reservedArgs(RuntimeAdapter.SglangHicache)).toStrictEqual([
      "--enable-hierarchical-cache",
      "--hicache-size",
      "--hicache-ratio",
      "--hicache-write-policy",
      "--hicache-io-backend",
      "--hicache-mem-layout",
      "--hicache-storage-backend",
      "--hicache-storage-prefetch-policy",
    ]);
    expect(reservedEnv(RuntimeAdapter.SglangHicache)).toStrictEqual(["SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR"]);
  });
});

describe("shared messages", () => {
  it("skip warning format and audit key", () => {
    expect(skipWarning("lmcache-injector", "engine-not-found", "ConfigMap ns/e-connection not found")).toBe(
      "lmcache-injector: injection skipped (engine-not-found): ConfigMap ns/e-connection not found",
    );
    expect(AUDIT_SKIP_REASON_KEY).toBe("skip-reason");
  });
  it("kv-transfer-config-present warning", () => {
    expect(kvTransferConfigPresentWarning("cacheblend-injector", "vllm")).toBe(
      'cacheblend-injector: kv-transfer-config-present: container "vllm" already sets --kv-transfer-config; the engine connection config was not injected',
    );
  });
  it("skip details", () => {
    expect(detailConfigMapNotFound("ns", "e")).toBe("ConfigMap ns/e-connection not found");
    expect(detailEngineNotFound("CacheBlendEngine", "ns", "e")).toBe("CacheBlendEngine ns/e not found");
    expect(detailEngineNotInline("ns/e")).toBe("engine ns/e is not in settings.engines and lookups are disabled");
    expect(detailNoContainerNamed("vllm")).toBe('no container named "vllm"');
    expect(detailCommandOverride("vllm")).toBe('container "vllm" sets command; only args can be extended');
    expect(detailConnectionConfigMissing("ns", "e")).toBe(
      "ConfigMap ns/e-connection has no kv-transfer-config.json value",
    );
    expect(detailInvalidConnectionConfig("ns", "e")).toBe(
      "kv-transfer-config.json of ns/e-connection is not a JSON object",
    );
    expect(detailInvalidEngineReference("a/b/c")).toBe('"a/b/c" is not a valid engine reference');
    expect(detailInvalidPullSecret("Bad_Name")).toBe('"Bad_Name" is not a valid Secret name');
    expect(detailPayloadImageUnset("CacheBlendEngine", "ns", "e")).toBe(
      "CacheBlendEngine ns/e has no injection.payloadImage.repository",
    );
    expect(DETAIL_PAYLOAD_IMAGE_FOOTGUN).toBe("payloadImage.repository is the ImageSpec default lmcache/vllm-openai");
    expect(detailPayloadImagePartInvalid("tag")).toBe("payloadImage tag is not a valid image reference part");
    expect(detailLookupDenied("ConfigMap", "ns", "e-connection")).toBe(
      "lookup of ConfigMap ns/e-connection was denied; use settings.engines",
    );
    expect(detailLookupFailed("LMCacheEngine", "ns", "e")).toBe("lookup of LMCacheEngine ns/e failed");
    expect(detailInvalidRequest("spec.containers is not an array")).toBe(
      "request could not be read: spec.containers is not an array",
    );
  });
});
