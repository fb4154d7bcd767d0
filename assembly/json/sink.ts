// Growable output buffer. Everything the DOM serializes goes through here as bytes, so a response
// never takes a UTF-16 detour.

import {
  CHAR_BACKSLASH,
  CHAR_BACKSPACE,
  CHAR_CR,
  CHAR_FORM_FEED,
  CHAR_LF,
  CHAR_LOWER_B,
  CHAR_LOWER_F,
  CHAR_LOWER_N,
  CHAR_LOWER_R,
  CHAR_LOWER_T,
  CHAR_LOWER_U,
  CHAR_NON_ASCII,
  CHAR_QUOTE,
  CHAR_SPACE,
  CHAR_TAB,
} from "./chars";
import { uninitializedBuffer } from "../util/memory";

// @ts-ignore: decorator
@lazy
const HEX: string = "0123456789abcdef";

/** Growable byte buffer for output; `bytes()` goes straight to `__guest_response`. */
export class ByteSink {
  /** bytes of JSON text written to become part of a document in bulk (a new list of 150,000
   *  pull secrets): a response adds them to its size hint instead of regrowing */
  static bulk: i32 = 0;

  /** the storage (no view object: one allocation per buffer) */
  private buf: ArrayBuffer;
  /** where the bytes go: the start of `buf`, or a place inside it (`ByteSink.over`) */
  private data: usize;
  /** bytes from `data` that may be written */
  private cap: i32;
  private len: i32 = 0;
  /** set on a sink that only measures (`ByteSink.measuring`) */
  private measure: SinkMeasure | null = null;
  /** `buf` is another's (`ByteSink.over`) */
  private borrowed: bool = false;

  constructor(initialCapacity: i32 = 1024) {
    const buf = uninitializedBuffer(max(initialCapacity, 16));
    this.buf = buf;
    this.data = changetype<usize>(buf);
    this.cap = buf.byteLength;
  }

  /** A sink whose bytes are written into `buffer` from `offset` on, over what is there; safe only
   *  where `placeOver` has placed the same writes. */
  static over(buffer: ArrayBuffer, offset: i32): ByteSink {
    return ByteSink.into(buffer, changetype<usize>(buffer) + <usize>offset, buffer.byteLength - offset, null, true);
  }

  /** A sink that keeps no bytes and measures what writing them over `watched` would do. Copies are
   *  counted, not made; everything else is written to a scratch as it would be to a buffer (so
   *  counted exactly), reused from its start whenever it is full. The scratch is the `scratch`
   *  bytes that end at offset `scratchEnd` of `watched` (bytes nothing reads and the output is
   *  likely to cover: the end of the room before a request), or a buffer of its own. */
  static measuring(watched: ArrayBuffer, scratchEnd: i32, scratch: i32): ByteSink {
    const measure = new SinkMeasure(watched);
    if (scratch < 16) {
      const own = uninitializedBuffer(64);
      return ByteSink.into(own, changetype<usize>(own), 64, measure, false);
    }
    measure.scratch = changetype<usize>(watched) + <usize>(scratchEnd - scratch);
    measure.scratchSize = scratch;
    return ByteSink.into(watched, measure.scratch, scratch, measure, false);
  }

  /** a sink without an allocation of its own */
  private static into(buf: ArrayBuffer, data: usize, cap: i32, measure: SinkMeasure | null, borrowed: bool): ByteSink {
    const sink = changetype<ByteSink>(__new(offsetof<ByteSink>(), idof<ByteSink>()));
    sink.buf = buf;
    sink.data = data;
    sink.cap = cap;
    sink.len = 0;
    sink.measure = measure;
    sink.borrowed = borrowed;
    return sink;
  }

  get length(): i32 {
    return this.len;
  }

  /** whether this sink only measures (`ByteSink.measuring`) */
  get measures(): bool {
    return this.measure !== null;
  }

  /** Measuring: the offset in the watched buffer from which the same writes, made with
   *  `ByteSink.over`, overwrite no byte of it before it is read and still fit in it (the highest,
   *  so the output touches the least memory below the request), or -1. Written from offset d, the
   *  output's next byte is at d + its length, so each copy out of the buffer must start at or after
   *  that point (memory.copy moves overlapping bytes correctly). The room a string write reserves
   *  (6 bytes a unit) is not counted: past the buffer's end the over-sink moves to a buffer of its
   *  own, which is correct, only not cheaper. */
  placeOver(): i32 {
    const m = this.measure;
    if (m === null) return -1;
    const d = min(m.leastLead, <i64>(m.watchEnd - m.watchStart) - <i64>this.len);
    return d >= 0 ? <i32>d : -1;
  }

