// A deliberately small WebAssembly binary reader: just enough to list sections, read function
// signatures of imports/exports and detect a start section, plus the encoder for one custom
// section. V8 (`new WebAssembly.Module`) stays the validator; this code only reads what V8's
// reflection API does not expose (signatures, the start section, section sizes).

export const METADATA_SECTION = "io.kubewarden.metadata";

export const SECTION_NAMES: Record<number, string> = {
  0: "custom",
  1: "type",
  2: "import",
  3: "function",
  4: "table",
  5: "memory",
  6: "global",
  7: "export",
  8: "start",
  9: "element",
  10: "code",
  11: "data",
  12: "datacount",
  13: "tag",
};

const VALTYPE_NAMES: Record<number, string> = {
  0x7f: "i32",
  0x7e: "i64",
  0x7d: "f32",
  0x7c: "f64",
  0x7b: "v128",
  0x70: "funcref",
  0x6f: "externref",
};

const EXTERNAL_KINDS = ["function", "table", "memory", "global", "tag"] as const;
export type ExternalKind = (typeof EXTERNAL_KINDS)[number];

export class WasmFormatError extends Error {}

export interface FuncType {
  params: string[];
  results: string[];
}
export interface Section {
  id: number;
  /** "custom" sections carry their own name; others use the standard section name */
  name: string;
  /** offset of the section id byte */
  offset: number;
  /** offset of the section payload (after the size) */
  payloadOffset: number;
  /** payload size in bytes (for a custom section: name + data) */
  size: number;
}
export interface ImportEntry {
  module: string;
  name: string;
  kind: ExternalKind;
  type?: FuncType;
}
export interface ExportEntry {
  name: string;
  kind: ExternalKind;
  index: number;
  type?: FuncType;
}
export interface WasmStructure {
  sections: Section[];
  types: FuncType[];
  imports: ImportEntry[];
  exports: ExportEntry[];
  hasStartSection: boolean;
  customSections: { name: string; size: number; data: Buffer }[];
}

/** Sequential reader over a byte buffer; every read checks bounds so truncated input is an error, not garbage. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
    readonly end = bytes.length,
  ) {}

  byte(): number {
    if (this.pos >= this.end) throw new WasmFormatError(`unexpected end of data at offset ${this.pos}`);
    return this.bytes[this.pos++];
  }

  /** unsigned LEB128, at most 5 bytes (u32) */
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift; // multiplication, not <<, so values ≥ 2^31 stay positive
      if ((b & 0x80) === 0) {
        if (result > 0xffffffff) throw new WasmFormatError(`LEB128 value out of u32 range at offset ${this.pos}`);
        return result;
      }
    }
    throw new WasmFormatError(`LEB128 longer than 5 bytes at offset ${this.pos}`);
  }

  /** signed LEB128 (s33 heap types); only skipped, so the value is not assembled */
  skipSigned(): void {
    for (let i = 0; i < 5; i++) if ((this.byte() & 0x80) === 0) return;
    throw new WasmFormatError(`signed LEB128 longer than 5 bytes at offset ${this.pos}`);
  }

  bytesOf(len: number): Uint8Array {
    if (this.pos + len > this.end)
      throw new WasmFormatError(`unexpected end of data at offset ${this.pos} (need ${len} bytes)`);
    const out = this.bytes.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  name(): string {
    return Buffer.from(this.bytesOf(this.u32())).toString("utf8");
  }
}

