import {
  parseQuantity,
  isMultipleOf,
  Quantity,
  readQuantityAt,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  QUANTITY_NUMERIC_ERROR,
} from "../validate/quantity";
import { FieldErrorList, newPath } from "../validate/index";
import { parseJsonString, JsonValue } from "../json/index";

/** What Kubernetes prints for `s`, or `error: <text>`. */
function printed(s: string): string {
  const r = parseQuantity(s);
  const q = r.quantity;
  return q === null ? "error: " + r.error : q.toString();
}

function q(s: string): Quantity {
  const r = parseQuantity(s);
  const v = r.quantity;
  return v !== null ? v : new Quantity(false, "", 0, 0, "parse failed: " + s);
}

describe("parseQuantity: every suffix", () => {
  it("decimal SI suffixes n u m k M G T P E", () => {
    expect(printed("1n")).toBe("1n");
    expect(printed("1u")).toBe("1u");
    expect(printed("1m")).toBe("1m");
    expect(printed("1")).toBe("1");
    expect(printed("1k")).toBe("1k");
    expect(printed("1M")).toBe("1M");
    expect(printed("1G")).toBe("1G");
    expect(printed("1T")).toBe("1T");
    expect(printed("1P")).toBe("1P");
    expect(printed("1E")).toBe("1E");
  });
  it("binary suffixes Ki Mi Gi Ti Pi Ei", () => {
    expect(printed("1Ki")).toBe("1Ki");
    expect(printed("1Mi")).toBe("1Mi");
    expect(printed("1Gi")).toBe("1Gi");
    expect(printed("1Ti")).toBe("1Ti");
    expect(printed("1Pi")).toBe("1Pi");
    expect(printed("1Ei")).toBe("1Ei");
    expect(printed("7Ei")).toBe("7Ei");
  });
  it("decimal exponents e and E, signed", () => {
    expect(printed("1e3")).toBe("1e3"); // written canonically: kept
    expect(printed("1E3")).toBe("1E3");
    expect(printed("1.5e3")).toBe("1500");
    expect(printed("15e-1")).toBe("1500e-3"); // exponent-written: printed with e<n>
    expect(printed("1e+3")).toBe("1e+3");
    expect(printed("1e-10")).toBe("1e-9"); // below 1n: rounded up
    expect(printed("1e100")).toBe("10e99"); // the exact path keeps the value, no cap
  });
  it("a suffix without a number is zero; a lone e is not a suffix", () => {
    expect(printed("e5")).toBe("0");
    expect(printed("Ki")).toBe("0");
    expect(printed("-")).toBe("0");
    expect(printed(".")).toBe("0");
    expect(printed("e")).toBe("error: " + QUANTITY_SUFFIX_ERROR);
    expect(printed("1e")).toBe("error: " + QUANTITY_SUFFIX_ERROR);
    expect(printed("1ee5")).toBe("error: " + QUANTITY_SUFFIX_ERROR);
    expect(printed("1Ki5")).toBe("error: " + QUANTITY_SUFFIX_ERROR);
  });
  it("text outside the grammar", () => {
    expect(printed("")).toBe("error: " + QUANTITY_FORMAT_ERROR);
    expect(printed("1.5.5")).toBe("error: " + QUANTITY_FORMAT_ERROR);
    expect(printed("1Mb")).toBe("error: " + QUANTITY_FORMAT_ERROR);
    expect(printed("1 Gi")).toBe("error: " + QUANTITY_FORMAT_ERROR);
    expect(printed("abc")).toBe("error: " + QUANTITY_FORMAT_ERROR);
    expect(printed("+.e-10")).toBe("error: " + QUANTITY_NUMERIC_ERROR);
  });
});

describe("Quantity.toString: canonical forms as Kubernetes prints them", () => {
  it("decimal values lower their exponent to a multiple of three", () => {
    expect(printed("0.1")).toBe("100m");
    expect(printed("1.5")).toBe("1500m");
    expect(printed("1000m")).toBe("1");
    expect(printed("1500m")).toBe("1500m");
    expect(printed("1000")).toBe("1k");
    expect(printed("12000")).toBe("12k");
    expect(printed("1000k")).toBe("1M");
    expect(printed("0.5Gi")).toBe("512Mi");
  });
  it("zero is 0 in every spelling", () => {
    expect(printed("0")).toBe("0");
    expect(printed("0Gi")).toBe("0");
    expect(printed("-0")).toBe("0");
    expect(printed("0.000")).toBe("0");
  });
  it("binary values print in decimal below 1024 and when a 1024 suffix does not divide them", () => {
    expect(printed("1023")).toBe("1023");
    expect(printed("1024")).toBe("1024"); // decimal input stays decimal
    expect(printed("1.5Ki")).toBe("1536");
    expect(printed("0.5Ki")).toBe("512");
    expect(printed("1023Ki")).toBe("1023Ki");
    expect(printed("1024Ki")).toBe("1Mi");
    expect(printed("1025Ki")).toBe("1025Ki");
    expect(printed("1.5Gi")).toBe("1536Mi");
    expect(printed("-1Ki")).toBe("-1Ki");
    expect(printed("0.5")).toBe("500m");
  });
  it("text already canonical keeps its spelling, as Kubernetes caches it", () => {
    expect(printed("+1")).toBe("+1");
    expect(printed("5e0")).toBe("5e0");
    expect(printed("01")).toBe("01");
    expect(printed("-100m")).toBe("-100m");
    expect(printed("8Ki")).toBe("8Ki"); // 8 & 7 == 0: not cached, but canonical anyway
    expect(printed("1536Mi")).toBe("1536Mi");
  });
});

