// Rules 14–36 of docs/policies/cacheengine-validator.md#rules: the checks today's LMCache operator
// runs only in its controller (`ValidateSpec`), plus the schema constraints on the IPC and PD fields
// the injectors read, in the table's order after rule 13. Same conventions as rules.ts: each
// container is read once, a wrong JSON type is reported in place of the first rule that reads it,
// and the rules that need the unreadable value are skipped.
import { JsonValue, Read } from "../../../assembly/json/index";
import {
  FieldErrorList,
  Path,
  required,
  invalidString,
  invalidRaw,
  invalidJsonValue,
  notSupportedString,
  readObjectAt,
  readStringAt,
  readNumberAt,
  readInt32At,
  presentAt,
} from "../../../assembly/validate/index";
import { readIntegerAt, integerInRange, readBoolAt } from "../../../assembly/validate/scalars";

// ---- details as docs/policies/cacheengine-validator.md#rules lists them ----
// @ts-ignore: decorator
@lazy
export const UNIT_INTERVAL_DETAIL = "must be in (0.0, 1.0]";
// @ts-ignore: decorator
@lazy
export const GREATER_THAN_ZERO_DETAIL = "must be greater than 0";
// @ts-ignore: decorator
@lazy
export const UNPRIVILEGED_PORT_DETAIL = "must be in [1024, 65535]";
// @ts-ignore: decorator
@lazy
export const PARTIAL_BUCKET_DETAIL = "must be >= 1";
// @ts-ignore: decorator
@lazy
export const L2_BACKEND_NONE_DETAIL = "exactly one of resp or raw must be set";
// @ts-ignore: decorator
@lazy
export const L2_BACKEND_BOTH_DETAIL = "exactly one of resp or raw must be set, got multiple";
// @ts-ignore: decorator
@lazy
export const NON_EMPTY_STRING_DETAIL = "must be a non-empty string";
// @ts-ignore: decorator
@lazy
export const RESP_PORT_DETAIL = "must be in [1, 65535]";
// @ts-ignore: decorator
@lazy
export const NON_EMPTY_DETAIL = "must be non-empty";
// @ts-ignore: decorator
@lazy
export const SERDE_TYPE_DETAIL = "exactly one serde type must be set";
// @ts-ignore: decorator
@lazy
export const SERDE_RAW_CONFLICT_DETAIL = "cannot be combined with a raw adapter that sets a 'serde' config key";
// @ts-ignore: decorator
@lazy
export const COORDINATOR_BOTH_DETAIL = "exactly one of ref or url must be set, got both";
// @ts-ignore: decorator
@lazy
export const COORDINATOR_NONE_DETAIL = "exactly one of ref or url must be set";

const UNPRIVILEGED_PORT_MIN: i64 = 1024;
const PORT_MAX: i64 = 65535;
const RESP_PORT_MIN: i64 = 1;
const PARTIAL_BUCKET_MIN: i32 = 1;

/** The CRD's `gpuVendor` enum (the injectors take anything but `amd` as NVIDIA). */
export function gpuVendors(): string[] {
  return ["nvidia", "amd"];
}

/** The CRD's `pd.nixlLoadFailurePolicy` enum. */
export function nixlLoadFailurePolicies(): string[] {
  return ["fail", "ignore"];
}

/** Rules 14–36. `server` is `spec.server` when rule 1 already read it (CacheBlend), else null;
 *  `blend` is `spec.blend` as rules 2–3 read it (null for LMCache, which has no rule 18). */
