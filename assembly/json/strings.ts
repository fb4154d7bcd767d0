// String bodies of validated JSON text: where the first escape is, whether a body decodes in strict
// mode (no lone surrogate), and decoding it to a string. Every reader of string values comes here;
// the grammar (grammar.ts) has checked the bytes before.
// All functions take a base pointer and explicit bounds and never read outside them.
import {
  CHAR_BACKSLASH,
  CHAR_BACKSPACE,
  CHAR_CR,
  CHAR_FORM_FEED,
  CHAR_LF,
  CHAR_LOWER_B,
  CHAR_LOWER_F,
  CHAR_LOWER_N,
  CHAR_LOWER_R,
  CHAR_LOWER_T,
  CHAR_LOWER_U,
  CHAR_NON_ASCII,
  CHAR_TAB,
} from "./chars";
import { HIGHS, hex4, ONES } from "./grammar";

/** The offset of the first backslash in [p, e), or e; eight bytes per step (annotation values
 *  and embedded JSON documents are long, and most have no escape at all). */
export function nextBackslash(base: usize, p: i32, e: i32): i32 {
  while (p + 8 <= e) {
    const b = load<u64>(base + <usize>p) ^ (ONES * CHAR_BACKSLASH);
    const m = (b - ONES) & ~b & HIGHS;
    if (m != 0) return p + <i32>(ctz(m) >> 3);
    p += 8;
  }
  while (p < e && load<u8>(base + <usize>p) != CHAR_BACKSLASH) p++;
  return p;
}

/** Whether the bytes [s, e) contain a backslash. */
export function containsBackslash(base: usize, s: i32, e: i32): bool {
  return nextBackslash(base, s, e) < e;
}

/** Whether the already-validated string body [s, e) decodes in strict mode (no lone-surrogate
 *  escape); a counting pass only, nothing is allocated. */
export function stringBodyDecodes(base: usize, s: i32, e: i32): bool {
  // only a `\u` escape can be a lone surrogate; other escapes are skipped pairwise, and so are
  // `\u` escapes, each checked where it is (a run of 250,000 `\u0001` was decoded, not skipped)
  let p = nextBackslash(base, s, e);
  while (p < e) {
    if (p + 5 < e && load<u8>(base + <usize>p + 1) == CHAR_LOWER_U) {
      const unit = (<u32>hex4(base, p + 2)) & 0xffff;
      p += 6;
      if (unit >= 0xd800 && unit < 0xe000) {
        // a high surrogate needs a low one right after it; a low one alone is lone
        if (
          unit >= 0xdc00 ||
          p + 6 > e ||
          load<u8>(base + <usize>p) != CHAR_BACKSLASH ||
          load<u8>(base + <usize>p + 1) != CHAR_LOWER_U
        )
          return false;
        const low = (<u32>hex4(base, p + 2)) & 0xffff;
        if (low < 0xdc00 || low >= 0xe000) return false;
        p += 6;
      }
      if (p < e && load<u8>(base + <usize>p) != CHAR_BACKSLASH) p = nextBackslash(base, p, e);
      continue;
    }
    p += 2;
    // the next escape of a run is right here: no search
    if (p < e && load<u8>(base + <usize>p) != CHAR_BACKSLASH) p = nextBackslash(base, p, e);
  }
  return true;
}

/**
 * Decodes the already-validated string body [s, e) (no quotes) into a string. A lone-surrogate
 * escape is kept as that code unit when `strict` is false and makes the result null when true.
 * One pass into the string itself, cut to length after (no raw buffer outlives the call).
 */
export function decodeStringBody(base: usize, s: i32, e: i32, strict: bool): string | null {
  if (!containsBackslash(base, s, e)) return String.UTF8.decodeUnsafe(base + <usize>s, <usize>(e - s));
  // one pass into room for the most units the body can hold (one per byte), then the string is
  // cut to what was written: it is the last allocation, so the runtime gives the rest back in
  // place (a count pass first was a second walk over 1.5 MB of escapes)
  const room = changetype<usize>(__new((<usize>(e - s)) << 1, idof<string>()));
  const units = decodeUnits(base, s, e, strict, room);
  if (units < 0) {
    __renew(room, 0);
    return null;
  }
  return changetype<string>(__renew(room, (<usize>units) << 1));
}

/** One decoding pass: counts the UTF-16 units (and stores them when `out` is not 0); -1 for a
 *  lone surrogate escape in strict mode. */
function decodeUnits(base: usize, s: i32, e: i32, strict: bool, out: usize): i32 {
  let u = 0;
  let p = s;
  while (p < e) {
    const c = <u32>load<u8>(base + <usize>p);
    let unit: u32 = c;
    if (c == CHAR_BACKSLASH && p + 1 < e) {
      const d = <u32>load<u8>(base + <usize>p + 1);
      p += 2;
      if (d == CHAR_LOWER_B) unit = CHAR_BACKSPACE;
      else if (d == CHAR_LOWER_F) unit = CHAR_FORM_FEED;
      else if (d == CHAR_LOWER_N) unit = CHAR_LF;
      else if (d == CHAR_LOWER_R) unit = CHAR_CR;
      else if (d == CHAR_LOWER_T) unit = CHAR_TAB;
      else if (d == CHAR_LOWER_U && p + 4 <= e) {
        unit = (<u32>hex4(base, p)) & 0xffff;
        p += 4;
        if (unit >= 0xd800 && unit < 0xe000) {
          const low =
            unit < 0xdc00 &&
            p + 6 <= e &&
            load<u8>(base + <usize>p) == CHAR_BACKSLASH &&
            load<u8>(base + <usize>p + 1) == CHAR_LOWER_U
              ? <u32>hex4(base, p + 2)
              : 0;
          if (low >= 0xdc00 && low < 0xe000) {
            if (out != 0) store<u16>(out + ((<usize>u) << 1), <u16>unit);
            u++;
            unit = low;
            p += 6;
          } else if (strict) {
            return -1;
          }
        }
      } else unit = d;
    } else if (c < CHAR_NON_ASCII) {
      p++;
    } else if (c < 0xe0 && p + 2 <= e) {
      unit = ((c & 0x1f) << 6) | ((<u32>load<u8>(base + <usize>p + 1)) & 0x3f);
      p += 2;
    } else if (c < 0xf0 && p + 3 <= e) {
      unit =
        ((c & 0x0f) << 12) |
        (((<u32>load<u8>(base + <usize>p + 1)) & 0x3f) << 6) |
        ((<u32>load<u8>(base + <usize>p + 2)) & 0x3f);
      p += 3;
    } else if (p + 4 <= e) {
      const cp =
        ((c & 0x07) << 18) |
        (((<u32>load<u8>(base + <usize>p + 1)) & 0x3f) << 12) |
        (((<u32>load<u8>(base + <usize>p + 2)) & 0x3f) << 6) |
        ((<u32>load<u8>(base + <usize>p + 3)) & 0x3f);
      p += 4;
      if (out != 0) store<u16>(out + ((<usize>u) << 1), <u16>(0xd800 + ((cp - 0x10000) >> 10)));
      u++;
      unit = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    } else {
      break; // truncated (cannot happen on validated text)
    }
    if (out != 0) store<u16>(out + ((<usize>u) << 1), <u16>unit);
    u++;
  }
  return u;
}