  /** makes room for `extra` more bytes (doubling, so appends stay amortised O(1)) */
  @inline private reserve(extra: i32): void {
    if (this.len + extra > this.cap) this.grow(extra);
  }

  private grow(extra: i32): void {
    const measure = this.measure;
    if (measure !== null) {
      // the scratch is reused: `data` moves back so that the next byte lands at its start and
      // `len` goes on counting every byte
      if (extra > measure.scratchSize) {
        measure.scratch = changetype<usize>(uninitializedBuffer(extra));
        measure.scratchSize = extra;
      }
      this.data = measure.scratch - <usize>this.len;
      this.cap = this.len + measure.scratchSize;
      return;
    }
    let cap = this.cap << 1;
    const need = this.len + extra;
    if (cap < need) cap = need;
    if (this.borrowed) {
      // a sink `over` another's buffer (still read from: never handed to the allocator, which
      // may free it) moves its bytes to a buffer of its own
      const own = uninitializedBuffer(cap);
      memory.copy(changetype<usize>(own), this.data, <usize>this.len);
      this.buf = own;
      this.borrowed = false;
    } else {
      // through the runtime's reallocation: a bump runtime extends the last allocation in place
      // (a response buffer usually is the last one), so a regrown buffer leaves no abandoned
      // first copy on pages a fresh instance writes; otherwise it copies
      this.buf = changetype<ArrayBuffer>(__renew(changetype<usize>(this.buf), <usize>cap));
    }
    this.data = changetype<usize>(this.buf);
    this.cap = cap;
  }

  writeByte(b: u8): void {
    this.reserve(1);
    store<u8>(this.data + <usize>this.len, b);
    this.len++;
  }

  /** copies src[start, end) (clamped to src, so a bad range writes less instead of trapping) */
  writeBytes(src: Uint8Array, start: i32, end: i32): void {
    if (start < 0) start = 0;
    if (end > src.length) end = src.length;
    if (end <= start) return;
    this.writeRaw(src.dataStart + <usize>start, end - start);
  }

  /** copies `n` bytes from linear memory at `ptr` */
  writeRaw(ptr: usize, n: i32): void {
    if (n <= 0) return;
    const measure = this.measure;
    if (measure !== null) {
      measure.noteCopy(ptr, this.len);
      this.len += n;
      return;
    }
    this.reserve(n);
    memory.copy(this.data + <usize>this.len, ptr, <usize>n);
    this.len += n;
  }

  /** writes the UTF-8 encoding of `text` as is (no quoting or escaping); lone surrogates → U+FFFD */
  writeUtf8(text: string): void {
    const n = text.length;
    this.reserve(n * 3);
    const src = changetype<usize>(text);
    for (let i = 0; i < n; i++) {
      const c = <u32>load<u16>(src + ((<usize>i) << 1));
      if (c < CHAR_NON_ASCII) {
        // reserved above: stored without a capacity check
        store<u8>(this.data + <usize>this.len, <u8>c);
        this.len++;
        continue;
      }
      if (c >= 0xd800 && c < 0xe000) {
        const pair = this.pairAt(text, i, c);
        if (pair != 0) {
          this.putCodePoint(pair);
          i++;
        } else this.putCodePoint(0xfffd);
        continue;
      }
      this.putCodePoint(c);
    }
  }

  /** writes `text` as a JSON string literal with RFC 8259 escaping (docs/wasm-contract.md#json-escaping) */
  writeJsonString(text: string): void {
    const n = text.length;
    this.reserve(n * 6 + 2); // the worst case (`\u001f` per unit): nothing below grows the buffer
    this.putByte(CHAR_QUOTE);
    const src = changetype<usize>(text);
    for (let i = 0; i < n; i++) {
      const c = <u32>load<u16>(src + ((<usize>i) << 1));
      if (c < CHAR_NON_ASCII) {
        // plain printable ASCII (the common case) is stored without a capacity check
        if (c >= CHAR_SPACE && c != CHAR_QUOTE && c != CHAR_BACKSLASH) {
          store<u8>(this.data + <usize>this.len, <u8>c);
          this.len++;
        } else {
          this.putEscapedAscii(c);
        }
        continue;
      }
      if (c >= 0xd800 && c < 0xe000) {
        const pair = this.pairAt(text, i, c);
        if (pair != 0) {
          this.putCodePoint(pair);
          i++;
        } else this.putUnicodeEscape(c);
        continue;
      }
      this.putCodePoint(c);
    }
    this.putByte(CHAR_QUOTE);
  }

