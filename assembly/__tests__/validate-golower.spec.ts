// Go's lower-casing for comparisons with ASCII words (assembly/validate/chars.ts).
import { goLowerAscii, goLowerEquals } from "../validate/chars";

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
