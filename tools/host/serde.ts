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
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) { line++; lineStart = i + 1; }
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
    for (const [word, node] of [["null", { kind: "null" }], ["true", { kind: "bool", value: true }], ["false", { kind: "bool", value: false }]] as const) {
      if (this.text.startsWith(word, this.i)) { this.i += word.length; return { ...node, start, end: this.i } as JsonNode; }
    }
    NUMBER_RE.lastIndex = this.i;
    const m = NUMBER_RE.exec(this.text);
    if (m) { this.i += m[0].length; return { kind: "number", text: m[0], start, end: this.i }; }
    return this.fail("expected value", this.i + 1);
  }

  private string(): string {
    const start = this.i;
    this.i++; // opening quote
    let closed = false;
    while (this.i < this.text.length) {
      const ch = this.text.charCodeAt(this.i);
      if (ch === 0x22) { this.i++; closed = true; break; }
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
    if (this.text[this.i] === "]") { this.i++; return { kind: "array", items, start, end: this.i }; }
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
    if (this.text[this.i] === "}") { this.i++; return { kind: "object", entries, start, end: this.i }; }
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
    case "null": return null;
    case "bool": return node.value;
    case "number": return Number(node.text);
    case "string": return node.value;
    case "array": return node.items.map(nodeToValue);
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
  | "bool" | "string" | "u16" | "value"
  | { map: SerdeType }
  | { seq: SerdeType }
  | { struct: string; fields: Record<string, FieldSpec> };

export interface FieldSpec { type: SerdeType; optional?: boolean }

function isInteger(text: string): boolean { return !/[.eE]/.test(text); }

/** serde's `Unexpected` display of a JSON value. */
function unexpected(node: JsonNode): string {
  switch (node.kind) {
    case "null": return "null";
    case "bool": return `boolean \`${node.value}\``;
    case "number": {
      if (isInteger(node.text)) return `integer \`${BigInt(node.text)}\``;
      const n = Number(node.text);
      return `floating point \`${Number.isInteger(n) ? n.toFixed(1) : String(n)}\``;
    }
    case "string": return `string ${JSON.stringify(node.value)}`;
    case "array": return "sequence";
    case "object": return "map";
  }
}

function expected(type: SerdeType): string {
  if (type === "bool") return "a boolean";
  if (type === "string") return "a string";
  if (type === "u16") return "u16";
  if (type === "value") return "any valid JSON value";
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

  private invalidType(node: JsonNode, type: SerdeType): never {
    return this.fail(`invalid type: ${unexpected(node)}, expected ${expected(type)}`, errorOffset(node));
  }

  read(node: JsonNode, type: SerdeType): unknown {
    if (type === "value") return nodeToValue(node);
    if (type === "bool") { if (node.kind !== "bool") this.invalidType(node, type); return node.value; }
    if (type === "string") { if (node.kind !== "string") this.invalidType(node, type); return node.value; }
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

  private readStruct(node: JsonNode, type: { struct: string; fields: Record<string, FieldSpec> }): Record<string, unknown> {
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
