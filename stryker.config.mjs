// Mutation testing of the TypeScript tools (docs/contributing.md, "Mutation testing"). Not part of
// CI: `npm run mutate` (tools/host/, break below 85 %) or `npm run mutate:tools` (all of tools/).
// Each node:test file runs as its own process through the TAP runner; per-test coverage means a
// mutant only re-runs the files that reach it. The guests the tests need are compiled once and
// cached (tests/helpers/host-guests.ts, the built policies/*/annotated-policy.wasm), so no mutant
// rebuilds wasm; run `cachewarden build` first so the policy tests do not skip.
// the small unit suites first: with forceBail a mutant they kill never starts the longer files
const hostTests = [
  "tests/host-cluster.test.ts",
  "tests/host-inputs.test.ts",
  "tests/host-replay.test.ts",
  "tests/host-cases.test.ts",
  "tests/host-serde.test.ts",
  "tests/host-evaluate.test.ts",
  "tests/host-pool.test.ts",
  "tests/host-capabilities.test.ts",
  "tests/serde-writer.test.ts",
  "tests/host.test.ts",
  "tests/run-command.test.ts",
  "tests/run-help.test.ts",
  "tests/cli-run.test.ts",
  "tests/host-examples.test.ts",
  "tests/policies.test.ts",
  "tests/warm-instance.test.ts",
  "tests/injector-grants.test.ts",
  "tests/engine-agreement.test.ts",
  "tests/build-annotate.test.ts",
  "tests/build-gates.test.ts",
];
const all = process.env.MUTATE_SCOPE === "tools";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "tap",
  tap: {
    // build.test.ts and the JSON DOM suites compile with asc on every run: too slow per mutant
    testFiles: all
      ? [
          ...hostTests,
          "tests/build-segments.test.ts",
          "tests/texts.test.ts",
          "tests/fuzz.test.ts",
          "tests/bench.test.ts",
          "tests/readme-manifests.test.ts",
        ]
      : hostTests,
    nodeArgs: ["--import", "tsx", "--test-reporter=tap", "-r", "{{hookFile}}", "{{testFile}}"],
    forceBail: true,
  },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: all ? ["tools/**/*.ts", "!tools/test/**"] : ["tools/host/**/*.ts"],
  coverageAnalysis: "perTest",
  ignoreStatic: true,
  // Stryker gives half the slots to type-check processes: two checkers and two test runners
  concurrency: 4,
  // later runs re-test only the mutants whose code or covering tests changed
  incremental: true,
  incrementalFile: all ? "reports/mutation/tools-incremental.json" : "reports/mutation/host-incremental.json",
  timeoutMS: 20000,
  reporters: ["progress", "clear-text", "html", "json"],
  htmlReporter: { fileName: all ? "reports/mutation/tools.html" : "reports/mutation/host.html" },
  jsonReporter: { fileName: all ? "reports/mutation/tools.json" : "reports/mutation/host.json" },
  thresholds: { high: 90, low: 85, break: all ? null : 85 },
  tempDirName: ".stryker-tmp",
  ignorePatterns: ["/reports", "/bench-results", "/fuzz-failures", "/build"],
  cleanTempDir: "always",
  disableTypeChecks: "tools/**/*.ts",
};
