// `buildPolicies` and the build CLI on a temporary copy of tests/fixtures/build-policy/ (plus the
// repository's shared assembly/), so the real policies/ is never touched. asc compiles take seconds,
// so the tests run in order and reuse the first build.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { gateProblems } from "../tools/wasm/gates";
import { buildPolicies, BuildResult, policyInputsHash, summarizeAscOutput } from "../tools/wasm/index";
import { METADATA_SECTION } from "../tools/wasm/wasm";

const REPO = path.resolve(__dirname, "..");
const FIXTURE = path.join(REPO, "tests", "fixtures", "build-policy");
const DEMO = "demo-policy";
const BROKEN = "env-import-policy";

let root: string;
const demoFile = (f: string): string => path.join(root, "policies", DEMO, f);
const brokenFile = (f: string): string => path.join(root, "policies", BROKEN, f);

function build(
  opts: { policies?: string[]; force?: boolean } = {},
): Promise<{ results: BuildResult[]; lines: string[] }> {
  const lines: string[] = [];
  return buildPolicies({ ...opts, rootDir: root, log: (l) => lines.push(l) }).then((results) => ({ results, lines }));
}

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(REPO, "bin", "cachewarden.js"), ...args], {
    cwd: REPO,
    encoding: "utf8",
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function usageOf(wasmFile: string): string | undefined {
  const [section] = WebAssembly.Module.customSections(
    new WebAssembly.Module(fs.readFileSync(wasmFile)),
    METADATA_SECTION,
  );
  return (JSON.parse(Buffer.from(section).toString("utf8")) as { annotations?: Record<string, string> }).annotations?.[
    "io.kubewarden.policy.usage"
  ];
}

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-build-test-"));
  fs.cpSync(path.join(FIXTURE, "policies"), path.join(root, "policies"), { recursive: true });
  fs.cpSync(path.join(REPO, "assembly"), path.join(root, "assembly"), { recursive: true });
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

describe("buildPolicies", () => {
  test("builds every policy; the failing one names the policy and the reason and leaves no outputs", async () => {
    // Stale outputs from an earlier build must not survive a failed one.
    for (const f of ["policy.wasm", "annotated-policy.wasm", ".build-stamp.json"])
      fs.writeFileSync(brokenFile(f), "stale");
    const { results, lines } = await build();
    assert.deepEqual(
      results.map((r) => r.name),
      [DEMO, BROKEN],
    );
    const [demo, broken] = results;
    assert.equal(demo.ok, true, demo.error);
    assert.equal(demo.skipped, undefined);
    assert.deepEqual(demo.sizes, {
      policy: fs.statSync(demoFile("policy.wasm")).size,
      annotated: fs.statSync(demoFile("annotated-policy.wasm")).size,
    });
    assert.equal(broken.ok, false);
    assert.equal(
      broken.error,
      `${BROKEN}: policy.wasm: imports env.console.log from module "env" (only wapc.* imports are allowed)`,
    );
    for (const f of ["policy.wasm", "annotated-policy.wasm", ".build-stamp.json"])
      assert.equal(fs.existsSync(brokenFile(f)), false, f);
    assert.ok(
      lines.some((l) => /^demo-policy: ok \(policy\.wasm \d+ B, annotated-policy\.wasm \d+ B, [\d.]+ s\)$/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.includes(
        `${BROKEN}: FAILED policy.wasm: imports env.console.log from module "env" (only wapc.* imports are allowed)`,
      ),
      lines.join("\n"),
    );
    // artifacthub gaps are warnings: logged, never a failure
    assert.ok(
      lines.includes(
        `  ${BROKEN} | warning: policies/${BROKEN}/metadata.yml: annotations.io.artifacthub.displayName is missing (artifacthub displayName)`,
      ),
      lines.join("\n"),
    );
    assert.equal(lines.filter((l) => l.includes(`${DEMO} | warning`)).length, 0, lines.join("\n"));
  });

  test("the outputs pass the gates; the annotated module carries the README as usage", () => {
    assert.deepEqual(gateProblems(fs.readFileSync(demoFile("policy.wasm")), "policy.wasm", { metadata: "absent" }), []);
    assert.deepEqual(
      gateProblems(fs.readFileSync(demoFile("annotated-policy.wasm")), "annotated-policy.wasm", {
        metadata: "required",
      }),
      [],
    );
    assert.equal(usageOf(demoFile("annotated-policy.wasm")), fs.readFileSync(demoFile("README.md"), "utf8"));
    const policy = fs.readFileSync(demoFile("policy.wasm"));
    assert.ok(
      fs.readFileSync(demoFile("annotated-policy.wasm")).subarray(0, policy.length).equals(policy),
      "annotation only appends",
    );
  });

  test("a second run skips the unchanged policy", async () => {
    const before = fs.statSync(demoFile("annotated-policy.wasm")).mtimeMs;
    const { results, lines } = await build({ policies: [DEMO] });
    assert.deepEqual(
      results.map((r) => ({ name: r.name, ok: r.ok, skipped: r.skipped })),
      [{ name: DEMO, ok: true, skipped: true }],
    );
    assert.ok(results[0].sizes && results[0].sizes.policy > 0);
    assert.match(lines[0], /^demo-policy: up to date \(policy\.wasm \d+ B, annotated-policy\.wasm \d+ B\)$/);
    assert.equal(fs.statSync(demoFile("annotated-policy.wasm")).mtimeMs, before);
  });

  test("touching an input (README.md) rebuilds, then the next run skips again", async () => {
    fs.appendFileSync(demoFile("README.md"), "\nOne more line.\n");
    const first = await build({ policies: [DEMO] });
    assert.equal(first.results[0].ok, true, first.results[0].error);
    assert.equal(first.results[0].skipped, undefined);
    assert.match(usageOf(demoFile("annotated-policy.wasm")) ?? "", /One more line\.\n$/);
    const second = await build({ policies: [DEMO] });
    assert.equal(second.results[0].skipped, true);
  });

  test("an altered output is rebuilt, to identical bytes (the build is deterministic)", async () => {
    const original = fs.readFileSync(demoFile("annotated-policy.wasm"));
    fs.writeFileSync(demoFile("annotated-policy.wasm"), Buffer.concat([original, Buffer.from([0])]));
    const { results } = await build({ policies: [DEMO] });
    assert.equal(results[0].skipped, undefined);
    assert.ok(fs.readFileSync(demoFile("annotated-policy.wasm")).equals(original));
  });

  test("the stamp covers every input, and nothing else", () => {
    const hash = (): string => policyInputsHash({ rootDir: root }, DEMO);
    const h0 = hash();
    const touch = (file: string, text: string): string => {
      const old = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, (old ?? "") + text);
      const h = hash();
      if (old === null) fs.rmSync(file);
      else fs.writeFileSync(file, old);
      return h;
    };
    assert.notEqual(touch(path.join(root, "assembly", "wapc", "index.ts"), "\n// edit\n"), h0, "shared assembly/");
    assert.notEqual(
      touch(path.join(root, "assembly", "new-module.ts"), "export const x = 1;\n"),
      h0,
      "a new shared file",
    );
    assert.notEqual(touch(demoFile("assembly/index.ts"), "\n"), h0, "the policy's sources");
    assert.notEqual(touch(demoFile("metadata.yml"), "\n"), h0, "metadata.yml");
    assert.notEqual(touch(demoFile("README.md"), "\n"), h0, "README.md");
    assert.equal(touch(demoFile("assembly/__tests__/x.spec.ts"), "\n"), h0, "unit specs are not inputs");
    assert.equal(touch(demoFile("notes.txt"), "\n"), h0, "unrelated files are not inputs");
    assert.equal(hash(), h0);
  });
});

describe("build CLI", () => {
  test("build --force rebuilds an up-to-date policy; exit 0", () => {
    const r = cli("build", "--force", "--root", root, DEMO);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^demo-policy: ok \(/m);
    assert.match(r.stdout, /^1 built, 0 up to date, 0 failed$/m);
  });

  test("annotate produces the same bytes as the build; check and inspect agree", () => {
    const out = path.join(root, "cli-annotated.wasm");
    const a = cli(
      "annotate",
      demoFile("policy.wasm"),
      "-m",
      demoFile("metadata.yml"),
      "-u",
      demoFile("README.md"),
      "-o",
      out,
    );
    assert.equal(a.code, 0, a.stderr);
    assert.ok(fs.readFileSync(out).equals(fs.readFileSync(demoFile("annotated-policy.wasm"))));
    const c = cli("check", out);
    assert.equal(c.code, 0, c.stderr);
    assert.equal(c.stdout, `${out}: ok\n`);
    const i = cli("inspect", "--json", out);
    assert.equal(i.code, 0, i.stderr);
    const report = JSON.parse(i.stdout) as {
      startSection: boolean;
      exports: { name: string; signature?: string }[];
      metadataSections: number;
      metadata: { protocolVersion: string };
    };
    assert.equal(report.startSection, false);
    assert.equal(report.exports.find((e) => e.name === "__guest_call")?.signature, "(i32, i32) -> i32");
    assert.equal(report.metadataSections, 1);
    assert.equal(report.metadata.protocolVersion, "v1");
  });

  test("check fails with one line per module and a one-line error", () => {
    const r = cli("check", demoFile("policy.wasm"));
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      `${demoFile("policy.wasm")}: FAILED carries 0 ${METADATA_SECTION} sections, expected exactly 1\n`,
    );
    assert.equal(r.stderr, "cachewarden: 1 of 1 module(s) failed the gates\n");
  });

  test("a policy that breaks after a good build loses its outputs; the CLI error is one line", async () => {
    const meta = fs.readFileSync(demoFile("metadata.yml"), "utf8");
    fs.writeFileSync(demoFile("metadata.yml"), meta.replace('operations: ["CREATE"]', 'operations: ["*", "CREATE"]'));
    try {
      const expected = `${DEMO}: policies/${DEMO}/metadata.yml: rules[0].operations: '*' must be alone (found "*", "CREATE")`;
      const { results } = await build({ policies: [DEMO] });
      assert.equal(results[0].error, expected);
      for (const f of ["policy.wasm", "annotated-policy.wasm", ".build-stamp.json"])
        assert.equal(fs.existsSync(demoFile(f)), false, f);
      const r = cli("build", "--root", root, DEMO);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `cachewarden: build failed: ${expected}\n`);
    } finally {
      fs.writeFileSync(demoFile("metadata.yml"), meta);
    }
  });

  test("a compile error names the policy and asc's first diagnostic; the full output is logged", async () => {
    const dir = path.join(root, "policies", "compile-error");
    fs.mkdirSync(path.join(dir, "assembly"), { recursive: true });
    fs.copyFileSync(demoFile("metadata.yml"), path.join(dir, "metadata.yml"));
    fs.copyFileSync(demoFile("README.md"), path.join(dir, "README.md"));
    fs.writeFileSync(
      path.join(dir, "assembly", "index.ts"),
      'import { respondString } from "../../../assembly/wapc/index";\nexport function __guest_call(a: i32, b: i32): i32 {\n  return undefinedName;\n}\n',
    );
    try {
      const { results, lines } = await build({ policies: ["policies/compile-error/"] });
      assert.equal(results[0].name, "compile-error");
      assert.match(
        results[0].error ?? "",
        /^compile-error: asc failed: ERROR TS2304: Cannot find name 'undefinedName'\. \(at policies\/compile-error\/assembly\/index\.ts\(3,10\)\)$/,
      );
      assert.ok(
        lines.some((l) => l.startsWith("  compile-error | ") && l.includes("undefinedName")),
        lines.join("\n"),
      );
      assert.equal(fs.existsSync(path.join(dir, "policy.wasm")), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a policy importing a wapc function outside the nine fails the policy.wasm gate, naming the import, via the CLI", () => {
    const dir = path.join(root, "policies", "wapc-bogus");
    fs.mkdirSync(path.join(dir, "assembly"), { recursive: true });
    fs.copyFileSync(demoFile("metadata.yml"), path.join(dir, "metadata.yml"));
    fs.copyFileSync(demoFile("README.md"), path.join(dir, "README.md"));
    fs.writeFileSync(
      path.join(dir, "assembly", "index.ts"),
      [
        "// @ts-nocheck",
        'import { respondString } from "../../../assembly/wapc/index";',
        '@external("wapc", "__bogus") declare function bogus(): void;',
        "export function __guest_call(a: i32, b: i32): i32 {",
        "  bogus();",
        '  respondString("\\"v1\\"");',
        "  return 1;",
        "}",
        "",
      ].join("\n"),
    );
    try {
      const r = cli("build", "--root", root, "wapc-bogus");
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        "cachewarden: build failed: wapc-bogus: policy.wasm: imports function wapc.__bogus, which is not one of the waPC host functions\n",
      );
      assert.equal(fs.existsSync(path.join(dir, "policy.wasm")), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("asc summaries: location only from the diagnostic's own frame; hint for a missing abort handler", () => {
    const output =
      "ERROR AS111: Element 'assembly/wapc/index/wapcAbort' not found.\n\nERROR TS2304: Cannot find name 'x'.\n   :\n 2 │ return x;\n   └─ in policies/y/assembly/index.ts(2,10)\n\nFAILURE 2 compile error(s)\n";
    assert.equal(
      summarizeAscOutput(output),
      "ERROR AS111: Element 'assembly/wapc/index/wapcAbort' not found. (the policy entry must import assembly/wapc/index so the abort handler exists)",
    );
    assert.equal(
      summarizeAscOutput(output.split("\n\n").slice(1).join("\n\n")),
      "ERROR TS2304: Cannot find name 'x'. (at policies/y/assembly/index.ts(2,10))",
    );
  });

  test("asc summaries ignore terminal colors (asc colors its output when CI=true)", () => {
    const colored =
      "\x1b[91mERROR TS2304: \x1b[0mCannot find name 'x'.\n   :\n 2 │ return x;\n   └─ in policies/y/assembly/index.ts(2,10)\n\n\x1b[91mFAILURE \x1b[0m1 compile error(s)\n";
    assert.equal(
      summarizeAscOutput(colored),
      "ERROR TS2304: Cannot find name 'x'. (at policies/y/assembly/index.ts(2,10))",
    );
  });

  test("an unknown policy name is an error naming it", async () => {
    const { results } = await build({ policies: ["no-such-policy"] });
    assert.deepEqual(results, [
      {
        name: "no-such-policy",
        ok: false,
        error: "no-such-policy: no such policy (expected policies/no-such-policy/assembly/index.ts and metadata.yml)",
      },
    ]);
  });

  test("zero policies: buildPolicies returns [] and the CLI says there is nothing to build", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-empty-"));
    try {
      assert.deepEqual(await buildPolicies({ rootDir: empty }), []);
      const r = cli("build", "--root", empty);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^nothing to build/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
