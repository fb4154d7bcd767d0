// Typed reads of object fields for validators, with Kubernetes-style type errors and values
// printed as docs/policies/cacheengine-validator.md#malformed-input says: a member of the wrong
// JSON type becomes `<path>: Invalid value: <JSON value>: must be a …` in the error list and reads
// as Invalid, so the rules that need it skip it. `null` reads as absent (Kubernetes "not set").
// Each reader takes the parent's path and builds the member's path only for an error.
import { JsonValue, Read, ReadState } from "../json/index";
import { FieldError, FieldErrorList, FieldErrorType, invalidRaw, invalidString } from "./fielderrors";
import { isGoDuration } from "./duration";
import { isFloat64AJSONInteger } from "./numbers";
import { goQuoteShort } from "./quote";
import { shortenRendered } from "./shorten";
import { childPath, Path } from "./path";

// @ts-ignore: decorator
@lazy
export const MUST_BE_STRING = "must be a string";
// @ts-ignore: decorator
@lazy
export const MUST_BE_INTEGER = "must be an integer";
// @ts-ignore: decorator
@lazy
export const MUST_BE_INT32 = "must be a 32-bit integer";
// @ts-ignore: decorator
@lazy
export const MUST_BE_NUMBER = "must be a number";
// @ts-ignore: decorator
@lazy
export const MUST_BE_OBJECT = "must be an object";
// @ts-ignore: decorator
@lazy
export const MUST_BE_LIST = "must be a list";
// @ts-ignore: decorator
@lazy
export const MUST_BE_BOOLEAN = "must be a boolean";
// @ts-ignore: decorator
@lazy
export const MUST_BE_STRING_MAP = "must be a map of strings";
/** A string Go's `time.ParseDuration` refuses (a Kubernetes duration field cannot decode it). */
// @ts-ignore: decorator
@lazy
export const MUST_BE_DURATION = "must be a duration";

const INT32_MIN: i64 = -2147483648;
const INT32_MAX: i64 = 2147483647;

/** JSON text without insignificant whitespace (V4: objects and lists print as compact JSON, and a
 *  pretty-printed request must not change the message or the UPDATE comparison). Pieces are
 *  joined once, so a long pretty-printed value costs one pass. */
export function compactJsonText(text: string): string {
  const pieces = new Array<string>();
  let runStart = 0;
  let inString = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c == 0x5c)
        i++; // skip the escaped character
      else if (c == 0x22) inString = false;
      continue;
    }
    if (c == 0x22) {
      inString = true;
      continue;
    }
    if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) {
      if (i > runStart) pieces.push(text.substring(runStart, i));
      runStart = i + 1;
    }
  }
  if (runStart == 0) return text;
  if (n > runStart) pieces.push(text.substring(runStart, n));
  return pieces.join("");
}

/** A value as a field error prints it: strings `%q`, everything else compact JSON text
 *  (numbers keep their JSON spelling), shortened past 1 KiB (assembly/validate/shorten.ts). A
 *  string that cannot be decoded prints its JSON text. */
export function renderJsonValue(v: JsonValue): string {
  if (v.isString()) {
    const s = v.asString();
    if (s.ok) return goQuoteShort(s.value);
  }
  return shortenRendered(compactJsonText(v.rawText()));
}

/** `<path>: Invalid value: <v>: <detail>` for a value of the wrong type or range. The UPDATE
 *  comparison text is the raw string for strings, otherwise the whole compact text. */
export function invalidJsonValue(path: Path, v: JsonValue, detail: string): FieldError {
  if (v.isString()) {
    const s = v.asString();
    if (s.ok) return new FieldError(FieldErrorType.Invalid, path.toString(), null, s.value, detail);
  }
  return invalidRaw(path, compactJsonText(v.rawText()), detail);
}

/** `parent.getPresent(key)`, null when there is no parent (an absent or wrongly typed container). */
export function presentAt(parent: JsonValue | null, key: string): JsonValue | null {
  return parent === null ? null : parent.getPresent(key);
}

function absent<T>(value: T): Read<T> {
  return new Read<T>(ReadState.Absent, value);
}

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

/** `parent.key` as an object (`at` is the path of `parent`, null at the top). Absent when `parent` is null or the member is absent/null. */
export function readObjectAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<JsonValue | null> {
  return readContainerAt(parent, key, at, errs, false);
}

/** `parent.key` as a list. */
export function readListAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<JsonValue | null> {
  return readContainerAt(parent, key, at, errs, true);
}

/** `parent.key` as a list (`list`) or an object: absent, Ok, or a wrong-type field error */
function readContainerAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
  list: bool,
): Read<JsonValue | null> {
  const v = presentAt(parent, key);
  if (v === null) return absent<JsonValue | null>(null);
  if (list ? !v.isArray() : !v.isObject()) {
    return wrongType<JsonValue | null>(at, key, v, list ? MUST_BE_LIST : MUST_BE_OBJECT, null, errs);
  }
  return new Read<JsonValue | null>(ReadState.Ok, v);
}

