// The rules of docs/policies/cachebackend-validator.md#rules, in that order, one function per rule
// and the rows of a rule in the table's order. Pure: a Backend in, its violations out.
import { JsonKind, JsonValue } from "../../../assembly/json/index";
import {
  FieldErrorList,
  Path,
  newPath,
  required,
  forbidden,
  invalidString,
  invalidBool,
  invalidInt,
  invalidRaw,
  invalidJsonValue,
  notSupportedString,
  notSupportedRaw,
  fieldErrorFromCheck,
  checkNfsServer,
  checkNfsExportPath,
  checkMountPath,
  envVarNameErrors,
  matchesEnvVarNamePatternBytes,
  hasEnvVarNameDotErrorBytes,
  isFiniteGoFloatGreaterThanZero,
  trimGoSpace,
  containsString,
  compactJsonText,
  goQuote,
} from "../../../assembly/validate/index";
import {
  KERNEL_CHECK_ANNOTATION,
  RuntimeAdapter,
  reservedArgs,
  reservedEnv,
  kernelCheckModes,
  hicacheWritePolicies,
  hicacheIoBackends,
  hicacheMemoryLayouts,
  hicacheStoragePrefetchPolicies,
  normalizeRuntime,
  TYPE_LMCACHE,
  TYPE_SGLANG_HICACHE,
  TYPE_MOONCAKE,
  TYPE_EXTERNAL,
  PROVIDER_NFS,
} from "../../../assembly/keys/index";
import {
  Backend,
  ProviderBlock,
  envSources,
  stringItem,
  ENV_SKIP,
  ENV_VALUE_FROM,
  sortedMembers,
  PROVIDER_REDIS,
  PROVIDER_LMCACHE_SERVER,
  PROVIDER_MOONCAKE,
  OWNERSHIP_MANAGED,
  OWNERSHIP_EXTERNAL,
  MODE_OFFLOAD,
  ROLE_READ_WRITE,
} from "./backend";
import { lmcacheEndpointError, providerEndpointError, inClusterNamespace } from "./endpoint";
import { checkResourceBlock, checkHostMemoryCapacity } from "./resources";

/** No adapter selected (rule 23). */
export const NO_ADAPTER: i32 = -1;

// @ts-ignore: decorator
@lazy
export const SUPPORTED_PAIRS =
  "supported pairs in this build: sglang/LMCache, sglang/SGLangHiCache, vllm/External, vllm/LMCache, vllm/Mooncake";
// @ts-ignore: decorator
@lazy
export const MOONCAKE_WARNING =
  "Mooncake: set spec.integration.engineHostNetwork=true or engine pods can't join the transfer mesh (Ready, no KV)";

/** Every violation of one CacheBackend, in rule order (the type errors found while reading come
 *  first, in `errs` already). When a field the rules depend on could not be read, only the rules
 *  that need none of them run (docs/policies/cachebackend-validator.md#malformed-input). */
export function backendViolations(b: Backend, errs: FieldErrorList): void {
  const spec = newPath("spec");
  if (!b.unreadable) {
    validateCanonicalCacheHierarchy(b, spec, errs); // 1
    validateCanonicalProviderResources(b, errs); // 2
    requireEndpointForExternal(b, spec, errs); // 3
    rejectEndpointOnNonExternal(b, spec, errs); // 4
    rejectInvalidExternalEndpoint(b, spec, errs); // 5
    rejectCrossNamespaceEndpointWithoutOptIn(b, spec, errs); // 6
    requireExplicitMinReplicas(b, spec, errs); // 7
    rejectMooncakeMasterScaleOut(b, spec, errs); // 8
    rejectEngineHostNetworkWithoutMooncake(b, spec, errs); // 9
    const resources = b.resources;
    if (resources !== null) checkResourceBlock(resources, errs, 10, 13); // 10-13
    checkHostMemoryCapacity(b, errs); // 14
    if (resources !== null) checkResourceBlock(resources, errs, 15, 17); // 15-17
    if (b.eventsOnly) rejectEventsOnlyMisconfiguration(b, spec, errs); // 18
    validateSGLangHiCache(b, spec, errs); // 19
  }
  rejectInvalidKernelCheckAnnotation(b, errs); // 20
  let adapter = NO_ADAPTER;
  if (!b.unreadable) {
    rejectUnsupportedSGLangRole(b, spec, errs); // 21
    rejectSGLangRedisL2ScaleOut(b, spec, errs); // 22
    if (b.type.length > 0) adapter = checkRuntimeAdapter(b, spec, errs); // 23
  }
  if (b.overrides !== null) checkEngineOverrides(b, adapter, errs); // 24
}

