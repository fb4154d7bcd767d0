// The DOM node. Every scalar is a span of UTF-8 bytes (source text, or bytes encoded when the
// value was constructed), so readers and the writer have one code path. Containers keep their
// source span and create child nodes lazily from the validator's value records (see JsonDoc); a container is
// re-emitted only when it is dirty (a child was added, replaced or removed below it).

import { i64ToDecimal, u64ToDecimal } from "../util/decimal";
import { JsonKind, Read, ReadState } from "./types";
import { ByteSink } from "./sink";
import { KEY_GAP_WIDE, KEY_LENGTH_MASK, RECORD_SHIFT, ValueTable, Validator, keyEndOf, keyStartOf, containsBackslash, decodeStringBody, nextBackslash, stringBodyDecodes, scanNumber } from "./grammar";
import { readIntText } from "./numbers";
import { uninitializedBuffer } from "../util/memory";

/** The result of parsing: `value` is non-null iff `ok`; `error` names the problem and byte offset. */
export class ParseResult {
  constructor(public value: JsonValue | null, public error: string, public offset: i32) {}
  get ok(): bool { return this.value !== null; }
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
  return v.rootStart < n && load<u8>(base + <usize>v.rootStart) == 0x7B;
}

function kindOfLeadByte(c: u32): JsonKind {
  if (c == 0x7B) return JsonKind.Object;
  if (c == 0x5B) return JsonKind.Array;
  if (c == 0x22) return JsonKind.String;
  if (c == 0x74 || c == 0x66) return JsonKind.Bool;
  if (c == 0x6E) return JsonKind.Null;
  return JsonKind.Number;
}

function utf8Bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

/** null for an ASCII key (compared without encoding, see `_keyEquals`), else its UTF-8 bytes */
function keyBytesFor(key: string): Uint8Array | null {
  const k = changetype<usize>(key);
  const n = key.length;
  for (let i = 0; i < n; i++) if (<u32>load<u16>(k + (<usize>i << 1)) >= 0x80) return utf8Bytes(key);
  return null;
}

/**
 * One parsed document (or a clean copy of a part of it): the validator's value records, and the
 * node handed out for each value index so far. A container whose child list is not built answers
 * get/has/at/keyAt/size from the records and creates only the node it returns; this table keeps
 * that node unique (the same member gives the same live node), and the child list, built on the
 * first mutation or full iteration, reuses it.
 */
export class JsonDoc {
  nodes: StaticArray<JsonValue | null> | null = null;
  constructor(public table: ValueTable, public bytes: Uint8Array) {}

  /** the node already handed out for value `i`, or null */
  existing(i: i32): JsonValue | null {
    const nodes = this.nodes;
    if (nodes === null || <u32>i >= <u32>nodes.length) return null;
    return unchecked(nodes[i]);
  }

  /** the node of value `i`, a direct child of `parent` (created on first request) */
  node(i: i32, parent: JsonValue): JsonValue {
    const table = this.table;
    let nodes = this.nodes;
    if (nodes === null) {
      nodes = new StaticArray<JsonValue | null>(table.count);
      this.nodes = nodes;
    }
    if (<u32>i < <u32>nodes.length) {
      const have = unchecked(nodes[i]);
      if (have !== null) return have;
    }
    const bytes = this.bytes;
    const start = table.start(i);
    let end = table.end(i);
    // cannot happen for a child index of a validated document; yields a null node instead of a trap
    if (start < 0 || end < start || end > bytes.length) return JsonValue.nul();
    const v = JsonValue._span(kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start)), bytes, this, i, start, end);
    v._parent = parent;
    if (parent._kind == JsonKind.Object) {
      const ke = table.keyEnd(i);
      v._keyBytes = bytes;
      v._keyStart = table.keyStart(i);
      v._keyEnd = ke & 0x7FFFFFFF;
      v._keyEscaped = ke < 0;
    }
    if (<u32>i < <u32>nodes.length) unchecked(nodes[i] = v);
    return v;
  }
}

