// `cachewarden run` in-process: the same command tests/cli-run.test.ts spawns, registered on a
// fresh commander program with its output captured. Cheap enough to pin every flag's effect, and
// it runs in the test process (mutation testing sees which tests reach tools/host/commands.ts).
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import { registerRun } from "../tools/host/commands";
import { decodePatch } from "../tools/host/response";
import { annotatedProbePath, PROBE_METADATA, ROOT } from "./helpers/host-guests";

const DATA = path.join(ROOT, "tests", "fixtures", "host-policy", "test_data");
const data = (f: string): string => path.join(DATA, f);
const POD_UID = "1299d386-525b-4032-98ae-1949f69f9cfc";
let probe: string;

interface Outcome {
  stdout: string;
  stderr: string;
  error?: string;
}

async function run(args: string[]): Promise<Outcome> {
  const out = { stdout: "", stderr: "" };
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  registerRun(program, {
    stdout: {
      write: (t: string) => {
        out.stdout += t;
      },
    },
    stderr: {
      write: (t: string) => {
        out.stderr += t;
      },
    },
  });
  try {
    await program.parseAsync(["node", "cachewarden", "run", ...args]);
    return out;
  } catch (e) {
    return { ...out, error: (e as Error).message };
  }
}

/** A successful run: exactly one AdmissionResponse line on stdout. */
async function response(args: string[]): Promise<{ response: Record<string, unknown>; stderr: string }> {
  const r = await run(args);
  assert.equal(r.error, undefined, r.error);
  assert.match(r.stdout, /^[^\n]+\n$/);
  return { response: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}

const message = (r: Record<string, unknown>): string | undefined =>
  (r.status as { message?: string } | undefined)?.message;

before(() => {
  probe = annotatedProbePath(PROBE_METADATA);
});

describe("run (in-process)", () => {
  test("a plain path and a file:// URI run the same module; stderr stays empty", async () => {
    const a = await response([probe, "-r", data("request_pod.json")]);
    const b = await response([`file://${probe}`, "-r", data("request_pod.json")]);
    assert.equal(
      JSON.stringify(a.response),
      `{"uid":"${POD_UID}","allowed":true,"auditAnnotations":null,"warnings":null}`,
    );
    assert.deepEqual(b.response, a.response);
    assert.equal(a.stderr, "");
  });

  test("https modules need kwctl (registry:// ones are pulled: tests/registry.test.ts)", async () => {
    for (const uri of ["https://example.com/p.wasm", "http://example.com/p.wasm"]) {
      assert.equal(
        (await run([uri, "-r", data("request_pod.json")])).error,
        `${uri}: only registry:// and local modules (a path or file://) can be run without kwctl`,
      );
    }
  });

  test("settings: a file, JSON text, or none; both at once is an error", async () => {
    assert.equal(
      message((await response([probe, "-r", data("request_pod.json"), "-s", data("settings_reject.json")])).response),
      "engine name is invalid",
    );
    const reply = JSON.stringify({ probe: "reply", reply: '{"accepted":false,"message":"from json"}' });
    assert.equal(
      message((await response([probe, "-r", data("request_pod.json"), "--settings-json", reply])).response),
      "from json",
    );
    assert.equal(
      (await run([probe, "-r", data("request_pod.json"), "-s", data("settings_reject.json"), "--settings-json", "{}"]))
        .error,
      "--settings-path and --settings-json cannot be used together",
    );
  });

  test("invalid settings are an error with kwctl's text, and nothing on stdout", async () => {
    const r = await run([probe, "-r", data("request_pod.json"), "-s", data("settings_invalid.json")]);
    assert.equal(r.error, "Provided settings are not valid: lookups: unknown field");
    assert.equal(r.stdout, "");
  });

  test("no Kubernetes resource without --allow-context-aware; the metadata's list with it", async () => {
    const base = [
      probe,
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_lookup-configmap.json"),
      "--cluster-objects",
      data("cluster_default.yml"),
    ];
    assert.equal(
      message((await response(base)).response),
      "err:Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.",
    );
    assert.match(
      message((await response([...base, "--allow-context-aware"])).response) ?? "",
      /^ok:\{"apiVersion":"v1","kind":"ConfigMap"/,
    );
  });

  test("--allowed-host-capabilities: default everything; repeated patterns accumulate", async () => {
    const base = [
      probe,
      "-r",
      data("request_pod.json"),
      "-s",
      data("settings_lookup-configmap.json"),
      "--cluster-objects",
      data("cluster_default.yml"),
      "--allow-context-aware",
    ];
    const one = await response([...base, "--allowed-host-capabilities", "kubernetes/can_i"]);
    assert.equal(
      message(one.response),
      "err:Policy has not been granted access to the 'kubernetes/get_resource' host capability. The violation has been reported.",
    );
    const two = await response([
      ...base,
      "--allowed-host-capabilities",
      "kubernetes/can_i",
      "--allowed-host-capabilities",
      "kubernetes/get_resource",
    ]);
    assert.match(message(two.response) ?? "", /^ok:/);
  });

  test("a replay session answers; leftovers are a warning on stderr; it excludes --cluster-objects", async () => {
    const r = await response([
      probe,
      "-r",
      data("request_pod.json"),
      "--allow-context-aware",
      "--replay-host-capabilities-interactions",
      data("session_lookup-missing.yml"),
    ]);
    assert.equal(r.stderr, "warning: replay session: 1 recorded exchange(s) were not used by the policy\n");
    const both = await run([
      probe,
      "-r",
      data("request_pod.json"),
      "--replay-host-capabilities-interactions",
      data("session_lookup-missing.yml"),
      "--cluster-objects",
      data("cluster_default.yml"),
    ]);
    assert.equal(both.error, "--replay-host-capabilities-interactions and --cluster-objects cannot be used together");
  });

  test("--show-patch adds the decoded operations on stderr; without it stderr stays empty", async () => {
    const args = [probe, "-r", data("request_pod.json"), "-s", data("settings_mutate.json")];
    const plain = await response(args);
    assert.equal(plain.stderr, "");
    const shown = await response([...args, "--show-patch"]);
    assert.deepEqual(shown.response, plain.response);
    const ops = decodePatch(shown.response.patch as string);
    assert.equal(shown.stderr, `patch operations:\n${ops.map((op) => `  ${JSON.stringify(op)}`).join("\n")}\n`);
  });

  test("--mode monitor accepts a rejection; protect (the default) keeps it", async () => {
    const args = [probe, "-r", data("request_pod.json"), "-s", data("settings_reject.json")];
    assert.equal((await response(args)).response.allowed, false);
    assert.equal((await response([...args, "--mode", "protect"])).response.allowed, false);
    assert.equal((await response([...args, "--mode", "monitor"])).response.allowed, true);
    assert.match((await run([...args, "--mode", "audit"])).error ?? "", /Allowed choices are protect, monitor/);
  });

  test("--mode monitor says on stderr what protect mode would do; stdout stays kwctl's answer", async () => {
    const reject = [probe, "-r", data("request_pod.json"), "-s", data("settings_reject.json"), "--mode", "monitor"];
    const rejected = await response(reject);
    assert.equal(rejected.response.allowed, true);
    const protect = await response(reject.slice(0, -2));
    assert.equal(rejected.stderr, `monitor: would reject: ${message(protect.response)}\n`);
    const mutate = [probe, "-r", data("request_pod.json"), "-s", data("settings_mutate.json")];
    const wired = await response([...mutate, "--mode", "monitor"]);
    assert.equal(wired.response.patch, undefined, "monitor mode drops the patch");
    const ops = decodePatch((await response(mutate)).response.patch as string);
    assert.ok(ops.length > 0);
    assert.equal(
      wired.stderr,
      [
        `monitor: would wire (${ops.length} patch operation${ops.length === 1 ? "" : "s"}):`,
        ...ops.map((op) => `  ${JSON.stringify(op)}`),
      ].join("\n") + "\n",
    );
    const plain = await response([probe, "-r", data("request_pod.json"), "--mode", "monitor"]);
    assert.equal(plain.stderr, "monitor: would accept unchanged\n");
  });

  test("--allow-context-aware without a lookup source (no kubeconfig anywhere) says there is none", async () => {
    const saved = { home: process.env.HOME, kubeconfig: process.env.KUBECONFIG };
    process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), "no-kube-"));
    delete process.env.KUBECONFIG;
    try {
      const r = await response([probe, "-r", data("request_pod.json"), "--allow-context-aware"]);
      assert.equal(
        r.stderr,
        "warning: --allow-context-aware grants lookups, but there is no lookup source: every lookup fails (no kubeconfig: give --kubeconfig <file>, set KUBECONFIG, or write ~/.kube/config; or give --cluster-objects <file> or --replay-host-capabilities-interactions <session>)\n",
      );
    } finally {
      process.env.HOME = saved.home;
      if (saved.kubeconfig !== undefined) process.env.KUBECONFIG = saved.kubeconfig;
    }
  });

  test("mutation is allowed, as with kwctl run", async () => {
    const r = await response([probe, "-r", data("request_pod.json"), "-s", data("settings_mutate.json")]);
    assert.equal(r.response.allowed, true);
    assert.equal(r.response.patchType, "JSONPatch");
  });

  test("guest log lines go to stderr, prefixed", async () => {
    const r = await response([probe, "-r", data("request_pod.json"), "--settings-json", '{"probe":"log"}']);
    assert.equal(r.stderr, "policy log: probe log line\n");
  });

  test("--timeout-seconds: a positive deadline runs in a worker and interrupts a runaway guest; 0 means no budget", async () => {
    const ok = await response([probe, "-r", data("request_pod.json"), "--timeout-seconds", "5"]);
    assert.equal(
      JSON.stringify(ok.response),
      `{"uid":"${POD_UID}","allowed":true,"auditAnnotations":null,"warnings":null}`,
    );
    const loop = await response([
      probe,
      "-r",
      data("request_pod.json"),
      "--settings-json",
      '{"probe":"loop"}',
      "--timeout-seconds",
      "0.5",
    ]);
    assert.deepEqual(loop.response.status, {
      message: "Policy execution interrupted because it exceeded the allowed execution time",
      code: 500,
    });
    const none = await response([probe, "-r", data("request_pod.json"), "--timeout-seconds", "0"]);
    assert.deepEqual(none.response, ok.response);
    for (const bad of ["soon", "-1", "Infinity"]) {
      assert.equal(
        (await run([probe, "-r", data("request_pod.json"), "--timeout-seconds", bad])).error,
        `--timeout-seconds: expected a non-negative number, got ${JSON.stringify(bad)}`,
      );
    }
  });

  test("a local path that merely contains a scheme is a path", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-run-"));
    for (const odd of [`${dir}/registry://x.wasm`, `${dir}/https://x.wasm`]) {
      assert.equal(
        (await run([odd, "-r", data("request_pod.json")])).error,
        `cannot read ${odd}: ENOENT: no such file (check the path)`,
      );
    }
  });

  test("a missing module is an error naming it", async () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-run-")), "nope.wasm");
    assert.equal(
      (await run([missing, "-r", data("request_pod.json")])).error,
      `cannot read ${missing}: ENOENT: no such file (check the path)`,
    );
  });
});
