// The whole test suite, in CI order: build every policy (with its gates), type-check the Node
// tooling, lint and format-check the sources, run the as-pect unit specs, then start one real
// kube-apiserver and etcd (tools/test/kube.ts; built from tests/kube on first use) and run the
// node:test suites against it. Ends with one line CI reads: `<passed> passed, <failed> failed`. A run with no test at
// all is a failure.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { runAspect } from "./aspect";
import { KUBE_ENV, requestCounts, startKubeServer } from "./kube";

const root = path.resolve(__dirname, "..", "..");

function step(title: string): void {
  console.log(`\n=== ${title}`);
}

function run(cmd: string, args: string[]): { code: number; output: string } {
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  const output = (r.stdout ?? "") + (r.stderr ?? "");
  process.stdout.write(output);
  return { code: r.status ?? 1, output };
}

/** test files below `dir` ending in `.test.ts` (sorted, so runs are repeatable) */
export function findTestFiles(dir: string): string[] {
  const out: string[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules" && e.name !== "guests") out.push(...findTestFiles(p));
    else if (e.isFile() && e.name.endsWith(".test.ts")) out.push(p);
  }
  return out.sort();
}

export function parseNodeTestSummary(output: string): { pass: number; fail: number } | null {
  const pass = output.match(/^(?:ℹ|#) pass (\d+)/m);
  const fail = output.match(/^(?:ℹ|#) fail (\d+)/m);
  return pass && fail ? { pass: Number(pass[1]), fail: Number(fail[1]) } : null;
}

/** what `npm run fmt` formats (package.json's fmt script lists the same) */
const FORMATTED = ["assembly", "policies", "tools", "tests", "bin", "eslint.config.mjs", "stryker.config.mjs"];

async function main(): Promise<void> {
  let passed = 0;
  let failed = 0;
  const bin = path.join(root, "bin", "cachewarden.js");

  step("build every policy (compile, gates, annotate)");
  const build = run(process.execPath, [bin, "build"]);
  if (build.code !== 0) failed++;
  else passed++;

  step("type-check the Node tooling (tsc --noEmit)");
  const tsc = run(process.execPath, [
    path.join(root, "node_modules", "typescript", "bin", "tsc"),
    "-p",
    "tsconfig.json",
  ]);
  if (tsc.code !== 0) failed++;
  else passed++;

  step("lint (ESLint) and format check (Prettier)");
  const lint = run(process.execPath, [path.join(root, "node_modules", "eslint", "bin", "eslint.js"), "."]);
  if (lint.code !== 0) failed++;
  else passed++;
  const fmt = run(process.execPath, [
    path.join(root, "node_modules", "prettier", "bin", "prettier.cjs"),
    "--check",
    ...FORMATTED,
  ]);
  if (fmt.code !== 0) failed++;
  else passed++;

  step("as-pect unit specs");
  const asp = runAspect();
  passed += asp.passed;
  failed += asp.total - asp.passed;
  if (asp.exitCode !== 0 && asp.total === asp.passed) failed++;
  if (asp.total === 0) {
    console.log("as-pect ran no test");
    failed++;
  }

  const files = findTestFiles(path.join(root, "tests")).concat(
    ...fs
      .readdirSync(path.join(root, "policies"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => findTestFiles(path.join(root, "policies", d.name, "test"))),
  );
  if (files.length === 0) {
    console.log("no node:test files found");
    failed++;
  } else {
    // one kube-apiserver for every test file (tests/helpers/apiserver.ts reads CACHEWARDEN_KUBE)
    step("kube-apiserver and etcd (built from tests/kube, reused while unchanged)");
    const started = Date.now();
    const kube = await startKubeServer((s) => console.log(s)).catch((e: Error) => {
      // counted, and the suites still run: each test that needs the server then fails saying why
      console.log(`no kube-apiserver for the suites: ${e.message}`);
      failed++;
      return undefined;
    });
    if (kube) {
      console.log(`kube-apiserver ready at ${kube.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const info = path.join(kube.dir, "server.json");
      fs.writeFileSync(
        info,
        JSON.stringify({ kubeconfig: kube.kubeconfig, url: kube.url, dir: kube.dir, bin: kube.bin }),
      );
      process.env[KUBE_ENV] = info;
    }
    step("node:test suites");
    const nt = run(process.execPath, [
      "--import",
      "tsx",
      "--test",
      "--test-reporter=spec",
      ...files.map((f) => path.relative(root, f)),
    ]);
    const s = parseNodeTestSummary(nt.output);
    if (!s) {
      console.log("node:test printed no summary");
      failed++;
    } else {
      passed += s.pass;
      failed += s.fail;
      if (s.pass + s.fail === 0) {
        console.log("node:test ran no test");
        failed++;
      }
      if (nt.code !== 0 && s.fail === 0) failed++;
    }
    if (kube) {
      await requestCounts(kube).then(
        (n) => console.log(`kube-apiserver answered ${n.total} requests, ${n.dryRun} of them dry runs`),
        (e: Error) => console.log(`kube-apiserver request counts unavailable: ${e.message}`),
      );
      await kube.stop();
    }
  }

  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

if (require.main === module) void main();
