// Character classes and trimming with Go semantics (`unicode.IsSpace`, `unicode.IsControl`,
// `strings.TrimSpace`). AssemblyScript strings are UTF-16; every Go whitespace rune is in the BMP,
// so checking code units is exact.

/** Go `unicode.IsSpace`: ASCII `\t \n \v \f \r` and space, U+0085, U+00A0, and the Unicode
 *  White_Space runes U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. */
export function isGoSpace(c: i32): bool {
  if (c <= 0xff) {
    return c == 0x20 || (c >= 0x09 && c <= 0x0d) || c == 0x85 || c == 0xa0;
  }
  return (
    c == 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c == 0x2028 ||
    c == 0x2029 ||
    c == 0x202f ||
    c == 0x205f ||
    c == 0x3000
  );
}

/** Go `unicode.IsControl`: the C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F). */
export function isGoControl(c: i32): bool {
  return (c >= 0 && c < 0x20) || (c >= 0x7f && c <= 0x9f);
}

/** Go `strings.TrimSpace`: removes leading and trailing `unicode.IsSpace` runes. */
export function trimGoSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  if (start == 0 && end == s.length) return s;
  return s.substring(start, end);
}

/** True when TrimSpace leaves nothing (empty or whitespace only). */
export function isBlank(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    if (!isGoSpace(s.charCodeAt(i))) return false;
  }
  return true;
}

/** True when `s` contains a `unicode.IsSpace` or `unicode.IsControl` rune anywhere: the check
 *  behind "must not contain whitespace" for image repositories/tags and LMCache endpoints. */
export function containsWhitespaceOrControl(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isGoSpace(c) || isGoControl(c)) return true;
  }
  return false;
}

/** ASCII digit `0`–`9`. */
export function isAsciiDigit(c: i32): bool {
  return c >= 0x30 && c <= 0x39;
}

/** ASCII lower-case letter `a`–`z`. */
export function isAsciiLower(c: i32): bool {
  return c >= 0x61 && c <= 0x7a;
}

/** ASCII letter of either case. */
export function isAsciiLetter(c: i32): bool {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Value of an ASCII hex digit, or -1. */
export function hexDigitValue(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** ASCII-only lower-casing of one code unit (Go's `lower` in strconv). */
export function asciiLower(c: i32): i32 {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Length of `s` in UTF-8 bytes, as Go's `len(s)` counts (lone surrogates count 3, like U+FFFD). */
export function utf8Length(s: string): i32 {
  let n = 0;
  const len = s.length;
  // the units read in place: a call per unit was most of the cost of an echoed 1.5 MB value
  const p = changetype<usize>(s);
  for (let i = 0; i < len; i++) {
    const c = <i32>load<u16>(p + ((<usize>i) << 1));
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < len && isLowSurrogate(s.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// @ts-ignore: decorator
@inline
export function isHighSurrogate(c: i32): bool {
  return c >= 0xd800 && c <= 0xdbff;
}

// @ts-ignore: decorator
@inline
export function isLowSurrogate(c: i32): bool {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Go's `unicode.ToLower` for the code points it maps into ASCII (A–Z, U+0130 `İ` → `i`, U+212A
 *  Kelvin sign → `k`); every other code unit is returned unchanged. Enough to compare with ASCII
 *  words exactly, without linking the full Unicode case tables. */
export function goLowerToAscii(c: i32): i32 {
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  if (c == 0x130) return 0x69;
  if (c == 0x212a) return 0x6b;
  return c;
}

/** Whether Go's `strings.ToLower(s) == word` for a lower-case ASCII `word`. */
export function goLowerEquals(s: string, word: string): bool {
  if (s.length != word.length) return false;
  for (let i = 0; i < s.length; i++) if (goLowerToAscii(s.charCodeAt(i)) != word.charCodeAt(i)) return false;
  return true;
}

/** `s` with goLowerToAscii applied to every code unit (Go's `strings.ToLower` for ASCII text;
 *  other letters keep their case). */
export function goLowerAscii(s: string): string {
  let changed = false;
  for (let i = 0; i < s.length && !changed; i++) changed = goLowerToAscii(s.charCodeAt(i)) != s.charCodeAt(i);
  if (!changed) return s;
  // written in place into one new string (an array of units first was three allocations)
  const out = changetype<string>(__new((<usize>s.length) << 1, idof<string>()));
  for (let i = 0; i < s.length; i++)
    store<u16>(changetype<usize>(out) + ((<usize>i) << 1), <u16>goLowerToAscii(s.charCodeAt(i)));
  return out;
}
