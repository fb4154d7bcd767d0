// Typed reads of integers of any size and of booleans, for range rules (ports, counts) that must
// answer with the rule's own message for any whole number, however large, instead of a 32-bit
// type error. Same conventions as fields.ts: `null` is absent, a wrong JSON type is a field error
// reported once (`must be an integer`, `must be a boolean`) and reads as Invalid.
import { JsonValue, Read, ReadState } from "../json/index";
import { FieldErrorList } from "./fielderrors";
import { invalidJsonValue, isIntegerText, presentAt, MUST_BE_INTEGER } from "./fields";
import { isFloat64AJSONInteger } from "./numbers";
import { childPath, Path } from "./path";

// @ts-ignore: decorator
@lazy
export const MUST_BE_BOOLEAN = "must be a boolean";

function wrongType<T>(
  at: Path | null,
  key: string,
  v: JsonValue,
  expected: string,
  value: T,
  errs: FieldErrorList,
): Read<T> {
  errs.add(invalidJsonValue(childPath(at, key), v, expected));
  return new Read<T>(ReadState.Invalid, value, expected);
}

/** Whether a JSON number is a whole number: integer text of any length, or an integral number
 *  written as a float or with an exponent (`5600.0`, `5.6e3`) as the API server admits it. */
export function isIntegralNumber(v: JsonValue): bool {
  if (!v.isNumber()) return false;
  if (isIntegerText(v.numberText())) return true;
  const f = v.asF64();
  return f.ok && isFloat64AJSONInteger(f.value);
}

/** The value of a whole JSON number (see isIntegralNumber) that fits i64; Invalid for any other
 *  value, so `64.0` and `6.4e1` read as 64 as `64` does. */
export function integralI64(v: JsonValue): Read<i64> {
  const n = v.asI64();
  if (n.ok || !v.isNumber() || isIntegerText(v.numberText())) return n;
  const f = v.asF64();
  if (f.ok && isFloat64AJSONInteger(f.value)) return new Read<i64>(ReadState.Ok, <i64>f.value);
  return new Read<i64>(ReadState.Invalid, 0, "not a whole number: " + v.numberText());
}

/** `parent.key` as a whole JSON number node (any magnitude; the caller checks the range). */
export function readIntegerAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<JsonValue | null> {
  const v = presentAt(parent, key);
  if (v === null) return new Read<JsonValue | null>(ReadState.Absent, null);
  if (!isIntegralNumber(v)) return wrongType<JsonValue | null>(at, key, v, MUST_BE_INTEGER, null, errs);
  return new Read<JsonValue | null>(ReadState.Ok, v);
}

/** Whether a whole number node lies in [lo, hi]; a value beyond i64 lies outside any such range. */
export function integerInRange(v: JsonValue, lo: i64, hi: i64): bool {
  const n = v.asI64();
  if (n.ok) return n.value >= lo && n.value <= hi;
  if (isIntegerText(v.numberText())) return false; // beyond i64
  const f = v.asF64();
  return f.ok && f.value >= <f64>lo && f.value <= <f64>hi;
}

/** `parent.key` as a boolean. */
export function readBoolAt(parent: JsonValue | null, key: string, at: Path | null, errs: FieldErrorList): Read<bool> {
  const v = presentAt(parent, key);
  if (v === null) return new Read<bool>(ReadState.Absent, false);
  const b = v.asBool();
  if (!b.ok) return wrongType<bool>(at, key, v, MUST_BE_BOOLEAN, false, errs);
  return b;
}
