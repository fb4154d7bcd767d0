// Go's `time.ParseDuration` grammar and range (what a Kubernetes `metav1.Duration` field decodes):
// `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with the units ns, us, µs (U+00B5), μs (U+03BC), ms, s, m, h,
// or a lone `0`; at most 2^63 - 1 ns (a negative duration down to -2^63 ns). Only whether it
// parses is answered: a policy that copies a duration copies its text. Read on UTF-8 bytes, as Go
// reads them, so a string member of a document is checked in place (JsonValue.memberRawTest).

// @ts-ignore: decorator
@inline
const LIMIT: u64 = 1 << 63;
/** the most hours below 2^63 ns: any part of at most this many units cannot overflow */
// @ts-ignore: decorator
@inline
const MAX_HOURS: u64 = 2562047;

// @ts-ignore: decorator
@inline
function isDigit(c: i32): bool {
  return <u32>(c - 0x30) <= 9;
}

// @ts-ignore: decorator
@inline
function byteAt(data: usize, i: i32): i32 {
  return <i32>load<u8>(data + <usize>i);
}

/** The nanoseconds of the unit at bytes [from, to), or 0 when it is none. */
// @ts-ignore: decorator
@inline
function unitNanos(data: usize, from: i32, to: i32): u64 {
  const n = to - from;
  const a = byteAt(data, from);
  if (n == 1) {
    if (a == 0x73) return 1_000_000_000; // s
    if (a == 0x6d) return 60_000_000_000; // m
    if (a == 0x68) return 3_600_000_000_000; // h
    return 0;
  }
  if (byteAt(data, to - 1) != 0x73) return 0; // ?s
  if (n == 2) {
    if (a == 0x6e) return 1; // ns
    if (a == 0x75) return 1_000; // us
    if (a == 0x6d) return 1_000_000; // ms
    return 0;
  }
  const b = byteAt(data, from + 1);
  // µ (U+00B5) and μ (U+03BC) in UTF-8
  if (n == 3 && ((a == 0xc2 && b == 0xb5) || (a == 0xce && b == 0xbc))) return 1_000;
  return 0;
}

/** Whether Go's `time.ParseDuration` accepts the UTF-8 text at bytes [s, e) of `data`. */
export function isGoDurationBytes(data: usize, s: i32, e: i32): bool {
  let i = s;
  let negative = false;
  if (i < e) {
    const c = byteAt(data, i);
    if (c == 0x2d || c == 0x2b) {
      negative = c == 0x2d;
      i++;
    }
  }
  if (e - i == 1 && byteAt(data, i) == 0x30) return true; // a lone 0
  if (i == e) return false;
  let total: u64 = 0;
  while (i < e) {
    // [0-9]*
    const c = byteAt(data, i);
    if (c != 0x2e && !isDigit(c)) return false;
    let whole: u64 = 0;
    const wholeFrom = i;
    while (i < e && isDigit(byteAt(data, i))) {
      if (whole > LIMIT / 10) return false;
      whole = whole * 10 + <u64>(byteAt(data, i) - 0x30);
      if (whole > LIMIT) return false;
      i++;
    }
    const pre = i > wholeFrom;
    // (\.[0-9]*)?: digits past 63 bits stop adding precision, as in Go
    let fraction: u64 = 0;
    let scale: f64 = 1;
    let post = false;
    if (i < e && byteAt(data, i) == 0x2e) {
      i++;
      const fractionFrom = i;
      let overflow = false;
      while (i < e && isDigit(byteAt(data, i))) {
        if (!overflow) {
          if (fraction > (LIMIT - 1) / 10) overflow = true;
          else {
            const y = fraction * 10 + <u64>(byteAt(data, i) - 0x30);
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
    while (i < e) {
      const u = byteAt(data, i);
      if (u == 0x2e || isDigit(u)) break;
      i++;
    }
    if (i == unitFrom) return false;
    const unit = unitNanos(data, unitFrom, i);
    if (unit == 0) return false;
    // whole * unit fits below 2^63 for up to 2562047 of the largest unit (h): no division then
    if (whole > MAX_HOURS && whole > LIMIT / unit) return false;
    let v = whole * unit;
    if (fraction > 0) {
      // in float64, as Go computes it (f/scale < 1, so the addend is below one unit)
      v += <u64>(<f64>fraction * (<f64>unit / scale));
      if (v > LIMIT) return false;
    }
    total += v; // wraps at 2^64 as Go's uint64 does
    if (total > LIMIT) return false;
  }
  return negative || total <= LIMIT - 1;
}

/** Whether Go's `time.ParseDuration` accepts `s` (`5m`, `1h30m`, `1.5h`, `-2s`, `0`; not `""`,
 *  `5`, `5 m`, `1d`, or more than 2^63 - 1 ns). */
export function isGoDuration(s: string): bool {
  const bytes = String.UTF8.encode(s);
  return isGoDurationBytes(changetype<usize>(bytes), 0, bytes.byteLength);
}
