// Strict RFC 8259 grammar of the JSON DOM: what it accepts (byte-exact identity) and what it
// rejects (an error value with a byte offset, never a trap).
import { JsonValue, parseJson, parseJsonString } from "../json/index";

function roundTrips(text: string): void {
  const r = parseJsonString(text);
  expect(r.ok).toBe(true, "rejected: " + text + " (" + r.error + ")");
  const v = r.value;
  if (v !== null) expect(v.toString()).toBe(text);
}

function rejectsText(text: string): void {
  const r = parseJsonString(text);
  expect(r.ok).toBe(false, "accepted: " + text);
  expect(r.value === null).toBe(true);
  expect(r.error.includes(" at byte ")).toBe(true, r.error);
}

function rejectsBytes(bytes: u8[]): void {
  const a = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) a[i] = bytes[i];
  const r = parseJson(a);
  expect(r.ok).toBe(false, "accepted bytes #" + bytes.length.toString());
}

describe("json grammar: accepted", () => {
  it("round-trips every scalar spelling byte for byte", () => {
    const valid = [
      "0",
      "-0",
      "-0.0",
      "0.0",
      "1000.0",
      "0.10",
      "1e-7",
      "1E+2",
      "2.5E-3",
      "1e400",
      "-1e-400",
      "18446744073709551615",
      "123456789012345678901234567890",
      "true",
      "false",
      "null",
      '""',
      '"\\u0000"',
      '"\\/"',
      '"\\b\\f\\n\\r\\t\\"\\\\"',
      '"\\ud83d\\ude00"',
      '"\\uD83D\\uDE00"',
      '"\\ud800"',
      '"é中😀\u007f"',
      '"\u{10ffff}"',
    ];
    for (let i = 0; i < valid.length; i++) roundTrips(valid[i]);
  });

  it("round-trips containers with insignificant whitespace everywhere", () => {
    roundTrips(" \t\n\r[ ]\n");
    roundTrips("{}");
    roundTrips('{ "a" : [ 1 , 2.50 , { "b" : "x" } ] ,\n\t"a" : -0.0 }');
    roundTrips('[[[],{}],[{"":[]}]]');
    roundTrips('{"n\\u0061me":1,"name":2,"we\\u0069rd\\"key":3}');
  });

  it("exposes the root kind without the surrounding whitespace", () => {
    const v = parseJsonString("  42 \n").value;
    expect(v !== null && v.isNumber()).toBe(true);
    if (v !== null) expect(v.numberText()).toBe("42");
  });
});

