// Bytes for new string texts (values and keys set by a policy). Each text is encoded in a reused
// scratch sink, then copied into a shared arena: each costs one view instead of a sink, its buffer
// and a view. A full arena is replaced (views keep theirs alive), never reused, so earlier values
// stay valid. The arena is small (a wired pod adds ~100 bytes of short texts): its unused tail lies
// between allocations and, on a fresh instance, spreads them over more pages.
//
// This is the only state of assembly/json that outlives a call; forgetStringScratch drops it.
import { CHAR_LOWER_U, CHAR_SLASH } from "./chars";
import { ByteSink } from "./sink";
import { decodeStringBody, nextBackslash } from "./strings";
import { uninitializedBuffer } from "../util/memory";

let scratchSink: ByteSink | null = null;
let arena: ArrayBuffer | null = null;
let arenaUsed: i32 = 0;
const ARENA_SIZE: i32 = 256;

// The last string decoded from source text with escapes, and that text as a literal: writing the
// same string object again reuses those bytes instead of escaping it anew when its escapes are all
// ones the writer itself produces (\" \\ \b \f \n \r \t), checked then (the connection config
// travels ConfigMap -> args so; checking every decoded string was a third pass over a 1.5 MB one).
let rawText: string | null = null;
let rawLiteral: Uint8Array | null = null;

/** Drops the string scratch buffers and the remembered literal; call it before the heap is reset
 *  (the bump runtimes, `stub` and the production `assembly/rt/compact`), whose memory they would otherwise still point into. */
export function forgetStringScratch(): void {
  scratchSink = null;
  arena = null;
  arenaUsed = 0;
  rawText = null;
  rawLiteral = null;
}

/** true when every escape in the validated body [s, e) is a two-byte one the writer emits too */
function escapesAreCanonical(base: usize, s: i32, e: i32): bool {
  let p = nextBackslash(base, s, e);
  while (p < e) {
    const d = <u32>load<u8>(base + <usize>p + 1);
    if (d == CHAR_LOWER_U || d == CHAR_SLASH) return false; // \uXXXX, \/: the writer spells these differently
    p = nextBackslash(base, p + 2, e);
  }
  return true;
}

/** decodes the string literal [start, end) of `bytes` (quotes included), or null for a lone
 *  surrogate escape; remembers an escaped literal for `jsonStringBytes` */
export function decodeLiteral(bytes: Uint8Array, start: i32, end: i32): string | null {
  const base = bytes.dataStart;
  const s = start + 1;
  const e = end - 1;
  if (nextBackslash(base, s, e) == e) return String.UTF8.decodeUnsafe(base + <usize>s, <usize>(e - s));
  const text = decodeStringBody(base, s, e, true);
  if (text !== null) {
    rawText = text;
    rawLiteral = bytes.subarray(start, end);
  }
  return text;
}

/** `text` as a JSON string literal (RFC 8259 escaping), in bytes of its own */
export function jsonStringBytes(text: string): Uint8Array {
  const remembered = rawLiteral;
  if (
    remembered !== null &&
    changetype<usize>(text) == changetype<usize>(rawText) &&
    escapesAreCanonical(remembered.dataStart, 1, remembered.length - 1)
  )
    return remembered;
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
