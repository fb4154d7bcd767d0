// A CacheBackend as the defaulter reads it (docs/policies/cachebackend-defaulter.md#fields-read):
// the members its steps read, each checked for its JSON type in step order, the first wrong one
// kept (#malformed-objects). Canonical or legacy and the runtime ID come from the shared reading
// of assembly/keys/inferencecache.ts. Pure: an object in, a view out; nothing is written.
import { JsonKind, JsonValue } from "../../../assembly/json/index";
import { isCanonicalSpec, isNfsStorage, runtimeIdOf } from "../../../assembly/keys/index";
import { integralI64 } from "../../../assembly/validate/scalars";
import {
  isGoDuration,
  isGoDurationBytes,
  MUST_BE_DURATION,
  MUST_BE_NUMBER,
  MUST_BE_OBJECT,
  MUST_BE_STRING,
} from "../../../assembly/validate/index";

// the members the reader checks, in step order; a path is a text built only for a message
export const AT_SPEC: i32 = 0;
export const AT_RUNTIME: i32 = 1;
export const AT_RESOURCES: i32 = 2;
export const AT_INTEGRATION: i32 = 3;
export const AT_ENGINE: i32 = 4;
export const AT_OBSERVATION: i32 = 5;
export const AT_OBSERVATION_TIMEOUT: i32 = 6;
export const AT_INTEGRATION_TIMEOUT: i32 = 7;
export const AT_AUTOSCALING: i32 = 8;
export const AT_MIN_REPLICAS: i32 = 9;
export const AT_REPLICAS: i32 = 10;
export const AT_TYPE: i32 = 11;

/** The path of member `at` (an AT_* value). */
export function pathOf(at: i32): string {
  switch (at) {
    case AT_SPEC:
      return "spec";
    case AT_RUNTIME:
      return "spec.runtime";
    case AT_RESOURCES:
      return "spec.resources";
    case AT_INTEGRATION:
      return "spec.integration";
    case AT_ENGINE:
      return "spec.integration.engine";
    case AT_OBSERVATION:
      return "spec.observation";
    case AT_OBSERVATION_TIMEOUT:
      return "spec.observation.firstEventTimeout";
    case AT_INTEGRATION_TIMEOUT:
      return "spec.integration.firstEventTimeout";
    case AT_AUTOSCALING:
      return "spec.autoscaling";
    case AT_MIN_REPLICAS:
      return "spec.autoscaling.minReplicas";
    case AT_REPLICAS:
      return "spec.replicas";
    default:
      return "spec.type";
  }
}

/** The members the steps read. Absent means missing or JSON null; an empty string is present. */
export class BackendView {
  /** the first member of the wrong type in step order (AT_*), -1 when every one has its type */
  mistypedAt: i32 = -1;
  /** what it must be: `must be an object`, `a string`, `a number`, `a duration` */
  mistypedAs: string = "";

  spec: JsonValue | null = null;
  /** `spec.runtime` is a non-empty string (read in place: a long one is never decoded) */
  hasRuntime: bool = false;
  hasLmCache: bool = false;
  hasRemoteStorage: bool = false;
  hasResources: bool = false;
  integration: JsonValue | null = null;
  engine: string = "";
  observation: JsonValue | null = null;
  hasObservationTimeout: bool = false;
  hasIntegrationTimeout: bool = false;
  autoscaling: JsonValue | null = null;
  hasMinReplicas: bool = false;
  /** `spec.replicas` when it is an integer in int32 range (written as one, or as an integral float),
   *  else -1 (absent, a fraction, out of range) */
  replicas: i64 = -1;
  type: string = "";
  /** NFS storage: `spec.remoteStorage` is an object whose `provider` is `NFS` */
  nfs: bool = false;
  /** `spec.integration.failOpen` is present (integration read as an object) */
  hasFailOpen: bool = false;

  /** nothing the steps read is of the wrong type */
  get readable(): bool {
    return this.mistypedAt < 0;
  }

  /** canonical ⇔ runtime non-empty, or lmCache or remoteStorage present */
  get canonical(): bool {
    return isCanonicalSpec(this.hasRuntime, this.hasLmCache, this.hasRemoteStorage);
  }

  /** `spec.runtime` decoded ("" when absent): read only where its text is needed */
  get runtime(): string {
    const spec = this.spec;
    if (!this.hasRuntime || spec === null) return "";
    const s = spec.stringOrNull("runtime");
    return s !== null ? s : "";
  }

  /** the runtime ID: vllm, sglang, or another runtime lower-cased */
  get runtimeId(): string {
    return runtimeIdOf(this.runtime, this.engine);
  }
}

/** Reads members of one object, keeping the first of the wrong type. */
class Reader {
  constructor(public view: BackendView) {}

  fail(at: i32, what: string): void {
    if (this.view.mistypedAt >= 0) return;
    this.view.mistypedAt = at;
    this.view.mistypedAs = what;
  }

