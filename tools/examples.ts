import { Command } from "commander";

/** Placeholder until this command is implemented. */
export function registerExamples(program: Command): void {
  void program;
}
