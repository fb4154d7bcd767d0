import { Command } from "commander";

/** Placeholder until this command is implemented. */
export function registerRun(program: Command): void {
  void program;
}
