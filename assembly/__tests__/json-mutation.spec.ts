// Mutation API of the JSON DOM: positions, duplicates, live nodes, dirty propagation, and
// byte-exact output for everything not touched.
import { ByteSink, JsonKind, JsonValue, parseJsonString } from "../json/index";

function parse(text: string): JsonValue {
  const r = parseJsonString(text);
  expect(r.ok).toBe(true, r.error);
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

function child(doc: JsonValue, key: string): JsonValue {
  const v = doc.get(key);
  expect(v !== null).toBe(true, "missing " + key);
  return v !== null ? v : JsonValue.nul();
}

function num(text: string): JsonValue {
  const v = JsonValue.rawNumber(text);
  return v !== null ? v : JsonValue.nul();
}

describe("json mutation: objects", () => {
  it("replaces in place, keeping the member's position", () => {
    const doc = parse('{"a":1,"b":2,"c":3}');
    expect(doc.set("b", JsonValue.int(9))).toBe(true);
    expect(doc.toString()).toBe('{"a":1,"b":9,"c":3}');
  });

  it("appends a new key", () => {
    const doc = parse('{ "a" : 1 }');
    doc.set("d", JsonValue.str("x"));
    expect(doc.toString()).toBe('{"a":1,"d":"x"}');
  });

  it("replaces only the last duplicate and never creates one", () => {
    const doc = parse('{"a":1,"b":0,"a":2}');
    doc.set("a", JsonValue.int(3));
    expect(doc.toString()).toBe('{"a":1,"b":0,"a":3}');
    expect(doc.size()).toBe(3);
  });

  it("keeps the raw bytes of an escaped key it replaces", () => {
    const doc = parse('{"n\\u0061me":1}');
    doc.set("name", JsonValue.int(2));
    expect(doc.toString()).toBe('{"n\\u0061me":2}');
  });

  it("escapes new keys", () => {
    const doc = JsonValue.object();
    doc.set('q"\n😀', JsonValue.nul());
    expect(doc.toString()).toBe('{"q\\"\\n😀":null}');
    expect(doc.keyAt(0)).toBe('q"\n😀');
    expect(doc.has('q"\n😀')).toBe(true);
  });

  it("removes every occurrence", () => {
    const doc = parse('{"a":1,"b":2,"n\\u0061me":3,"a":4,"name":5}');
    expect(doc.remove("a")).toBe(true);
    expect(doc.remove("name")).toBe(true);
    expect(doc.toString()).toBe('{"b":2}');
    expect(doc.has("a")).toBe(false);
  });

  it("leaves a document untouched when nothing is removed", () => {
    const text = '{ "a" : 1 }';
    const doc = parse(text);
    expect(doc.remove("zz")).toBe(false);
    expect(doc.toString()).toBe(text);
  });

  it("refuses object operations on other kinds", () => {
    const arr = parse("[1]");
    expect(arr.set("a", JsonValue.nul())).toBe(false);
    expect(arr.remove("a")).toBe(false);
    expect(arr.toString()).toBe("[1]");
  });
});

describe("json mutation: arrays", () => {
  it("pushes, inserts, removes and replaces", () => {
    const doc = parse("[ 1 , 2 , 3 ]");
    expect(doc.push(JsonValue.int(4))).toBe(true);
    expect(doc.insert(0, JsonValue.int(0))).toBe(true);
    expect(doc.insert(5, JsonValue.int(5))).toBe(true);
    expect(doc.removeAt(2)).toBe(true);
    expect(doc.replace(1, JsonValue.str("one"))).toBe(true);
    expect(doc.toString()).toBe('[0,"one",3,4,5]');
  });

  it("refuses out-of-range indices and other kinds", () => {
    const doc = parse("[1]");
    expect(doc.insert(2, JsonValue.nul())).toBe(false);
    expect(doc.insert(-1, JsonValue.nul())).toBe(false);
    expect(doc.removeAt(1)).toBe(false);
    expect(doc.replace(-1, JsonValue.nul())).toBe(false);
    expect(doc.toString()).toBe("[1]");
    const obj = parse("{}");
    expect(obj.push(JsonValue.nul())).toBe(false);
    expect(parse("1").removeAt(0)).toBe(false);
  });

  it("removes down to an empty array", () => {
    const doc = parse("[1]");
    doc.removeAt(0);
    expect(doc.toString()).toBe("[]");
  });
});

describe("json mutation: live nodes and dirtiness", () => {
  it("marks every ancestor dirty and keeps untouched siblings byte-exact", () => {
    const doc = parse('{ "x" : { "y" : [ 1 , 2 ] }, "z" : [ 3 ] }');
    const y = child(child(doc, "x"), "y");
    y.push(JsonValue.int(3));
    expect(doc.toString()).toBe('{"x":{"y":[1,2,3]},"z":[ 3 ]}');
  });

  it("stays clean after reads", () => {
    const text = '{ "a" : { "b" : [ 1, "\\u0041" ] } }';
    const doc = parse(text);
    const b = child(child(doc, "a"), "b");
    expect(b.size()).toBe(2);
    const s = b.at(1);
    expect(s !== null && s.asString().value == "A").toBe(true);
    expect(doc.toString()).toBe(text);
    expect(doc.dirty).toBe(false);
  });

  it("keeps a new container live after insertion", () => {
    const doc = parse('{"a":1}');
    const labels = JsonValue.object();
    doc.set("labels", labels);
    labels.set("k", JsonValue.str("v"));
    expect(doc.toString()).toBe('{"a":1,"labels":{"k":"v"}}');
  });

  it("detaches removed nodes: later changes to them do not reach the document", () => {
    const doc = parse('{"a":{"b":1},"c":2}');
    const a = child(doc, "a");
    doc.remove("a");
    a.set("b", JsonValue.int(9));
    expect(doc.toString()).toBe('{"c":2}');
  });

  it("inserts a copy of a node that already belongs to a container", () => {
    const doc = parse('{"a":{"b":1},"c":[]}');
    const a = child(doc, "a");
    child(doc, "c").push(a);
    a.set("b", JsonValue.int(2));
    expect(doc.toString()).toBe('{"a":{"b":2},"c":[{"b":1}]}');
  });

  it("copies instead of creating a cycle", () => {
    const doc = parse('{"a":{}}');
    child(doc, "a").set("self", doc);
    expect(doc.toString()).toBe('{"a":{"self":{"a":{}}}}');
  });

  it("embeds parsed JSON without its surrounding whitespace but with its inner bytes", () => {
    const doc = parse("[1]");
    const part = JsonValue.parse(Uint8Array.wrap(String.UTF8.encode('  { "k" : [ 1.0 ] }\n')));
    expect(part !== null).toBe(true);
    if (part !== null) doc.push(part);
    expect(doc.toString()).toBe('[1,{ "k" : [ 1.0 ] }]');
  });

  it("edits at the bottom of a 1000-deep document", () => {
    const doc = parse("[".repeat(1000) + "]".repeat(1000));
    let v: JsonValue | null = doc;
    for (let i = 0; i < 999 && v !== null; i++) v = v.at(0);
    expect(v !== null).toBe(true);
    if (v !== null) v.push(JsonValue.int(1));
    expect(doc.toString()).toBe("[".repeat(1000) + "1" + "]".repeat(1000));
  });
});

describe("json mutation: new values", () => {
  it("writes integers as minimal decimal text", () => {
    expect(JsonValue.int(0).toString()).toBe("0");
    expect(JsonValue.int(-42).toString()).toBe("-42");
    expect(JsonValue.int(i64.MIN_VALUE).toString()).toBe("-9223372036854775808");
    expect(JsonValue.uint(u64.MAX_VALUE).toString()).toBe("18446744073709551615");
    expect(JsonValue.int(7).asI64().value).toBe(7);
  });

  it("validates raw number text", () => {
    expect(JsonValue.rawNumber("01") === null).toBe(true);
    expect(JsonValue.rawNumber("1.") === null).toBe(true);
    expect(JsonValue.rawNumber("+1") === null).toBe(true);
    expect(JsonValue.rawNumber(" 1") === null).toBe(true);
    expect(JsonValue.rawNumber("") === null).toBe(true);
    expect(JsonValue.rawNumber("NaN") === null).toBe(true);
    expect(num("-0.0").toString()).toBe("-0.0");
    expect(num("1E+2").numberText()).toBe("1E+2");
  });

  it("refuses non-finite floats", () => {
    expect(JsonValue.float(NaN) === null).toBe(true);
    expect(JsonValue.float(Infinity) === null).toBe(true);
    const f = JsonValue.float(1.5);
    expect(f !== null && f.asF64().value == 1.5).toBe(true);
  });

  it("preserves number spellings of untouched siblings in a dirty array", () => {
    const doc = parse("[1000.0,18446744073709551615,-0.0,1e-7,1E+2]");
    doc.push(JsonValue.int(1));
    expect(doc.toString()).toBe("[1000.0,18446744073709551615,-0.0,1e-7,1E+2,1]");
  });

  it("builds documents from scratch", () => {
    const o = JsonValue.object();
    o.set("b", JsonValue.bool(true));
    o.set("n", JsonValue.nul());
    const a = JsonValue.array();
    a.push(JsonValue.int(1));
    o.set("a", a);
    expect(o.toString()).toBe('{"b":true,"n":null,"a":[1]}');
    expect(o.kindName()).toBe("object");
  });

  it("writes the same bytes through toBytes, writeTo and toString", () => {
    const doc = parse('{"a": [1, "é"]}');
    child(doc, "a").push(JsonValue.str("😀"));
    const sink = new ByteSink(1);
    doc.writeTo(sink);
    const bytes = doc.toBytes();
    expect(sink.length).toBe(bytes.length);
    expect(String.UTF8.decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))).toBe(
      doc.toString(),
    );
    expect(sink.toString()).toBe('{"a":[1,"é","😀"]}');
    expect(doc.rawText()).toBe(sink.toString());
  });
});

