// The texts transform (tools/wasm/texts-transform.mjs + tools/wasm/texts.ts): a module built like
// a policy says exactly what its source says, for every kind of string; keeps saying it on a
// reused instance (the texts live below the heap, which is reset after every call); and carries
// the texts in a passive segment rather than in the data copied at instantiation.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { compileTestGuest } from "../tools/bench/guests";
import { PolicyModule } from "../tools/host/guest";
import { WarmInstance } from "../tools/host/instance";
import { readStructure } from "../tools/wasm/wasm";
import { gateProblems } from "../tools/wasm/gates";

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

test("literals and string constants leave the active data; variables and static fields stay", () => {
  const s = readStructure(wasm);
  const data = s.sections.find((x) => x.id === 11)!;
  const bytes = wasm.subarray(data.payloadOffset, data.payloadOffset + data.size);
  const utf16 = (t: string): boolean => bytes.includes(Buffer.from(t, "utf16le"));
  const utf8 = (t: string): boolean => bytes.includes(Buffer.from(t, "utf8"));
  // AssemblyScript would store these as UTF-16 objects; here they are UTF-8 in the passive segment
  for (const t of ["plain ASCII", "a lazy constant", "a non-lazy constant", "a default parameter"]) {
    assert.ok(!utf16(t) && utf8(t), t);
  }
  // their initialisers run in `_start`, which must not write memory: left as static data
  for (const t of ["a top-level variable", "a static field"]) assert.ok(utf16(t), t);
  // a text only uncompiled code reads keeps its slot but no bytes
  assert.ok(!utf8("a text no compiled code reads") && !utf16("a text no compiled code reads"));
});
