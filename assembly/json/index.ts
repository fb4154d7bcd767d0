// Lossless raw-span JSON DOM over UTF-8 bytes (toolchain.md §4.3).
//
// PUBLIC API CONTRACT — other modules code against exactly these names and signatures.
// The bodies here are placeholders until the implementation lands; the implementation may add
// members and split files (re-export everything from this index), but must not change or remove
// anything declared below.
//
// Never traps on any input: parse errors, wrong kinds and out-of-range indices are values.

/** JSON value kinds. */
export enum JsonKind { Null = 0, Bool = 1, Number = 2, String = 3, Array = 4, Object = 5 }

/** How an optional field or a typed read turned out. */
export enum ReadState {
  /** the key is missing (or the index out of range) */
  Absent = 0,
  /** the value is JSON null */
  Null = 1,
  /** the value has the requested type and was decoded */
  Ok = 2,
  /** wrong JSON kind, integer overflow, non-integer number text, lone-surrogate escape, … */
  Invalid = 3,
}

/** A typed read: `state` says what happened; `value` is meaningful only when `state == Ok`. */
export class Read<T> {
  constructor(public state: ReadState, public value: T, public error: string = "") {}
  get ok(): bool { return this.state == ReadState.Ok; }
  /** absent or null: the usual "not set" for Kubernetes optional fields */
  get missing(): bool { return this.state == ReadState.Absent || this.state == ReadState.Null; }
  get invalid(): bool { return this.state == ReadState.Invalid; }
}

/** Growable byte buffer for output; `bytes()` goes straight to `__guest_response`. */
export class ByteSink {
  constructor(initialCapacity: i32 = 1024) {}
  get length(): i32 { return 0; }
  writeByte(b: u8): void {}
  /** copies src[start, end) */
  writeBytes(src: Uint8Array, start: i32, end: i32): void {}
  /** writes the UTF-8 encoding of `text` as is (no quoting or escaping) */
  writeUtf8(text: string): void {}
  /** writes `text` as a JSON string literal with RFC 8259 escaping (toolchain.md §4.3 item 7) */
  writeJsonString(text: string): void {}
  /** a view of the written bytes */
  bytes(): Uint8Array { return new Uint8Array(0); }
  toString(): string { return ""; }
}

/** The result of parsing: `value` is non-null iff `ok`; `error` names the problem and byte offset. */
export class ParseResult {
  constructor(public value: JsonValue | null, public error: string, public offset: i32) {}
  get ok(): bool { return this.value !== null; }
}

/** Strict RFC 8259 parse of UTF-8 bytes; iterative, depth-limited (default 1,000). */
export function parseJson(bytes: Uint8Array, maxDepth: i32 = 1000): ParseResult {
  return new ParseResult(null, "not implemented", 0);
}

/** Convenience: parse the UTF-8 encoding of `text`. */
export function parseJsonString(text: string, maxDepth: i32 = 1000): ParseResult {
  return parseJson(Uint8Array.wrap(String.UTF8.encode(text)), maxDepth);
}

/** Semantic equality: objects as unordered key sets (last occurrence wins), numbers by exact
 *  decimal value, strings by decoded text. */
export function jsonEquals(a: JsonValue, b: JsonValue): bool { return false; }

/** One node of the DOM. Nodes obtained from `get`/`at`/`valueAt` are live: mutating one marks every
 *  ancestor dirty, so serialization re-emits exactly the containers on the path to the change. */
export class JsonValue {
  // ---- constructors for new values ----
  static str(text: string): JsonValue { return new JsonValue(); }
  static bool(value: bool): JsonValue { return new JsonValue(); }
  static nul(): JsonValue { return new JsonValue(); }
  static int(value: i64): JsonValue { return new JsonValue(); }
  /** a number from validated JSON number text; null when `text` is not RFC 8259 number grammar */
  static rawNumber(text: string): JsonValue | null { return null; }
  static object(): JsonValue { return new JsonValue(); }
  static array(): JsonValue { return new JsonValue(); }

  // ---- kind ----
  get kind(): JsonKind { return JsonKind.Null; }
  isNull(): bool { return false; }
  isBool(): bool { return false; }
  isNumber(): bool { return false; }
  isString(): bool { return false; }
  isArray(): bool { return false; }
  isObject(): bool { return false; }
  /** "null" | "boolean" | "number" | "string" | "array" | "object", for messages */
  kindName(): string { return ""; }

  // ---- typed readers of this value (state Ok or Invalid, never a silent default) ----
  /** full unescape; a lone-surrogate escape is Invalid */
  asString(): Read<string> { return new Read<string>(ReadState.Invalid, ""); }
  asBool(): Read<bool> { return new Read<bool>(ReadState.Invalid, false); }
  /** integer grammar only (no fraction/exponent), overflow is Invalid */
  asI64(): Read<i64> { return new Read<i64>(ReadState.Invalid, 0); }
  asU64(): Read<u64> { return new Read<u64>(ReadState.Invalid, 0); }
  /** any number; non-finite results are Invalid */
  asF64(): Read<f64> { return new Read<f64>(ReadState.Invalid, 0); }
  /** the exact number text as written ("" when not a number) */
  numberText(): string { return ""; }
  /** this value serialized: the exact source bytes when clean, compact re-emission when dirty */
  rawText(): string { return ""; }

  // ---- object access (on a non-object: get → null, has → false, set/remove → false) ----
  /** the value of the LAST member with this decoded key, or null */
  get(key: string): JsonValue | null { return null; }
  has(key: string): bool { return false; }
  /** replace the last occurrence in place (keeping its position), else append; false on non-objects */
  set(key: string, value: JsonValue): bool { return false; }
  /** remove every member with this key; true when something was removed */
  remove(key: string): bool { return false; }
  /** decoded key of the i-th member ("" when out of range or not an object) */
  keyAt(i: i32): string { return ""; }

  // ---- typed optional-field readers on objects (Absent when the key is missing or this is not an object) ----
  readString(key: string): Read<string> { return new Read<string>(ReadState.Absent, ""); }
  readBool(key: string): Read<bool> { return new Read<bool>(ReadState.Absent, false); }
  readI64(key: string): Read<i64> { return new Read<i64>(ReadState.Absent, 0); }
  readF64(key: string): Read<f64> { return new Read<f64>(ReadState.Absent, 0); }
  /** Ok with the node when it is an object; Invalid (value null) for another kind */
  readObject(key: string): Read<JsonValue | null> { return new Read<JsonValue | null>(ReadState.Absent, null); }
  /** Ok with the node when it is an array; Invalid (value null) for another kind */
  readArray(key: string): Read<JsonValue | null> { return new Read<JsonValue | null>(ReadState.Absent, null); }

  // ---- arrays and objects ----
  /** number of members (object) or items (array); 0 otherwise */
  size(): i32 { return 0; }
  /** i-th item (array) or i-th member value (object); null when out of range */
  at(i: i32): JsonValue | null { return null; }

  // ---- array mutation (false on non-arrays or out-of-range indices) ----
  push(value: JsonValue): bool { return false; }
  insert(i: i32, value: JsonValue): bool { return false; }
  removeAt(i: i32): bool { return false; }
  replace(i: i32, value: JsonValue): bool { return false; }

  // ---- output ----
  writeTo(sink: ByteSink): void {}
  toBytes(): Uint8Array { return new Uint8Array(0); }
  toString(): string { return ""; }
}
