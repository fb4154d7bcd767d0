// `cachewarden examples` output and exit status, on a copy of the host-policy fixture whose
// annotated module is the host-probe guest (no build step: `--no-build`).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runExamples } from "../tools/examples";
import { annotatedProbePath, PROBE_METADATA, ROOT } from "./helpers/host-guests";

function fixturePolicies(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-examples-"));
  const policy = path.join(dir, "host-policy");
  fs.cpSync(path.join(ROOT, "tests", "fixtures", "host-policy"), policy, { recursive: true });
  fs.copyFileSync(annotatedProbePath(PROBE_METADATA), path.join(policy, "annotated-policy.wasm"));
  return dir;
}

test("examples prints a table per policy and counts passes", async () => {
  const lines: string[] = [];
  const { passed, failed } = await runExamples(
    [],
    { build: false },
    { policiesDir: fixturePolicies(), out: (l) => lines.push(l) },
  );
  const text = lines.join("\n");
  assert.equal(failed, 0, text);
  assert.equal(passed, 13);
  assert.match(text, /^host-policy — 13\/13 passed$/m);
  assert.match(
    text,
    /^ {2}PASS {2}mutate-pod +whole mutated object returned.* mutated: .*add \/metadata\/annotations/m,
  );
  assert.match(text, /^ {2}PASS {2}reject-with-code .* rejected: 422 engine name is invalid/m);
  assert.match(text, /^ {2}PASS {2}settings-invalid .* settings invalid: lookups: unknown field/m);
  assert.match(text, /^13 passed, 0 failed$/m);
});

test("a failing case is FAIL with its reason, and counted", async () => {
  const dir = fixturePolicies();
  const cases = path.join(dir, "host-policy", "test_data", "cases.yml");
  fs.writeFileSync(
    cases,
    fs.readFileSync(cases, "utf8").replace("expect: {allowed: false, code: 422,", "expect: {allowed: true, code: 422,"),
  );
  const lines: string[] = [];
  const { failed } = await runExamples(
    ["host-policy"],
    { build: false },
    { policiesDir: dir, out: (l) => lines.push(l) },
  );
  assert.equal(failed, 1);
  assert.match(
    lines.join("\n"),
    /^ {2}FAIL {2}reject-with-code .*\n {8}✗ allowed: expected true, got false \(engine name is invalid\)$/m,
  );
});

test("a policy whose module is missing is one failure, not a crash", async () => {
  const dir = fixturePolicies();
  fs.rmSync(path.join(dir, "host-policy", "annotated-policy.wasm"));
  const lines: string[] = [];
  const { failed } = await runExamples([], { build: false }, { policiesDir: dir, out: (l) => lines.push(l) });
  assert.equal(failed, 1);
  assert.match(
    lines.join("\n"),
    /^host-policy — FAIL cannot read .*annotated-policy\.wasm: ENOENT: no such file \(check the path\)$/m,
  );
});
