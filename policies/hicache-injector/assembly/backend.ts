// A CacheBackend as the HiCache injector reads it (docs/policies/hicache-injector.md#fields-read)
// and the backend checks at the injector boundary (#step-9), first failure wins. Reading never
// traps: a field of the wrong JSON type is reported as a check text like any other failure, and a
// field that is JSON null counts as absent.
import { JsonKind, JsonValue } from "../../../assembly/json/index";
import { i64ToDecimal } from "../../../assembly/util/decimal";
import { isListedWord } from "../../../assembly/util/text";
import {
  CACHEBACKEND_KIND,
  HICACHE_STORAGE_DIR_ENV,
  HICACHE_IO_BACKENDS_LIST,
  HICACHE_MEMORY_LAYOUTS_LIST,
  HICACHE_STORAGE_PREFETCH_POLICIES_LIST,
  HICACHE_WRITE_POLICIES_LIST,
  isNfsStorage,
  PROVIDER_NFS,
  reservedArgs,
  RUNTIME_ID_SGLANG,
  RuntimeAdapter,
  runtimeIdOf,
  TYPE_SGLANG_HICACHE,
} from "../../../assembly/keys/index";
import {
  checkMountPath,
  checkNfsExportPath,
  checkNfsServer,
  isBlank,
  MOUNT_PATH_ROOT_DETAIL,
  MOUNT_PATH_SYSTEM_DETAIL,
  parseGoFloat,
  shortenRendered,
  trimGoSpace,
} from "../../../assembly/validate/index";
import { integralI64 } from "../../../assembly/validate/scalars";

// @ts-ignore: decorator
@lazy
export const OWNERSHIP_EXTERNAL = "External";
// The step-9.5+ details start "resolve SGLang HiCache config: ", written out in each literal: one
// text each (the texts dictionary shares the prefix) rather than a concatenation at every return.

function q(value: string): string {
  return '"' + shortenRendered(value) + '"';
}

/** The fields of one CacheBackend spec that the checks and the wiring use. */
export class HiCacheBackend {
  /** first wrong-typed field, as a check text; "" when every read field has its type */
  typeError: string = "";
  runtimeId: string = "";
  hasRemote: bool = false;
  provider: string = "";
  ownership: string = "";
  remoteEndpoint: string = "";
  hasNfs: bool = false;
  server: string = "";
  path: string = "";
  mountPath: string = "";
  mode: string = "";
  role: string = "";
  failOpen: bool = true;
  hasAutoscaling: bool = false;
  endpoint: string = "";
  selectorSize: i32 = 0;
  backendConfigKeys: string[] = new Array<string>(0);
  overrideArgs: string[] = new Array<string>(0);
  suppressArgs: string[] = new Array<string>(0);
  /** engineOverrides.env entries (objects with a string name) */
  overrideEnv: JsonValue[] = new Array<JsonValue>(0);
  overrideEnvNames: string[] = new Array<string>(0);
  suppressEnv: string[] = new Array<string>(0);
  hasHiCache: bool = false;
  hasSize: bool = false;
  sizeGB: i64 = 0;
  ratio: string = "";
  writePolicy: string = "";
  ioBackend: string = "";
  memoryLayout: string = "";
  prefetchPolicy: string = "";

  /** remoteStorage present with provider NFS (ownership not considered) */
  get isNfs(): bool {
    return isNfsStorage(this.hasRemote, this.provider);
  }
}

// The objects of a CacheBackend spec the reader reads fields of. A field is named by its object
// and its key, and its full path is built only for a message: as literal arguments, the 27 paths
// were texts every evaluation expanded (1.6 KB of the pages a fresh instance writes, issue 8).
const IN_SPEC: i32 = 0;
const IN_INTEGRATION: i32 = 1;
const IN_OVERRIDES: i32 = 2;
const IN_REMOTE: i32 = 3;
const IN_NFS: i32 = 4;
const IN_SELECTOR: i32 = 5;
const IN_HICACHE: i32 = 6;

/** the path of object `place` (an IN_* value) in a CacheBackend */
function placePath(place: i32): string {
  switch (place) {
    case IN_INTEGRATION:
      return "spec.integration";
    case IN_OVERRIDES:
      return "spec.integration.engineOverrides";
    case IN_REMOTE:
      return "spec.remoteStorage";
    case IN_NFS:
      return "spec.remoteStorage.nfs";
    case IN_SELECTOR:
      return "spec.engineSelector";
    case IN_HICACHE:
      return "spec.hiCache";
    default:
      return "spec";
  }
}

/** Reads fields of one object; the first wrong type is kept with its path. */
class Reader {
  error: string = "";

