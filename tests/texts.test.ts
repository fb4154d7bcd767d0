// The texts transform (tools/wasm/texts-transform.mjs + tools/wasm/texts.ts): a module built like
// a policy says exactly what its source says, for every kind of string; keeps saying it on a
// reused instance (the texts live below the heap, which is reset after every call); and carries
// the texts in a passive segment rather than in the data copied at instantiation.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { compileTestGuest } from "../tools/bench/guests";
import { PolicyModule } from "../tools/host/guest";
import { WarmInstance } from "../tools/host/instance";
import { readStructure } from "../tools/wasm/wasm";
import { gateProblems } from "../tools/wasm/gates";
import { readU32 } from "../tools/wasm/segments";
import {
  choosePieces,
  decodeTexts,
  encodeDictionary,
  encodeTexts,
  MAX_PIECES,
} from "../tools/wasm/texts-dictionary.mjs";

const EXPECTED = [
  "plain ASCII",
  'quote " backslash \\ tab \t newline \n end',
  "two-byte é, three-byte → €, four-byte 😀, separator \u2028",
  "a lazy constant",
  "a non-lazy constant",
  "a top-level variable",
  "a static field",
  "an instance field",
  "a default parameter",
  "concat a lazy constant and literal",
  "the local variable / the global constant",
  "",
  "t01,t02,t03,t04,t05,t06,t07,t08,t09,t10,t11,t12,t13,t14,t15",
  Array.from({ length: 120 }, (_, i) => String.fromCharCode(0x100 + i)).join(""),
].join("|");

let wasm: Buffer;
test("the texts probe builds like a policy and passes the gates", () => {
  wasm = fs.readFileSync(compileTestGuest("texts-probe"));
  const problems = gateProblems(wasm, "texts-probe", { metadata: "absent" }).filter(
    (p) => !p.includes("validate_settings"),
  );
  assert.deepEqual(problems, []);
  assert.ok(
    !WebAssembly.Module.imports(new WebAssembly.Module(new Uint8Array(wasm))).some((i) => i.module !== "wapc"),
    "only wapc imports",
  );
});

test("every kind of string reads back exactly, on fresh and on reused instances", () => {
  const module = PolicyModule.fromBytes(wasm, "texts-probe");
  const fresh = module.call("texts", "");
  assert.ok(fresh.ok, fresh.error ?? fresh.trap);
  assert.equal(fresh.response!.toString("utf8"), EXPECTED);
  const warm = new WarmInstance(module.module);
  for (let i = 0; i < 3; i++) {
    const r = warm.call("texts", "");
    assert.ok(r.ok, r.error ?? r.trap);
    assert.equal(r.response!.toString("utf8"), EXPECTED, `call ${i + 1} on one instance`);
  }
});

/** the payload of the module's passive data segment (the texts) */
function passiveSegment(bytes: Buffer): Buffer {
  const data = readStructure(bytes).sections.find((x) => x.id === 11)!;
  const pos = { p: data.payloadOffset };
  const count = readU32(bytes, pos);
  for (let i = 0; i < count; i++) {
    const flags = readU32(bytes, pos);
    if (flags === 0) {
      pos.p++; // i32.const
      readU32(bytes, pos); // its operand (a LEB; small addresses read alike as signed or unsigned)
      pos.p++; // end
    }
    const size = readU32(bytes, pos);
    if (flags === 1) return bytes.subarray(pos.p, pos.p + size);
    pos.p += size;
  }
  throw new Error("no passive segment");
}

test("literals and string constants leave the active data; variables and static fields stay", () => {
  const s = readStructure(wasm);
  const data = s.sections.find((x) => x.id === 11)!;
  const bytes = wasm.subarray(data.payloadOffset, data.payloadOffset + data.size);
  const segment = passiveSegment(wasm);
  const active = Buffer.concat([
    bytes.subarray(0, segment.byteOffset - bytes.byteOffset),
    bytes.subarray(segment.byteOffset - bytes.byteOffset + segment.length),
  ]);
  const inActive = (t: string): boolean =>
    active.includes(Buffer.from(t, "utf16le")) || active.includes(Buffer.from(t, "utf8"));
  // AssemblyScript would store these as UTF-16 objects; here they travel encoded in the passive
  // segment (the probe's answer shows they read back: the test above)
  for (const t of ["plain ASCII", "a lazy constant", "a non-lazy constant", "a default parameter"]) {
    assert.ok(!inActive(t), t);
  }
  assert.ok(segment.length > 0);
  // their initialisers run in `_start`, which must not write memory: left as static data
  for (const t of ["a top-level variable", "a static field"]) assert.ok(active.includes(Buffer.from(t, "utf16le")), t);
  // a text only uncompiled code reads gets no slot and no bytes
  const unused = "a text no compiled code reads";
  assert.ok(!inActive(unused) && !segment.includes(Buffer.from(unused, "utf8")));
});

