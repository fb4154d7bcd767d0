// The one rule every policy uses to keep what it says back bounded whatever the input (issue 20,
// docs/decisions.md "Bounded output"): a value echoed in a message, warning or audit annotation
// keeps at most MAX_ECHOED_BYTES of its rendered form (UTF-8) and then says how many bytes were
// left out; a list of problems names at most MAX_LISTED_PROBLEMS of them, within
// MAX_LISTED_BYTES, and then says how many more there are. A value or list that fits is printed
// exactly as before, so the Kubernetes wording is untouched for every ordinary input.
import { i32ToDecimal } from "../util/decimal";
import { isHighSurrogate, isLowSurrogate, utf8Length } from "./chars";

/** Rendered bytes of an echoed value kept before it is shortened (1 KiB). */
export const MAX_ECHOED_BYTES: i32 = 1024;
/** Problems named in one message before the rest are only counted. */
export const MAX_LISTED_PROBLEMS: i32 = 100;
/** UTF-8 bytes of the listed problems of one message; with the message's own words and one
 *  shortened name this keeps message + warnings + audit annotations within 64 KiB. */
export const MAX_LISTED_BYTES: i32 = 60 * 1024;

/** UTF-8 bytes of one UTF-16 code unit at `i` of `s` (a surrogate pair counts 4 on its high half
 *  and 0 on its low half; a lone surrogate is written as U+FFFD, 3 bytes). */
// @ts-ignore: decorator
@inline
function utf8BytesAt(s: string, i: i32, n: i32): i32 {
  const c = s.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (isHighSurrogate(c)) return i + 1 < n && isLowSurrogate(s.charCodeAt(i + 1)) ? 4 : 3;
  if (isLowSurrogate(c)) return i > 0 && isHighSurrogate(s.charCodeAt(i - 1)) ? 0 : 3;
  return 3;
}

/** The end (UTF-16 index) of the longest start of `s` of at most `limit` UTF-8 bytes that does
 *  not split a surrogate pair. */
export function prefixEndWithin(s: string, limit: i32): i32 {
  const n = s.length;
  let bytes = 0;
  let i = 0;
  while (i < n) {
    const b = utf8BytesAt(s, i, n);
    const units = b == 4 ? 2 : 1;
    if (bytes + b > limit) break;
    bytes += b;
    i += units;
  }
  return i;
}

/** `<start>... (<N> more bytes)`: the form of a shortened value. `omitted` counts UTF-8 bytes of
 *  the rendered value that are not shown. */
export function shortenedForm(start: string, omitted: i32): string {
  return start + "... (" + i32ToDecimal(omitted) + " more bytes)";
}

/** `rendered` (a value as a message prints it) when it is at most MAX_ECHOED_BYTES of UTF-8, else
 *  its first MAX_ECHOED_BYTES (at a character boundary) and how many bytes were left out. */
export function shortenRendered(rendered: string): string {
  // a UTF-16 unit is at most 3 UTF-8 bytes: short strings need no counting
  if (rendered.length * 3 <= MAX_ECHOED_BYTES) return rendered;
  return shortenRenderedOfLength(rendered, utf8Length(rendered));
}

/** `shortenRendered` for a rendered text whose full UTF-8 length is already known (`totalBytes`);
 *  `rendered` may then be only a start of it, as long as it holds MAX_ECHOED_BYTES or all of it. */
export function shortenRenderedOfLength(rendered: string, totalBytes: i32): string {
  if (totalBytes <= MAX_ECHOED_BYTES) return rendered;
  const end = prefixEndWithin(rendered, MAX_ECHOED_BYTES);
  const start = rendered.substring(0, end);
  return shortenedForm(start, totalBytes - utf8Length(start));
}

/** `items` joined with `separator`, naming at most MAX_LISTED_PROBLEMS of them within
 *  MAX_LISTED_BYTES, then `<separator>and N more` for the rest. Every item of a list that fits is
 *  kept, in order. (Settings messages; field errors have their own Kubernetes aggregate form.) */
export function joinBounded(items: string[], separator: string): string {
  const kept = boundedCount(items);
  if (kept == items.length) return items.join(separator);
  return items.slice(0, kept).join(separator) + separator + "and " + i32ToDecimal(items.length - kept) + " more";
}

/** How many of `items`, from the first, fit MAX_LISTED_PROBLEMS and MAX_LISTED_BYTES (at least
 *  one, so a message never lists nothing when there is a problem). */
export function boundedCount(items: string[]): i32 {
  let bytes = 0;
  const n = min(items.length, MAX_LISTED_PROBLEMS);
  for (let i = 0; i < n; i++) {
    bytes += utf8Length(unchecked(items[i]));
    if (bytes > MAX_LISTED_BYTES && i > 0) return i;
  }
  return n;
}
