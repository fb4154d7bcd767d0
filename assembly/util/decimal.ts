// Minimal decimal text of integers. The standard library's `toString()` on integers goes through
// a generic radix itoa that links a 1 KB hex table, a 400-byte decimal table and its radix error
// strings into every module; these few lines are all a policy needs (paths like `[3]`, new JSON
// numbers, message text).

/** `value` as decimal digits, e.g. `18446744073709551615`. */
export function u64ToDecimal(value: u64): string {
  return digitsOf(value, false);
}

/** `value` as decimal text with a leading `-` when negative, e.g. `-9223372036854775808`. */
export function i64ToDecimal(value: i64): string {
  // the magnitude of i64.MIN_VALUE is representable as u64 (two's complement negation)
  return value < 0 ? digitsOf(<u64>0 - <u64>value, true) : digitsOf(<u64>value, false);
}

/** `value` as decimal text, e.g. `[3]` indices and counts. */
export function i32ToDecimal(value: i32): string {
  return i64ToDecimal(<i64>value);
}

function digitsOf(magnitude: u64, negative: bool): string {
  let count = 1;
  for (let v = magnitude; v >= 10; v /= 10) count++;
  const length = count + (negative ? 1 : 0);
  const out = changetype<string>(__new((<usize>length) << 1, idof<string>()));
  const base = changetype<usize>(out);
  if (negative) store<u16>(base, 0x2d);
  let v = magnitude;
  for (let i = length - 1; i >= length - count; i--) {
    store<u16>(base + ((<usize>i) << 1), <u16>(0x30 + <u32>(v % 10)));
    v /= 10;
  }
  return out;
}
