// LMCache operator keys and fixed names (docs/policies/lmcache-injector.md#keys).
// The two injectors share one shape, `EngineKeys`; accessors build a fresh instance per call so
// no global needs a start function.

// @ts-ignore: decorator
@lazy
export const LMCACHE_ENGINE_GROUP = "lmcache.lmcache.ai";
// @ts-ignore: decorator
@lazy
export const LMCACHE_ENGINE_VERSION = "v1alpha1";
// @ts-ignore: decorator
@lazy
export const LMCACHE_ENGINE_API_VERSION = "lmcache.lmcache.ai/v1alpha1";
// @ts-ignore: decorator
@lazy
export const LMCACHE_ENGINE_KIND = "LMCacheEngine";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_ENGINE_KIND = "CacheBlendEngine";

/** `lmcache.ai/pd-role` (E2; not read yet), the same for both policies. */
// @ts-ignore: decorator
@lazy
export const PD_ROLE_ANNOTATION = "lmcache.ai/pd-role";
/** Value of the injected guard and of the opt-in label. */
// @ts-ignore: decorator
@lazy
export const INJECTED_VALUE = "true";

// @ts-ignore: decorator
@lazy
export const CONNECTION_CONFIGMAP_SUFFIX = "-connection";
// @ts-ignore: decorator
@lazy
export const CONNECTION_CONFIGMAP_DATA_KEY = "kv-transfer-config.json";
// @ts-ignore: decorator
@lazy
export const SHARED_DIR_ENV = "SHARED_DIR";
// @ts-ignore: decorator
@lazy
export const PYTHONHASHSEED_ENV = "PYTHONHASHSEED";
// @ts-ignore: decorator
@lazy
export const PYTHONHASHSEED_VALUE = "0";
// @ts-ignore: decorator
@lazy
export const PYTHONPATH_ENV = "PYTHONPATH";
// @ts-ignore: decorator
@lazy
export const KV_TRANSFER_CONFIG_FLAG = "--kv-transfer-config";

/** The ImageSpec repository default: the vLLM engine image, never a payload image. */
// @ts-ignore: decorator
@lazy
export const PAYLOAD_FOOTGUN_REPOSITORY = "lmcache/vllm-openai";
// @ts-ignore: decorator
@lazy
export const DEFAULT_PAYLOAD_TAG = "latest";
// @ts-ignore: decorator
@lazy
export const DEFAULT_PULL_POLICY = "IfNotPresent";
// @ts-ignore: decorator
@lazy
export const DEFAULT_CUDAGRAPH = "eager";

// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_ATTENTION_BACKEND = "--attention-backend";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_NO_CHUNKED_PREFILL = "--no-enable-chunked-prefill";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_BLOCK_SIZE = "--block-size";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_PIPELINE_PARALLEL_SIZE = "--pipeline-parallel-size";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_NO_ASYNC_SCHEDULING = "--no-async-scheduling";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_ENFORCE_EAGER = "--enforce-eager";
// @ts-ignore: decorator
@lazy
export const CACHEBLEND_FLAG_COMPILATION_CONFIG = "--compilation-config";

/** Everything that differs between `lmcache-injector` and `cacheblend-injector`. */
export class EngineKeys {
  constructor(
    public policyName: string,
    public engineKind: string,
    public injectLabel: string,
    public engineAnnotation: string,
    public containerAnnotation: string,
    public pullSecretsAnnotation: string,
    public injectedAnnotation: string,
    public skipReasonAnnotation: string,
    public payloadVolume: string,
    public payloadMountPath: string,
    public payloadInitContainer: string,
  ) {}

  /** `<engine>-connection`. */
  connectionConfigMapName(engine: string): string {
    return engine + CONNECTION_CONFIGMAP_SUFFIX;
  }
}

export function lmcacheKeys(): EngineKeys {
  return new EngineKeys(
    "lmcache-injector",
    LMCACHE_ENGINE_KIND,
    "lmcache.ai/lmcache-inject",
    "lmcache.ai/lmcache-engine",
    "lmcache.ai/lmcache-container",
    "lmcache.ai/lmcache-image-pull-secrets",
    "lmcache.ai/lmcache-injected",
    "lmcache.ai/lmcache-skip-reason",
    "lmcache-payload",
    "/lmcache-payload",
    "lmcache-payload-stage",
  );
}

export function cacheblendKeys(): EngineKeys {
  return new EngineKeys(
    "cacheblend-injector",
    CACHEBLEND_ENGINE_KIND,
    "lmcache.ai/cacheblend-inject",
    "lmcache.ai/cacheblend-engine",
    "lmcache.ai/cacheblend-container",
    "lmcache.ai/cacheblend-image-pull-secrets",
    "lmcache.ai/cacheblend-injected",
    "lmcache.ai/cacheblend-skip-reason",
    "cb-plugin",
    "/cb-plugin",
    "cb-plugin-stage",
  );
}

/** Args the LMCache injector writes. */
export function lmcacheWrittenArgs(): string[] {
  return [KV_TRANSFER_CONFIG_FLAG];
}

/** Args the CacheBlend injector writes, in the README's order. */
export function cacheblendWrittenArgs(): string[] {
  return [
    CACHEBLEND_FLAG_ATTENTION_BACKEND,
    KV_TRANSFER_CONFIG_FLAG,
    CACHEBLEND_FLAG_NO_CHUNKED_PREFILL,
    CACHEBLEND_FLAG_BLOCK_SIZE,
    CACHEBLEND_FLAG_PIPELINE_PARALLEL_SIZE,
    CACHEBLEND_FLAG_NO_ASYNC_SCHEDULING,
    CACHEBLEND_FLAG_ENFORCE_EAGER,
    CACHEBLEND_FLAG_COMPILATION_CONFIG,
  ];
}

/** `ImageSpec.pullPolicy` enum, in the order messages list it. */
export function pullPolicies(): string[] {
  return ["Always", "Never", "IfNotPresent"];
}

/** CacheBlend `injection.cudagraph` enum. */
export function cudagraphModes(): string[] {
  return ["eager", "piecewise", "full_decode_only"];
}

/** CacheBlend requires `server.chunkSize` == 256 (block size 64 × 4). */
export const CACHEBLEND_CHUNK_SIZE: i32 = 256;
