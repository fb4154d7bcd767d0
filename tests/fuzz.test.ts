// The fuzzer (tools/fuzz): same seed -> same inputs; it CAN fail (a deliberately broken guest that
// traps on deep nesting is caught, and the failing input is printed and saved); and every built
// policy survives a short run with a fixed seed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { compileTestGuest, ROOT } from "../tools/bench/guests";
import { discoverPolicies } from "../tools/bench/policies";
import { oneLine } from "../tools/fuzz/index";
import { vllmPodPayload } from "../tools/bench/fixtures";
import { PolicyModule } from "../tools/host/guest";
import { makeSeed, mutate } from "../tools/fuzz/mutators";
import { Rng } from "../tools/fuzz/rng";
import { keepSlowest, SlowInput } from "../tools/fuzz/run";

const CLI = path.join(ROOT, "bin", "cachewarden.js");
// Generous per-evaluation limit: CI machines run this next to other suites; the default (2000 ms,
// policy-server's deadline) is for `npm run fuzz`.
const TEST_TIMEOUT_MS = "8000";

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-fuzz-test-"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[]): { code: number; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status ?? 1, out: (r.stdout ?? "") + (r.stderr ?? "") };
}

describe("fuzz inputs", () => {
  test("the same seed generates the same inputs; another seed different ones", () => {
    const seed = makeSeed("pod", vllmPodPayload());
    const run = (s: number) => Array.from({ length: 60 }, (_, i) => mutate(new Rng(s * 1000 + i), seed, [seed]));
    const a = run(42);
    const b = run(42);
    const c = run(43);
    assert.deepEqual(
      a.map((m) => m.payload.toString("base64")),
      b.map((m) => m.payload.toString("base64")),
    );
    assert.deepEqual(
      a.map((m) => m.detail),
      b.map((m) => m.detail),
    );
    assert.notDeepEqual(
      a.map((m) => m.payload.toString("base64")),
      c.map((m) => m.payload.toString("base64")),
    );
    // the generators actually produce malformed input, not only re-serialized seeds
    assert.ok(
      a.some((m) => {
        try {
          JSON.parse(m.payload.toString("utf8"));
          return false;
        } catch {
          return true;
        }
      }),
      "no invalid JSON among 60 inputs",
    );
  });
});

describe("fuzz a deliberately broken guest", () => {
  test("reports the trap, prints and saves the failing input, exits non-zero", () => {
    const wasm = compileTestGuest("fuzz-broken");
    const out = path.join(tmp, "broken");
    const r = cli([
      "fuzz",
      "--guest",
      wasm,
      "--seconds",
      "60",
      "--seed",
      "7",
      "--timeout-ms",
      TEST_TIMEOUT_MS,
      "--out",
      out,
    ]);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /^fuzz: seed 7/m);
    assert.match(r.out, /FAIL .*: trap at iteration \d+/);
    assert.match(r.out, /Index out of range/);
    const printed = r.out.match(/input \((\d+) bytes, (utf-8|base64)\):\n {2}(.*)/);
    assert.ok(printed, `no input printed:\n${r.out}`);
    const saved = fs.readdirSync(out).filter((f) => f.endsWith(".bin"));
    assert.equal(saved.length, 1, `saved files: ${fs.readdirSync(out).join(", ")}`);
    const input = fs.readFileSync(path.join(out, saved[0]));
    assert.equal(input.length, Number(printed[1]));
    const shown = printed[2] === "utf-8" ? input.toString("utf8") : input.toString("base64");
    assert.ok(
      shown.startsWith(printed[3].replace(/… \(\d+ more characters in the saved file\)$/, "")),
      "printed input differs from the saved one",
    );
    // the saved input really traps the guest
    const replay = PolicyModule.fromFile(wasm).call("validate", input);
    assert.equal(replay.trapped, true);
    // and --iteration replays exactly that input
    const iteration = r.out.match(/trap at iteration (\d+)/)![1];
    const again = cli([
      "fuzz",
      "--guest",
      wasm,
      "--seed",
      "7",
      "--iteration",
      iteration,
      "--timeout-ms",
      TEST_TIMEOUT_MS,
      "--out",
      path.join(tmp, "again"),
    ]);
    assert.equal(again.code, 1, again.out);
    const replayed = fs.readdirSync(path.join(tmp, "again")).filter((f) => f.endsWith(".bin"));
    assert.deepEqual(fs.readFileSync(path.join(tmp, "again", replayed[0])), input);
  });
});

describe("fuzz every built policy", () => {
  const { targets } = discoverPolicies();
  test(
    "a few seconds with a fixed seed: no trap, no bad response, no broken invariant",
    { skip: targets.length === 0 ? "no built policy" : false },
    () => {
      const r = cli([
        "fuzz",
        ...targets.map((t) => t.name),
        "--seconds",
        String(4 * targets.length),
        "--seed",
        "20251202",
        "--timeout-ms",
        TEST_TIMEOUT_MS,
        "--out",
        path.join(tmp, "policies"),
      ]);
      for (const t of targets) assert.match(r.out, new RegExp(`^${t.name}: (ok|FAILED)`, "m"), r.out);
      assert.match(r.out, /fuzz: 0 failure\(s\)/, r.out);
      assert.equal(r.code, 0, r.out);
      // each target lists its 10 slowest inputs, slowest first, with iteration and mutator
      for (const t of targets) {
        const block = r.out.slice(r.out.indexOf(`${t.name}: ok`));
        const m = block.match(/ {2}slowest (\d+):\n((?: {4}.*\n)+)/);
        assert.ok(m, block.slice(0, 2000));
        assert.equal(Number(m[1]), 10);
        const lines = m[2].trimEnd().split("\n");
        assert.equal(lines.length, 10);
        const ms = lines.map((l) =>
          Number(/^ {4}([\d.]+) ms {2}iteration \d+ {2}\d+ KiB {2}validate(?:_settings)?; \S+: /.exec(l)?.[1]),
        );
        assert.ok(
          ms.every((x) => Number.isFinite(x)),
          m[2],
        );
        assert.deepEqual(
          [...ms].sort((a, b) => b - a),
          ms,
        );
      }
    },
  );
});

describe("the slowest inputs of a run", () => {
  test("a detail with line breaks or control characters is printed on one line", () => {
    // a mutated key holding U+2028 once split a report line, so the list looked one input short
    assert.equal(oneLine("a\nb\u2028c\rd\u0001e\u007f"), "a\\u000ab\\u2028c\\u000dd\\u0001e\\u007f");
    assert.equal(oneLine("plain text: é, 🙂"), "plain text: é, 🙂");
  });
  const entry = (iteration: number, ms: number): SlowInput => ({
    iteration,
    ms,
    operation: "validate",
    mutator: "m",
    detail: "",
    inputBytes: 1,
  });
  test("keeps 10, slowest first; an 11th slower one replaces the fastest, a faster one is dropped", () => {
    const list: SlowInput[] = [];
    for (let i = 0; i < 10; i++) keepSlowest(list, entry(i, i + 1));
    assert.deepEqual(
      list.map((e) => e.ms),
      [10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    );
    keepSlowest(list, entry(10, 0.5));
    assert.equal(list.length, 10);
    assert.equal(list[9].ms, 1);
    keepSlowest(list, entry(11, 5.5));
    assert.deepEqual(
      list.map((e) => e.ms),
      [10, 9, 8, 7, 6, 5.5, 5, 4, 3, 2],
    );
    assert.equal(list[5].iteration, 11);
  });
});
