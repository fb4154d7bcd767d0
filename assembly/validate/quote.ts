// Go `%q` (strconv.Quote) rendering of a string, as Kubernetes field errors print string values.
import { isHighSurrogate, isLowSurrogate } from "./chars";
import { MAX_ECHOED_BYTES, shortenRenderedOfLength } from "./shorten";

// @ts-ignore: decorator
@lazy
const HEX_DIGITS = "0123456789abcdef";

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

function appendHex(out: string[], value: i32, digits: i32): void {
  for (let shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
    out.push(HEX_DIGITS.charAt((value >> shift) & 0xf));
  }
}

/** Escape for one non-printable rune, as strconv does: short escapes, `\xNN` below 0x80
 *  (C0 and DEL), `\uNNNN` in the BMP, `\UNNNNNNNN` above it. */
function appendEscapedRune(out: string[], r: i32): void {
  switch (r) {
    case 0x07:
      out.push("\\a");
      return;
    case 0x08:
      out.push("\\b");
      return;
    case 0x0c:
      out.push("\\f");
      return;
    case 0x0a:
      out.push("\\n");
      return;
    case 0x0d:
      out.push("\\r");
      return;
    case 0x09:
      out.push("\\t");
      return;
    case 0x0b:
      out.push("\\v");
      return;
  }
  if (r < 0x80) {
    out.push("\\x");
    appendHex(out, r, 2);
    return;
  }
  if (r < 0x10000) {
    out.push("\\u");
    appendHex(out, r, 4);
    return;
  }
  out.push("\\U");
  appendHex(out, r, 8);
}

/** Go `strconv.Quote(s)` (`%q`). A lone surrogate cannot come from valid UTF-8; Go's JSON decoder
 *  turns it into U+FFFD, which is printable, so it is rendered as U+FFFD here. */
export function goQuote(s: string): string {
  const out = new Array<string>();
  out.push('"');
  const len = s.length;
  let runStart = 0; // start of a pending run of characters copied verbatim
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    let r = c;
    let units = 1;
    if (isHighSurrogate(c) && i + 1 < len && isLowSurrogate(s.charCodeAt(i + 1))) {
      r = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      units = 2;
    } else if (isHighSurrogate(c) || isLowSurrogate(c)) {
      if (i > runStart) out.push(s.substring(runStart, i));
      out.push("\ufffd");
      runStart = i + 1;
      continue;
    }
    if (r != 0x22 && r != 0x5c && isGoPrintable(r)) {
      i += units - 1;
      continue;
    }
    if (i > runStart) out.push(s.substring(runStart, i));
    if (r == 0x22) out.push('\\"');
    else if (r == 0x5c) out.push("\\\\");
    else appendEscapedRune(out, r);
    i += units - 1;
    runStart = i + 1;
  }
  if (len > runStart) out.push(s.substring(runStart, len));
  out.push('"');
  return out.join("");
}

/** UTF-8 bytes of `goQuote(s)`, counted without building it. */
export function goQuotedLength(s: string): i32 {
  const len = s.length;
  let bytes = 2;
  const p = changetype<usize>(s);
  for (let i = 0; i < len; i++) {
    const c = <i32>load<u16>(p + ((<usize>i) << 1));
    // ASCII without calls: an echoed value can be 780,000 backslashes or control characters
    if (c < 0x80) {
      if (c == 0x22 || c == 0x5c) bytes += 2;
      else if (c >= 0x20 && c < 0x7f) bytes += 1;
      else if (c == 0x07 || c == 0x08 || c == 0x0c || c == 0x0a || c == 0x0d || c == 0x09 || c == 0x0b) bytes += 2;
      else bytes += 4;
      continue;
    }
    let r = c;
    if (isHighSurrogate(c) && i + 1 < len && isLowSurrogate(s.charCodeAt(i + 1))) {
      r = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      i++;
    } else if (isHighSurrogate(c) || isLowSurrogate(c)) {
      bytes += 3; // U+FFFD
      continue;
    }
    if (r == 0x22 || r == 0x5c) bytes += 2;
    else if (isGoPrintable(r)) bytes += r < 0x80 ? 1 : r < 0x800 ? 2 : r < 0x10000 ? 3 : 4;
    else if (r == 0x07 || r == 0x08 || r == 0x0c || r == 0x0a || r == 0x0d || r == 0x09 || r == 0x0b) bytes += 2;
    else bytes += r < 0x80 ? 4 : r < 0x10000 ? 6 : 10;
  }
  return bytes;
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
  const quoted = goQuote(s.substring(0, end));
  // without the closing quote of the partial rendering (the full rendering continues there)
  return shortenRenderedOfLength(quoted.substring(0, quoted.length - 1), total);
}
