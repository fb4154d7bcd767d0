// Go's lower-casing for comparisons with ASCII words (assembly/validate/chars.ts).
import { goLowerAscii, goLowerAsciiUtf8, goLowerEquals } from "../validate/chars";

describe("goLowerEquals", () => {
  it("folds A–Z, İ and the Kelvin sign, nothing else", () => {
    expect(goLowerEquals("OFF", "off")).toBe(true);
    expect(goLowerEquals("DİSABLE", "disable")).toBe(true);
    expect(goLowerEquals("\u212Aey", "key")).toBe(true);
    expect(goLowerEquals("ſ", "s")).toBe(false);
    expect(goLowerEquals("of", "off")).toBe(false);
    expect(goLowerEquals("offf", "off")).toBe(false);
    expect(goLowerEquals("@", "`")).toBe(false);
    expect(goLowerEquals("[", "{")).toBe(false);
  });
  it("goLowerAscii lowers what goLowerEquals folds and keeps other letters", () => {
    expect(goLowerAscii("SGLang")).toBe("sglang");
    expect(goLowerAscii("ÄB")).toBe("Äb");
    expect(goLowerAscii("abc")).toBe("abc");
  });
});

function lowerUtf8(s: string): string {
  return String.UTF8.decode(goLowerAsciiUtf8(Uint8Array.wrap(String.UTF8.encode(s))).slice().buffer);
}

describe("goLowerAsciiUtf8", () => {
  it("lowers the UTF-8 of a text exactly as goLowerAscii lowers the text", () => {
    const texts = [
      "SGLang",
      "VLLM",
      "ÄB",
      "İX",
      "\u212Aey",
      "abc",
      "",
      "A",
      "Z@[`{",
      "ſ",
      "x\u0130",
      "\u0130\u0130\u212A",
      "🚀Q",
    ];
    for (let i = 0; i < texts.length; i++) expect(lowerUtf8(texts[i])).toBe(goLowerAscii(texts[i]), texts[i]);
  });
  it("quotes and escapes pass through: a JSON literal without backslashes stays one", () => {
    expect(lowerUtf8('"TRITON"')).toBe('"triton"');
  });
  it("a truncated İ or Kelvin sign at the end is copied", () => {
    const bytes = new Uint8Array(3);
    bytes[0] = 0x41;
    bytes[1] = 0xe2;
    bytes[2] = 0x84;
    const out = goLowerAsciiUtf8(bytes);
    expect(out.length).toBe(3);
    expect(out[0]).toBe(0x61);
    expect(out[1]).toBe(0xe2);
    expect(out[2]).toBe(0x84);
  });
});