/** The admission warnings of a backend (docs/policies/cachebackend-validator.md#warnings). */
export function backendWarnings(b: Backend): string[] {
  const out = new Array<string>();
  if (b.unreadable) return out;
  const hostNetwork = b.engineHostNetwork.ok && b.engineHostNetwork.value;
  if (b.effectiveProvider == PROVIDER_MOONCAKE && !hostNetwork) out.push(MOONCAKE_WARNING);
  return out;
}

// ---- (1) validateCanonicalCacheHierarchy ----
function validateCanonicalCacheHierarchy(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.runtime.length > 0 && b.engine.length > 0 && normalizeRuntime(b.runtime) != normalizeRuntime(b.engine)) {
    errs.add(
      invalidString(
        spec.child("integration").child("engine"),
        b.engine,
        "conflicts with spec.runtime; use spec.runtime as the runtime identity",
      ),
    );
  }
  const canonical = b.canonical;
  if (canonical && (b.type == TYPE_MOONCAKE || b.type == TYPE_EXTERNAL)) {
    errs.add(
      invalidString(
        spec.child("type"),
        b.type,
        "the canonical API uses spec.type only for the engine-side cache; move provider and ownership to spec.remoteStorage",
      ),
    );
  }
  const backendConfig = b.backendConfig;
  if (canonical && backendConfig !== null && backendConfig.size() > 0) {
    errs.add(
      forbidden(
        spec.child("backendConfig"),
        "deprecated top-level configuration is not valid in the canonical API; use spec.lmCache, spec.remoteStorage.<provider>, or spec.observation",
      ),
    );
  }
  if (canonical && b.resourcesPresent) {
    errs.add(
      forbidden(
        spec.child("resources"),
        "deprecated top-level resources are not valid in the canonical API; use spec.remoteStorage.<provider>.resources",
      ),
    );
  }
  if (canonical && b.remoteStorage === null && b.autoscaling !== null) {
    errs.add(
      forbidden(
        spec.child("autoscaling"),
        "canonical host-only backends omit spec.remoteStorage and provision no provider workload, so there is nothing to autoscale",
      ),
    );
  }
  if (!canonical && b.modelID.length > 0 && b.backendConfigModel.length > 0 && b.modelID != b.backendConfigModel) {
    errs.add(
      invalidString(
        spec.child("backendConfig").key("model"),
        b.backendConfigModel,
        "conflicts with spec.observation.modelID",
      ),
    );
  }
  if (b.lmCache !== null && b.effectiveType != TYPE_LMCACHE) {
    errs.add(forbidden(spec.child("lmCache"), "spec.lmCache is valid only when spec.type=LMCache"));
  }
  if (b.remoteStorage === null) return;

  const rs = spec.child("remoteStorage");
  const provider = b.provider;
  const ownership = b.ownership;
  const endpoint = trimGoSpace(b.rsEndpoint);
  const nfs = provider == PROVIDER_NFS;
  if (provider.length == 0) errs.add(required(rs.child("provider"), "select a remote-storage provider"));
  if (ownership.length == 0) errs.add(required(rs.child("ownership"), "select Managed or External ownership"));
  if (ownership == OWNERSHIP_MANAGED && endpoint.length > 0) {
    errs.add(forbidden(rs.child("endpoint"), "managed providers publish their observed endpoint in status.endpoint"));
  }
  if (ownership == OWNERSHIP_EXTERNAL) {
    if (nfs) {
      if (endpoint.length > 0) {
        errs.add(forbidden(rs.child("endpoint"), "NFS uses remoteStorage.nfs.server and path instead of an endpoint"));
      }
    } else if (endpoint.length == 0) {
      errs.add(required(rs.child("endpoint"), "required when remoteStorage.ownership=External"));
    } else {
      const problem = providerEndpointError(provider, b.rsEndpoint);
      if (problem.length > 0) errs.add(invalidString(rs.child("endpoint"), b.rsEndpoint, problem));
    }
  }
  for (let i = 0; i < b.blocks.length; i++) {
    const block = b.blocks[i];
    if (!block.present) continue;
    if (block.provider != provider) {
      errs.add(
        forbidden(
          rs.child(block.key),
          "configuration belongs to provider " + block.provider + ", but remoteStorage.provider=" + provider,
        ),
      );
    } else if (ownership == OWNERSHIP_EXTERNAL) {
      errs.add(forbidden(rs.child(block.key), "provider workload configuration is valid only with Managed ownership"));
    }
  }
  if (b.nfs !== null && !nfs) {
    errs.add(
      forbidden(
        rs.child("nfs"),
        "configuration belongs to provider " + PROVIDER_NFS + ", but remoteStorage.provider=" + provider,
      ),
    );
  }
  if (nfs) {
    if (ownership != OWNERSHIP_EXTERNAL) {
      errs.add(notSupportedString(rs.child("ownership"), ownership, [OWNERSHIP_EXTERNAL]));
    }
    if (b.nfs === null) errs.add(required(rs.child("nfs"), "required when remoteStorage.provider=NFS"));
    else checkNfsBlock(b, rs.child("nfs"), errs);
  }
  if (ownership == OWNERSHIP_MANAGED && (provider == PROVIDER_LMCACHE_SERVER || provider == PROVIDER_MOONCAKE)) {
    const block = provider == PROVIDER_MOONCAKE ? b.blocks[2] : b.blocks[1];
    checkCommand(block, rs.child(block.key), errs);
  }
}