/** `parent.key` as a string. */
export function readStringAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<string> {
  // a decodable string is read in place: no node for it (issue 8: each node is heap a fresh
  // instance writes); the node is made only for what the error path prints
  if (parent !== null) {
    const text = parent.stringOrNull(key);
    if (text !== null) return new Read<string>(ReadState.Ok, text);
  }
  const v = presentAt(parent, key);
  if (v === null) return absent<string>("");
  const s = v.asString();
  if (!s.ok) return wrongType<string>(at, key, v, MUST_BE_STRING, "", errs);
  return s;
}

/** `parent.key` as a duration (`metav1.Duration`): a string Go's `time.ParseDuration` accepts; another
 *  string is `must be a duration`, another JSON type `must be a string`. */
export function readDurationAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<string> {
  const s = readStringAt(parent, key, at, errs);
  if (!s.ok || isGoDuration(s.value)) return s;
  errs.add(invalidString(childPath(at, key), s.value, MUST_BE_DURATION));
  return new Read<string>(ReadState.Invalid, "", MUST_BE_DURATION);
}

/** `parent.key` as a boolean. */
export function readBoolAt(parent: JsonValue | null, key: string, at: Path | null, errs: FieldErrorList): Read<bool> {
  if (parent !== null) {
    if (parent.memberIsBool(key, true)) return new Read<bool>(ReadState.Ok, true);
    if (parent.memberIsBool(key, false)) return new Read<bool>(ReadState.Ok, false);
  }
  const v = presentAt(parent, key);
  if (v === null) return absent<bool>(false);
  const b = v.asBool();
  if (!b.ok) return wrongType<bool>(at, key, v, MUST_BE_BOOLEAN, false, errs);
  return b;
}

/** `parent.key` as an object whose member values are all strings (`null` members included, as
 *  Kubernetes decodes a `map[string]string`); any other member makes the whole map Invalid. */
export function readStringMapAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<JsonValue | null> {
  const v = presentAt(parent, key);
  if (v === null) return absent<JsonValue | null>(null);
  if (!v.isObject()) return wrongType<JsonValue | null>(at, key, v, MUST_BE_STRING_MAP, null, errs);
  const n = v.size();
  for (let i = 0; i < n; i++) {
    // a string member is probed in place; a node only for one that is not (null is fine)
    if (v.itemIsDecodableString(i)) continue;
    const member = v.at(i);
    if (member !== null && !member.isNull()) {
      return wrongType<JsonValue | null>(at, key, v, MUST_BE_STRING_MAP, null, errs);
    }
  }
  return new Read<JsonValue | null>(ReadState.Ok, v);
}

/** `parent.key` as an int32: an integer, or an integral number written as a float (`256.0`,
 *  `2.56e2`) as the API server admits it (docs/policies/cacheengine-validator.md#malformed-input); out of range → `must be a 32-bit integer`. */
export function readInt32At(parent: JsonValue | null, key: string, at: Path | null, errs: FieldErrorList): Read<i32> {
  if (parent !== null) {
    const n = parent.memberI64(key);
    if (n !== null && n.value >= INT32_MIN && n.value <= INT32_MAX) return new Read<i32>(ReadState.Ok, <i32>n.value);
  }
  const v = presentAt(parent, key);
  if (v === null) return absent<i32>(0);
  if (!v.isNumber()) return wrongType<i32>(at, key, v, MUST_BE_INTEGER, 0, errs);
  const n = v.asI64();
  if (n.ok) {
    if (n.value < INT32_MIN || n.value > INT32_MAX) return wrongType<i32>(at, key, v, MUST_BE_INT32, 0, errs);
    return new Read<i32>(ReadState.Ok, <i32>n.value);
  }
  // a number that is not an i64: an integer beyond 64 bits, or a fraction/exponent form
  if (isIntegerText(v.numberText())) return wrongType<i32>(at, key, v, MUST_BE_INT32, 0, errs);
  const f = v.asF64();
  if (!f.ok || !isFloat64AJSONInteger(f.value)) return wrongType<i32>(at, key, v, MUST_BE_INTEGER, 0, errs);
  if (f.value < <f64>INT32_MIN || f.value > <f64>INT32_MAX) return wrongType<i32>(at, key, v, MUST_BE_INT32, 0, errs);
  return new Read<i32>(ReadState.Ok, <i32>f.value);
}

/** `parent.key` as a JSON number node (any number; the caller decides about range). */
export function readNumberAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
): Read<JsonValue | null> {
  const v = presentAt(parent, key);
  if (v === null) return absent<JsonValue | null>(null);
  if (!v.isNumber()) return wrongType<JsonValue | null>(at, key, v, MUST_BE_NUMBER, null, errs);
  return new Read<JsonValue | null>(ReadState.Ok, v);
}

/** True for JSON number text without fraction or exponent (`-12`, `18446744073709551616`). */
export function isIntegerText(text: string): bool {
  if (text.length == 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x2e || c == 0x65 || c == 0x45) return false; // . e E
  }
  return true;
}