describe("json mutation: items pushed after a parsed list", () => {
  it("are written after the untouched items, which keep their bytes", () => {
    const doc = parse('{"l":[ 1 , {"a" : 2} ]}');
    const l = child(doc, "l");
    expect(l.push(JsonValue.int(3))).toBe(true);
    expect(l.push(JsonValue.str("x"))).toBe(true);
    expect(doc.toString()).toBe('{"l":[1,{"a" : 2},3,"x"]}');
  });

  it("count, index and probe as one list with the parsed items", () => {
    const doc = parse('{"l":[{"name":"a"},7]}');
    const l = child(doc, "l");
    const o = JsonValue.object();
    o.set("name", JsonValue.str("b"));
    l.push(o);
    expect(l.size()).toBe(3);
    expect(l.at(1)!.toString()).toBe("7");
    expect(l.at(2)!.toString()).toBe('{"name":"b"}');
    expect(l.at(3) === null).toBe(true);
    expect(l.itemKind(2)).toBe(<i32>JsonKind.Object);
    expect(l.itemKind(3)).toBe(-1);
    expect(l.itemStringEquals(2, "name", "b")).toBe(true);
    expect(l.itemStringEquals(0, "name", "b")).toBe(false);
    expect(l.itemStringOrNull(0, "name")!).toBe("a");
    expect(l.itemStringOrNull(1, "name") === null).toBe(true);
  });

  it("into an empty parsed list get no leading comma", () => {
    const doc = parse('{"l":[ ]}');
    child(doc, "l").push(JsonValue.int(1));
    child(doc, "l").push(JsonValue.int(2));
    expect(doc.toString()).toBe('{"l":[1,2]}');
  });

  it("stay in order when the list is later edited by position", () => {
    const doc = parse("[1,2]");
    doc.push(JsonValue.int(3));
    expect(doc.insert(1, JsonValue.int(9))).toBe(true);
    expect(doc.toString()).toBe("[1,9,2,3]");
    expect(doc.removeAt(3)).toBe(true);
    expect(doc.push(JsonValue.int(4))).toBe(true);
    expect(doc.toString()).toBe("[1,9,2,4]");
  });

  it("are live nodes: a change below one is written", () => {
    const doc = parse('{"l":[0]}');
    const l = child(doc, "l");
    l.push(JsonValue.object());
    l.at(1)!.set("k", JsonValue.int(1));
    expect(doc.toString()).toBe('{"l":[0,{"k":1}]}');
  });
});

