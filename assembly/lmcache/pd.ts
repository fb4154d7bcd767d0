// Prefill/decode disaggregation of today's operator (docs/policies/lmcache-injector.md#pd-roles):
// the `lmcache.ai/pd-role` annotation picks the connection key of an engine with `spec.pd`, and
// every pod wired to such an engine gets the NIXL side-channel env (never overriding the user's).
import { JsonValue } from "../json/index";
import { envVar, nameRef, Plan } from "../k8s/index";
import { NIXL_HOST_ENV, NIXL_PORT_ENV, PD_ROLE_DECODER, PD_ROLE_PREFILLER, roleConnectionKey } from "../keys/index";

/** What the role annotation means for one engine. */
export class PdWiring {
  /** the engine has `spec.pd`: role keys and NIXL env apply */
  active: bool = false;
  /** the trimmed annotation ("" = none) */
  role: string = "";
  /** NIXL port text when `active` */
  nixlPort: string = "";

  /** `""`, `prefiller` or `decoder` (compared exactly) */
  get known(): bool {
    return this.role.length == 0 || this.role == PD_ROLE_PREFILLER || this.role == PD_ROLE_DECODER;
  }
  /** a role that is read (the engine has `spec.pd`) and is not a known one: skip `unknown-pd-role`.
   *  Without `spec.pd` the role is never read, so no role is unknown (it is `ignored`). */
  get unknown(): bool {
    return this.active && !this.known;
  }
  /** the ConfigMap key the role reads (the plain key unless active with a known role) */
  get connectionKey(): string {
    return this.active && this.known ? roleConnectionKey(this.role) : roleConnectionKey("");
  }
  get isDecoder(): bool {
    return this.active && this.role == PD_ROLE_DECODER;
  }
  /** a non-blank role on a pod whose engine has no `spec.pd` (warned) */
  get ignored(): bool {
    return !this.active && this.role.length > 0;
  }
}

/** `{"name":"VLLM_NIXL_SIDE_CHANNEL_HOST","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}` */
function nixlHostEntry(): JsonValue {
  const fieldRef = JsonValue.object();
  fieldRef.set("fieldPath", JsonValue.str("status.podIP"));
  const valueFrom = JsonValue.object();
  valueFrom.set("fieldRef", fieldRef);
  const o = nameRef(NIXL_HOST_ENV);
  o.set("valueFrom", valueFrom);
  return o;
}

/** The NIXL env, after every other env edit: host then port, each only if no entry has its name. */
export function addNixlEdits(plan: Plan, target: i32, pd: PdWiring): void {
  if (!pd.active) return;
  plan.appendToContainerListIfAbsent(target, "env", nixlHostEntry());
  plan.appendToContainerListIfAbsent(target, "env", envVar(NIXL_PORT_ENV, pd.nixlPort));
}
