// Go number grammars: `strconv.ParseInt(s, 10, 32|64)` and `strconv.ParseFloat(s, 64)`
// (docs/shared-rules.md#go-numbers). Never traps: overflow and syntax errors are results.
import { asciiLower, hexDigitValue, isAsciiDigit } from "./chars";

/** Result of `parseGoInt`: `ok` iff Go's ParseInt returns a nil error. */
export class GoIntResult {
  constructor(
    public ok: bool,
    public value: i64,
    public rangeError: bool,
  ) {}
}

/** Go `strconv.ParseInt(s, 10, bitSize)`: `[+-]?[0-9]+`, no underscores, range-checked against
 *  a signed `bitSize`-bit integer (bitSize 1–64; others are treated as 64). */
export function parseGoInt(s: string, bitSize: i32 = 64): GoIntResult {
  const bits = bitSize >= 1 && bitSize <= 64 ? bitSize : 64;
  let i = 0;
  let neg = false;
  if (s.length > 0) {
    const c = s.charCodeAt(0);
    if (c == 0x2b || c == 0x2d) {
      neg = c == 0x2d;
      i = 1;
    }
  }
  if (i >= s.length) return new GoIntResult(false, 0, false);
  const top: u64 = (<u64>1) << (<u64>bits - 1); // 2^(bits-1), the magnitude of the minimum
  const maxMagnitude: u64 = neg ? top : top - 1;
  let n: u64 = 0;
  let overflow = false;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isAsciiDigit(c)) return new GoIntResult(false, 0, false);
    const d = <u64>(c - 0x30);
    if (overflow) continue;
    if (n > (maxMagnitude - d) / 10) overflow = true;
    else n = n * 10 + d;
  }
  if (overflow) return new GoIntResult(false, 0, true);
  return new GoIntResult(true, neg ? -(<i64>n) : <i64>n, false);
}

/** True when `s` is a valid base-10 `bitSize`-bit Go integer. */
export function isGoInt(s: string, bitSize: i32 = 64): bool {
  return parseGoInt(s, bitSize).ok;
}

/** Result of `parseGoFloat`. `ok` iff Go's ParseFloat returns a nil error (syntax valid and no
 *  overflow); `finite` is false for `Inf`/`NaN` literals; `value` is the parsed float64. */
export class GoFloatResult {
  constructor(
    public ok: bool,
    public value: f64,
    public finite: bool,
    public rangeError: bool,
  ) {}
}

function floatSyntaxError(): GoFloatResult {
  return new GoFloatResult(false, 0, false, false);
}

/** Case-insensitive match of `word` at `s[at…]`; returns how many characters matched. */
function commonPrefixLengthIgnoreCase(s: string, at: i32, word: string): i32 {
  let n = 0;
  while (n < word.length && at + n < s.length && asciiLower(s.charCodeAt(at + n)) == word.charCodeAt(n)) n++;
  return n;
}

/** Go `special`: `[+-]?(inf|infinity)` and `nan` (no sign), case-insensitive, whole string. */
function parseSpecialFloat(s: string): GoFloatResult | null {
  if (s.length == 0) return null;
  const c = s.charCodeAt(0);
  let at = 0;
  let sign: f64 = 1;
  if (c == 0x2b || c == 0x2d) {
    at = 1;
    if (c == 0x2d) sign = -1;
  }
  const first = at < s.length ? asciiLower(s.charCodeAt(at)) : 0;
  if (first == 0x69) {
    // i
    let n = commonPrefixLengthIgnoreCase(s, at, "infinity");
    if (n > 3 && n < 8) n = 3;
    if ((n == 3 || n == 8) && at + n == s.length) return new GoFloatResult(true, sign * Infinity, false, false);
    return null;
  }
  if (first == 0x6e && at == 0) {
    // n
    if (commonPrefixLengthIgnoreCase(s, 0, "nan") == 3 && s.length == 3)
      return new GoFloatResult(true, NaN, false, false);
  }
  return null;
}

/** Go `underscoreOK`: `_` only between digits, or between a base prefix and a digit. */
function underscoresAllowed(s: string): bool {
  let i = 0;
  if (s.length >= 1 && (s.charCodeAt(0) == 0x2b || s.charCodeAt(0) == 0x2d)) i = 1;
  let saw: i32 = 0x5e; // '^' start, '0' digit or prefix, '_' underscore, '!' other
  let hex = false;
  if (s.length - i >= 2 && s.charCodeAt(i) == 0x30) {
    const p = asciiLower(s.charCodeAt(i + 1));
    if (p == 0x62 || p == 0x6f || p == 0x78) {
      i += 2;
      saw = 0x30;
      hex = p == 0x78;
    }
  }
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isAsciiDigit(c) || (hex && hexDigitValue(c) >= 0)) {
      saw = 0x30;
      continue;
    }
    if (c == 0x5f) {
      if (saw != 0x30) return false;
      saw = 0x5f;
      continue;
    }
    if (saw == 0x5f) return false;
    saw = 0x21;
  }
  return saw != 0x5f;
}