  /** field `key` of object `place` is `what` (the first such message is kept) */
  fail(place: i32, key: string, what: string): void {
    if (this.error.length == 0) this.error = placePath(place) + "." + key + " " + what;
  }

  object(parent: JsonValue | null, key: string, place: i32): JsonValue | null {
    if (parent === null) return null;
    const v = parent.getPresent(key);
    if (v === null) return null;
    if (!v.isObject()) {
      this.fail(place, key, "must be an object");
      return null;
    }
    return v;
  }

  str(parent: JsonValue | null, key: string, place: i32): string {
    if (parent === null) return "";
    // read in place: no node for a string member (issue 8: nodes are heap a fresh instance writes)
    const s = parent.stringOrNull(key);
    if (s !== null) return s;
    const kind = parent.memberKind(key);
    if (kind < 0 || kind == JsonKind.Null) return "";
    this.fail(place, key, "must be a string");
    return "";
  }

  strings(parent: JsonValue | null, key: string, place: i32): string[] {
    const out = new Array<string>(0);
    if (parent === null) return out;
    const v = parent.getPresent(key);
    if (v === null) return out;
    if (!v.isArray()) {
      this.fail(place, key, "must be a list of strings");
      return out;
    }
    for (let i = 0; i < v.size(); i++) {
      const item = v.at(i);
      const s = item !== null && item.isDecodableString() ? item.stringValue() : null;
      if (s === null) {
        this.fail(place, key, "must be a list of strings");
        return out;
      }
      out.push(s);
    }
    return out;
  }
}

/** Reads a CacheBackend `spec` (null: absent). */
export function readHiCacheBackend(spec: JsonValue | null): HiCacheBackend {
  const b = new HiCacheBackend();
  const r = new Reader();
  const runtime = r.str(spec, "runtime", IN_SPEC);
  const integration = r.object(spec, "integration", IN_SPEC);
  const engine = r.str(integration, "engine", IN_INTEGRATION);
  b.runtimeId = runtimeIdOf(runtime, engine);

  const remote = r.object(spec, "remoteStorage", IN_SPEC);
  b.hasRemote = remote !== null;
  b.provider = r.str(remote, "provider", IN_REMOTE);
  b.ownership = r.str(remote, "ownership", IN_REMOTE);
  b.remoteEndpoint = r.str(remote, "endpoint", IN_REMOTE);
  const nfs = r.object(remote, "nfs", IN_REMOTE);
  b.hasNfs = nfs !== null;
  b.server = r.str(nfs, "server", IN_NFS);
  b.path = r.str(nfs, "path", IN_NFS);
  b.mountPath = r.str(nfs, "mountPath", IN_NFS);

  b.mode = r.str(integration, "mode", IN_INTEGRATION);
  b.role = r.str(integration, "role", IN_INTEGRATION);
  if (integration !== null) {
    const failOpen = integration.getPresent("failOpen");
    if (failOpen !== null) {
      if (!failOpen.isBool()) r.fail(IN_INTEGRATION, "failOpen", "must be a boolean");
      else b.failOpen = failOpen.asBool().value;
    }
  }
  const overrides = r.object(integration, "engineOverrides", IN_INTEGRATION);
  b.overrideArgs = r.strings(overrides, "args", IN_OVERRIDES);
  b.suppressArgs = r.strings(overrides, "suppressArgs", IN_OVERRIDES);
  b.suppressEnv = r.strings(overrides, "suppressEnv", IN_OVERRIDES);
  if (overrides !== null) {
    const env = overrides.getPresent("env");
    if (env !== null) {
      if (!env.isArray()) r.fail(IN_OVERRIDES, "env", "must be a list");
      else {
        for (let i = 0; i < env.size(); i++) {
          const entry = env.at(i);
          const name = entry !== null && entry.isObject() ? entry.stringOrNull("name") : null;
          if (entry === null || name === null) {
            r.fail(IN_OVERRIDES, "env", "items must be objects with a string name");
            break;
          }
          b.overrideEnv.push(entry);
          b.overrideEnvNames.push(name);
        }
      }
    }
  }

  b.hasAutoscaling = spec !== null && spec.getPresent("autoscaling") !== null;
  b.endpoint = r.str(spec, "endpoint", IN_SPEC);
  const selector = r.object(spec, "engineSelector", IN_SPEC);
  const matchLabels = r.object(selector, "matchLabels", IN_SELECTOR);
  b.selectorSize = matchLabels === null ? 0 : matchLabels.size();
  const backendConfig = r.object(spec, "backendConfig", IN_SPEC);
  if (backendConfig !== null) {
    for (let i = 0; i < backendConfig.size(); i++) b.backendConfigKeys.push(backendConfig.keyAt(i));
  }

  const hiCache = r.object(spec, "hiCache", IN_SPEC);
  b.hasHiCache = hiCache !== null;
  if (hiCache !== null) {
    const size = hiCache.getPresent("sizeGB");
    if (size !== null) {
      // a whole number written as a float (`64.0`) is that integer, as for cachebackend-validator
      const n = integralI64(size);
      if (!n.ok) r.fail(IN_HICACHE, "sizeGB", "must be an integer");
      else {
        b.hasSize = true;
        b.sizeGB = n.value;
      }
    }
  }
  b.ratio = r.str(hiCache, "ratio", IN_HICACHE);
  b.writePolicy = r.str(hiCache, "writePolicy", IN_HICACHE);
  b.ioBackend = r.str(hiCache, "ioBackend", IN_HICACHE);
  b.memoryLayout = r.str(hiCache, "memoryLayout", IN_HICACHE);
  b.prefetchPolicy = r.str(hiCache, "storagePrefetchPolicy", IN_HICACHE);
  b.typeError = r.error;
  return b;
}

