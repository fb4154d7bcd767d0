// Semantic equality of the JSON DOM (docs/wasm-contract.md#json-equality).
import { JsonValue, jsonEquals, parseJsonString } from "../json/index";

function parse(text: string): JsonValue {
  const r = parseJsonString(text);
  expect(r.ok).toBe(true, r.error);
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

function equal(a: string, b: string): bool {
  return jsonEquals(parse(a), parse(b));
}

describe("jsonEquals", () => {
  it("compares numbers by exact decimal value", () => {
    expect(equal("1.0", "1")).toBe(true);
    expect(equal("1", "1e0")).toBe(true);
    expect(equal("1e0", "10e-1")).toBe(true);
    expect(equal("0.10", "1E-1")).toBe(true);
    expect(equal("-0.0", "0")).toBe(true);
    expect(equal("100", "1e2")).toBe(true);
    expect(equal("0.001", "1e-3")).toBe(true);
    expect(equal("-1.5", "-15e-1")).toBe(true);
    expect(equal("1", "-1")).toBe(false);
    expect(equal("0.1", "0.10000000000000001")).toBe(false);
    expect(equal("18446744073709551615", "18446744073709551616")).toBe(false);
    expect(equal("123456789012345678901234567890", "1.2345678901234567890123456789e29")).toBe(true);
    expect(equal("1e400", "10e399")).toBe(true);
  });

  it("compares strings by decoded text", () => {
    expect(equal('"\\u00e9"', '"é"')).toBe(true);
    expect(equal('"\\ud83d\\ude00"', '"😀"')).toBe(true);
    expect(equal('"a\\/b"', '"a/b"')).toBe(true);
    expect(equal('"a"', '"b"')).toBe(false);
    expect(jsonEquals(JsonValue.str('q"\n'), parse('"q\\u0022\\u000a"'))).toBe(true);
  });

  it("compares objects as unordered key sets, last occurrence winning", () => {
    expect(equal('{"a":1,"b":2}', '{ "b" : 2 , "a" : 1 }')).toBe(true);
    expect(equal('{"a":1,"a":2}', '{"a":2}')).toBe(true);
    expect(equal('{"a":1,"a":2}', '{"a":1}')).toBe(false);
    expect(equal('{"n\\u0061me":1}', '{"name":1.0}')).toBe(true);
    expect(equal('{"a":1}', '{"a":1,"b":2}')).toBe(false);
    expect(equal('{"a":1,"b":2}', '{"a":1,"c":2}')).toBe(false);
  });

  it("compares arrays in order, and kinds strictly", () => {
    expect(equal("[1,[2,{}]]", "[1.0,[2e0,{}]]")).toBe(true);
    expect(equal("[1,2]", "[2,1]")).toBe(false);
    expect(equal("[1]", "[1,1]")).toBe(false);
    expect(equal("1", '"1"')).toBe(false);
    expect(equal("null", "false")).toBe(false);
    expect(equal("true", "true")).toBe(true);
    expect(equal("true", "false")).toBe(false);
  });

  it("compares edited documents by content", () => {
    const doc = parse('{"a":[1],"b":"x"}');
    const a = doc.get("a");
    if (a !== null) a.push(JsonValue.int(2));
    expect(jsonEquals(doc, parse('{"b":"x","a":[1,2.0]}'))).toBe(true);
    expect(jsonEquals(doc, parse('{"b":"x","a":[1]}'))).toBe(false);
  });

  it("compares 5000-deep documents without recursion", () => {
    const a = JsonValue.array(),
      b = JsonValue.array();
    let x = a,
      y = b;
    for (let i = 0; i < 5000; i++) {
      const nx = JsonValue.array(),
        ny = JsonValue.array();
      x.push(nx);
      y.push(ny);
      x = nx;
      y = ny;
    }
    expect(jsonEquals(a, b)).toBe(true);
    y.push(JsonValue.int(1));
    expect(jsonEquals(a, b)).toBe(false);
  });
});
