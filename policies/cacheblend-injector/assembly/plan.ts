// The cacheblend-injector planner: docs/policies/cacheblend-injector.md#steps. Steps 1–16 are the
// shared LMCache-operator steps (assembly/lmcache/plan.ts) with the CacheBlend keys and flavor (an
// engine reference may name another namespace, the CacheBlendEngine is required, a payload image is
// required); step 17, the commit, is this policy's wiring, in the Go webhook's order: hostIPC,
// staging, the flag set, pull secrets, stamps. It never edits the pod.
import { DecodedRequest, KubernetesLookups } from "../../../assembly/kubewarden/index";
import { Plan } from "../../../assembly/k8s/index";
import { JsonValue } from "../../../assembly/json/index";
import {
  CACHEBLEND_FLAG_ATTENTION_BACKEND,
  CACHEBLEND_FLAG_BLOCK_SIZE,
  CACHEBLEND_FLAG_COMPILATION_CONFIG,
  CACHEBLEND_FLAG_ENFORCE_EAGER,
  CACHEBLEND_FLAG_NO_ASYNC_SCHEDULING,
  CACHEBLEND_FLAG_NO_CHUNKED_PREFILL,
  CACHEBLEND_FLAG_PIPELINE_PARALLEL_SIZE,
  cacheblendKeys,
  KV_TRANSFER_CONFIG_FLAG,
} from "../../../assembly/keys/index";
import {
  addIpcEdits,
  addNixlEdits,
  addStagingEdits,
  CacheBlendFlavor,
  SETTING_CACHEBLEND_ARGS,
  Decision,
  Prepared,
  prepareInjection,
  stampInjected,
  wireDecision,
} from "../../../assembly/lmcache/index";

export { Decision, DecisionKind } from "../../../assembly/lmcache/index";

// @ts-ignore: decorator
@lazy
export const ATTENTION_BACKEND_CUSTOM = "CUSTOM";
// @ts-ignore: decorator
@lazy
export const BLOCK_SIZE = "64";
// @ts-ignore: decorator
@lazy
export const PIPELINE_PARALLEL_SIZE = "1";
// @ts-ignore: decorator
@lazy
export const CUDAGRAPH_PIECEWISE = "piecewise";
// @ts-ignore: decorator
@lazy
export const CUDAGRAPH_FULL_DECODE_ONLY = "full_decode_only";
// @ts-ignore: decorator
@lazy
export const FULL_DECODE_ONLY_COMPILATION_CONFIG = '{"cudagraph_mode":"FULL_DECODE_ONLY"}';

/** What `injection.cudagraph` asks of the args. */
export enum CudagraphAction {
  /** `applyBareFlag("--enforce-eager")`: `eager`, absent, "" and any unrecognized value */
  EnforceEager = 0,
  /** `piecewise`: nothing (a user `--enforce-eager` stays) */
  Nothing = 1,
  /** `full_decode_only`: `applyArg("--compilation-config", {"cudagraph_mode":"FULL_DECODE_ONLY"})` */
  FullDecodeOnly = 2,
}

/** The cudagraph rule (docs/policies/cacheblend-injector.md#flags): only the two exact non-default
 *  values change anything; everything else means eager, as the Go webhook's switch default. */
export function cudagraphAction(cudagraph: string): CudagraphAction {
  if (cudagraph == CUDAGRAPH_PIECEWISE) return CudagraphAction.Nothing;
  if (cudagraph == CUDAGRAPH_FULL_DECODE_ONLY) return CudagraphAction.FullDecodeOnly;
  return CudagraphAction.EnforceEager;
}

/** Today's flag set (docs/policies/cacheblend-injector.md#flags): `cacheblendArgs` when it is
 *  `current` or `legacy`, else the engine's generation. */
export function usesCurrentFlags(settings: JsonValue, currentEngine: bool): bool {
  if (settings.stringEquals(SETTING_CACHEBLEND_ARGS, "current")) return true;
  if (settings.stringEquals(SETTING_CACHEBLEND_ARGS, "legacy")) return false;
  return currentEngine;
}

/** The flag set, in its order, as edits on container `target` (applied one after another, so each
 *  sees the args the previous one left). The kv flag only when the user has none. Today's set
 *  drops `--attention-backend`, `--block-size` and `--no-async-scheduling`. */
export function addFlagEdits(
  plan: Plan,
  target: i32,
  kvText: string,
  userHasKV: bool,
  cudagraph: string,
  current: bool = false,
): void {
  if (!current) plan.applyArg(target, CACHEBLEND_FLAG_ATTENTION_BACKEND, ATTENTION_BACKEND_CUSTOM);
  if (!userHasKV) plan.applyArg(target, KV_TRANSFER_CONFIG_FLAG, kvText);
  plan.applyBareFlag(target, CACHEBLEND_FLAG_NO_CHUNKED_PREFILL);
  if (!current) plan.applyArg(target, CACHEBLEND_FLAG_BLOCK_SIZE, BLOCK_SIZE);
  plan.applyArg(target, CACHEBLEND_FLAG_PIPELINE_PARALLEL_SIZE, PIPELINE_PARALLEL_SIZE);
  if (!current) plan.applyBareFlag(target, CACHEBLEND_FLAG_NO_ASYNC_SCHEDULING);
  const action = cudagraphAction(cudagraph);
  if (action == CudagraphAction.EnforceEager) plan.applyBareFlag(target, CACHEBLEND_FLAG_ENFORCE_EAGER);
  else if (action == CudagraphAction.FullDecodeOnly)
    plan.applyArg(target, CACHEBLEND_FLAG_COMPILATION_CONFIG, FULL_DECODE_ONLY_COMPILATION_CONFIG);
}

/** The steps for one decoded `validate` payload. */
export function planCacheblendInjection(decoded: DecodedRequest, lookups: KubernetesLookups): Decision {
  const keys = cacheblendKeys();
  const prepared = new Prepared();
  const end = prepareInjection<CacheBlendFlavor>(decoded, lookups, keys, prepared);
  if (end !== null) return end;

  // 17. commit: hostIPC, staging (always: step 14 skipped without an image), flags, secrets, stamps
  const decision = wireDecision(prepared);
  const target = prepared.target;
  const plan = decision.plan;
  if (prepared.pd.isDecoder) {
    // a decoder runs a bare NixlConnector: the connection config, the NIXL env and the stamps only
    if (!decision.userHasKV) plan.applyArg(target, KV_TRANSFER_CONFIG_FLAG, prepared.kvText);
    addNixlEdits(plan, target, prepared.pd);
    stampInjected(decision, keys);
    return decision;
  }
  addIpcEdits(plan, target, prepared.ipc);
  addStagingEdits(plan, target, keys, prepared.payload);
  const injection = prepared.injection;
  // prepareInjection ended on a missing request, so it is here
  const request = decoded.request;
  const current =
    request !== null ? usesCurrentFlags(request.settings, injection.generation.current) : injection.generation.current;
  addFlagEdits(plan, target, prepared.kvText, decision.userHasKV, injection.cudagraph, current);
  plan.mergePullSecrets(prepared.secrets);
  addNixlEdits(plan, target, prepared.pd);
  stampInjected(decision, keys);
  return decision;
}
