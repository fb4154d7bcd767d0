// The serde_json-compatible writer (tools/host/serde.ts) and the bytes the host hands the guest
// (docs/decisions.md, "Payload bytes"). Expected texts follow serde_json's parser (integers stay
// u64/i64, everything else is an f64 computed from the first 64 bits of the significand and one
// power of ten), its escaping table, BTreeMap key order, and its float formatter's documented
// outputs (`3.0`, `-0.0`, `1.7976931348623157e+308`, `544431068535091.6`, `6.62607015e-34`).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { evaluate, guestPayloads } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { toAdmissionRequest, toSettings } from "../tools/host/request";
import { parseJsonOrYaml } from "../tools/host/documents";
import {
  formatF64,
  parseJsonNodes,
  SerdeError,
  serdeJson,
  valueFromNode,
  writeNode,
  writeNumberText,
  writeString,
} from "../tools/host/serde";
import { probeWasmBytes } from "./helpers/host-guests";

describe("serde writer: numbers", () => {
  const cases: [string, string][] = [
    // integers stay integers, in u64 / i64 range
    ["0", "0"],
    ["256", "256"],
    ["-2", "-2"],
    ["18446744073709551615", "18446744073709551615"],
    ["-9223372036854775808", "-9223372036854775808"],
    // the 2^53 boundary: integers are exact (JS numbers are not), floats are f64
    ["9007199254740992", "9007199254740992"],
    ["9007199254740993", "9007199254740993"],
    ["9007199254740992.0", "9007199254740992.0"],
    // 90071992547409930 as f64 is …940, divided by 10 gives …994: serde_json's own rounding
    ["9007199254740993.0", "9007199254740994.0"],
    // beyond u64 / i64 an integer becomes an f64
    ["18446744073709551616", "1.8446744073709552e+19"],
    ["-9223372036854775809", "-9.223372036854776e+18"],
    // negative zero is a float
    ["-0", "-0.0"],
    ["-0.0", "-0.0"],
    ["0.0", "0.0"],
    ["0e5", "0.0"],
    // floats keep a fraction; exponents are normalized
    ["256.0", "256.0"],
    ["2.56e2", "256.0"],
    ["1E+2", "100.0"],
    ["25600e-2", "256.0"],
    ["3.1", "3.1"],
    ["-1.5", "-1.5"],
    ["0.5", "0.5"],
    ["43210.0", "43210.0"],
    ["-5942736479622170.0", "-5942736479622170.0"],
    ["5.444310685350916e+14", "544431068535091.6"],
    // plain notation for decimal exponents -5..=15, `e+N` / `e-N` otherwise
    ["1e15", "1000000000000000.0"],
    ["1e16", "1e+16"],
    ["1e21", "1e+21"],
    ["1.5e-7", "1.5e-7"],
    ["1e-5", "0.00001"],
    ["1e-6", "1e-6"],
    ["0.000123", "0.000123"],
    ["2.220446049250313e-16", "2.220446049250313e-16"],
    ["1.7976931348623157e308", "1.7976931348623157e+308"],
    ["6.62607015e-34", "6.62607015e-34"],
    ["5e-324", "5e-324"],
    // underflow is zero with its sign
    ["1e-400", "0.0"],
    ["-1e-400", "-0.0"],
    // an exponent past i32: a signed zero when negative or when the significand is 0
    ["1e-99999999999", "0.0"],
    ["-1e-99999999999", "-0.0"],
    ["-0e99999999999", "-0.0"],
    ["0e400", "0.0"],
    ["1e-" + "9".repeat(400), "0.0"],
    // digits past u64 (1844674407370955161|6…): fraction digits are dropped and integer digits only
    // scale, even where a later digit would still fit, so these are not the nearest f64s
    // (1.8446744073709551, 0.0853213036012984)
    ["1.84467440737095516160", "1.8446744073709553"],
    ["184467440737095516160e-20", "1.8446744073709553"],
    ["0.0853213036012983896017", "0.08532130360129839"],
  ];
  for (const [input, expected] of cases) {
    test(`${input} → ${expected}`, () => assert.equal(writeNumberText(input), expected));
  }

  test('a number beyond f64 is serde_json\'s "number out of range"', () => {
    assert.throws(
      () => writeNumberText("1e400"),
      (e: unknown) => e instanceof SerdeError && e.message === "number out of range",
    );
    assert.throws(() => writeNumberText("-1e400"), /number out of range/);
    assert.throws(() => writeNumberText("1e99999999999"), /number out of range/);
    // past f64 by the multiplication by a power of ten in the table (1e0 … 1e308), not past it
    assert.throws(() => writeNumberText("2e308"), /number out of range/);
    assert.throws(() => writeNumberText("1.8e308"), /number out of range/);
    assert.throws(() => writeNumberText("1e2147483648"), /number out of range/);
    assert.throws(() => writeNumberText("1e" + "9".repeat(400)), /number out of range/);
    assert.equal(writeNumberText("0e99999999999"), "0.0");
  });

  test("non-finite values are written as null, like serde_json::to_value", () => {
    assert.equal(formatF64(NaN), "null");
    assert.equal(formatF64(Infinity), "null");
  });
});

