// ESLint for the whole repository: the Node tooling (tools/, tests/, bin/) and the AssemblyScript
// (assembly/, policies/*/assembly/, tests/guests/). `npm run lint`; CI runs it (tools/test/all.ts).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// AssemblyScript puts decorators on top-level functions, constants and declarations (`@inline`,
// `@lazy`, `@external(...)`, `@global`), which TypeScript's parser refuses. The processor blanks
// them out (same length, so every reported line and column stays right) before linting.
const DECORATOR =
  /^(\s*)(@(?:inline|lazy|global|unmanaged|final|external|operator(?:\.\w+)?|builtin)(?:\([^)]*\))?)(\s)/gm;
const assemblyscript = {
  meta: { name: "assemblyscript" },
  preprocess(text) {
    return [text.replace(DECORATOR, (_m, ws, deco, after) => ws + " ".repeat(deco.length) + after)];
  },
  postprocess(messages) {
    return messages.flat();
  },
  supportsAutofix: false,
};

const ASSEMBLYSCRIPT = ["assembly/**/*.ts", "policies/*/assembly/**/*.ts", "tests/guests/**/*.ts"];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "build/**",
      "bench-results/**",
      "reports/**",
      ".stryker-tmp*/**",
      "fuzz-failures/**",
      "**/*.wasm",
      "assembly/__tests__/as-pect.d.ts",
      "tests/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // a closure that reads a variable assigned right after it (a wasm instance's memory) is fine
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: { ...globals.node } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["tools/**/*.ts", "tests/**/*.ts", "policies/*/test/**/*.ts"],
    ignores: ASSEMBLYSCRIPT,
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ASSEMBLYSCRIPT,
    processor: assemblyscript,
    rules: {
      // the decorators above need `// @ts-ignore: decorator` for tsc-based editors
      "@typescript-eslint/ban-ts-comment": "off",
      // u64 / i64 literals are exact in AssemblyScript, not JavaScript numbers
      "no-loss-of-precision": "off",
      // `this` is taken into a local to walk a parent chain (no closures in AssemblyScript)
      "@typescript-eslint/no-this-alias": "off",
    },
  },
);
