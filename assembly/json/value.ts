// The DOM node. Every scalar is a span of UTF-8 bytes (source text, or bytes encoded when the
// value was constructed), so readers and the writer have one code path. Containers keep their
// source span and create child nodes lazily from the document's value records (document.ts); a
// container is re-emitted only when it is dirty (a child was added, replaced or removed below it).
// What a node asks of others, each in a file of its own below it: the document's tables and record
// walks (document.ts), the nodes handed out per document (nodes.ts), record probes that answer
// without a node (probes.ts), raw string-literal matching (literal.ts), integer text (numbers.ts),
// and writing (writer.ts). One class holds the node's whole API: AssemblyScript has no partial
// classes (docs/decisions.md#files-over-600-lines).

import { i64ToDecimal, u64ToDecimal } from "../util/decimal";
import { decodeLiteral, jsonStringBytes } from "./arena";
import { CHAR_LOWER_T } from "./chars";
import { kindOfLeadByte, MemberProbe } from "./document";
import { scanNumber, Validator } from "./grammar";
import { containsBackslash, decodeStringBody, stringBodyDecodes } from "./strings";
import { keyBytesFor, rawKeyEquals, utf8Bytes } from "./keys";
import { headOf, rawMayStartWithAny, spanStartsWith, spanStringEquals } from "./literal";
import { handedOut, NODE_PAGE_BITS, NODE_PAGE_MASK, NodeDoc } from "./nodes";
import { i64OfSpan, readIntText } from "./numbers";
import {
  FIND_NOT_DECODABLE_STRING,
  FIND_STARTING_WITH,
  FIND_WITH_STRING,
  FIND_WITHOUT_STRING_MEMBER,
  probeItemMember,
  probeRecord,
  rawItemTest,
  recordIsDecodableString,
  recordKind,
  recordStringValue,
} from "./probes";
import { ByteSink } from "./sink";
import { KEY_ESCAPED, keyEndOffset, recordSlot, slotEnd, slotNext, slotStart } from "./table";
import { JsonKind, Read, ReadState } from "./types";
import { writeValue } from "./writer";

function scalarOf(kind: JsonKind, bytes: Uint8Array): JsonValue {
  return JsonValue._span(kind, bytes, null, -1, 0, bytes.length);
}

/** the root node of the document a successful validator pass `v` read from `bytes`; the root
 *  alone re-emits the whole input, surrounding whitespace included */
export function rootNode(v: Validator, bytes: Uint8Array): JsonValue {
  const kind = kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>v.rootStart));
  const root = JsonValue._span(kind, bytes, new NodeDoc<JsonValue>(v.table, bytes), 0, v.rootStart, v.rootEnd);
  root._wholeInput = true;
  return root;
}

/** strict parse of `bytes` into a root node, or null when they are not valid JSON */
function parseNode(bytes: Uint8Array, maxDepth: i32): JsonValue | null {
  const v = new Validator(bytes.dataStart, bytes.length, maxDepth);
  return v.run() ? rootNode(v, bytes) : null;
}

/** the node of value `i` of `doc`, a direct child of `parent` (created on first request, then the
 *  same node: nodes.ts) */
function nodeOf(doc: NodeDoc<JsonValue>, i: i32, parent: JsonValue): JsonValue {
  const page = doc.pageFor(i);
  if (page !== null) {
    const have = unchecked(page[i & NODE_PAGE_MASK]);
    if (have !== null) return have;
  }
  const table = doc.table;
  const bytes = doc.bytes;
  const start = table.start(i);
  const end = table.end(i);
  // cannot happen for a child index of a validated document; yields a null node instead of a trap
  if (start < 0 || end < start || end > bytes.length) return JsonValue.nul();
  const v = JsonValue._span(kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start)), bytes, doc, i, start, end);
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

function invalid<T>(value: T, error: string): Read<T> {
  return new Read<T>(ReadState.Invalid, value, error);
}

/** One node of the DOM. Nodes obtained from `get`/`at` are live: mutating one marks every
 *  ancestor dirty, so serialization re-emits exactly the containers on the path to the change.
 *  A node inserted with `set`/`push`/`insert`/`replace` is adopted when it has no parent;
 *  a node that already belongs to a container (or would create a cycle) is inserted as a copy. */
export class JsonValue {
  _kind: JsonKind = JsonKind.Null;
  /** bytes holding this value's text; null only for containers built with object()/array() */
  _bytes: Uint8Array | null = null;
  /** the parsed document and this value's index in its records (null, -1 for new values) */
  _doc: NodeDoc<JsonValue> | null = null;
  _vi: i32 = -1;
  _start: i32 = 0;
  _end: i32 = 0;
  // the four flags sit together (one word): a node is 96 bytes on the heap instead of 112, and
  // fewer bytes per node are fewer pages written on a fresh instance
  _dirty: bool = false;
  /** a parsed root: a clean one re-emits the whole input, surrounding whitespace included */
  _wholeInput: bool = false;
  _keyEscaped: bool = false;
  /** a container whose records are still read directly and whose `_items` hold only what was
   *  added after them (pushed items, members of new keys): appending to a parsed list of 50,000
   *  items, or a key to an object of 130,000, creates no node for those already there */
  _itemsAreTail: bool = false;
  _parent: JsonValue | null = null;
  /** materialised direct children (containers only) */
  _items: Array<JsonValue> | null = null;
  /** raw key (between the quotes) when this node is an object member */
  _keyBytes: Uint8Array | null = null;
  _keyStart: i32 = 0;
  _keyEnd: i32 = 0;
  /** while the child list is not built: the last child position looked up by index, and its value
   *  index (sequential at()/keyAt() walks the records in O(1) per step); the child count or -1 */
  _curPos: i32 = -1;
  _curVi: i32 = -1;
  _count: i32 = -1;

