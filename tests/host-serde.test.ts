// The strict reader behind every guest response the host accepts or refuses (tools/host/serde.ts):
// the serde_json-shaped error a user sees when a policy answers malformed JSON or a wrong type,
// with its line and column.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { deserialize, SerdeError, SerdeType } from "../tools/host/serde";

const read = (text: string, type: SerdeType): string => {
  try {
    return `ok ${JSON.stringify(deserialize(text, type))}`;
  } catch (e) {
    assert.ok(e instanceof SerdeError);
    return `err ${e.message}`;
  }
};

describe("syntax errors and their positions", () => {
  const cases: [string, string][] = [
    ["", "EOF while parsing a value at line 1 column 0"],
    [" ", "EOF while parsing a value at line 1 column 1"],
    ["1 2", "trailing characters at line 1 column 3"],
    ['"a"x', "trailing characters at line 1 column 4"],
    ["01", "trailing characters at line 1 column 2"],
    ["[", "EOF while parsing a list at line 1 column 1"],
    ["[1", "EOF while parsing a list at line 1 column 2"],
    ["[1,", "EOF while parsing a list at line 1 column 3"],
    ["[1 2]", "expected `,` or `]` at line 1 column 4"],
    ["[1,]", "expected value at line 1 column 4"],
    ["{", "EOF while parsing an object at line 1 column 1"],
    ["{1:2}", "key must be a string at line 1 column 2"],
    ['{"a":1,}', "key must be a string at line 1 column 8"],
    ['{"a"', "EOF while parsing an object at line 1 column 4"],
    ['{"a" 1}', "expected `:` at line 1 column 6"],
    ['{"a":', "EOF while parsing an object at line 1 column 5"],
    ['{"a":1', "EOF while parsing an object at line 1 column 6"],
    ['{"a":1 "b":2}', "expected `,` or `}` at line 1 column 8"],
    ['"a\u0001"', "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"],
    ['"abc', "EOF while parsing a string at line 1 column 4"],
    ['"\\q"', "invalid escape at line 1 column 4"],
    ["nul", "expected value at line 1 column 1"],
    ["tru", "expected value at line 1 column 1"],
    ["-", "expected value at line 1 column 1"],
    ["\n\n  x", "expected value at line 3 column 3"],
    ['{"a":\r\n\t[1,\n}', "expected value at line 3 column 1"],
    // a line break after the error does not count, nor one right at its column
    ["[1 2]\n\n", "expected `,` or `]` at line 1 column 4"],
    ["1 x\n", "trailing characters at line 1 column 3"],
  ];
  for (const [text, message] of cases) {
    test(`${JSON.stringify(text)}: ${message}`, () => assert.equal(read(text, "value"), `err ${message}`));
  }

  test("whitespace is space, tab, CR and LF; the literals and empty containers read", () => {
    assert.equal(
      read('\t\r\n{ "a" : [ ] , "b" : { } , "c" : [null, true, false, -1.5e3, "\\u00e9"] }\n', "value"),
      'ok {"a":[],"b":{},"c":[null,true,false,-1500,"é"]}',
    );
    assert.equal(read("\f1", "value"), "err expected value at line 1 column 1");
  });

  test("an exponent may carry a sign", () => {
    assert.equal(read("[1e+2,1E-2,2e2]", "value"), "ok [100,0.01,200]");
    assert.equal(read("1e*2", "value"), "err trailing characters at line 1 column 2");
  });
});