function checkNfsBlock(b: Backend, at: Path, errs: FieldErrorList): void {
  // an absent member is "" (the CRD requires all three; a missing one reads as empty)
  if (!b.nfsServer.invalid) {
    const server = b.nfsServer.ok ? b.nfsServer.value : "";
    errs.addMaybe(fieldErrorFromCheck(at.child("server"), server, checkNfsServer(server)));
  }
  if (!b.nfsPath.invalid) {
    const path = b.nfsPath.ok ? b.nfsPath.value : "";
    errs.addMaybe(fieldErrorFromCheck(at.child("path"), path, checkNfsExportPath(path)));
  }
  if (!b.nfsMountPath.invalid) {
    const mountPath = b.nfsMountPath.ok ? b.nfsMountPath.value : "";
    errs.addMaybe(fieldErrorFromCheck(at.child("mountPath"), mountPath, checkMountPath(mountPath)));
  }
}

function checkCommand(block: ProviderBlock, at: Path, errs: FieldErrorList): void {
  const command = block.command;
  if (!block.present || command === null) return;
  const n = command.size();
  if (n == 0) {
    errs.add(invalidRaw(at.child("command"), "[]", "must contain an executable"));
    return;
  }
  for (let i = 0; i < n; i++) {
    const item = stringItem(command, i);
    if (item !== null && trimGoSpace(item).length == 0)
      errs.add(invalidString(at.child("command").index(i), item, "must not be empty"));
  }
}

// ---- (2) validateCanonicalProviderResources: the selected provider's block ----
function validateCanonicalProviderResources(b: Backend, errs: FieldErrorList): void {
  if (b.remoteStorage === null) return;
  for (let i = 0; i < b.blocks.length; i++) {
    const block = b.blocks[i];
    const resources = block.resources;
    if (resources === null || block.provider != b.provider) continue;
    checkResourceBlock(resources, errs, 10, 13);
    checkResourceBlock(resources, errs, 15, 17);
  }
}

// ---- (3) requireEndpointForExternal ----
function requireEndpointForExternal(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.type == TYPE_EXTERNAL && trimGoSpace(b.endpoint).length == 0) {
    errs.add(
      required(
        spec.child("endpoint"),
        "CacheBackend with spec.type=External requires spec.endpoint to be set to the address of the pre-existing backend",
      ),
    );
  }
}

// ---- (4) rejectEndpointOnNonExternal ----
function rejectEndpointOnNonExternal(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.type.length == 0 || b.type == TYPE_EXTERNAL || trimGoSpace(b.endpoint).length == 0) return;
  errs.add(
    invalidString(
      spec.child("endpoint"),
      b.endpoint,
      "spec.endpoint is only valid when spec.type=External; got spec.type=" +
        goQuote(b.type) +
        " with non-empty spec.endpoint. Managed backends learn their endpoint from the controller-rendered Service.",
    ),
  );
}

// ---- (5) rejectInvalidExternalEndpoint ----
function rejectInvalidExternalEndpoint(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.type != TYPE_EXTERNAL || trimGoSpace(b.endpoint).length == 0) return;
  const problem = lmcacheEndpointError(b.endpoint);
  if (problem.length > 0) errs.add(invalidString(spec.child("endpoint"), b.endpoint, "spec." + problem));
}

// ---- (6) rejectCrossNamespaceEndpointWithoutOptIn ----
function rejectCrossNamespaceEndpointWithoutOptIn(b: Backend, spec: Path, errs: FieldErrorList): void {
  const remote = trimGoSpace(b.rsEndpoint).length > 0;
  const ns = inClusterNamespace(remote ? b.rsEndpoint : b.endpoint);
  if (ns.length == 0 || ns == b.namespace || b.allowCrossNamespace) return;
  // the field is named only for the message
  const field = remote ? "spec.remoteStorage.endpoint" : "spec.endpoint";
  const path = remote ? spec.child("remoteStorage").child("endpoint") : spec.child("endpoint");
  errs.add(
    forbidden(
      path,
      field +
        " references namespace " +
        goQuote(ns) +
        " but CacheBackend is in namespace " +
        goQuote(b.namespace) +
        "; set spec.allowCrossNamespace=true to opt in to the cross-namespace reference",
    ),
  );
}

