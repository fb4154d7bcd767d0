// Kubernetes resource quantities (`k8s.io/apimachinery/pkg/api/resource`): parsing with the same
// grammar, suffixes, rounding and cap as `ParseQuantity`, and the text Kubernetes prints for a
// quantity (`Quantity.String()`, canonical form), as docs/shared-rules.md#quantities describes.
// Values are exact: a decimal digit string and a power of ten, so nothing overflows and nothing
// traps, whatever the input.
import { FieldErrorList } from "./fielderrors";
import { invalidJsonValue, presentAt, MUST_BE_STRING } from "./fields";
import { Read, ReadState, JsonValue } from "../json/index";
import { childPath, Path } from "./path";
import { trimGoSpace } from "./chars";
import { parseGoInt } from "./numbers";
import { i64ToDecimal, u64ToDecimal } from "../util/decimal";

// @ts-ignore: decorator
@lazy
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
// @ts-ignore: decorator
@lazy
export const QUANTITY_NUMERIC_ERROR = "unable to parse numeric part of quantity";
// @ts-ignore: decorator
@lazy
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** How a quantity was written, which decides how it is printed. */
export enum QuantityFormat {
  DecimalExponent = 0,
  BinarySI = 1,
  DecimalSI = 2,
}

/** 2^63 - 1, the largest magnitude a parsed quantity keeps (larger ones are capped). */
// @ts-ignore: decorator
@lazy
const MAX_ALLOWED_DIGITS = "9223372036854775807";

/** An exact quantity: `±digits × 10^exponent`, `digits` without leading or trailing zeros
 *  (empty for zero). */
export class Quantity {
  constructor(
    public negative: bool,
    public digits: string,
    public exponent: i64,
    public format: QuantityFormat,
    /** the text as written when Kubernetes keeps it (already canonical), else null */
    public cached: string | null,
  ) {}

  isZero(): bool {
    return this.digits.length == 0;
  }

  /** -1, 0 or 1 */
  sign(): i32 {
    if (this.isZero()) return 0;
    return this.negative ? -1 : 1;
  }

  /** A whole number (no fractional part). */
  isInteger(): bool {
    return this.isZero() || this.exponent >= 0;
  }

  /** -1, 0, 1 as this is below, equal to or above `other`. */
  cmp(other: Quantity): i32 {
    const a = this.sign();
    const b = other.sign();
    if (a != b) return a < b ? -1 : 1;
    if (a == 0) return 0;
    const m = compareMagnitudes(this.digits, this.exponent, other.digits, other.exponent);
    return a > 0 ? m : -m;
  }

  /** What Kubernetes prints (`Quantity.String()`). */
  toString(): string {
    const cached = this.cached;
    if (cached !== null) return cached;
    if (this.isZero()) return "0";
    let format = this.format;
    if (format == QuantityFormat.BinarySI) {
      const small = compareMagnitudes(this.digits, this.exponent, "1024", 0) < 0;
      if (small || !this.isInteger()) format = QuantityFormat.DecimalSI;
    }
    if (format == QuantityFormat.BinarySI) return this.binaryText();
    // move every factor of ten into the exponent, then lower it to a multiple of three
    let digits = this.digits;
    let e = this.exponent;
    let pad = <i32>(e % 3);
    if (pad < 0) pad += 3;
    e -= pad;
    for (let i = 0; i < pad; i++) digits += "0";
    const sign = this.negative ? "-" : "";
    if (format == QuantityFormat.DecimalExponent) return e == 0 ? sign + digits : sign + digits + "e" + i64ToDecimal(e);
    return sign + digits + decimalSuffix(e);
  }

  /** Base 1024: the integer value with every factor of 1024 moved into a binary suffix. The
   *  value is at most 2^63 - 1 here (binary quantities are capped or checked when parsed). */
  private binaryText(): string {
    let v = digitsToU64(this.digits, this.exponent);
    let times = 0;
    while (v >= 1024 && v % 1024 == 0) {
      v /= 1024;
      times++;
    }
    return (this.negative ? "-" : "") + u64ToDecimal(v) + binarySuffix(times);
  }
}

/** Result of `parseQuantity`: the quantity, or Kubernetes' error text. */
export class QuantityParse {
  constructor(
    public quantity: Quantity | null,
    public error: string,
  ) {}
  get ok(): bool {
    return this.quantity !== null;
  }
}

function fail(error: string): QuantityParse {
  return new QuantityParse(null, error);
}

function isDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