  /** a node over bytes[start, end) */
  static _span(
    kind: JsonKind,
    bytes: Uint8Array,
    doc: NodeDoc<JsonValue> | null,
    vi: i32,
    start: i32,
    end: i32,
  ): JsonValue {
    const v = new JsonValue();
    v._kind = kind;
    v._bytes = bytes;
    v._doc = doc;
    v._vi = vi;
    v._start = start;
    v._end = end;
    return v;
  }

  /** what a clean node re-emits: its span, or the whole input for a parsed root */
  @inline get _outerStart(): i32 {
    return this._wholeInput ? 0 : this._start;
  }


  @inline get _outerEnd(): i32 {
    const bytes = this._bytes;
    return this._wholeInput && bytes !== null ? bytes.length : this._end;
  }
  /** the length of this node's source text (for a parsed root the whole input, whitespace
   *  included), or -1 without one (a container built with object()/array()); edits made since are
   *  not counted: a size hint for output buffers */
  sourceLength(): i32 {
    return this._bytes !== null ? this._outerEnd - this._outerStart : -1;
  }

  // ---- constructors for new values ----
  static str(text: string): JsonValue {
    return scalarOf(JsonKind.String, jsonStringBytes(text));
  }
  static bool(value: bool): JsonValue {
    return scalarOf(JsonKind.Bool, utf8Bytes(value ? "true" : "false"));
  }
  static nul(): JsonValue {
    return scalarOf(JsonKind.Null, utf8Bytes("null"));
  }
  static int(value: i64): JsonValue {
    return scalarOf(JsonKind.Number, utf8Bytes(i64ToDecimal(value)));
  }
  /** a number from an unsigned integer, as minimal decimal text */
  static uint(value: u64): JsonValue {
    return scalarOf(JsonKind.Number, utf8Bytes(u64ToDecimal(value)));
  }
  /** a number from a finite f64 (shortest round-trip text); null for NaN and ±Infinity */
  static float(value: f64): JsonValue | null {
    if (!isFinite(value)) return null;
    return JsonValue.rawNumber(value.toString());
  }
  /** a number from validated JSON number text; null when `text` is not RFC 8259 number grammar */
  static rawNumber(text: string): JsonValue | null {
    const bytes = utf8Bytes(text);
    if (scanNumber(bytes.dataStart, 0, bytes.length) != bytes.length) return null;
    return scalarOf(JsonKind.Number, bytes);
  }
  static object(): JsonValue {
    return JsonValue.emptyContainer(JsonKind.Object);
  }
  static array(): JsonValue {
    return JsonValue.emptyContainer(JsonKind.Array);
  }
  /** a container over `bytes`, JSON text this program wrote (valid, one array or object, no
   *  surrounding whitespace): written back as it is, parsed only when something reads into it (a
   *  list of 150,000 pull secrets is appended and never read) */
  static unread(kind: JsonKind, bytes: Uint8Array): JsonValue {
    return JsonValue._span(kind, bytes, null, -1, 0, bytes.length);
  }
  /** parses JSON text for embedding (strict, default depth limit); null when invalid */
  static parse(bytes: Uint8Array, maxDepth: i32 = 1000): JsonValue | null {
    return parseNode(bytes, maxDepth);
  }

  private static emptyContainer(kind: JsonKind): JsonValue {
    const v = new JsonValue();
    v._kind = kind;
    v._items = new Array<JsonValue>();
    v._dirty = true;
    return v;
  }

  // ---- kind ----
  get kind(): JsonKind {
    return this._kind;
  }
  isNull(): bool {
    return this._kind == JsonKind.Null;
  }
  isBool(): bool {
    return this._kind == JsonKind.Bool;
  }
  isNumber(): bool {
    return this._kind == JsonKind.Number;
  }
  isString(): bool {
    return this._kind == JsonKind.String;
  }
  isArray(): bool {
    return this._kind == JsonKind.Array;
  }
  isObject(): bool {
    return this._kind == JsonKind.Object;
  }
  /** "null" | "boolean" | "number" | "string" | "array" | "object", for messages */
  kindName(): string {
    switch (this._kind) {
      case JsonKind.Bool:
        return "boolean";
      case JsonKind.Number:
        return "number";
      case JsonKind.String:
        return "string";
      case JsonKind.Array:
        return "array";
      case JsonKind.Object:
        return "object";
      default:
        return "null";
    }
  }
  /** whether serialization will re-emit this node instead of copying its source text */
  get dirty(): bool {
    return this._dirty || this._bytes === null;
  }

