import {
  containsWhitespaceOrControl,
  goQuote,
  isBlank,
  isGoPrintable,
  trimGoSpace,
  utf8Length,
} from "../validate/index";

describe("Go %q rendering", () => {
  it("plain text", () => {
    expect(goQuote("NFS.example.com")).toBe('"NFS.example.com"');
  });
  it("empty string", () => {
    expect(goQuote("")).toBe('""');
  });
  it("double quote and backslash escaped", () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
  });
  it("short escapes \\a \\b \\f \\n \\r \\t \\v", () => {
    expect(goQuote("\x07\b\f\n\r\t\v")).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
  });
  it("other C0 controls and DEL as \\xNN (lower-case hex)", () => {
    expect(goQuote("\x00\x01\x1b\x1f\x7f")).toBe('"\\x00\\x01\\x1b\\x1f\\x7f"');
  });
  it("surrounding space kept", () => {
    expect(goQuote(" 10.0.0.25")).toBe('" 10.0.0.25"');
  });
  it("10.0.0.25\\n", () => {
    expect(goQuote("10.0.0.25\n")).toBe('"10.0.0.25\\n"');
  });
  it("C1 controls as \\u00NN", () => {
    expect(goQuote("\u0085\u009f")).toBe('"\\u0085\\u009f"');
  });
  it("non-printable spaces and format characters as \\uNNNN", () => {
    expect(goQuote("\u00a0\u00ad\u2000\u200b\u2028\u2029\u202f\u3000\ufeff")).toBe(
      '"\\u00a0\\u00ad\\u2000\\u200b\\u2028\\u2029\\u202f\\u3000\\ufeff"',
    );
  });
  it("printable Unicode kept", () => {
    expect(goQuote("café ü ß 日本語 Ω €")).toBe('"café ü ß 日本語 Ω €"');
    expect(goQuote("é")).toBe('"é"'); // combining mark
  });
  it("astral printable kept, astral non-printable as \\UNNNNNNNN", () => {
    expect(goQuote("😀")).toBe('"😀"');
    expect(goQuote("\u{E0001}")).toBe('"\\U000e0001"');
    expect(goQuote("\u{F0000}")).toBe('"\\U000f0000"');
  });
  it("private use and noncharacters escaped", () => {
    expect(goQuote("\ue000\uffff")).toBe('"\\ue000\\uffff"');
  });
  it("lone surrogates render as U+FFFD (Go's JSON decoder replaces them)", () => {
    expect(goQuote("a\ud800b")).toBe('"a\ufffdb"');
    expect(goQuote("\udc00")).toBe('"\ufffd"');
  });
  it("mixed", () => {
    expect(goQuote('x\ty"z')).toBe('"x\\ty\\"z"');
  });
});

describe("IsPrint approximation", () => {
  it("ASCII and Latin-1", () => {
    expect(isGoPrintable(0x20)).toBe(true);
    expect(isGoPrintable(0x7e)).toBe(true);
    expect(isGoPrintable(0x7f)).toBe(false);
    expect(isGoPrintable(0xa0)).toBe(false);
    expect(isGoPrintable(0xa1)).toBe(true);
    expect(isGoPrintable(0xad)).toBe(false);
    expect(isGoPrintable(0xff)).toBe(true);
  });
});

describe("Go whitespace helpers", () => {
  it("TrimSpace trims Unicode whitespace", () => {
    expect(trimGoSpace(" \t x y \n")).toBe("x y");
    expect(trimGoSpace("\u00a0\u3000x\u2029\u0085")).toBe("x");
    expect(trimGoSpace("\u200bx")).toBe("\u200bx"); // ZWSP is not White_Space
    expect(trimGoSpace("   ")).toBe("");
    expect(trimGoSpace("")).toBe("");
  });
  it("isBlank", () => {
    expect(isBlank("")).toBe(true);
    expect(isBlank(" \u00a0\t")).toBe(true);
    expect(isBlank(" a ")).toBe(false);
  });
  it("containsWhitespaceOrControl", () => {
    expect(containsWhitespaceOrControl("reg/p latest")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p\tx")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p\u0000")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p\u0085")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p\u00a0")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p\u3000")).toBe(true);
    expect(containsWhitespaceOrControl("reg/p@sha256:abc")).toBe(false);
    expect(containsWhitespaceOrControl("")).toBe(false);
  });
  it("utf8Length counts like Go len", () => {
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("日")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("\ud800")).toBe(3);
  });
});