// ---- (7) requireExplicitMinReplicasOnScaleToZeroWithAutoscaling ----
function requireExplicitMinReplicas(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (!b.replicas.ok || b.replicas.value != 0 || b.autoscaling === null || !b.minReplicas.missing) return;
  errs.add(
    required(
      spec.child("autoscaling").child("minReplicas"),
      "spec.replicas=0 with spec.autoscaling enabled requires spec.autoscaling.minReplicas to be set explicitly (must be >=1). Set minReplicas to make the autoscaling floor explicit, or remove spec.autoscaling to scale to zero unconditionally.",
    ),
  );
}

// ---- (8) rejectMooncakeMasterScaleOut ----
function rejectMooncakeMasterScaleOut(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.effectiveProvider != PROVIDER_MOONCAKE || b.effectiveOwnership != OWNERSHIP_MANAGED) return;
  if (b.replicas.ok && b.replicas.value > 1) {
    errs.add(
      invalidInt(
        spec.child("replicas"),
        b.replicas.value,
        "the Mooncake master is a singleton on the host network: a second replica cannot bind the node ports the first already holds, and on a different node it becomes an independent master that silently splits the store. Set spec.replicas to 0 or 1.",
      ),
    );
  }
  const autoscaling = b.autoscaling;
  if (autoscaling !== null) {
    errs.add(
      invalidJsonValue(
        spec.child("autoscaling"),
        autoscaling,
        "spec.autoscaling is not supported for type=Mooncake: the master is a singleton on the host network, so scaling it out either cannot bind the node's ports or splits the store across independent masters. Remove spec.autoscaling.",
      ),
    );
  }
}

// ---- (9) rejectEngineHostNetworkOnBackendThatDoesNotNeedIt ----
function rejectEngineHostNetworkWithoutMooncake(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (!b.engineHostNetwork.ok || !b.engineHostNetwork.value) return;
  const provider = b.effectiveProvider;
  if (provider == PROVIDER_MOONCAKE) return;
  errs.add(
    invalidBool(
      spec.child("integration").child("engineHostNetwork"),
      true,
      "spec.integration.engineHostNetwork is only meaningful when the effective remote storage provider is Mooncake, whose transfer engine dials engine pods on real node IPs; provider=" +
        (provider.length > 0 ? provider : "none (host-only)") +
        " does not need it and the flag would do nothing. Remove it.",
    ),
  );
}

// ---- (18) rejectEventsOnlyMisconfiguration (EventsOnly only) ----
function rejectEventsOnlyMisconfiguration(b: Backend, spec: Path, errs: FieldErrorList): void {
  const mode = spec.child("integration").child("mode");
  if (b.type == TYPE_EXTERNAL) {
    errs.add(
      forbidden(
        mode,
        'mode "EventsOnly" is incompatible with spec.type "External": events-only wires no KV connector, while External provisions an operator-run offload server the connector would dial',
      ),
    );
  } else if (b.type.length > 0 && b.type != TYPE_LMCACHE) {
    errs.add(
      forbidden(
        mode,
        'mode "EventsOnly" is only supported with spec.type "LMCache"; got spec.type ' +
          goQuote(b.type) +
          ". Events-only wires no KV connector, so a managed backend that provisions an offload store (e.g. a Mooncake master) has nothing the mode would use",
      ),
    );
  }
  if (b.autoscaling !== null) {
    errs.add(
      forbidden(
        spec.child("autoscaling"),
        'events-only backends (spec.integration.mode="EventsOnly") provision no server workload, so there is nothing to autoscale',
      ),
    );
  }
  if (b.remoteStorage !== null) {
    errs.add(
      forbidden(
        spec.child("remoteStorage"),
        'events-only backends (spec.integration.mode="EventsOnly") provision no remote-storage provider; remove spec.remoteStorage',
      ),
    );
  }
}