/** Encodes an unsigned LEB128 u32. */
export function encodeU32(value: number): Buffer {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a u32: ${value}`);
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) b |= 0x80;
    out.push(b);
  } while (value !== 0);
  return Buffer.from(out);
}

/** Builds a complete custom section: id 0, LEB128 size, LEB128 name length, name, payload. */
export function encodeCustomSection(name: string, payload: Uint8Array): Buffer {
  const nameBytes = Buffer.from(name, "utf8");
  const nameLen = encodeU32(nameBytes.length);
  const size = nameLen.length + nameBytes.length + payload.length;
  return Buffer.concat([Buffer.from([0x00]), encodeU32(size), nameLen, nameBytes, Buffer.from(payload)]);
}

function readValType(r: Reader): string {
  const code = r.byte();
  if (code === 0x63 || code === 0x64) {
    r.skipSigned();
    return code === 0x63 ? "(ref null …)" : "(ref …)";
  }
  const name = VALTYPE_NAMES[code];
  if (!name) throw new WasmFormatError(`unsupported value type 0x${code.toString(16)} at offset ${r.pos - 1}`);
  return name;
}

function readFuncType(r: Reader): FuncType {
  const form = r.byte();
  if (form !== 0x60)
    throw new WasmFormatError(`unsupported type form 0x${form.toString(16)} (only function types are read)`);
  const params = Array.from({ length: r.u32() }, () => readValType(r));
  const results = Array.from({ length: r.u32() }, () => readValType(r));
  return { params, results };
}

function skipLimits(r: Reader): void {
  const flags = r.byte();
  r.u32(); // min (memory64 limits are u64 but AS never emits them; a 5+ byte value fails loudly)
  if (flags & 0x01) r.u32();
}

function readImportSection(r: Reader, types: FuncType[]): { imports: ImportEntry[]; funcTypeIndices: number[] } {
  const imports: ImportEntry[] = [];
  const funcTypeIndices: number[] = [];
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const module = r.name();
    const name = r.name();
    const kindCode = r.byte();
    const kind = EXTERNAL_KINDS[kindCode];
    if (!kind) throw new WasmFormatError(`unknown import kind 0x${kindCode.toString(16)} for ${module}.${name}`);
    const entry: ImportEntry = { module, name, kind };
    if (kind === "function") {
      const t = r.u32();
      funcTypeIndices.push(t);
      entry.type = types[t];
    } else if (kind === "table") {
      readValType(r);
      skipLimits(r);
    } else if (kind === "memory") skipLimits(r);
    else if (kind === "global") {
      readValType(r);
      r.byte();
    } else {
      r.byte();
      r.u32();
    } // tag: attribute + type index
    imports.push(entry);
  }
  return { imports, funcTypeIndices };
}

function readExportSection(r: Reader): ExportEntry[] {
  const count = r.u32();
  return Array.from({ length: count }, () => {
    const name = r.name();
    const kindCode = r.byte();
    const kind = EXTERNAL_KINDS[kindCode];
    if (!kind) throw new WasmFormatError(`unknown export kind 0x${kindCode.toString(16)} for ${name}`);
    return { name, kind, index: r.u32() };
  });
}

/** Splits a module into sections (id, offset, size) after checking the header. */
export function listSections(bytes: Uint8Array): Section[] {
  const r = new Reader(bytes);
  const magic = Buffer.from(r.bytesOf(4));
  if (!magic.equals(Buffer.from([0x00, 0x61, 0x73, 0x6d])))
    throw new WasmFormatError("not a WebAssembly module (bad magic)");
  const version = Buffer.from(r.bytesOf(4)).readUInt32LE(0);
  if (version !== 1) throw new WasmFormatError(`unsupported WebAssembly binary version ${version}`);
  const sections: Section[] = [];
  while (r.pos < r.end) {
    const offset = r.pos;
    const id = r.byte();
    const size = r.u32();
    const payloadOffset = r.pos;
    if (payloadOffset + size > r.end)
      throw new WasmFormatError(`section ${id} at offset ${offset} runs past the end of the module`);
    const name =
      id === 0
        ? new Reader(bytes, payloadOffset, payloadOffset + size).name()
        : (SECTION_NAMES[id] ?? `unknown(${id})`);
    sections.push({ id, name, offset, payloadOffset, size });
    r.pos = payloadOffset + size;
  }
  return sections;
}

/** Reads the parts of a module the gates and `inspect` need. */
export function readStructure(bytes: Uint8Array): WasmStructure {
  const sections = listSections(bytes);
  let types: FuncType[] = [];
  let imports: ImportEntry[] = [];
  let importedFuncTypes: number[] = [];
  let definedFuncTypes: number[] = [];
  let exports: ExportEntry[] = [];
  const customSections: WasmStructure["customSections"] = [];
  const payload = (s: Section): Reader => new Reader(bytes, s.payloadOffset, s.payloadOffset + s.size);
  for (const s of sections) {
    if (s.id === 1) {
      const r = payload(s);
      types = Array.from({ length: r.u32() }, () => readFuncType(r));
    } else if (s.id === 2) ({ imports, funcTypeIndices: importedFuncTypes } = readImportSection(payload(s), types));
    else if (s.id === 3) {
      const r = payload(s);
      definedFuncTypes = Array.from({ length: r.u32() }, () => r.u32());
    } else if (s.id === 7) exports = readExportSection(payload(s));
    else if (s.id === 0) {
      const r = payload(s);
      const name = r.name();
      customSections.push({ name, size: s.size, data: Buffer.from(bytes.subarray(r.pos, r.end)) });
    }
  }
  const funcTypeIndex = (i: number): number | undefined =>
    i < importedFuncTypes.length ? importedFuncTypes[i] : definedFuncTypes[i - importedFuncTypes.length];
  for (const e of exports) {
    if (e.kind === "function") {
      const t = funcTypeIndex(e.index);
      if (t !== undefined) e.type = types[t];
    }
  }
  return { sections, types, imports, exports, hasStartSection: sections.some((s) => s.id === 8), customSections };
}

/** `(i32, i32) -> i32` style rendering used in messages and `inspect`. */
export function formatFuncType(t: FuncType | undefined): string {
  if (!t) return "(unknown signature)";
  const results = t.results.length === 0 ? "()" : t.results.length === 1 ? t.results[0] : `(${t.results.join(", ")})`;
  return `(${t.params.join(", ")}) -> ${results}`;
}

export function sameFuncType(t: FuncType | undefined, params: string[], results: string[]): boolean {
  return !!t && t.params.join(",") === params.join(",") && t.results.join(",") === results.join(",");
}
