// asc transform of the production build: the project's string literals leave linear memory.
//
// AssemblyScript stores every literal as a static UTF-16 object (20-byte header, 16-byte aligned)
// in an active data segment, which V8 copies into fresh memory on every instantiation (what
// policy-server does per request); start-up grows with the 4 KiB pages that data covers
// (docs/benchmarks.md). Here every literal, and every read of a top-level string constant,
// becomes `__cw_text(slot)`. The texts travel as UTF-8 in one passive data segment that
// tools/wasm/texts.ts adds after compiling; on its first use a text is copied out of it
// (`memory.init`), inflated to a string below `--memoryBase` and remembered there, so the
// per-call heap reset never touches it. A text never used is never copied.
//
// Left alone: the empty string, decorator arguments, import/export paths, initialisers of static
// fields and of top-level variables other than string constants (they run in `_start`, which must
// not write memory), constants whose name a local or parameter also uses (a read might be the
// local's), the standard library and as-pect specs.
import * as fs from "node:fs";
import { CommonFlags, DecoratorKind, LiteralKind, Node, NodeKind, SourceKind } from "assemblyscript";

/** where the generated AssemblyScript is parsed from (never written to disk) */
const GENERATED_PATH = "assembly/__generated__/texts.ts";
// shared with tools/wasm/texts.ts: the import the generated code calls (which that step turns into
// `memory.init`), the variable naming the file the segment is written to, and the asc
// `--memoryBase` the build passes ([TEXTS_LOW, memoryBase) is the texts' own region)
const CONTRACT = JSON.parse(fs.readFileSync(new URL("./texts-contract.json", import.meta.url), "utf8"));
const COPY_IMPORT = CONTRACT.copyImport;
const TEXTS_FILE_ENV = CONTRACT.textsFileEnv;
const MEMORY_BASE = CONTRACT.memoryBase;
// the cells start right above the null address; nothing else lives below the memory base
const TEXTS_LOW = 16;

// keys whose child is a name or a type, never an expression that reads a constant
const NOT_AN_EXPRESSION = new Set([
  "range",
  "parent",
  "decorators",
  "name",
  "names",
  "property",
  "label",
  "type",
  "returnType",
  "typeArguments",
  "typeParameters",
  "implementsTypes",
  "extendsType",
]);

/** calls `visit(child, replace)` for each direct AST child of `node` under a key not in `skip`;
 *  `replace(next)` puts `next` in the child's place */
function forEachChild(node, skip, visit) {
  for (const key of Object.keys(node)) {
    if (skip.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child = value[i];
        if (child && typeof child === "object" && typeof child.kind === "number")
          visit(child, (next) => {
            value[i] = next;
          });
      }
    } else if (value && typeof value === "object" && typeof value.kind === "number") {
      visit(value, (next) => {
        node[key] = next;
      });
    }
  }
}

const NOT_A_CHILD = new Set(["range", "parent"]);

function isStringLiteral(node) {
  return !!node && node.kind === NodeKind.Literal && node.literalKind === LiteralKind.String;
}

class TextTable {
  constructor() {
    this.slots = new Map();
    this.texts = [];
  }
  slotOf(text) {
    let slot = this.slots.get(text);
    if (slot === undefined) {
      slot = this.texts.length;
      this.slots.set(text, slot);
      this.texts.push(text);
    }
    return slot;
  }
}

function textCall(range, text, table) {
  // eslint-disable-next-line no-undef -- i64_new is the compiler's own global
  const slot = Node.createIntegerLiteralExpression(i64_new(table.slotOf(text), 0), range);
  return Node.createCallExpression(Node.createIdentifierExpression("__cw_text", range), null, [slot], range);
}

/** Replaces, below `node` and in place, every string literal and every read of a top-level string
 *  constant (`constants`: name -> text) with a `__cw_text` call. */
function rewrite(node, table, constants, seen) {
  if (!node || typeof node !== "object" || seen.has(node)) return;
  seen.add(node);
  switch (node.kind) {
    case NodeKind.Decorator:
    case NodeKind.Import:
    case NodeKind.Export:
    case NodeKind.ExportImport:
    case NodeKind.ExportDefault:
    case NodeKind.ImportDeclaration:
    case NodeKind.ExportMember:
      return;
    case NodeKind.Variable:
      if (node.cwTopLevel) return; // read where used (constants) or run in `_start` (the rest)
      break;
    case NodeKind.FieldDeclaration:
      if ((node.flags & CommonFlags.Static) !== 0) return;
      break;
    default:
      break;
  }
  const replacement = (child) => {
    if (isStringLiteral(child)) return child.value.length > 0 ? textCall(child.range, child.value, table) : null;
    if (child.kind === NodeKind.Identifier && constants.has(child.text))
      return textCall(child.range, constants.get(child.text), table);
    return null;
  };
  forEachChild(node, NOT_AN_EXPRESSION, (child, replace) => {
    const r = replacement(child);
    if (r) replace(r);
    else rewrite(child, table, constants, seen);
  });
}