describe("json item probes", () => {
  it("answer as at(i) then the member probe, for parsed and changed items", () => {
    const doc = parse('[{"name":"a\\u0062"},{"name":1},"s",{"x":"y","name":"c","name":"d"}]');
    expect(doc.itemStringOrNull(0, "name")!).toBe("ab");
    expect(doc.itemStringEquals(0, "name", "ab")).toBe(true);
    expect(doc.itemStringOrNull(1, "name") === null).toBe(true);
    expect(doc.itemStringEquals(2, "name", "s")).toBe(false);
    expect(doc.itemStringOrNull(3, "name")!).toBe("d"); // the last duplicate
    expect(doc.itemStringEquals(4, "name", "d")).toBe(false);
    expect(doc.itemKind(2)).toBe(<i32>JsonKind.String);
    expect(doc.itemStringValue(2)!).toBe("s");
    expect(doc.itemStringValue(0) === null).toBe(true);
    expect(doc.itemIsDecodableString(2)).toBe(true);
    expect(doc.itemIsDecodableString(1)).toBe(false);
    // a handed-out item changed since parsing answers with its change
    doc.at(0)!.set("name", JsonValue.str("z"));
    expect(doc.itemStringEquals(0, "name", "z")).toBe(true);
    expect(doc.itemStringOrNull(0, "name")!).toBe("z");
  });

  it("indexOfItemWithString finds each matching item in turn, records and pushed tail alike", () => {
    const doc = parse('[{"name":"a"},{"name":"b"},"a",{"name":"a","x":1},{"name":"a\\u0062"}]');
    const o = JsonValue.object();
    o.set("name", JsonValue.str("a"));
    doc.push(o);
    expect(doc.indexOfItemWithString("name", "a")).toBe(0);
    expect(doc.indexOfItemWithString("name", "a", 1)).toBe(3);
    expect(doc.indexOfItemWithString("name", "a", 4)).toBe(5);
    expect(doc.indexOfItemWithString("name", "a", 6)).toBe(-1);
    expect(doc.indexOfItemWithString("name", "ab")).toBe(4);
    expect(doc.indexOfItemWithString("name", "a", -3)).toBe(0);
    expect(doc.indexOfItemWithString("name", "c")).toBe(-1);
    // a handed-out item changed since parsing is searched as it is now
    doc.at(1)!.set("name", JsonValue.str("c"));
    expect(doc.indexOfItemWithString("name", "c")).toBe(1);
    expect(doc.indexOfItemWithString("name", "b")).toBe(-1);
    // after the list is built (an insert), the same answers by position
    doc.insert(0, JsonValue.int(0));
    expect(doc.indexOfItemWithString("name", "c")).toBe(2);
    expect(parse('{"name":"a"}').indexOfItemWithString("name", "a")).toBe(-1);
  });

  it("itemStringStartsWith on escaped strings: turned away before the first escape, decoded when the prefix reaches it", () => {
    // pushed items are read through their own bytes (not the records): the kv-transfer JSON case
    const doc = parse("[]");
    doc.push(JsonValue.str('{"kv":"x"}\n'));
    doc.push(JsonValue.str('--a"b'));
    doc.push(JsonValue.str("--\n"));
    expect(doc.itemStringStartsWith(0, "--")).toBe(false);
    expect(doc.itemStringStartsWith(0, '{"kv"')).toBe(true);
    expect(doc.itemStringStartsWith(0, '{"kv":"x"}\n', true)).toBe(true);
    expect(doc.itemStringStartsWith(0, '{"kv":"x"}', true)).toBe(false);
    expect(doc.itemStringStartsWith(1, "--a")).toBe(true);
    expect(doc.itemStringStartsWith(1, '--a"')).toBe(true);
    expect(doc.itemStringStartsWith(1, "--a'")).toBe(false);
    expect(doc.itemStringStartsWith(1, "--b")).toBe(false);
    expect(doc.itemStringStartsWith(2, "--\n", true)).toBe(true);
    expect(doc.itemStringStartsWith(2, "--\t")).toBe(false);
    // a prefix longer than the raw body cannot match
    expect(doc.itemStringStartsWith(2, "--\n--")).toBe(false);
  });

  it("indexOfItemStartingWith finds the items a prefix test holds for, escaped, changed and pushed ones too", () => {
    const doc = parse('["--a","--kv",1,"--kv=1","\\u002d-kv","--k","-","--kv-x",{"a":"--kv"}]');
    doc.push(JsonValue.str("--kv=tail"));
    const found = new Array<i32>();
    for (let i = doc.indexOfItemStartingWith("--kv"); i >= 0; i = doc.indexOfItemStartingWith("--kv", i + 1))
      found.push(i);
    expect(found).toStrictEqual([1, 3, 4, 7, 9]);
    for (let i = 0; i < doc.size(); i++)
      expect(found.includes(i)).toBe(doc.itemStringStartsWith(i, "--kv"), i.toString());
    expect(doc.indexOfItemStartingWith("--kv", 10)).toBe(-1);
    expect(doc.indexOfItemStartingWith("é")).toBe(-1);
    // a handed-out item changed since parsing is tested as it is now
    doc.replace(0, JsonValue.str("--kv"));
    expect(doc.indexOfItemStartingWith("--kv")).toBe(0);
    expect(parse('["\u00e9x"]').indexOfItemStartingWith("é")).toBe(0);
    expect(parse('{"a":"--kv"}').indexOfItemStartingWith("--kv")).toBe(0);
  });

  it("an unread container is written back as its text and parsed when read", () => {
    const text = '[{"name":"a"},{"name":"b\\"c"}]';
    const pod = parse('{"spec":{}}');
    pod.get("spec")!.set("list", JsonValue.unread(JsonKind.Array, Uint8Array.wrap(String.UTF8.encode(text))));
    expect(pod.toString()).toBe('{"spec":{"list":' + text + "}}");
    const other = parse('{"spec":{}}');
    const list = JsonValue.unread(JsonKind.Array, Uint8Array.wrap(String.UTF8.encode(text)));
    other.get("spec")!.set("list", list);
    const read = other.get("spec")!.get("list")!;
    expect(read.size()).toBe(2);
    expect(read.at(1)!.get("name")!.stringValue()).toBe('b"c');
    read.push(JsonValue.str("x"));
    expect(other.toString()).toBe('{"spec":{"list":[{"name":"a"},{"name":"b\\"c"},"x"]}}');
  });

  it("indexOfItemStartingWithAny looks for several prefixes in one walk", () => {
    const doc = parse('["--a","--kv","--x","--longer-than-8-x","\\u002d-x1",7,"--longer-than-8-y","-","--lo","é-"]');
    doc.push(JsonValue.str("--x=tail"));
    const prefixes = ["--kv", "--x", "--longer-than-8-y", "é"];
    const found = new Array<i32>();
    for (let i = doc.indexOfItemStartingWithAny(prefixes); i >= 0; i = doc.indexOfItemStartingWithAny(prefixes, i + 1))
      found.push(i);
    expect(found).toStrictEqual([1, 2, 4, 6, 9, 10]);
    for (let i = 0; i < doc.size(); i++) expect(found.includes(i)).toBe(doc.itemStringStartsWithAny(i, prefixes));
    expect(doc.indexOfItemStartingWithAny(prefixes, 11)).toBe(-1);
    expect(doc.indexOfItemStartingWithAny([])).toBe(-1);
    expect(doc.indexOfItemStartingWith("", 5)).toBe(6);
  });

  it("indexOfItemNotDecodableString finds the first item that is not a decodable string", () => {
    expect(parse('["a","b\\n"]').indexOfItemNotDecodableString()).toBe(-1);
    expect(parse('["a",null]').indexOfItemNotDecodableString()).toBe(1);
    expect(parse('["a","\\ud800",1]').indexOfItemNotDecodableString()).toBe(1);
    const doc = parse('["a","b"]');
    doc.push(JsonValue.str("c"));
    expect(doc.indexOfItemNotDecodableString()).toBe(-1);
    doc.push(JsonValue.int(1));
    expect(doc.indexOfItemNotDecodableString()).toBe(3);
    doc.at(1)!; // a handed-out item is read through its node
    expect(doc.indexOfItemNotDecodableString()).toBe(3);
    expect(parse("[]").indexOfItemNotDecodableString()).toBe(-1);
  });

  it("indexOfItemWithoutStringMember answers as itemKind, itemMemberKind and itemMemberIsDecodableString", () => {
    const doc = parse(
      '[{"name":"a","value":"x"},{"name":"b"},{"name":"c","value":null},{"name":"d","value":1},{"name":1},"e",{"value":"f"},{"name":"\\ud800"}]',
    );
    expect(doc.indexOfItemWithoutStringMember("name")).toBe(4);
    expect(doc.indexOfItemWithoutStringMember("name", false, 5)).toBe(5);
    expect(doc.indexOfItemWithoutStringMember("name", false, 6)).toBe(6);
    expect(doc.indexOfItemWithoutStringMember("name", false, 7)).toBe(7);
    expect(doc.indexOfItemWithoutStringMember("name", false, 8)).toBe(-1);
    expect(doc.indexOfItemWithoutStringMember("value", true)).toBe(3);
    expect(doc.indexOfItemWithoutStringMember("value", true, 4)).toBe(5);
    // a changed item and a pushed one are read as they are now
    doc.at(4)!.set("name", JsonValue.str("g"));
    const fine = parse('[{"name":"a"}]');
    fine.push(JsonValue.object());
    expect(fine.indexOfItemWithoutStringMember("name")).toBe(1);
    expect(fine.indexOfItemWithoutStringMember("name", true)).toBe(-1);
    expect(doc.indexOfItemWithoutStringMember("name")).toBe(5);
  });

  it("itemMemberRawTest tests an unescaped string member's bytes and says when it cannot", () => {
    const doc = parse('[{"name":"abc"},{"name":"a\\u0062c"},{"name":1},"x",{"name":"Abc"}]');
    const lower = (data: usize, s: i32, e: i32): bool => {
      for (let i = s; i < e; i++) if (load<u8>(data + <usize>i) < 0x61) return false;
      return true;
    };
    expect(doc.itemMemberRawTest(0, "name", lower)).toBe(1);
    expect(doc.itemMemberRawTest(1, "name", lower)).toBe(-2);
    expect(doc.itemMemberRawTest(2, "name", lower)).toBe(-1);
    expect(doc.itemMemberRawTest(3, "name", lower)).toBe(-1);
    expect(doc.itemMemberRawTest(4, "name", lower)).toBe(0);
    expect(doc.itemMemberRawTest(9, "name", lower)).toBe(-1);
  });

  it("memberRawTest tests an object's unescaped string member's bytes and says when it cannot", () => {
    const doc = parse('{"a":"ABC","b":"a\\u0062c","c":1,"d":"Abc","a":"xyz"}');
    const lower = (data: usize, s: i32, e: i32): bool => {
      for (let i = s; i < e; i++) if (load<u8>(data + <usize>i) < 0x61) return false;
      return true;
    };
    expect(doc.memberRawTest("a", lower)).toBe(1); // the last "a"
    expect(doc.memberRawTest("b", lower)).toBe(-2);
    expect(doc.memberRawTest("c", lower)).toBe(-1);
    expect(doc.memberRawTest("d", lower)).toBe(0);
    expect(doc.memberRawTest("z", lower)).toBe(-1);
    expect(parse("[1]").memberRawTest("a", lower)).toBe(-1);
    // a member set since: its own text
    doc.set("e", JsonValue.str("QQ"));
    expect(doc.memberRawTest("e", lower)).toBe(0);
  });

  it("a dirty list's untouched items are written as they were, compact or not", () => {
    const compact = parse('{"a":[1,"x",{"b":2}],"c":{"d":1,"e\\n":[2],"f":"g"}}');
    child(compact, "a").push(JsonValue.int(3));
    child(compact, "c").set("h", JsonValue.int(4));
    expect(compact.toString()).toBe('{"a":[1,"x",{"b":2},3],"c":{"d":1,"e\\n":[2],"f":"g","h":4}}');
    const spaced = parse('{"a":[1, "x" ,{"b" : 2}],"c":{"d" :1, "e":[ 2 ],"f":"g"}}');
    child(spaced, "a").push(JsonValue.int(3));
    child(spaced, "c").set("h", JsonValue.int(4));
    expect(spaced.toString()).toBe('{"a":[1,"x",{"b" : 2},3],"c":{"d":1,"e":[ 2 ],"f":"g","h":4}}');
    // a changed member in the middle: the runs before and after it
    const middle = parse('[1,2,{"x":1},4,5]');
    middle.at(2)!.set("x", JsonValue.int(9));
    expect(middle.toString()).toBe('[1,2,{"x":9},4,5]');
  });

  it("answer -1, null and false for something that is not an array", () => {
    const doc = parse('{"name":"a"}');
    expect(doc.itemKind(0)).toBe(-1);
    expect(doc.itemStringOrNull(0, "name") === null).toBe(true);
    expect(doc.itemStringEquals(0, "name", "a")).toBe(false);
    // the member-value forms read an object's i-th member like at(i)
    expect(doc.itemStringValue(0)!).toBe("a");
    expect(doc.itemIsDecodableString(0)).toBe(true);
    expect(doc.itemIsDecodableString(1)).toBe(false);
    expect(JsonValue.str("a").itemStringValue(0) === null).toBe(true);
  });

  it("see a replaced item, not the parsed one", () => {
    const doc = parse('["a",{"name":"b"}]');
    doc.at(0); // handed out, then replaced through the list
    expect(doc.replace(0, JsonValue.int(1))).toBe(true);
    expect(doc.itemStringValue(0) === null).toBe(true);
    expect(doc.itemKind(0)).toBe(<i32>JsonKind.Number);
    expect(doc.itemStringEquals(1, "name", "b")).toBe(true);
  });
});