/** compares the raw key [ks, ke) of `bytes` (escaped: contains a backslash) with `key` (whose UTF-8
 *  is `wanted`; null when `key` is ASCII, which is then compared unit by unit without encoding) */
function rawKeyEquals(bytes: Uint8Array, ks: i32, ke: i32, escaped: bool, key: string, wanted: Uint8Array | null): bool {
  if (escaped) {
    const s = decodeStringBody(bytes.dataStart, ks, ke, false);
    return s !== null && s == key;
  }
  const n = ke - ks;
  const raw = bytes.dataStart + <usize>ks;
  if (wanted !== null) return n == wanted.length && memory.compare(raw, wanted.dataStart, <usize>n) == 0;
  if (n != key.length) return false;
  const k = changetype<usize>(key);
  for (let i = 0; i < n; i++) {
    if (<u32>load<u8>(raw + <usize>i) != <u32>load<u16>(k + (<usize>i << 1))) return false;
  }
  return true;
}

// what JsonValue._locateMember found (read right after it, never kept across calls)
let probeKind: JsonKind = JsonKind.Null;
let probeData: usize = 0;
let probeStart: i32 = 0;
let probeEnd: i32 = 0;

/** compares n raw UTF-8 bytes at `raw` with the decoded `text` */
function rawTextEquals(raw: usize, n: i32, text: string): bool {
  const wanted = keyBytesFor(text);
  if (wanted !== null) return n == wanted.length && memory.compare(raw, wanted.dataStart, <usize>n) == 0;
  if (n != text.length) return false;
  const k = changetype<usize>(text);
  for (let i = 0; i < n; i++) {
    if (<u32>load<u8>(raw + <usize>i) != <u32>load<u16>(k + (<usize>i << 1))) return false;
  }
  return true;
}

// New string texts (values and keys) are encoded in a reused scratch sink, then copied into a
// shared arena: each costs one view instead of a sink, its buffer and a view. A full arena is
// replaced (views keep theirs alive), never reused, so earlier values stay valid. The arena is
// small (a wired pod adds ~100 bytes of short texts): its unused tail lies between allocations
// and, on a fresh instance, spreads them over more pages.
let scratchSink: ByteSink | null = null;
let arena: ArrayBuffer | null = null;
let arenaUsed: i32 = 0;
const ARENA_SIZE: i32 = 256;

// The last string decoded from source text whose escapes are all ones the writer itself produces
// (\" \\ \b \f \n \r \t), and that text as a literal: writing the same string object again reuses
// those bytes instead of escaping it anew (the connection config travels ConfigMap -> args so).
let rawText: string | null = null;
let rawLiteral: Uint8Array | null = null;
// the owner of probeData's bytes (read right after _locateMember, like the other probe fields)
let probeBytes: Uint8Array | null = null;

/** Drops the string scratch buffers and the remembered literal; call it before the heap is reset
 *  (stub runtime), whose memory they would otherwise still point into. */
export function forgetStringScratch(): void {
  scratchSink = null;
  arena = null;
  arenaUsed = 0;
  rawText = null;
  rawLiteral = null;
  probeBytes = null;
}

/** true when every escape in the validated body [s, e) is a two-byte one the writer emits too */
function escapesAreCanonical(base: usize, s: i32, e: i32): bool {
  let p = nextBackslash(base, s, e);
  while (p < e) {
    const d = <u32>load<u8>(base + <usize>p + 1);
    if (d == 0x75 || d == 0x2F) return false; // \uXXXX, \/: the writer spells these differently
    p = nextBackslash(base, p + 2, e);
  }
  return true;
}

/** decodes the string literal [start, end) of `bytes` (quotes included); remembers a canonical
 *  escaped literal for jsonStringBytes */
function decodeLiteral(bytes: Uint8Array, start: i32, end: i32): string | null {
  const base = bytes.dataStart;
  const s = start + 1;
  const e = end - 1;
  if (nextBackslash(base, s, e) == e) return String.UTF8.decodeUnsafe(base + <usize>s, <usize>(e - s));
  const text = decodeStringBody(base, s, e, true);
  if (text !== null && escapesAreCanonical(base, s, e)) {
    rawText = text;
    rawLiteral = bytes.subarray(start, end);
  }
  return text;
}

