// asc transform of the production build: the project's string literals leave linear memory.
//
// AssemblyScript stores every literal as a static UTF-16 object (20-byte header, 16-byte aligned)
// in an active data segment, which V8 copies into fresh memory on every instantiation (what
// policy-server does per request); start-up grows with the 4 KiB pages that data covers
// (docs/benchmarks.md). Here every literal, and every read of a top-level string constant,
// becomes a call of its accessor `__cw_t<n>()`, which calls `__cw_text(slot)` (slots are given to
// the texts in use after compiling, see textCall and afterCompile). The texts travel encoded
// against a dictionary of shared pieces (texts-dictionary.mjs) in one passive data segment that
// tools/wasm/texts.ts adds after compiling; on its first use a text is copied out of it
// (`memory.init`), expanded to a string below `--memoryBase` and remembered there, so the
// per-call heap reset never touches it. A text never used is never copied.
//
// Left alone: the empty string, decorator arguments, import/export paths, initialisers of static
// fields and of top-level variables other than string constants (they run in `_start`, which must
// not write memory), constants whose name a local or parameter also uses (a read might be the
// local's), the standard library and as-pect specs.
import * as fs from "node:fs";
import binaryen from "binaryen";
import { CommonFlags, DecoratorKind, LiteralKind, Node, NodeKind, SourceKind } from "assemblyscript";
import { choosePieces, encodeDictionary, encodeTexts, TEXT_GROUP } from "./texts-dictionary.mjs";

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
// the generated globals afterCompile gives their values, and their names in the module
const LAYOUT = {
  next: "cwNext",
  scratch: "cwScratch",
  metaBytes: "cwMetaBytes",
  wide: "cwWide",
  src: "cwSrc",
  header: "cwTextHeader",
};
// functions that read an object's class id (the word 8 bytes before it): the runtime's, and the
// per-class `instanceof` helpers asc generates; when one of them is compiled, a text keeps that
// word too
const CLASS_ID_READERS = /^(~lib\/rt\/__instanceof|~lib\/rt\/__typeinfo|~instanceof\||~anyinstanceof\|)/;
// the scratch holds one entry of the table: a u16 offset and up to TEXT_GROUP two-byte lengths
const SCRATCH_BYTES = (2 + TEXT_GROUP * 2 + 15) & ~15;
const GENERATED_INTERNAL = GENERATED_PATH.replace(/\.ts$/, "");
const ACCESSOR = new RegExp(`^${GENERATED_INTERNAL}/__cw_t(\\d+)$`);

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

/** A read of a text is a call of its own accessor, `__cw_t<slot>()`, which calls `__cw_text(slot)`:
 *  asc compiles only the accessors something reads, so after compiling the compiled ones are the
 *  texts in use, and each accessor's slot can be renumbered by replacing its one-call body
 *  (afterCompile). Each accessor is inlined again by the optimiser. */