describe("json grammar: rejected", () => {
  it("returns an error for every invalid text", () => {
    const invalid = [
      "",
      " ",
      "01",
      "-01",
      "00",
      "1.",
      ".5",
      "1e",
      "1e+",
      "+1",
      "-",
      "--1",
      "NaN",
      "Infinity",
      "-Infinity",
      "0x10",
      "1.e5",
      "[1,]",
      '{"a":1,}',
      "[,1]",
      "{,}",
      '{"a"}',
      '{"a" 1}',
      "{a:1}",
      "{'a':1}",
      '"\\x"',
      '"\\u12"',
      '"\\u12G4"',
      '"\\U0041"',
      '"abc',
      '"a\tb"',
      '"a\nb"',
      '"\u0000"',
      '"\u001f"',
      "[1 2]",
      "tru",
      "nul",
      "fals",
      "falsey",
      "True",
      "true false",
      "[]]",
      "[",
      "{",
      "{}x",
      "1 1",
      '"\\"',
      "[1]//",
      "1\u000b",
      "\f1",
      "\u00a01",
      '["a":1]',
      '{"a":1 "b":2}',
      '{"a"::1}',
      "[1,,2]",
    ];
    for (let i = 0; i < invalid.length; i++) rejectsText(invalid[i]);
  });

  it("rejects invalid UTF-8: overlong, surrogates, above U+10FFFF, truncated, stray", () => {
    rejectsBytes([0x22, 0xc0, 0x80, 0x22]);
    rejectsBytes([0x22, 0xc1, 0xbf, 0x22]);
    rejectsBytes([0x22, 0xe0, 0x80, 0xaf, 0x22]);
    rejectsBytes([0x22, 0xf0, 0x82, 0x82, 0xac, 0x22]);
    rejectsBytes([0x22, 0xed, 0xa0, 0x80, 0x22]);
    rejectsBytes([0x22, 0xed, 0xbf, 0xbf, 0x22]);
    rejectsBytes([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]);
    rejectsBytes([0x22, 0xf5, 0x80, 0x80, 0x80, 0x22]);
    rejectsBytes([0x22, 0xff, 0x22]);
    rejectsBytes([0x22, 0xc3, 0x22]);
    rejectsBytes([0x22, 0xe2, 0x82, 0x22]);
    rejectsBytes([0x22, 0xf0, 0x9f, 0x98]);
    rejectsBytes([0x22, 0x80, 0x22]);
    rejectsBytes([0xef, 0xbb, 0xbf, 0x31]); // byte order mark
    rejectsBytes([0x5b, 0x5d, 0x00]);
  });

  it("reports the byte offset of the problem", () => {
    expect(parseJsonString("[1,]").offset).toBe(3);
    expect(parseJsonString("01").offset).toBe(1);
    expect(parseJsonString('{"a":1x}').offset).toBe(6);
    expect(parseJsonString('"ab\u0001"').offset).toBe(3);
    expect(parseJsonString("").error).toBe("empty input at byte 0");
  });
});

describe("json grammar: depth limit", () => {
  it("accepts 1000 levels and rejects 1001", () => {
    expect(parseJsonString("[".repeat(1000) + "]".repeat(1000)).ok).toBe(true);
    const r = parseJsonString("[".repeat(1001) + "]".repeat(1001));
    expect(r.ok).toBe(false);
    expect(r.offset).toBe(1000);
  });

  it("rejects 200k open brackets without a stack overflow", () => {
    expect(parseJsonString("[".repeat(200000)).ok).toBe(false);
    expect(parseJsonString('{"a":'.repeat(200000)).ok).toBe(false);
  });

  it("honours an explicit limit", () => {
    expect(parseJsonString("[[1]]", 1).ok).toBe(false);
    expect(parseJsonString("[[1]]", 2).ok).toBe(true);
    expect(parseJsonString("1", 0).ok).toBe(true);
    expect(parseJsonString("[]", 0).ok).toBe(false);
    expect(parseJsonString("[]", -5).ok).toBe(false);
  });

  it("serializes, copies and compares documents deeper than the limit without recursion", () => {
    let v = JsonValue.array();
    const root = v;
    for (let i = 0; i < 5000; i++) {
      const next = JsonValue.array();
      v.push(next);
      v = next;
    }
    const text = root.toString();
    expect(text.length).toBe(10002);
    expect(parseJsonString(text).ok).toBe(false);
    expect(parseJsonString(text, 6000).ok).toBe(true);
  });
});

describe("json DOM under a collecting runtime", () => {
  it("keeps every buffer alive through a container-dense parse, walk and edit", () => {
    const parts = new Array<string>();
    for (let i = 0; i < 3000; i++) parts.push('{"k\\u0065y":["\\u00e9' + i.toString() + '",[]]}');
    const text = "[" + parts.join(",") + "]";
    const doc = parseJsonString(text).value;
    expect(doc !== null).toBe(true);
    if (doc === null) return;
    let ok = 0;
    for (let i = 0; i < doc.size(); i++) {
      const item = doc.at(i);
      if (item === null) continue;
      const list = item.get("key");
      if (list === null) continue;
      const s = list.at(0);
      if (s !== null && s.asString().value == "é" + i.toString()) ok++;
      if (i % 500 == 0) __collect();
      list.push(JsonValue.int(i));
    }
    expect(ok).toBe(3000);
    __collect();
    const out = doc.toString();
    expect(out.startsWith('[{"k\\u0065y":["\\u00e90",[],0]},')).toBe(true);
    expect(out.endsWith(',{"k\\u0065y":["\\u00e92999",[],2999]}]')).toBe(true);
  });
});