/** `text` as a JSON string literal (RFC 8259 escaping), in bytes of its own */
function jsonStringBytes(text: string): Uint8Array {
  const remembered = rawLiteral;
  if (remembered !== null && changetype<usize>(text) == changetype<usize>(rawText)) return remembered;
  let sink = scratchSink;
  if (sink === null) {
    sink = new ByteSink(256);
    scratchSink = sink;
  }
  sink.reset();
  sink.writeJsonString(text);
  const n = sink.length;
  if (n > ARENA_SIZE >> 2) {
    // a long text gets a buffer of its own instead of most of an arena
    const own = uninitializedBuffer(n);
    memory.copy(changetype<usize>(own), sink.dataStart, <usize>n);
    return Uint8Array.wrap(own, 0, n);
  }
  let buf = arena;
  if (buf === null || arenaUsed + n > buf.byteLength) {
    buf = uninitializedBuffer(ARENA_SIZE); // filled from the front; the tail may stay untouched
    arena = buf;
    arenaUsed = 0;
  }
  const at = arenaUsed;
  memory.copy(changetype<usize>(buf) + <usize>at, sink.dataStart, <usize>n);
  arenaUsed = at + n;
  return Uint8Array.wrap(buf, at, n);
}

function scalarOf(kind: JsonKind, bytes: Uint8Array): JsonValue {
  return JsonValue._span(kind, bytes, null, -1, 0, bytes.length);
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
  _doc: JsonDoc | null = null;
  _vi: i32 = -1;
  _start: i32 = 0;
  _end: i32 = 0;
  // the three flags sit together (one word): a node is 96 bytes on the heap instead of 112, and
  // fewer bytes per node are fewer pages written on a fresh instance
  _dirty: bool = false;
  /** a parsed root: a clean one re-emits the whole input, surrounding whitespace included */
  _wholeInput: bool = false;
  _keyEscaped: bool = false;
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
  // the last key looked up in the records and its answer: policies read the same member of the
  // same object several times (the key is held, so its identity cannot be reused meanwhile)
  _lookupKey: string | null = null;
  _lookupVi: i32 = -1;

  /** a node over bytes[start, end) */
  static _span(kind: JsonKind, bytes: Uint8Array, doc: JsonDoc | null, vi: i32, start: i32, end: i32): JsonValue {
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
  @inline get _outerStart(): i32 { return this._wholeInput ? 0 : this._start; }
  @inline get _outerEnd(): i32 {
    const bytes = this._bytes;
    return this._wholeInput && bytes !== null ? bytes.length : this._end;
  }

  // ---- constructors for new values ----
  static str(text: string): JsonValue {
    return scalarOf(JsonKind.String, jsonStringBytes(text));
  }
  static bool(value: bool): JsonValue { return scalarOf(JsonKind.Bool, utf8Bytes(value ? "true" : "false")); }
  static nul(): JsonValue { return scalarOf(JsonKind.Null, utf8Bytes("null")); }
  static int(value: i64): JsonValue { return scalarOf(JsonKind.Number, utf8Bytes(i64ToDecimal(value))); }
  /** a number from an unsigned integer, as minimal decimal text */
  static uint(value: u64): JsonValue { return scalarOf(JsonKind.Number, utf8Bytes(u64ToDecimal(value))); }
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
  static object(): JsonValue { return JsonValue.emptyContainer(JsonKind.Object); }
  static array(): JsonValue { return JsonValue.emptyContainer(JsonKind.Array); }
  /** parses JSON text for embedding (strict, default depth limit); null when invalid */
  static parse(bytes: Uint8Array, maxDepth: i32 = 1000): JsonValue | null { return parseJson(bytes, maxDepth).value; }

  private static emptyContainer(kind: JsonKind): JsonValue {
    const v = new JsonValue();
    v._kind = kind;
    v._items = new Array<JsonValue>();
    v._dirty = true;
    return v;
  }

  // ---- kind ----
  get kind(): JsonKind { return this._kind; }
  isNull(): bool { return this._kind == JsonKind.Null; }
  isBool(): bool { return this._kind == JsonKind.Bool; }
  isNumber(): bool { return this._kind == JsonKind.Number; }
  isString(): bool { return this._kind == JsonKind.String; }
  isArray(): bool { return this._kind == JsonKind.Array; }
  isObject(): bool { return this._kind == JsonKind.Object; }
  /** "null" | "boolean" | "number" | "string" | "array" | "object", for messages */
  kindName(): string {
    switch (this._kind) {
      case JsonKind.Bool: return "boolean";
      case JsonKind.Number: return "number";
      case JsonKind.String: return "string";
      case JsonKind.Array: return "array";
      case JsonKind.Object: return "object";
      default: return "null";
    }
  }
  /** whether serialization will re-emit this node instead of copying its source text */
  get dirty(): bool { return this._dirty || this._bytes === null; }
  /** the container holding this node, or null for a root or detached node */
  get parent(): JsonValue | null { return this._parent; }

  // ---- typed readers of this value (state Ok or Invalid, never a silent default) ----
  /** full unescape; a lone-surrogate escape is Invalid */
  asString(): Read<string> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.String || bytes === null) return invalid<string>("", "expected a string, found " + this.kindName());
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
    if (this._kind != JsonKind.Bool || bytes === null) return invalid<bool>(false, "expected a boolean, found " + this.kindName());
    return new Read<bool>(ReadState.Ok, load<u8>(bytes.dataStart + <usize>this._start) == 0x74);
  }
  /** integer grammar only (no fraction/exponent), overflow is Invalid */
  asI64(): Read<i64> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Number || bytes === null) return invalid<i64>(0, "expected an integer, found " + this.kindName());
    const r = readIntText(bytes.dataStart, this._start, this._end);
    if (!r.ok) return invalid<i64>(0, "not an integer in range: " + this.numberText());
    if (r.negative) {
      if (r.magnitude > (<u64>i64.MAX_VALUE) + 1) return invalid<i64>(0, "integer out of i64 range: " + this.numberText());
      return new Read<i64>(ReadState.Ok, <i64>(0 - r.magnitude));
    }
    if (r.magnitude > <u64>i64.MAX_VALUE) return invalid<i64>(0, "integer out of i64 range: " + this.numberText());
    return new Read<i64>(ReadState.Ok, <i64>r.magnitude);
  }
  asU64(): Read<u64> {
    const bytes = this._bytes;
    if (this._kind != JsonKind.Number || bytes === null) return invalid<u64>(0, "expected an integer, found " + this.kindName());
    const r = readIntText(bytes.dataStart, this._start, this._end);
    if (!r.ok || (r.negative && r.magnitude != 0)) return invalid<u64>(0, "not an integer in u64 range: " + this.numberText());
    return new Read<u64>(ReadState.Ok, r.magnitude);
  }
  /** any number; non-finite results are Invalid */
  asF64(): Read<f64> {
    if (this._kind != JsonKind.Number || this._bytes === null) return invalid<f64>(0, "expected a number, found " + this.kindName());
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
  rawText(): string { return this.toString(); }

  // ---- object access (on a non-object: get → null, has → false, set/remove → false) ----
  /** the value of the LAST member with this decoded key, or null */
  get(key: string): JsonValue | null {
    if (this._kind != JsonKind.Object) return null;
    const doc = this._doc;
    if (this._items === null && doc !== null) {
      const vi = this.lastRecordOfKey(doc, key);
      return vi < 0 ? null : doc.node(vi, this);
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
    if (this._items === null && doc !== null) return this.lastRecordOfKey(doc, key) >= 0;
    return this.lastIndexOfKey(key) >= 0;
  }
  /** replace the last occurrence in place (keeping its position), else append; false on non-objects */
  set(key: string, value: JsonValue): bool {
    if (this._kind != JsonKind.Object) return false;
    const items = this._children();
    const i = this.lastIndexOfKey(key);
    const v = this.adopt(value);
    if (i >= 0) {
      const old = unchecked(items[i]);
      v.takeKeyFrom(old);
      old._parent = null;
      unchecked(items[i] = v);
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
    const items = this._children();
    const wanted = keyBytesFor(key);
    let kept = 0;
    const n = items.length;
    for (let i = 0; i < n; i++) {
      const item = unchecked(items[i]);
      if (item._keyEquals(key, wanted)) { item._parent = null; continue; }
      unchecked(items[kept++] = item);
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
    if (this._items === null && doc !== null) {
      const vi = this.recordAt(doc, i);
      if (vi < 0) return "";
      const ke = doc.table.keyEnd(vi);
      const s = decodeStringBody(doc.bytes.dataStart, doc.table.keyStart(vi), ke & 0x7FFFFFFF, false);
      return s !== null ? s : "";
    }
    const items = this._children();
    if (i < 0 || i >= items.length) return "";
    return unchecked(items[i])._decodedKey();
  }

  // ---- allocation-free member probes (no node, no Read; for values that are only tested) ----
  /** the kind of member `key` (its last occurrence), or -1 when missing or this is not an object */
  memberKind(key: string): i32 {
    return this._locateMember(key) ? <i32>probeKind : -1;
  }
  /** whether member `key` is a string that asString() would decode (what `get(key)` then
   *  `isDecodableString()` answers), without creating its node */
  memberIsDecodableString(key: string): bool {
    if (!this._locateMember(key) || probeKind != JsonKind.String) return false;
    return stringBodyDecodes(probeData, probeStart + 1, probeEnd - 1);
  }
  /** the decoded string of member `key`, or null when it is missing, not a string or not decodable
   *  (exactly when `readString(key)` is not Ok), without a node or a Read */
  stringOrNull(key: string): string | null {
    if (!this._locateMember(key) || probeKind != JsonKind.String) return null;
    const owner = probeBytes;
    if (owner === null) return null; // cannot happen: every string has its text
    return decodeLiteral(owner, probeStart, probeEnd);
  }
  /** whether member `key` is a string whose decoded value is `text` (readString(key) Ok and equal),
   *  compared on the raw bytes when the value has no escapes */
  stringEquals(key: string, text: string): bool {
    if (!this._locateMember(key) || probeKind != JsonKind.String) return false;
    const data = probeData;
    const s = probeStart + 1;
    const e = probeEnd - 1;
    if (containsBackslash(data, s, e)) {
      const d = decodeStringBody(data, s, e, true);
      return d !== null && d == text;
    }
    return rawTextEquals(data + <usize>s, e - s, text);
  }
  /** whether member `key` is the boolean `value` (readBool(key) Ok with that value) */
  memberIsBool(key: string, value: bool): bool {
    if (!this._locateMember(key) || probeKind != JsonKind.Bool || probeData == 0) return false;
    return (load<u8>(probeData + <usize>probeStart) == 0x74) == value;
  }
  /** this string value decoded, or null when it is not a decodable string (asString() not Ok) */
  stringValue(): string | null {
    const bytes = this._bytes;
    if (this._kind != JsonKind.String || bytes === null) return null;
    return decodeLiteral(bytes, this._start, this._end);
  }

  /** finds the last member `key`; leaves its kind in probeKind and, for a string, its text span
   *  in probeData/probeStart/probeEnd (read at once, within the call that owns the bytes) */
  private _locateMember(key: string): bool {
    if (this._kind != JsonKind.Object) return false;
    const doc = this._doc;
    if (this._items === null && doc !== null) {
      const vi = this.lastRecordOfKey(doc, key);
      if (vi < 0) return false;
      const bytes = doc.bytes;
      const start = doc.table.start(vi);
      const end = doc.table.end(vi);
      if (start < 0 || end <= start || end > bytes.length) return false;
      probeKind = kindOfLeadByte(<u32>load<u8>(bytes.dataStart + <usize>start));
      probeData = bytes.dataStart;
      probeBytes = bytes;
      probeStart = start;
      probeEnd = end;
      return true;
    }
    const i = this.lastIndexOfKey(key);
    if (i < 0) return false;
    const v = unchecked(this._children()[i]);
    probeKind = v._kind;
    const bytes = v._bytes;
    if (bytes === null || v._end < v._start) {
      if (probeKind == JsonKind.String) return false; // cannot happen: every string has its text
      probeData = 0;
      probeBytes = null;
      probeStart = probeEnd = 0;
      return true;
    }
    probeData = bytes.dataStart;
    probeBytes = bytes;
    probeStart = v._start;
    probeEnd = v._end;
    return true;
  }

  // ---- typed optional-field readers on objects (Absent when the key is missing or this is not an object) ----
  readString(key: string): Read<string> { return this.readField<string>(key, "", (v: JsonValue): Read<string> => v.asString()); }
  readBool(key: string): Read<bool> { return this.readField<bool>(key, false, (v: JsonValue): Read<bool> => v.asBool()); }
  readI64(key: string): Read<i64> { return this.readField<i64>(key, 0, (v: JsonValue): Read<i64> => v.asI64()); }
  readF64(key: string): Read<f64> { return this.readField<f64>(key, 0, (v: JsonValue): Read<f64> => v.asF64()); }

  private readField<T>(key: string, none: T, reader: (v: JsonValue) => Read<T>): Read<T> {
    const v = this.get(key);
    if (v === null) return new Read<T>(ReadState.Absent, none);
    if (v.isNull()) return new Read<T>(ReadState.Null, none);
    return reader(v);
  }
  /** Ok with the node when it is an object; Invalid (value null) for another kind */
  readObject(key: string): Read<JsonValue | null> { return this.readContainer(key, JsonKind.Object); }
  /** Ok with the node when it is an array; Invalid (value null) for another kind */
  readArray(key: string): Read<JsonValue | null> { return this.readContainer(key, JsonKind.Array); }

  private readContainer(key: string, kind: JsonKind): Read<JsonValue | null> {
    const v = this.get(key);
    if (v === null) return new Read<JsonValue | null>(ReadState.Absent, null);
    if (v.isNull()) return new Read<JsonValue | null>(ReadState.Null, null);
    if (v._kind != kind) {
      const want = kind == JsonKind.Object ? "an object" : "an array";
      return new Read<JsonValue | null>(ReadState.Invalid, null, key + ": expected " + want + ", found " + v.kindName());
    }
    return new Read<JsonValue | null>(ReadState.Ok, v);
  }

  // ---- arrays and objects ----
  /** number of members (object) or items (array); 0 otherwise */
  size(): i32 {
    if (!this.isContainer()) return 0;
    const doc = this._doc;
    if (this._items === null && doc !== null) return this.recordCount(doc);
    return this._children().length;
  }
  /** i-th item (array) or i-th member value (object); null when out of range */
  at(i: i32): JsonValue | null {
    if (!this.isContainer()) return null;
    const doc = this._doc;
    if (this._items === null && doc !== null) {
      const vi = this.recordAt(doc, i);
      return vi < 0 ? null : doc.node(vi, this);
    }
    const items = this._children();
    if (i < 0 || i >= items.length) return null;
    return unchecked(items[i]);
  }

  // ---- array mutation (false on non-arrays or out-of-range indices) ----
  push(value: JsonValue): bool {
    if (this._kind != JsonKind.Array) return false;
    const items = this._children();
    items.push(this.adopt(value));
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
    for (let j = n; j > i; j--) unchecked(items[j] = unchecked(items[j - 1]));
    unchecked(items[i] = v);
    this._markDirty();
    return true;
  }
  removeAt(i: i32): bool {
    if (this._kind != JsonKind.Array) return false;
    const items = this._children();
    const n = items.length;
    if (i < 0 || i >= n) return false;
    unchecked(items[i])._parent = null;
    for (let j = i; j < n - 1; j++) unchecked(items[j] = unchecked(items[j + 1]));
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
    unchecked(items[i] = v);
    this._markDirty();
    return true;
  }

  // ---- output ----
  writeTo(sink: ByteSink): void { writeValue(this, sink); }
  toBytes(): Uint8Array {
    // the source span is a good size hint even when dirty: edits are usually small
    const sink = new ByteSink(this._bytes !== null ? this._outerEnd - this._outerStart + 256 : 1024);
    writeValue(this, sink);
    return sink.bytes();
  }
  toString(): string {
    const bytes = this._bytes;
    if (!this.dirty && bytes !== null) {
      return String.UTF8.decodeUnsafe(bytes.dataStart + <usize>this._outerStart, <usize>(this._outerEnd - this._outerStart));
    }
    const sink = new ByteSink();
    writeValue(this, sink);
    return sink.toString();
  }

  // ---- internals ----
  isContainer(): bool { return this._kind == JsonKind.Array || this._kind == JsonKind.Object; }

  /** the direct children, materialised from the value records on first use (reusing the nodes
   *  already handed out) */
  _children(): Array<JsonValue> {
    let items = this._items;
    if (items !== null) return items;
    const doc = this._doc;
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
        items.push(doc.node(vi, this));
        const next = table.next(vi);
        if (next <= vi) break;
        vi = next;
      }
    }
    this._items = items;
    return items;
  }

  /** number of direct children per the records (list not built) */
  private recordCount(doc: JsonDoc): i32 {
    let count = this._count;
    if (count >= 0) return count;
    count = 0;
    const table = doc.table;
    const limit = table.next(this._vi);
    let vi = this._vi + 1;
    while (vi < limit) {
      count++;
      const next = table.next(vi);
      if (next <= vi) break;
      vi = next;
    }
    this._count = count;
    return count;
  }

  /** value index of the i-th direct child per the records (list not built), or -1 */
  private recordAt(doc: JsonDoc, i: i32): i32 {
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
  private lastRecordOfKey(doc: JsonDoc, key: string): i32 {
    if (changetype<usize>(key) == changetype<usize>(this._lookupKey)) return this._lookupVi;
    const found = this.scanRecordsForKey(doc, key);
    this._lookupKey = key;
    this._lookupVi = found;
    return found;
  }

  private scanRecordsForKey(doc: JsonDoc, key: string): i32 {
    const table = doc.table;
    const bytes = doc.bytes;
    const wanted = keyBytesFor(key);
    const len = wanted !== null ? wanted.length : key.length;
    // every index below `limit` is a record (limit <= count), read without per-field checks
    const limit = min(table.next(this._vi), table.count);
    const data = changetype<usize>(table.data);
    const base = bytes.dataStart;
    // the key's first byte, compared inline before the full comparison (-1: the empty key)
    const first: i32 = len == 0 ? -1 : wanted !== null ? <i32>unchecked(wanted[0]) : <i32>load<u16>(changetype<usize>(key));
    let found = -1;
    let vi = this._vi + 1;
    while (vi < limit) {
      const slot = data + (<usize>vi << RECORD_SHIFT);
      const w = load<i32>(slot, 12);
      const start = load<i32>(slot);
      if (w < 0) {
        if (rawKeyEquals(bytes, keyStartOf(table, vi, w, start), keyEndOf(table, vi, w, start), true, key, wanted)) found = vi;
      } else if ((w & KEY_LENGTH_MASK) == len || ((w >>> 20) & KEY_GAP_WIDE) == KEY_GAP_WIDE) {
        // an unescaped raw key of another length or first byte cannot match: most members end here
        const ks = keyStartOf(table, vi, w, start);
        const ke = keyEndOf(table, vi, w, start);
        if (ke - ks == len && (first < 0 || <i32>load<u8>(base + <usize>ks) == first) && rawKeyEquals(bytes, ks, ke, false, key, wanted)) found = vi;
      }
      const next = load<i32>(slot, 8);
      if (next <= vi) break;
      vi = next;
    }
    return found;
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
      return JsonValue._span(this._kind, bytes, doc !== null && this.isContainer() ? new JsonDoc(doc.table, bytes) : null, this._vi, this._start, this._end);
    }
    const text = this.toBytes();
    const parsed = parseJson(text, i32.MAX_VALUE).value;
    return parsed !== null ? parsed : JsonValue.nul();
  }
}

/** Iterative writer: clean nodes are one copy of their text; dirty containers re-emit compactly. */
function writeValue(root: JsonValue, sink: ByteSink): void {
  if (writeLeaf(root, sink)) return;
  const stack = new Array<JsonValue>();
  const next = new Array<i32>();
  openContainer(root, sink, stack, next);
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = unchecked(stack[top]);
    const doc = node._doc;
    if (node._items === null && doc !== null) {
      // dirty below, but its own member list never changed: walk the records (as _children()
      // would), writing untouched members straight from the source without creating nodes
      writeRecordStep(node, doc, sink, stack, next, top);
      continue;
    }
    const items = node._children();
    const i = unchecked(next[top]);
    if (i >= items.length) {
      sink.writeByte(node._kind == JsonKind.Object ? 0x7D : 0x5D);
      stack.pop();
      next.pop();
      continue;
    }
    unchecked(next[top] = i + 1);
    if (i > 0) sink.writeByte(0x2C);
    const child = unchecked(items[i]);
    if (node._kind == JsonKind.Object) writeKey(child, sink);
    if (!writeLeaf(child, sink)) openContainer(child, sink, stack, next);
  }
}

