// Structural gates (docs/wasm-contract.md#structural-gates): one test guest per rule, each breaking
// exactly that rule, plus the good guest that passes everything. Also the tiny wasm reader they
// rely on.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { annotateModule } from "../tools/wasm/annotate";
import { assertGates, gateProblems, GateError } from "../tools/wasm/gates";
import { encodeCustomSection, encodeU32, listSections, METADATA_SECTION, readStructure } from "../tools/wasm/wasm";
import { guestWasm, GuestOptions } from "./guests/build-gates/guests";

const METADATA = {
  rules: [{ apiGroups: [""], apiVersions: ["v1"], resources: ["pods"], operations: ["CREATE"] }],
  mutating: false,
};

async function problemsOf(
  name: string,
  o: GuestOptions,
  metadata: "absent" | "required" = "absent",
): Promise<string[]> {
  return gateProblems(await guestWasm(name, o), name, { metadata });
}

function annotate(wasm: Buffer): Buffer {
  return annotateModule({ wasm, wasmLabel: "guest.wasm", metadata: METADATA, metadataLabel: "metadata.yml" }).bytes;
}

describe("wasm reader", () => {
  test("LEB128 encoding round-trips through the section reader", () => {
    assert.deepEqual([...encodeU32(0)], [0]);
    assert.deepEqual([...encodeU32(127)], [0x7f]);
    assert.deepEqual([...encodeU32(128)], [0x80, 0x01]);
    assert.deepEqual([...encodeU32(624485)], [0xe5, 0x8e, 0x26]);
    assert.deepEqual([...encodeU32(0xffffffff)], [0xff, 0xff, 0xff, 0xff, 0x0f]);
    const header = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    const payload = Buffer.alloc(300, 0x41); // size needs a 2-byte LEB128
    const sections = listSections(Buffer.concat([header, encodeCustomSection("x", payload)]));
    assert.equal(sections.length, 1);
    assert.equal(sections[0].name, "x");
    assert.equal(sections[0].size, 2 + 300);
  });

  test("a truncated module is a format error, not garbage", () => {
    const header = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    assert.throws(() => listSections(Buffer.concat([header, Buffer.from([0x00, 0x20, 0x01])])), /runs past the end/);
    assert.throws(() => listSections(Buffer.from("not wasm")), /bad magic/);
  });

  test("signatures of imports and exports", async () => {
    const s = readStructure(await guestWasm("good", {}));
    assert.deepEqual(s.exports.find((e) => e.name === "__guest_call")?.type, {
      params: ["i32", "i32"],
      results: ["i32"],
    });
    assert.deepEqual(s.exports.find((e) => e.name === "_start")?.type, { params: [], results: [] });
    assert.deepEqual(
      s.imports.map((i) => `${i.module}.${i.name}`),
      ["wapc.__guest_request", "wapc.__guest_response", "wapc.__guest_error"],
    );
    assert.equal(s.hasStartSection, false);
  });
});

