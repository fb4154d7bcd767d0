// The lmcache-injector planner: docs/policies/lmcache-injector.md#steps. Steps 1–16 are the shared
// LMCache-operator steps (assembly/lmcache/plan.ts) with the LMCache keys; step 17, the commit, is
// this policy's wiring. It never edits the pod: a Wire decision is the whole wiring and a Skip
// carries nothing but its reason (all-or-nothing, D2).
import { DecodedRequest, KubernetesLookups } from "../../../assembly/kubewarden/index";
import {
  KV_TRANSFER_CONFIG_FLAG,
  lmcacheKeys,
  PYTHONHASHSEED_ENV,
  PYTHONHASHSEED_VALUE,
} from "../../../assembly/keys/index";
import {
  addIpcEdits,
  addNixlEdits,
  addStagingEdits,
  Decision,
  LMCacheFlavor,
  Prepared,
  prepareInjection,
  stampInjected,
  wireDecision,
} from "../../../assembly/lmcache/index";

export { Decision, DecisionKind } from "../../../assembly/lmcache/index";

/** The steps for one decoded `validate` payload. */
export function planLmcacheInjection(decoded: DecodedRequest, lookups: KubernetesLookups): Decision {
  const keys = lmcacheKeys();
  const prepared = new Prepared();
  const end = prepareInjection<LMCacheFlavor>(decoded, lookups, keys, prepared);
  if (end !== null) return end;

  // 17. commit: wiring, then staging and secrets, then stamps
  const decision = wireDecision(prepared);
  const target = prepared.target;
  const plan = decision.plan;
  addIpcEdits(plan, target, prepared.ipc);
  if (!decision.userHasKV) plan.appendArgs(target, [KV_TRANSFER_CONFIG_FLAG, prepared.kvText]);
  plan.envSetIfAbsent(target, PYTHONHASHSEED_ENV, PYTHONHASHSEED_VALUE);
  if (prepared.payload.stages) {
    addStagingEdits(plan, target, keys, prepared.payload);
    plan.mergePullSecrets(prepared.secrets);
  }
  addNixlEdits(plan, target, prepared.pd);
  stampInjected(decision, keys);
  return decision;
}
