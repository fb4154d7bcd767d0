// `cachewarden bench [policies...]`: see run.ts for what is measured and report.ts for the output.
// Progress goes to stderr, the markdown table to stdout, both files to --out.
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { renderHostileMarkdown, runHostile } from "./hostile";
import { PAGE_BUDGET_FILE, readPageBudget, updatedPageBudget, writePageBudget } from "./page-budget";
import { renderMarkdown } from "./report";
import { runBench } from "./run";
import { renderPreviewMarkdown, runPreviewBench } from "./preview";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export function registerBench(program: Command): void {
  program
    .command("bench")
    .description(
      "benchmark every built policy (fresh, warm, plain-JS baseline), the minimal guest and the JSON DOM; check the targets",
    )
    .argument("[policies...]", "policy names (default: every built policy)")
    .option("--iterations <n>", "timed samples per measurement (default 200, --quick 30)", positiveInt)
    .option("--out <dir>", "where bench.md and bench.json are written", "bench-results")
    .option("--quick", "few iterations and only each policy's primary case (smoke run)")
    .option("--cases <names>", "comma-separated case names to measure (default: every validate case)")
    .option(
      "--module <name=wasm...>",
      "measure this module for a policy instead of its build output (metadata and cases from the policy)",
    )
    .option("--strict", "exit 1 when a target is missed")
    .option(
      "--hostile",
      "also run the hostile-input suite (tools/bench/hostile.ts): cost per shape over a no-logic guest",
    )
    .option("--hostile-only", "run only the hostile-input suite")
    .option(
      "--preview [objects]",
      "only time `cachewarden preview` on a generated dump (default 10000 objects; limit 60 s): preview.md, preview.json",
      positiveInt,
    )
    .option(
      "--record-pages",
      "record the pages each measured policy's primary case writes as the budget CI holds (tools/bench/page-budget.json; `npm run bench` does)",
    )
    .action(
      async (
        policies: string[],
        opts: {
          iterations?: number;
          out: string;
          quick?: boolean;
          cases?: string;
          strict?: boolean;
          module?: string[];
          hostile?: boolean;
          hostileOnly?: boolean;
          recordPages?: boolean;
          preview?: number | true;
        },
      ) => {
        const log = (line: string) => process.stderr.write(`${line}\n`);
        // the preview scale check runs alone, with its own section and files
        if (opts.preview !== undefined) {
          const previewBench = await runPreviewBench(opts.preview === true ? undefined : opts.preview, log);
          const section = `## cachewarden preview at scale\n\n${renderPreviewMarkdown(previewBench)}`;
          fs.mkdirSync(opts.out, { recursive: true });
          fs.writeFileSync(path.join(opts.out, "preview.md"), section);
          fs.writeFileSync(path.join(opts.out, "preview.json"), JSON.stringify(previewBench, null, 2) + "\n");
          process.stdout.write(section);
          if (opts.strict && !previewBench.pass) process.exitCode = 1;
          return;
        }
        if (opts.hostileOnly) {
          const hostile = runHostile({ policies, iterations: opts.iterations ?? (opts.quick ? 3 : 7), log });
          const markdown = `## Hostile inputs\n\n${renderHostileMarkdown(hostile)}`;
          fs.mkdirSync(opts.out, { recursive: true });
          fs.writeFileSync(path.join(opts.out, "hostile.md"), markdown);
          fs.writeFileSync(path.join(opts.out, "hostile.json"), JSON.stringify(hostile, null, 2) + "\n");
          process.stdout.write(markdown);
          return;
        }
        const report = runBench({
          policies,
          modules: Object.fromEntries(
            (opts.module ?? []).map((m) => {
              const eq = m.indexOf("=");
              if (eq <= 0) throw new Error(`--module expects <policy>=<wasm>, got ${m}`);
              return [m.slice(0, eq), m.slice(eq + 1)];
            }),
          ),
          iterations: opts.iterations,
          quick: opts.quick,
          cases: opts.cases
            ? opts.cases
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean)
            : undefined,
          log,
        });
        // the hostile suite is its own section (and file), so the main report's shape is unchanged
        const hostile = opts.hostile ? runHostile({ policies, iterations: opts.quick ? 3 : 7, log }) : null;
        const markdown =
          renderMarkdown(report) + (hostile ? `\n## Hostile inputs\n\n${renderHostileMarkdown(hostile)}` : "");
        fs.mkdirSync(opts.out, { recursive: true });
        fs.writeFileSync(path.join(opts.out, "bench.md"), markdown);
        fs.writeFileSync(path.join(opts.out, "bench.json"), JSON.stringify(report, null, 2) + "\n");
        if (hostile) fs.writeFileSync(path.join(opts.out, "hostile.json"), JSON.stringify(hostile, null, 2) + "\n");
        // the page budget CI holds is what this run measured on each policy's own build
        const overridden = new Set((opts.module ?? []).map((m) => m.slice(0, m.indexOf("="))));
        if (opts.recordPages)
          writePageBudget(updatedPageBudget(readPageBudget(), report, (name) => !overridden.has(name)));
        process.stdout.write(markdown);
        if (opts.recordPages)
          process.stderr.write(`bench: page budget recorded in ${path.relative(process.cwd(), PAGE_BUDGET_FILE)}\n`);
        process.stderr.write(
          `bench: wrote ${path.join(opts.out, "bench.md")} and ${path.join(opts.out, "bench.json")}\n`,
        );
        if (opts.strict && !report.pass) process.exitCode = 1;
      },
    );
}
