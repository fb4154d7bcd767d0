// Merges a module's active data segments into a few contiguous ones. AssemblyScript emits one
// segment per static string or array (hundreds per policy), and V8/wasmtime copy each segment on
// every instantiation — which policy-server does for every request. Memory starts zeroed, so
// filling the small alignment gaps between segments with zeros leaves linear memory byte-identical.
// Conservative: any segment that is not `active, memory 0, i32.const offset`, or any bulk-memory
// instruction that could name a segment (`memory.init` / `data.drop`), leaves the module untouched.
import { encodeU32, listSections, Section } from "./wasm";

const DATA_SECTION = 11;
const DATA_COUNT_SECTION = 12;
const CODE_SECTION = 10;
/** gaps up to this many bytes are zero-filled; larger ones start a new segment */
const MAX_GAP = 16;

interface Segment {
  offset: number;
  bytes: Uint8Array;
}

export interface MergeResult {
  bytes: Buffer;
  before: number;
  after: number;
  merged: boolean;
  reason?: string;
}

/** `bytes` with its data section replaced by `dataSection` and its data count set to `count` */
export function withDataSections(bytes: Buffer, sections: Section[], dataSection: Buffer, count: number): Buffer {
  const parts: Buffer[] = [];
  let cursor = 0;
  for (const s of sections) {
    if (s.id !== DATA_SECTION && s.id !== DATA_COUNT_SECTION) continue;
    parts.push(bytes.subarray(cursor, s.offset));
    parts.push(
      s.id === DATA_SECTION
        ? dataSection
        : Buffer.concat([Buffer.from([DATA_COUNT_SECTION]), encodeU32(encodeU32(count).length), encodeU32(count)]),
    );
    cursor = s.payloadOffset + s.size;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts);
}

export function readU32(buf: Uint8Array, pos: { p: number }): number {
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const b = buf[pos.p++];
    if (b === undefined) throw new Error("truncated LEB128");
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return result;
  }
  throw new Error("LEB128 too long");
}

function readS32(buf: Uint8Array, pos: { p: number }): number {
  let result = 0;
  let shift = 0;
  let b: number;
  do {
    b = buf[pos.p++];
    if (b === undefined) throw new Error("truncated LEB128");
    result |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80 && shift < 35);
  if (shift < 32 && b & 0x40) result |= ~0 << shift;
  return result;
}

function encodeS32(value: number): Buffer {
  const out: number[] = [];
  for (;;) {
    const b = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (b & 0x40) === 0) || (value === -1 && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return Buffer.from(out);
  }
}

/** The segments of a data section payload, or a reason they cannot be merged safely. */
function readActiveSegments(payload: Uint8Array): Segment[] | string {
  const pos = { p: 0 };
  const count = readU32(payload, pos);
  const segments: Segment[] = [];
  for (let i = 0; i < count; i++) {
    const flags = readU32(payload, pos);
    if (flags !== 0) return `segment ${i} is not an active segment of memory 0 (flags ${flags})`;
    if (payload[pos.p++] !== 0x41) return `segment ${i} offset is not an i32.const`;
    const offset = readS32(payload, pos);
    if (payload[pos.p++] !== 0x0b) return `segment ${i} offset expression is not a single constant`;
    const len = readU32(payload, pos);
    segments.push({ offset: offset >>> 0, bytes: payload.subarray(pos.p, pos.p + len) });
    pos.p += len;
  }
  return segments;
}

/** Contiguous runs of segments (sorted by offset; overlapping segments refuse the merge). */
function mergeRuns(segments: Segment[]): Segment[] | string {
  const sorted = [...segments].sort((a, b) => a.offset - b.offset);
  const runs: { offset: number; parts: Segment[]; end: number }[] = [];
  for (const s of sorted) {
    const last = runs[runs.length - 1];
    if (last && s.offset < last.end) return "overlapping data segments";
    if (last && s.offset - last.end <= MAX_GAP) {
      last.parts.push(s);
      last.end = s.offset + s.bytes.length;
    } else runs.push({ offset: s.offset, parts: [s], end: s.offset + s.bytes.length });
  }
  return runs.map((r) => {
    const bytes = new Uint8Array(r.end - r.offset); // zero-filled gaps
    for (const part of r.parts) bytes.set(part.bytes, part.offset - r.offset);
    return { offset: r.offset, bytes };
  });
}

function encodeDataSection(segments: Segment[]): Buffer {
  const body = [encodeU32(segments.length)];
  for (const s of segments)
    body.push(
      Buffer.from([0x00, 0x41]),
      encodeS32(s.offset | 0),
      Buffer.from([0x0b]),
      encodeU32(s.bytes.length),
      Buffer.from(s.bytes),
    );
  const payload = Buffer.concat(body);
  return Buffer.concat([Buffer.from([DATA_SECTION]), encodeU32(payload.length), payload]);
}

/** true when the code section may contain `memory.init` (0xFC 0x08) or `data.drop` (0xFC 0x09);
 *  a byte scan can only over-report, which just keeps the module as it is. */
function mayReferenceSegments(bytes: Uint8Array, code: Section | undefined): boolean {
  if (!code) return false;
  const end = code.payloadOffset + code.size;
  for (let i = code.payloadOffset; i + 1 < end; i++) {
    if (bytes[i] === 0xfc && (bytes[i + 1] === 0x08 || bytes[i + 1] === 0x09)) return true;
  }
  return false;
}

export function mergeDataSegments(input: Uint8Array): MergeResult {
  const bytes = Buffer.from(input);
  const sections = listSections(bytes);
  const data = sections.find((s) => s.id === DATA_SECTION);
  const keep = (reason: string, before = 0): MergeResult => ({ bytes, before, after: before, merged: false, reason });
  if (!data) return keep("no data section");
  const segments = readActiveSegments(bytes.subarray(data.payloadOffset, data.payloadOffset + data.size));
  if (typeof segments === "string") return keep(segments);
  if (
    mayReferenceSegments(
      bytes,
      sections.find((s) => s.id === CODE_SECTION),
    )
  )
    return keep("code may use memory.init or data.drop", segments.length);
  const runs = mergeRuns(segments);
  if (typeof runs === "string") return keep(runs, segments.length);
  const out = withDataSections(bytes, sections, encodeDataSection(runs), runs.length);
  if (!WebAssembly.validate(new Uint8Array(out))) return keep("merged module does not validate", segments.length);
  return { bytes: out, before: segments.length, after: runs.length, merged: true };
}
