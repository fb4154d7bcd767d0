// Typed readers and object/array access of the JSON DOM: never a silent default.
import { JsonKind, JsonValue, ReadState, parseJsonString } from "../json/index";

function parse(text: string): JsonValue {
  const r = parseJsonString(text);
  expect(r.ok).toBe(true, r.error);
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

function member(doc: JsonValue, key: string): JsonValue {
  const v = doc.get(key);
  expect(v !== null).toBe(true, "missing " + key);
  return v !== null ? v : JsonValue.nul();
}

/** member `key` read as an integer (the member must be present and an integer) */
function intMember(doc: JsonValue, key: string): i64 {
  const r = member(doc, key).asI64();
  expect(r.ok).toBe(true, key);
  return r.value;
}

describe("json readers: asString", () => {
  it("fully unescapes", () => {
    const r = parse('"a\\u0041\\n\\t\\b\\f\\r\\"\\\\\\/\\ud83d\\ude00\\uD83D\\uDE00é中"').asString();
    expect(r.ok).toBe(true);
    expect(r.value).toBe('aA\n\t\b\f\r"\\/😀😀é中');
  });

  it("decodes plain UTF-8 including astral characters", () => {
    const r = parse('"x😀\u{10ffff}"').asString();
    expect(r.value).toBe("x😀\u{10ffff}");
  });

  it("makes a lone-surrogate escape Invalid", () => {
    expect(parse('"\\ud800"').asString().state).toBe(ReadState.Invalid);
    expect(parse('"\\udc00x"').asString().state).toBe(ReadState.Invalid);
    expect(parse('"\\ud83d\\u0041"').asString().state).toBe(ReadState.Invalid);
    expect(parse('"\\ud83d😀"').asString().invalid).toBe(true);
  });

  it("makes other kinds Invalid with a message", () => {
    const r = parse("12").asString();
    expect(r.state).toBe(ReadState.Invalid);
    expect(r.error).toBe("expected a string, found number");
    expect(parse("null").asString().invalid).toBe(true);
  });
});

describe("json readers: integers", () => {
  it("reads the i64 range exactly", () => {
    expect(parse("-9223372036854775808").asI64().value).toBe(i64.MIN_VALUE);
    expect(parse("9223372036854775807").asI64().value).toBe(i64.MAX_VALUE);
    expect(parse("-0").asI64().value).toBe(0);
    expect(parse("42").asI64().ok).toBe(true);
  });

  it("detects overflow instead of saturating", () => {
    expect(parse("9223372036854775808").asI64().state).toBe(ReadState.Invalid);
    expect(parse("-9223372036854775809").asI64().state).toBe(ReadState.Invalid);
    expect(parse("18446744073709551615").asI64().invalid).toBe(true);
    expect(parse("9223372036854775808").asI64().error).toBe("integer out of i64 range: 9223372036854775808");
    expect(parse("-9223372036854775809").asI64().error).toBe("integer out of i64 range: -9223372036854775809");
    expect(parse("18446744073709551615").asU64().value).toBe(u64.MAX_VALUE);
    expect(parse("18446744073709551616").asU64().invalid).toBe(true);
    expect(parse("123456789012345678901234567890").asU64().invalid).toBe(true);
  });

  it("accepts integer grammar only", () => {
    expect(parse("1.0").asI64().invalid).toBe(true);
    expect(parse("1e3").asI64().invalid).toBe(true);
    expect(parse("1e3").asI64().error).toBe("not an integer in range: 1e3");
    expect(parse('"1"').asI64().error).toBe("expected an integer, found string");
    expect(parse("1E+2").asU64().invalid).toBe(true);
    expect(parse("-1").asU64().invalid).toBe(true);
    expect(parse("-0").asU64().ok).toBe(true);
    expect(parse('"1"').asI64().invalid).toBe(true);
    expect(parse("true").asU64().invalid).toBe(true);
  });
});

describe("json readers: asF64, asBool, numberText", () => {
  it("reads finite numbers", () => {
    expect(parse("0.1").asF64().value).toBe(0.1);
    expect(parse("1e-7").asF64().value).toBe(1e-7);
    expect(parse("1E+2").asF64().value).toBe(100.0);
    expect(parse("1.7976931348623157e308").asF64().value).toBe(f64.MAX_VALUE);
    expect(parse("5e-324").asF64().value).toBe(f64.MIN_VALUE);
    const negZero = parse("-0.0").asF64();
    expect(negZero.ok).toBe(true);
    expect(1 / negZero.value).toBe(-Infinity);
  });

  it("makes non-finite results Invalid", () => {
    expect(parse("1e400").asF64().invalid).toBe(true);
    expect(parse("-1e400").asF64().invalid).toBe(true);
    expect(parse('"NaN"').asF64().invalid).toBe(true);
  });

  it("reads booleans and rejects other kinds", () => {
    expect(parse("true").asBool().value).toBe(true);
    expect(parse("false").asBool().ok).toBe(true);
    expect(parse("false").asBool().value).toBe(false);
    expect(parse("0").asBool().invalid).toBe(true);
    expect(parse("null").asBool().invalid).toBe(true);
  });

  it("keeps number text exactly", () => {
    const doc = parse("[1000.0, 18446744073709551615, -0.0, 1e-7, 1E+2, 0.10]");
    const want = ["1000.0", "18446744073709551615", "-0.0", "1e-7", "1E+2", "0.10"];
    for (let i = 0; i < want.length; i++) {
      const v = doc.at(i);
      expect(v !== null && v.numberText() == want[i]).toBe(true, want[i]);
    }
    expect(parse('"1"').numberText()).toBe("");
  });
});

describe("json readers: objects", () => {
  it("returns the last occurrence of a duplicate key", () => {
    const doc = parse('{"a":1,"b":2,"a":3}');
    expect(intMember(doc, "a")).toBe(3);
    expect(doc.size()).toBe(3);
    expect(doc.keyAt(2)).toBe("a");
  });

  it("looks keys up by decoded text", () => {
    const doc = parse('{"n\\u0061me":"x","we\\u0069rd\\"key":1,"\\ud83d\\ude00":2,"é":3,"a\\/b":4}');
    expect(doc.readString("name").value).toBe("x");
    expect(doc.has('weird"key')).toBe(true);
    expect(intMember(doc, "😀")).toBe(2);
    expect(intMember(doc, "\u00e9")).toBe(3);
    expect(intMember(doc, "a/b")).toBe(4);
    expect(doc.has("n\\u0061me")).toBe(false);
    expect(doc.keyAt(1)).toBe('weird"key');
  });

  it("treats a raw key and its escaped spelling as the same key (last wins)", () => {
    const doc = parse('{"name":1,"n\\u0061me":2}');
    expect(intMember(doc, "name")).toBe(2);
  });

  it("distinguishes absent, null, ok and invalid", () => {
    const doc = parse('{"s":"x","n":null,"i":7,"f":1.5,"b":true,"o":{},"a":[]}');
    expect(doc.readString("missing").state).toBe(ReadState.Absent);
    expect(doc.readString("n").state).toBe(ReadState.Null);
    expect(doc.readString("n").missing).toBe(true);
    expect(doc.readString("s").state).toBe(ReadState.Ok);
    expect(doc.readString("i").state).toBe(ReadState.Invalid);
    expect(member(doc, "f").asI64().state).toBe(ReadState.Invalid);
    expect(member(doc, "i").asF64().value).toBe(7.0);
    expect(member(doc, "b").asBool().value).toBe(true);
    expect(member(doc, "s").asBool().invalid).toBe(true);
  });

  it("answers Absent / null / false on non-objects", () => {
    const arr = parse("[1]");
    expect(arr.get("a") === null).toBe(true);
    expect(arr.has("a")).toBe(false);
    expect(arr.readString("a").state).toBe(ReadState.Absent);
    expect(arr.keyAt(0)).toBe("");
    expect(parse("1").size()).toBe(0);
    expect(parse('"x"').at(0) === null).toBe(true);
  });

  it("indexes arrays and object members with range checks", () => {
    const doc = parse('{"a":[10,20],"b":{"c":1}}');
    const a = member(doc, "a");
    expect(a.size()).toBe(2);
    const second = a.at(1);
    expect(second !== null && second.asI64().value == 20).toBe(true);
    expect(a.at(2) === null).toBe(true);
    expect(a.at(-1) === null).toBe(true);
    const b = doc.at(1);
    expect(b !== null && b.isObject()).toBe(true);
    expect(doc.keyAt(5)).toBe("");
  });

  it("names kinds for messages", () => {
    expect(parse("null").kindName()).toBe("null");
    expect(parse("true").kindName()).toBe("boolean");
    expect(parse("1").kindName()).toBe("number");
    expect(parse('""').kindName()).toBe("string");
    expect(parse("[]").kindName()).toBe("array");
    expect(parse("{}").kindName()).toBe("object");
  });
});

function spaces(n: i32): string {
  return " ".repeat(n);
}

describe("json readers: member keys far from their value or very long (the table's side list)", () => {
  it("finds keys whose value is 2,045 and 2,046 bytes after the closing quote, and past it", () => {
    // the key word holds a gap of up to 2,046 bytes; from 2,047 on the span goes to the side list
    // gap = bytes from the closing quote to the value: `"ab"<k spaces>: 7` has k + 3
    const gaps: i32[] = [3, 2045, 2046, 2047, 5000];
    for (let i = 0; i < gaps.length; i++) {
      const text = '{"x":0,"ab"' + spaces(gaps[i] - 3) + ': 7,"a\\u0062c"' + spaces(gaps[i] - 2) + ':8,"z":9}';
      const doc = parse(text);
      expect(member(doc, "ab").asI64().value).toBe(<i64>7);
      expect(member(doc, "abc").asI64().value).toBe(<i64>8);
      expect(member(doc, "z").asI64().value).toBe(<i64>9);
      expect(doc.keyAt(1)).toBe("ab");
      expect(doc.keyAt(2)).toBe("abc");
      expect(doc.has("a")).toBe(false);
      expect(doc.toString()).toBe(text);
      // a sibling edit re-emits the container canonically, each raw key from its span
      doc.set("x", JsonValue.int(1));
      expect(doc.toString()).toBe('{"x":1,"ab":7,"a\\u0062c":8,"z":9}');
    }
  });

  it("finds a key of 1,048,575 raw bytes and one of 1,048,576", () => {
    const lengths: i32[] = [1048575, 1048576];
    for (let i = 0; i < lengths.length; i++) {
      const key = "k".repeat(lengths[i]);
      const doc = parse('{"a":1,"' + key + '":2,"b":3}');
      expect(member(doc, key).asI64().value).toBe(<i64>2);
      expect(member(doc, "b").asI64().value).toBe(<i64>3);
      expect(doc.keyAt(1).length).toBe(lengths[i]);
      doc.set("a", JsonValue.int(5));
      expect(doc.toString()).toBe('{"a":5,"' + key + '":2,"b":3}');
    }
  });
});

/** the probe answers of `obj` for the members s (string), e (escaped string), b (true), n (null), o (object) */
function probeAnswers(obj: JsonValue): void {
  expect(obj.memberKind("s")).toBe(<i32>JsonKind.String);
  expect(obj.memberKind("b")).toBe(<i32>JsonKind.Bool);
  expect(obj.memberKind("n")).toBe(<i32>JsonKind.Null);
  expect(obj.memberKind("o")).toBe(<i32>JsonKind.Object);
  expect(obj.memberKind("missing")).toBe(-1);
  expect(obj.stringEquals("s", "x")).toBe(true);
  expect(obj.stringEquals("s", "y")).toBe(false);
  expect(obj.stringEquals("e", 'a"b')).toBe(true);
  expect(obj.stringEquals("b", "true")).toBe(false);
  expect(obj.stringEquals("missing", "")).toBe(false);
  expect(obj.stringOrNull("e")).toBe('a"b');
  expect(obj.stringOrNull("b") === null).toBe(true);
  expect(obj.memberIsBool("b", true)).toBe(true);
  expect(obj.memberIsBool("b", false)).toBe(false);
  expect(obj.memberIsBool("s", true)).toBe(false);
  expect(obj.memberIsDecodableString("s")).toBe(true);
  expect(obj.memberIsDecodableString("n")).toBe(false);
}

describe("json member probes", () => {
  const text = '{"s":"x","e":"a\\"b","b":true,"n":null,"o":{}}';

  it("answer from the records of an untouched object", () => {
    probeAnswers(parse(text));
  });

  it("answer from the child list of a mutated object", () => {
    const doc = parse(text);
    expect(doc.set("z", JsonValue.int(1))).toBe(true);
    probeAnswers(doc);
  });

  it("answer for an object built without a document", () => {
    const obj = JsonValue.object();
    obj.set("s", JsonValue.str("x"));
    obj.set("e", JsonValue.str('a"b'));
    obj.set("b", JsonValue.bool(true));
    obj.set("n", JsonValue.nul());
    obj.set("o", JsonValue.object());
    probeAnswers(obj);
  });

  it("keep each answer apart when two objects of one document are probed in turn", () => {
    const doc = parse('{"a":{"k":"1"},"b":{"k":true}}');
    const a = member(doc, "a");
    const b = member(doc, "b");
    expect(a.memberKind("k")).toBe(<i32>JsonKind.String);
    expect(b.memberKind("k")).toBe(<i32>JsonKind.Bool);
    expect(a.stringEquals("k", "1")).toBe(true);
    expect(b.memberIsBool("k", true)).toBe(true);
  });

  it("answer nothing on a value that is not an object", () => {
    const arr = parse('["s"]');
    expect(arr.memberKind("s")).toBe(-1);
    expect(arr.stringOrNull("s") === null).toBe(true);
  });
});

describe("json sourceLength", () => {
  it("is the whole input for a parsed root, surrounding whitespace included", () => {
    const text = '  {"a": [1, 2]}\n';
    expect(parse(text).sourceLength()).toBe(text.length);
    expect(parse(text).sourceLength()).toBe(16);
  });

  it("is a member's own span", () => {
    const doc = parse('{"a": [1, 2] }');
    expect(member(doc, "a").sourceLength()).toBe(6);
  });

  it("is the encoded text of a new scalar and -1 for a built container", () => {
    expect(JsonValue.str("ab").sourceLength()).toBe(4);
    expect(JsonValue.object().sourceLength()).toBe(-1);
    expect(JsonValue.array().sourceLength()).toBe(-1);
  });
});

const I64_MEMBERS =
  '{"max":9223372036854775807,"over":9223372036854775808,"min":-9223372036854775808,"under":-9223372036854775809,"frac":1.5,"exp":1e3,"s":"1","n":null,"z":-0}';

function checkI64Members(obj: JsonValue): void {
  const max = obj.memberI64("max");
  expect(max !== null && max.ok && max.value == i64.MAX_VALUE).toBe(true);
  expect(obj.memberI64("over") === null).toBe(true);
  const min = obj.memberI64("min");
  expect(min !== null && min.ok && min.value == i64.MIN_VALUE).toBe(true);
  expect(obj.memberI64("under") === null).toBe(true);
  expect(obj.memberI64("frac") === null).toBe(true);
  expect(obj.memberI64("exp") === null).toBe(true);
  expect(obj.memberI64("s") === null).toBe(true);
  expect(obj.memberI64("n") === null).toBe(true);
  expect(obj.memberI64("missing") === null).toBe(true);
  const z = obj.memberI64("z");
  expect(z !== null && z.ok && z.value == 0).toBe(true);
}

describe("memberI64 (a member read as asI64 without a node)", () => {
  it("answers as get(key).asI64() does, from the records", () => {
    const doc = parse(I64_MEMBERS);
    checkI64Members(doc);
    // the same answers through the nodes
    expect(member(doc, "max").asI64().value).toBe(i64.MAX_VALUE);
    expect(member(doc, "over").asI64().ok).toBe(false);
    expect(member(doc, "under").asI64().ok).toBe(false);
  });

  it("answers from the child list of a mutated object", () => {
    const doc = parse(I64_MEMBERS);
    expect(doc.set("added", JsonValue.int(7))).toBe(true);
    checkI64Members(doc);
    const added = doc.memberI64("added");
    expect(added !== null && added.value == 7).toBe(true);
  });

  it("reads a replaced member's new value, not the record's", () => {
    const doc = parse(I64_MEMBERS);
    expect(doc.set("max", JsonValue.int(5))).toBe(true);
    const v = doc.memberI64("max");
    expect(v !== null && v.value == 5).toBe(true);
  });
});
