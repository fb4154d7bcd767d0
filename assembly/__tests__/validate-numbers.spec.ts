import {
  isFiniteGoFloatGreaterThanZero,
  isFloat64AJSONInteger,
  isGoInt,
  parseGoFloat,
  parseGoInt,
} from "../validate/index";

function acceptedRatio(s: string): void {
  expect(isFiniteGoFloatGreaterThanZero(s)).toBe(true, s);
}
function rejectedRatio(s: string): void {
  expect(isFiniteGoFloatGreaterThanZero(s)).toBe(false, s);
}
function floatSyntaxOk(s: string, value: f64): void {
  const r = parseGoFloat(s);
  expect(r.ok).toBe(true, s);
  expect(r.finite).toBe(true, s);
  expect(r.value).toBe(value, s);
}
function floatSyntaxError(s: string): void {
  const r = parseGoFloat(s);
  expect(r.ok).toBe(false, s);
  expect(r.rangeError).toBe(false, s);
}

describe("Go float grammar: accepted ratios", () => {
  it("2", () => {
    acceptedRatio("2");
  });
  it("2.0", () => {
    acceptedRatio("2.0");
  });
  it(".5", () => {
    acceptedRatio(".5");
  });
  it("5.", () => {
    acceptedRatio("5.");
  });
  it("+2", () => {
    acceptedRatio("+2");
  });
  it("2e0", () => {
    acceptedRatio("2e0");
  });
  it("0x1p-2", () => {
    acceptedRatio("0x1p-2");
  });
  it("1_000", () => {
    acceptedRatio("1_000");
  });
});

describe("Go float grammar: rejected ratios", () => {
  it("Inf", () => {
    rejectedRatio("Inf");
  });
  it("NaN", () => {
    rejectedRatio("NaN");
  });
  it("0", () => {
    rejectedRatio("0");
  });
  it("-1", () => {
    rejectedRatio("-1");
  });
  it("leading space", () => {
    rejectedRatio(" 2");
  });
  it("trailing space", () => {
    rejectedRatio("2 ");
  });
  it("1e400 (range)", () => {
    rejectedRatio("1e400");
  });
  it("1e-400 (underflow to 0)", () => {
    rejectedRatio("1e-400");
  });
  it("abc", () => {
    rejectedRatio("abc");
  });
  it("0x1 (hex without exponent)", () => {
    rejectedRatio("0x1");
  });
  it("empty", () => {
    rejectedRatio("");
  });
});

describe("Go float grammar: values", () => {
  it("decimal forms", () => {
    floatSyntaxOk("2", 2.0);
    floatSyntaxOk("2.0", 2.0);
    floatSyntaxOk(".5", 0.5);
    floatSyntaxOk("5.", 5.0);
    floatSyntaxOk("+2", 2.0);
    floatSyntaxOk("-2.5", -2.5);
    floatSyntaxOk("2e0", 2.0);
    floatSyntaxOk("2E+1", 20.0);
    floatSyntaxOk("25e-1", 2.5);
    floatSyntaxOk("0.15", 0.15);
    floatSyntaxOk("007", 7.0);
    floatSyntaxOk("1.7976931348623157e308", 1.7976931348623157e308);
  });
  it("correctly rounded decimal edge cases", () => {
    floatSyntaxOk("1e23", 1e23);
    floatSyntaxOk("4.9e-324", 5e-324);
    // Known approximation: AssemblyScript's strtod may be 1 ulp off at the subnormal boundary
    // (2.2250738585072011e-308); irrelevant for "finite and > 0" and for ratio equivalence.
    expect(parseGoFloat("2.2250738585072011e-308").value > 0).toBe(true);
    floatSyntaxOk("123456789012345678901234567890", 123456789012345678901234567890.0);
    floatSyntaxOk("0.1", 0.1);
    floatSyntaxOk("9007199254740993", 9007199254740992.0);
    floatSyntaxOk("0.000000000000000000000000000001", 1e-30);
  });
  it("hex floats", () => {
    floatSyntaxOk("0x1p-2", 0.25);
    floatSyntaxOk("0x1p1", 2.0);
    floatSyntaxOk("0X1P1", 2.0);
    floatSyntaxOk("0x.8p1", 1.0);
    floatSyntaxOk("0x1.8p0", 1.5);
    floatSyntaxOk("0xAp0", 10.0);
    floatSyntaxOk("-0x1p+3", -8.0);
    floatSyntaxOk("0x1.fffffffffffffp1023", 1.7976931348623157e308);
    floatSyntaxOk("0x1p-1074", 5e-324);
    floatSyntaxOk("0x0p0", 0.0);
  });
  it("hex float errors", () => {
    floatSyntaxError("0x1");
    floatSyntaxError("0x");
    floatSyntaxError("0xp1");
    floatSyntaxError("0x1p");
    floatSyntaxError("0x1p+");
    floatSyntaxError("0x1e1");
    floatSyntaxError("0x1g");
    const big = parseGoFloat("0x1p1024");
    expect(big.ok).toBe(false);
    expect(big.rangeError).toBe(true);
  });
  it("decimal errors", () => {
    floatSyntaxError(".");
    floatSyntaxError("+");
    floatSyntaxError("1e");
    floatSyntaxError("1e+");
    floatSyntaxError("1e_1");
    floatSyntaxError("1.2.3");
    floatSyntaxError("1,5");
    floatSyntaxError("2\u00a0");
    floatSyntaxError("0b1");
    floatSyntaxError("1f");
  });
  it("range errors", () => {
    const r = parseGoFloat("1e400");
    expect(r.ok).toBe(false);
    expect(r.rangeError).toBe(true);
    expect(parseGoFloat("-1e400").rangeError).toBe(true);
    const u = parseGoFloat("1e-400");
    expect(u.ok).toBe(true);
    expect(u.value).toBe(0.0);
  });
});