// ---- (19) validateSGLangHiCache ----
function validateSGLangHiCache(b: Backend, spec: Path, errs: FieldErrorList): void {
  const hc = spec.child("hiCache");
  const backendConfig = b.backendConfig;
  if (b.type != TYPE_SGLANG_HICACHE) {
    if (b.hiCache !== null) errs.add(forbidden(hc, 'spec.hiCache is only valid when spec.type="SGLangHiCache"'));
    return;
  }
  const hiCache = b.hiCache;
  if (hiCache === null) {
    errs.add(required(hc, 'required when spec.type="SGLangHiCache"'));
  } else {
    const hasSize = b.sizeGB.ok;
    const hasRatio = b.ratio.ok && b.ratio.value.length > 0;
    // an unreadable sizeGB or ratio was reported; whether one is set cannot be told
    if (!b.sizeGB.invalid && !b.ratio.invalid) {
      if (!hasSize && !hasRatio) errs.add(required(hc, "exactly one of sizeGB and ratio must be set"));
      else if (hasSize && hasRatio) {
        errs.add(invalidRaw(hc, compactJsonText(hiCache.rawText()), "sizeGB and ratio are mutually exclusive"));
      }
    }
    if (hasSize && b.sizeGB.value < 1) errs.add(invalidInt(hc.child("sizeGB"), b.sizeGB.value, "must be at least 1"));
    if (hasRatio && !isFiniteGoFloatGreaterThanZero(b.ratio.value)) {
      errs.add(invalidString(hc.child("ratio"), b.ratio.value, "must be a finite number greater than zero"));
    }
    checkEnum(b.writePolicy.ok ? b.writePolicy.value : "", hc.child("writePolicy"), hicacheWritePolicies(), errs);
    checkEnum(b.ioBackend.ok ? b.ioBackend.value : "", hc.child("ioBackend"), hicacheIoBackends(), errs);
    checkEnum(b.memoryLayout.ok ? b.memoryLayout.value : "", hc.child("memoryLayout"), hicacheMemoryLayouts(), errs);
    if (!b.prefetchPolicy.invalid) {
      const prefetch = b.prefetchPolicy.ok ? b.prefetchPolicy.value : "";
      const policies = hicacheStoragePrefetchPolicies();
      const path = hc.child("storagePrefetchPolicy");
      if (prefetch.length > 0 && !containsString(policies, prefetch))
        errs.add(notSupportedString(path, prefetch, policies));
      else if (b.nfsStorage && prefetch.length == 0)
        errs.add(required(path, "required when remoteStorage.provider=NFS"));
      else if (!b.nfsStorage && prefetch.length > 0)
        errs.add(forbidden(path, "valid only when remoteStorage.provider=NFS"));
    }
  }
  const integration = spec.child("integration");
  if (b.runtimeId != "sglang") {
    errs.add(invalidString(integration.child("engine"), b.engine, "SGLangHiCache requires integration.engine=sglang"));
  }
  if (b.matchLabelsCount == 0) {
    errs.add(
      required(
        spec.child("engineSelector").child("matchLabels"),
        "SGLangHiCache must select the engine Pods to inject",
      ),
    );
  }
  if (b.autoscaling !== null) {
    errs.add(
      forbidden(spec.child("autoscaling"), "SGLangHiCache is engine-local and has no backend workload to autoscale"),
    );
  }
  if (b.effectiveMode != MODE_OFFLOAD) {
    errs.add(notSupportedString(integration.child("mode"), b.effectiveMode, [MODE_OFFLOAD]));
  }
  if (b.role.length > 0 && b.role != ROLE_READ_WRITE) {
    errs.add(notSupportedString(integration.child("role"), b.role, [ROLE_READ_WRITE]));
  }
  if (!b.failOpen.invalid) {
    if (b.nfsStorage && b.effectiveFailOpen) {
      errs.add(
        invalidBool(
          integration.child("failOpen"),
          true,
          "must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency",
        ),
      );
    } else if (!b.nfsStorage && !b.effectiveFailOpen) {
      errs.add(notSupportedRaw(integration.child("failOpen"), "false", ["true"]));
    }
  }
  const keys = sortedMembers(backendConfig);
  for (let k = 0; k < keys.count; k++) {
    if (keys.keyStartsWith(k, "model", true)) continue;
    if (errs.full) errs.omit();
    else {
      const key = keys.key(k);
      errs.add(notSupportedString(spec.child("backendConfig").key(key), key, ["model"]));
    }
  }
}

function checkEnum(value: string, path: Path, supported: string[], errs: FieldErrorList): void {
  if (value.length > 0 && !containsString(supported, value)) errs.add(notSupportedString(path, value, supported));
}

// ---- (20) rejectInvalidKernelCheckAnnotation ----
function rejectInvalidKernelCheckAnnotation(b: Backend, errs: FieldErrorList): void {
  const v = b.kernelCheck;
  if (!v.ok || v.value.length == 0 || containsString(kernelCheckModes(), v.value)) return;
  errs.add(
    invalidString(
      newPath("metadata").child("annotations").key(KERNEL_CHECK_ANNOTATION),
      v.value,
      'must be one of "auto", "report-only", "strict", "off" (or unset)',
    ),
  );
}

// ---- (21) rejectUnsupportedSGLangRole ----
function rejectUnsupportedSGLangRole(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.role.length == 0 || b.role == ROLE_READ_WRITE || b.runtimeId != "sglang" || b.type != TYPE_LMCACHE) return;
  errs.add(
    invalidString(
      spec.child("integration").child("role"),
      b.role,
      'the sglang engine\'s LMCache integration has no producer/consumer split, so only "ReadWrite" (the default) is honored today; "ReadOnly" / "WriteOnly" are not yet wired for SGLang',
    ),
  );
}