/**
 * Top-level `const NAME = "text"` of every source; a name defined twice is left alone. Each such
 * constant is made `@lazy`, so once its reads are replaced nothing compiles the literal itself.
 */
function stringConstants(sources) {
  const found = new Map();
  const clashing = new Set();
  const declarations = new Map();
  for (const source of sources) {
    for (const statement of source.statements) {
      if (statement.kind !== NodeKind.Variable) continue;
      for (const d of statement.declarations) {
        if ((d.flags & CommonFlags.Const) === 0 || !isStringLiteral(d.initializer)) continue;
        const name = d.name.text;
        if (found.has(name) && found.get(name) !== d.initializer.value) clashing.add(name);
        found.set(name, d.initializer.value);
        declarations.set(name, d);
      }
    }
  }
  for (const name of clashing) found.delete(name);
  // a name also declared below the top level (a local, a parameter) could be shadowed there, and
  // reading it is then not reading the constant: such constants are left alone
  for (const source of sources) forEachInnerDeclaration(source, (name) => found.delete(name));
  for (const [name, d] of declarations) {
    if (!found.has(name) || isLazy(d.decorators)) continue;
    d.decorators = [
      ...(d.decorators ?? []),
      Node.createDecorator(Node.createIdentifierExpression("lazy", d.range), null, d.range),
    ];
  }
  return found;
}

/** calls `visit` with the name of every variable and parameter declared inside a function or class */
function forEachInnerDeclaration(source, visit) {
  const seen = new Set();
  const walk = (node, inner) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (inner && (node.kind === NodeKind.VariableDeclaration || node.kind === NodeKind.Parameter) && node.name)
      visit(node.name.text);
    const nowInner =
      inner ||
      node.kind === NodeKind.FunctionDeclaration ||
      node.kind === NodeKind.MethodDeclaration ||
      node.kind === NodeKind.ClassDeclaration ||
      node.kind === NodeKind.Function;
    forEachChild(node, NOT_A_CHILD, (child) => walk(child, nowInner));
  };
  walk(source, false);
}

function isLazy(decorators) {
  return (decorators ?? []).some((d) => d.decoratorKind === DecoratorKind.Lazy);
}

/** The passive segment: a table of u16 offsets into the UTF-8 that follows, one per slot plus one
 *  past the end, so a slot's text is [offset[slot], offset[slot + 1]) and one 4-byte copy reads
 *  both (2 bytes a slot instead of an offset and a length); a slot that no compiled code reads
 *  (`used` says) keeps its entry but no bytes. */
function encodeSegment(texts, used = () => true) {
  const bodies = texts.map((t, slot) => (used(slot) ? Buffer.from(t, "utf8") : Buffer.alloc(0)));
  const meta = Buffer.alloc((texts.length + 1) * 2);
  let offset = 0;
  bodies.forEach((b, slot) => {
    meta.writeUInt16LE(offset, slot * 2);
    offset += b.length;
    if (offset > 0xffff) throw new Error("texts-transform: the texts exceed 64 KiB");
  });
  meta.writeUInt16LE(offset, texts.length * 2);
  return {
    segment: Buffer.concat([meta, ...bodies]),
    metaBytes: meta.length,
    maxBytes: Math.max(8, ...bodies.map((b) => b.length)),
  };
}