function isSuffixChar(c: i32): bool {
  // e E i n u m k K M G T P
  return (
    c == 0x65 ||
    c == 0x45 ||
    c == 0x69 ||
    c == 0x6e ||
    c == 0x75 ||
    c == 0x6d ||
    c == 0x6b ||
    c == 0x4b ||
    c == 0x4d ||
    c == 0x47 ||
    c == 0x54 ||
    c == 0x50
  );
}

/** `ParseQuantity(s)`: `[+-]?` digits with at most one `.`, then an optional suffix (`n u m k M
 *  G T P E`, `Ki Mi Gi Ti Pi Ei`, or `e`/`E` and a Go int). Values finer than 10^-9 are rounded
 *  away from zero to 1n, magnitudes above 2^63 - 1 are capped, except on the exact path
 *  Kubernetes takes for short numbers (`precision >= 0`), which keeps the value as written. */
export function parseQuantity(s: string): QuantityParse {
  const end = s.length;
  if (end == 0) return fail(QUANTITY_FORMAT_ERROR);
  let pos = 0;
  let positive = true;
  const first = s.charCodeAt(0);
  if (first == 0x2d) {
    positive = false;
    pos++;
  } else if (first == 0x2b) pos++;
  // leading zeros
  while (pos < end && s.charCodeAt(pos) == 0x30) pos++;
  let num = "0";
  let denom = "";
  let value: string;
  let suffix = "";
  if (pos >= end) {
    value = "0";
  } else {
    const numStart = pos;
    while (pos < end && isDigit(s.charCodeAt(pos))) pos++;
    if (pos > numStart) num = s.substring(numStart, pos);
    if (pos < end && s.charCodeAt(pos) == 0x2e) {
      pos++;
      const denomStart = pos;
      while (pos < end && isDigit(s.charCodeAt(pos))) pos++;
      denom = s.substring(denomStart, pos);
    }
    value = s.substring(0, pos);
    const suffixStart = pos;
    while (pos < end && isSuffixChar(s.charCodeAt(pos))) pos++;
    if (pos < end && (s.charCodeAt(pos) == 0x2d || s.charCodeAt(pos) == 0x2b)) pos++;
    while (pos < end && isDigit(s.charCodeAt(pos))) pos++;
    if (pos < end) return fail(QUANTITY_FORMAT_ERROR);
    suffix = s.substring(suffixStart, end);
  }

  // the suffix: base and exponent
  let base = 10;
  let exponent: i32 = 0;
  let format = QuantityFormat.DecimalSI;
  const dec = decimalSuffixExponent(suffix);
  if (dec != NO_SUFFIX) exponent = dec;
  else {
    const bin = binarySuffixExponent(suffix);
    if (bin != NO_SUFFIX) {
      base = 2;
      exponent = bin;
      format = QuantityFormat.BinarySI;
    } else if (suffix.length > 1 && (suffix.charCodeAt(0) == 0x65 || suffix.charCodeAt(0) == 0x45)) {
      const parsed = parseGoInt(suffix.substring(1), 64);
      if (!parsed.ok) return fail(QUANTITY_SUFFIX_ERROR);
      exponent = <i32>parsed.value; // Kubernetes truncates to 32 bits as well
      format = QuantityFormat.DecimalExponent;
    } else return fail(QUANTITY_SUFFIX_ERROR);
  }

  // the exact path for short numbers (Kubernetes' int64 fast path)
  let precision: i32 = 0;
  let scale: i32 = 0;
  let mantissaShift: i32 = 0;
  if (format == QuantityFormat.BinarySI) {
    if (exponent >= 0 && denom.length == 0) {
      mantissaShift = exponent;
      precision = 15 - num.length - <i32>((<f32>exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const parsed = parseGoInt(shifted, 64);
      if (!parsed.ok) return fail(QUANTITY_NUMERIC_ERROR);
      const v = parsed.value;
      // value << shift must stay within int64
      const fits = mantissaShift == 0 || (mantissaShift < 63 && v <= i64.MAX_VALUE >> mantissaShift);
      if (fits) {
        const product = v << mantissaShift;
        let cached: string | null = null;
        if (format == QuantityFormat.BinarySI) {
          if (exponent % 10 == 0 && (v & 7) != 0) cached = s;
        } else if (scale % 3 == 0 && !shifted.endsWith("000") && shifted.charCodeAt(0) != 0x30) cached = s;
        return new QuantityParse(normalized(!positive, i64ToDecimal(product), <i64>scale, format, cached), "");
      }
    }
  }

  // the general path: exact decimal, rounded up to 10^-9, capped at 2^63 - 1
  let sawDigit = false;
  for (let i = 0; i < value.length; i++) if (isDigit(value.charCodeAt(i))) sawDigit = true;
  if (!sawDigit) return fail(QUANTITY_NUMERIC_ERROR);
  let digits = num + denom;
  let e: i64 = -(<i64>denom.length);
  if (base == 10) e += exponent;
  else for (let i = 0; i < exponent; i++) digits = multiplySmall(digits, 2);
  let q = normalized(!positive, digits, e, format, null);
  if (!q.isZero() && q.exponent < -9) q = roundUpToNano(q);
  if (compareMagnitudes(q.digits, q.exponent, MAX_ALLOWED_DIGITS, 0) > 0) {
    q = normalized(q.negative, MAX_ALLOWED_DIGITS, 0, q.format, null);
  }
  if (q.format == QuantityFormat.BinarySI && !q.isZero() && compareMagnitudes(q.digits, q.exponent, "1", 0) < 0) {
    q.format = QuantityFormat.DecimalSI;
  }
  return new QuantityParse(q, "");
}

/** A quantity with leading zeros stripped and trailing zeros moved into the exponent. */
function normalized(
  negative: bool,
  digits: string,
  exponent: i64,
  format: QuantityFormat,
  cached: string | null,
): Quantity {
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) == 0x30) start++;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) == 0x30) end--;
  const e = exponent + <i64>(digits.length - end);
  if (start == end) return new Quantity(false, "", 0, format, cached);
  return new Quantity(negative, digits.substring(start, end), e, format, cached);
}