// ---- (22) rejectSGLangRedisL2ScaleOut ----
function rejectSGLangRedisL2ScaleOut(b: Backend, spec: Path, errs: FieldErrorList): void {
  if (b.runtimeId != "sglang" || b.effectiveType != TYPE_LMCACHE || b.eventsOnly) return;
  if (b.effectiveProvider != PROVIDER_REDIS || b.effectiveOwnership != OWNERSHIP_MANAGED) return;
  if (b.replicas.ok && b.replicas.value > 1) {
    errs.add(
      invalidInt(
        spec.child("replicas"),
        b.replicas.value,
        "the (sglang, LMCache) backend's Redis L2 store is a single non-clustered instance: a second replica behind the one Service shards the keyspace and silently partitions the cache. Set spec.replicas to 0 or 1.",
      ),
    );
  }
  const autoscaling = b.autoscaling;
  if (autoscaling !== null) {
    errs.add(
      invalidJsonValue(
        spec.child("autoscaling"),
        autoscaling,
        "spec.autoscaling is not supported for the (sglang, LMCache) backend: its Redis L2 store is a single non-clustered instance, so scaling it out partitions the cache across independent keyspaces. Remove spec.autoscaling.",
      ),
    );
  }
}

// ---- (23) checkRuntimeAdapter ----

/** The adapter a backend selects (docs/policies/cachebackend-validator.md#rule-23), or NO_ADAPTER. */
export function selectAdapter(b: Backend): i32 {
  const rid = b.runtimeId;
  const lmcacheShape = b.effectiveType == TYPE_LMCACHE && (b.canonical || b.type == TYPE_LMCACHE);
  if (rid == "vllm") {
    if (lmcacheShape) return RuntimeAdapter.VllmLmcache;
    if (b.type == TYPE_MOONCAKE) return RuntimeAdapter.VllmMooncakeLegacy;
    if (b.type == TYPE_EXTERNAL) return RuntimeAdapter.ExternalLegacy;
  } else if (rid == "sglang") {
    if (lmcacheShape) return RuntimeAdapter.SglangLmcache;
    if (b.type == TYPE_SGLANG_HICACHE) return RuntimeAdapter.SglangHicache;
  }
  return NO_ADAPTER;
}

/** The wire protocol of a provider, or "" for an unknown one. */
function protocolOf(provider: string): string {
  if (provider == PROVIDER_REDIS) return "resp";
  if (provider == PROVIDER_LMCACHE_SERVER) return "lm";
  if (provider == PROVIDER_MOONCAKE) return "mooncakestore";
  if (provider == PROVIDER_NFS) return "file";
  return "";
}

function checkRuntimeAdapter(b: Backend, spec: Path, errs: FieldErrorList): i32 {
  const adapter = selectAdapter(b);
  if (adapter == NO_ADAPTER) {
    errs.add(
      invalidString(
        spec.child("integration").child("engine"),
        b.engine,
        "no runtime adapter supports the (engine=" +
          goQuote(b.runtimeId) +
          ", backend=" +
          goQuote(b.type) +
          ") pair; " +
          SUPPORTED_PAIRS,
      ),
    );
    return adapter;
  }
  if (!b.hasEffectiveStorage) return adapter; // binding "none": every adapter accepts it
  const provider = b.effectiveProvider;
  const providerPath = spec.child("remoteStorage").child("provider");
  const protocol = protocolOf(provider);
  if (protocol.length == 0) {
    errs.add(
      invalidString(
        providerPath,
        provider,
        "no remote-storage provider supports the declaration: unknown provider=" + goQuote(provider),
      ),
    );
    return adapter;
  }
  let accepted = true;
  let bindingAware = true;
  if (adapter == RuntimeAdapter.VllmLmcache) accepted = protocol == "lm" || protocol == "mooncakestore";
  else if (adapter == RuntimeAdapter.SglangLmcache) accepted = protocol == "resp";
  else if (adapter == RuntimeAdapter.SglangHicache) accepted = protocol == "file" && b.nfs !== null;
  else bindingAware = false;
  if (bindingAware && !accepted) {
    errs.add(
      invalidString(
        providerPath,
        provider,
        bindingPrefix(b) + "runtime adapter does not accept remote binding protocol " + goQuote(protocol),
      ),
    );
  } else if (!bindingAware && b.canonical) {
    errs.add(
      invalidString(
        providerPath,
        provider,
        bindingPrefix(b) + "runtime adapter does not implement the canonical remote-binding contract",
      ),
    );
  }
  return adapter;
}

/** the start of rule 23's binding messages (built only for a violation) */
function bindingPrefix(b: Backend): string {
  return (
    "runtime " + b.runtimeId + " with cache type " + b.effectiveType + " does not accept this remote-storage binding: "
  );
}