describe("Go float grammar: underscores", () => {
  it("allowed between digits and after a base prefix", () => {
    floatSyntaxOk("1_000", 1000.0);
    floatSyntaxOk("1_000.000_5", 1000.0005);
    floatSyntaxOk("1e1_0", 1e10);
    floatSyntaxOk("0x_1p0", 1.0);
    floatSyntaxOk("0x1_0p0", 16.0);
    floatSyntaxOk("-1_0", -10.0);
  });
  it("rejected elsewhere", () => {
    floatSyntaxError("_1");
    floatSyntaxError("1_");
    floatSyntaxError("1__0");
    floatSyntaxError("1_.5");
    floatSyntaxError("1._5");
    floatSyntaxError("1_e5");
    floatSyntaxError("1e5_");
    floatSyntaxError("0x1p_1");
    floatSyntaxError("+_1");
  });
});

describe("Go float grammar: inf / infinity / nan", () => {
  it("accepted by the grammar but not finite", () => {
    const names = [
      "Inf",
      "inf",
      "INF",
      "+Inf",
      "-inf",
      "Infinity",
      "infinity",
      "+INFINITY",
      "-Infinity",
      "NaN",
      "nan",
      "NAN",
    ];
    for (let i = 0; i < names.length; i++) {
      const r = parseGoFloat(names[i]);
      expect(r.ok).toBe(true, names[i]);
      expect(r.finite).toBe(false, names[i]);
      expect(isFiniteGoFloatGreaterThanZero(names[i])).toBe(false, names[i]);
    }
    expect(parseGoFloat("-Inf").value).toBe(-Infinity);
    expect(isNaN(parseGoFloat("nan").value)).toBe(true);
  });
  it("partial or signed forms are syntax errors", () => {
    floatSyntaxError("infin");
    floatSyntaxError("infinityy");
    floatSyntaxError("+nan");
    floatSyntaxError("-NaN");
    floatSyntaxError("na");
    floatSyntaxError("in");
    floatSyntaxError("inf ");
  });
  it("HiCache ratio equivalences", () => {
    const two = ["2", "2.0", "2e0", "0x1p1", "+2"];
    for (let i = 0; i < two.length; i++) expect(parseGoFloat(two[i]).value).toBe(2.0, two[i]);
  });
});

describe("Go int grammar (ParseInt base 10)", () => {
  it("accepts signs and leading zeros", () => {
    expect(parseGoInt("64").value).toBe(64);
    expect(parseGoInt("064").value).toBe(64);
    expect(parseGoInt("+64").value).toBe(64);
    expect(parseGoInt("-1").value).toBe(-1);
    expect(parseGoInt("0").ok).toBe(true);
  });
  it("rejects other shapes", () => {
    const bad = ["", "+", "-", "64.0", " 64", "64 ", "0x40", "1_000", "1e3", "６４"];
    for (let i = 0; i < bad.length; i++) {
      expect(isGoInt(bad[i])).toBe(false, bad[i]);
      expect(parseGoInt(bad[i]).rangeError).toBe(false, bad[i]);
    }
  });
  it("64-bit range", () => {
    expect(parseGoInt("9223372036854775807").value).toBe(i64.MAX_VALUE);
    expect(parseGoInt("-9223372036854775808").value).toBe(i64.MIN_VALUE);
    expect(parseGoInt("9223372036854775808").ok).toBe(false);
    expect(parseGoInt("9223372036854775808").rangeError).toBe(true);
    expect(parseGoInt("-9223372036854775809").rangeError).toBe(true);
    expect(parseGoInt("99999999999999999999999").rangeError).toBe(true);
  });
  it("32-bit range", () => {
    expect(parseGoInt("2147483647", 32).value).toBe(2147483647);
    expect(parseGoInt("-2147483648", 32).value).toBe(-2147483648);
    expect(parseGoInt("2147483648", 32).rangeError).toBe(true);
    expect(parseGoInt("-2147483649", 32).rangeError).toBe(true);
    expect(isGoInt("4294967296", 32)).toBe(false);
  });
});

describe("go-openapi IsFloat64AJSONInteger (schema `integer`)", () => {
  it("accepts integral floats up to ±(2^53 − 1)", () => {
    expect(isFloat64AJSONInteger(256.0)).toBe(true);
    expect(isFloat64AJSONInteger(-0.0)).toBe(true);
    expect(isFloat64AJSONInteger(9007199254740991.0)).toBe(true);
    expect(isFloat64AJSONInteger(-9007199254740991.0)).toBe(true);
  });
  it("rejects fractions, values beyond 2^53 − 1 and non-finite values", () => {
    expect(isFloat64AJSONInteger(256.5)).toBe(false);
    expect(isFloat64AJSONInteger(0.25)).toBe(false);
    expect(isFloat64AJSONInteger(9007199254740992.0)).toBe(false);
    expect(isFloat64AJSONInteger(-9007199254740992.0)).toBe(false);
    expect(isFloat64AJSONInteger(Infinity)).toBe(false);
    expect(isFloat64AJSONInteger(NaN)).toBe(false);
  });
});
