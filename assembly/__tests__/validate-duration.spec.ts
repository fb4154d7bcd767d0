import { parseJsonString } from "../json/index";
import { FieldErrorList, isGoDuration, newPath, readDurationAt } from "../validate/index";

function accepted(s: string): void {
  expect(isGoDuration(s)).toBe(true, s);
}
function refused(s: string): void {
  expect(isGoDuration(s)).toBe(false, s);
}

describe("Go duration grammar", () => {
  it("a lone 0, signed or not, needs no unit; 00 does", () => {
    accepted("0");
    accepted("-0");
    accepted("+0");
    refused("00");
    accepted("0s");
  });
  it("empty, a bare sign, a number without a unit", () => {
    refused("");
    refused("+");
    refused("-");
    refused("5");
    refused("1m1");
  });
  it("every unit; case and unknown units refused", () => {
    accepted("1ns");
    accepted("1us");
    accepted("1\u00b5s"); // micro sign
    accepted("1\u03bcs"); // Greek mu
    accepted("1ms");
    accepted("1s");
    accepted("1m");
    accepted("1h");
    refused("1S");
    refused("1Ms");
    refused("1d");
    refused("1sec");
  });
  it("what the API and its upstream write", () => {
    accepted("5m");
    accepted("5m0s");
    accepted("10m");
    accepted("90s");
    accepted("1m30s");
    accepted("1h30m");
  });
  it("fractions: digits before or after the point, not neither", () => {
    accepted("1.5h");
    accepted(".5s");
    accepted("5.s");
    accepted("1.h");
    refused(".s");
    refused("-.s");
    refused("1..5s");
  });
  it("fraction digits past 63 bits stop adding precision", () => {
    accepted("0.00000000000000000000000000001s");
    accepted("1.0000000000000000000000001h");
  });
  it("no spaces, signs between parts, exponents or separators", () => {
    refused(" 1s");
    refused("1s ");
    refused("5 m");
    refused("1h-1m");
    refused("1e3s");
    refused("1_0s");
    refused("5m\u0000");
  });
});

describe("Go duration range: at most 2^63 - 1 ns, down to -2^63 ns", () => {
  it("ns: 2^63 - 1 accepted, 2^63 refused", () => {
    accepted("9223372036854775807ns");
    refused("9223372036854775808ns");
    refused("10000000000000000000ns");
    refused("99999999999999999999ns");
  });
  it("negative: -2^63 accepted, -2^63 - 1 refused", () => {
    accepted("-9223372036854775808ns");
    refused("-9223372036854775809ns");
  });
  it("h: 2562047 accepted, 2562048 refused", () => {
    accepted("2562047h");
    refused("2562048h");
  });
  it("mixed units: the exact maximum accepted, one ns more refused", () => {
    accepted("2562047h47m16.854775807s");
    refused("2562047h47m16.854775808s");
  });
  it("fractional seconds at the bound, both signs", () => {
    accepted("9223372036.854775807s");
    refused("9223372036.854775808s");
    accepted("-9223372036.854775808s");
    refused("-9223372036.854775809s");
  });
  it("two parts of 2^63 ns each wrap Go's unsigned sum to 0, which Go accepts", () => {
    accepted("9223372036854775808ns9223372036854775808ns");
  });
});

function errorsOf(json: string): string {
  const errs = new FieldErrorList();
  const r = readDurationAt(parseJsonString(json).value, "t", newPath("spec"), errs);
  return (r.ok ? "ok " + r.value : r.invalid ? "invalid" : "absent") + " | " + errs.distinctMessages().join("; ");
}

describe("readDurationAt: a duration field of a validator", () => {
  it("absent and null are absent", () => {
    expect(errorsOf("{}")).toBe("absent | ");
    expect(errorsOf('{"t":null}')).toBe("absent | ");
  });
  it("a Go duration is read as written", () => {
    expect(errorsOf('{"t":"1m30s"}')).toBe("ok 1m30s | ");
  });
  it("another string: must be a duration", () => {
    expect(errorsOf('{"t":"soon"}')).toBe('invalid | spec.t: Invalid value: "soon": must be a duration');
  });
  it("another JSON type: must be a string", () => {
    expect(errorsOf('{"t":300}')).toBe("invalid | spec.t: Invalid value: 300: must be a string");
  });
});
