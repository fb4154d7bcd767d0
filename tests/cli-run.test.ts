// `cachewarden run` end to end: spawns the real CLI (bin/cachewarden.js) against the annotated
// host-probe guest with the inputs of tests/fixtures/host-policy/test_data.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodePatch } from "../tools/host/response";
import { annotatedProbePath, PROBE_METADATA, ROOT, watToWasm } from "./helpers/host-guests";

const BIN = path.join(ROOT, "bin", "cachewarden.js");
const DATA = path.join(ROOT, "tests", "fixtures", "host-policy", "test_data");
const data = (f: string): string => path.join(DATA, f);
let probe: string;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

/** Runs and parses stdout as the one AdmissionResponse line; the process must exit 0. */
async function runOk(args: string[], stdin?: string): Promise<{ response: Record<string, unknown>; stderr: string }> {
  const r = await cli(["run", probe, ...args], stdin);
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stdout);
  return { response: JSON.parse(lines[0]) as Record<string, unknown>, stderr: r.stderr };
}

/** A failing run: non-zero exit, exactly one `cachewarden: …` line, no stack trace. */
async function runFails(args: string[], stdin?: string): Promise<string> {
  const r = await cli(["run", ...args], stdin);
  assert.notEqual(r.code, 0);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.match(lines[0], /^cachewarden: /);
  return lines[0];
}

before(() => {
  probe = annotatedProbePath(PROBE_METADATA);
});

