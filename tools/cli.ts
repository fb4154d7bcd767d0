// cachewarden CLI: `run` mirrors `kwctl run`; `build`, `inspect`, `examples`, `bench`, `fuzz`, `push`, `pull`,
// `publish`, `generate`, `scaffold`.
// Each command lives in its own module and registers itself here. Errors are one clear line on
// stderr and a non-zero exit, never a stack trace.
import { Command, CommanderError } from "commander";
import { registerBuild } from "./wasm/commands";
import { registerRun } from "./host/commands";
import { registerExamples } from "./examples";
import { registerBench } from "./bench/index";
import { registerFuzz } from "./fuzz/index";
import { registerPreview } from "./preview/commands";
import { registerOci } from "./oci/commands";
import { registerPublish } from "./publish/commands";

export class CliError extends Error {}

const program = new Command();
program
  .name("cachewarden")
  .description("Build, inspect and evaluate AssemblyScript Kubewarden policies without kwctl")
  .showHelpAfterError()
  .exitOverride();

registerBuild(program);
registerRun(program);
registerExamples(program);
registerBench(program);
registerFuzz(program);
registerPreview(program);
registerOci(program);
registerPublish(program);

program.parseAsync(process.argv).then(
  () => {
    if (process.exitCode === undefined) process.exitCode = 0;
  },
  (err: unknown) => {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`cachewarden: ${msg.split("\n")[0]}\n`);
    process.exitCode = 1;
  },
);
