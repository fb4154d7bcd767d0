import { ByteSink } from "../json/index";

/** `text` as UTF-8 in a buffer of its own (offset 0) */
function bufferOf(text: string): ArrayBuffer {
  return String.UTF8.encode(text);
}

function textAt(buf: ArrayBuffer, start: i32, end: i32): string {
  return String.UTF8.decodeUnsafe(changetype<usize>(buf) + <usize>start, <usize>(end - start));
}

describe("ByteSink.measuring: where a response may be written over a request", () => {
  it("the output may start as far in as the least lead of its copies (copy 5.. after 3 bytes: 2)", () => {
    const watched = bufferOf("0123456789abcdefghij"); // 20 bytes
    const m = ByteSink.measuring(watched, 0, 0);
    m.writeUtf8("abc");
    m.writeBytes(Uint8Array.wrap(watched), 5, 15);
    expect(m.length).toBe(13);
    expect(m.placeOver()).toBe(2); // min(lead 5 - 3, fit 20 - 13)
  });

  it("a copy whose source the output has reached is refused, one reached exactly is not", () => {
    const watched = bufferOf("0123456789abcdefghij");
    const at = ByteSink.measuring(watched, 0, 0);
    at.writeUtf8("abcdef");
    at.writeBytes(Uint8Array.wrap(watched), 6, 8); // lead 0: memory.copy onto itself
    expect(at.placeOver()).toBe(0);
    const past = ByteSink.measuring(watched, 0, 0);
    past.writeUtf8("abcdef");
    past.writeBytes(Uint8Array.wrap(watched), 5, 8); // lead -1: byte 5 would be gone
    expect(past.placeOver()).toBe(-1);
  });

  it("the output must fit in the buffer: its whole length fits, one byte more does not", () => {
    const watched = bufferOf("0123456789");
    const fits = ByteSink.measuring(watched, 0, 0);
    fits.writeUtf8("0123456789");
    expect(fits.placeOver()).toBe(0);
    const over = ByteSink.measuring(watched, 0, 0);
    over.writeUtf8("0123456789x");
    expect(over.placeOver()).toBe(-1);
  });

  it("copies out of other buffers, before or after the watched one, do not count as its reads", () => {
    const before = Uint8Array.wrap(bufferOf("yyyy"));
    const watched = bufferOf("0123456789");
    const after = Uint8Array.wrap(bufferOf("zzzz"));
    const m = ByteSink.measuring(watched, 0, 0);
    m.writeUtf8("ab");
    m.writeBytes(before, 0, 2);
    m.writeBytes(after, 0, 4);
    expect(m.placeOver()).toBe(2); // fit 10 - 8; no lead
  });

  it("counts exactly what a real sink writes (escapes, non-ASCII, single bytes)", () => {
    const watched = bufferOf("0123456789");
    const m = ByteSink.measuring(watched, 0, 0);
    const real = new ByteSink(4);
    const texts = ['a"b\\c\n\u0001', "é€😀", "\ud800x", ""];
    for (let i = 0; i < texts.length; i++) {
      m.writeJsonString(texts[i]);
      real.writeJsonString(texts[i]);
      m.writeUtf8(texts[i]);
      real.writeUtf8(texts[i]);
    }
    for (let i = 0; i < 100; i++) {
      m.writeByte(0x2c);
      real.writeByte(0x2c);
    }
    expect(m.length).toBe(real.length);
  });

  it("writes nothing outside its scratch in the watched buffer", () => {
    const watched = bufferOf("ROOMROOMROOMROOM{request}"); // 16 bytes of room, then the request
    const m = ByteSink.measuring(watched, 16, 8); // scratch: bytes 8..16
    for (let i = 0; i < 50; i++) m.writeByte(0x21);
    m.writeUtf8("a longer text than the scratch holds");
    m.writeBytes(Uint8Array.wrap(watched), 16, 25);
    expect(textAt(watched, 0, 8)).toBe("ROOMROOM");
    expect(textAt(watched, 16, 25)).toBe("{request}");
    expect(m.length).toBe(50 + 36 + 9);
  });

  it("ByteSink.over writes from its offset on and hands out just those bytes", () => {
    const buf = bufferOf("....................");
    const s = ByteSink.over(buf, 3);
    s.writeUtf8("abc"); // reserves 3 bytes a unit: 9 of the 17 from offset 3
    const out = s.bytes();
    expect(out.byteOffset).toBe(3);
    expect(changetype<usize>(out.buffer)).toBe(changetype<usize>(buf));
    expect(textAt(buf, 0, 20)).toBe("...abc..............");
  });

  it("ByteSink.over grown past its buffer moves its bytes to a buffer of its own, leaving the other as it was", () => {
    const buf = bufferOf("......");
    const s = ByteSink.over(buf, 2);
    s.writeBytes(Uint8Array.wrap(bufferOf("ab")), 0, 2);
    s.writeBytes(Uint8Array.wrap(bufferOf("cdefgh")), 0, 6);
    const out = s.bytes();
    expect(String.UTF8.decodeUnsafe(out.dataStart, <usize>out.length)).toBe("abcdefgh");
    expect(changetype<usize>(out.buffer) != changetype<usize>(buf)).toBe(true);
    expect(textAt(buf, 0, 6)).toBe("..ab..");
  });
});
