// Runs as-pect and closes with a line CI can read: `<P> passed, <F> failed`.
// as-pect itself prints `[Tests]: P / T` and passes with zero specs, so: no summary, a non-zero
// exit, or zero tests all fail this run (docs/wasm-contract.md#as-pect).
import { spawnSync } from "node:child_process";
import * as path from "node:path";

export interface AspectSummary {
  passed: number;
  total: number;
  exitCode: number;
  output: string;
}

// eslint-disable-next-line no-control-regex -- terminal color codes
const ANSI = /\x1b\[[0-9;]*m/g;

export function parseAspectSummary(output: string): { passed: number; total: number } | null {
  const m = output.replace(ANSI, "").match(/\[Tests\]:\s*(\d+)\s*\/\s*(\d+)/);
  return m ? { passed: Number(m[1]), total: Number(m[2]) } : null;
}

export function runAspect(extraArgs: string[] = [], quiet = false): AspectSummary {
  const root = path.resolve(__dirname, "..", "..");
  const asp = path.join(root, "node_modules", "@as-pect", "cli", "bin", "asp.js");
  const r = spawnSync(process.execPath, [asp, "--config", "as-pect.config.js", ...extraArgs], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = (r.stdout ?? "") + (r.stderr ?? "");
  if (!quiet) process.stdout.write(output);
  const s = parseAspectSummary(output);
  return { passed: s?.passed ?? 0, total: s?.total ?? 0, exitCode: r.status ?? 1, output };
}

if (require.main === module) {
  const s = runAspect(process.argv.slice(2));
  const failed = s.total - s.passed;
  const ok = s.exitCode === 0 && s.total > 0 && failed === 0;
  if (s.total === 0) console.log("as-pect ran no test (or printed no summary): failing the run");
  console.log(`${s.passed} passed, ${Math.max(failed, s.exitCode !== 0 && failed === 0 ? 1 : failed)} failed`);
  process.exit(ok ? 0 : 1);
}