function textCall(range, text, table) {
  const accessor = Node.createIdentifierExpression(`__cw_t${table.slotOf(text)}`, range);
  return Node.createCallExpression(accessor, null, [], range);
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

function generate(texts, dictionary) {
  // Laid out so that the texts one evaluation uses share as few 4 KiB pages as possible (each page a
  // fresh instance writes is a page fault): u16 cells (every address here is below 64 KiB), a
  // scratch for an entry of the table, a room for one text's encoded bytes, then the strings
  // packed in the order they are first used, each expanded from its encoded bytes
  // (texts-dictionary.mjs) straight to UTF-16.
  // The cells, the scratch and the table's size depend on how many texts are in use, known only
  // after compiling: they are globals whose initial values afterCompile sets (never written
  // afterwards, so the optimiser folds them back into constants).
  const accessors = texts.map((_, slot) => `@global\nfunction __cw_t${slot}(): string { return __cw_text(${slot}); }`);
  return `// @ts-nocheck
// Generated by tools/wasm/texts-transform.mjs (${texts.length} texts); see there.
@external("${COPY_IMPORT.module}", "${COPY_IMPORT.name}")
declare function __cw_texts_copy(dst: usize, offset: u32, length: u32): void;

// the next free byte of the strings region (a wasm global: the heap reset leaves it alone)
let ${LAYOUT.next}: usize = 0;
// the scratch for an entry of the table, the table's size and whether its lengths take two bytes
// (set after compiling)
let ${LAYOUT.scratch}: usize = 0;
let ${LAYOUT.metaBytes}: u32 = 0;
let ${LAYOUT.wide}: bool = false;
// where a text's encoded bytes are copied before they are expanded (room for the longest)
let ${LAYOUT.src}: usize = 0;
// the bytes of a text's header: 4 (its byte length) or 8 (its class id too; set after compiling)
let ${LAYOUT.header}: usize = 8;
// the dictionary's pieces, read in place (texts-dictionary.mjs)
const __cw_dictionary: usize = memory.data<u8>([${[...dictionary].join(",")}], 2);

@global
function __cw_text(slot: i32): string {
  const cell = <usize>${TEXTS_LOW} + (<usize>slot << 1);
  const ready = load<u16>(cell);
  if (ready != 0) return changetype<string>(<usize>ready);
  return __cw_materialize(slot, cell);
}

function __cw_materialize(slot: i32, cell: usize): string {
  // Packed: each text right after the one before, 2-aligned as its UTF-16 units need (static
  // strings are never freed, so the allocator's 16-byte alignment buys nothing here; 4-aligned,
  // the padding put cachebackend-validator's texts 52 bytes onto a second page). A header read
  // at a 2-aligned address is a misaligned load, which wasm defines.
  // Of the 20-byte header a static string carries (block size, two GC words, class id, byte
  // length) only the byte length is read, at the string's address - 4 (\`String#length\`): the
  // block size only by __free/__renew, which no text reaches (strings are immutable, texts live
  // below the heap), the GC words by no one (no collector), the class id only by \`instanceof\`
  // and \`__typeinfo\`, which are compiled into no policy (when they are, afterCompile keeps the
  // id: an 8-byte header). A text's unwritten header words overlap the tail of the text before
  // it. 16 bytes a text fewer than a static string on the pages an evaluation writes, 4 fewer
  // than with the class id (issue 8).
  const p = ${LAYOUT.next} + ${LAYOUT.header};
  const end = __cw_expand(slot, p);
  if (${LAYOUT.header} == 8) store<u32>(p - 8, idof<string>());
  store<u32>(p - 4, <u32>(end - p));
  ${LAYOUT.next} = end;
  store<u16>(cell, <u16>p);
  return changetype<string>(p);
}

// Writes the UTF-16 units of text \`slot\` at \`dst\` and returns where they end. Its encoded bytes
// are copied to a room below the strings, sized for the longest text (afterCompile): on the page
// the texts write anyway, and without linking the allocator's alloc/free pair into this path
// (−11 to −167 bytes a policy; no difference in time measured).
function __cw_expand(slot: i32, dst: usize): usize {
  // the slot's entry up to its own length: the group's first offset plus the lengths before it
  const meta = ${LAYOUT.scratch};
  const shift: u32 = ${LAYOUT.wide} ? 1 : 0;
  const r = <u32>slot & ${TEXT_GROUP - 1};
  const lengths = meta + 2;
  __cw_texts_copy(meta, (<u32>slot >>> ${Math.log2(TEXT_GROUP)}) * (2 + (${TEXT_GROUP} << shift)), 2 + ((r + 1) << shift));
  let offset = <u32>load<u16>(meta);
  for (let k: u32 = 0; k < r; k++)
    offset += ${LAYOUT.wide} ? <u32>load<u16>(lengths + (<usize>k << 1)) : <u32>load<u8>(lengths + <usize>k);
  const n = ${LAYOUT.wide} ? <usize>load<u16>(lengths + (<usize>r << 1)) : <usize>load<u8>(lengths + <usize>r);
  const src = ${LAYOUT.src};
  __cw_texts_copy(src, ${LAYOUT.metaBytes} + offset, <u32>n);
  return __cw_expand_bytes(src, n, dst);
}

// see tools/wasm/texts-dictionary.mjs for the encoding
function __cw_expand_bytes(src: usize, n: usize, dst: usize): usize {
  for (let i: usize = 0; i < n; i++) {
    let c = <u32>load<u8>(src + i);
    if (c >= 0x80) {
      const entry = __cw_dictionary + ((<usize>c - 0x80) << 1);
      const start = <usize>load<u16>(entry);
      dst = __cw_expand_bytes(__cw_dictionary + start, <usize>load<u16>(entry, 2) - start, dst);
      continue;
    }
    if (c == 1) {
      c = <u32>load<u16>(src + i + 1);
      i += 2;
    }
    store<u16>(dst, <u16>c);
    dst += 2;
  }
  return dst;
}

${accessors.join("\n")}
`;
}

/** gives the generated global `name` the initial value `value` (an i32) */
function setGlobal(module, name, value) {
  const internal = `${GENERATED_INTERNAL}/${name}`;
  const info = binaryen.getGlobalInfo(module.getGlobal(internal));
  module.removeGlobal(internal);
  module.addGlobal(internal, info.type, info.mutable, module.i32.const(value));
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
    // the texts in use, their slots and the layout are known after compiling (afterCompile)
    fs.writeFileSync(out, encodeTexts([], []).segment);
    this.texts = table.texts;
    if (table.texts.length === 0) return;
    // the pieces are chosen over every text (which are in use is known only after compiling)
    this.pieces = choosePieces(table.texts).pieces;
    parser.parseFile(generate(table.texts, encodeDictionary(this.pieces)), GENERATED_PATH, true);
  }

  afterCompile(module) {
    if (!this.texts || this.texts.length === 0) return;
    // the accessors asc compiled are the texts something reads; they get slots 0..n-1 in the
    // order the texts were first met, so the cells and the table hold no entry for an unused text
    const compiled = [];
    for (let i = 0; i < module.getNumFunctions(); i++) {
      const name = binaryen.getFunctionInfo(module.getFunctionByIndex(i)).name;
      const m = ACCESSOR.exec(name);
      if (m) compiled.push({ name, slot: Number(m[1]) });
    }
    compiled.sort((a, b) => a.slot - b.slot);
    // no text in use: `__cw_text` and its globals were not compiled either (the empty segment
    // written by afterParse stands)
    if (compiled.length === 0) return;
    // before optimisation every text read is still a call of its accessor, and only accessors call
    // `__cw_text`: anything else would read a slot the renumbering does not know (refuse the build)
    const text = module.emitText();
    const direct = text.match(/\(call \$assembly\/__generated__\/texts\/__cw_text\s/g)?.length ?? 0;
    if (direct !== compiled.length)
      throw new Error(`texts-transform: ${direct - compiled.length} reads of a text do not go through its accessor`);
    const textFn = `${GENERATED_INTERNAL}/__cw_text`;
    compiled.forEach(({ name }, rank) => {
      module.removeFunction(name);
      module.addFunction(
        name,
        binaryen.none,
        binaryen.i32,
        [],
        module.call(textFn, [module.i32.const(rank)], binaryen.i32),
      );
    });
    const used = compiled.map(({ slot }) => this.texts[slot]);
    const { segment, tableBytes, wide, longest } = encodeTexts(used, this.pieces);
    const scratch = (TEXTS_LOW + used.length * 2 + 15) & ~15;
    const src = scratch + SCRATCH_BYTES;
    const strings = src + ((longest + 3) & ~3);
    // every text expanded: room for its UTF-16 plus its header, packed
    let header = 4;
    for (let i = 0; i < module.getNumFunctions(); i++)
      if (CLASS_ID_READERS.test(binaryen.getFunctionInfo(module.getFunctionByIndex(i)).name)) header = 8;
    const need = used.reduce((n, t) => n + header + t.length * 2, 0);
    if (strings + need > MEMORY_BASE)
      throw new Error(
        `texts-transform: ${used.length} texts need ${strings + need} bytes below --memoryBase ${MEMORY_BASE}`,
      );
    setGlobal(module, LAYOUT.next, strings);
    setGlobal(module, LAYOUT.scratch, scratch);
    setGlobal(module, LAYOUT.metaBytes, tableBytes);
    setGlobal(module, LAYOUT.wide, wide ? 1 : 0);
    setGlobal(module, LAYOUT.src, src);
    setGlobal(module, LAYOUT.header, header);
    fs.writeFileSync(process.env[TEXTS_FILE_ENV], segment);
  }
}
