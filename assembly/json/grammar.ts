// Byte-level JSON grammar: the one strict validating pass (RFC 8259 + UTF-8), which records every
// value's span, raw key and next sibling in the parse table (table.ts). The string bodies it
// validated are searched and decoded afterwards by strings.ts.
// All functions take a base pointer and explicit bounds and never read outside [base, base+n).
import {
  ASCII_CASE_BIT,
  CHAR_0,
  CHAR_1,
  CHAR_BACKSLASH,
  CHAR_CLOSE_BRACE,
  CHAR_CLOSE_BRACKET,
  CHAR_COLON,
  CHAR_COMMA,
  CHAR_CR,
  CHAR_DOT,
  CHAR_LF,
  CHAR_LOWER_A,
  CHAR_LOWER_B,
  CHAR_LOWER_E,
  CHAR_LOWER_F,
  CHAR_LOWER_N,
  CHAR_LOWER_R,
  CHAR_LOWER_T,
  CHAR_LOWER_U,
  CHAR_MINUS,
  CHAR_NON_ASCII,
  CHAR_OPEN_BRACE,
  CHAR_OPEN_BRACKET,
  CHAR_PLUS,
  CHAR_QUOTE,
  CHAR_SLASH,
  CHAR_SPACE,
  CHAR_TAB,
} from "./chars";
import { i32ToDecimal } from "../util/decimal";
import { uninitializedI32s } from "../util/memory";
import { ValueTable } from "./table";

// Messages of the validating pass.
// @ts-ignore: decorator
@lazy
const E_EMPTY = "empty input";
// @ts-ignore: decorator
@lazy
const E_EOF = "unexpected end of input";
// @ts-ignore: decorator
@lazy
const E_UNEXPECTED = "unexpected character";
// @ts-ignore: decorator
@lazy
const E_DEPTH = "nesting deeper than the limit";
// @ts-ignore: decorator
@lazy
const E_NUMBER = "invalid number";
// @ts-ignore: decorator
@lazy
const E_LITERAL = "invalid literal";
// @ts-ignore: decorator
@lazy
const E_STRING_EOF = "unterminated string";
// @ts-ignore: decorator
@lazy
const E_CONTROL = "unescaped control character in string";
// @ts-ignore: decorator
@lazy
const E_ESCAPE = "invalid escape";
// @ts-ignore: decorator
@lazy
const E_UTF8 = "invalid UTF-8";
// @ts-ignore: decorator
@lazy
const E_TRAILING = "trailing characters after the value";
// @ts-ignore: decorator
@lazy
const E_KEY = "expected a string key";
// @ts-ignore: decorator
@lazy
const E_COLON = "expected ':'";
// @ts-ignore: decorator
@lazy
const E_SEPARATOR = "expected ',' or a closing bracket";

/** true for the four whitespace bytes RFC 8259 allows between tokens */
@inline export function isWs(c: u32): bool {
  return c == CHAR_SPACE || c == CHAR_LF || c == CHAR_CR || c == CHAR_TAB;
}


@inline export function isDigit(c: u32): bool {
  return c - CHAR_0 < 10;
}

/** The first offset at or after p that is not whitespace (or end). Inlined, with the common case
 *  of compact JSON (no whitespace here at all) decided by one comparison. */
@inline export function skipWs(base: usize, p: i32, end: i32): i32 {
  // every whitespace byte is <= 0x20
  if (p < end && <u32>load<u8>(base + <usize>p) > CHAR_SPACE) return p;
  return skipWsFrom(base, p, end);
}

function skipWsFrom(base: usize, p: i32, end: i32): i32 {
  while (p < end && isWs(<u32>load<u8>(base + <usize>p))) p++;
  return p;
}

