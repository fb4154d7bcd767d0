// The shared shortening rule (issue 20): echoed values past 1 KiB of their rendered form, and
// lists past 100 problems or 60 KiB. Every bound is checked just below, at and just above.
import {
  goQuote,
  goQuoteShort,
  goQuotedLength,
  joinBounded,
  shortenRendered,
  MAX_ECHOED_BYTES,
  MAX_LISTED_BYTES,
  FieldErrorList,
  invalidString,
  notSupportedString,
  invalidRaw,
  utf8Length,
} from "../validate/index";
import { p } from "./paths";

function repeat(s: string, n: i32): string {
  return s.repeat(n);
}

describe("shortenRendered", () => {
  it("keeps 1,023 and 1,024 bytes as they are", () => {
    expect(shortenRendered(repeat("a", 1023))).toBe(repeat("a", 1023));
    expect(shortenRendered(repeat("a", 1024))).toBe(repeat("a", 1024));
  });
  it("cuts 1,025 bytes to 1,024 and says how many were left out", () => {
    expect(shortenRendered(repeat("a", 1025))).toBe(repeat("a", 1024) + "... (1 more bytes)");
    expect(shortenRendered(repeat("a", 300000))).toBe(repeat("a", 1024) + "... (298976 more bytes)");
  });
  it("counts UTF-8 bytes and never splits a character", () => {
    expect(shortenRendered(repeat("é", 512))).toBe(repeat("é", 512));
    expect(shortenRendered(repeat("é", 513))).toBe(repeat("é", 512) + "... (2 more bytes)");
    // a 4-byte character that would end past the limit is left out whole
    expect(shortenRendered(repeat("a", 1022) + "😀")).toBe(repeat("a", 1022) + "... (4 more bytes)");
    expect(shortenRendered(repeat("a", 1020) + "😀")).toBe(repeat("a", 1020) + "😀");
  });
});

describe("goQuoteShort", () => {
  it("is %q exactly while the quoted form fits 1 KiB", () => {
    expect(goQuoteShort(repeat("a", 1022))).toBe(goQuote(repeat("a", 1022)));
    expect(goQuotedLength(repeat("a", 1022))).toBe(1024);
    expect(goQuoteShort(repeat("\\", 511))).toBe(goQuote(repeat("\\", 511)));
    expect(goQuoteShort(repeat("\x01", 255))).toBe(goQuote(repeat("\x01", 255)));
  });
  it("keeps the first 1,024 bytes of the quoted form past it", () => {
    expect(goQuoteShort(repeat("a", 1023))).toBe('"' + repeat("a", 1023) + "... (1 more bytes)");
    // 512 backslashes quote to 1,026 bytes
    expect(goQuoteShort(repeat("\\", 512))).toBe('"' + repeat("\\\\", 511) + "\\... (2 more bytes)");
    // 256 U+0001 quote to 1,026 bytes (\x01 each)
    expect(goQuoteShort(repeat("\x01", 256))).toBe('"' + repeat("\\x01", 255) + "\\x0... (2 more bytes)");
  });
  it("counts the whole quoted length of a long value", () => {
    const s = repeat("\x01", 200000);
    expect(goQuotedLength(s)).toBe(800002);
    expect(goQuoteShort(s).endsWith("... (798978 more bytes)")).toBe(true);
    expect(goQuotedLength('a"😀\ud800\u2028é')).toBe(utf8Length(goQuote('a"😀\ud800\u2028é')));
  });
});

describe("field errors echo at most 1 KiB of a value", () => {
  it("Invalid and NotSupported string values", () => {
    expect(invalidString(p("f"), repeat("a", 1022), "d").render()).toBe(
      'f: Invalid value: "' + repeat("a", 1022) + '": d',
    );
    expect(invalidString(p("f"), repeat("a", 1023), "d").render()).toBe(
      'f: Invalid value: "' + repeat("a", 1023) + "... (1 more bytes): d",
    );
    expect(notSupportedString(p("f"), repeat("a", 1023), ["x"]).render()).toBe(
      'f: Unsupported value: "' + repeat("a", 1023) + '... (1 more bytes): supported values: "x"',
    );
  });
  it("rendered values (compact JSON) keep their whole text for the UPDATE comparison", () => {
    const e = invalidRaw(p("f"), "[" + repeat("1,", 600) + "1]", "must be an object");
    expect(e.renderedValue).toBe("[" + repeat("1,", 511) + "1... (179 more bytes)");
    expect(e.rawValue.length).toBe(1203);
    expect(invalidRaw(p("f"), repeat("1", 1024), "d").renderedValue).toBe(repeat("1", 1024));
  });
});

function errorsWithValues(count: i32, valueLength: i32): FieldErrorList {
  const errs = new FieldErrorList();
  for (let i = 0; i < count; i++) errs.add(invalidString(p("f" + i.toString()), repeat("v", valueLength), "d"));
  return errs;
}

describe("aggregate message: at most 100 violations and 60 KiB", () => {
  it("100 short violations are all listed, 101 end with `and 1 more`", () => {
    expect(errorsWithValues(100, 1).aggregateText().endsWith('f99: Invalid value: "v": d]')).toBe(true);
    expect(errorsWithValues(101, 1).aggregateText().endsWith('f99: Invalid value: "v": d, and 1 more]')).toBe(true);
  });
  it("long values: the list stops before 60 KiB and counts the rest", () => {
    const text = errorsWithValues(100, 5000).aggregateText();
    expect(utf8Length(text) <= MAX_LISTED_BYTES + 100).toBe(true);
    // each violation renders to ~1,070 bytes: 57 fit 60 KiB, 43 are counted
    expect(text.endsWith("v... (3978 more bytes): d, and 43 more]")).toBe(true);
  });
  it("a list just within 60 KiB is listed whole", () => {
    // 57 violations of ~1,068 bytes (with the separator) stay under 61,440 bytes
    expect(errorsWithValues(57, 5000).aggregateText().endsWith("more bytes): d]")).toBe(true);
    expect(errorsWithValues(58, 5000).aggregateText().endsWith(", and 1 more]")).toBe(true);
  });
});

function items(count: i32, length: i32): string[] {
  const out = new Array<string>();
  for (let i = 0; i < count; i++) out.push(repeat("k", length));
  return out;
}

describe("joinBounded", () => {
  it("100 items are all joined, 101 say `and 1 more`", () => {
    expect(joinBounded(items(100, 1), "; ")).toBe(items(100, 1).join("; "));
    expect(joinBounded(items(101, 1), "; ")).toBe(items(100, 1).join("; ") + "; and 1 more");
  });
  it("items are kept while their bytes fit 60 KiB", () => {
    expect(MAX_ECHOED_BYTES * 60).toBe(MAX_LISTED_BYTES);
    expect(joinBounded(items(60, 1024), "; ")).toBe(items(60, 1024).join("; "));
    expect(joinBounded(items(61, 1024), "; ")).toBe(items(60, 1024).join("; ") + "; and 1 more");
  });
  it("one long item is still named", () => {
    expect(joinBounded(items(2, 70000), "; ")).toBe(repeat("k", 70000) + "; and 1 more");
  });
});
