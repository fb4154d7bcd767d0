// Differential tests of the raw-span JSON DOM (assembly/json) against the JavaScript reference in
// tests/helpers/json-reference.ts, through a test-only guest built with the production flags and
// run by the project's Node host (fresh instance per call, only wapc imports).
import { after, before, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PolicyModule } from "../tools/host/guest";
import { PRODUCTION_ASCONFIG, PRODUCTION_RUNTIME } from "../tools/wasm/index";
import { Gen } from "./helpers/json-gen";
import * as ref from "./helpers/json-reference";

const ROOT = path.resolve(__dirname, "..");
let tmp = "";
let probe: PolicyModule;

/** the runtime and how the probe frees a call's memory under it (assembly/wapc releaseCallMemory),
 *  with the config file that goes with it: `compact` is the production runtime (tools/wasm/index.ts) */
function runtimeFlags(runtime: string): string[] {
  if (runtime === "compact")
    return ["--runtime", PRODUCTION_RUNTIME, "--use", "RESET_HEAP_AFTER_CALL=1", "--config", PRODUCTION_ASCONFIG];
  const release =
    runtime === "stub"
      ? ["--use", "RESET_HEAP_AFTER_CALL=1"]
      : runtime === "minimal"
        ? ["--use", "COLLECT_AFTER_CALL=1"]
        : [];
  // the flags alone: the root asconfig.json (production runtime defines) must not merge in
  return ["--runtime", runtime, ...release, "--config", "tools/wasm/asconfig.isolated.json"];
}

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "json-probe-"));
  const out = path.join(tmp, "probe.wasm");
  const r = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "asc"),
    [
      // JSON_PROBE_RUNTIME=stub|minimal|incremental re-runs the suite on another runtime (default: production's)
      "tests/guests/json-probe/index.ts",
      "-o",
      out,
      ...runtimeFlags(process.env.JSON_PROBE_RUNTIME ?? "compact"),
      "-O3",
      "--converge",
      "--use",
      "abort=assembly/wapc/index/wapcAbort",
      "--exportStart",
      "_start",
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  assert.equal(r.status, 0, `asc failed:\n${r.stdout}${r.stderr}`);
  probe = PolicyModule.fromFile(out);
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** calls the probe; a trap always fails the test (a trap is a rejected admission request) */
function call(op: string, payload: Uint8Array | string): { ok: boolean; bytes: Buffer; error: string } {
  const r = probe.call(op, payload);
  assert.equal(r.trapped, false, `guest trapped: ${r.trap} ${r.error ?? ""}`);
  return { ok: r.ok, bytes: r.response ?? Buffer.alloc(0), error: r.error ?? "" };
}

function framed(first: string | Buffer, rest: string | Buffer): Buffer {
  const a = Buffer.from(first),
    b = Buffer.from(rest);
  return Buffer.concat([Buffer.from(`${a.length}\n`), a, b]);
}

function identity(doc: Buffer): void {
  const r = call("identity", doc);
  assert.ok(r.ok, `rejected a valid document: ${r.error}\n${doc.toString()}`);
  assert.ok(r.bytes.equals(doc), `identity changed bytes:\n in: ${doc.toString()}\nout: ${r.bytes.toString()}`);
}

const INVALID: Array<[string, string | number[]]> = [
  ["empty", ""],
  ["whitespace only", " \n\t"],
  ["leading zero", "01"],
  ["negative leading zero", "-01"],
  ["bare point", "1."],
  ["leading point", ".5"],
  ["bare exponent", "1e"],
  ["exponent sign only", "1e+"],
  ["plus sign", "+1"],
  ["bare minus", "-"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["-Infinity", "-Infinity"],
  ["hex", "0x10"],
  ["trailing comma array", "[1,]"],
  ["trailing comma object", '{"a":1,}'],
  ["leading comma", "[,1]"],
  ["empty member", "{,}"],
  ["key without value", '{"a"}'],
  ["missing colon", '{"a" 1}'],
  ["unquoted key", "{a:1}"],
  ["single quotes", "{'a':1}"],
  ["bad escape", '"\\x"'],
  ["short unicode escape", '"\\u12"'],
  ["non-hex unicode escape", '"\\u12G4"'],
  ["unterminated string", '"abc'],
  ["raw tab in string", '"a\tb"'],
  ["raw newline in string", '"a\nb"'],
  ["raw NUL in string", [0x22, 0x00, 0x22]],
  ["missing comma", "[1 2]"],
  ["truncated true", "tru"],
  ["truncated null", "nul"],
  ["literal with tail", "falsey"],
  ["two values", "true false"],
  ["extra close", "[]]"],
  ["unclosed array", "["],
  ["unclosed object", "{"],
  ["garbage after object", "{}x"],
  ["two numbers", "1 1"],
  ["escaped closing quote only", '"\\"'],
  ["capital literal", "True"],
  ["comment", "[1]//"],
  ["overlong NUL", [0x22, 0xc0, 0x80, 0x22]],
  ["overlong slash", [0x22, 0xe0, 0x80, 0xaf, 0x22]],
  ["overlong 4-byte", [0x22, 0xf0, 0x82, 0x82, 0xac, 0x22]],
  ["encoded surrogate", [0x22, 0xed, 0xa0, 0x80, 0x22]],
  ["above U+10FFFF", [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]],
  ["F5 lead", [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22]],
  ["truncated 2-byte", [0x22, 0xc3, 0x22]],
  ["truncated 3-byte", [0x22, 0xe2, 0x82, 0x22]],
  ["truncated at end", [0x22, 0xf0, 0x9f, 0x98]],
  ["stray continuation", [0x22, 0x80, 0x22]],
  ["0xFF", [0xff]],
  ["byte order mark", [0xef, 0xbb, 0xbf, 0x31]],
  ["non-breaking space", [0xc2, 0xa0, 0x31]],
  ["vertical tab", "1\u000b"],
  ["form feed as whitespace", "\f1"],
  ["NUL after value", [0x5b, 0x5d, 0x00]],
  ["depth 1001", "[".repeat(1001) + "]".repeat(1001)],
  ["200k open brackets", "[".repeat(200_000)],
  ["200k open objects", '{"a":'.repeat(200_000)],
];

describe("json DOM: grammar", () => {
  it("rejects every invalid input with a parse error, never a trap", () => {
    for (const [name, input] of INVALID) {
      const bytes = typeof input === "string" ? Buffer.from(input, "utf8") : Buffer.from(input);
      assert.equal(ref.isValidJson(bytes), false, `reference accepted ${name}`);
      const r = call("identity", bytes);
      assert.equal(r.ok, false, `guest accepted ${name}`);
      assert.match(r.error, /^parse error: .+ at byte \d+$/, name);
    }
  });

  it("accepts depth 1000 and round-trips it", () => {
    identity(Buffer.from("[".repeat(1000) + "]".repeat(1000)));
    identity(Buffer.from('{"a":'.repeat(999) + "[]" + "}".repeat(999)));
  });

  it("agrees with the reference on byte-level corruptions of valid documents", () => {
    const g = new Gen(7);
    for (let i = 0; i < 400; i++) {
      const doc = Buffer.from(g.document(4), "utf8");
      const bad = Buffer.from(doc);
      const at = g.int(Math.max(bad.length, 1));
      const choice = g.int(3);
      let mutated: Buffer;
      if (choice === 0) {
        bad[at] = g.int(256);
        mutated = bad;
      } else if (choice === 1) mutated = Buffer.concat([doc.subarray(0, at), doc.subarray(at + 1)]);
      else
        mutated = Buffer.concat([
          doc.subarray(0, at),
          Buffer.from([g.pick([0x22, 0x5c, 0x2c, 0x5d, 0x7d, 0x80, 0xc3, 0x30, 0x2e, 0x65])]),
          doc.subarray(at),
        ]);
      const r = call("identity", mutated);
      assert.equal(r.ok, ref.isValidJson(mutated), `disagreement on ${JSON.stringify(mutated.toString("latin1"))}`);
      if (r.ok) assert.ok(r.bytes.equals(mutated));
    }
  });
});

describe("json DOM: identity", () => {
  it("returns identical bytes for generated documents", () => {
    const g = new Gen(1);
    for (let i = 0; i < 400; i++) identity(Buffer.from(g.document(1 + g.int(6)), "utf8"));
  });

  it("returns identical bytes for deep documents", () => {
    const g = new Gen(2);
    for (let i = 0; i < 10; i++) identity(Buffer.from(g.deep(900 + g.int(99)), "utf8"));
  });

  it("handles a 1.5 MiB request within 100 ms and 64 MiB", () => {
    const g = new Gen(3);
    const items: string[] = [];
    let size = 0;
    while (size < 1.5 * 1024 * 1024) {
      const v = g.value(5);
      items.push(v);
      size += v.length + 1;
    }
    const doc = Buffer.from(`{"request":{"object":{"items":[${items.join(",")}]}}}`, "utf8");
    const script = JSON.stringify([
      ["set", ["request", "object"], "marker", ["str", "x"]],
      ["keys", ["request"]],
    ]);
    // CPU time, best of three: wall time on a shared CI machine measures its load, not the guest
    let ms = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = process.cpuUsage();
      const r = probe.call("edit", framed(script, doc));
      const used = process.cpuUsage(t0);
      ms = Math.min(ms, (used.user + used.system) / 1000);
      assert.equal(r.ok, true, r.error);
      assert.equal(r.trapped, false);
      assert.ok(r.memoryBytes <= 64 * 1024 * 1024, `memory ${r.memoryBytes}`);
      assert.ok(
        r
          .response!.subarray(r.response!.indexOf(0x0a) + 1)
          .toString()
          .endsWith(',"marker":"x"}}}'),
      );
    }
    assert.ok(ms < 100, `took ${ms.toFixed(1)} ms`);
  });
});

// ---- scripted edits ----

type Seg = string | number;
type Step = [string, Seg[], ...unknown[]];

/** paths to every node the probe can reach by get/at, with the node they resolve to */
function reachable(root: ref.RNode, g: Gen): Array<{ path: Seg[]; node: ref.RNode }> {
  const out: Array<{ path: Seg[]; node: ref.RNode }> = [];
  const visit = (node: ref.RNode, p: Seg[], depth: number): void => {
    out.push({ path: p, node });
    if (depth > 60) return;
    node.items.forEach((child, i) => {
      const key = ref.decodeKey(child);
      // by key only when that key resolves to this member (last occurrence) and survives the script's JSON
      const byKey = node.kind === "object" && ref.get(node, key) === child && !/[\ud800-\udfff]/.test(key);
      visit(child, [...p, byKey && g.chance(0.8) ? key : i], depth + 1);
    });
  };
  visit(root, [], 0);
  return out;
}

function walk(root: ref.RNode, p: Seg[]): ref.RNode | null {
  let n: ref.RNode | null = root;
  for (const seg of p) {
    if (n === null) return null;
    n = typeof seg === "string" ? ref.get(n, seg) : ref.at(n, seg);
  }
  return n;
}

function valueSpec(g: Gen): ref.ValueSpec {
  switch (g.int(9)) {
    case 0:
      return ["json", g.document(2)];
    case 1:
      return ["str", g.text(false)];
    case 2:
      return ["units", Array.from(g.text(true), (c) => c.charCodeAt(0)).concat(g.chance(0.5) ? [0xd800] : [])];
    case 3:
      return ["int", String(BigInt.asIntN(64, BigInt(Math.floor(g.next() * 2 ** 53)) * BigInt(g.int(3000) - 1500)))];
    case 4:
      return ["raw", g.chance(0.8) ? g.number() : g.pick(["01", "1.", "+1", "NaN", " 1"])];
    case 5:
      return ["bool", g.chance(0.5)];
    case 6:
      return ["null"];
    case 7:
      return ["obj"];
    default:
      return ["arr"];
  }
}

function newKey(g: Gen, existing: ref.RNode): string {
  const keys = existing.items.map(ref.decodeKey).filter((k) => !/[\ud800-\udfff]/.test(k));
  return keys.length > 0 && g.chance(0.6) ? g.pick(keys) : g.text(false);
}

/** one random step, applied to the reference; returns the step and its expected result text */
function randomStep(g: Gen, root: ref.RNode): [Step, string] {
  const targets = reachable(root, g);
  const { path: p } = g.pick(targets);
  const node = walk(root, p)!;
  const matchingReader: Record<string, string[]> = {
    string: ["string"],
    number: ["i64", "u64", "f64"],
    bool: ["bool"],
    null: ["string", "bool"],
  };
  const ops =
    node.kind === "object"
      ? ["set", "set", "set", "remove", "keys", "raw"]
      : node.kind === "array"
        ? ["push", "insert", "removeAt", "replace", "replace", "keys", "raw"]
        : g.chance(0.6)
          ? matchingReader[node.kind]
          : ["string", "i64", "u64", "f64", "bool", "raw", "set", "push"];
  const op = g.pick(ops);
  const bool = (b: boolean): string => (b ? "true" : "false");
  const index = (): number => g.int(node.items.length + 2) - (g.chance(0.1) ? 2 : 0);
  const read = ([state, value]: [number, string]): string => `[${state},${JSON.stringify(value)}]`;
  const withValue = (spec: ref.ValueSpec, apply: (v: ref.RNode) => boolean): string => {
    const v = ref.makeValue(spec);
    return bool(v !== null && apply(v));
  };
  switch (op) {
    case "set": {
      const k = newKey(g, node);
      const s = valueSpec(g);
      return [[op, p, k, s], withValue(s, (v) => ref.set(node, k, v))];
    }
    case "remove": {
      const k = newKey(g, node);
      return [[op, p, k], bool(ref.remove(node, k))];
    }
    case "push": {
      const s = valueSpec(g);
      return [[op, p, s], withValue(s, (v) => ref.push(node, v))];
    }
    case "insert": {
      const i = index();
      const s = valueSpec(g);
      return [[op, p, i, s], withValue(s, (v) => ref.insert(node, i, v))];
    }
    case "removeAt": {
      const i = index();
      return [[op, p, i], bool(ref.removeAt(node, i))];
    }
    case "replace": {
      const i = index();
      const s = valueSpec(g);
      return [[op, p, i, s], withValue(s, (v) => ref.replace(node, i, v))];
    }
    case "keys": {
      const keys = node.kind === "object" ? node.items.map(ref.decodeKey) : node.items.map(() => "");
      return [[op, p], `[${keys.map((k) => JSON.stringify(k)).join(",")}]`];
    }
    case "raw":
      return [[op, p], JSON.stringify(ref.serialize(node).toString("utf8"))];
    case "string":
      return [[op, p], read(ref.readString(node))];
    case "i64":
      return [[op, p], read(ref.readInt(node, false))];
    case "u64":
      return [[op, p], read(ref.readInt(node, true))];
    case "f64":
      return [[op, p], read(ref.readF64(node))];
    default:
      return [[op, p], read(ref.readBool(node))];
  }
}

function checkScript(doc: Buffer, g: Gen, steps: number): void {
  const root = ref.parseDoc(doc)!;
  const script: Step[] = [];
  const results: string[] = [];
  for (let i = 0; i < steps; i++) {
    const [step, result] = randomStep(g, root);
    script.push(step);
    results.push(result);
  }
  const expected = Buffer.concat([Buffer.from(`[${results.join(",")}]\n`), ref.serialize(root)]);
  const r = call("edit", framed(JSON.stringify(script), doc));
  assert.ok(r.ok, r.error);
  assert.ok(
    r.bytes.equals(expected),
    `mismatch\n doc: ${doc.toString()}\nscript: ${JSON.stringify(script)}\n want: ${expected.toString()}\n got: ${r.bytes.toString()}`,
  );
}

describe("json DOM: scripted edits match the reference byte for byte", () => {
  it("on generated documents", () => {
    const g = new Gen(11);
    for (let i = 0; i < 500; i++) checkScript(Buffer.from(g.document(1 + g.int(5)), "utf8"), g, 1 + g.int(6));
  });

  it("on deep documents (edits at every level)", () => {
    const g = new Gen(12);
    for (let i = 0; i < 20; i++) checkScript(Buffer.from(g.deep(200 + g.int(700)), "utf8"), g, 3);
  });

  it("on numbers and strings that need exact handling", () => {
    const doc = Buffer.from(
      `{"n":[${["1000.0", "18446744073709551615", "-0.0", "1e-7", "1E+2", "1e400", "-9223372036854775808", "0.10"].join(" , ")}],
      "s":["\\ud83d\\ude00", "\\ud800", "a\\u0000b", "\\/", "é😀"], "we\\u0069rd\\"key": 1, "weird\\"key": 2}`,
      "utf8",
    );
    const g = new Gen(13);
    for (let i = 0; i < 200; i++) checkScript(doc, g, 1 + g.int(4));
  });
});

// ---- equality ----

/** the same value spelled differently: members reordered, numbers and strings re-spelled */
function respell(n: ref.RNode, g: Gen): string {
  switch (n.kind) {
    case "number": {
      const norm = ref.normalizeNumber(n.text);
      if (norm === "0") return g.pick(["0", "-0", "0.0", "-0.0e5"]);
      return g.chance(0.5) ? n.text : norm.replace(/e(-?\d+)$/, (_, e: string) => `E${e}`);
    }
    case "string":
      return JSON.stringify(JSON.parse(n.text));
    case "array":
      return `[${n.items.map((c) => respell(c, g)).join(" , ")}]`;
    case "object": {
      const last = new Map(n.items.map((c) => [ref.decodeKey(c), c]));
      const members = [...last].map(([k, v]) => `${JSON.stringify(k)}:${respell(v, g)}`);
      members.sort(() => g.next() - 0.5);
      return `{${members.join(",")}}`;
    }
    default:
      return n.text;
  }
}

describe("json DOM: jsonEquals", () => {
  const equals = (a: string, b: string): boolean => {
    const r = call("equals", framed(a, b));
    assert.ok(r.ok, r.error);
    return r.bytes.toString() === "true";
  };

  it("matches the reference on generated pairs", () => {
    const g = new Gen(21);
    for (let i = 0; i < 300; i++) {
      const a = g.document(4);
      const ra = ref.parseDoc(Buffer.from(a))!;
      const b = g.chance(0.7) ? respell(ra, g) : g.document(4);
      const rb = ref.parseDoc(Buffer.from(b, "utf8"));
      assert.ok(rb, `respelled text is invalid: ${b}`);
      assert.equal(equals(a, b), ref.refEquals(ra, rb), `a: ${a}\nb: ${b}`);
    }
  });

  it("compares numbers exactly, not through f64", () => {
    const cases: Array<[string, string, boolean]> = [
      ["1.0", "1", true],
      ["1e0", "10e-1", true],
      ["-0.0", "0", true],
      ["18446744073709551615", "18446744073709551616", false],
      ["123456789012345678901234567890", "1.2345678901234567890123456789e29", true],
      ["0.1", "0.10000000000000001", false],
      ['{"a":1,"a":2}', '{"a":2}', true],
      ['{"n\\u0061me":"\\u00e9"}', '{"name":"é"}', true],
      ["[1,2]", "[2,1]", false],
    ];
    for (const [a, b, want] of cases) {
      assert.equal(
        ref.refEquals(ref.parseDoc(Buffer.from(a))!, ref.parseDoc(Buffer.from(b))!),
        want,
        `reference ${a} vs ${b}`,
      );
      assert.equal(equals(a, b), want, `${a} vs ${b}`);
    }
  });
});