/** The end of the RFC 8259 number starting at `p`, or -1 when the grammar does not match there. */
export function scanNumber(base: usize, p: i32, n: i32): i32 {
  if (p < n && load<u8>(base + <usize>p) == CHAR_MINUS) p++;
  if (p >= n) return -1;
  let c = <u32>load<u8>(base + <usize>p);
  if (c == CHAR_0) {
    p++;
  } else if (c - CHAR_1 < 9) {
    p++;
    while (p < n && isDigit(<u32>load<u8>(base + <usize>p))) p++;
  } else {
    return -1;
  }
  if (p < n && load<u8>(base + <usize>p) == CHAR_DOT) {
    p++;
    const digits = p;
    while (p < n && isDigit(<u32>load<u8>(base + <usize>p))) p++;
    if (p == digits) return -1;
  }
  if (p < n && ((<u32>load<u8>(base + <usize>p)) | ASCII_CASE_BIT) == CHAR_LOWER_E) {
    p++;
    if (p < n) {
      c = <u32>load<u8>(base + <usize>p);
      if (c == CHAR_PLUS || c == CHAR_MINUS) p++;
    }
    const digits = p;
    while (p < n && isDigit(<u32>load<u8>(base + <usize>p))) p++;
    if (p == digits) return -1;
  }
  return p;
}


@inline function hexValue(c: u32): i32 {
  if (c - CHAR_0 < 10) return <i32>(c - CHAR_0);
  const l = c | ASCII_CASE_BIT;
  if (l - CHAR_LOWER_A < 6) return <i32>(l - CHAR_LOWER_A + 10);
  return -1;
}

/** the 4 hex digits at p as a code unit, or -1 (caller guarantees p+4 <= n) */
export function hex4(base: usize, p: i32): i32 {
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const h = hexValue(<u32>load<u8>(base + <usize>(p + i)));
    if (h < 0) return -1;
    v = (v << 4) | h;
  }
  return v;
}

export const ONES: u64 = 0x0101010101010101;
export const HIGHS: u64 = 0x8080808080808080;

/** high bit set in each byte that is '"', '\\', a control character or non-ASCII; the lowest set
 *  bit marks the first such byte exactly (borrows only reach bytes above a match) */
@inline function stringSpecialMask(x: u64): u64 {
  const q = x ^ (ONES * CHAR_QUOTE);
  const b = x ^ (ONES * CHAR_BACKSLASH);
  return (x | ((x - ONES * CHAR_SPACE) & ~x) | ((q - ONES) & ~q) | ((b - ONES) & ~b)) & HIGHS;
}

/** The offset of the first '"', '\\', control or non-ASCII byte in [p, n), or n. */
@inline function plainRunEnd(base: usize, p: i32, n: i32): i32 {
  while (p + 8 <= n) {
    const m = stringSpecialMask(load<u64>(base + <usize>p));
    if (m != 0) return p + <i32>(ctz(m) >> 3);
    p += 8;
  }
  while (p < n) {
    const c = <u32>load<u8>(base + <usize>p);
    if (c == CHAR_QUOTE || c == CHAR_BACKSLASH || c < CHAR_SPACE || c >= CHAR_NON_ASCII) return p;
    p++;
  }
  return n;
}

/** first capacity of the validator's container stack (entries) */
const STACK_START: i32 = 32;

/** The strict validating pass; on success `table` holds every value's record. */
export class Validator {
  problem: string = "";
  offset: i32 = 0;
  /** span of the top-level value (without surrounding whitespace) */
  rootStart: i32 = 0;
  rootEnd: i32 = 0;
  table: ValueTable;
  /** raw key of the member whose value comes next (set by keyAndColon) */
  private keyStart: i32 = 0;
  private keyEnd: i32 = 0;
  private sawEscape: bool = false;
  /** per open container: its table index << 1 | 1 when it is an object. Held in a field so a
   *  collecting runtime keeps it alive while run() uses its raw address. */
  private stack: StaticArray<i32>;