/** Rounds the magnitude up to a whole number of 10^-9 (Kubernetes rounds non-zero values up so
 *  that asking for a tiny amount still gets some). */
function roundUpToNano(q: Quantity): Quantity {
  // digits × 10^e with e < -9: keep the digits above 10^-9, add one for the dropped rest
  const drop = -9 - q.exponent; // > 0
  const keep = <i64>q.digits.length - drop;
  let kept = keep > 0 ? q.digits.substring(0, <i32>keep) : "0";
  kept = addOne(kept); // the dropped part is non-zero (digits have no trailing zeros)
  return normalized(q.negative, kept, -9, q.format, null);
}

function addOne(digits: string): string {
  const out = new Array<i32>(digits.length);
  let carry = 1;
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = digits.charCodeAt(i) - 0x30 + carry;
    carry = d / 10;
    out[i] = 0x30 + (d % 10);
  }
  let text = String.fromCharCodes(out);
  if (carry > 0) text = "1" + text;
  return text;
}

function multiplySmall(digits: string, factor: i32): string {
  const out = new Array<i32>(digits.length);
  let carry = 0;
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = (digits.charCodeAt(i) - 0x30) * factor + carry;
    carry = d / 10;
    out[i] = 0x30 + (d % 10);
  }
  let text = String.fromCharCodes(out);
  while (carry > 0) {
    text = String.fromCharCode(0x30 + (carry % 10)) + text;
    carry /= 10;
  }
  return text;
}

/** Compares `a × 10^ea` with `b × 10^eb` (digit strings without leading or trailing zeros,
 *  non-empty). */
function compareMagnitudes(a: string, ea: i64, b: string, eb: i64): i32 {
  if (a.length == 0 || b.length == 0) return a.length == b.length ? 0 : a.length == 0 ? -1 : 1;
  const ma = <i64>a.length + ea;
  const mb = <i64>b.length + eb;
  if (ma != mb) return ma < mb ? -1 : 1;
  const n = max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = i < a.length ? a.charCodeAt(i) : 0x30;
    const cb = i < b.length ? b.charCodeAt(i) : 0x30;
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return 0;
}

/** `digits × 10^e` as a u64 (callers guarantee an integer at most 2^63 - 1). */
function digitsToU64(digits: string, e: i64): u64 {
  let v: u64 = 0;
  for (let i = 0; i < digits.length; i++) v = v * 10 + <u64>(digits.charCodeAt(i) - 0x30);
  for (let i: i64 = 0; i < e && i < 20; i++) v *= 10;
  return v;
}

const NO_SUFFIX: i32 = i32.MIN_VALUE;

function decimalSuffixExponent(s: string): i32 {
  if (s.length == 0) return 0;
  if (s.length != 1) return NO_SUFFIX;
  switch (s.charCodeAt(0)) {
    case 0x6e:
      return -9; // n
    case 0x75:
      return -6; // u
    case 0x6d:
      return -3; // m
    case 0x6b:
      return 3; // k
    case 0x4d:
      return 6; // M
    case 0x47:
      return 9; // G
    case 0x54:
      return 12; // T
    case 0x50:
      return 15; // P
    case 0x45:
      return 18; // E
  }
  return NO_SUFFIX;
}

