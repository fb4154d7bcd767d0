// Record probes: questions about one value of a document answered from its record and raw bytes,
// with no node (the kind of an item, whether it is a decodable string, its text, the last member of
// a key, and the per-item tests of the list searches). value.ts asks them while a value's node was
// never handed out; once it was, the node may have changed, and the node answers instead.
import { CHAR_OPEN_BRACE, CHAR_QUOTE } from "./chars";
import { decodeLiteral } from "./arena";
import { JsonDoc, kindOfLeadByte, MemberProbe } from "./document";
import { stringBodyDecodes } from "./strings";
import { rawMayStartWith, spanEqualsText } from "./literal";
import { recordSlot, slotEnd, slotStart } from "./table";
import { JsonKind } from "./types";

/** the kind of value `vi` */
export function recordKind(doc: JsonDoc, vi: i32): JsonKind {
  return kindOfLeadByte(<u32>load<u8>(doc.bytes.dataStart + <usize>doc.table.start(vi)));
}

/** whether value `vi` is a string that decodes (no lone-surrogate escape) */
export function recordIsDecodableString(doc: JsonDoc, vi: i32): bool {
  const start = doc.table.start(vi);
  const end = doc.table.end(vi);
  const data = doc.bytes.dataStart;
  return (
    end > start &&
    kindOfLeadByte(<u32>load<u8>(data + <usize>start)) == JsonKind.String &&
    stringBodyDecodes(data, start + 1, end - 1)
  );
}

/** value `vi` decoded when it is a decodable string, else null */
export function recordStringValue(doc: JsonDoc, vi: i32): string | null {
  const bytes = doc.bytes;
  const start = doc.table.start(vi);
  const end = doc.table.end(vi);
  if (end <= start || kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start)) != JsonKind.String) return null;
  return decodeLiteral(bytes, start, end);
}

/** value `vi`'s kind and span in the document's probe (read at once: the next probe overwrites
 *  it), or null when its span is not one of the bytes or its kind is not `want` (-1: any kind) */
export function probeRecord(doc: JsonDoc, vi: i32, want: i32): MemberProbe | null {
  const bytes = doc.bytes;
  const start = doc.table.start(vi);
  const end = doc.table.end(vi);
  if (start < 0 || end <= start || end > bytes.length) return null;
  const kind = kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start));
  if (want >= 0 && <i32>kind != want) return null;
  return doc.probe().found(kind, bytes, start, end);
}

/** the last member `key` of item `vi` as probeRecord reads it, or null when the item is not an
 *  object or has no such member */
export function probeItemMember(doc: JsonDoc, vi: i32, key: string, want: i32): MemberProbe | null {
  if (recordKind(doc, vi) != JsonKind.Object) return null;
  const mvi = doc.lastMember(vi, key);
  return mvi < 0 ? null : probeRecord(doc, mvi, want);
}

// what JsonValue#indexOfItem looks for
export const FIND_STARTING_WITH = 0;
export const FIND_NOT_DECODABLE_STRING = 1;
export const FIND_WITHOUT_STRING_MEMBER = 2;
export const FIND_WITH_STRING = 3;

/** Judges the item of record `vi` (its node never handed out) on its raw bytes for `find`: 1 it
 *  passes, 0 it does not, -1 the bytes cannot tell (a prefix met an escape: decode to know). */
// @ts-ignore: decorator
@inline
export function rawItemTest(
  find: i32,
  doc: JsonDoc,
  data: usize,
  slot: usize,
  vi: i32,
  key: string,
  text: string,
  wanted: Uint8Array | null,
  flag: bool,
): i32 {
  const start = slotStart(slot);
  const end = slotEnd(slot);
  if (find == FIND_STARTING_WITH) return rawMayStartWith(data, start, end, text, wanted) ? -1 : 0;
  const c = <u32>load<u8>(data + <usize>start);
  if (find == FIND_NOT_DECODABLE_STRING)
    return end <= start || c != CHAR_QUOTE || !stringBodyDecodes(data, start + 1, end - 1) ? 1 : 0;
  // the two member tests: the item is an object and its last member `key` decides
  const isObject = c == CHAR_OPEN_BRACE;
  const mvi = isObject ? doc.lastMember(vi, key) : -1;
  let m: u32 = 0;
  let ms = 0;
  let me = 0;
  if (mvi >= 0) {
    const mslot = recordSlot(changetype<usize>(doc.table.data), mvi);
    ms = slotStart(mslot);
    me = slotEnd(mslot);
    m = <u32>load<u8>(data + <usize>ms);
  }
  if (find == FIND_WITH_STRING) {
    const n = wanted !== null ? wanted.length : text.length;
    return mvi >= 0 && m == CHAR_QUOTE && spanEqualsText(data, ms, me, text, wanted, n) ? 1 : 0;
  }
  // FIND_WITHOUT_STRING_MEMBER (`flag`: the member may be absent or null)
  if (!isObject) return 1;
  if (mvi < 0) return flag ? 0 : 1;
  if (m == CHAR_QUOTE) return stringBodyDecodes(data, ms + 1, me - 1) ? 0 : 1;
  return flag && kindOfLeadByte(m) == JsonKind.Null ? 0 : 1;
}