  constructor(
    public base: usize,
    public n: i32,
    public maxDepth: i32,
  ) {
    // The stack first: the table, allocated last, then grows and is trimmed in place. The stack
    // is sized for common nesting and doubled on demand: one sized for the depth limit (4 KB at
    // the default) would cost a page per parse on a fresh instance.
    this.stack = uninitializedI32s(min(min(max(maxDepth, 0), n) + 1, STACK_START));
    this.table = new ValueTable((n >> 4) + 4);
  }

  /** doubles the container stack (the first `depth` entries are kept); returns its address */
  private growStack(depth: i32): usize {
    const next = uninitializedI32s(this.stack.length << 1);
    memory.copy(changetype<usize>(next), changetype<usize>(this.stack), (<usize>depth) << 2);
    this.stack = next;
    return changetype<usize>(next);
  }

  get message(): string {
    return this.problem + " at byte " + i32ToDecimal(this.offset);
  }

  private fail(problem: string, at: i32): bool {
    this.problem = problem;
    this.offset = at;
    return false;
  }

  run(): bool {
    const base = this.base;
    const n = this.n;
    const table = this.table;
    const maxDepth = max(this.maxDepth, 0);
    let stack = changetype<usize>(this.stack);
    let stackCap = this.stack.length;
    let depth = 0;
    let inObject = false;
    let expectValue = true;
    let cur = 0; // table index of the innermost open container (read only while depth > 0)
    let ks = 0,
      ke = 0; // raw key of the next value (0, 0 outside objects)
    let pos = skipWs(base, 0, n);
    if (pos >= n) return this.fail(E_EMPTY, pos);
    this.rootStart = pos;
    while (true) {
      if (expectValue) {
        if (pos >= n) return this.fail(E_EOF, pos);
        const c = <u32>load<u8>(base + <usize>pos);
        expectValue = false;
        const vi = table.add(pos, ks, ke);
        if (c == CHAR_QUOTE) {
          const e = plainRunEnd(base, pos + 1, n);
          if (e < n && load<u8>(base + <usize>e) == CHAR_QUOTE) pos = e + 1;
          else {
            pos = this.scanString(pos);
            if (pos < 0) return false;
          }
        } else if (c == CHAR_OPEN_BRACE || c == CHAR_OPEN_BRACKET) {
          if (depth >= maxDepth) return this.fail(E_DEPTH, pos);
          if (depth >= stackCap) {
            stack = this.growStack(depth);
            stackCap = this.stack.length;
          }
          inObject = c == CHAR_OPEN_BRACE;
          cur = vi;
          store<i32>(stack + ((<usize>depth) << 2), (cur << 1) | (<i32>inObject));
          depth++;
          pos = skipWs(base, pos + 1, n);
          ks = ke = 0;
          // an empty container is closed by the separator branch below
          if (pos < n && <u32>load<u8>(base + <usize>pos) == c + 2) continue;
          expectValue = true;
          if (inObject) {
            pos = this.keyAndColon(pos);
            if (pos < 0) return false;
            ks = this.keyStart;
            ke = this.keyEnd;
          }
          continue;
        } else if (c == CHAR_LOWER_T || c == CHAR_LOWER_N) {
          const word: u32 = c == 0x74 ? 0x65757274 : 0x6c6c756e; // "true" / "null"
          if (pos + 4 > n || load<u32>(base + <usize>pos) != word) return this.fail(E_LITERAL, pos);
          pos += 4;
        } else if (c == CHAR_LOWER_F) {
          if (pos + 5 > n || load<u32>(base + <usize>pos + 1) != 0x65736c61) return this.fail(E_LITERAL, pos); // "alse"
          pos += 5;
        } else if (c == CHAR_MINUS || isDigit(c)) {
          const e = scanNumber(base, pos, n);
          if (e < 0) return this.fail(E_NUMBER, pos);
          pos = e;
        } else {
          return this.fail(E_UNEXPECTED, pos);
        }
        table.close(vi, pos);
        continue;
      }
      // after a value: separator, closing bracket, or the end of the document
      pos = skipWs(base, pos, n);
      if (depth == 0) {
        if (pos != n) return this.fail(E_TRAILING, pos);
        this.rootEnd = this.rootEndFrom(pos);
        table.trim();
        return true;
      }
      if (pos >= n) return this.fail(E_EOF, pos);
      const c = <u32>load<u8>(base + <usize>pos);
      if (c == CHAR_COMMA) {
        pos = skipWs(base, pos + 1, n);
        expectValue = true;
        if (inObject) {
          pos = this.keyAndColon(pos);
          if (pos < 0) return false;
          ks = this.keyStart;
          ke = this.keyEnd;
        }
        continue;
      }
      if (c != (inObject ? CHAR_CLOSE_BRACE : CHAR_CLOSE_BRACKET)) return this.fail(E_SEPARATOR, pos);
      depth--;
      table.close(cur, pos + 1);
      pos++;
      if (depth > 0) {
        const top = load<i32>(stack + ((<usize>(depth - 1)) << 2));
        inObject = (top & 1) != 0;
        cur = top >> 1;
      }
      ks = ke = 0;
    }
  }

