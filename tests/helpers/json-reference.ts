// A small JavaScript reference of the raw-span JSON DOM (docs/wasm-contract.md#json-dom), written
// independently of the AssemblyScript one: validity comes from TextDecoder(fatal) + JSON.parse + a
// depth count, nodes are eager spans, and serialization follows the same clean/dirty rule.

export type Kind = "null" | "bool" | "number" | "string" | "array" | "object";

const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The deepest container nesting of valid JSON text (strings skipped). */
export function nestingDepth(text: string): number {
  let depth = 0,
    maxDepth = 0,
    inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") maxDepth = Math.max(maxDepth, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return maxDepth;
}

/** Strict RFC 8259 over UTF-8 bytes with the DOM's default depth limit. */
export function isValidJson(bytes: Uint8Array, maxDepth = 1000): boolean {
  let text: string;
  try {
    text = utf8Strict.decode(bytes);
  } catch {
    return false;
  }
  // fail fast on nesting before JSON.parse can recurse deeply
  if (nestingDepth(text) > maxDepth) return false;
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  return true;
}

export const NUMBER_GRAMMAR = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

export class RNode {
  dirty = false;
  parent: RNode | null = null;
  items: RNode[] = [];
  /** raw key bytes between the quotes, when this node is an object member */
  key: Buffer | null = null;
  outerStart: number;
  outerEnd: number;
  constructor(
    public kind: Kind,
    public src: Buffer,
    public start: number,
    public end: number,
  ) {
    this.outerStart = start;
    this.outerEnd = end;
  }
  get text(): string {
    return this.src.subarray(this.start, this.end).toString("utf8");
  }
  get isContainer(): boolean {
    return this.kind === "array" || this.kind === "object";
  }
}

/** Builds the span tree of valid JSON bytes (recursive: callers check the depth limit first). */
export function parseSpans(src: Buffer): RNode {
  let p = 0;
  const ws = (): void => {
    while (p < src.length && " \t\n\r".includes(String.fromCharCode(src[p]))) p++;
  };
  const str = (): void => {
    p++;
    while (src[p] !== 0x22) p += src[p] === 0x5c ? 2 : 1;
    p++;
  };
  const value = (): RNode => {
    ws();
    const start = p,
      c = String.fromCharCode(src[p]);
    if (c === "{" || c === "[") {
      const node = new RNode(c === "{" ? "object" : "array", src, start, 0);
      p++;
      ws();
      while (src[p] !== (c === "{" ? 0x7d : 0x5d)) {
        let key: Buffer | null = null;
        if (c === "{") {
          const ks = p;
          str();
          key = src.subarray(ks + 1, p - 1);
          ws();
          p++;
        }
        const child = value();
        child.key = key;
        child.parent = node;
        node.items.push(child);
        ws();
        if (src[p] === 0x2c) p++;
        ws();
      }
      p++;
      node.end = node.outerEnd = p;
      return node;
    }
    if (c === '"') {
      str();
      return new RNode("string", src, start, p);
    }
    if (c === "t" || c === "n") {
      p += 4;
      return new RNode(c === "t" ? "bool" : "null", src, start, p);
    }
    if (c === "f") {
      p += 5;
      return new RNode("bool", src, start, p);
    }
    while (p < src.length && /[-+.eE0-9]/.test(String.fromCharCode(src[p]))) p++;
    return new RNode("number", src, start, p);
  };
  const root = value();
  root.outerStart = 0;
  root.outerEnd = src.length;
  return root;
}

export function parseDoc(bytes: Uint8Array): RNode | null {
  return isValidJson(bytes) ? parseSpans(Buffer.from(bytes)) : null;
}

export function decodeKey(node: RNode): string {
  return node.key === null ? "" : (JSON.parse(`"${node.key.toString("utf8")}"`) as string);
}

export function serialize(node: RNode): Buffer {
  const parts: Buffer[] = [];
  const emit = (n: RNode): void => {
    if (!n.dirty) {
      parts.push(n.src.subarray(n.outerStart, n.outerEnd));
      return;
    }
    const obj = n.kind === "object";
    parts.push(Buffer.from(obj ? "{" : "["));
    n.items.forEach((c, i) => {
      if (i > 0) parts.push(Buffer.from(","));
      if (obj) parts.push(Buffer.from('"'), c.key ?? Buffer.alloc(0), Buffer.from('":'));
      emit(c);
    });
    parts.push(Buffer.from(obj ? "}" : "]"));
  };
  emit(node);
  return Buffer.concat(parts);
}

function markDirty(n: RNode | null): void {
  for (; n !== null; n = n.parent) n.dirty = true;
}

function scalar(kind: Kind, text: string): RNode {
  const src = Buffer.from(text, "utf8");
  return new RNode(kind, src, 0, src.length);
}

/** A value spec as used by the probe guest's scripts; null when the guest would refuse it. */
export type ValueSpec = [string, ...unknown[]];

