// The production runtime (assembly/rt/compact.ts), through a probe built with the production flags
// and run by the Node host: the header words the standard library reads stay where it reads them,
// blocks are packed (8-byte header, 4-byte alignment: the point of the runtime, issue 8), memory a
// reused instance hands out again reads as zeros, and resizes keep their bytes and class.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { compileTestGuest } from "../tools/bench/guests";
import { PolicyModule } from "../tools/host/guest";
import { WarmInstance } from "../tools/host/instance";
import { activeDataRanges } from "../tools/bench/pages";

let probe: PolicyModule;

before(() => {
  probe = PolicyModule.fromFile(compileTestGuest("runtime-probe"));
});

function facts(r: { ok: boolean; response?: Buffer; error?: string; trap?: string }): Record<string, unknown> {
  assert.equal(r.ok, true, r.error ?? r.trap);
  return JSON.parse(r.response!.toString("utf8")) as Record<string, unknown>;
}

describe("the compact runtime", () => {
  test("an object's class id and byte size are the two words before it, and nothing else is", () => {
    const f = facts(probe.call("layout", ""));
    assert.equal(f.classIdMatches, 1);
    assert.equal(f.size, 12);
    // a 12-byte object takes 20 bytes (the stub runtime took 32)
    assert.equal(f.distance, 20);
    assert.equal(f.align, 0);
    assert.equal(f.instanceofOk, 1);
  });

  test("strings, buffers and 8-byte fields read as the standard library expects", () => {
    const f = facts(probe.call("layout", ""));
    assert.equal(f.stringLength, 6);
    assert.equal(f.stringBytes, 12);
    assert.equal(f.bufferLength, 13);
    // an f64 field at a 4-aligned, not 8-aligned, address: wasm allows it and the value is exact
    assert.equal(f.wideAlign, 4);
    assert.equal(f.wideValue, 3.25);
  });

  test("memory handed out again after the reset reads as zeros (StaticArray, Array growth, ArrayBuffer)", () => {
    const warm = new WarmInstance(probe.module);
    const dirty = facts(warm.call("dirty", "xx"));
    const zeros = facts(warm.call("zeros", "xx"));
    // same addresses, so the second call was handed what the first one wrote
    assert.equal(zeros.at, dirty.at);
    assert.equal(zeros.nonZero, 0);
    // and on a fresh instance, whose memory was never handed out
    assert.equal(facts(probe.call("zeros", "xx")).nonZero, 0);
  });

  test("the last block grows and shrinks in place; an inner one moves with its bytes and class", () => {
    const f = facts(probe.call("resize", ""));
    assert.deepEqual(f, {
      lastGrowsInPlace: 1,
      nextAfterGrown: 4008,
      innerMoves: 1,
      movedKeepsBytes: 1,
      movedKeepsClass: 1,
      movedSize: 8000,
      lastShrinksInPlace: 1,
      nextAfterShrunk: 20,
      innerShrinksInPlace: 1,
      innerShrunkSize: 4,
      freedLastReused: 1,
    });
  });

  test("a block larger than the memory grows it", () => {
    const f = facts(probe.call("grow", ""));
    assert.ok((f.grewPages as number) >= 4, `grew ${String(f.grewPages)} pages`);
    assert.equal(f.lastByte, 9);
    assert.equal(f.fitsInMemory, 1);
  });

  test("the heap starts right after the static data: no shadow stack between (asconfig.production.json)", () => {
    // asc gives a custom runtime a 32 KiB shadow stack unless the production config turns it off;
    // before the first allocation only the invocation's two buffers and its record are on the heap
    const dataEnd = Math.max(...activeDataRanges(probe.bytes).map((r) => r[1]));
    const at = facts(probe.call("heapStart", "")).at as number;
    assert.ok(at > dataEnd && at - dataEnd < 256, `first free payload at ${at}, static data ends at ${dataEnd}`);
  });

  test("a reused instance stays flat", () => {
    const warm = new WarmInstance(probe.module);
    for (const op of ["grow", "resize", "dirty", "zeros"]) facts(warm.call(op, "xx"));
    const after = warm.memoryBytes;
    for (let i = 0; i < 20; i++) for (const op of ["grow", "resize", "dirty", "zeros"]) facts(warm.call(op, "xx"));
    assert.equal(warm.memoryBytes, after);
  });
});