  /** the end of the root value: the last non-whitespace byte before n, plus one */
  private rootEndFrom(n: i32): i32 {
    let e = n;
    while (e > this.rootStart && isWs(<u32>load<u8>(this.base + <usize>(e - 1)))) e--;
    return e;
  }

  private keyAndColon(pos: i32): i32 {
    const base = this.base;
    const n = this.n;
    if (pos >= n || load<u8>(base + <usize>pos) != CHAR_QUOTE) {
      this.fail(pos >= n ? E_EOF : E_KEY, pos);
      return -1;
    }
    this.keyStart = pos + 1;
    const e = plainRunEnd(base, pos + 1, n);
    if (e < n && load<u8>(base + <usize>e) == CHAR_QUOTE) {
      pos = e + 1;
      this.keyEnd = e;
    } else {
      this.sawEscape = false;
      pos = this.scanString(pos);
      if (pos < 0) return -1;
      this.keyEnd = (pos - 1) | ((<i32>this.sawEscape) << 31);
    }
    pos = skipWs(base, pos, n);
    if (pos >= n || load<u8>(base + <usize>pos) != CHAR_COLON) {
      this.fail(pos >= n ? E_EOF : E_COLON, pos);
      return -1;
    }
    return skipWs(base, pos + 1, n);
  }

  /** validates the string whose quote is at `open`; returns the offset after it, or -1 */
  private scanString(open: i32): i32 {
    const base = this.base;
    const n = this.n;
    let p = open + 1;
    while (true) {
      p = plainRunEnd(base, p, n);
      if (p >= n) {
        this.fail(E_STRING_EOF, open);
        return -1;
      }
      const c = <u32>load<u8>(base + <usize>p);
      if (c == CHAR_QUOTE) return p + 1;
      if (c == CHAR_BACKSLASH) {
        // a run of escapes (a hostile string can be 1.5 MB of `\\` or of `\u0001`) without a call
        // or a search each
        let inRun = true;
        while (inRun && p + 1 < n) {
          const d = <u32>load<u8>(base + <usize>p + 1);
          // the escape's width; 0 ends the run (escape() below reports a bad one)
          const w = isShortEscape(d) ? 2 : d == CHAR_LOWER_U && p + 6 <= n && hex4(base, p + 2) >= 0 ? 6 : 0;
          if (w == 0) inRun = false;
          else {
            this.sawEscape = true;
            p += w;
            inRun = p < n && <u32>load<u8>(base + <usize>p) == CHAR_BACKSLASH;
          }
        }
        if (p < n && <u32>load<u8>(base + <usize>p) == CHAR_BACKSLASH) {
          p = this.escape(p);
          if (p < 0) return -1;
        }
      } else if (c < CHAR_SPACE) {
        this.fail(E_CONTROL, p);
        return -1;
      } else if (c < CHAR_NON_ASCII) {
        p++;
      } else {
        const e = utf8SequenceEnd(base, p, n);
        if (e < 0) {
          this.fail(E_UTF8, p);
          return -1;
        }
        p = e;
      }
    }
  }