// ---- (24) checkEngineOverrides ----
function checkEngineOverrides(b: Backend, adapter: i32, errs: FieldErrorList): void {
  const ov = newPath("spec").child("integration").child("engineOverrides");
  const envPath = ov.child("env");
  const env = b.env;
  const envCount = env !== null ? env.size() : 0;
  // each entry read in place: a null entry reads as one without members, an entry of another
  // type was reported and is skipped
  const adapterOk = b.type.length > 0 && adapter != NO_ADAPTER;
  const reserved = adapterOk ? reservedEnv(<RuntimeAdapter>adapter) : new Array<string>();
  envReserved = reserved;
  const marks = b.envMarks;
  for (let i = 0; i < envCount && env !== null; i++) {
    const list = env;
    const mark = unchecked(marks[i]);
    if ((mark & ENV_SKIP) != 0) continue;
    // the name, one probe: a name without escapes is checked on its bytes, never decoded when
    // valid (envNameMessages: its messages, -1 for ""); one with escapes is decoded; a missing
    // one (or a null entry) reads as "" and is Required, one of the wrong type was reported
    // (and the reserved name it is, if any, kept in the entry's mark for the reserved-env rule)
    let nameErrors = 0;
    let name: string | null = null;
    envReservedAt = -1;
    const raw = list.itemMemberRawTest(i, "name", checkEnvName);
    if (raw == 1) {
      nameErrors = envNameMessages < 0 ? 1 : envNameMessages;
      if (envNameMessages < 0) name = "";
    } else if (raw == -2) {
      name = list.itemStringOrNull(i, "name");
      if (name !== null) {
        nameErrors = envVarNameErrors(name).length;
        envReservedAt = reserved.indexOf(name);
      }
    } else {
      const kind = list.itemMemberKind(i, "name");
      if (kind < 0 || kind == JsonKind.Null) {
        name = "";
        nameErrors = 1;
      }
    }
    if (envReservedAt >= 0) unchecked((marks[i] = mark | ((<u8>(envReservedAt + 1)) << ENV_RESERVED_SHIFT)));
    const hasValueFrom = (mark & ENV_VALUE_FROM) != 0;
    // a value is set when it is a string that is not empty (an escape is never empty)
    const value = hasValueFrom ? list.itemMemberRawTest(i, "value", isNotEmpty) : -1;
    const hasValue = value == 1 || (value == -2 && list.itemMemberIsDecodableString(i, "value"));
    const sources = hasValueFrom ? sourceCount(list.at(i)) : 1;
    if (nameErrors == 0 && !hasValue && sources == 1) continue;
    if (errs.full) {
      // past the collection limit violations are only counted
      let n = nameErrors;
      if (hasValue) n++;
      if (sources != 1) n++;
      for (let k = 0; k < n; k++) errs.omit();
      continue;
    }
    if (name === null && raw == 1) name = list.itemStringOrNull(i, "name");
    const at = envPath.index(i);
    if (name !== null) {
      if (name.length == 0) errs.add(required(at.child("name"), "engineOverrides env entries must declare a Name"));
      else errs.addInvalidStringPerMessage(at.child("name"), name, envVarNameErrors(name), "invalid env var name: ");
    }
    if (hasValue) {
      errs.add(
        invalidString(
          at,
          name !== null ? name : "",
          "env entry may set value OR valueFrom, not both — engine pods carrying this entry would fail Kubernetes Pod validation",
        ),
      );
    }
    if (sources == 0) {
      errs.add(
        required(
          at.child("valueFrom"),
          "valueFrom must select exactly one source (e.g. fieldRef, resourceFieldRef, configMapKeyRef, or secretKeyRef)",
        ),
      );
    } else if (sources > 1) {
      errs.add(invalidInt(at.child("valueFrom"), sources, "valueFrom must select exactly one source — multiple set"));
    }
  }
  if (!adapterOk) return;
  const rid = goQuote(b.runtimeId);
  const args = reservedArgs(<RuntimeAdapter>adapter);
  const argList = b.args;
  if (argList !== null) {
    // one record walk per reserved flag turns most args away on their first bytes; an arg is
    // decoded only when it may set a reserved flag, and the hits are reported in list order
    const n = argList.size();
    const hit = new StaticArray<u8>(n);
    for (let k = 0; k < args.length; k++) {
      for (let i = argList.indexOfItemStartingWith(unchecked(args[k])); i >= 0;) {
        unchecked((hit[i] = 1));
        i = argList.indexOfItemStartingWith(unchecked(args[k]), i + 1);
      }
    }
    for (let i = 0; i < n; i++) {
      if (unchecked(hit[i]) == 0) continue;
      const item = stringItem(argList, i);
      const flag = item !== null ? reservedLeadingFlag(item, args) : "";
      if (flag.length == 0) continue;
      if (errs.full) errs.omit();
      else errs.add(forbidden(ov.child("args").index(i), reservedArgDetail(flag, rid)));
    }
  }
  const suppressArgs = b.suppressArgs;
  if (suppressArgs !== null) {
    const n = suppressArgs.size();
    for (let i = 0; i < n; i++) {
      const flag = stringItem(suppressArgs, i);
      if (flag !== null && containsString(args, flag)) {
        if (errs.full) errs.omit();
        else errs.add(forbidden(ov.child("suppressArgs").index(i), reservedArgDetail(flag, rid)));
      }
    }
  }
  for (let i = 0; i < envCount; i++) {
    // the reserved name the entry's name is, found when the name was read
    const k = ((<i32>unchecked(marks[i])) >> ENV_RESERVED_SHIFT) - 1;
    if (k < 0) continue;
    if (errs.full) errs.omit();
    else errs.add(forbidden(envPath.index(i).child("name"), reservedEnvDetail(unchecked(reserved[k]), rid)));
  }
  const suppressEnv = b.suppressEnv;
  if (suppressEnv !== null) {
    const n = suppressEnv.size();
    for (let i = 0; i < n; i++) {
      const name = stringItem(suppressEnv, i);
      if (name !== null && containsString(reserved, name)) {
        if (errs.full) errs.omit();
        else errs.add(forbidden(ov.child("suppressEnv").index(i), reservedEnvDetail(name, rid)));
      }
    }
  }
}

