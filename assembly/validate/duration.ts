// Go's `time.ParseDuration` grammar and range (what a Kubernetes `metav1.Duration` field decodes):
// `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the units ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h,
// or a lone `0`; at most 2^63 - 1 ns (a negative duration down to -2^63 ns). Only whether it
// parses is answered: a policy that copies a duration copies its text.
import { isAsciiDigit } from "./chars";

// @ts-ignore: decorator
@inline
const LIMIT: u64 = 1 << 63;

/** The nanoseconds of the unit `s[from, to)`, or 0 when it is none. */
function unitNanos(s: string, from: i32, to: i32): u64 {
  const n = to - from;
  const a = s.charCodeAt(from);
  if (n == 1) {
    if (a == 0x73) return 1_000_000_000; // s
    if (a == 0x6d) return 60_000_000_000; // m
    if (a == 0x68) return 3_600_000_000_000; // h
    return 0;
  }
  if (n != 2 || s.charCodeAt(from + 1) != 0x73) return 0; // ?s
  if (a == 0x6e) return 1; // ns
  if (a == 0x75 || a == 0xb5 || a == 0x3bc) return 1_000; // us, µs, μs
  if (a == 0x6d) return 1_000_000; // ms
  return 0;
}

/** Whether Go's `time.ParseDuration` accepts `s` (`5m`, `1h30m`, `1.5h`, `-2s`, `0`; not `""`,
 *  `5`, `5 m`, `1d`, or more than 2^63 - 1 ns). */
export function isGoDuration(s: string): bool {
  const n = s.length;
  let i = 0;
  let negative = false;
  if (n > 0) {
    const c = s.charCodeAt(0);
    if (c == 0x2d || c == 0x2b) {
      negative = c == 0x2d;
      i = 1;
    }
  }
  if (n - i == 1 && s.charCodeAt(i) == 0x30) return true; // a lone 0
  if (i == n) return false;
  let total: u64 = 0;
  while (i < n) {
    // [0-9]*
    const c = s.charCodeAt(i);
    if (c != 0x2e && !isAsciiDigit(c)) return false;
    let whole: u64 = 0;
    const wholeFrom = i;
    while (i < n && isAsciiDigit(s.charCodeAt(i))) {
      if (whole > LIMIT / 10) return false;
      whole = whole * 10 + <u64>(s.charCodeAt(i) - 0x30);
      if (whole > LIMIT) return false;
      i++;
    }
    const pre = i > wholeFrom;
    // (\.[0-9]*)?: digits past u63 stop adding precision, as in Go
    let fraction: u64 = 0;
    let scale: f64 = 1;
    let post = false;
    if (i < n && s.charCodeAt(i) == 0x2e) {
      i++;
      const fractionFrom = i;
      let overflow = false;
      while (i < n && isAsciiDigit(s.charCodeAt(i))) {
        if (!overflow) {
          if (fraction > (LIMIT - 1) / 10) overflow = true;
          else {
            const y = fraction * 10 + <u64>(s.charCodeAt(i) - 0x30);
            if (y > LIMIT) overflow = true;
            else {
              fraction = y;
              scale *= 10;
            }
          }
        }
        i++;
      }
      post = i > fractionFrom;
    }
    if (!pre && !post) return false;
    // the unit: everything up to the next digit or period
    const unitFrom = i;
    while (i < n) {
      const u = s.charCodeAt(i);
      if (u == 0x2e || isAsciiDigit(u)) break;
      i++;
    }
    if (i == unitFrom) return false;
    const unit = unitNanos(s, unitFrom, i);
    if (unit == 0) return false;
    if (whole > LIMIT / unit) return false;
    let v = whole * unit;
    if (fraction > 0) {
      // in float64, as Go computes it (f/scale < 1, so the addend is below one unit)
      v += <u64>(<f64>fraction * (<f64>unit / scale));
      if (v > LIMIT) return false;
    }
    total += v;
    if (total > LIMIT) return false;
  }
  return negative || total <= LIMIT - 1;
}