describe("parseQuantity: bounds", () => {
  it("the exact path ends at 18 digits; beyond, values are capped at 2^63 - 1 (both sides)", () => {
    expect(printed("9223372036854775806")).toBe("9223372036854775806");
    expect(printed("9223372036854775807")).toBe("9223372036854775807");
    expect(printed("9223372036854775808")).toBe("9223372036854775807");
    expect(printed("100000000000000000000000")).toBe("9223372036854775807");
    expect(printed("-9223372036854775808")).toBe("-9223372036854775807");
    expect(printed("8Ei")).toBe("9223372036854775807"); // 2^63 > cap
    expect(printed("10E")).toBe("10E"); // 18 digits or fewer: exact, not capped
  });
  it("values are rounded up to 1n, away from zero (both sides of 1n)", () => {
    expect(printed("0.000000001")).toBe("1n");
    expect(printed("0.0000000001")).toBe("1n");
    expect(printed("0.0000000011")).toBe("2n");
    expect(printed("-0.0000000001")).toBe("-1n");
    expect(printed("0.000000002")).toBe("2n");
  });
});

describe("Quantity comparisons", () => {
  it("cmp orders by value, whatever the spelling", () => {
    expect(q("1").cmp(q("1000m"))).toBe(0);
    expect(q("999m").cmp(q("1"))).toBe(-1);
    expect(q("1001m").cmp(q("1"))).toBe(1);
    expect(q("1Ki").cmp(q("1024"))).toBe(0);
    expect(q("-1").cmp(q("0"))).toBe(-1);
    expect(q("-2").cmp(q("-1"))).toBe(-1);
    expect(q("1e100").cmp(q("9223372036854775807"))).toBe(1);
  });
  it("sign and isInteger", () => {
    expect(q("0").sign()).toBe(0);
    expect(q("-1n").sign()).toBe(-1);
    expect(q("1n").sign()).toBe(1);
    expect(q("1").isInteger()).toBe(true);
    expect(q("999m").isInteger()).toBe(false);
    expect(q("1001m").isInteger()).toBe(false);
    expect(q("2000m").isInteger()).toBe(true);
  });
  it("isMultipleOf: whole multiples only (both sides)", () => {
    expect(isMultipleOf(q("4Mi"), q("2Mi"))).toBe(true);
    expect(isMultipleOf(q("3Mi"), q("2Mi"))).toBe(false);
    expect(isMultipleOf(q("2097151"), q("2Mi"))).toBe(false);
    expect(isMultipleOf(q("2097152"), q("2Mi"))).toBe(true);
    expect(isMultipleOf(q("2097153"), q("2Mi"))).toBe(false);
    expect(isMultipleOf(q("0"), q("2Mi"))).toBe(true);
    expect(isMultipleOf(q("1e30"), q("1Gi"))).toBe(true); // 10^30 = 2^30 * 5^30
    expect(isMultipleOf(q("1e30"), q("3"))).toBe(false);
    expect(isMultipleOf(q("1e30"), q("1k"))).toBe(true);
    expect(isMultipleOf(q("1.5"), q("1"))).toBe(false);
    expect(isMultipleOf(q("2"), q("0"))).toBe(false);
  });
});

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.nul();
}

describe("readQuantityAt", () => {
  it("reads strings (trimmed) and numbers, reports other types and bad text", () => {
    const errs = new FieldErrorList();
    const obj = parse('{"a":" 1Gi ","b":1.5,"c":true,"d":"1Mb","e":null}');
    const at = newPath("spec");
    expect(readQuantityAt(obj, "a", at, errs).value!.toString()).toBe("1Gi");
    expect(readQuantityAt(obj, "b", at, errs).value!.toString()).toBe("1500m");
    expect(readQuantityAt(obj, "c", at, errs).invalid).toBe(true);
    expect(readQuantityAt(obj, "d", at, errs).invalid).toBe(true);
    expect(readQuantityAt(obj, "e", at, errs).missing).toBe(true);
    expect(errs.aggregateText()).toBe(
      '[spec.c: Invalid value: true: must be a string, spec.d: Invalid value: "1Mb": ' + QUANTITY_FORMAT_ERROR + "]",
    );
  });
});
