// Parsing into a document: the validator's parse table over the input bytes, and the node handed
// out for each value so far. The records answer member lookups and counts without nodes.
import { CHAR_LOWER_F, CHAR_LOWER_N, CHAR_LOWER_T, CHAR_OPEN_BRACE, CHAR_OPEN_BRACKET, CHAR_QUOTE } from "./chars";
import { Validator } from "./grammar";
import { keyBytesFor, rawKeyEquals } from "./keys";
import {
  KEY_GAP_WIDE,
  ValueTable,
  keyEndOf,
  keyEndOffset,
  keyGap,
  keyLength,
  keyStartOf,
  recordSlot,
  slotKeyWord,
  slotNext,
  slotStart,
  KEY_ESCAPED,
} from "./table";
import { JsonKind } from "./types";
import { JsonValue } from "./value";
import { uninitializedBuffer } from "../util/memory";

/** The result of parsing: `value` is non-null iff `ok`; `error` names the problem and byte offset. */
export class ParseResult {
  constructor(
    public value: JsonValue | null,
    public error: string,
    public offset: i32,
  ) {}
  get ok(): bool {
    return this.value !== null;
  }
}

/** Strict RFC 8259 parse of UTF-8 bytes; iterative, depth-limited (default 1,000).
 *  The DOM refers to `bytes` instead of copying them: do not modify them while it is in use. */
export function parseJson(bytes: Uint8Array, maxDepth: i32 = 1000): ParseResult {
  const n = bytes.length;
  const v = new Validator(bytes.dataStart, n, maxDepth);
  if (!v.run()) return new ParseResult(null, v.message, v.offset);
  const kind = kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>v.rootStart));
  const root = JsonValue._span(kind, bytes, new JsonDoc(v.table, bytes), 0, v.rootStart, v.rootEnd);
  // the root alone re-emits the whole input, surrounding whitespace included
  root._wholeInput = true;
  return new ParseResult(root, "", 0);
}

/** Convenience: parse the UTF-8 encoding of `text`. */
export function parseJsonString(text: string, maxDepth: i32 = 1000): ParseResult {
  return parseJson(Uint8Array.wrap(String.UTF8.encode(text)), maxDepth);
}

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

/** whether a node was handed out for value `i` of `doc` (`doc.existing(i) !== null`), inlined
 *  into the record walks, which ask it once per item */
// @ts-ignore: decorator
@inline
export function handedOut(doc: JsonDoc, i: i32): bool {
  return doc.nodes !== null && doc.existing(i) !== null;
}

/** value indices per page of the node table: a table of all of them, zeroed on the first node of
 *  a 1.5 MB document, cost as much as the rules that read a few dozen values; pages of 64 (256
 *  bytes), not 256: a 1 KB page for every small host answer was one 4 KiB page more per evaluation */
export const NODE_PAGE_BITS: i32 = 6;
export const NODE_PAGE_MASK: i32 = (1 << NODE_PAGE_BITS) - 1;

/**
 * One parsed document (or a clean copy of a part of it): the validator's value records, and the
 * node handed out for each value index so far. A container whose child list is not built answers
 * get/has/at/keyAt/size from the records and creates only the node it returns; this table keeps
 * that node unique (the same member gives the same live node), and the child list, built on the
 * first mutation or full iteration, reuses it.
 */
export class JsonDoc {
  /** the handed-out nodes by value index, in pages of 256 made on first use */
  nodes: StaticArray<StaticArray<JsonValue | null> | null> | null = null;
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

  /** the node already handed out for value `i`, or null */
  existing(i: i32): JsonValue | null {
    const pages = this.nodes;
    if (pages === null || (<u32>i) >>> NODE_PAGE_BITS >= <u32>pages.length) return null;
    const page = unchecked(pages[i >>> NODE_PAGE_BITS]);
    return page !== null ? unchecked(page[i & NODE_PAGE_MASK]) : null;
  }

  /** the node of value `i`, a direct child of `parent` (created on first request) */
  node(i: i32, parent: JsonValue): JsonValue {
    const table = this.table;
    let pages = this.nodes;
    if (pages === null) {
      pages = new StaticArray<StaticArray<JsonValue | null> | null>((table.count + NODE_PAGE_MASK) >>> NODE_PAGE_BITS);
      this.nodes = pages;
    }
    let page: StaticArray<JsonValue | null> | null = null;
    if ((<u32>i) >>> NODE_PAGE_BITS < <u32>pages.length) {
      page = unchecked(pages[i >>> NODE_PAGE_BITS]);
      if (page === null) {
        page = new StaticArray<JsonValue | null>(NODE_PAGE_MASK + 1);
        unchecked((pages[i >>> NODE_PAGE_BITS] = page));
      }
      const have = unchecked(page[i & NODE_PAGE_MASK]);
      if (have !== null) return have;
    }
    const bytes = this.bytes;
    const start = table.start(i);
    const end = table.end(i);
    // cannot happen for a child index of a validated document; yields a null node instead of a trap
    if (start < 0 || end < start || end > bytes.length) return JsonValue.nul();
    const v = JsonValue._span(
      kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start)),
      bytes,
      this,
      i,
      start,
      end,
    );
    v._parent = parent;
    if (parent._kind == JsonKind.Object) {
      const ke = table.keyEnd(i);
      v._keyBytes = bytes;
      v._keyStart = table.keyStart(i);
      v._keyEnd = keyEndOffset(ke);
      v._keyEscaped = (ke & KEY_ESCAPED) != 0;
    }
    if (page !== null) unchecked((page[i & NODE_PAGE_MASK] = v));
    return v;
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