describe("type errors: what was found, what was expected, where", () => {
  const found: [string, string, number][] = [
    ["null", "null", 4],
    ["true", "boolean `true`", 4],
    ["false", "boolean `false`", 5],
    ["5", "integer `5`", 1],
    ["-5", "integer `-5`", 2],
    ["18446744073709551615", "integer `18446744073709551615`", 20],
    ["1.0", "floating point `1.0`", 3],
    ["1.5", "floating point `1.5`", 3],
    ["1e2", "floating point `100.0`", 3],
    ['"x"', 'string "x"', 3],
    ["[1]", "sequence", 1],
    [' {"a":1}', "map", 2],
  ];
  const types: [SerdeType, string, string[]][] = [
    ["bool", "a boolean", ["true", "false"]],
    ["string", "a string", ['"x"']],
    // integers out of range are invalid values, not types (below)
    ["u16", "u16", ["5", "-5", "18446744073709551615"]],
    [{ map: "bool" }, "a map", [' {"a":1}']],
    [{ seq: "bool" }, "a sequence", ["[1]"]],
    [{ struct: "ValidationResponse", fields: {} }, "struct ValidationResponse", [' {"a":1}']],
  ];
  for (const [type, name, accepted] of types) {
    test(`expected ${name}`, () => {
      for (const [text, what, column] of found) {
        if (accepted.includes(text)) continue;
        assert.equal(read(text, type), `err invalid type: ${what}, expected ${name} at line 1 column ${column}`, text);
      }
    });
  }

  test("u16: 0 and 65535 read, -1 and 65536 are invalid values", () => {
    assert.equal(read("0", "u16"), "ok 0");
    assert.equal(read("65535", "u16"), "ok 65535");
    assert.equal(read("-1", "u16"), "err invalid value: integer `-1`, expected u16 at line 1 column 2");
    assert.equal(read(" 65536", "u16"), "err invalid value: integer `65536`, expected u16 at line 1 column 6");
    assert.equal(
      read("99999999999999999999", "u16"),
      "err invalid value: integer `99999999999999999999`, expected u16 at line 1 column 20",
    );
  });

  test("maps and sequences read each member as their type", () => {
    assert.equal(read('{"a":true,"b":false}', { map: "bool" }), 'ok {"a":true,"b":false}');
    assert.equal(
      read('{"a":true,"b":1}', { map: "bool" }),
      "err invalid type: integer `1`, expected a boolean at line 1 column 15",
    );
    assert.equal(read('["x","y"]', { seq: "string" }), 'ok ["x","y"]');
    assert.equal(
      read('["x",2]', { seq: "string" }),
      "err invalid type: integer `2`, expected a string at line 1 column 6",
    );
    assert.equal(read('{"a":[1,{"b":2.0}]}', "value"), 'ok {"a":[1,{"b":2}]}');
  });
});

describe("structs", () => {
  const Resp: SerdeType = {
    struct: "Resp",
    fields: {
      a: { type: "bool" },
      b: { type: "u16", optional: true },
      s: { type: { seq: "string" }, optional: true },
    },
  };

  test("optional fields may be missing or null; unknown keys are ignored, even repeated", () => {
    assert.equal(read('{"a":true}', Resp), 'ok {"a":true,"b":null,"s":null}');
    assert.equal(
      read('{"z":1,"z":2,"a":false,"b":null,"s":["x"],"constructor":1}', Resp),
      'ok {"a":false,"b":null,"s":["x"]}',
    );
    assert.equal(read('{"a":true,"b":7}', Resp), 'ok {"a":true,"b":7,"s":null}');
  });

  test("a required field may not be null or missing; a field may not repeat", () => {
    assert.equal(read('{"a":null}', Resp), "err invalid type: null, expected a boolean at line 1 column 9");
    assert.equal(read('{"b":1}', Resp), "err missing field `a` at line 1 column 7");
    assert.equal(read("{}", Resp), "err missing field `a` at line 1 column 2");
    assert.equal(read('{"a":true,"a":false}', Resp), "err duplicate field `a` at line 1 column 13");
    assert.equal(read('{"a":true,"b":1,"b":null}', Resp), "err duplicate field `b` at line 1 column 19");
    assert.equal(
      read('{"a":true,"b":65536}', Resp),
      "err invalid value: integer `65536`, expected u16 at line 1 column 19",
    );
  });
});