  /** member `key` when it is of `want`; null when absent (or the parent is) or of another kind,
   *  which fails with `what` */
  ofKind(parent: JsonValue | null, key: string, want: JsonKind, what: string, at: i32): JsonValue | null {
    if (parent === null) return null;
    const kind = kindOf(parent, key);
    if (kind < 0) return null;
    if (kind != want) {
      this.fail(at, what);
      return null;
    }
    return parent.get(key);
  }

  object(parent: JsonValue | null, key: string, at: i32): JsonValue | null {
    return this.ofKind(parent, key, JsonKind.Object, MUST_BE_OBJECT, at);
  }

  number(parent: JsonValue | null, key: string, at: i32): JsonValue | null {
    return this.ofKind(parent, key, JsonKind.Number, MUST_BE_NUMBER, at);
  }

  /** member `key` as a string (read in place, no node); null when absent or of another kind */
  str(parent: JsonValue | null, key: string, at: i32): string | null {
    if (parent === null) return null;
    const s = parent.stringOrNull(key); // a decodable string
    if (s !== null) return s;
    if (kindOf(parent, key) >= 0) this.fail(at, MUST_BE_STRING);
    return null;
  }

  /** whether member `key` is present: a string Go's time.ParseDuration accepts, else a failure
   *  (checked on the member's bytes; decoded only when it has escapes) */
  duration(parent: JsonValue | null, key: string, at: i32): bool {
    if (parent === null) return false;
    const raw = parent.memberRawTest(key, isGoDurationBytes);
    if (raw == 1) return true;
    if (raw == 0) {
      this.fail(at, MUST_BE_DURATION);
      return true;
    }
    const s = this.str(parent, key, at);
    if (s === null) return false;
    if (!isGoDuration(s)) this.fail(at, MUST_BE_DURATION);
    return true;
  }

  /** whether member `key` is a non-empty string (its bytes, or for escapes whether it decodes) */
  nonEmptyString(parent: JsonValue | null, key: string, at: i32): bool {
    if (parent === null) return false;
    const raw = parent.memberRawTest(key, nonEmptyBytes);
    if (raw >= 0) return raw == 1;
    // escapes (never an empty string), or another kind
    if (raw == -2 && parent.memberIsDecodableString(key)) return true;
    if (kindOf(parent, key) >= 0) this.fail(at, MUST_BE_STRING);
    return false;
  }
}

function nonEmptyBytes(data: usize, s: i32, e: i32): bool {
  return e > s;
}

/** The kind of member `key` of `parent`, or -1 when it or the parent is absent (JSON null included). */
function kindOf(parent: JsonValue | null, key: string): i32 {
  if (parent === null) return -1;
  const kind = parent.memberKind(key);
  return kind == JsonKind.Null ? -1 : kind;
}

/** Reads a CacheBackend `object` (a JSON object) in step order. */
export function readBackend(object: JsonValue): BackendView {
  const v = new BackendView();
  const r = new Reader(v);
  const spec = r.object(object, "spec", AT_SPEC);
  v.spec = spec;
  // step 1: canonical or legacy, resources
  v.hasRuntime = r.nonEmptyString(spec, "runtime", AT_RUNTIME);
  v.hasLmCache = kindOf(spec, "lmCache") >= 0;
  v.hasRemoteStorage = kindOf(spec, "remoteStorage") >= 0;
  v.hasResources = r.object(spec, "resources", AT_RESOURCES) !== null;
  // steps 2, 3: integration, engine
  const integration = r.object(spec, "integration", AT_INTEGRATION);
  v.integration = integration;
  const engine = r.str(integration, "engine", AT_ENGINE);
  v.engine = engine !== null ? engine : "";
  // step 4: the first-event timeouts
  const observation = r.object(spec, "observation", AT_OBSERVATION);
  v.observation = observation;
  v.hasObservationTimeout = r.duration(observation, "firstEventTimeout", AT_OBSERVATION_TIMEOUT);
  v.hasIntegrationTimeout = r.duration(integration, "firstEventTimeout", AT_INTEGRATION_TIMEOUT);
  // step 5: the autoscaling floor
  const autoscaling = r.object(spec, "autoscaling", AT_AUTOSCALING);
  v.autoscaling = autoscaling;
  v.hasMinReplicas = r.number(autoscaling, "minReplicas", AT_MIN_REPLICAS) !== null;
  const replicas = r.number(spec, "replicas", AT_REPLICAS);
  if (replicas !== null) {
    const n = integralI64(replicas);
    if (n.ok && n.value >= <i64>i32.MIN_VALUE && n.value <= <i64>i32.MAX_VALUE) v.replicas = n.value;
  }
  // the NFS failOpen warning
  const type = r.str(spec, "type", AT_TYPE);
  v.type = type !== null ? type : "";
  if (spec !== null && v.hasRemoteStorage) {
    // an object whose provider is a string (another shape is the CRD's to refuse: not NFS)
    const rs = spec.get("remoteStorage");
    const provider = rs !== null ? rs.stringOrNull("provider") : null;
    v.nfs = provider !== null && isNfsStorage(true, provider);
  }
  v.hasFailOpen = kindOf(integration, "failOpen") >= 0;
  return v;
}