// each test spawns the CLI (tsx startup ≈ 1 s); two at a time keeps a small CI runner responsive
describe("cachewarden run", { concurrency: 2 }, () => {
  test("a bare AdmissionRequest: kwctl-shaped response on stdout, exit 0", async () => {
    const { response } = await runOk(["-r", data("request_pod.json")]);
    assert.equal(
      JSON.stringify(response),
      '{"uid":"1299d386-525b-4032-98ae-1949f69f9cfc","allowed":true,"auditAnnotations":null,"warnings":null}',
    );
  });

  test("an AdmissionReview is unwrapped", async () => {
    const { response } = await runOk(["--request-path", data("review_pod.json")]);
    assert.equal(response.uid, "0b9d1d4e-8f3c-4a51-9d43-1d2f9c1a0001");
  });

  test("a plain YAML manifest becomes a CREATE request with the all-zero uid", async () => {
    const { response } = await runOk([
      "-r",
      data("manifest_pod.yml"),
      "--settings-json",
      JSON.stringify({ probe: "reply", reply: '{"accepted":true,"message":"seen"}' }),
    ]);
    assert.equal(response.uid, "00000000-0000-0000-0000-000000000000");
  });

  test("the request can come from stdin", async () => {
    const { response } = await runOk(["-r", "-"], fs.readFileSync(data("request_pod.json"), "utf8"));
    assert.equal(response.uid, "1299d386-525b-4032-98ae-1949f69f9cfc");
  });

  test("a rejection still exits 0; settings from --settings-path", async () => {
    const { response } = await runOk(["-r", data("request_pod.json"), "-s", data("settings_reject.json")]);
    assert.deepEqual(response, {
      uid: "1299d386-525b-4032-98ae-1949f69f9cfc",
      allowed: false,
      status: { message: "engine name is invalid", code: 422 },
      auditAnnotations: { "skip-reason": "engine-invalid" },
      warnings: null,
    });
  });

  test("YAML settings files and --settings-json null work", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-"));
    const yml = path.join(dir, "settings.yml");
    fs.writeFileSync(yml, 'probe: reply\nreply: \'{"accepted":false,"message":"from yaml"}\'\n');
    assert.equal(
      ((await runOk(["-r", data("request_pod.json"), "-s", yml])).response.status as { message: string }).message,
      "from yaml",
    );
    assert.equal((await runOk(["-r", data("request_pod.json"), "--settings-json", "null"])).response.allowed, true);
  });

  test("invalid settings: non-zero exit with kwctl's message", async () => {
    const line = await runFails([probe, "-r", data("request_pod.json"), "-s", data("settings_invalid.json")]);
    assert.equal(line, "cachewarden: Provided settings are not valid: lookups: unknown field");
  });

  test("--show-patch prints the decoded operations on stderr; stdout stays kwctl's", async () => {
    const { response, stderr } = await runOk([
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_mutate.json"),
      "--show-patch",
    ]);
    assert.equal(response.patchType, "JSONPatch");
    const ops = decodePatch(response.patch as string);
    assert.match(stderr, /^patch operations:\n/);
    for (const op of ops) assert.ok(stderr.includes(`  ${JSON.stringify(op)}`), stderr);
    assert.deepEqual(Object.keys(response), ["uid", "allowed", "patchType", "patch", "auditAnnotations", "warnings"]);
  });

  test("--mode monitor accepts a rejection and drops the patch", async () => {
    const { response } = await runOk([
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_reject.json"),
      "--mode",
      "monitor",
    ]);
    assert.deepEqual(response, {
      uid: "1299d386-525b-4032-98ae-1949f69f9cfc",
      allowed: true,
      auditAnnotations: { "skip-reason": "engine-invalid" },
      warnings: null,
    });
  });

  test("lookups need --allow-context-aware (metadata contextAwareResources), like kwctl", async () => {
    const base = [
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_lookup-configmap.json"),
      "--cluster-objects",
      data("cluster_default.yml"),
    ];
    const denied = await runOk(base);
    assert.equal(
      (denied.response.status as { message: string }).message,
      "err:Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.",
    );
    const granted = await runOk([...base, "--allow-context-aware"]);
    assert.match(
      (granted.response.status as { message: string }).message,
      /^ok:\{"apiVersion":"v1","kind":"ConfigMap"/,
    );
  });

  test("--allowed-host-capabilities is repeatable and gates before contextAwareResources", async () => {
    const base = [
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_lookup-configmap.json"),
      "--cluster-objects",
      data("cluster_default.yml"),
      "--allow-context-aware",
    ];
    const denied = await runOk([
      ...base,
      "--allowed-host-capabilities",
      "kubernetes/can_i",
      "--allowed-host-capabilities",
      "kubernetes/list_resources_all",
    ]);
    assert.equal(
      (denied.response.status as { message: string }).message,
      "err:Policy has not been granted access to the 'kubernetes/get_resource' host capability. The violation has been reported.",
    );
    const allowed = await runOk([
      ...base,
      "--allowed-host-capabilities",
      "kubernetes/can_i",
      "--allowed-host-capabilities",
      "kubernetes/*",
    ]);
    assert.match((allowed.response.status as { message: string }).message, /^ok:/);
  });

  test("--replay-host-capabilities-interactions answers from a session; leftovers only warn", async () => {
    const args = [
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_lookup-configmap.json"),
      "--allow-context-aware",
      "--replay-host-capabilities-interactions",
    ];
    const { response } = await runOk([...args, data("session_lookup-missing.yml")]);
    assert.equal(
      (response.status as { message: string }).message,
      "err:Callback evaluation failure: Cannot find v1/ConfigMap named 'cb-connection' inside of namespace 'Some(\"team-a\")'",
    );
    const leftover = await runOk([
      "-r",
      data("request_pod.json"),
      "--allow-context-aware",
      "--replay-host-capabilities-interactions",
      data("session_lookup-missing.yml"),
    ]);
    assert.match(leftover.stderr, /^warning: replay session: 1 recorded exchange\(s\) were not used by the policy$/m);
  });

  test("--timeout-seconds enforces a hard deadline on a runaway guest", async () => {
    const { response } = await runOk([
      "-r",
      data("request_pod.json"),
      "--settings-json",
      '{"probe":"loop"}',
      "--timeout-seconds",
      "1",
    ]);
    assert.deepEqual(response.status, {
      message: "Policy execution interrupted because it exceeded the allowed execution time",
      code: 500,
    });
  });

  test("errors are one line without a stack trace", async () => {
    assert.match(
      await runFails([probe, "-r", data("nope.json")]),
      /^cachewarden: cannot read request .*nope\.json: ENOENT: no such file \(check the path\)$/,
    );
    assert.match(
      await runFails(["/nonexistent/policy.wasm", "-r", data("request_pod.json")]),
      /^cachewarden: cannot read \/nonexistent\/policy\.wasm: ENOENT: no such file \(check the path\)$/,
    );
    assert.match(
      await runFails([probe, "-r", "-"], '{"uid":"x","kind":{},"resource":{},"operation":"CREATE"}'),
      /^cachewarden: cannot build AdmissionRequest object from stdin: missing field `userInfo`$/,
    );
    assert.match(
      await runFails([
        probe,
        "-r",
        data("request_pod.json"),
        "-s",
        data("settings_accept.json"),
        "--settings-json",
        "{}",
      ]),
      /cannot be used together/,
    );
    assert.match(
      await runFails([
        probe,
        "-r",
        data("request_pod.json"),
        "--replay-host-capabilities-interactions",
        data("request_pod.json"),
      ]),
      /request_pod\.json: a replay session must be a YAML list of exchanges$/,
    );
    assert.match(
      await runFails([probe, "-r", data("request_pod.json"), "--timeout-seconds", "soon"]),
      /--timeout-seconds: expected a non-negative number/,
    );
    assert.match(
      await runFails([probe, "-r", data("request_pod.json"), "--settings-json", "[1]"]),
      /settings must be an object or null/,
    );
  });

  test("a module with a forbidden import is refused at load, naming the import", async () => {
    const bytes =
      await watToWasm(`(module (import "env" "abort" (func (param i32 i32 i32 i32))) (memory (export "memory") 1)
      (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 0)))`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-")), "env.wasm");
    fs.writeFileSync(file, bytes);
    assert.match(
      await runFails([file, "-r", data("request_pod.json")]),
      /unknown import: env::abort has not been defined/,
    );
  });

  for (const [what, line, named] of [
    ["a wapc function outside the nine", '(import "wapc" "__bogus" (func (param i32 i32)))', "wapc::__bogus"],
    ["a wapc global", '(import "wapc" "__console_log" (global i32))', "wapc::__console_log"],
  ]) {
    test(`a module importing ${what} is refused at load, naming the import, before any evaluation`, async () => {
      // __guest_call would trap: a refusal at load is the only way this run can end without a trap text
      const bytes = await watToWasm(`(module ${line} (memory (export "memory") 1)
        (func (export "__guest_call") (param i32 i32) (result i32) unreachable))`);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-")), "bogus.wasm");
      fs.writeFileSync(file, bytes);
      assert.equal(
        await runFails([file, "-r", data("request_pod.json")]),
        `cachewarden: ${file}: unknown import: ${named} has not been defined (only the wapc host functions are provided)`,
      );
    });
  }
});
