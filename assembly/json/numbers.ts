// Exact readings of validated JSON number text: integers with overflow detection, and a
// normalised decimal form for value equality that never goes through f64.
import { CHAR_0, CHAR_DOT, CHAR_MINUS, CHAR_PLUS } from "./chars";
import { Read, ReadState } from "./types";

/** Outcome of reading integer text: `ok` false means not integer grammar or out of u64 range. */
export class IntText {
  ok: bool = false;
  negative: bool = false;
  magnitude: u64 = 0;
}

/** Reads `-?digits` at [s, e); fraction, exponent or more than u64 range → not ok. */
export function readIntText(base: usize, s: i32, e: i32): IntText {
  const r = new IntText();
  let p = s;
  if (p < e && load<u8>(base + <usize>p) == CHAR_MINUS) {
    r.negative = true;
    p++;
  }
  if (p >= e) return r;
  let acc: u64 = 0;
  for (; p < e; p++) {
    const d = <u32>load<u8>(base + <usize>p) - CHAR_0;
    if (d >= 10) return r;
    // acc * 10 + d must stay <= u64.MAX_VALUE
    if (acc > (u64.MAX_VALUE - <u64>d) / 10) return r;
    acc = acc * 10 + <u64>d;
  }
  r.magnitude = acc;
  r.ok = true;
  return r;
}

/** A number as sign × 0.DIGITS × 10^exponent with no leading or trailing zero digits (zero: no digits). */
export class Decimal {
  negative: bool = false;
  digits: Uint8Array = new Uint8Array(0);
  count: i32 = 0;
  exponent: i64 = 0;
}

/** Exponents beyond this are clamped; only texts with > 10^15 exponents could compare wrongly. */
const EXP_CLAMP: i64 = 1_000_000_000_000_000;

/** Normalises validated number text at [s, e). */
export function readDecimal(base: usize, s: i32, e: i32): Decimal {
  const d = new Decimal();
  d.digits = new Uint8Array(max(e - s, 0));
  const out = d.digits.dataStart;
  let p = s;
  if (p < e && load<u8>(base + <usize>p) == CHAR_MINUS) {
    d.negative = true;
    p++;
  }
  let count = 0;
  let intDigits: i64 = 0;
  let seenPoint = false;
  for (; p < e; p++) {
    const c = <u32>load<u8>(base + <usize>p);
    if (c == CHAR_DOT) {
      seenPoint = true;
      continue;
    }
    if (c - CHAR_0 >= 10) break;
    if (!seenPoint) intDigits++;
    // a leading zero only shifts the point: 0.0M × 10^k == 0.M × 10^(k-1)
    if (count == 0 && c == CHAR_0) {
      intDigits--;
      continue;
    }
    store<u8>(out + <usize>count, <u8>c);
    count++;
  }
  let exp: i64 = 0;
  if (p < e) {
    p++; // 'e' or 'E'
    let negExp = false;
    if (p < e) {
      const c = load<u8>(base + <usize>p);
      if (c == CHAR_MINUS) {
        negExp = true;
        p++;
      } else if (c == CHAR_PLUS) p++;
    }
    for (; p < e; p++) {
      const v = <i64>(<u32>load<u8>(base + <usize>p) - CHAR_0);
      if (exp < EXP_CLAMP) exp = exp * 10 + v;
    }
    if (negExp) exp = -exp;
  }
  while (count > 0 && load<u8>(out + <usize>(count - 1)) == CHAR_0) count--;
  d.count = count;
  d.exponent = count == 0 ? 0 : intDigits + exp;
  if (count == 0) d.negative = false; // -0 == 0 as a decimal value
  return d;
}

export function decimalsEqual(a: Decimal, b: Decimal): bool {
  if (a.count != b.count || a.negative != b.negative || a.exponent != b.exponent) return false;
  return memory.compare(a.digits.dataStart, b.digits.dataStart, <usize>a.count) == 0;
}

/** the integer text at data[start, end) as an Ok i64 read, or null when it is not integer grammar
 *  or out of i64 range (the one range rule of asI64 and memberI64) */
export function i64OfSpan(data: usize, start: i32, end: i32): Read<i64> | null {
  const r = readIntText(data, start, end);
  if (!r.ok || r.magnitude > (r.negative ? <u64>i64.MAX_VALUE + 1 : <u64>i64.MAX_VALUE)) return null;
  return new Read<i64>(ReadState.Ok, r.negative ? <i64>(0 - r.magnitude) : <i64>r.magnitude);
}
