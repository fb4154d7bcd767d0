import { parseJsonString, JsonValue } from "../json/index";
import { FieldErrorList, newPath } from "../validate/index";
import { integerInRange, integralI64, isIntegralNumber, readBoolAt, readIntegerAt } from "../validate/scalars";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.nul();
}

describe("isIntegralNumber", () => {
  it("takes integer text of any length and integral floats within 2^53", () => {
    expect(isIntegralNumber(parse("5600"))).toBe(true);
    expect(isIntegralNumber(parse("-99999999999999999999999"))).toBe(true);
    expect(isIntegralNumber(parse("5600.0"))).toBe(true);
    expect(isIntegralNumber(parse("5.6e3"))).toBe(true);
    expect(isIntegralNumber(parse("9007199254740991.0"))).toBe(true);
  });
  it("refuses fractions, floats beyond 2^53 and non-numbers", () => {
    expect(isIntegralNumber(parse("5600.5"))).toBe(false);
    expect(isIntegralNumber(parse("9007199254740992.0"))).toBe(false);
    expect(isIntegralNumber(parse("1e400"))).toBe(false);
    expect(isIntegralNumber(parse('"5600"'))).toBe(false);
    expect(isIntegralNumber(parse("true"))).toBe(false);
  });
});

describe("integralI64", () => {
  it("reads integer text and integral float spellings as the same value", () => {
    expect(integralI64(parse("64")).value).toBe(64);
    expect(integralI64(parse("64.0")).value).toBe(64);
    expect(integralI64(parse("6.4e1")).ok).toBe(true);
    expect(integralI64(parse("6.4e1")).value).toBe(64);
    expect(integralI64(parse("-2.0")).value).toBe(-2);
    expect(integralI64(parse("9007199254740991.0")).value).toBe(9007199254740991);
    expect(integralI64(parse("9223372036854775807")).value).toBe(i64.MAX_VALUE);
  });
  it("is Invalid for fractions, floats beyond 2^53, integers beyond i64 and non-numbers", () => {
    expect(integralI64(parse("64.5")).ok).toBe(false);
    expect(integralI64(parse("9007199254740992.0")).ok).toBe(false);
    expect(integralI64(parse("9223372036854775808")).ok).toBe(false);
    expect(integralI64(parse("1e400")).ok).toBe(false);
    expect(integralI64(parse('"64"')).ok).toBe(false);
  });
});

describe("integerInRange", () => {
  it("lower bound from both sides: just below, at, just above", () => {
    expect(integerInRange(parse("1023"), 1024, 65535)).toBe(false);
    expect(integerInRange(parse("1024"), 1024, 65535)).toBe(true);
    expect(integerInRange(parse("1025"), 1024, 65535)).toBe(true);
  });
  it("upper bound from both sides: just below, at, just above, far above", () => {
    expect(integerInRange(parse("65534"), 1024, 65535)).toBe(true);
    expect(integerInRange(parse("65535"), 1024, 65535)).toBe(true);
    expect(integerInRange(parse("65536"), 1024, 65535)).toBe(false);
    expect(integerInRange(parse("99999999999999999999999"), 1024, 65535)).toBe(false);
  });
  it("float spellings compare by value", () => {
    expect(integerInRange(parse("1.024e3"), 1024, 65535)).toBe(true);
    expect(integerInRange(parse("1.023e3"), 1024, 65535)).toBe(false);
    expect(integerInRange(parse("65535.0"), 1024, 65535)).toBe(true);
    expect(integerInRange(parse("65536.0"), 1024, 65535)).toBe(false);
  });
  it("the i64 edge: i64 max is in [0, i64 max], one more is not (a float64 would round it in)", () => {
    expect(integerInRange(parse("9223372036854775807"), 0, i64.MAX_VALUE)).toBe(true);
    expect(integerInRange(parse("9223372036854775808"), 0, i64.MAX_VALUE)).toBe(false);
    expect(integerInRange(parse("-9223372036854775809"), i64.MIN_VALUE, 0)).toBe(false);
  });
});

describe("readIntegerAt and readBoolAt", () => {
  it("absent and null read as absent without an error", () => {
    const errs = new FieldErrorList();
    const o = parse('{"n":null,"b":null}');
    expect(readIntegerAt(o, "n", newPath("x"), errs).missing).toBe(true);
    expect(readIntegerAt(o, "m", newPath("x"), errs).missing).toBe(true);
    expect(readBoolAt(o, "b", newPath("x"), errs).missing).toBe(true);
    expect(errs.isEmpty()).toBe(true);
  });
  it("a wrong type is one field error at the member's path", () => {
    const errs = new FieldErrorList();
    const o = parse('{"n":1.5,"b":"true"}');
    expect(readIntegerAt(o, "n", newPath("x"), errs).invalid).toBe(true);
    expect(readBoolAt(o, "b", newPath("x"), errs).invalid).toBe(true);
    expect(errs.aggregateText()).toBe(
      '[x.n: Invalid value: 1.5: must be an integer, x.b: Invalid value: "true": must be a boolean]',
    );
  });
  it("reads both booleans", () => {
    const errs = new FieldErrorList();
    const o = parse('{"t":true,"f":false}');
    expect(readBoolAt(o, "t", null, errs).value).toBe(true);
    expect(readBoolAt(o, "f", null, errs).ok).toBe(true);
    expect(readBoolAt(o, "f", null, errs).value).toBe(false);
  });
});
