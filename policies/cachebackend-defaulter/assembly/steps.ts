// The five defaulting steps (docs/policies/cachebackend-defaulter.md#steps), each a pure function of
// the BackendView, and the NFS failOpen warning (#nfs-failopen-warning). A step only decides;
// apply.ts writes. No step overwrites a member the request holds: each writes only what is absent.
import { TYPE_SGLANG_HICACHE, effectiveCacheType } from "../../../assembly/keys/index";
import { BackendView } from "./backend";

/** What step 4 writes for the first-event timeout. */
export enum Timeout {
  /** nothing */
  None = 0,
  /** `spec.observation.firstEventTimeout`: a copy of `spec.integration.firstEventTimeout` as written */
  ObservationCopy = 1,
  /** `spec.observation.firstEventTimeout: 5m0s` */
  ObservationDefault = 2,
  /** `spec.integration.firstEventTimeout: 5m0s` (legacy) */
  IntegrationDefault = 3,
}

/** Everything the steps decided for one object, in step order. */
export class Defaults {
  /** `spec` is absent: it is written as `{}` first */
  spec: bool = false;
  /** step 1: `spec.resources` 4Gi/8Gi */
  resources: bool = false;
  /** step 2: `spec.integration: {}` */
  integration: bool = false;
  /** step 3: `spec.integration.engine` = the runtime ID (`engineOf`) */
  engine: bool = false;
  /** step 4: `spec.observation: {}` (canonical) */
  observation: bool = false;
  /** step 4: the first-event timeout */
  timeout: Timeout = Timeout.None;
  /** step 5: `spec.autoscaling.minReplicas`, or -1 */
  minReplicas: i64 = -1;

  /** whether any step writes something */
  get changes(): bool {
    return (
      this.spec ||
      this.resources ||
      this.integration ||
      this.engine ||
      this.observation ||
      this.timeout != Timeout.None ||
      this.minReplicas >= 1
    );
  }
}

/** Step 1: a legacy backend without `spec.resources` gets the bounded provider default. A present
 *  `resources` (also `{}`) is the user's and stays; a canonical backend never gets one. */
export function defaultsResources(v: BackendView): bool {
  return !v.canonical && !v.hasResources;
}

/** Step 2: `spec.integration` absent → `{}` (the API server then applies its schema defaults). */
export function defaultsIntegration(v: BackendView): bool {
  return v.integration === null;
}

/** Step 3: `spec.integration.engine` absent or `""` → the runtime ID (`engineOf`). */
export function defaultsEngine(v: BackendView): bool {
  return v.engine.length == 0;
}

/** The engine step 3 writes: the runtime ID (the one rule, `runtimeIdOf`, the validator and
 *  hicache-injector read), `vllm` for a legacy backend (it has no runtime). */
export function engineOf(v: BackendView): string {
  return v.runtimeId;
}

/** Step 4 for a canonical backend: whether `spec.observation` is written as `{}`. */
export function defaultsObservation(v: BackendView): bool {
  return v.canonical && v.observation === null;
}

/** Step 4: the first-event timeout. Canonical: `observation.firstEventTimeout` absent → the
 *  integration's as written, else `5m0s`. Legacy: `integration.firstEventTimeout` absent → `5m0s`. */
export function defaultedTimeout(v: BackendView): Timeout {
  if (v.canonical) {
    if (v.hasObservationTimeout) return Timeout.None;
    return v.hasIntegrationTimeout ? Timeout.ObservationCopy : Timeout.ObservationDefault;
  }
  return v.hasIntegrationTimeout ? Timeout.None : Timeout.IntegrationDefault;
}

/** Step 5: with `spec.autoscaling` and no `minReplicas`, an integer `spec.replicas` ≥ 1 becomes the
 *  floor; -1 otherwise (0 is no floor the schema allows: the validator asks for one). */
export function defaultedMinReplicas(v: BackendView): i64 {
  if (v.autoscaling === null || v.hasMinReplicas || v.replicas < 1) return -1;
  return v.replicas;
}

/** The five steps, in order; nothing for an object with a member of the wrong type (all or nothing). */
export function planDefaults(v: BackendView): Defaults {
  const d = new Defaults();
  if (!v.readable) return d;
  d.spec = v.spec === null;
  d.resources = defaultsResources(v);
  d.integration = defaultsIntegration(v);
  d.engine = defaultsEngine(v);
  d.observation = defaultsObservation(v);
  d.timeout = defaultedTimeout(v);
  d.minReplicas = defaultedMinReplicas(v);
  return d;
}

/** The NFS failOpen warning is due: an SGLang HiCache backend on NFS storage without
 *  `integration.failOpen` in the request, which the schema then defaults to true and the validator
 *  rejects. Only for a readable object: a malformed one is refused for its types first. */
export function warnsNfsFailOpen(v: BackendView): bool {
  return v.readable && effectiveCacheType(v.type) == TYPE_SGLANG_HICACHE && v.nfs && !v.hasFailOpen;
}