function generate(texts, metaBytes, maxBytes) {
  // Laid out so that the texts one evaluation uses share as few 4 KiB pages as possible (each page a
  // fresh instance writes is a page fault): u16 cells (every address here is below 64 KiB), a
  // 16-byte scratch for a slot's (offset, end), then the strings packed in the order they are
  // first used. A text's UTF-8 is copied into the tail of its own string's room and inflated
  // forward in place (each unit written lies before the bytes still to read), so no scratch
  // buffer as long as the longest text is touched.
  void maxBytes;
  const cells = TEXTS_LOW;
  const scratch = (cells + texts.length * 2 + 15) & ~15;
  const strings = scratch + 16;
  // every text inflated: room for twice its UTF-8 bytes (>= its UTF-16) plus a 20-byte header, 4-aligned
  const need = texts.reduce((n, t) => n + ((20 + Buffer.byteLength(t, "utf8") * 2 + 3) & ~3) + 4, 0);
  if (strings + need > MEMORY_BASE)
    throw new Error(
      `texts-transform: ${texts.length} texts need ${strings + need} bytes below --memoryBase ${MEMORY_BASE}`,
    );
  return `// @ts-nocheck
// Generated by tools/wasm/texts-transform.mjs (${texts.length} texts); see there.
@external("${COPY_IMPORT.module}", "${COPY_IMPORT.name}")
declare function __cw_texts_copy(dst: usize, offset: u32, length: u32): void;

// the next free byte of the strings region (a wasm global: the heap reset leaves it alone)
let cwNext: usize = ${strings};

@global
function __cw_text(slot: i32): string {
  const cell = <usize>${cells} + (<usize>slot << 1);
  const ready = load<u16>(cell);
  if (ready != 0) return changetype<string>(<usize>ready);
  return __cw_materialize(slot, cell);
}

function __cw_materialize(slot: i32, cell: usize): string {
  const meta = <usize>${scratch};
  __cw_texts_copy(meta, <u32>slot << 1, 4);
  const offset = <u32>load<u16>(meta);
  const n = <i32>load<u16>(meta, 2) - <i32>offset;
  // 4-byte aligned (static strings are never freed, so the allocator's 16-byte alignment buys
  // nothing here and would leave ~8 bytes of padding per text on the pages an evaluation writes).
  // Only the header's last 8 bytes are written (see below), so a text's header overlaps the tail
  // of the text before it by 12 bytes.
  const p = (cwNext + 8 + 3) & ~3;
  // the UTF-8 goes to [p + n, p + 2n): reading byte i happens before unit u <= i is written at p + 2u
  const src = p + <usize>n;
  __cw_texts_copy(src, ${metaBytes} + offset, <u32>n);
  let i = 0;
  let u = 0;
  while (i < n) {
    let c = <u32>load<u8>(src + <usize>i);
    if (c < 0x80) { i += 1; }
    else if (c < 0xE0) { c = ((c & 0x1F) << 6) | (<u32>load<u8>(src + <usize>i + 1) & 0x3F); i += 2; }
    else if (c < 0xF0) { c = ((c & 0x0F) << 12) | ((<u32>load<u8>(src + <usize>i + 1) & 0x3F) << 6) | (<u32>load<u8>(src + <usize>i + 2) & 0x3F); i += 3; }
    else {
      const cp = ((c & 0x07) << 18) | ((<u32>load<u8>(src + <usize>i + 1) & 0x3F) << 12) | ((<u32>load<u8>(src + <usize>i + 2) & 0x3F) << 6) | (<u32>load<u8>(src + <usize>i + 3) & 0x3F);
      i += 4;
      store<u16>(p + (<usize>u << 1), <u16>(0xD800 + ((cp - 0x10000) >> 10)));
      u++;
      c = 0xDC00 + ((cp - 0x10000) & 0x3FF);
    }
    store<u16>(p + (<usize>u << 1), <u16>c);
    u++;
  }
  // Of the 20-byte header a static string carries (block size, two GC words, class id, byte
  // length) only the class id and the byte length are ever read under the stub runtime: the block
  // size only by __free/__renew, which no text reaches (strings are immutable, texts live below
  // the heap), the GC words by no one (no collector). 12 bytes a text fewer on the pages an
  // evaluation writes (lmcache-injector: 70 texts, 840 bytes, one page fewer).
  store<u32>(p - 8, idof<string>());
  store<u32>(p - 4, <u32>(u << 1));
  cwNext = p + (<usize>u << 1);
  store<u16>(cell, <u16>p);
  return changetype<string>(p);
}
`;
}

export default class CachewardenTexts {
  afterParse(parser) {
    const out = process.env[TEXTS_FILE_ENV];
    if (!out) throw new Error(`texts-transform: ${TEXTS_FILE_ENV} is not set (the build sets it)`);
    const table = new TextTable();
    const sources = parser.sources.filter((source) => {
      if (source.sourceKind !== SourceKind.User && source.sourceKind !== SourceKind.UserEntry) return false;
      const path = source.normalizedPath;
      return !path.startsWith("~lib/") && !path.includes("__tests__") && path !== GENERATED_PATH;
    });
    const constants = stringConstants(sources);
    for (const source of sources) {
      for (const statement of source.statements) if (statement.kind === NodeKind.Variable) statement.cwTopLevel = true;
      rewrite(source, table, constants, new Set());
    }
    // the layout (meta size, longest text) is fixed now; the bytes of texts no compiled code reads
    // are left out after compiling (afterCompile)
    const { segment, metaBytes, maxBytes } = encodeSegment(table.texts);
    fs.writeFileSync(out, segment);
    this.texts = table.texts;
    if (table.texts.length > 0) parser.parseFile(generate(table.texts, metaBytes, maxBytes), GENERATED_PATH, true);
  }

  afterCompile(module) {
    if (!this.texts || this.texts.length === 0) return;
    // before optimisation every read is still a direct `__cw_text(<slot>)` call with a constant
    const text = module.emitText();
    const used = new Set();
    const calls = /\(call \$assembly\/__generated__\/texts\/__cw_text\s*\(i32\.const (\d+)\)/g;
    let matched = 0;
    for (const m of text.matchAll(calls)) {
      used.add(Number(m[1]));
      matched++;
    }
    // a read whose slot is not a visible constant would find its bytes missing: refuse the build
    const all = text.match(/\(call \$assembly\/__generated__\/texts\/__cw_text\s/g)?.length ?? 0;
    if (all !== matched)
      throw new Error(`texts-transform: ${all - matched} of ${all} text reads have no constant slot`);
    fs.writeFileSync(process.env[TEXTS_FILE_ENV], encodeSegment(this.texts, (slot) => used.has(slot)).segment);
  }
}