describe("json mutation: members of new keys added to a parsed object", () => {
  it("are written after the untouched members and read like them", () => {
    const doc = parse('{"m":{ "a" : 1 ,"b":"x"}}');
    const m = child(doc, "m");
    expect(m.set("c", JsonValue.str("y"))).toBe(true);
    expect(m.set("d", JsonValue.int(4))).toBe(true);
    expect(doc.toString()).toBe('{"m":{"a":1,"b":"x","c":"y","d":4}}');
    expect(m.size()).toBe(4);
    expect(m.keyAt(2)).toBe("c");
    expect(m.keyAt(4)).toBe("");
    expect(m.at(3)!.toString()).toBe("4");
    expect(m.has("c")).toBe(true);
    expect(m.get("c")!.toString()).toBe('"y"');
    expect(m.stringOrNull("c")!).toBe("y");
    expect(m.memberKind("d")).toBe(<i32>JsonKind.Number);
    expect(m.stringEquals("b", "x")).toBe(true);
    expect(m.has("z")).toBe(false);
  });

  it("replace their own value, or a parsed member's in place, on a second set", () => {
    const doc = parse('{"a":1,"b":2}');
    doc.set("c", JsonValue.int(3));
    doc.set("c", JsonValue.int(30));
    doc.set("a", JsonValue.int(10));
    expect(doc.toString()).toBe('{"a":10,"b":2,"c":30}');
  });

  it("are removed like any member; removing a missing key changes nothing", () => {
    const doc = parse('{"m":{ "a" : 1 }}');
    const m = child(doc, "m");
    expect(m.remove("zz")).toBe(false);
    expect(m.dirty).toBe(false);
    expect(doc.toString()).toBe('{"m":{ "a" : 1 }}');
    m.set("c", JsonValue.int(3));
    expect(m.remove("c")).toBe(true);
    expect(m.remove("a")).toBe(true);
    expect(doc.toString()).toBe('{"m":{}}');
  });

  it("are live nodes: a change below one is written", () => {
    const doc = parse('{"a":[]}');
    doc.set("o", JsonValue.object());
    child(doc, "o").set("k", JsonValue.bool(true));
    expect(doc.toString()).toBe('{"a":[],"o":{"k":true}}');
  });
});