  // ---- typed readers of this value (state Ok or Invalid, never a silent default) ----
  /** full unescape; a lone-surrogate escape is Invalid */
  asString(): Read<string> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.String || bytes === null)
      return invalid<string>("", "expected a string, found " + this.kindName());
    const s = decodeStringBody(bytes.dataStart, this._start + 1, this._end - 1, true);
    if (s === null) return invalid<string>("", "string contains a lone surrogate escape");
    return new Read<string>(ReadState.Ok, s);
  }
  /** whether asString() would succeed (a string without lone-surrogate escapes), without
   *  decoding it */
  isDecodableString(): bool {
    const bytes = this._bytes;
    if (this._kind != JsonKind.String || bytes === null) return false;
    return stringBodyDecodes(bytes.dataStart, this._start + 1, this._end - 1);
  }
  asBool(): Read<bool> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Bool || bytes === null)
      return invalid<bool>(false, "expected a boolean, found " + this.kindName());
    return new Read<bool>(ReadState.Ok, <u32>load<u8>(bytes.dataStart + <usize>this._start) == CHAR_LOWER_T);
  }
  /** integer grammar only (no fraction/exponent), overflow is Invalid */
  asI64(): Read<i64> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Number || bytes === null)
      return invalid<i64>(0, "expected an integer, found " + this.kindName());
    const v = i64OfSpan(bytes.dataStart, this._start, this._end);
    if (v !== null) return v;
    const grammar = readIntText(bytes.dataStart, this._start, this._end).ok;
    return invalid<i64>(0, (grammar ? "integer out of i64 range: " : "not an integer in range: ") + this.numberText());
  }
  asU64(): Read<u64> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Number || bytes === null)
      return invalid<u64>(0, "expected an integer, found " + this.kindName());
    const r = readIntText(bytes.dataStart, this._start, this._end);
    if (!r.ok || (r.negative && r.magnitude != 0))
      return invalid<u64>(0, "not an integer in u64 range: " + this.numberText());
    return new Read<u64>(ReadState.Ok, r.magnitude);
  }
  /** any number; non-finite results are Invalid */
  asF64(): Read<f64> {
    if (this._kind != JsonKind.Number || this._bytes === null)
      return invalid<f64>(0, "expected a number, found " + this.kindName());
    const v = parseFloat(this.numberText());
    if (!isFinite(v)) return invalid<f64>(0, "number out of f64 range: " + this.numberText());
    return new Read<f64>(ReadState.Ok, v);
  }
  /** the exact number text as written ("" when not a number) */
  numberText(): string {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Number || bytes === null) return "";
    return String.UTF8.decodeUnsafe(bytes.dataStart + <usize>this._start, <usize>(this._end - this._start));
  }
  /** this value serialized: the exact source bytes when clean, compact re-emission when dirty */
  rawText(): string {
    return this.toString();
  }

  // ---- object access (on a non-object: get → null, has → false, set/remove → false) ----
  /** the value of the LAST member with this decoded key, or null */
  get(key: string): JsonValue | null {
    if (this._kind != JsonKind.Object) return null;
    const doc = this._doc;
    if (doc !== null && this.readsRecords()) {
      const t = this.tailIndexOfKey(key);
      const tail = this._items;
      if (t >= 0 && tail !== null) return unchecked(tail[t]);
      const vi = this.lastRecordOfKey(doc, key);
      return vi < 0 ? null : nodeOf(doc, vi, this);
    }
    const i = this.lastIndexOfKey(key);
    return i < 0 ? null : unchecked(this._children()[i]);
  }
  /** the value of the LAST member with this key when it is present and not JSON null, else null
   *  (the Kubernetes "set" test: an absent member and `null` both read as unset) */
  getPresent(key: string): JsonValue | null {
    const v = this.get(key);
    return v === null || v._kind == JsonKind.Null ? null : v;
  }
  has(key: string): bool {
    if (this._kind != JsonKind.Object) return false;
    const doc = this._doc;
    if (doc !== null && this.readsRecords())
      return this.tailIndexOfKey(key) >= 0 || this.lastRecordOfKey(doc, key) >= 0;
    return this.lastIndexOfKey(key) >= 0;
  }
  /** replace the last occurrence in place (keeping its position), else append; false on non-objects */
  set(key: string, value: JsonValue): bool {
    if (this._kind != JsonKind.Object) return false;
    const doc = this._doc;
    if (doc !== null && this.readsRecords() && this.tailIndexOfKey(key) < 0 && this.lastRecordOfKey(doc, key) < 0) {
      // a new key goes to the tail written after the records: adding one annotation to a pod
      // with 130,000 of them creates no node for the others
      const v = this.adopt(value);
      v.setKey(key);
      this.pushTail(v);
      this._markDirty();
      return true;
    }
    const items = this._children();
    const i = this.lastIndexOfKey(key);
    const v = this.adopt(value);
    if (i >= 0) {
      const old = unchecked(items[i]);
      v.takeKeyFrom(old);
      old._parent = null;
      unchecked((items[i] = v));
    } else {
      v.setKey(key);
      items.push(v);
    }
    this._markDirty();
    return true;
  }
  /** remove every member with this key; true when something was removed */
  remove(key: string): bool {
    if (this._kind != JsonKind.Object) return false;
    const doc = this._doc;
    // nothing to remove: the member list is not built for nothing
    if (doc !== null && this.readsRecords() && this.tailIndexOfKey(key) < 0 && this.lastRecordOfKey(doc, key) < 0)
      return false;
    const items = this._children();
    const wanted = keyBytesFor(key);
    let kept = 0;
    const n = items.length;
    for (let i = 0; i < n; i++) {
      const item = unchecked(items[i]);
      if (item._keyEquals(key, wanted)) {
        item._parent = null;
        continue;
      }
      unchecked((items[kept++] = item));
    }
    if (kept == n) return false;
    items.length = kept;
    this._markDirty();
    return true;
  }
  /** decoded key of the i-th member ("" when out of range or not an object) */
  keyAt(i: i32): string {
    if (this._kind != JsonKind.Object) return "";
    const doc = this._doc;
    if (doc !== null && this.readsRecords()) {
      const vi = this.recordAt(doc, i);
      if (vi < 0) {
        const t = this.tailItem(doc, i);
        return t !== null ? t._decodedKey() : "";
      }
      const s = decodeStringBody(
        doc.bytes.dataStart,
        doc.table.keyStart(vi),
        keyEndOffset(doc.table.keyEnd(vi)),
        false,
      );
      return s !== null ? s : "";
    }
    const items = this._children();
    if (i < 0 || i >= items.length) return "";
    return unchecked(items[i])._decodedKey();
  }

  // ---- allocation-free member probes (no node, no Read; for values that are only tested) ----
  /** the kind of member `key` (its last occurrence), or -1 when missing or this is not an object */
  memberKind(key: string): i32 {
    const p = this.locateMember(key, -1);
    return p !== null ? <i32>p.kind : -1;
  }
  /** whether member `key` is a string that asString() would decode (what `get(key)` then
   *  `isDecodableString()` answers), without creating its node */
  memberIsDecodableString(key: string): bool {
    const p = this.locateMember(key, JsonKind.String);
    if (p === null) return false;
    return stringBodyDecodes(p.data, p.start + 1, p.end - 1);
  }
  /** the decoded string of member `key`, or null when it is missing, not a string or not decodable
   *  (exactly when `get(key)` then `asString()` is not Ok), without a node or a Read */
  stringOrNull(key: string): string | null {
    const p = this.locateMember(key, JsonKind.String);
    if (p === null) return null;
    const owner = p.bytes;
    if (owner === null) return null; // cannot happen: every string has its text
    return decodeLiteral(owner, p.start, p.end);
  }
  /** whether member `key` is a string whose decoded value is `text` (readString(key) Ok and equal),
   *  compared on the raw bytes when the value has no escapes */
  stringEquals(key: string, text: string): bool {
    const p = this.locateMember(key, JsonKind.String);
    if (p === null) return false;
    return spanStringEquals(p.data, p.start, p.end, text);
  }
  /** `test` on the raw UTF-8 body [s, e) at `data` of string member `key` when it has no escapes
   *  (its bytes are then its text): 1 or 0; -1 when the member is missing or not a string (or this
   *  is not an object), -2 when it has escapes (decode it to test it). `itemMemberRawTest` for an
   *  object's own member: a long string is tested without decoding it. */
  memberRawTest(key: string, test: (data: usize, s: i32, e: i32) => bool): i32 {
    const p = this.locateMember(key, JsonKind.String);
    if (p === null || p.data == 0) return -1;
    const s = p.start + 1;
    const e = p.end - 1;
    if (containsBackslash(p.data, s, e)) return -2;
    return test(p.data, s, e) ? 1 : 0;
  }
  /** member `key` as `get(key)` then `asI64()` reads it when that is Ok, else null (missing, not
   *  a number, not an integer in i64 range), without creating its node */
  memberI64(key: string): Read<i64> | null {
    const p = this.locateMember(key, JsonKind.Number);
    if (p === null || p.data == 0) return null;
    return i64OfSpan(p.data, p.start, p.end);
  }
  /** whether member `key` is the boolean `value` (get(key) then asBool() Ok with that value) */
  memberIsBool(key: string, value: bool): bool {
    const p = this.locateMember(key, JsonKind.Bool);
    if (p === null || p.data == 0) return false;
    return (<u32>load<u8>(p.data + <usize>p.start) == CHAR_LOWER_T) == value;
  }
  /** this string value decoded, or null when it is not a decodable string (asString() not Ok) */
  stringValue(): string | null {
    const bytes = this._bytes;
    if (this._kind != JsonKind.String || bytes === null) return null;
    return decodeLiteral(bytes, this._start, this._end);
  }

  // ---- allocation-free probes of an array's items (no node per item: a scan over a list of
  // 50,000 objects would otherwise create 50,000 nodes to read one member of each) ----
  /** the kind of item `i` of this array, or -1 when out of range or this is not an array */
  itemKind(i: i32): i32 {
    if (this._kind != JsonKind.Array) return -1;
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi >= 0 && doc !== null) return <i32>recordKind(doc, vi);
    const item = this.at(i);
    return item !== null ? <i32>item._kind : -1;
  }
  /** what `at(i)` then `isDecodableString()` answers (for an object: its i-th member value) */
  itemIsDecodableString(i: i32): bool {
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi >= 0 && doc !== null) return recordIsDecodableString(doc, vi);
    const item = this.at(i);
    return item !== null && item.isDecodableString();
  }
  /** the record of item `i` when it is read on its raw bytes (this container reads the records and
   *  the item's node was never handed out: it may have changed since), else -1 */
  private rawItemRecord(i: i32): i32 {
    const doc = this._doc;
    if (!this.isContainer() || doc === null || !this.readsRecords()) return -1;
    const vi = this.recordAt(doc, i);
    return vi >= 0 && doc.existing(vi) === null ? vi : -1;
  }
  /** for reading item (or member) `i` in place: its value's text is [out[0], out[1]) and a
   *  member's raw key, between its quotes, [out[2], out[3] & ~KEY_ESCAPED) (out[3] negative when the key
   *  has escapes) of the bytes at the address returned; 0 when the records do not answer for it (its
   *  node was handed out, or it was added: read it with at/keyAt). In order, a step costs O(1). */
  rawSpansAt(i: i32, out: StaticArray<i32>): usize {
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi < 0 || doc === null) return 0;
    const table = doc.table;
    unchecked((out[0] = table.start(vi)));
    unchecked((out[1] = table.end(vi)));
    unchecked((out[2] = table.keyStart(vi)));
    unchecked((out[3] = table.keyEnd(vi)));
    return doc.bytes.dataStart;
  }
  /** what `at(i)` then `stringValue()` answers (for an object: its i-th member value) */
  itemStringValue(i: i32): string | null {
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi >= 0 && doc !== null) return recordStringValue(doc, vi);
    const item = this.at(i);
    return item !== null ? item.stringValue() : null;
  }
  /** whether item `i` is a decodable string that starts with `prefix` (`whole`: that is `prefix`),
   *  compared on the raw bytes when it has no escapes: a flag is looked for in 50,000 args without
   *  decoding them */
  itemStringStartsWith(i: i32, prefix: string, whole: bool = false): bool {
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi >= 0 && doc !== null)
      return spanStartsWith(doc.bytes, doc.table.start(vi), doc.table.end(vi), prefix, whole);
    const item = this.at(i);
    return (
      item !== null &&
      item._kind == JsonKind.String &&
      spanStartsWith(item._bytes, item._start, item._end, prefix, whole)
    );
  }
  /** whether `itemStringStartsWith(i, p)` holds for one of `prefixes` */
  itemStringStartsWithAny(i: i32, prefixes: string[]): bool {
    for (let k = 0; k < prefixes.length; k++) if (this.itemStringStartsWith(i, unchecked(prefixes[k]))) return true;
    return false;
  }
  /** the first index >= `from` whose item `itemStringStartsWith(i, prefix)` holds, or -1: one walk
   *  over the records that turns most items away on their first raw bytes (CacheBlend looks for
   *  each of its seven flags in the args; 50,000 args were read through a lookup each) */
  indexOfItemStartingWith(prefix: string, from: i32 = 0): i32 {
    return this.indexOfItem(FIND_STARTING_WITH, "", prefix, false, from);
  }
  /** indexOfItemStartingWith for several prefixes at once (HiCache looks for ten flags in the
   *  args): each item's first 8 raw bytes are compared with those of every prefix, a word each. A
   *  walk of its own, so a policy that looks for one prefix at a time does not link it. */
  indexOfItemStartingWithAny(prefixes: string[], from: i32 = 0): i32 {
    let pos = max(from, 0);
    const doc = this._doc;
    if (this._kind == JsonKind.Array && doc !== null && this.readsRecords()) {
      const records = changetype<usize>(doc.table.data);
      const data = doc.bytes.dataStart;
      const m = prefixes.length;
      const mask = new StaticArray<u64>(m);
      const head = new StaticArray<u64>(m);
      for (let k = 0; k < m; k++) headOf(unchecked(prefixes[k]), mask, head, k);
      const limit = min(doc.table.next(this._vi), doc.table.count);
      // past the records (a search that goes on after pushed items) there is no walk
      let vi = pos < this.recordCount(doc) ? this.recordAt(doc, pos) : -1;
      while (vi >= 0 && vi < limit) {
        const slot = recordSlot(records, vi);
        if (handedOut(doc, vi) || rawMayStartWithAny(data, slotStart(slot), slotEnd(slot), mask, head)) {
          // the cursor is here, so the probe finds the item without a walk
          this._curPos = pos;
          this._curVi = vi;
          if (this.itemStringStartsWithAny(pos, prefixes)) return pos;
        }
        const next = slotNext(slot);
        if (next <= vi) break;
        this._curPos = pos;
        this._curVi = vi;
        vi = next;
        pos++;
      }
      if (vi < 0) pos = max(pos, this.recordCount(doc));
    }
    // the pushed tail, or a list not read from the records
    const size = this.size();
    for (; pos < size; pos++) if (this.itemStringStartsWithAny(pos, prefixes)) return pos;
    return -1;
  }
  /** the first index whose item `itemIsDecodableString(i)` does not hold, or -1: one walk over the
   *  records (the args are checked once per flag edit) */
  indexOfItemNotDecodableString(): i32 {
    return this.indexOfItem(FIND_NOT_DECODABLE_STRING, "", "", false, 0);
  }
  /** the first index >= `from` whose item is not an object with a decodable string as its member
   *  `key` (`optional`: or without it, or with null), or -1: what `itemKind`, `itemMemberKind` and
   *  `itemMemberIsDecodableString` answer, in one walk over the records (a pod's env, volumes and
   *  containers are checked item by item) */
  indexOfItemWithoutStringMember(key: string, optional: bool = false, from: i32 = 0): i32 {
    return this.indexOfItem(FIND_WITHOUT_STRING_MEMBER, key, "", optional, from);
  }
  /** the first index >= `from` whose item is an object whose member `key` is the string `text`
   *  (what `itemStringEquals(i, key, text)` answers), or -1 */
  indexOfItemWithString(key: string, text: string, from: i32 = 0): i32 {
    return this.indexOfItem(FIND_WITH_STRING, key, text, false, from);
  }

  /** The one walk behind the `indexOfItem…` searches: the first index >= `from` whose item passes
   *  `find` (a FIND_ constant), or -1. An array read from the records is walked record by record
   *  and each item is judged on its raw bytes (`rawItemTest`); an item whose node was handed out
   *  (it may have changed since), an item the bytes cannot settle, the pushed tail and a list not
   *  read from the records are judged through the per-item probes (`itemPasses`). */
  private indexOfItem(find: i32, key: string, text: string, flag: bool, from: i32): i32 {
    let pos = max(from, 0);
    const doc = this._doc;
    if (this._kind == JsonKind.Array && doc !== null && this.readsRecords()) {
      const table = doc.table;
      const data = doc.bytes.dataStart;
      const records = changetype<usize>(table.data);
      // the text's bytes once for the walk, not once per item
      const wanted = find == FIND_STARTING_WITH || find == FIND_WITH_STRING ? keyBytesFor(text) : null;
      // every index below `limit` is a record, read without per-field checks
      const limit = min(table.next(this._vi), table.count);
      // past the records (a search that goes on after pushed items) there is no walk
      let vi = pos < this.recordCount(doc) ? this.recordAt(doc, pos) : -1;
      // the handed-out nodes' pages (`handedOut` without a call per item), read again after a probe
      let pages = doc.nodes;
      let cursor = -1;
      while (vi >= 0 && vi < limit) {
        const slot = recordSlot(records, vi);
        const page =
          pages !== null && (<u32>vi) >>> NODE_PAGE_BITS < <u32>pages.length
            ? unchecked(pages[vi >>> NODE_PAGE_BITS])
            : null;
        const r =
          page !== null && unchecked(page[vi & NODE_PAGE_MASK]) !== null
            ? -1
            : rawItemTest(find, doc, data, slot, vi, key, text, wanted, flag);
        if (r != 0) {
          // the cursor is here, so the probes find the item without a walk
          this._curPos = pos;
          this._curVi = vi;
          if (r > 0 || this.itemPasses(find, pos, key, text, flag)) return pos;
          pages = doc.nodes;
        }
        const next = slotNext(slot);
        if (next <= vi) break;
        cursor = vi;
        vi = next;
        pos++;
      }
      // the cursor follows, so the tail below is reached without another walk
      if (cursor >= 0) {
        this._curPos = pos - 1;
        this._curVi = cursor;
      }
      if (vi < 0) pos = max(pos, this.recordCount(doc));
    }
    // the pushed tail, or a list not read from the records
    const size = this.size();
    for (; pos < size; pos++) if (this.itemPasses(find, pos, key, text, flag)) return pos;
    return -1;
  }
  /** whether item `i` passes `find`, through the per-item probes */
  private itemPasses(find: i32, i: i32, key: string, text: string, flag: bool): bool {
    if (find == FIND_STARTING_WITH) return this.itemStringStartsWith(i, text);
    if (find == FIND_NOT_DECODABLE_STRING) return !this.itemIsDecodableString(i);
    if (find == FIND_WITHOUT_STRING_MEMBER) return !this.itemHasStringMember(i, key, flag);
    return this.itemStringEquals(i, key, text);
  }
  /** item `i` is an object whose member `key` is a decodable string (`optional`: or is absent or null) */
  private itemHasStringMember(i: i32, key: string, optional: bool): bool {
    if (this.itemKind(i) != <i32>JsonKind.Object) return false;
    const kind = this.itemMemberKind(i, key);
    if (kind < 0 || kind == JsonKind.Null) return optional;
    return this.itemMemberIsDecodableString(i, key);
  }
  /** `test` on the raw UTF-8 body [s, e) at `data` of item `i`'s string member `key` when it has no
   *  escapes (its bytes are then its text): 1 or 0; -1 when the member is missing or not a string
   *  (or item `i` not an object), -2 when it has escapes (decode it to test it). A list of 50,000
   *  names is checked without a string per name. */
  itemMemberRawTest(i: i32, key: string, test: (data: usize, s: i32, e: i32) => bool): i32 {
    const p = this.locateItemMember(i, key, JsonKind.String);
    if (p === null) return -1;
    const s = p.start + 1;
    const e = p.end - 1;
    if (containsBackslash(p.data, s, e)) return -2;
    return test(p.data, s, e) ? 1 : 0;
  }
  /** what `at(i)` then `memberKind(key)` answers (-1 also when item `i` is not an object) */
  itemMemberKind(i: i32, key: string): i32 {
    const p = this.locateItemMember(i, key, -1);
    return p !== null ? <i32>p.kind : -1;
  }
  /** what `at(i)` then `memberIsDecodableString(key)` answers */
  itemMemberIsDecodableString(i: i32, key: string): bool {
    const p = this.locateItemMember(i, key, JsonKind.String);
    return p !== null && stringBodyDecodes(p.data, p.start + 1, p.end - 1);
  }
  /** what `at(i)` then `stringOrNull(key)` answers (null also when item `i` is not an object) */
  itemStringOrNull(i: i32, key: string): string | null {
    const p = this.locateItemMember(i, key, JsonKind.String);
    if (p === null) return null;
    const owner = p.bytes;
    if (owner === null) return null; // cannot happen: every string has its text
    return decodeLiteral(owner, p.start, p.end);
  }
  /** what `at(i)` then `stringEquals(key, text)` answers (false when item `i` is not an object) */
  itemStringEquals(i: i32, key: string, text: string): bool {
    const p = this.locateItemMember(i, key, JsonKind.String);
    if (p === null) return false;
    return spanStringEquals(p.data, p.start, p.end, text);
  }

  /** member `key` of item `i` as `at(i)` then `locateMember` finds it, without the item's node
   *  unless one was already handed out (it may have been changed since the records were made) */
  private locateItemMember(i: i32, key: string, want: i32): MemberProbe | null {
    if (this._kind != JsonKind.Array) return null;
    const vi = this.rawItemRecord(i);
    const doc = this._doc;
    if (vi >= 0 && doc !== null) return probeItemMember(doc, vi, key, want);
    // a handed-out node, the pushed tail, or a list not read from the records
    const item = this.at(i);
    return item !== null ? item.locateMember(key, want) : null;
  }

  /** finds the last member `key`: its kind and text span in the document's probe (read at once;
   *  the next probe overwrites it), or null when missing, not of kind `want` (-1: any kind) or
   *  this is not an object */
  private locateMember(key: string, want: i32): MemberProbe | null {
    if (this._kind != JsonKind.Object) return null;
    const doc = this._doc;
    const t = doc !== null && this.readsRecords() ? this.tailIndexOfKey(key) : -1;
    if (t < 0 && doc !== null && this.readsRecords()) {
      const vi = this.lastRecordOfKey(doc, key);
      return vi < 0 ? null : probeRecord(doc, vi, want);
    }
    const i = t >= 0 ? t : this.lastIndexOfKey(key);
    if (i < 0) return null;
    // with t >= 0 the pushed tail is `_items` itself, not the child list
    const tail = this._items;
    const v = t >= 0 && tail !== null ? unchecked(tail[t]) : unchecked(this._children()[i]);
    const kind = v._kind;
    let bytes = v._bytes;
    let start = v._start;
    let end = v._end;
    if (bytes === null || end < start) {
      if (kind == JsonKind.String) return null; // cannot happen: every string has its text
      bytes = null;
      start = end = 0;
    }
    if (want >= 0 && <i32>kind != want) return null;
    // a container built by object() has no document: its probe answer is its own
    return (doc !== null ? doc.probe() : new MemberProbe()).found(kind, bytes, start, end);
  }

  // ---- typed optional-field reader on objects (Absent when the key is missing or this is not an object) ----
  readString(key: string): Read<string> {
    const v = this.get(key);
    if (v === null) return new Read<string>(ReadState.Absent, "");
    if (v.isNull()) return new Read<string>(ReadState.Null, "");
    return v.asString();
  }

  // ---- arrays and objects ----
  /** number of members (object) or items (array); 0 otherwise */
  size(): i32 {
    if (!this.isContainer()) return 0;
    const doc = this._doc;
    if (doc !== null && this.readsRecords()) return this.recordCount(doc) + this.tailLength();
    return this._children().length;
  }
  /** i-th item (array) or i-th member value (object); null when out of range */
  at(i: i32): JsonValue | null {
    if (!this.isContainer()) return null;
    const doc = this._doc;
    if (doc !== null && this.readsRecords()) {
      const vi = this.recordAt(doc, i);
      return vi < 0 ? this.tailItem(doc, i) : nodeOf(doc, vi, this);
    }
    const items = this._children();
    if (i < 0 || i >= items.length) return null;
    return unchecked(items[i]);
  }

  // ---- array mutation (false on non-arrays or out-of-range indices) ----
  push(value: JsonValue): bool {
    if (this._kind != JsonKind.Array) return false;
    if (this._doc !== null && this.readsRecords()) {
      // the records stay as they are; the new item goes to the tail written after them
      this.pushTail(this.adopt(value));
    } else this._children().push(this.adopt(value));
    this._markDirty();
    return true;
  }
  insert(i: i32, value: JsonValue): bool {
    if (this._kind != JsonKind.Array) return false;
    const items = this._children();
    const n = items.length;
    if (i < 0 || i > n) return false;
    const v = this.adopt(value);
    items.push(v);
    for (let j = n; j > i; j--) unchecked((items[j] = unchecked(items[j - 1])));
    unchecked((items[i] = v));
    this._markDirty();
    return true;
  }
  removeAt(i: i32): bool {
    if (this._kind != JsonKind.Array) return false;
    const items = this._children();
    const n = items.length;
    if (i < 0 || i >= n) return false;
    unchecked(items[i])._parent = null;
    for (let j = i; j < n - 1; j++) unchecked((items[j] = unchecked(items[j + 1])));
    items.length = n - 1;
    this._markDirty();
    return true;
  }
  replace(i: i32, value: JsonValue): bool {
    if (this._kind != JsonKind.Array) return false;
    const items = this._children();
    if (i < 0 || i >= items.length) return false;
    const v = this.adopt(value);
    unchecked(items[i])._parent = null;
    unchecked((items[i] = v));
    this._markDirty();
    return true;
  }

  // ---- output ----
  writeTo(sink: ByteSink): void {
    writeValue<JsonValue>(this, sink);
  }
  toBytes(): Uint8Array {
    // the source span is a good size hint even when dirty: edits are usually small
    const n = this.sourceLength();
    const sink = new ByteSink(n >= 0 ? n + 256 : 1024);
    writeValue<JsonValue>(this, sink);
    return sink.bytes();
  }
  toString(): string {
    const bytes = this._bytes;
    if (!this.dirty && bytes !== null) {
      return String.UTF8.decodeUnsafe(
        bytes.dataStart + <usize>this._outerStart,
        <usize>(this._outerEnd - this._outerStart),
      );
    }
    const sink = new ByteSink();
    writeValue<JsonValue>(this, sink);
    return sink.toString();
  }

  // ---- internals ----
  isContainer(): bool {
    return this._kind == JsonKind.Array || this._kind == JsonKind.Object;
  }

  /** the direct children, materialised from the value records on first use (reusing the nodes
   *  already handed out) */
  _children(): Array<JsonValue> {
    let items = this._items;
    if (items !== null && !this._itemsAreTail) return items;
    const tail = items;
    let doc = this._doc;
    const bytes = this._bytes;
    if (doc === null && bytes !== null && this.isContainer()) {
      // a container made from trusted text (JsonValue.unread) is parsed when first read
      const parsed = parseNode(bytes, i32.MAX_VALUE);
      if (parsed !== null) {
        doc = parsed._doc;
        this._doc = doc;
        this._vi = parsed._vi;
        this._start = parsed._start;
        this._end = parsed._end;
      }
    }
    if (doc === null || !this.isContainer()) {
      items = new Array<JsonValue>();
    } else {
      const count = this.recordCount(doc);
      items = new Array<JsonValue>(count);
      items.length = 0;
      const table = doc.table;
      const limit = table.next(this._vi);
      let vi = this._vi + 1;
      while (vi < limit) {
        items.push(nodeOf(doc, vi, this));
        const next = table.next(vi);
        if (next <= vi) break;
        vi = next;
      }
      if (tail !== null) for (let k = 0; k < tail.length; k++) items.push(unchecked(tail[k]));
    }
    this._items = items;
    this._itemsAreTail = false;
    return items;
  }

  /** whether the value records answer for this container's children (list not built, or only a
   *  pushed tail kept after them) */
  @inline readsRecords(): bool {
    return this._items === null || this._itemsAreTail;
  }

  /** appends `v` (adopted) to the tail kept after the records */
  private pushTail(v: JsonValue): void {
    let tail = this._items;
    if (tail === null) {
      tail = new Array<JsonValue>();
      this._items = tail;
      this._itemsAreTail = true;
    }
    tail.push(v);
  }

  /** the position in the tail of the last member with this key, or -1 (also without a tail) */
  private tailIndexOfKey(key: string): i32 {
    const tail = this._items;
    if (!this._itemsAreTail || tail === null) return -1;
    const wanted = keyBytesFor(key);
    for (let i = tail.length - 1; i >= 0; i--) if (unchecked(tail[i])._keyEquals(key, wanted)) return i;
    return -1;
  }

  /** the pushed items after the records (0 without a tail) */
  private tailLength(): i32 {
    const tail = this._items;
    return this._itemsAreTail && tail !== null ? tail.length : 0;
  }

  /** child `i` when it lies in the pushed tail (i counts the records first), or null */
  private tailItem(doc: NodeDoc<JsonValue>, i: i32): JsonValue | null {
    const tail = this._items;
    if (!this._itemsAreTail || tail === null) return null;
    const k = i - this.recordCount(doc);
    return k >= 0 && k < tail.length ? unchecked(tail[k]) : null;
  }

  /** number of direct children per the records (list not built) */
  private recordCount(doc: NodeDoc<JsonValue>): i32 {
    let count = this._count;
    if (count < 0) {
      count = doc.childCount(this._vi);
      this._count = count;
    }
    return count;
  }

  /** value index of the i-th direct child per the records (list not built), or -1 */
  private recordAt(doc: NodeDoc<JsonValue>, i: i32): i32 {
    if (i < 0) return -1;
    const table = doc.table;
    const limit = table.next(this._vi);
    let pos = 0;
    let vi = this._vi + 1;
    if (this._curPos >= 0 && this._curPos <= i) {
      pos = this._curPos;
      vi = this._curVi;
    }
    while (pos < i && vi < limit) {
      const next = table.next(vi);
      if (next <= vi) return -1;
      vi = next;
      pos++;
    }
    if (vi >= limit || vi < 0) return -1;
    this._curPos = pos;
    this._curVi = vi;
    return vi;
  }

  /** value index of the last direct member with this key per the records (list not built), or -1 */
  private lastRecordOfKey(doc: NodeDoc<JsonValue>, key: string): i32 {
    return doc.lastMember(this._vi, key);
  }

  private lastIndexOfKey(key: string): i32 {
    const items = this._children();
    const wanted = keyBytesFor(key);
    // an unescaped raw key of another length cannot match: most members are rejected here
    const len = wanted !== null ? wanted.length : key.length;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = unchecked(items[i]);
      if (!item._keyEscaped && item._keyEnd - item._keyStart != len) continue;
      if (item._keyEquals(key, wanted)) return i;
    }
    return -1;
  }

  /** compares this member's decoded key with `key` (whose UTF-8 is `wanted`; null when `key` is
   *  ASCII, which is then compared unit by unit without encoding it) */
  _keyEquals(key: string, wanted: Uint8Array | null): bool {
    const kb = this._keyBytes;
    if (kb === null) return false;
    return rawKeyEquals(kb, this._keyStart, this._keyEnd, this._keyEscaped, key, wanted);
  }

  _decodedKey(): string {
    const kb = this._keyBytes;
    if (kb === null) return "";
    const s = decodeStringBody(kb.dataStart, this._keyStart, this._keyEnd, false);
    return s !== null ? s : "";
  }

  private setKey(key: string): void {
    const kb = jsonStringBytes(key);
    this._keyBytes = kb;
    this._keyStart = 1;
    this._keyEnd = kb.length - 1;
    this._keyEscaped = containsBackslash(kb.dataStart, 1, kb.length - 1);
  }

  private takeKeyFrom(other: JsonValue): void {
    this._keyBytes = other._keyBytes;
    this._keyStart = other._keyStart;
    this._keyEnd = other._keyEnd;
    this._keyEscaped = other._keyEscaped;
  }

  /** marks this node and its ancestors dirty; an already dirty node has dirty ancestors */
  _markDirty(): void {
    let n: JsonValue | null = this;
    while (n !== null && !n._dirty) {
      n._dirty = true;
      n = n._parent;
    }
  }

  /** the node to link under this container: `value` itself, or a copy when it is already linked
   *  somewhere or linking it would make a cycle */
  private adopt(value: JsonValue): JsonValue {
    let v = value;
    if (v._parent !== null || this.isSelfOrAncestor(v)) v = v.copy();
    v._parent = this;
    v._wholeInput = false; // a parsed root's surrounding whitespace stays with the document
    return v;
  }

  private isSelfOrAncestor(v: JsonValue): bool {
    let n: JsonValue | null = this;
    while (n !== null) {
      if (n === v) return true;
      n = n._parent;
    }
    return false;
  }

  /** an unlinked copy: clean nodes share their text; dirty containers are re-emitted and re-read */
  private copy(): JsonValue {
    const bytes = this._bytes;
    if (!this.dirty && bytes !== null) {
      // a copy is a new identity: it gets its own node table over the same records
      const doc = this._doc;
      return JsonValue._span(
        this._kind,
        bytes,
        doc !== null && this.isContainer() ? new NodeDoc<JsonValue>(doc.table, bytes) : null,
        this._vi,
        this._start,
        this._end,
      );
    }
    const text = this.toBytes();
    const parsed = parseNode(text, i32.MAX_VALUE);
    return parsed !== null ? parsed : JsonValue.nul();
  }
}
