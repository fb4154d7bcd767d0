import { Command } from "commander";

/** Placeholder until this command is implemented. */
export function registerFuzz(program: Command): void {
  void program;
}
