// `cachewarden examples`: build every policy, then evaluate every `test_data/cases.yml` case and
// print a readable table per policy (case, description, decision, PASS/FAIL). Non-zero exit on any
// failure, including a policy that fails to build.
import * as path from "node:path";
import { Command } from "commander";
import { buildPolicies } from "./wasm/index";
import { CaseResult, policiesWithCases, runPolicyCases } from "./host/cases";

const ROOT = path.resolve(__dirname, "..");

export interface ExamplesFlags {
  build: boolean;
  force?: boolean;
  verbose?: boolean;
}

function fit(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > width ? oneLine.slice(0, width - 1) + "…" : oneLine.padEnd(width);
}

/** One table row; failures follow on indented lines so the reason is visible without flags. */
function formatRow(r: CaseResult, widths: { name: number; description: number }, verbose: boolean): string[] {
  const decision = r.summary ? `${r.decision}: ${r.summary}` : r.decision;
  const lines = [
    `  ${r.ok ? "PASS" : "FAIL"}  ${fit(r.name, widths.name)}  ${fit(r.description, widths.description)}  ${verbose ? decision : fit(decision, 70).trimEnd()}`,
  ];
  for (const f of r.failures) lines.push(`        ✗ ${f}`);
  if (verbose) for (const n of r.notes) lines.push(`        note: ${n}`);
  return lines;
}

function printPolicy(policy: string, results: CaseResult[], verbose: boolean, out: (line: string) => void): void {
  const passed = results.filter((r) => r.ok).length;
  out(`\n${policy} — ${passed}/${results.length} passed`);
  const widths = {
    name: Math.min(40, Math.max(4, ...results.map((r) => r.name.length))),
    description: Math.min(50, Math.max(11, ...results.map((r) => r.description.length))),
  };
  out(`  ${"    "}  ${"case".padEnd(widths.name)}  ${"description".padEnd(widths.description)}  decision`);
  for (const r of results) formatRow(r, widths, verbose).forEach(out);
}

export interface ExamplesContext {
  /** where policy folders live; default `<repo>/policies` */
  policiesDir?: string;
  /** receives every output line; default stdout */
  out?: (line: string) => void;
}

export async function runExamples(
  names: string[],
  flags: ExamplesFlags,
  ctx: ExamplesContext = {},
): Promise<{ passed: number; failed: number }> {
  const policiesDir = ctx.policiesDir ?? path.join(ROOT, "policies");
  const out =
    ctx.out ??
    ((l: string) => {
      process.stdout.write(l + "\n");
    });
  const wanted =
    names.length > 0 ? names.map((n) => path.basename(n.replace(/\/+$/, ""))) : policiesWithCases(policiesDir);
  let passed = 0;
  let failed = 0;
  const buildErrors = new Map<string, string>();
  if (flags.build) {
    out("building policies…");
    const built = await buildPolicies({
      policies: wanted,
      force: flags.force,
      policiesDir,
      log: (line) => out(`  ${line}`),
    });
    for (const b of built) if (!b.ok) buildErrors.set(b.name, b.error ?? "build failed");
  }
  for (const policy of wanted) {
    if (buildErrors.has(policy)) {
      out(`\n${policy} — FAIL build: ${buildErrors.get(policy)}`);
      failed++;
      continue;
    }
    const run = runPolicyCases(path.join(policiesDir, policy));
    if (run.error) {
      out(`\n${policy} — FAIL ${run.error}`);
      failed++;
      continue;
    }
    printPolicy(policy, run.results, flags.verbose ?? false, out);
    passed += run.results.filter((r) => r.ok).length;
    failed += run.results.filter((r) => !r.ok).length;
  }
  out(`\n${passed} passed, ${failed} failed`);
  return { passed, failed };
}

export function registerExamples(program: Command): void {
  program
    .command("examples")
    .description("Build the policies and evaluate every test_data/cases.yml case, policy by policy")
    .argument("[policies...]", "policy names (default: every policy with a cases.yml)")
    .option("--no-build", "use the existing annotated modules instead of building first")
    .option("--force", "rebuild even when a policy is up to date")
    .option("-v, --verbose", "full decision text and host notes (e.g. unused replay exchanges)")
    .action(async (names: string[], flags: ExamplesFlags) => {
      const { failed } = await runExamples(names, flags);
      if (failed > 0) throw new Error(`${failed} example(s) failed`);
    });
}
