// Go `%q` (strconv.Quote) rendering of a string, as Kubernetes field errors print string values.
import { isHighSurrogate, isLowSurrogate } from "./chars";
import { MAX_ECHOED_BYTES, shortenRenderedOfLength } from "./shorten";

/** Approximation of Go `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols and the
 *  ASCII space). Exact for ASCII and Latin-1. Above that, a rune counts as printable unless it is
 *  in one of the non-printable classes listed here: C1 controls, Unicode spaces other than U+0020
 *  (Zs/Zl/Zp), the common format characters (Cf), surrogates, private use (Co), noncharacters,
 *  and the unassigned planes 4–13 plus unassigned parts of plane 14. Unassigned code points inside
 *  otherwise assigned blocks are treated as printable (Go would escape them as `\uNNNN`). */
export function isGoPrintable(r: i32): bool {
  if (r < 0x20) return false;
  if (r < 0x7f) return true;
  if (r <= 0xa0) return false; // DEL, C1 controls, NO-BREAK SPACE
  if (r == 0xad) return false; // SOFT HYPHEN (Cf)
  if (r < 0x300) return true;
  if (r < 0x10000) return isPrintableBmp(r);
  return isPrintableSupplementary(r);
}

function isPrintableBmp(r: i32): bool {
  if (r >= 0x600 && r <= 0x605) return false;
  if (r == 0x61c || r == 0x6dd || r == 0x70f || r == 0x890 || r == 0x891 || r == 0x8e2) return false;
  if (r == 0x1680 || r == 0x180e) return false;
  if (r >= 0x2000 && r <= 0x200f) return false; // spaces, ZWSP, ZWNJ, ZWJ, LRM, RLM
  if (r >= 0x2028 && r <= 0x202f) return false; // line/paragraph separators, bidi embeddings, NNBSP
  if (r >= 0x205f && r <= 0x206f) return false; // MMSP, invisible operators, bidi isolates
  if (r == 0x3000) return false;
  if (r >= 0xd800 && r <= 0xf8ff) return false; // surrogates, private use
  if (r >= 0xfdd0 && r <= 0xfdef) return false; // noncharacters
  if (r == 0xfeff) return false; // BOM / ZWNBSP
  if (r >= 0xfff0 && r <= 0xfffb) return false; // unassigned, interlinear annotation
  if (r >= 0xfffe) return false; // noncharacters
  return true;
}

function isPrintableSupplementary(r: i32): bool {
  if ((r & 0xfffe) == 0xfffe) return false; // plane-final noncharacters
  if (r == 0x110bd || r == 0x110cd) return false;
  if (r >= 0x13430 && r <= 0x1343f) return false; // Egyptian hieroglyph format controls
  if (r >= 0x1bca0 && r <= 0x1bca3) return false; // shorthand format controls
  if (r >= 0x1d173 && r <= 0x1d17a) return false; // musical format controls
  if (r >= 0x40000 && r <= 0xdffff) return false; // unassigned planes 4–13
  if (r >= 0xe0000 && r <= 0xeffff) return r >= 0xe0100 && r <= 0xe01ef; // tags: Cf; VS17+: Mn
  if (r >= 0xf0000) return false; // supplementary private use
  return true;
}

// the UTF-8 length of the last rendering (renderGoQuote returns its UTF-16 length)
let quotedBytes: i32 = 0;

// @ts-ignore: decorator
@inline
function putUnit(out: usize, u: i32, c: i32): i32 {
  if (out != 0) store<u16>(out + ((<usize>u) << 1), <u16>c);
  return u + 1;
}

/** Go `strconv.Quote` (`%q`) of the first `len` units of `s`: writes its UTF-16 units at `out`
 *  (unless 0) and returns how many there are, its UTF-8 length left in `quotedBytes`. One walk
 *  counts and writes, so the length of a rendering and the rendering always agree. Escapes as
 *  strconv's: short ones, `\xNN` below 0x80 (C0 and DEL), `\uNNNN` in the BMP, `\UNNNNNNNN` above.
 *  A lone surrogate cannot come from valid UTF-8; Go's JSON decoder turns it into U+FFFD, which is
 *  printable, so it is rendered as U+FFFD. ASCII is handled without calls: an echoed value can be
 *  780,000 backslashes or control characters. */
