// Escaping of new strings (docs/wasm-contract.md#json-escaping) and the ByteSink primitives.
import { ByteSink, JsonValue, parseJsonString } from "../json/index";

function bytesOf(v: JsonValue): u8[] {
  const b = v.toBytes();
  const out = new Array<u8>(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b[i];
  return out;
}

function expectBytes(actual: u8[], want: u8[]): void {
  expect(actual.length).toBe(want.length);
  for (let i = 0; i < want.length && i < actual.length; i++) expect(actual[i]).toBe(want[i], "byte " + i.toString());
}

describe("json escaping of new strings", () => {
  it("escapes quote and backslash but not slash", () => {
    expect(JsonValue.str('a"b\\c/d').toString()).toBe('"a\\"b\\\\c/d"');
  });

  it("uses short escapes and lowercase \\u00XX for control characters", () => {
    expect(JsonValue.str("\b\f\n\r\t\u0000\u0001\u001f").toString()).toBe('"\\b\\f\\n\\r\\t\\u0000\\u0001\\u001f"');
    expectBytes(bytesOf(JsonValue.str("\u007f")), [0x22, 0x7f, 0x22]);
  });

  it("writes surrogate pairs as 4-byte UTF-8 and other non-ASCII as UTF-8", () => {
    expectBytes(bytesOf(JsonValue.str("😀")), [0x22, 0xf0, 0x9f, 0x98, 0x80, 0x22]);
    expectBytes(bytesOf(JsonValue.str("é\u2028")), [0x22, 0xc3, 0xa9, 0xe2, 0x80, 0xa8, 0x22]);
    expectBytes(bytesOf(JsonValue.str("\u{10ffff}")), [0x22, 0xf4, 0x8f, 0xbf, 0xbf, 0x22]);
  });

  it("writes lone surrogates as \\uXXXX escapes", () => {
    expect(JsonValue.str("\ud800x\udc00").toString()).toBe('"\\ud800x\\udc00"');
    expect(JsonValue.str("\ud83d").toString()).toBe('"\\ud83d"');
    expect(JsonValue.str("x\udfff\ud800").toString()).toBe('"x\\udfff\\ud800"');
    expect(JsonValue.str("\ud800").asString().invalid).toBe(true);
  });

  it("reads back what it wrote", () => {
    const text = 'q"\\/\n\t\u0000é😀中';
    expect(JsonValue.str(text).asString().value).toBe(text);
    expect(JsonValue.str("").toString()).toBe('""');
  });
});

// The decoded text of member "k", written as a new string. A literal whose escapes the writer
// would produce itself is written back from its source bytes; any other spelling is escaped anew.
function roundTrip(source: string): string {
  const doc = parseJsonString(source).value!;
  const text = doc.stringOrNull("k");
  if (text === null) return "<not decodable>";
  return JsonValue.str(text).toString();
}

describe("json strings decoded from source and written again", () => {
  it("keeps writer-canonical escapes", () => {
    expect(roundTrip('{"k":"{\\n  \\"a\\": \\"b\\\\c\\t\\"\\n}"}')).toBe('"{\\n  \\"a\\": \\"b\\\\c\\t\\"\\n}"');
  });

  it("re-escapes \\/ and \\u spellings the writer does not use", () => {
    expect(roundTrip('{"k":"a\\/b\\u0041\\n"}')).toBe('"a/bA\\n"');
    expect(roundTrip('{"k":"\\u00e9\\""}')).toBe('"é\\""');
  });

  it("gives the same text as decoding anew (stringValue and stringOrNull agree)", () => {
    const doc = parseJsonString('{"k":"x\\"y"}').value!;
    const a = doc.stringOrNull("k");
    const node = doc.get("k");
    expect(a).toBe('x"y');
    expect(node !== null && node.stringValue() == a).toBe(true);
  });
});

describe("json ByteSink", () => {
  it("grows past its initial capacity", () => {
    const s = new ByteSink(0);
    for (let i = 0; i < 1000; i++) s.writeByte(0x61);
    expect(s.length).toBe(1000);
    expect(s.bytes().length).toBe(1000);
  });

  it("clamps byte ranges instead of trapping", () => {
    const src = new Uint8Array(4);
    src[0] = 0x61;
    src[1] = 0x62;
    src[2] = 0x63;
    src[3] = 0x64;
    const s = new ByteSink();
    s.writeBytes(src, -5, 2);
    s.writeBytes(src, 3, 100);
    s.writeBytes(src, 3, 1);
    expect(s.toString()).toBe("abd");
  });

  it("writes UTF-8 as is, lone surrogates as U+FFFD", () => {
    const s = new ByteSink();
    s.writeUtf8('a"é\ud800');
    const b = s.bytes();
    expect(b.length).toBe(7);
    expect(b[1]).toBe(0x22);
    expect(b[4]).toBe(0xef);
    expect(b[6]).toBe(0xbd);
  });

  it("writes JSON string literals", () => {
    const s = new ByteSink();
    s.writeJsonString("a\nb");
    expect(s.toString()).toBe('"a\\nb"');
  });
});