export function operatorViolations(
  isCacheBlend: bool,
  spec: JsonValue | null,
  specPath: Path,
  server: Read<JsonValue | null> | null,
  blend: Read<JsonValue | null> | null,
  errs: FieldErrorList,
): void {
  // Paths and reads are allocated only for members that are there: the runtime never frees, and a
  // typical engine sets few of these fields (tools/bench/page-budget.json holds the pages).
  const l1 = objectAt(spec, "l1", specPath, errs);
  if (has(l1, "sizeGB")) rejectNotPositive(l1, "sizeGB", specPath.child("l1"), errs); // 14
  const eviction = objectAt(spec, "eviction", specPath, errs);
  if (has(eviction, "triggerWatermark") || has(eviction, "evictionRatio")) {
    const evictionPath = specPath.child("eviction");
    rejectOutsideUnitInterval(eviction, "triggerWatermark", evictionPath, errs); // 15
    rejectOutsideUnitInterval(eviction, "evictionRatio", evictionPath, errs); // 16
  }
  const serverNode = server !== null ? server.value : objectAt(spec, "server", specPath, errs);
  if (has(serverNode, "port")) {
    const serverPath = specPath.child("server");
    rejectIntegerOutside(
      serverNode,
      "port",
      serverPath,
      UNPRIVILEGED_PORT_MIN,
      PORT_MAX,
      UNPRIVILEGED_PORT_DETAIL,
      errs,
    ); // 17
  }
  const blendNode = isCacheBlend && blend !== null ? blend.value : null;
  if (has(blendNode, "partialBucket")) rejectPartialBucketBelowOne(blendNode, specPath.child("blend"), errs); // 18
  const l2Backend = objectAt(spec, "l2Backend", specPath, errs);
  if (l2Backend !== null) checkL2Backend(l2Backend, specPath.child("l2Backend"), errs); // 19–27
  const coordinator = objectAt(spec, "coordinator", specPath, errs);
  if (coordinator !== null) checkCoordinator(coordinator, specPath.child("coordinator"), errs); // 28–31
  if (has(spec, "gpuVendor")) rejectUnsupportedString(spec, "gpuVendor", specPath, gpuVendors, errs); // 32
  if (has(spec, "hostIPC")) readBoolAt(spec, "hostIPC", specPath, errs); // 33: the type error is the rule
  if (!isCacheBlend && has(spec, "isolatedIPC")) readBoolAt(spec, "isolatedIPC", specPath, errs); // 34
  const pd = objectAt(spec, "pd", specPath, errs);
  if (pd !== null) {
    const pdPath = specPath.child("pd");
    rejectIntegerOutside(
      pd,
      "nixlSideChannelPort",
      pdPath,
      UNPRIVILEGED_PORT_MIN,
      PORT_MAX,
      UNPRIVILEGED_PORT_DETAIL,
      errs,
    ); // 35
    rejectUnsupportedString(pd, "nixlLoadFailurePolicy", pdPath, nixlLoadFailurePolicies, errs); // 36
  }
}

/** Whether `parent.key` is there (present and not null); allocates nothing. */
function has(parent: JsonValue | null, key: string): bool {
  return presentAt(parent, key) !== null;
}

/** `parent.key` as an object, null when absent or of the wrong type (then reported); an absent
 *  member costs no allocation. */
function objectAt(parent: JsonValue | null, key: string, at: Path, errs: FieldErrorList): JsonValue | null {
  if (!has(parent, key)) return null;
  return readObjectAt(parent, key, at, errs).value;
}

// 18. `blend.partialBucket` < 1. An int32 like its sibling `checkLayer` (rule 2), so a whole number
// beyond int32 is `must be a 32-bit integer`, never "must be >= 1".
function rejectPartialBucketBelowOne(blend: JsonValue | null, at: Path, errs: FieldErrorList): void {
  const partialBucket = readInt32At(blend, "partialBucket", at, errs);
  if (!partialBucket.ok || partialBucket.value >= PARTIAL_BUCKET_MIN) return;
  const node = presentAt(blend, "partialBucket");
  if (node !== null) errs.add(invalidJsonValue(at.child("partialBucket"), node, PARTIAL_BUCKET_DETAIL));
}

// 19–27, for a present `spec.l2Backend` object. The type errors of `resp` and `raw` take rule 19's
// place (and skip rules 19–20, which need both); rule 20 does not stop rules 21–24.
function checkL2Backend(l2: JsonValue, at: Path, errs: FieldErrorList): void {
  const resp = readObjectAt(l2, "resp", at, errs);
  const raw = readObjectAt(l2, "raw", at, errs);
  if (!resp.invalid && !raw.invalid) {
    if (!resp.ok && !raw.ok)
      errs.add(required(at, L2_BACKEND_NONE_DETAIL)); // 19
    else if (resp.ok && raw.ok) errs.add(invalidString(at, "", L2_BACKEND_BOTH_DETAIL)); // 20
  }
  const respNode = resp.value;
  if (respNode !== null) {
    const respPath = at.child("resp");
    requireNonEmptyString(respNode, "host", respPath, NON_EMPTY_STRING_DETAIL, errs); // 21
    checkRespPort(respNode, respPath, errs); // 22
    const authSecretRef = readObjectAt(respNode, "authSecretRef", respPath, errs);
    const ref = authSecretRef.value;
    if (ref !== null) requireNonEmptyString(ref, "name", respPath.child("authSecretRef"), NON_EMPTY_DETAIL, errs); // 23
  }
  const rawNode = raw.value;
  if (rawNode !== null) requireNonEmptyString(rawNode, "type", at.child("raw"), NON_EMPTY_STRING_DETAIL, errs); // 24

  const serde = readObjectAt(l2, "serde", at, errs);
  const serdeNode = serde.value; // null when absent, or when its type error took rule 25's place
  const serdePath = at.child("serde");
  if (serdeNode !== null) {
    const aesgcm = readObjectAt(serdeNode, "aesgcm", serdePath, errs);
    if (aesgcm.missing) errs.add(required(serdePath, SERDE_TYPE_DETAIL)); // 25
    const aesgcmNode = aesgcm.value;
    if (aesgcmNode !== null) {
      const aesgcmPath = serdePath.child("aesgcm");
      const masterKey = readObjectAt(aesgcmNode, "masterKeySecretRef", aesgcmPath, errs);
      if (!masterKey.invalid) {
        requireNonEmptyString(masterKey.value, "name", aesgcmPath.child("masterKeySecretRef"), NON_EMPTY_DETAIL, errs); // 26
      }
    }
  }
  // 27. `raw.config` is type-checked whenever `raw` is there (the controller decodes it as a map).
  const config = readObjectAt(rawNode, "config", at.child("raw"), errs);
  const configNode = config.value;
  if (serdeNode !== null && configNode !== null && configNode.getPresent("serde") !== null) {
    errs.add(invalidString(serdePath, "", SERDE_RAW_CONFLICT_DETAIL)); // 27
  }
}