function renderGoQuote(s: string, len: i32, out: usize): i32 {
  const p = changetype<usize>(s);
  let u = putUnit(out, 0, 0x22);
  // UTF-8 bytes beyond one per unit written
  let extra = 0;
  for (let i = 0; i < len; i++) {
    let r = <i32>load<u16>(p + ((<usize>i) << 1));
    if (r >= 0x20 && r < 0x7f) {
      if (r == 0x22 || r == 0x5c) u = putUnit(out, u, 0x5c);
      u = putUnit(out, u, r);
      continue;
    }
    if (r >= 0x80) {
      if (isHighSurrogate(r) && i + 1 < len && isLowSurrogate(<i32>load<u16>(p + ((<usize>i + 1) << 1)))) {
        r = 0x10000 + ((r - 0xd800) << 10) + (<i32>load<u16>(p + ((<usize>i + 1) << 1)) - 0xdc00);
        i++;
      } else if (isHighSurrogate(r) || isLowSurrogate(r)) r = 0xfffd;
      if (isGoPrintable(r)) {
        if (r >= 0x10000) {
          // 4 bytes, 2 units
          u = putUnit(out, u, 0xd800 + ((r - 0x10000) >> 10));
          u = putUnit(out, u, 0xdc00 + ((r - 0x10000) & 0x3ff));
          extra += 2;
          continue;
        }
        u = putUnit(out, u, r);
        extra += r < 0x800 ? 1 : 2;
        continue;
      }
    }
    u = putUnit(out, u, 0x5c);
    if (r >= 0x07 && r <= 0x0d) {
      // \a \b \t \n \v \f \r, one byte each for 0x07..0x0d
      u = putUnit(out, u, <i32>(((<u64>0x7266766e746261) >> ((<u64>(r - 0x07)) << 3)) & 0xff));
      continue;
    }
    const digits = r < 0x80 ? 2 : r < 0x10000 ? 4 : 8;
    u = putUnit(out, u, digits == 2 ? 0x78 : digits == 4 ? 0x75 : 0x55); // x u U
    for (let shift = (digits - 1) << 2; shift >= 0; shift -= 4) {
      const d = (r >> shift) & 0xf;
      u = putUnit(out, u, d < 10 ? 0x30 + d : 0x57 + d);
    }
  }
  u = putUnit(out, u, 0x22);
  quotedBytes = u + extra;
  return u;
}

/** the `%q` rendering of the first `len` units of `s` */
function goQuotePrefix(s: string, len: i32): string {
  const units = renderGoQuote(s, len, 0);
  const out = __new((<usize>units) << 1, idof<string>());
  renderGoQuote(s, len, out);
  return changetype<string>(out);
}

/** Go `strconv.Quote(s)` (`%q`), see renderGoQuote. */
export function goQuote(s: string): string {
  return goQuotePrefix(s, s.length);
}

/** UTF-8 bytes of `goQuote(s)`, counted without building it. */
export function goQuotedLength(s: string): i32 {
  renderGoQuote(s, s.length, 0);
  return quotedBytes;
}

/** `goQuote(s)` shortened past MAX_ECHOED_BYTES (shorten.ts): the `%q` form of an echoed string.
 *  Only the start that is shown is quoted, so a long value costs one counting pass. */
export function goQuoteShort(s: string): string {
  // every UTF-16 unit renders to at most 10 bytes: short strings need no counting
  if (s.length * 10 + 2 <= MAX_ECHOED_BYTES) return goQuote(s);
  const total = goQuotedLength(s);
  if (total <= MAX_ECHOED_BYTES) return goQuote(s);
  // each unit renders to at least one byte, so this many units cover the part that is shown
  let end = min(s.length, MAX_ECHOED_BYTES);
  if (end < s.length && isHighSurrogate(s.charCodeAt(end - 1))) end--; // keep a pair whole
  const quoted = goQuotePrefix(s, end);
  // without the closing quote of the partial rendering (the full rendering continues there)
  return shortenRenderedOfLength(quoted.substring(0, quoted.length - 1), total);
}