  private escape(p: i32): i32 {
    const base = this.base;
    if (p + 1 >= this.n) {
      this.fail(E_STRING_EOF, p);
      return -1;
    }
    const d = <u32>load<u8>(base + <usize>p + 1);
    this.sawEscape = true;
    if (
      d == CHAR_QUOTE ||
      d == CHAR_BACKSLASH ||
      d == CHAR_SLASH ||
      d == CHAR_LOWER_B ||
      d == CHAR_LOWER_F ||
      d == CHAR_LOWER_N ||
      d == CHAR_LOWER_R ||
      d == CHAR_LOWER_T
    )
      return p + 2;
    if (d == CHAR_LOWER_U && p + 6 <= this.n && hex4(base, p + 2) >= 0) return p + 6;
    this.fail(E_ESCAPE, p);
    return -1;
  }
}

// the second bytes of the two-byte escapes `\" \\ \/ \b \f \n \r \t`, as bits over 0x00-0x7f
// @ts-ignore: decorator
@inline const SHORT_ESCAPES_LOW: u64 = ((<u64>1) << 0x22) | ((<u64>1) << 0x2f);
// @ts-ignore: decorator
@inline const SHORT_ESCAPES_HIGH: u64 =
  ((<u64>1) << (0x5c - 64)) |
  ((<u64>1) << (0x62 - 64)) |
  ((<u64>1) << (0x66 - 64)) |
  ((<u64>1) << (0x6e - 64)) |
  ((<u64>1) << (0x72 - 64)) |
  ((<u64>1) << (0x74 - 64));

/** whether `\` followed by `d` is a complete two-byte escape */
// @ts-ignore: decorator
@inline function isShortEscape(d: u32): bool {
  return d < 64
    ? ((SHORT_ESCAPES_LOW >> (<u64>d)) & 1) != 0
    : d < 128 && ((SHORT_ESCAPES_HIGH >> (<u64>(d - 64))) & 1) != 0;
}


@inline function isCont(base: usize, p: i32): bool {
  return ((<u32>load<u8>(base + <usize>p)) & 0xc0) == 0x80;
}

/**
 * The end of the well-formed UTF-8 sequence whose lead byte (>= 0x80) is at p, or -1 for
 * stray continuation bytes, overlong forms, encoded surrogates, > U+10FFFF and truncation.
 */
export function utf8SequenceEnd(base: usize, p: i32, n: i32): i32 {
  const c = <u32>load<u8>(base + <usize>p);
  if (c < 0xc2) return -1;
  if (c < 0xe0) {
    if (p + 2 > n || !isCont(base, p + 1)) return -1;
    return p + 2;
  }
  if (c < 0xf0) {
    if (p + 3 > n) return -1;
    const c1 = <u32>load<u8>(base + <usize>p + 1);
    if (c == 0xe0 && c1 < 0xa0) return -1; // overlong
    if (c == 0xed && c1 >= 0xa0) return -1; // UTF-16 surrogate
    if ((c1 & 0xc0) != 0x80 || !isCont(base, p + 2)) return -1;
    return p + 3;
  }
  if (c < 0xf5) {
    if (p + 4 > n) return -1;
    const c1 = <u32>load<u8>(base + <usize>p + 1);
    if (c == 0xf0 && c1 < 0x90) return -1; // overlong
    if (c == 0xf4 && c1 >= 0x90) return -1; // above U+10FFFF
    if ((c1 & 0xc0) != 0x80 || !isCont(base, p + 2) || !isCont(base, p + 3)) return -1;
    return p + 4;
  }
  return -1;
}
