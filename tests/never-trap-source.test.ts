// The never-trap rule (docs/wasm-contract.md#traps): policy code never asserts non-null with `!`.
// An assertion that fails aborts the guest, and policy-server rejects the request; each one also
// links its abort message and file name into the module's static data. Tests under __tests__ may.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..");

function policySources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "__tests__" && e.name !== "node_modules") out.push(...policySources(p));
    else if (e.isFile() && e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** `x!.`, `f()!`, `a[i]!` … — a `!` right after an operand that is not the start of `!=` */
const NON_NULL_ASSERTION = /[\w)\]]!(?!=)/;

/** the code of a line: comments and string literals blanked (a `!` in a message is not code) */
function codeOf(line: string): string {
  const t = line.trim();
  if (t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")) return "";
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""').replace(/\/\/.*$/, "");
}

test("policy code has no non-null assertion (`!`)", () => {
  const dirs = [path.join(ROOT, "assembly")];
  for (const p of fs.readdirSync(path.join(ROOT, "policies"))) {
    const dir = path.join(ROOT, "policies", p, "assembly");
    if (fs.existsSync(dir)) dirs.push(dir);
  }
  const files = dirs.flatMap(policySources);
  assert.ok(files.length > 20, `only ${files.length} sources found`);
  const found: string[] = [];
  for (const f of files) {
    fs.readFileSync(f, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (NON_NULL_ASSERTION.test(codeOf(line))) found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});