describe("the texts' dictionary encoding", () => {
  const sample = [
    "must be a valid name",
    "must be a valid path",
    "must be no more than 63 characters",
    "",
    "\u0001 is escaped, \u0000 is not: \u0001\u0000",
    "two-byte é, three-byte → €, four-byte 😀, lone \ud800",
    "spec.containers must be a list",
  ];
  const roundTrip = (texts: string[], used = texts) => {
    const { pieces } = choosePieces(texts);
    const { segment, tableBytes, wide } = encodeTexts(used, pieces);
    const dictionary = encodeDictionary(pieces);
    return {
      decoded: decodeTexts(segment, used.length, dictionary, wide),
      segment,
      tableBytes,
      wide,
      dictionary,
      pieces,
    };
  };
  test("every text decodes back exactly, the empty one and escaped units included", () => {
    assert.deepEqual(roundTrip(sample).decoded, sample);
  });
  test("the texts in use decode with the pieces chosen over every text", () => {
    const used = [sample[5], sample[0], sample[3]];
    assert.deepEqual(roundTrip(sample, used).decoded, used);
  });
  test("shared pieces are stored once: the segment is shorter than the texts' UTF-8", () => {
    const texts = Array.from({ length: 20 }, (_, i) => `lmcache.ai/setting-${i} must be a valid DNS-1123 label`);
    const { decoded, segment, tableBytes, dictionary, pieces } = roundTrip(texts);
    assert.deepEqual(decoded, texts);
    const plain = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    assert.ok(pieces.length >= 1 && pieces.length <= MAX_PIECES, String(pieces.length));
    const encoded = segment.length - tableBytes + dictionary.length;
    assert.ok(encoded < plain / 2, `${encoded} of ${plain}`);
  });
  test("a piece refers only to pieces before it, and the count of pieces stays within one byte", () => {
    const texts = Array.from(
      { length: 400 },
      (_, i) => `text ${i.toString(36)} ${"abcdefghij".slice(i % 10)} ${i * 7919}`,
    );
    const { decoded, dictionary, pieces } = roundTrip(texts);
    assert.ok(pieces.length <= MAX_PIECES);
    for (let d = 0; d < pieces.length; d++)
      for (let i = dictionary.readUInt16LE(d * 2); i < dictionary.readUInt16LE(d * 2 + 2); i++) {
        if (dictionary[i] === 1) i += 2;
        else if (dictionary[i] >= 0x80) assert.ok(dictionary[i] - 0x80 < d, `piece ${d}`);
      }
    assert.deepEqual(decoded, texts);
  });
  test("the table holds an offset per 16 texts and a byte per text; a body of 256+ bytes makes every length two bytes", () => {
    const texts = Array.from({ length: 40 }, (_, i) => `text number ${i}`);
    const narrow = roundTrip(texts);
    assert.equal(narrow.wide, false);
    // two full entries (2 + 16 bytes) and the last one up to its 8th text
    assert.equal(narrow.tableBytes, 2 * 18 + 2 + 8);
    assert.deepEqual(narrow.decoded, texts);
    // distinct non-ASCII units (3 bytes each encoded) share no piece
    const units = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(0x100 + i)).join("");
    const long = [...texts.slice(0, 20), units(86), ...texts.slice(20)];
    const wide = roundTrip(long);
    assert.equal(wide.wide, true);
    assert.equal(wide.tableBytes, 2 * 34 + 2 + 9 * 2);
    assert.deepEqual(wide.decoded, long);
    // a body of exactly 255 bytes still fits one byte
    const edge = roundTrip([units(85), "x"]);
    assert.equal(edge.wide, false);
    assert.equal(edge.segment.length - edge.tableBytes, 255 + 1);
    assert.deepEqual(edge.decoded, [units(85), "x"]);
  });
  test("a text using the units reserved for pieces fails the build with a message", () => {
    assert.throws(() => choosePieces(["private \ue005 use"]), /a text uses U\+E005, which the encoder reserves/);
  });
});

test("a module that tests a text's class at run time keeps the texts' class id", () => {
  // texts carry only their byte length unless `instanceof` or `__typeinfo` is compiled
  // (tools/wasm/texts-transform.mjs); this guest compiles `instanceof` over a text
  const module = PolicyModule.fromFile(compileTestGuest("texts-classid"));
  for (const r of [module.call("classid", ""), new WarmInstance(module.module).call("classid", "")]) {
    assert.ok(r.ok, r.error ?? r.trap);
    assert.equal(r.response!.toString("utf8"), "string,not a string");
  }
});
