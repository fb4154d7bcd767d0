// A small strict JSON reader that deserializes the way serde_json + `#[derive(Deserialize)]` do in
// policy-evaluator: typed struct fields, `Option` fields that accept a missing key or `null`,
// unknown keys ignored, duplicate struct fields rejected, integers range-checked (u16), and error
// texts shaped like serde's (`invalid type: string "x", expected a boolean at line 1 column 20`).
//
// Why not JSON.parse: it cannot tell `422` from `422.0`, silently keeps the last duplicate key, and
// gives no serde-like positions. Known gap: serde streams and would report a type error that
// precedes a later syntax error; this reader reports the syntax error (both reject the response).

export type JsonNode =
  | { kind: "null"; start: number; end: number }
  | { kind: "bool"; value: boolean; start: number; end: number }
  | { kind: "number"; text: string; start: number; end: number }
  | { kind: "string"; value: string; start: number; end: number }
  | { kind: "array"; items: JsonNode[]; start: number; end: number }
  | { kind: "object"; entries: { key: string; keyEnd: number; value: JsonNode }[]; start: number; end: number };

export class SerdeError extends Error {}

const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** `line L column C` for a (exclusive) character offset, counted like serde_json. */
function position(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  // every offset the reader reports is at most the text's length
  for (let i = 0; i < offset; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  return `line ${line} column ${offset - lineStart}`;
}

class Reader {
  private i = 0;
  constructor(private readonly text: string) {}

  fail(message: string, at: number): never {
    throw new SerdeError(`${message} at ${position(this.text, at)}`);
  }

  private skipWhitespace(): void {
    while (this.i < this.text.length && " \t\n\r".includes(this.text[this.i])) this.i++;
  }

  document(): JsonNode {
    const node = this.value("value");
    this.skipWhitespace();
    if (this.i < this.text.length) this.fail("trailing characters", this.i + 1);
    return node;
  }

  private value(context: string): JsonNode {
    this.skipWhitespace();
    const start = this.i;
    const c = this.text[this.i];
    if (c === undefined) this.fail(`EOF while parsing ${context === "value" ? "a value" : context}`, this.i);
    if (c === "{") return this.object(start);
    if (c === "[") return this.array(start);
    if (c === '"') return { kind: "string", value: this.string(), start, end: this.i };
    for (const [word, node] of [
      ["null", { kind: "null" }],
      ["true", { kind: "bool", value: true }],
      ["false", { kind: "bool", value: false }],
    ] as const) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return { ...node, start, end: this.i } as JsonNode;
      }
    }
    NUMBER_RE.lastIndex = this.i;
    const m = NUMBER_RE.exec(this.text);
    if (m) {
      this.i += m[0].length;
      return { kind: "number", text: m[0], start, end: this.i };
    }
    return this.fail("expected value", this.i + 1);
  }

  private string(): string {
    const start = this.i;
    this.i++; // opening quote
    let closed = false;
    while (this.i < this.text.length) {
      const ch = this.text.charCodeAt(this.i);
      if (ch === 0x22) {
        this.i++;
        closed = true;
        break;
      }
      if (ch < 0x20) this.fail("control character (\\u0000-\\u001F) found while parsing a string", this.i + 1);
      this.i += ch === 0x5c ? 2 : 1;
    }
    if (!closed) this.fail("EOF while parsing a string", this.text.length);
    try {
      return JSON.parse(this.text.slice(start, this.i)) as string;
    } catch {
      return this.fail("invalid escape", this.i);
    }
  }

  private array(start: number): JsonNode {
    this.i++;
    const items: JsonNode[] = [];
    this.skipWhitespace();
    if (this.text[this.i] === "]") {
      this.i++;
      return { kind: "array", items, start, end: this.i };
    }
    for (;;) {
      items.push(this.value("a list"));
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c === undefined) this.fail("EOF while parsing a list", this.i);
      this.i++;
      if (c === "]") return { kind: "array", items, start, end: this.i };
      if (c !== ",") this.fail("expected `,` or `]`", this.i);
    }
  }

  private object(start: number): JsonNode {
    this.i++;
    const entries: { key: string; keyEnd: number; value: JsonNode }[] = [];
    this.skipWhitespace();
    if (this.text[this.i] === "}") {
      this.i++;
      return { kind: "object", entries, start, end: this.i };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.i] === undefined) this.fail("EOF while parsing an object", this.i);
      if (this.text[this.i] !== '"') this.fail("key must be a string", this.i + 1);
      const key = this.string();
      const keyEnd = this.i;
      this.skipWhitespace();
      if (this.text[this.i] === undefined) this.fail("EOF while parsing an object", this.i);
      if (this.text[this.i] !== ":") this.fail("expected `:`", this.i + 1);
      this.i++;
      entries.push({ key, keyEnd, value: this.value("an object") });
      this.skipWhitespace();
      const c = this.text[this.i];
      if (c === undefined) this.fail("EOF while parsing an object", this.i);
      this.i++;
      if (c === "}") return { kind: "object", entries, start, end: this.i };
      if (c !== ",") this.fail("expected `,` or `}`", this.i);
    }
  }
}

