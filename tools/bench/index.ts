import { Command } from "commander";

/** Placeholder until this command is implemented. */
export function registerBench(program: Command): void {
  void program;
}