describe("serde writer: strings", () => {
  test("quote, backslash and the short escapes", () => {
    assert.equal(writeString('"\\\b\f\n\r\t'), '"\\"\\\\\\b\\f\\n\\r\\t"');
  });
  test("other control characters are \\u00xx with lowercase hex; DEL is not escaped", () => {
    assert.equal(writeString("\u0000\u0001\u001b\u001f\u007f"), '"\\u0000\\u0001\\u001b\\u001f\u007f"');
  });
  test("`/`, non-ASCII, astral characters and U+2028 are written as they are", () => {
    assert.equal(writeString("a/b é 😀 \u2028"), '"a/b é 😀 \u2028"');
  });
  test("escapes in the source are re-escaped the serde way", () => {
    assert.equal(writeNode(parseJsonNodes('"\\/\\u00e9\\ud83d\\ude00\\u001B\\u000a"')), '"/é😀\\u001b\\n"');
  });
});

describe("serde writer: objects", () => {
  test("keys in UTF-8 byte order (not UTF-16 order), prefixes first", () => {
    const text = '{"b":1,"😀":2,"\uffff":3,"ab":4,"a":5,"_":6,"B":7,"a\\u0000":8}';
    assert.equal(writeNode(parseJsonNodes(text)), '{"B":7,"_":6,"a":5,"a\\u0000":8,"ab":4,"b":1,"\uffff":3,"😀":2}');
  });
  test("a duplicate key keeps its last value", () => {
    assert.equal(writeNode(parseJsonNodes('{"a":1,"b":2,"a":3}')), '{"a":3,"b":2}');
  });
  test("whitespace is dropped; arrays keep their order", () => {
    assert.equal(
      writeNode(parseJsonNodes(' { "x" : [ 3 , 1.0 , { } , [ ] , null , true , false ] } ')),
      '{"x":[3,1.0,{},[],null,true,false]}',
    );
  });
  test("plain values: safe integers as integers, other numbers as floats, undefined members skipped", () => {
    assert.equal(
      serdeJson({ z: 1, a: 0.5, m: -0, big: 2 ** 60, u: undefined, l: [1, "s", null] }),
      '{"a":0.5,"big":1.152921504606847e+18,"l":[1,"s",null],"m":-0.0,"z":1}',
    );
    // an undefined item keeps its place, as null (JSON.stringify does the same)
    assert.equal(serdeJson([1, undefined, null]), "[1,null,null]");
    assert.equal(serdeJson(undefined), "null");
  });
  test("values parsed from a document keep their number text", () => {
    const v = valueFromNode(parseJsonNodes('{"spec":{"b":2.56e2,"a":256.0,"c":9007199254740993}}')) as {
      spec: Record<string, number>;
    };
    assert.equal(v.spec.a, 256); // the plain value is an ordinary number …
    assert.equal(serdeJson(v), '{"spec":{"a":256.0,"b":256.0,"c":9007199254740993}}'); // … the written one is not
    assert.equal(serdeJson({ wrapped: v.spec }), '{"wrapped":{"a":256.0,"b":256.0,"c":9007199254740993}}');
  });
  test("a value changed after parsing is written as it is now, never from stale text", () => {
    const v = valueFromNode(parseJsonNodes('{"a":256.0,"b":1.0,"l":[2.0,3.0]}')) as {
      a: number;
      b: number;
      c?: unknown;
      l: number[];
    };
    v.a = 128;
    v.c = { x: 1.5 };
    v.l.push(4);
    assert.equal(serdeJson(v), '{"a":128,"b":1.0,"c":{"x":1.5},"l":[2.0,3.0,4]}');
  });
});