/** Parses JSON text into positioned nodes; throws SerdeError with a serde_json-like message. */
export function parseJsonNodes(text: string): JsonNode {
  return new Reader(text).document();
}

/** Plain JS value of a node (a `serde_json::Value`). Numbers lose precision beyond 2^53, as in JS. */
export function nodeToValue(node: JsonNode): unknown {
  switch (node.kind) {
    case "null":
      return null;
    case "bool":
      return node.value;
    case "number":
      return Number(node.text);
    case "string":
      return node.value;
    case "array":
      return node.items.map(nodeToValue);
    case "object": {
      const out: Record<string, unknown> = {};
      for (const e of node.entries) out[e.key] = nodeToValue(e.value); // last duplicate wins, like serde_json::Map
      return out;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Typed deserialization

export type SerdeType =
  | "bool"
  | "string"
  | "u16"
  | "value"
  | { map: SerdeType }
  | { seq: SerdeType }
  | { struct: string; fields: Record<string, FieldSpec> };

export interface FieldSpec {
  type: SerdeType;
  optional?: boolean;
}

function isInteger(text: string): boolean {
  return !/[.eE]/.test(text);
}

/** serde's `Unexpected` display of a JSON value. */
function unexpected(node: JsonNode): string {
  switch (node.kind) {
    case "null":
      return "null";
    case "bool":
      return `boolean \`${node.value}\``;
    case "number": {
      if (isInteger(node.text)) return `integer \`${BigInt(node.text)}\``;
      const n = Number(node.text);
      return `floating point \`${Number.isInteger(n) ? n.toFixed(1) : String(n)}\``;
    }
    case "string":
      return `string ${JSON.stringify(node.value)}`;
    case "array":
      return "sequence";
    case "object":
      return "map";
  }
}

// "value" accepts every node, so it is never the expected type of an error
function expected(type: Exclude<SerdeType, "value">): string {
  if (type === "bool") return "a boolean";
  if (type === "string") return "a string";
  if (type === "u16") return "u16";
  if ("map" in type) return "a map";
  if ("seq" in type) return "a sequence";
  return `struct ${type.struct}`;
}

/** Where serde reports a type error: after a scalar, at the opening bracket of a container. */
function errorOffset(node: JsonNode): number {
  return node.kind === "array" || node.kind === "object" ? node.start + 1 : node.end;
}

class Deserializer {
  constructor(private readonly text: string) {}

  private fail(message: string, at: number): never {
    throw new SerdeError(`${message} at ${position(this.text, at)}`);
  }

  private invalidType(node: JsonNode, type: Exclude<SerdeType, "value">): never {
    return this.fail(`invalid type: ${unexpected(node)}, expected ${expected(type)}`, errorOffset(node));
  }

  read(node: JsonNode, type: SerdeType): unknown {
    if (type === "value") return nodeToValue(node);
    if (type === "bool") {
      if (node.kind !== "bool") this.invalidType(node, type);
      return node.value;
    }
    if (type === "string") {
      if (node.kind !== "string") this.invalidType(node, type);
      return node.value;
    }
    if (type === "u16") return this.readU16(node);
    if ("seq" in type) {
      if (node.kind !== "array") this.invalidType(node, type);
      return node.items.map((item) => this.read(item, type.seq));
    }
    if ("map" in type) {
      if (node.kind !== "object") this.invalidType(node, type);
      const out: Record<string, unknown> = {};
      for (const e of node.entries) out[e.key] = this.read(e.value, type.map);
      return out;
    }
    return this.readStruct(node, type);
  }

  private readU16(node: JsonNode): number {
    if (node.kind !== "number" || !isInteger(node.text)) this.invalidType(node, "u16");
    const n = BigInt(node.text);
    if (n < 0n || n > 65535n) this.fail(`invalid value: integer \`${n}\`, expected u16`, node.end);
    return Number(n);
  }

  private readStruct(
    node: JsonNode,
    type: { struct: string; fields: Record<string, FieldSpec> },
  ): Record<string, unknown> {
    if (node.kind !== "object") this.invalidType(node, type);
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const e of node.entries) {
      const spec = Object.prototype.hasOwnProperty.call(type.fields, e.key) ? type.fields[e.key] : undefined;
      if (!spec) continue; // unknown keys are ignored (no deny_unknown_fields)
      if (seen.has(e.key)) this.fail(`duplicate field \`${e.key}\``, e.keyEnd);
      seen.add(e.key);
      out[e.key] = spec.optional && e.value.kind === "null" ? null : this.read(e.value, spec.type);
    }
    for (const [name, spec] of Object.entries(type.fields)) {
      if (seen.has(name)) continue;
      if (!spec.optional) this.fail(`missing field \`${name}\``, node.end);
      out[name] = null;
    }
    return out;
  }
}

/** Deserializes `text` as `type`, throwing SerdeError with serde_json's wording on any mismatch. */
export function deserialize<T>(text: string, type: SerdeType): T {
  const node = parseJsonNodes(text);
  return new Deserializer(text).read(node, type) as T;
}

// ---------------------------------------------------------------------------------------------
// Writing JSON as policy-server does (docs/decisions.md, "Payload bytes"): the host holds every
// document as a `serde_json::Value` without `preserve_order`, so objects are written with keys in
// byte order, a number keeps its serde kind (u64 / i64 / f64) and floats use serde_json's
// shortest round-trip form.

/** A number as serde_json's parser classifies it (default features, no `float_roundtrip`). */
export type SerdeNumber = { kind: "u64" | "i64"; value: bigint } | { kind: "f64"; value: number };

const U64_MAX = (1n << 64n) - 1n;
const I32_MAX = 2147483647;
// serde_json's power-of-ten table holds 1e0 … 1e308 as f64 literals
const POW10: number[] = Array.from({ length: 309 }, (_, i) => Number(`1e${i}`));

/**
 * Classifies JSON number text the way serde_json's parser does: an integer stays u64 (or i64 when
 * negative) unless it overflows; `-0`, fractions, exponents and overflowing integers become f64,
 * computed as serde_json computes them (the significand's first 64 bits as f64, then one multiply or
 * divide by a power of ten). Throws SerdeError("number out of range") where serde_json does.
 */
export function serdeNumber(text: string): SerdeNumber {
  let i = 0;
  const positive = text[0] !== "-";
  if (!positive) i++;
  let sig = 0n;
  let exponent = 0;
  let overflowed = false;
  let isFloat = false;
  const digit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
  const wouldOverflow = (d: bigint): boolean => sig * 10n + d > U64_MAX;
  for (; digit(text[i]); i++) {
    const d = BigInt(text.charCodeAt(i) - 48);
    if (overflowed || wouldOverflow(d)) {
      overflowed = true;
      isFloat = true;
      exponent++;
      continue;
    } // digits past u64 only scale
    sig = sig * 10n + d;
  }
  if (text[i] === ".") {
    isFloat = true;
    i++;
    let ignoreRest = false;
    for (; digit(text[i]); i++) {
      const d = BigInt(text.charCodeAt(i) - 48);
      if (ignoreRest || wouldOverflow(d)) {
        ignoreRest = true;
        continue;
      } // the rest of the fraction is dropped
      sig = sig * 10n + d;
      exponent--;
    }
  }
  if (text[i] === "e" || text[i] === "E") {
    isFloat = true;
    i++;
    let positiveExp = true;
    if (text[i] === "+" || text[i] === "-") {
      positiveExp = text[i] === "+";
      i++;
    }
    // serde_json stops at an exponent past i32 (out of range unless the significand is 0 or the
    // exponent negative, then a signed zero); a JS number does not overflow there, and saturating it
    // below gives those same answers through the loop at the end
    let exp = 0;
    for (; digit(text[i]); i++) exp = exp * 10 + (text.charCodeAt(i) - 48);
    exponent = Math.max(-2147483648, Math.min(I32_MAX, positiveExp ? exponent + exp : exponent - exp));
  }
  if (!isFloat) {
    if (positive) return { kind: "u64", value: sig };
    if (sig === 0n || sig > 1n << 63n) return { kind: "f64", value: -Number(sig) };
    return { kind: "i64", value: -sig };
  }
  let f = Number(sig);
  for (;;) {
    const pow = POW10[Math.abs(exponent)];
    if (pow !== undefined) {
      if (exponent >= 0) {
        f *= pow;
        if (!Number.isFinite(f)) throw new SerdeError("number out of range");
      } else f /= pow;
      break;
    }
    if (f === 0) break;
    if (exponent >= 0) throw new SerdeError("number out of range");
    f /= 1e308;
    exponent += 308;
  }
  return { kind: "f64", value: positive ? f : -f };
}

/**
 * serde_json's text for a finite f64 (zmij, the formatter serde_json uses): shortest round-trip
 * digits; plain notation when the decimal exponent is in -5..=15 (`256.0`, `0.00001`,
 * `1000000000000000.0`), otherwise `d.ddde±X` (`1e+16`, `1.5e-7`); `-0.0` keeps its sign.
 * Non-finite values are written as `null`, as `serde_json::to_value` does.
 */
export function formatF64(v: number): string {
  if (!Number.isFinite(v)) return "null";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  const sign = v < 0 ? "-" : "";
  // toExponential() without digits gives the shortest round-trip digits, like zmij
  const [mantissa, expText] = Math.abs(v).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const e = Number(expText);
  const n = digits.length;
  if (e >= -5 && e <= 15) {
    if (n - 1 <= e) return `${sign}${digits}${"0".repeat(e - (n - 1))}.0`;
    if (e >= 0) return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
    return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  }
  return `${sign}${digits[0]}${n > 1 ? "." + digits.slice(1) : ""}e${e >= 0 ? "+" : "-"}${Math.abs(e)}`;
}

/** serde_json's text for number text read from a document (`256.0` stays `256.0`, `2.56e2` → `256.0`). */
export function writeNumberText(text: string): string {
  const n = serdeNumber(text);
  return n.kind === "f64" ? formatF64(n.value) : n.value.toString();
}

/** serde_json's string escaping: `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other C0 controls as `\u00xx`; nothing else. */
export function writeString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
      out += s[i];
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += "\\\\";
        break;
      case 0x08:
        out += "\\b";
        break;
      case 0x0c:
        out += "\\f";
        break;
      case 0x0a:
        out += "\\n";
        break;
      case 0x0d:
        out += "\\r";
        break;
      case 0x09:
        out += "\\t";
        break;
      default:
        out += "\\u00" + c.toString(16).padStart(2, "0");
    }
  }
  return out + '"';
}

