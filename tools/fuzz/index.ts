// `cachewarden fuzz [policies...]`: bounded, seedable fuzzing of every built policy (run.ts).
// Exits 1 when any target fails; each failure prints the input (UTF-8 text, or base64 when it is
// not valid UTF-8) and where it was saved.
import * as crypto from "node:crypto";
import { Command, InvalidArgumentError } from "commander";
import { FuzzFailure, FuzzTargetReport, runFuzz } from "./run";

/** Inputs up to this size are printed whole; larger ones are cut (the saved .bin has all of it). */
const PRINT_LIMIT = 16 * 1024;

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("must be a non-negative integer");
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a positive number");
  return n;
}

/** The input as printable text: UTF-8 when it decodes, else base64. */
export function describeInput(input: Buffer): string {
  let text: string | null;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    text = null;
  }
  const encoding = text === null ? "base64" : "utf-8";
  const shown = text ?? input.toString("base64");
  const cut =
    shown.length > PRINT_LIMIT
      ? `${shown.slice(0, PRINT_LIMIT)}… (${shown.length - PRINT_LIMIT} more characters in the saved file)`
      : shown;
  return `input (${input.length} bytes, ${encoding}):\n${cut}`;
}

function printFailure(f: FuzzFailure): void {
  process.stdout.write(
    [
      `FAIL ${f.target}: ${f.kind} at iteration ${f.iteration} (${f.operation}; ${f.mutator}: ${f.detail})`,
      `  ${f.message}`,
      `  ${describeInput(f.input).replace(/\n/, "\n  ")}`,
      `  saved: ${f.files.join(", ")}`,
      `  reproduce: ${f.reproduce}`,
      "",
    ].join("\n"),
  );
}

function printTargetSummary(t: FuzzTargetReport): void {
  if (t.error) {
    process.stdout.write(`${t.name}: ERROR ${t.error}\n`);
    return;
  }
  const mutators = Object.entries(t.byMutator)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  const outcomes = Object.entries(t.outcomes)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  process.stdout.write(
    `${t.name}: ${t.failures.length > 0 ? `FAILED (${t.failures.length})` : "ok"} — ${t.inputs} inputs in ${t.seconds} s; type-swap sweep ${t.sweep.done}/${t.sweep.total}; ` +
      `idempotency re-evaluations ${t.idempotencyChecks}\n  outcomes: ${outcomes || "-"}\n  mutators: ${mutators || "-"}\n`,
  );
  if (t.slowest.length > 0) {
    process.stdout.write(
      `  slowest ${t.slowest.length}:\n${t.slowest
        .map(
          (x) =>
            `    ${x.ms.toFixed(1)} ms  iteration ${x.iteration}  ${(x.inputBytes / 1024).toFixed(0)} KiB  ${x.operation}; ${x.mutator}: ${oneLine(x.detail)}`,
        )
        .join("\n")}\n`,
    );
  }
}

export function registerFuzz(program: Command): void {
  program
    .command("fuzz")
    .description(
      "feed every built policy malformed and adversarial requests; fail on a trap, a bad response or a broken invariant",
    )
    .argument("[policies...]", "policy names (default: every built policy)")
    .option("--seconds <n>", "total time budget, split across the targets", positiveNumber, 20)
    .option("--seed <n>", "PRNG seed (default: random, printed)", nonNegativeInt)
    .option("--iteration <n>", "replay a single iteration of the given seed", nonNegativeInt)
    .option("--max-iterations <n>", "stop each target after this many inputs", nonNegativeInt)
    .option(
      "--timeout-ms <n>",
      "an evaluation slower than this fails (policy-server's default deadline)",
      positiveNumber,
      2000,
    )
    .option("--guest <wasm...>", "fuzz these modules instead of the policies")
    .option("--mutating", "with --guest: hold the modules to the mutating-policy invariants")
    .option("--cases-from <policy>", "with --guest: seed from this policy's test_data and use its metadata")
    .option("--keep-going", "continue after a failure and report each distinct failure (up to 10 per target)")
    .option("--out <dir>", "where failing inputs are saved", "fuzz-failures")
    .action(
      (
        policies: string[],
        opts: {
          seconds: number;
          seed?: number;
          iteration?: number;
          maxIterations?: number;
          timeoutMs: number;
          guest?: string[];
          mutating?: boolean;
          casesFrom?: string;
          keepGoing?: boolean;
          out: string;
        },
      ) => {
        const seed = opts.seed ?? crypto.randomInt(0, 2 ** 31);
        process.stdout.write(
          `fuzz: seed ${seed}${opts.iteration !== undefined ? `, iteration ${opts.iteration} only` : `, ${opts.seconds} s`}\n`,
        );
        const report = runFuzz({
          policies,
          seed,
          seconds: opts.seconds,
          iteration: opts.iteration,
          maxIterations: opts.maxIterations,
          timeoutMs: opts.timeoutMs,
          guests: opts.guest?.map((wasm) => ({ wasm, mutating: opts.mutating === true, casesFrom: opts.casesFrom })),
          outDir: opts.out,
          keepGoing: opts.keepGoing,
          log: (line) => process.stdout.write(`${line}\n`),
          onTargetDone: printTargetSummary,
        });
        for (const f of report.failures) printFailure(f);
        const errors = report.targets.filter((t) => t.error).length;
        if (report.targets.length === 0)
          process.stdout.write("fuzz: nothing to fuzz (no built policy; run `npm run build`)\n");
        process.stdout.write(
          `fuzz: ${report.failures.length} failure(s)${errors ? `, ${errors} target(s) could not be loaded` : ""} (seed ${seed})\n`,
        );
        if (report.failures.length > 0 || errors > 0 || report.targets.length === 0) process.exitCode = 1;
      },
    );
}

/** `text` on one line: control characters and the Unicode line and paragraph separators a mutated
 *  key or value can carry are written as `\uXXXX`, so each slow input stays one line of the report. */
export function oneLine(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out += c < 0x20 || c === 0x7f || c === 0x2028 || c === 0x2029 ? `\\u${c.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}