function binarySuffixExponent(s: string): i32 {
  if (s.length != 2 || s.charCodeAt(1) != 0x69) return NO_SUFFIX;
  switch (s.charCodeAt(0)) {
    case 0x4b:
      return 10; // Ki
    case 0x4d:
      return 20;
    case 0x47:
      return 30;
    case 0x54:
      return 40;
    case 0x50:
      return 50;
    case 0x45:
      return 60;
  }
  return NO_SUFFIX;
}

/** The SI suffix of a power of ten that is a multiple of three; none outside n…E (Kubernetes
 *  prints the bare number then). */
function decimalSuffix(e: i64): string {
  if (e == -9) return "n";
  if (e == -6) return "u";
  if (e == -3) return "m";
  if (e == 3) return "k";
  if (e == 6) return "M";
  if (e == 9) return "G";
  if (e == 12) return "T";
  if (e == 15) return "P";
  if (e == 18) return "E";
  return "";
}

function binarySuffix(times: i32): string {
  switch (times) {
    case 1:
      return "Ki";
    case 2:
      return "Mi";
    case 3:
      return "Gi";
    case 4:
      return "Ti";
    case 5:
      return "Pi";
    case 6:
      return "Ei";
  }
  return "";
}

/** `a` is a whole multiple of `b` (both integers, `b` positive). */
export function isMultipleOf(a: Quantity, b: Quantity): bool {
  if (!a.isInteger() || !b.isInteger() || b.sign() <= 0) return false;
  if (a.isZero()) return true;
  if (compareMagnitudes(b.digits, b.exponent, MAX_ALLOWED_DIGITS, 0) > 0) {
    return compareMagnitudes(a.digits, a.exponent, b.digits, b.exponent) == 0;
  }
  const p = digitsToU64(b.digits, b.exponent);
  let r: u64 = 0;
  for (let i = 0; i < a.digits.length; i++) r = addMod(mulMod(r, 10, p), <u64>(a.digits.charCodeAt(i) - 0x30) % p, p);
  // × 10^exponent, by squaring
  let pow: u64 = 1 % p;
  let base: u64 = 10 % p;
  let e = a.exponent;
  while (e > 0) {
    if ((e & 1) != 0) pow = mulMod(pow, base, p);
    base = mulMod(base, base, p);
    e >>= 1;
  }
  return mulMod(r, pow, p) == 0;
}

function addMod(a: u64, b: u64, p: u64): u64 {
  // a, b < p < 2^63: the sum does not wrap
  const s = a + b;
  return s >= p ? s - p : s;
}

function mulMod(a: u64, b: u64, p: u64): u64 {
  let result: u64 = 0;
  let x = a % p;
  let y = b;
  while (y > 0) {
    if ((y & 1) != 0) result = addMod(result, x, p);
    x = addMod(x, x, p);
    y >>= 1;
  }
  return result;
}

/** A JSON quantity member: a string (trimmed, as Kubernetes decodes it) or a number (its text).
 *  Another type is `must be a string`; text that does not parse is Invalid with Kubernetes' parse
 *  error. Either way it reads Invalid. `path`, when given, replaces `<at>.<key>` (map entries). */
export function readQuantityAt(
  parent: JsonValue | null,
  key: string,
  at: Path | null,
  errs: FieldErrorList,
  path: Path | null = null,
): Read<Quantity | null> {
  const v = presentAt(parent, key);
  if (v === null) return new Read<Quantity | null>(ReadState.Absent, null);
  return readQuantityValue(v, path !== null ? path : childPath(at, key), errs);
}

/** A present JSON quantity value `v` at `where` (see readQuantityAt). */
export function readQuantityValue(v: JsonValue, where: Path, errs: FieldErrorList): Read<Quantity | null> {
  const parsed = quantityOfValue(v);
  if (!parsed.ok) {
    // a number prints as its text, as invalidRaw(where, text, …) would
    errs.add(invalidJsonValue(where, v, parsed.error));
    return new Read<Quantity | null>(ReadState.Invalid, null);
  }
  return new Read<Quantity | null>(ReadState.Ok, parsed.quantity);
}

/** The quantity of a present JSON value: a string (trimmed, as Kubernetes decodes it) or a number
 *  (its text); another type fails with `must be a string`, text that does not parse with
 *  Kubernetes' parse error. */
export function quantityOfValue(v: JsonValue): QuantityParse {
  if (v.isNumber()) return parseQuantity(v.numberText());
  const s = v.asString();
  if (!s.ok) return fail(MUST_BE_STRING);
  return parseQuantity(trimGoSpace(s.value));
}