/** Supported (provider, ownership) pairs of remote storage (#step-9, 9.2). */
function isSupportedRemote(provider: string, ownership: string): bool {
  const network = provider == "Redis" || provider == "LMCacheServer" || provider == "Mooncake";
  if (ownership == "Managed") return network;
  if (ownership == OWNERSHIP_EXTERNAL) return network || provider == PROVIDER_NFS;
  return false;
}

/** Binding protocol of a provider. */
function protocolOf(provider: string): string {
  if (provider == "Redis") return "resp";
  if (provider == "LMCacheServer") return "lm";
  if (provider == "Mooncake") return "mooncakestore";
  return "file";
}

/** The inline NFS binding check (9.3) with the shared server and path rules; "" when valid. */
export function nfsBindingProblem(b: HiCacheBackend): string {
  if (trimGoSpace(b.remoteEndpoint).length > 0) return "remoteStorage.endpoint must be empty for an inline NFS binding";
  if (!b.hasNfs) return "remoteStorage.nfs is required for an inline NFS binding";
  const server = checkNfsServer(b.server);
  if (!server.ok) {
    return "remoteStorage.nfs.server: NFS server " + (server.required ? "must not be empty" : server.detail);
  }
  if (!checkNfsExportPath(b.path).ok)
    return "remoteStorage.nfs.path must be a clean absolute path without surrounding whitespace";
  const mount = checkMountPath(b.mountPath);
  if (!mount.ok) {
    if (!mount.required && (mount.detail == MOUNT_PATH_ROOT_DETAIL || mount.detail == MOUNT_PATH_SYSTEM_DETAIL))
      return "remoteStorage.nfs.mountPath " + mount.detail;
    return "remoteStorage.nfs.mountPath must be a clean absolute path without surrounding whitespace";
  }
  return "";
}

function firstReserved(flags: string[], reserved: string[], leadingToken: bool): string | null {
  for (let i = 0; i < flags.length; i++) {
    let flag = flags[i];
    if (leadingToken) {
      if (!flag.startsWith("-")) continue;
      const eq = flag.indexOf("=");
      if (eq >= 0) flag = flag.substring(0, eq);
    }
    if (reserved.indexOf(flag) >= 0) return flag;
  }
  return null;
}

/** unset, or one of the words of `allowed` (a `,a,b,` list) */
function isOneOf(value: string, allowed: string): bool {
  return value.length == 0 || isListedWord(allowed, value);
}