/** one step of a records walk: `next[top]` is 0 before the first member, then the value index of
 *  the next member, or -1 when done */
function writeRecordStep(node: JsonValue, doc: JsonDoc, sink: ByteSink, stack: Array<JsonValue>, next: Array<i32>, top: i32): void {
  const table = doc.table;
  const limit = table.next(node._vi);
  let vi = unchecked(next[top]);
  const first = vi == 0;
  if (first) vi = node._vi + 1;
  if (vi < 0 || vi >= limit) {
    sink.writeByte(node._kind == JsonKind.Object ? 0x7D : 0x5D);
    stack.pop();
    next.pop();
    return;
  }
  const after = table.next(vi);
  unchecked(next[top] = after <= vi ? -1 : after);
  if (!first) sink.writeByte(0x2C);
  const bytes = doc.bytes;
  if (node._kind == JsonKind.Object) {
    sink.writeByte(0x22);
    sink.writeBytes(bytes, table.keyStart(vi), table.keyEnd(vi) & 0x7FFFFFFF);
    sink.writeByte(0x22);
    sink.writeByte(0x3A);
  }
  const child = doc.existing(vi);
  if (child === null) {
    sink.writeBytes(bytes, table.start(vi), table.end(vi));
  } else if (!writeLeaf(child, sink)) {
    openContainer(child, sink, stack, next);
  }
}

/** writes a node that needs no descent (clean text or a scalar); false for a dirty container */
function writeLeaf(v: JsonValue, sink: ByteSink): bool {
  const bytes = v._bytes;
  if (bytes !== null && !v._dirty) {
    sink.writeBytes(bytes, v._outerStart, v._outerEnd);
    return true;
  }
  if (v.isContainer()) return false;
  if (bytes !== null) sink.writeBytes(bytes, v._start, v._end);
  else sink.writeUtf8("null"); // a bare `new JsonValue()`
  return true;
}

function openContainer(v: JsonValue, sink: ByteSink, stack: Array<JsonValue>, next: Array<i32>): void {
  sink.writeByte(v._kind == JsonKind.Object ? 0x7B : 0x5B);
  stack.push(v);
  next.push(0);
}

function writeKey(member: JsonValue, sink: ByteSink): void {
  sink.writeByte(0x22);
  const kb = member._keyBytes;
  if (kb !== null) sink.writeBytes(kb, member._keyStart, member._keyEnd);
  sink.writeByte(0x22);
  sink.writeByte(0x3A);
}