describe("payload bytes the guest receives", () => {
  const review = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
    "uid":"u1","operation":"CREATE","extraKey":"dropped","namespace":"ns","dryRun":null,
    "userInfo":{"username":"alice","unknown":"dropped","groups":["g"]},
    "kind":{"kind":"CacheBlendEngine","version":"v1alpha1","group":"lmcache.lmcache.ai","x":1},
    "resource":{"resource":"cacheblendengines","version":"v1alpha1","group":"lmcache.lmcache.ai"},
    "object":{"spec":{"server":{"chunkSize":256.0},"blend":{"checkLayer":2.56e2}},"metadata":{"name":"cb","labels":{"b":"/","a":"\\u00e9"}},"kind":"CacheBlendEngine"}}}`;
  const expectedRequest =
    '{"kind":{"group":"lmcache.lmcache.ai","kind":"CacheBlendEngine","version":"v1alpha1"},"namespace":"ns",' +
    '"object":{"kind":"CacheBlendEngine","metadata":{"labels":{"a":"é","b":"/"},"name":"cb"},"spec":{"blend":{"checkLayer":256.0},"server":{"chunkSize":256.0}}},' +
    '"operation":"CREATE","resource":{"group":"lmcache.lmcache.ai","resource":"cacheblendengines","version":"v1alpha1"},' +
    '"uid":"u1","userInfo":{"groups":["g"],"username":"alice"}}';

  test("request: AdmissionRequest fields only, keys sorted, numbers as written", () => {
    const request = toAdmissionRequest(parseJsonOrYaml(review, "r.json"), "r.json");
    const settings = toSettings(parseJsonOrYaml('{"z":{"ratio":1.0},"a":[1e2]}', "s.json"), "s.json");
    assert.deepEqual(guestPayloads(request, settings), {
      validateSettings: '{"a":[100.0],"z":{"ratio":1.0}}',
      validate: `{"request":${expectedRequest},"settings":{"a":[100.0],"z":{"ratio":1.0}}}`,
    });
  });

  test("YAML inputs keep floats as floats and integers as integers", () => {
    const request = toAdmissionRequest(
      parseJsonOrYaml(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {a: 256.0, b: 256, c: 2.56e2, d: .inf}\n",
        "p.yml",
      ),
      "p.yml",
    );
    assert.match(guestPayloads(request).validate, /"spec":\{"a":256\.0,"b":256,"c":256\.0,"d":null\}/);
  });

  test("a request with a number serde_json cannot hold is refused on reading", () => {
    assert.throws(() => parseJsonOrYaml('{"a":1e400}', "r.json"), /^Error: r\.json: number out of range: 1e400$/);
  });

  test("evaluate hands the guest exactly these bytes, for validate_settings and validate", () => {
    const probe = PolicyModule.fromBytes(probeWasmBytes(), "host-probe");
    const seen: string[] = [];
    const spy = Object.create(probe) as PolicyModule;
    spy.call = (operation, payload, opts) => {
      seen.push(`${operation} ${typeof payload === "string" ? payload : Buffer.from(payload).toString("utf8")}`);
      return probe.call(operation, payload, opts);
    };
    const request = toAdmissionRequest(parseJsonOrYaml(review, "r.json"), "r.json");
    evaluate(spy, request, {
      settings: toSettings(parseJsonOrYaml('{"b":1.0,"a":1}', "s.json"), "s.json"),
      timeBudgetMs: null,
    });
    assert.deepEqual(seen, [
      'validate_settings {"a":1,"b":1.0}',
      `validate {"request":${expectedRequest},"settings":{"a":1,"b":1.0}}`,
    ]);
  });
});