export function makeValue(spec: ValueSpec): RNode | null {
  const [tag, arg] = spec;
  switch (tag) {
    case "json": {
      const n = parseDoc(Buffer.from(arg as string, "utf8"));
      if (n) {
        n.outerStart = n.start;
        n.outerEnd = n.end;
      }
      return n;
    }
    case "str":
      return scalar("string", JSON.stringify(arg as string));
    case "units":
      return scalar("string", JSON.stringify(String.fromCharCode(...(arg as number[]))));
    case "int":
      return scalar("number", BigInt(arg as string).toString());
    case "raw":
      return NUMBER_GRAMMAR.test(arg as string) ? scalar("number", arg as string) : null;
    case "bool":
      return scalar("bool", arg ? "true" : "false");
    case "null":
      return scalar("null", "null");
    case "obj":
    case "arr": {
      const n = new RNode(tag === "obj" ? "object" : "array", Buffer.alloc(0), 0, 0);
      n.dirty = true;
      return n;
    }
    default:
      return null;
  }
}

function link(parent: RNode, child: RNode): RNode {
  child.parent = parent;
  return child;
}

// ---- the DOM operations, same contract as assembly/json ----

export function get(node: RNode, key: string): RNode | null {
  if (node.kind !== "object") return null;
  for (let i = node.items.length - 1; i >= 0; i--) if (decodeKey(node.items[i]) === key) return node.items[i];
  return null;
}

export function at(node: RNode, i: number): RNode | null {
  return node.isContainer && i >= 0 && i < node.items.length ? node.items[i] : null;
}

export function set(node: RNode, key: string, v: RNode): boolean {
  if (node.kind !== "object") return false;
  let i = node.items.length - 1;
  while (i >= 0 && decodeKey(node.items[i]) !== key) i--;
  if (i >= 0) {
    v.key = node.items[i].key;
    node.items[i] = link(node, v);
  } else {
    v.key = Buffer.from(JSON.stringify(key).slice(1, -1), "utf8");
    node.items.push(link(node, v));
  }
  markDirty(node);
  return true;
}

export function remove(node: RNode, key: string): boolean {
  if (node.kind !== "object") return false;
  const kept = node.items.filter((c) => decodeKey(c) !== key);
  if (kept.length === node.items.length) return false;
  node.items = kept;
  markDirty(node);
  return true;
}

export function push(node: RNode, v: RNode): boolean {
  if (node.kind !== "array") return false;
  node.items.push(link(node, v));
  markDirty(node);
  return true;
}

export function insert(node: RNode, i: number, v: RNode): boolean {
  if (node.kind !== "array" || i < 0 || i > node.items.length) return false;
  node.items.splice(i, 0, link(node, v));
  markDirty(node);
  return true;
}

export function removeAt(node: RNode, i: number): boolean {
  if (node.kind !== "array" || i < 0 || i >= node.items.length) return false;
  node.items.splice(i, 1);
  markDirty(node);
  return true;
}

export function replace(node: RNode, i: number, v: RNode): boolean {
  if (node.kind !== "array" || i < 0 || i >= node.items.length) return false;
  node.items[i] = link(node, v);
  markDirty(node);
  return true;
}

// ---- typed readers: [state, value text] with ReadState Ok = 2, Invalid = 3 ----

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const I64_MIN = -(2n ** 63n),
  I64_MAX = 2n ** 63n - 1n,
  U64_MAX = 2n ** 64n - 1n;

export function readString(n: RNode): [number, string] {
  if (n.kind !== "string") return [3, ""];
  const s = JSON.parse(n.text) as string;
  return LONE_SURROGATE.test(s) ? [3, ""] : [2, s];
}

export function readInt(n: RNode, unsigned: boolean): [number, string] {
  if (n.kind !== "number" || !/^-?[0-9]+$/.test(n.text)) return [3, "0"];
  const v = BigInt(n.text);
  const ok = unsigned ? v >= 0n && v <= U64_MAX : v >= I64_MIN && v <= I64_MAX;
  return ok ? [2, v.toString()] : [3, "0"];
}

export function readF64(n: RNode): [number, string] {
  if (n.kind !== "number") return [3, "0"];
  const v = Number(n.text);
  if (!Number.isFinite(v)) return [3, "0"];
  return [2, new BigUint64Array(new Float64Array([v]).buffer)[0].toString()];
}

export function readBool(n: RNode): [number, string] {
  return n.kind === "bool" ? [2, n.text] : [3, "false"];
}

// ---- semantic equality ----

/** sign, significant digits and exponent of 0.DIGITS × 10^exp; zero has no digits */
export function normalizeNumber(text: string): string {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!m) return `NaN:${text}`;
  const digits = m[2] + (m[3] ?? "");
  let exp = BigInt(m[4] ?? "0") + BigInt(m[2].length);
  const lead = digits.length - digits.replace(/^0+/, "").length;
  const sig = digits.slice(lead).replace(/0+$/, "");
  if (sig === "") return "0";
  exp -= BigInt(lead);
  return `${m[1]}0.${sig}e${exp}`;
}

export function refEquals(a: RNode, b: RNode): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "null":
      return true;
    case "bool":
      return a.text === b.text;
    case "number":
      return normalizeNumber(a.text) === normalizeNumber(b.text);
    case "string":
      return JSON.parse(a.text) === JSON.parse(b.text);
    case "array":
      return a.items.length === b.items.length && a.items.every((x, i) => refEquals(x, b.items[i]));
    default: {
      const members = (n: RNode): Map<string, RNode> => new Map(n.items.map((c) => [decodeKey(c), c]));
      const ma = members(a),
        mb = members(b);
      if (ma.size !== mb.size) return false;
      for (const [k, v] of ma) {
        const w = mb.get(k);
        if (!w || !refEquals(v, w)) return false;
      }
      return true;
    }
  }
}