/** `s` without its `_` units, in one allocation cut to length (no `String#replaceAll` linked). */
function withoutUnderscores(s: string): string {
  const out = changetype<usize>(__new((<usize>s.length) << 1, idof<string>()));
  let at: usize = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x5f) continue;
    store<u16>(out + at, <u16>c);
    at += 2;
  }
  return changetype<string>(__renew(out, at));
}

/** 2^e for e in [-1022, 1023], built from the bit pattern. */
function powerOfTwo(e: i32): f64 {
  return reinterpret<f64>((<u64>(e + 1023)) << 52);
}

/** x · 2^e in steps that stay representable (no trap, saturates to 0 / Inf). */
function scaleByPowerOfTwo(x: f64, e: i32): f64 {
  if (e > 2200) e = 2200;
  if (e < -2200) e = -2200;
  while (e > 1023) {
    x *= powerOfTwo(1023);
    e -= 1023;
  }
  while (e < -1022) {
    x *= powerOfTwo(-1022);
    e += 1022;
  }
  return x * powerOfTwo(e);
}

/** Go `strconv.ParseFloat(s, 64)`: decimal and hexadecimal (`0x…p…`) literals, `_` separators
 *  as Go allows them, `inf`/`infinity`/`nan`; `1e400` is a range error, `1e-400` is 0.
 *  Decimal values come from AssemblyScript's `parseFloat` on the underscore-free text; hex
 *  values are built exactly from the mantissa (a sticky bit stands for truncated digits). */
export function parseGoFloat(s: string): GoFloatResult {
  const special = parseSpecialFloat(s);
  if (special !== null) return special;
  const len = s.length;
  let i = 0;
  let neg = false;
  if (i < len && (s.charCodeAt(i) == 0x2b || s.charCodeAt(i) == 0x2d)) {
    neg = s.charCodeAt(i) == 0x2d;
    i++;
  }
  let hex = false;
  if (i + 2 < len && s.charCodeAt(i) == 0x30 && asciiLower(s.charCodeAt(i + 1)) == 0x78) {
    hex = true;
    i += 2;
  }
  let underscores = false;
  let sawDot = false;
  let sawDigits = false;
  let nd = 0; // significant digits seen (after leading zeros)
  let ndMant = 0; // digits kept in the hex mantissa
  let dp = 0; // position of the decimal point, in digits
  let mantissa: u64 = 0;
  let truncated = false;
  for (; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x5f) {
      underscores = true;
      continue;
    }
    if (c == 0x2e) {
      if (sawDot) break;
      sawDot = true;
      dp = nd;
      continue;
    }
    const d = hex ? hexDigitValue(c) : isAsciiDigit(c) ? c - 0x30 : -1;
    if (d < 0) break;
    sawDigits = true;
    if (d == 0 && nd == 0) {
      dp--;
      continue;
    } // leading zeros only move the point
    nd++;
    if (ndMant < 16) {
      mantissa = (mantissa << 4) | (<u64>d); // only used for hex
      ndMant++;
    } else if (d != 0) {
      truncated = true;
    }
  }
  if (!sawDigits) return floatSyntaxError();
  if (!sawDot) dp = nd;
  let exponent = 0;
  const expChar = hex ? 0x70 : 0x65; // p / e
  if (i < len && asciiLower(s.charCodeAt(i)) == expChar) {
    i++;
    if (i >= len) return floatSyntaxError();
    let esign = 1;
    if (s.charCodeAt(i) == 0x2b) i++;
    else if (s.charCodeAt(i) == 0x2d) {
      i++;
      esign = -1;
    }
    if (i >= len || !isAsciiDigit(s.charCodeAt(i))) return floatSyntaxError();
    let e = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c == 0x5f) {
        underscores = true;
        continue;
      }
      if (!isAsciiDigit(c)) break;
      if (e < 10000) e = e * 10 + (c - 0x30);
    }
    exponent = e * esign;
  } else if (hex) {
    return floatSyntaxError(); // hex floats need a p exponent
  }
  if (i != len) return floatSyntaxError();
  if (underscores && !underscoresAllowed(s)) return floatSyntaxError();

  let value: f64 = 0;
  if (hex) {
    if (mantissa != 0) {
      if (truncated) mantissa |= 1;
      value = scaleByPowerOfTwo(<f64>mantissa, (dp - ndMant) * 4 + exponent);
    }
  } else {
    value = parseFloat(underscores ? withoutUnderscores(s) : s);
  }
  if (hex && neg) value = -value;
  if (!isFinite(value)) return new GoFloatResult(false, value, false, true);
  return new GoFloatResult(true, value, true, false);
}

/** `hiCache.ratio` rule: a Go float that is finite and greater than zero. */
export function isFiniteGoFloatGreaterThanZero(s: string): bool {
  const r = parseGoFloat(s);
  return r.ok && r.finite && r.value > 0;
}

/** go-openapi `IsFloat64AJSONInteger`, exact form: a finite float64 without fraction within
 *  ±(2^53 − 1). The API server validates a schema `integer` with it, so `256.0` and `2.56e2` are
 *  admitted as 256 (docs/decisions.md, "Integers written as floats"). */
export function isFloat64AJSONInteger(f: f64): bool {
  return isFinite(f) && f >= -9007199254740991.0 && f <= 9007199254740991.0 && Math.floor(f) == f;
}