// 22. `resp.port` outside [1, 65535]; absent (or null) is the Go zero value and prints `0`.
function checkRespPort(resp: JsonValue, at: Path, errs: FieldErrorList): void {
  const port = readIntegerAt(resp, "port", at, errs);
  if (port.invalid) return;
  const node = port.value;
  if (node === null) {
    errs.add(invalidRaw(at.child("port"), "0", RESP_PORT_DETAIL));
  } else if (!integerInRange(node, RESP_PORT_MIN, PORT_MAX)) {
    errs.add(invalidJsonValue(at.child("port"), node, RESP_PORT_DETAIL));
  }
}

// 28–31, for a present `spec.coordinator` object. `{ref: {}}` and `url: ""` count as unset; a type
// error in `ref`, `ref.name` or `url` takes rule 28's place and skips 28–29.
function checkCoordinator(coordinator: JsonValue, at: Path, errs: FieldErrorList): void {
  const ref = readObjectAt(coordinator, "ref", at, errs);
  const refName = readStringAt(ref.value, "name", at.child("ref"), errs);
  const url = readStringAt(coordinator, "url", at, errs);
  if (!ref.invalid && !refName.invalid && !url.invalid) {
    const hasRef = refName.ok && refName.value.length > 0;
    const hasUrl = url.ok && url.value.length > 0;
    if (hasRef && hasUrl)
      errs.add(invalidString(at, "", COORDINATOR_BOTH_DETAIL)); // 28
    else if (!hasRef && !hasUrl) errs.add(required(at, COORDINATOR_NONE_DETAIL)); // 29
  }
  rejectNotPositive(coordinator, "heartbeatInterval", at, errs); // 30
  rejectNotPositive(coordinator, "l2EventFlushInterval", at, errs); // 31
}

/** `parent.key` present and in (0, 1], compared as the controller's float64 (no tolerance; a
 *  number beyond float64 range cannot be decoded there and is outside too). Rules 3, 15, 16. */
export function rejectOutsideUnitInterval(parent: JsonValue | null, key: string, at: Path, errs: FieldErrorList): void {
  const read = readNumberAt(parent, key, at, errs);
  const node = read.value;
  if (node === null) return;
  const f = node.asF64();
  if (!f.ok || f.value <= 0.0 || f.value > 1.0) errs.add(invalidJsonValue(at.child(key), node, UNIT_INTERVAL_DETAIL));
}

// Rules 14, 30, 31: `parent.key` present and ≤ 0 (a number beyond float64 range counts as outside,
// as for rule 3).
function rejectNotPositive(parent: JsonValue | null, key: string, at: Path, errs: FieldErrorList): void {
  const read = readNumberAt(parent, key, at, errs);
  const node = read.value;
  if (node === null) return;
  const f = node.asF64();
  if (!f.ok || f.value <= 0.0) errs.add(invalidJsonValue(at.child(key), node, GREATER_THAN_ZERO_DETAIL));
}

// Rules 17 and 35: `parent.key` a whole number outside [lo, hi].
function rejectIntegerOutside(
  parent: JsonValue | null,
  key: string,
  at: Path,
  lo: i64,
  hi: i64,
  detail: string,
  errs: FieldErrorList,
): void {
  const read = readIntegerAt(parent, key, at, errs);
  const node = read.value;
  if (node !== null && !integerInRange(node, lo, hi)) errs.add(invalidJsonValue(at.child(key), node, detail));
}

// Rules 21, 23, 24, 26: `parent.key` absent, null or "" is Required.
function requireNonEmptyString(
  parent: JsonValue | null,
  key: string,
  at: Path,
  detail: string,
  errs: FieldErrorList,
): void {
  const read = readStringAt(parent, key, at, errs);
  if (read.missing || (read.ok && read.value.length == 0)) errs.add(required(at.child(key), detail));
}

// Rules 32, 36: `parent.key` a string outside the enum ("" is present and outside). The list is
// built only when the field is there.
function rejectUnsupportedString(
  parent: JsonValue | null,
  key: string,
  at: Path,
  enumeration: () => string[],
  errs: FieldErrorList,
): void {
  const read = readStringAt(parent, key, at, errs);
  if (!read.ok) return;
  const supported = enumeration();
  if (!supported.includes(read.value)) errs.add(notSupportedString(at.child(key), read.value, supported));
}