  /** forgets the written bytes (the storage is kept for reuse) */
  reset(): void {
    this.len = 0;
  }

  /** the address of the written bytes (valid until the next write) */
  get dataStart(): usize {
    return this.data;
  }

  /** a view of the written bytes */
  bytes(): Uint8Array {
    return Uint8Array.wrap(this.buf, <i32>(this.data - changetype<usize>(this.buf)), this.len);
  }

  toString(): string {
    return String.UTF8.decodeUnsafe(this.data, <usize>this.len);
  }

  // ---- helpers: all reserve before writing ----

  /** the code point of a valid surrogate pair starting at `i` (c is text[i]), else 0 */
  private pairAt(text: string, i: i32, c: u32): u32 {
    if (c >= 0xdc00 || i + 1 >= text.length) return 0;
    const d = <u32>text.charCodeAt(i + 1);
    if (d < 0xdc00 || d >= 0xe000) return 0;
    return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }

  private putByte(b: u32): void {
    this.reserve(1);
    store<u8>(this.data + <usize>this.len, <u8>b);
    this.len++;
  }

  private putCodePoint(cp: u32): void {
    if (cp < CHAR_NON_ASCII) {
      this.putByte(cp);
      return;
    }
    if (cp < 0x800) {
      this.putByte(0xc0 | (cp >> 6));
    } else if (cp < 0x10000) {
      this.putByte(0xe0 | (cp >> 12));
      this.putByte(0x80 | ((cp >> 6) & 0x3f));
    } else {
      this.putByte(0xf0 | (cp >> 18));
      this.putByte(0x80 | ((cp >> 12) & 0x3f));
      this.putByte(0x80 | ((cp >> 6) & 0x3f));
    }
    this.putByte(0x80 | (cp & 0x3f));
  }

  private putEscapedAscii(c: u32): void {
    if (c >= CHAR_SPACE) {
      if (c == CHAR_QUOTE || c == CHAR_BACKSLASH) this.putByte(CHAR_BACKSLASH);
      this.putByte(c);
      return;
    }
    let short: u32 = 0;
    if (c == CHAR_BACKSPACE) short = CHAR_LOWER_B;
    else if (c == CHAR_FORM_FEED) short = CHAR_LOWER_F;
    else if (c == CHAR_LF) short = CHAR_LOWER_N;
    else if (c == CHAR_CR) short = CHAR_LOWER_R;
    else if (c == CHAR_TAB) short = CHAR_LOWER_T;
    if (short != 0) {
      this.putByte(CHAR_BACKSLASH);
      this.putByte(short);
      return;
    }
    this.putUnicodeEscape(c);
  }

  /** `\uxxxx` in lowercase hex, as JSON.stringify writes it */
  private putUnicodeEscape(c: u32): void {
    this.putByte(CHAR_BACKSLASH);
    this.putByte(CHAR_LOWER_U);
    for (let shift = 12; shift >= 0; shift -= 4) {
      this.putByte(<u32>HEX.charCodeAt((c >> shift) & 0xf));
    }
  }
}

/** What a measuring sink learns of the copies out of the buffer it watches. */
class SinkMeasure {
  watchStart: usize;
  watchEnd: usize;
  /** the least (source offset − output length before the copy) over copies out of the buffer */
  leastLead: i64 = i64.MAX_VALUE;
  /** where bytes that are not copies are written, and how many fit */
  scratch: usize = 0;
  scratchSize: i32 = 0;

  constructor(watched: ArrayBuffer) {
    this.watchStart = changetype<usize>(watched);
    this.watchEnd = changetype<usize>(watched) + <usize>watched.byteLength;
  }

  noteCopy(ptr: usize, at: i32): void {
    // a source past the buffer's end leads by at least the room left at its end, which bounds
    // the placement anyway; one before its start is another buffer's
    if (ptr < this.watchStart) return;
    const lead = <i64>ptr - <i64>this.watchStart - <i64>at;
    if (lead < this.leastLead) this.leastLead = lead;
  }
}