/** BTreeMap<String, _> order: by UTF-8 bytes (differs from UTF-16 order above U+D7FF). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Writes a parsed document as serde_json writes the `Value` it reads (duplicate keys: the last wins). */
export function writeNode(node: JsonNode): string {
  switch (node.kind) {
    case "null":
      return "null";
    case "bool":
      return node.value ? "true" : "false";
    case "number":
      return writeNumberText(node.text);
    case "string":
      return writeString(node.value);
    case "array":
      return `[${node.items.map(writeNode).join(",")}]`;
    case "object": {
      const last = new Map<string, JsonNode>();
      for (const e of node.entries) last.set(e.key, e.value);
      const keys = [...last.keys()].sort(compareKeys);
      return `{${keys.map((k) => `${writeString(k)}:${writeNode(last.get(k)!)}`).join(",")}}`;
    }
  }
}

// Plain JS values lose the text of their numbers; `valueFromNode` remembers, for each object and
// array it builds, the node it came from, so `serdeJson` can still write `256.0` as `256.0`. A
// number's text is used only while the value still equals it, so a value changed after parsing is
// written as it is now, never from stale text.
const sourceNodes = new WeakMap<object, JsonNode>();

/** `nodeToValue`, remembering each container's node for `serdeJson`. */
export function valueFromNode(node: JsonNode): unknown {
  switch (node.kind) {
    case "array": {
      const out = node.items.map(valueFromNode);
      sourceNodes.set(out, node);
      return out;
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const e of node.entries) out[e.key] = valueFromNode(e.value);
      sourceNodes.set(out, node);
      return out;
    }
    default:
      return nodeToValue(node);
  }
}

