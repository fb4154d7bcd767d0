// The data-segment merge must leave linear memory byte-identical and refuse anything it cannot
// prove safe (passive segments, bulk-memory instructions that name segments).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { mergeDataSegments } from "../tools/wasm/segments";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const wabtInit = require("wabt") as () => Promise<{
  parseWat(
    name: string,
    text: string,
    features?: Record<string, boolean>,
  ): { toBinary(o: object): { buffer: Uint8Array } };
}>;

async function wat(text: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  return wabt.parseWat("t.wat", text, { bulk_memory: true }).toBinary({}).buffer;
}

function initialMemory(bytes: Uint8Array): Buffer {
  const inst = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(bytes)), {});
  return Buffer.from((inst.exports.memory as WebAssembly.Memory).buffer);
}

function dataSegments(n: number, gap: number): string {
  let out = "";
  for (let i = 0; i < n; i++)
    out += `(data (i32.const ${1024 + i * (12 + gap)}) "seg-${String(i).padStart(4, "0")}\\01\\ff")\n`;
  return out;
}

test("merges many active segments into one, memory byte-identical", async () => {
  const input = await wat(`(module (memory (export "memory") 1) ${dataSegments(300, 4)})`);
  const r = mergeDataSegments(input);
  assert.equal(r.merged, true);
  assert.equal(r.before, 300);
  assert.equal(r.after, 1);
  assert.ok(initialMemory(r.bytes).equals(initialMemory(input)));
});

test("a large gap starts a new segment instead of writing kilobytes of zeros", async () => {
  const input = await wat(`(module (memory (export "memory") 1)
    (data (i32.const 100) "a") (data (i32.const 104) "b") (data (i32.const 20000) "c"))`);
  const r = mergeDataSegments(input);
  assert.equal(r.after, 2);
  assert.ok(initialMemory(r.bytes).equals(initialMemory(input)));
  assert.ok(r.bytes.length < input.length + 16);
});

test("keeps the module untouched when a passive segment exists", async () => {
  const input = await wat(`(module (memory 1) (data (i32.const 8) "a") (data "passive"))`);
  const r = mergeDataSegments(input);
  assert.equal(r.merged, false);
  assert.match(r.reason ?? "", /not an active segment/);
  assert.ok(Buffer.from(input).equals(r.bytes));
});

test("keeps the module untouched when code uses memory.init or data.drop", async () => {
  const input = await wat(`(module (memory 1) (data (i32.const 8) "a") (data (i32.const 16) "b")
    (func (export "f") (data.drop 0)))`);
  const r = mergeDataSegments(input);
  assert.equal(r.merged, false);
  assert.match(r.reason ?? "", /memory.init or data.drop/);
});

test("a module without data is returned as is", async () => {
  const input = await wat(`(module (func (export "_start")))`);
  const r = mergeDataSegments(input);
  assert.equal(r.merged, false);
  assert.ok(Buffer.from(input).equals(r.bytes));
});