describe("json grammar: runs of escapes", () => {
  it("accepts a run of two-byte escapes of any kind, ending at the quote or before other text", () => {
    roundTrips('"' + "\\\\".repeat(1000) + '"');
    roundTrips('"\\\\\\"\\/\\b\\f\\n\\r\\t\\u0041\\\\x"');
    roundTrips('{"\\\\\\\\":"\\"\\"é"}');
  });

  it("rejects what ends or breaks a run, at the byte where it does", () => {
    // a bad escape after a run; a lone backslash at the end; a run reaching the end; a short \u;
    // a control character right after a run
    const cases = ['"\\\\\\\\\\x"', '"\\\\\\\\\\', '"\\\\\\\\', '"\\\\\\u12"', '"\\\\\u0001"'];
    const offsets = [5, 5, 0, 3, 3];
    const problems = [
      "invalid escape",
      "unterminated string",
      "unterminated string",
      "invalid escape",
      "unescaped control",
    ];
    for (let i = 0; i < cases.length; i++) {
      const r = parseJsonString(cases[i]);
      expect(r.ok).toBe(false, cases[i]);
      expect(r.error.startsWith(problems[i])).toBe(true, cases[i] + ": " + r.error);
      expect(r.offset).toBe(offsets[i], cases[i]);
    }
  });

  it("walks a run of \\u escapes and stops at a bad one where it is", () => {
    roundTrips('"' + "\\u0001".repeat(1000) + '"');
    roundTrips('"\\u0001\\n\\u00e9\\\\\\ud83d\\ude00x"');
    const cases = ['"\\u0001\\u00g1"', '"\\u0001\\u12"', '"\\u0001\\q"'];
    const offsets = [7, 7, 7];
    for (let i = 0; i < cases.length; i++) {
      const r = parseJsonString(cases[i]);
      expect(r.ok).toBe(false, cases[i]);
      expect(r.error.startsWith("invalid escape")).toBe(true, cases[i] + ": " + r.error);
      expect(r.offset).toBe(offsets[i], cases[i]);
    }
  });

  it("finds a lone surrogate among \\u escapes; a pair is fine", () => {
    const v = parseJsonString(
      '["' +
        "\\u0001".repeat(50) +
        '\\ud83d\\ude00","' +
        "\\u0001".repeat(50) +
        '\\ud83dx","\\ude00","\\ud83d\\u0041","' +
        "\\u0001".repeat(50) +
        '"]',
    ).value!;
    expect(v.itemIsDecodableString(0)).toBe(true);
    expect(v.at(0)!.asString().value).toBe("\u0001".repeat(50) + "😀");
    expect(v.itemIsDecodableString(1)).toBe(false);
    expect(v.itemIsDecodableString(2)).toBe(false);
    expect(v.itemIsDecodableString(3)).toBe(false);
    expect(v.itemIsDecodableString(4)).toBe(true);
    expect(v.at(4)!.asString().value).toBe("\u0001".repeat(50));
    expect(v.at(1)!.asString().ok).toBe(false);
  });

  it("decodes a run of escapes, and finds a lone surrogate after one", () => {
    const v = parseJsonString('["' + "\\\\".repeat(20) + '\\"","' + "\\\\".repeat(9) + '\\ud800"]').value!;
    expect(v.at(0)!.asString().value).toBe("\\".repeat(20) + '"');
    expect(v.at(1)!.isDecodableString()).toBe(false);
    expect(v.itemIsDecodableString(0)).toBe(true);
  });
});
