// Counts the 4 KiB pages of linear memory an evaluation writes on a fresh instance (issue 8). On a
// fresh instance each page written for the first time is a page fault (~10 µs here, in V8 and in
// wasmtime alike), so pages touched per evaluation is a budget like time.
//
// How: instantiate and run `_start` (the pages instantiation itself touches are start-up's cost,
// not the evaluation's), snapshot memory, run one `validate`, then count the pages that differ
// from the snapshot; pages grown during the call count when they hold any non-zero byte (the
// allocator grows ahead of need, and a grown page nobody wrote is never faulted).
//
// A write of zeros onto a fresh page is not seen. Fresh memory cannot be filled with a sentinel to
// see them: the production runtime (assembly/rt/compact.ts) hands out memory it has never handed
// out before without clearing it, because a fresh instance's memory reads zero, and a sentinel
// would read as garbage fields (tests/page-budget.test.ts checks that the counted evaluation
// answers as a plain one does). That runtime clears nothing on a fresh instance, so a page of
// zeros only could come from a policy filling memory by hand, which none does.
import type { GuestCallResult, HostCallHandler } from "../host/guest";
import { createWapcImports, invokeGuestCall, newCallState, runInitializers } from "../host/instance";
import { readU32 } from "../wasm/segments";

export const PAGE_BYTES = 4096;

export interface PageCount {
  /** pages written by the evaluation (request copy included) */
  written: number;
  /** bytes that differ after the evaluation (a byte written with the value it had is not seen):
   *  finer than pages, so a change that writes kilobytes more without crossing a page is caught */
  bytesWritten: number;
  /** of those: below the memory base (texts inflated on use) / static data / heap */
  byRegion: { belowData: number; staticData: number; heap: number };
  /** first heap page (after the last active data segment) */
  heapStartPage: number;
  /** memory pages (4 KiB) before and after the call */
  pagesBefore: number;
  pagesAfter: number;
  result: GuestCallResult;
}

/** [start, end) byte ranges of the module's active data segments (i32.const offsets only). */
export function activeDataRanges(bytes: Uint8Array): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i];
    const pos = { p: i + 1 };
    const size = readU32(bytes, pos);
    const body = pos.p;
    if (id === 11) {
      const count = readU32(bytes, pos);
      for (let s = 0; s < count; s++) {
        const flags = readU32(bytes, pos);
        let offset = -1;
        if (flags === 0 || flags === 2) {
          if (flags === 2) readU32(bytes, pos); // memory index
          if (bytes[pos.p] === 0x41) {
            pos.p++;
            // signed LEB128 of the i32.const; offsets here are small positive numbers
            let v = 0;
            let shift = 0;
            let b: number;
            do {
              b = bytes[pos.p++];
              v |= (b & 0x7f) << shift;
              shift += 7;
            } while (b & 0x80);
            if (shift < 32 && b & 0x40) v |= ~0 << shift;
            offset = v >>> 0;
          }
          while (bytes[pos.p] !== 0x0b) pos.p++; // rest of the offset expression
          pos.p++;
        }
        const len = readU32(bytes, pos);
        if (offset >= 0) ranges.push([offset, offset + len]);
        pos.p += len;
      }
      return ranges;
    }
    i = body + size;
  }
  return ranges;
}

/** One fresh `validate` (or `operation`) with its written pages counted. */
export function countPagesWritten(
  module: WebAssembly.Module,
  moduleBytes: Uint8Array,
  payload: Uint8Array,
  hostCall?: HostCallHandler,
  operation = "validate",
): PageCount {
  const state = newCallState(operation, payload, hostCall ? { hostCall } : {});
  let memory: WebAssembly.Memory | undefined;
  const instance = new WebAssembly.Instance(module, {
    wapc: createWapcImports(
      () => state,
      () => memory,
    ),
  });
  memory = instance.exports.memory as WebAssembly.Memory;
  runInitializers(instance);

  const ranges = activeDataRanges(moduleBytes);
  const dataStart = ranges.length > 0 ? Math.min(...ranges.map((r) => r[0])) : 0;
  const dataEnd = ranges.length > 0 ? Math.max(...ranges.map((r) => r[1])) : 0;
  const heapStartPage = Math.ceil(dataEnd / PAGE_BYTES);
  const before = new Uint8Array(memory.buffer.byteLength);
  before.set(new Uint8Array(memory.buffer));
  const pagesBefore = before.length / PAGE_BYTES;

  const result = invokeGuestCall(instance, state);
  const after = new Uint8Array(memory.buffer);
  const pagesAfter = after.length / PAGE_BYTES;
  const byRegion = { belowData: 0, staticData: 0, heap: 0 };
  let bytesWritten = 0;
  for (let page = 0; page < pagesAfter; page++) {
    const from = page * PAGE_BYTES;
    // what an untouched byte of this page reads: zero on a grown page, its state after `_start`
    // on the others
    const changed = (b: number): boolean => (page >= pagesBefore ? after[b] !== 0 : after[b] !== before[b]);
    let n = 0;
    for (let b = from; b < from + PAGE_BYTES; b++) if (changed(b)) n++;
    if (n === 0) continue;
    bytesWritten += n;
    if (page >= heapStartPage) byRegion.heap++;
    else if ((page + 1) * PAGE_BYTES <= dataStart) byRegion.belowData++;
    else byRegion.staticData++;
  }
  return {
    written: byRegion.belowData + byRegion.staticData + byRegion.heap,
    bytesWritten,
    byRegion,
    heapStartPage,
    pagesBefore,
    pagesAfter,
    result,
  };
}
