// Comparing raw UTF-8 text of the input (member keys, string values) with AssemblyScript strings
// without decoding it: an ASCII string is compared unit by unit, any other is encoded once.
import { CHAR_NON_ASCII } from "./chars";
import { decodeStringBody } from "./strings";

/** the UTF-8 encoding of `text`, in bytes of its own */
export function utf8Bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

/** null for an ASCII key (compared without encoding, see `rawKeyEquals`), else its UTF-8 bytes */
export function keyBytesFor(key: string): Uint8Array | null {
  const k = changetype<usize>(key);
  const n = key.length;
  for (let i = 0; i < n; i++) if (<u32>load<u16>(k + ((<usize>i) << 1)) >= CHAR_NON_ASCII) return utf8Bytes(key);
  return null;
}

/** compares the raw key [ks, ke) of `bytes` (escaped: contains a backslash) with `key` (whose UTF-8
 *  is `wanted`; null when `key` is ASCII, which is then compared unit by unit without encoding) */
export function rawKeyEquals(
  bytes: Uint8Array,
  ks: i32,
  ke: i32,
  escaped: bool,
  key: string,
  wanted: Uint8Array | null,
): bool {
  if (escaped) {
    const s = decodeStringBody(bytes.dataStart, ks, ke, false);
    return s !== null && s == key;
  }
  return rawBytesEqual(bytes.dataStart + <usize>ks, ke - ks, key, wanted);
}

/** compares n raw UTF-8 bytes at `raw` (without escapes) with the decoded `text` */
export function rawTextEquals(raw: usize, n: i32, text: string): bool {
  return rawBytesEqual(raw, n, text, keyBytesFor(text));
}

/** compares n raw UTF-8 bytes at `raw` (without escapes) with `text`, whose UTF-8 is `wanted`
 *  (null when `text` is ASCII, which is then compared unit by unit without encoding) */
function rawBytesEqual(raw: usize, n: i32, text: string, wanted: Uint8Array | null): bool {
  if (wanted !== null) return n == wanted.length && memory.compare(raw, wanted.dataStart, <usize>n) == 0;
  return asciiEquals(raw, n, text);
}

/** compares n raw bytes at `raw` with the ASCII string `text`, unit by unit */
// @ts-ignore: decorator
@inline function asciiEquals(raw: usize, n: i32, text: string): bool {
  if (n != text.length) return false;
  const k = changetype<usize>(text);
  for (let i = 0; i < n; i++) {
    if (<u32>load<u8>(raw + <usize>i) != <u32>load<u16>(k + ((<usize>i) << 1))) return false;
  }
  return true;
}