describe("gates", () => {
  test("the good guest passes every gate, unannotated and annotated", async () => {
    const good = await guestWasm("good", {});
    assert.deepEqual(gateProblems(good, "good", { metadata: "absent" }), []);
    assert.deepEqual(gateProblems(annotate(good), "good", { metadata: "required" }), []);
  });

  test("env import", async () => {
    const p = await problemsOf("env", { extraImports: '(import "env" "abort" (func (param i32 i32 i32 i32)))' });
    assert.deepEqual(p, ['imports env.abort from module "env" (only wapc.* imports are allowed)']);
  });

  test("WASI import", async () => {
    const p = await problemsOf("wasi", {
      extraImports: '(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))',
    });
    assert.deepEqual(p, ["imports wasi_snapshot_preview1.fd_write from WASI (only wapc.* imports are allowed)"]);
  });

  test("a wapc function outside the nine waPC host functions", async () => {
    const p = await problemsOf("bogus", { extraImports: '(import "wapc" "__bogus" (func (param i32 i32)))' });
    assert.deepEqual(p, ["imports function wapc.__bogus, which is not one of the waPC host functions"]);
  });

  test("a wapc import that is not a function, even under a waPC function's name", async () => {
    const p = await problemsOf("global", { extraImports: '(import "wapc" "__console_log" (global i32))' });
    assert.deepEqual(p, ["imports global wapc.__console_log, which is not one of the waPC host functions"]);
  });

  test("imported memory", async () => {
    const p = await problemsOf("memory", { importMemory: true });
    assert.deepEqual(p, ["imports memory wapc.memory (memory must be defined by the module, never imported)"]);
  });

  test("missing memory export", async () => {
    assert.deepEqual(await problemsOf("nomem", { exportMemory: false }), [
      'missing export memory (a memory named exactly "memory")',
    ]);
  });

  test("missing _start", async () => {
    assert.deepEqual(await problemsOf("nostart", { exportStart: false }), [
      "missing export _start (function () -> (); build with --exportStart _start)",
    ]);
  });

  test("missing __guest_call", async () => {
    assert.deepEqual(await problemsOf("nocall", { exportGuestCall: false }), [
      "missing export __guest_call (function (i32, i32) -> i32)",
    ]);
  });

  test("wrong __guest_call signature", async () => {
    assert.deepEqual(await problemsOf("sig", { wrongGuestCallSignature: true }), [
      "export __guest_call has signature (i32, i64) -> i32, expected (i32, i32) -> i32",
    ]);
  });

  test("a start section", async () => {
    const p = await problemsOf("start", { startSection: true });
    assert.deepEqual(p, [
      "has a wasm start section (it traps under policy-server's epoch interruption; build with --exportStart _start)",
    ]);
  });

  test("a _start that writes linear memory (an allocating global initialiser)", async () => {
    assert.deepEqual(await problemsOf("startwrites", { startWritesMemory: true }), [
      "_start writes linear memory (1 byte(s) changed, the first at offset 8192): a global initialiser allocates, and the heap reset after each call would clobber it; make the global lazy or a static value",
    ]);
  });

  test('protocol_version returning "v2"', async () => {
    assert.deepEqual(await problemsOf("v2", { protocolVersion: '"v2"' }), [
      'protocol_version returned `"v2"` (4 bytes), expected exactly `"v1"` (4 bytes)',
    ]);
  });

  test("protocol_version without the JSON quotes", async () => {
    assert.deepEqual(await problemsOf("bare", { protocolVersion: "v1" }), [
      'protocol_version returned `v1` (2 bytes), expected exactly `"v1"` (4 bytes)',
    ]);
  });

  test("validate_settings {} returning invalid JSON", async () => {
    const [p, ...rest] = await problemsOf("settings", { settingsResponse: "{valid:true}" });
    assert.deepEqual(rest, []);
    assert.match(p, /^validate_settings \{\} returned invalid JSON `\{valid:true\}` \(12 bytes\)/);
  });

  test("validate_settings {} returning JSON without a boolean valid", async () => {
    assert.deepEqual(await problemsOf("settings2", { settingsResponse: "[]" }), [
      'validate_settings {} returned `[]` (2 bytes), expected an object with a boolean "valid"',
    ]);
  });

  test("annotated module with zero metadata sections", async () => {
    assert.deepEqual(await problemsOf("zero", {}, "required"), [
      `carries 0 ${METADATA_SECTION} sections, expected exactly 1`,
    ]);
  });

  test("annotated module with two metadata sections", async () => {
    const once = annotate(await guestWasm("two", {}));
    const twice = Buffer.concat([
      once,
      encodeCustomSection(METADATA_SECTION, Buffer.from('{"protocolVersion":"v1","rules":[],"mutating":false}')),
    ]);
    assert.deepEqual(gateProblems(twice, "two", { metadata: "required" }), [
      `carries 2 ${METADATA_SECTION} sections, expected exactly 1`,
    ]);
  });

  test("unannotated module that already carries a metadata section", async () => {
    const once = annotate(await guestWasm("pre", {}));
    assert.deepEqual(gateProblems(once, "pre", { metadata: "absent" }), [
      `carries 1 ${METADATA_SECTION} section(s); an unannotated module must carry none`,
    ]);
  });

  test("metadata payload failing the metadata rules, lacking protocolVersion, or with another executionMode", async () => {
    const good = await guestWasm("meta", {});
    const withPayload = (json: string): Buffer =>
      Buffer.concat([good, encodeCustomSection(METADATA_SECTION, Buffer.from(json))]);
    const rule = '{"apiGroups":["","*"],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]}';
    assert.deepEqual(
      gateProblems(
        withPayload(`{"protocolVersion":"v1","rules":[${rule}],"mutating":false,"executionMode":"kubewarden-wapc"}`),
        "m",
        { metadata: "required" },
      ),
      [`${METADATA_SECTION}: rules[0].apiGroups: '*' must be alone (found "", "*")`],
    );
    assert.deepEqual(
      gateProblems(withPayload('{"rules":[],"mutating":false,"executionMode":"kubewarden-wapc"}'), "m", {
        metadata: "required",
      }),
      [`${METADATA_SECTION}: protocolVersion: required key is missing`],
    );
    assert.deepEqual(
      gateProblems(withPayload('{"protocolVersion":"v1","rules":[],"mutating":false,"executionMode":"wasi"}'), "m", {
        metadata: "required",
      }),
      [`${METADATA_SECTION}: executionMode is "wasi", expected "kubewarden-wapc"`],
    );
    assert.deepEqual(
      gateProblems(withPayload('{"protocolVersion":"v1","rules":[],"mutating":false}'), "m", { metadata: "required" }),
      [`${METADATA_SECTION}: executionMode missing, expected "kubewarden-wapc"`],
    );
    assert.match(gateProblems(withPayload("{not json"), "m", { metadata: "required" })[0], /payload is not valid JSON/);
  });

  test("several problems are all reported, and assertGates names the module", async () => {
    const bad = await guestWasm("multi", { exportStart: false, startSection: true });
    assert.throws(
      () => assertGates(bad, "policies/x/policy.wasm", { metadata: "absent" }),
      (e: unknown) => {
        assert.ok(e instanceof GateError);
        assert.equal(
          e.message,
          "policies/x/policy.wasm: missing export _start (function () -> (); build with --exportStart _start); has a wasm start section (it traps under policy-server's epoch interruption; build with --exportStart _start)",
        );
        return true;
      },
    );
  });

  test("bytes that are not a module", () => {
    assert.deepEqual(
      gateProblems(Buffer.from("hello"), "x", { metadata: "absent" }).map((p) => p.split(":")[0]),
      ["not a valid WebAssembly module"],
    );
  });
});