/** The step-9 checks in order; "" when the backend can be wired. */
export function backendProblem(b: HiCacheBackend): string {
  if (b.typeError.length > 0) return b.typeError;
  // 9.1
  if (b.runtimeId != RUNTIME_ID_SGLANG)
    return "no adapter for runtime=" + q(b.runtimeId) + " backend=" + q(TYPE_SGLANG_HICACHE);
  // 9.2
  if (b.hasRemote && !isSupportedRemote(b.provider, b.ownership)) {
    const pair = "provider=" + q(b.provider) + " ownership=" + q(b.ownership);
    return "unsupported remote-storage " + pair + ": no remote-storage provider supports the declaration: " + pair;
  }
  // 9.3
  if (b.isNfs && b.ownership == OWNERSHIP_EXTERNAL) {
    const binding = nfsBindingProblem(b);
    if (binding.length > 0) return "invalid inline NFS binding: " + binding;
  }
  // 9.4
  if (b.hasRemote && (!b.isNfs || !b.hasNfs))
    return "runtime adapter does not accept remote binding protocol " + q(protocolOf(b.provider));
  // 9.5 – 9.16
  if (b.mode.length > 0 && b.mode != "Offload")
    return "resolve SGLang HiCache config: integration.mode must be Offload";
  if (b.role.length > 0 && b.role != "ReadWrite")
    return "resolve SGLang HiCache config: integration.role must be ReadWrite";
  if (b.isNfs && b.failOpen)
    return "resolve SGLang HiCache config: integration.failOpen must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency";
  if (!b.isNfs && !b.failOpen) return "resolve SGLang HiCache config: integration.failOpen must be true";
  if (b.hasAutoscaling) return "resolve SGLang HiCache config: autoscaling is unsupported for an engine-local backend";
  if (!isBlank(b.endpoint))
    return "resolve SGLang HiCache config: spec.endpoint is unsupported for an engine-local backend";
  if (b.selectorSize == 0) return "resolve SGLang HiCache config: spec.engineSelector.matchLabels is required";
  for (let i = 0; i < b.backendConfigKeys.length; i++) {
    const key = b.backendConfigKeys[i];
    if (key != "model")
      return "resolve SGLang HiCache config: backendConfig key " + q(key) + " is unsupported; only model is allowed";
  }
  const reserved = reservedArgs(RuntimeAdapter.SglangHicache);
  const arg = firstReserved(b.overrideArgs, reserved, true);
  if (arg !== null)
    return "resolve SGLang HiCache config: engine override for reserved argument " + q(arg) + " is unsupported";
  const suppressed = firstReserved(b.suppressArgs, reserved, false);
  if (suppressed !== null)
    return "resolve SGLang HiCache config: suppression of reserved argument " + q(suppressed) + " is unsupported";
  if (b.overrideEnvNames.indexOf(HICACHE_STORAGE_DIR_ENV) >= 0)
    return (
      "resolve SGLang HiCache config: engine override for reserved environment variable " +
      q(HICACHE_STORAGE_DIR_ENV) +
      " is unsupported"
    );
  if (b.suppressEnv.indexOf(HICACHE_STORAGE_DIR_ENV) >= 0)
    return (
      "resolve SGLang HiCache config: suppression of reserved environment variable " +
      q(HICACHE_STORAGE_DIR_ENV) +
      " is unsupported"
    );
  // 9.17 – 9.26
  if (!b.hasHiCache) return "resolve SGLang HiCache config: spec.hiCache is required";
  const hasRatio = b.ratio.length > 0;
  if (b.hasSize == hasRatio)
    return "resolve SGLang HiCache config: exactly one of spec.hiCache.sizeGB and ratio must be set";
  if (b.hasSize && b.sizeGB < 1) return "resolve SGLang HiCache config: sizeGB must be at least 1";
  if (hasRatio) {
    const ratio = parseGoFloat(b.ratio);
    if (!ratio.ok || !ratio.finite || !(ratio.value > 0))
      return "resolve SGLang HiCache config: ratio must be a finite number greater than zero";
  }
  if (!isOneOf(b.writePolicy, HICACHE_WRITE_POLICIES_LIST))
    return "resolve SGLang HiCache config: unsupported writePolicy " + q(b.writePolicy);
  if (!isOneOf(b.ioBackend, HICACHE_IO_BACKENDS_LIST))
    return "resolve SGLang HiCache config: unsupported ioBackend " + q(b.ioBackend);
  if (!isOneOf(b.memoryLayout, HICACHE_MEMORY_LAYOUTS_LIST))
    return "resolve SGLang HiCache config: unsupported memoryLayout " + q(b.memoryLayout);
  if (!isOneOf(b.prefetchPolicy, HICACHE_STORAGE_PREFETCH_POLICIES_LIST))
    return "resolve SGLang HiCache config: unsupported storagePrefetchPolicy " + q(b.prefetchPolicy);
  if (b.isNfs && b.prefetchPolicy.length == 0)
    return "resolve SGLang HiCache config: storagePrefetchPolicy is required with remoteStorage.provider=NFS";
  if (!b.isNfs && b.prefetchPolicy.length > 0)
    return "resolve SGLang HiCache config: storagePrefetchPolicy requires remoteStorage.provider=NFS";
  return "";
}

/** `--hicache-size` / `--hicache-ratio` value as the args carry it. */
export function sizeText(b: HiCacheBackend): string {
  return i64ToDecimal(b.sizeGB);
}

/** `CacheBackend <ns>/<name>` for details. */
export function backendRef(ns: string, name: string): string {
  return CACHEBACKEND_KIND + " " + shortenRendered(ns) + "/" + shortenRendered(name);
}
