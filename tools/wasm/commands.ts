// CLI wiring for the build tooling: `build`, `inspect`, `annotate` (mirrors `kwctl annotate`) and
// `check` (gates only). Failures are thrown as one-line Errors; cli.ts prints them and exits 1.
import * as path from "node:path";
import { Command } from "commander";
import { annotateFiles } from "./annotate";
import { checkModuleFile } from "./gates";
import { buildPolicies, BuildResult } from "./index";
import { formatInspectReport, inspectFile } from "./inspect";

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function buildSummary(results: BuildResult[]): string {
  const failed = results.filter((r) => !r.ok).length;
  const skipped = results.filter((r) => r.ok && r.skipped).length;
  const built = results.length - failed - skipped;
  return `${built} built, ${skipped} up to date, ${failed} failed`;
}

async function runBuild(policies: string[], opts: { force?: boolean; root?: string }): Promise<void> {
  const rootDir = opts.root ? path.resolve(opts.root) : undefined;
  const results = await buildPolicies({ policies, force: opts.force, log: print, rootDir });
  if (results.length === 0) {
    print("nothing to build: no policies/<name>/ with assembly/index.ts and metadata.yml");
    return;
  }
  print(buildSummary(results));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`build failed: ${failed.map((r) => r.error ?? r.name).join(" | ")}`);
}

function runCheck(files: string[], opts: { unannotated?: boolean }): void {
  let failures = 0;
  for (const file of files) {
    const problems = checkModuleFile(file, { metadata: opts.unannotated ? "absent" : "required" });
    if (problems.length === 0) print(`${file}: ok`);
    else {
      failures++;
      print(`${file}: FAILED ${problems.join("; ")}`);
    }
  }
  if (failures > 0) throw new Error(`${failures} of ${files.length} module(s) failed the gates`);
}

export function registerBuild(program: Command): void {
  program
    .command("build")
    .description("compile, gate and annotate policies/<name>/ (incremental; skips unchanged policies)")
    .argument("[policies...]", "policy folder names (default: every policy)")
    .option("--force", "rebuild even when up to date")
    .option("--root <dir>", "repository root holding policies/ and assembly/ (default: this checkout)")
    .action(runBuild);

  program
    .command("inspect")
    .description("show imports, exports with signatures, sections, start section and metadata of a module")
    .argument("<module>", "a .wasm file")
    .option("--json", "machine-readable output")
    .action((file: string, opts: { json?: boolean }) => {
      const report = inspectFile(file);
      print(opts.json ? JSON.stringify(report, null, 2) : formatInspectReport(report));
    });

  program
    .command("annotate")
    .description("append the io.kubewarden.metadata section (like kwctl annotate)")
    .argument("<wasm>", "the unannotated module")
    .requiredOption("-m, --metadata-path <file>", "metadata.yml")
    .option("-u, --usage-path <file>", "README.md, stored as io.kubewarden.policy.usage")
    .requiredOption("-o, --output-path <file>", "where to write the annotated module")
    .action((wasm: string, opts: { metadataPath: string; usagePath?: string; outputPath: string }) => {
      const r = annotateFiles({
        wasmPath: wasm,
        metadataPath: opts.metadataPath,
        usagePath: opts.usagePath,
        outPath: opts.outputPath,
      });
      print(`${opts.outputPath}: ${r.bytes.length} bytes (metadata ${Buffer.byteLength(r.json)} bytes)`);
    });

  program
    .command("check")
    .description("run the structural gates (imports, exports, start section, metadata, smoke calls)")
    .argument("<wasm...>", "modules to check")
    .option("--unannotated", "the modules are unannotated (policy.wasm): they must carry no metadata section")
    .action(runCheck);
}
