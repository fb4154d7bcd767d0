// Raw string-literal matching: whether the JSON string literal at a span of bytes is, or starts
// with, a given text, decided on the raw bytes whenever they can tell (no escape before the answer)
// and decoded only when an escape leaves it open. The member and item probes (value.ts, probes.ts)
// test thousands of names and args this way without a string per value.
import { CHAR_BACKSLASH, CHAR_QUOTE } from "./chars";
import { containsBackslash, decodeStringBody } from "./strings";
import { keyBytesFor, rawTextEquals } from "./keys";

/** whether the string literal at data[start, end) (quotes included) decodes to `text`, compared on
 *  the raw bytes when it has no escapes */
export function spanStringEquals(data: usize, start: i32, end: i32, text: string): bool {
  const wanted = keyBytesFor(text);
  return spanEqualsText(data, start, end, text, wanted, wanted !== null ? wanted.length : text.length);
}

/** spanStringEquals with `text`'s UTF-8 (null: ASCII) and its length `n` given. An escape decodes
 *  to fewer bytes than it takes, so a body shorter than `n` never matches, one of `n` bytes only
 *  without escapes, and only a longer one is searched for escapes: most names are turned away
 *  by their length. */
export function spanEqualsText(
  data: usize,
  start: i32,
  end: i32,
  text: string,
  wanted: Uint8Array | null,
  n: i32,
): bool {
  const s = start + 1;
  const e = end - 1;
  const raw = data + <usize>s;
  if (e - s == n) {
    const same = wanted !== null ? memory.compare(raw, wanted.dataStart, <usize>n) == 0 : rawTextEquals(raw, n, text);
    return same && !containsBackslash(data, s, e);
  }
  if (e - s < n || !containsBackslash(data, s, e)) return false;
  const d = decodeStringBody(data, s, e, true);
  return d !== null && d == text;
}

/** whether the string literal at bytes[start, end) decodes to a string that starts with `prefix`
 *  (`whole`: that is `prefix`), compared on the raw bytes when it has no escapes */
export function spanStartsWith(bytes: Uint8Array | null, start: i32, end: i32, prefix: string, whole: bool): bool {
  if (bytes === null || end - start < 2) return false;
  const data = bytes.dataStart;
  if (<u32>load<u8>(data + <usize>start) != CHAR_QUOTE) return false;
  const s = start + 1;
  const e = end - 1;
  if (containsBackslash(data, s, e)) {
    // most escaped strings differ from the prefix before their first escape: turned away without
    // decoding them (CacheBlend's flag edits met the appended kv-transfer JSON, escapes and all,
    // once per flag: five decoded copies on a fresh instance's pages)
    if (!rawMayStartWith(data, start, end, prefix, keyBytesFor(prefix))) return false;
    const d = decodeStringBody(data, s, e, true);
    return d !== null && (whole ? d == prefix : d.startsWith(prefix));
  }
  const wanted = keyBytesFor(prefix);
  const n = wanted !== null ? wanted.length : prefix.length;
  if (whole ? e - s != n : e - s < n) return false;
  return rawTextEquals(data + <usize>s, n, prefix);
}

/** false when the literal at data[start, end) is surely not a string that starts with `prefix`
 *  (`wanted`: its UTF-8, null when ASCII): not a string, or its raw body differs from `prefix`
 *  before any escape (the bytes before the first backslash are the decoded text's) */
export function rawMayStartWith(data: usize, start: i32, end: i32, prefix: string, wanted: Uint8Array | null): bool {
  if (end - start < 2 || <u32>load<u8>(data + <usize>start) != CHAR_QUOTE) return false;
  const s = start + 1;
  const e = end - 1;
  const n = wanted !== null ? wanted.length : prefix.length;
  // an escape only makes a text shorter: a body of fewer bytes than the prefix cannot start with it
  // (most args are turned away here, before their bytes are read)
  if (e - s < n) return false;
  for (let k = 0; k < n; k++) {
    const b = <u32>load<u8>(data + <usize>(s + k));
    if (b == CHAR_BACKSLASH) return true;
    const w =
      wanted !== null ? <u32>unchecked(wanted[k]) : <u32>load<u16>(changetype<usize>(prefix) + ((<usize>k) << 1));
    if (b != w) return false;
  }
  // the body starts with the prefix, without an escape
  return true;
}

/** the first (up to) 8 UTF-8 bytes of `text` in one word, low byte first; `mask` covers them */
export function headOf(text: string, mask: StaticArray<u64>, head: StaticArray<u64>, k: i32): void {
  const wanted = keyBytesFor(text);
  const n = min(wanted !== null ? wanted.length : text.length, 8);
  let h: u64 = 0;
  for (let i = 0; i < n; i++) {
    const b = wanted !== null ? <u64>unchecked(wanted[i]) : <u64>text.charCodeAt(i);
    const shift = <u64>(i << 3);
    h |= b << shift;
  }
  unchecked((head[k] = h));
  const bits = <u64>(n << 3);
  const one: u64 = 1;
  unchecked((mask[k] = n == 8 ? <u64>-1 : (one << bits) - 1));
}

/** false when the literal at data[start, end) is surely not a string that starts with one of the
 *  texts whose heads are given (headOf): not a string, or its first raw bytes, before any escape,
 *  are none of theirs (the bytes before the first backslash are the decoded text's, and an escape
 *  only makes a text shorter) */
export function rawMayStartWithAny(
  data: usize,
  start: i32,
  end: i32,
  mask: StaticArray<u64>,
  head: StaticArray<u64>,
): bool {
  if (end - start < 2 || <u32>load<u8>(data + <usize>start) != CHAR_QUOTE) return false;
  const s = data + <usize>start + 1;
  const w = min(end - start - 2, 8);
  let x: u64 = 0;
  for (let i = 0; i < w; i++) {
    const b = <u32>load<u8>(s + <usize>i);
    if (b == CHAR_BACKSLASH) return true;
    const shift = <u64>(i << 3);
    x |= (<u64>b) << shift;
  }
  for (let k = 0; k < head.length; k++) if ((x & unchecked(mask[k])) == unchecked(head[k])) return true;
  return false;
}
