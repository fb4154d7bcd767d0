// The document's tables: the validator's value records over the input bytes, and the walks over
// them that answer member lookups and counts without nodes.
import { CHAR_LOWER_F, CHAR_LOWER_N, CHAR_LOWER_T, CHAR_OPEN_BRACE, CHAR_OPEN_BRACKET, CHAR_QUOTE } from "./chars";
import { Validator } from "./grammar";
import { keyBytesFor, rawKeyEquals } from "./keys";
import {
  KEY_GAP_WIDE,
  ValueTable,
  keyEndOf,
  keyGap,
  keyLength,
  keyStartOf,
  recordSlot,
  slotKeyWord,
  slotNext,
  slotStart,
} from "./table";
import { JsonKind } from "./types";
import { uninitializedBuffer } from "../util/memory";

/** Whether `parseJsonString(text, maxDepth).value` would be an object, without building the DOM. */
export function isJsonObjectText(text: string, maxDepth: i32 = 1000): bool {
  // the same bytes parseJsonString parses (String.UTF8.encode, lone surrogates as WTF-8)
  const n = <i32>String.UTF8.byteLength(text);
  const buffer = uninitializedBuffer(n);
  const base = changetype<usize>(buffer);
  String.UTF8.encodeUnsafe(changetype<usize>(text), text.length, base);
  const v = new Validator(base, n, maxDepth);
  if (!v.run()) return false;
  return v.rootStart < n && <u32>load<u8>(base + <usize>v.rootStart) == CHAR_OPEN_BRACE;
}

/** the kind of the validated value whose first byte is `c` */
export function kindOfLeadByte(c: u32): JsonKind {
  if (c == CHAR_OPEN_BRACE) return JsonKind.Object;
  if (c == CHAR_OPEN_BRACKET) return JsonKind.Array;
  if (c == CHAR_QUOTE) return JsonKind.String;
  if (c == CHAR_LOWER_T || c == CHAR_LOWER_F) return JsonKind.Bool;
  if (c == CHAR_LOWER_N) return JsonKind.Null;
  return JsonKind.Number;
}

/** What a member probe found (JsonValue.memberKind and the other allocation-free probes): the
 *  member's kind and text span. Read right after the probe; the next probe overwrites it. */
export class MemberProbe {
  kind: JsonKind = JsonKind.Null;
  /** the bytes holding the text; null only for a member without text (a bare `new JsonValue()`) */
  bytes: Uint8Array | null = null;
  /** the address of `bytes`' data (0 without bytes) */
  data: usize = 0;
  start: i32 = 0;
  end: i32 = 0;

  found(kind: JsonKind, bytes: Uint8Array | null, start: i32, end: i32): MemberProbe {
    this.kind = kind;
    this.bytes = bytes;
    this.data = bytes !== null ? bytes.dataStart : 0;
    this.start = start;
    this.end = end;
    return this;
  }
}

/**
 * One parsed document (or a clean copy of a part of it): the input bytes and the validator's value
 * records over them, with the record walks every reader shares (child counts, the last member of a
 * key, the probe answer). Nodes know their document; the document knows no node (nodes.ts keeps
 * the ones handed out).
 */
export class JsonDoc {
  /** the answer of the last member probe on a container of this document (created on first use) */
  private lastProbe: MemberProbe | null = null;
  /** the last key `lastMember` looked for and its UTF-8 (null: ASCII): a walk over 50,000 items
   *  looks for the same key in each */
  private lastKey: string | null = null;
  private lastKeyBytes: Uint8Array | null = null;
  /** the object and the answer of the last `lastMember`: policies read the same member of the
   *  same object several times in a row (`has` then `get`); kept here, not in every node, so a
   *  node stays 80 bytes on the heap (issue 8: bytes per node are pages per evaluation) */
  private lastObject: i32 = -1;
  private lastFound: i32 = -1;
  constructor(
    public table: ValueTable,
    public bytes: Uint8Array,
  ) {}

  /** this document's probe answer, to be filled by a member probe */
  probe(): MemberProbe {
    let p = this.lastProbe;
    if (p === null) {
      p = new MemberProbe();
      this.lastProbe = p;
    }
    return p;
  }

  /** the number of direct children of container `vi` */
  childCount(vi: i32): i32 {
    const table = this.table;
    const limit = table.next(vi);
    let count = 0;
    let i = vi + 1;
    while (i < limit) {
      count++;
      const next = table.next(i);
      if (next <= i) break;
      i = next;
    }
    return count;
  }

  /** the value index of the last direct member of object `vi` whose decoded key is `key`, or -1 */
  lastMember(vi: i32, key: string): i32 {
    const table = this.table;
    const bytes = this.bytes;
    let wanted = this.lastKeyBytes;
    if (changetype<usize>(key) != changetype<usize>(this.lastKey)) {
      wanted = keyBytesFor(key);
      this.lastKey = key;
      this.lastKeyBytes = wanted;
    } else if (vi == this.lastObject) return this.lastFound;
    this.lastObject = vi;
    const len = wanted !== null ? wanted.length : key.length;
    // every index below `limit` is a record (limit <= count), read without per-field checks
    const limit = min(table.next(vi), table.count);
    const data = changetype<usize>(table.data);
    const base = bytes.dataStart;
    // the key's first byte, compared inline before the full comparison (-1: the empty key)
    const first: i32 =
      len == 0 ? -1 : wanted !== null ? <i32>unchecked(wanted[0]) : <i32>load<u16>(changetype<usize>(key));
    let found = -1;
    let i = vi + 1;
    while (i < limit) {
      const slot = recordSlot(data, i);
      const w = slotKeyWord(slot);
      const start = slotStart(slot);
      if (w < 0) {
        // an escaped key (KEY_ESCAPED is the sign bit) is decoded to compare
        if (rawKeyEquals(bytes, keyStartOf(table, i, w, start), keyEndOf(table, i, w, start), true, key, wanted))
          found = i;
      } else if (keyLength(w) == len || keyGap(w) == KEY_GAP_WIDE) {
        // an unescaped raw key of another length or first byte cannot match: most members end here
        const ks = keyStartOf(table, i, w, start);
        const ke = keyEndOf(table, i, w, start);
        if (
          ke - ks == len &&
          (first < 0 || <i32>load<u8>(base + <usize>ks) == first) &&
          rawKeyEquals(bytes, ks, ke, false, key, wanted)
        )
          found = i;
      }
      const next = slotNext(slot);
      if (next <= i) break;
      i = next;
    }
    this.lastFound = found;
    return found;
  }
}