/** The source node of member `key` of `obj` when `obj` was built by `valueFromNode` (the last
 *  occurrence, as serde_json keeps it): for writing a member of an object that is itself written
 *  piece by piece (`dynamicObjectJson`) with its number text. */
export function memberSourceNode(obj: object, key: string): JsonNode | undefined {
  const source = sourceNodes.get(obj);
  if (source?.kind !== "object") return undefined;
  for (let i = source.entries.length - 1; i >= 0; i--)
    if (source.entries[i].key === key) return source.entries[i].value;
  return undefined;
}

/**
 * A plain value written as serde_json writes the equivalent `Value`: numbers inside containers built
 * by `valueFromNode` keep their source text (while unchanged); other numbers are integers when they
 * are safe integers (and not -0), floats otherwise; `undefined` members are skipped.
 */
export function serdeJson(value: unknown, node?: JsonNode): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return writeString(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (node?.kind === "number" && Number(node.text) === value) return writeNumberText(node.text);
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : formatF64(value);
  }
  // what is left is an object or an array: the values come from JSON and YAML readers (no functions)
  const source = sourceNodes.get(value as object) ?? node;
  if (Array.isArray(value)) {
    const items = source?.kind === "array" ? source.items : [];
    // an `undefined` item is written as null, by the first line
    return `[${value.map((v, i) => serdeJson(v, items[i])).join(",")}]`;
  }
  const members = new Map<string, JsonNode>();
  if (source?.kind === "object") for (const e of source.entries) members.set(e.key, e.value);
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => compareKeys(a, b));
  return `{${entries.map(([k, v]) => `${writeString(k)}:${serdeJson(v, members.get(k))}`).join(",")}}`;
}