/** What checkEnvName found: the IsEnvVarName messages of the name (-1 for ""), and the position
 *  of the name in envReserved (-1: none). */
let envNameMessages: i32 = 0;
let envReservedAt: i32 = -1;
let envReserved: string[] = [];
/** the bits of an env entry's mark above ENV_SKIP and ENV_VALUE_FROM: 1 + its envReserved position */
const ENV_RESERVED_SHIFT: u8 = 2;

/** itemMemberRawTest's test for an env name without escapes, read on its bytes (AssemblyScript
 *  functions close over nothing, so it answers in envNameMessages and envReservedAt); always true. */
function checkEnvName(data: usize, s: i32, e: i32): bool {
  envNameMessages =
    e == s
      ? -1
      : (matchesEnvVarNamePatternBytes(data, s, e) ? 0 : 1) + (hasEnvVarNameDotErrorBytes(data, s, e) ? 1 : 0);
  envReservedAt = -1;
  for (let k = 0; k < envReserved.length && envReservedAt < 0; k++) {
    // the reserved names are ASCII: byte for unit
    const r = unchecked(envReserved[k]);
    if (r.length != e - s) continue;
    let same = true;
    for (let j = 0; j < r.length && same; j++) same = <i32>load<u8>(data + <usize>(s + j)) == <i32>r.charCodeAt(j);
    if (same) envReservedAt = k;
  }
  return true;
}

/** itemMemberRawTest's test for a set value. */
function isNotEmpty(data: usize, s: i32, e: i32): bool {
  return e > s;
}

/** Non-null members among the EnvVarSource sources. */
function sourceCount(entry: JsonValue | null): i32 {
  // ENV_VALUE_FROM marks an entry whose valueFrom is an object
  const valueFrom = entry !== null ? entry.get("valueFrom") : null;
  if (valueFrom === null) return 0;
  const sources = envSources();
  let n = 0;
  for (let i = 0; i < sources.length; i++) if (valueFrom.getPresent(sources[i]) !== null) n++;
  return n;
}

/** The flag an `args` entry sets: for `-`-prefixed entries the text before the first `=`;
 *  "" for a positional entry. */
/** The reserved flag `leadingFlag(arg)` is, or "" when it is none of `reserved`: compared in
 *  place, without a substring per arg (engineOverrides.args can hold 50,000 of them). */
function reservedLeadingFlag(arg: string, reserved: string[]): string {
  if (!arg.startsWith("-")) return "";
  const eq = arg.indexOf("=");
  const len = eq < 0 ? arg.length : eq;
  for (let k = 0; k < reserved.length; k++) {
    const r = unchecked(reserved[k]);
    if (r.length == len && arg.startsWith(r)) return r;
  }
  return "";
}

export function leadingFlag(arg: string): string {
  if (!arg.startsWith("-")) return "";
  const eq = arg.indexOf("=");
  return eq < 0 ? arg : arg.substring(0, eq);
}

function reservedArgDetail(flag: string, rid: string): string {
  return (
    "arg " +
    goQuote(flag) +
    " is reserved by the " +
    rid +
    " runtime adapter and cannot be overridden or suppressed via spec.integration.engineOverrides; the adapter strictly requires this flag for the integration to function"
  );
}

function reservedEnvDetail(name: string, rid: string): string {
  return (
    "env " +
    goQuote(name) +
    " is reserved by the " +
    rid +
    " runtime adapter and cannot be overridden or suppressed via spec.integration.engineOverrides; the adapter strictly requires this env for the integration to function"
  );
}
