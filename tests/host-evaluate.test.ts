// One evaluation as kwctl / policy-server run it (tools/host/evaluate.ts, evaluate-worker.ts): the
// per-call time budget and its bound, the texts for each way a guest call fails, the payload bytes
// a worker hands over, and the worker side of a deadline run (tested in-process: code inside a
// worker thread is invisible to coverage).
import { test, describe, before, after, mock } from "node:test";
import { EventEmitter } from "node:events";
import assert from "node:assert/strict";
import { PolicyModule } from "../tools/host/guest";
import type { GuestCallResult } from "../tools/host/guest";
import { evaluate, validateSettings, DEFAULT_TIME_BUDGET_MS, EvaluationOptions } from "../tools/host/evaluate";
import {
  evaluateWithDeadline,
  interrupted,
  runEvaluation,
  supervise,
  WorkerMessage,
} from "../tools/host/evaluate-worker";
import {
  AdmissionResponse,
  admissionResponse,
  DELETE_MUTATION_TEXT,
  postProcess,
  TIMEOUT_TEXT,
} from "../tools/host/response";
import { podRequest, probeWasmBytes, replyWith } from "./helpers/host-guests";

let probe: PolicyModule;
before(() => {
  probe = PolicyModule.fromBytes(probeWasmBytes(), "host-probe");
});

/** The probe, with every call's result passed through `change` (a slow guest, a failing one). */
function probeWith(change: (r: GuestCallResult, operation: string) => GuestCallResult): PolicyModule {
  const m = Object.create(probe) as PolicyModule;
  m.call = (operation, payload, opts) => change(probe.call(operation, payload, opts), operation);
  return m;
}
const taking = (ms: number, only?: string) =>
  probeWith((r, op) => (only === undefined || op === only ? { ...r, elapsedMs: ms } : { ...r, elapsedMs: 0 }));

const request = podRequest() as never;
const accept = { probe: "state" };
const SETTINGS_TIMEOUT = `Error invoking settings validation callback: ${TIMEOUT_TEXT}`;

describe("time budget (measured)", () => {
  const outcome = (module: PolicyModule, opts: EvaluationOptions = {}) => {
    const r = evaluate(module, request, { settings: accept, ...opts });
    return r.response
      ? `${r.response.allowed} ${r.response.status?.code} ${r.response.status?.message}`
      : `settings: ${r.settings.message}`;
  };

  test("the default budget is 2 s per call: at 2 s the call stands, just over it is interrupted", () => {
    assert.equal(DEFAULT_TIME_BUDGET_MS, 2000);
    assert.equal(outcome(taking(2000)), "true undefined init=SW calls=1");
    assert.equal(outcome(taking(2000.5, "validate")), `false 500 ${TIMEOUT_TEXT}`);
    assert.equal(outcome(taking(2000.5, "validate_settings")), `settings: ${SETTINGS_TIMEOUT}`);
    assert.equal(outcome(taking(60_000, "validate"), { timeBudgetMs: undefined }), `false 500 ${TIMEOUT_TEXT}`);
  });

  test("a given budget replaces the default, from both sides; null and 0 mean no budget", () => {
    assert.equal(outcome(taking(100), { timeBudgetMs: 100 }), "true undefined init=SW calls=1");
    assert.equal(outcome(taking(101, "validate"), { timeBudgetMs: 100 }), `false 500 ${TIMEOUT_TEXT}`);
    assert.equal(outcome(taking(2500), { timeBudgetMs: 3000 }), "true undefined init=SW calls=1");
    assert.equal(outcome(taking(1e9), { timeBudgetMs: null }), "true undefined init=SW calls=1");
    assert.equal(outcome(taking(1e9), { timeBudgetMs: 0 }), "true undefined init=SW calls=1");
  });

  test("the interruption keeps the request's uid", () => {
    const r = evaluate(taking(3000, "validate"), request, { settings: accept });
    assert.equal(r.response?.uid, "11111111-2222-3333-4444-555555555555");
  });
});

describe("guest call failures", () => {
  const failing = (fields: Partial<GuestCallResult>, only?: string) =>
    probeWith((r, op) =>
      only === undefined || op === only ? { ok: false, trapped: false, memoryBytes: 0, ...fields } : r,
    );

  test("an initialisation failure is its own text; without one, kwctl's `Initialization failed`", () => {
    const init = failing({ trapped: true, trap: "Initialization failed: wasm trap: unreachable" }, "validate");
    assert.equal(
      evaluate(init, request, { settings: accept }).response?.status?.message,
      "internal server error: Initialization failed: wasm trap: unreachable",
    );
    assert.deepEqual(validateSettings(failing({ trapped: true }), { settings: accept }), {
      valid: false,
      message: "Error invoking settings validation callback: Initialization failed",
      trap: undefined,
    });
  });

  test("a trap in the call and a guest error are `Guest call failure: …`; an error without text gets wapc's", () => {
    const trap = failing({ trapped: true, trap: "wasm trap: unreachable" });
    assert.deepEqual(validateSettings(trap, { settings: accept }), {
      valid: false,
      message: "Error invoking settings validation callback: Guest call failure: wasm trap: unreachable",
      trap: "wasm trap: unreachable",
    });
    const r = evaluate(failing({ trapped: true, trap: "wasm trap: unreachable" }, "validate"), request, {
      settings: accept,
    });
    assert.equal(r.trap, "wasm trap: unreachable");
    assert.equal(r.response?.status?.message, "internal server error: Guest call failure: wasm trap: unreachable");
    assert.deepEqual(validateSettings(failing({ error: "bad" }), { settings: accept }), {
      valid: false,
      message: "Error invoking settings validation callback: Guest call failure: bad",
    });
    const silent = evaluate(failing({}, "validate"), request, { settings: accept });
    assert.equal(
      silent.response?.status?.message,
      "internal server error: Guest call failure: No error message set for call failure",
    );
    assert.equal(silent.trap, undefined);
    assert.equal("trap" in validateSettings(failing({ error: "bad" }), {}), false);
  });

  test("a response that is not the expected JSON: the reader's error after kwctl's prefix", () => {
    assert.deepEqual(validateSettings(probe, { settings: { settings_probe: "reply", settings_reply: "{" } }), {
      valid: false,
      message:
        "Error invoking settings validation callback: invalid response from policy: EOF while parsing an object at line 1 column 1",
    });
    assert.deepEqual(
      validateSettings(probe, { settings: { settings_probe: "reply", settings_reply: '{"valid":false}' } }),
      {
        valid: false,
        message: "",
      },
    );
    const r = evaluate(probe, request, { settings: replyWith("{") });
    assert.equal(
      r.response?.status?.message,
      "internal server error: invalid response from policy: EOF while parsing an object at line 1 column 1",
    );
  });

  test("invalid settings stop the evaluation: no response, validate never called", () => {
    const calls: string[] = [];
    const counting = probeWith((r, op) => {
      calls.push(op);
      return r;
    });
    const r = evaluate(counting, request, { settings: { settings_probe: "invalid", message: "no" } });
    assert.deepEqual(
      [r.settings, r.response, calls],
      [{ valid: false, message: "no" }, undefined, ["validate_settings"]],
    );
  });

  test("a response of another shape names the struct kwctl expected", () => {
    assert.equal(
      evaluate(probe, request, { settings: replyWith("[]") }).response?.status?.message,
      "internal server error: invalid response from policy: invalid type: sequence, expected struct ValidationResponse at line 1 column 1",
    );
    assert.deepEqual(validateSettings(probe, { settings: { settings_probe: "reply", settings_reply: '"x"' } }), {
      valid: false,
      message:
        'Error invoking settings validation callback: invalid response from policy: invalid type: string "x", expected struct SettingsValidationResponse at line 1 column 3',
    });
  });

  test("the settings call gets the log too", () => {
    const lines: string[] = [];
    const r = evaluate(probe, request, {
      settings: { settings_probe: "log", probe: "log" },
      log: (l) => lines.push(l),
    });
    assert.equal(r.settings.valid, true);
    assert.deepEqual(lines, ["probe settings log line", "probe log line"]);
  });

  test("a request without a uid is answered with an empty one, whatever the outcome", () => {
    const { uid: _uid, ...noUid } = podRequest();
    assert.equal(evaluate(probe, noUid as never, { settings: accept }).response?.uid, "");
    assert.equal(evaluate(taking(3000, "validate"), noUid as never, { settings: accept }).response?.uid, "");
  });

  test("a DELETE (no object) without a patch has no mutated object", () => {
    const r = evaluate(probe, podRequest(null) as never, { settings: accept });
    assert.equal(r.response?.allowed, true);
    assert.equal(r.mutatedObject, undefined);
    assert.equal(r.patchOperations, undefined);
  });
});

describe("the guest's answer as kwctl reports it", () => {
  const answer = (reply: unknown, req: unknown = request) =>
    evaluate(probe, req as never, { settings: replyWith(reply) });

  test("a code without a message is a status with the code alone", () => {
    assert.deepEqual(answer({ accepted: false, code: 403 }).response?.status, { code: 403 });
    assert.deepEqual(answer({ accepted: false, message: "no" }).response?.status, { message: "no" });
    assert.equal(answer({ accepted: false }).response?.status, undefined);
  });

  test("a mutation of a DELETE (object null or absent) is refused with policy-evaluator's text", () => {
    const mutation = { accepted: true, mutated_object: { kind: "Pod" } };
    for (const deletion of [podRequest(null, { operation: "DELETE", object: null }), podRequest(null)]) {
      const r = answer(mutation, deletion);
      assert.deepEqual(
        [r.response?.allowed, r.response?.status, r.response?.patch],
        [false, { message: `internal server error: ${DELETE_MUTATION_TEXT}`, code: 500 }, undefined],
      );
    }
    assert.equal(answer({ accepted: true, mutated_object: null }, podRequest(null)).response?.allowed, true);
  });

  test("the patch is applied to a copy: the request keeps its object", () => {
    const req = podRequest();
    const before = structuredClone(req.object);
    const r = answer({ accepted: true, mutated_object: { ...(req.object as object), spec: { x: 1 } } }, req);
    assert.deepEqual(r.patchOperations, [{ op: "add", path: "/spec", value: { x: 1 } }]);
    assert.deepEqual(r.mutatedObject, { ...(before as object), spec: { x: 1 } });
    assert.deepEqual(req.object, before);
  });
});

describe("policy-server's post-processing", () => {
  const rejected = admissionResponse({
    uid: "u",
    allowed: false,
    status: { message: "no", code: 403 },
    auditAnnotations: { a: "1" },
    warnings: ["w"],
  });
  const patched = admissionResponse({ uid: "u", allowed: true, patch: "W10=", warnings: ["w"] });
  const plain = (r: AdmissionResponse) => JSON.parse(JSON.stringify(r)) as unknown;

  test("monitor mode allows everything and keeps only annotations and warnings", () => {
    assert.deepEqual(plain(postProcess(rejected, { mode: "monitor" })), {
      uid: "u",
      allowed: true,
      auditAnnotations: { a: "1" },
      warnings: ["w"],
    });
    assert.equal(postProcess(rejected, { mode: "protect" }), rejected);
    assert.equal(postProcess(rejected, {}), rejected);
  });

  test("a custom message replaces a rejection's, keeps its code, and keeps the original as the cause", () => {
    assert.deepEqual(plain(postProcess(rejected, { customMessage: "custom" })), {
      uid: "u",
      allowed: false,
      status: { message: "custom", code: 403, details: { causes: [{ message: "no" }] } },
      auditAnnotations: { a: "1" },
      warnings: ["w"],
    });
    assert.equal(postProcess(patched, { customMessage: "custom" }), patched);
  });

  test("a patch from a policy not allowed to mutate is a rejection naming the policy", () => {
    const text = (id: string) =>
      `Request rejected by policy ${id}. The policy attempted to mutate the request, but it is currently configured to not allow mutations.`;
    assert.deepEqual(plain(postProcess(patched, { allowedToMutate: false, policyId: "p1" })), {
      uid: "u",
      allowed: false,
      status: { message: text("p1") },
      auditAnnotations: null,
      warnings: ["w"],
    });
    assert.equal(postProcess(patched, { allowedToMutate: false }).status?.message, text("policy"));
    assert.equal(postProcess(patched, { allowedToMutate: true }), patched);
  });
});

describe("payloads computed elsewhere", () => {
  test("given payloads are what the guest receives, for both calls", () => {
    const payloads = {
      validateSettings: JSON.stringify({ settings_probe: "invalid", message: "from the payload" }),
      validate: JSON.stringify({ request: {}, settings: replyWith({ accepted: false, message: "from the payload" }) }),
    };
    assert.deepEqual(evaluate(probe, request, { settings: accept, payloads }).settings, {
      valid: false,
      message: "from the payload",
    });
    const validateOnly = { ...payloads, validateSettings: "{}" };
    assert.equal(
      evaluate(probe, request, { settings: accept, payloads: validateOnly }).response?.status?.message,
      "from the payload",
    );
  });
});

describe("deadline runs", () => {
  const input = (settings: Record<string, unknown>, bytes: Uint8Array = probeWasmBytes()) => ({
    moduleBytes: bytes,
    source: "host-probe",
    request,
    opts: { settings },
  });
  const posted = (i: ReturnType<typeof input>) => {
    const messages: WorkerMessage[] = [];
    runEvaluation(i, (m) => messages.push(m));
    return messages;
  };

  test("the worker reports each guest call's phase before it, then the result", () => {
    const messages = posted(input(accept));
    assert.deepEqual(messages.slice(0, 2), [{ phase: "validate_settings" }, { phase: "validate" }]);
    assert.equal(messages.length, 3);
    const last = messages[2] as { result: { response: { status: { message: string } } } };
    assert.equal(last.result.response.status.message, "init=SW calls=1");
    const invalid = posted(input({ settings_probe: "invalid", message: "no" }));
    assert.deepEqual(invalid, [
      { phase: "validate_settings" },
      { result: { settings: { valid: false, message: "no" }, hostCalls: [], hostWarnings: [] } },
    ]);
  });

  test("a module that cannot load is reported as an error, and the deadline run rejects with it", async () => {
    const messages = posted(input(accept, Buffer.from("not wasm")));
    assert.equal(messages.length, 1);
    const error = (messages[0] as { error: string }).error;
    assert.match(error, /^host-probe: /);
    const broken = Object.create(probe) as PolicyModule;
    Object.defineProperty(broken, "bytes", { value: Buffer.from("not wasm") });
    await assert.rejects(evaluateWithDeadline(broken, request, { settings: accept }, 5000), { message: error });
  });

  test("an interruption answers as policy-server does for the phase it hit", () => {
    assert.deepEqual(interrupted("validate_settings", request), {
      settings: { valid: false, message: SETTINGS_TIMEOUT },
      hostCalls: [],
      hostWarnings: [],
    });
    const r = interrupted("validate", request);
    assert.deepEqual(
      [r.settings, r.response?.uid, r.response?.allowed, r.response?.status, r.hostCalls, r.hostWarnings],
      [{ valid: true }, "11111111-2222-3333-4444-555555555555", false, { message: TIMEOUT_TEXT, code: 500 }, [], []],
    );
    const { uid: _uid, ...noUid } = podRequest();
    assert.equal(interrupted("validate", noUid as never).response?.uid, "");
  });
});

describe("the deadline on the main thread", () => {
  // a stand-in for the worker and mocked timers: each phase report re-arms the deadline, and the end
  // of the run clears it (a pending timer would keep the CLI alive until the deadline)
  const DEADLINE = 1000;
  const start = () => {
    const worker = new EventEmitter() as EventEmitter & { terminated: number; terminate(): Promise<number> };
    worker.terminated = 0;
    worker.terminate = () => {
      worker.terminated++;
      return Promise.resolve(1);
    };
    let settled: string | undefined;
    supervise(worker, request, DEADLINE).then(
      (r) => (settled = r.response ? `response: ${r.response.status?.message}` : `settings: ${r.settings.message}`),
      (e: Error) => (settled = `error: ${e.message}`),
    );
    const post = (m: WorkerMessage) => worker.emit("message", m);
    return { worker, post, settled: async () => (await new Promise((r) => setImmediate(r)), settled) };
  };
  before(() => mock.timers.enable({ apis: ["setTimeout"] }));
  after(() => mock.timers.reset());

  test("every guest call gets the whole deadline, counted from its own phase report", async () => {
    const run = start();
    run.post({ phase: "validate_settings" });
    mock.timers.tick(DEADLINE - 1);
    run.post({ phase: "validate" });
    mock.timers.tick(DEADLINE - 1);
    assert.equal(await run.settled(), undefined);
    mock.timers.tick(1);
    assert.equal(await run.settled(), `response: ${TIMEOUT_TEXT}`);
    assert.equal(run.worker.terminated, 1);
  });

  test("a settings call past the deadline is the settings' interruption", async () => {
    const run = start();
    run.post({ phase: "validate_settings" });
    mock.timers.tick(DEADLINE);
    assert.equal(await run.settled(), `settings: ${SETTINGS_TIMEOUT}`);
  });

  test("a result ends the run: the worker is stopped and no deadline fires later", async () => {
    const run = start();
    run.post({ phase: "validate_settings" });
    run.post({ result: interrupted("validate", request) });
    assert.equal(await run.settled(), `response: ${TIMEOUT_TEXT}`);
    assert.equal(run.worker.terminated, 1);
    mock.timers.tick(10 * DEADLINE);
    assert.equal(run.worker.terminated, 1);
  });

  test("an error reported by the worker, or raised in it, rejects the run and clears the deadline", async () => {
    for (const fail of [
      (run: ReturnType<typeof start>) => run.post({ error: "reported" }),
      (run: ReturnType<typeof start>) => run.worker.emit("error", new Error("raised")),
    ]) {
      const run = start();
      run.post({ phase: "validate" });
      fail(run);
      assert.match((await run.settled())!, /^error: (reported|raised)$/);
      mock.timers.tick(10 * DEADLINE);
      assert.equal(run.worker.terminated, 1);
    }
  });

  test("a worker that exits without an answer rejects the run (it was left pending) and clears the deadline", async () => {
    const run = start();
    run.post({ phase: "validate" });
    run.worker.emit("exit", 7);
    assert.equal(await run.settled(), "error: the evaluation worker exited (code 7) without an answer");
    mock.timers.tick(10 * DEADLINE);
    assert.equal(run.worker.terminated, 0);
  });

  test("the exit that follows a settled run changes nothing", async () => {
    const run = start();
    run.post({ phase: "validate" });
    run.post({ result: interrupted("validate", request) });
    run.worker.emit("exit", 1);
    assert.equal(await run.settled(), `response: ${TIMEOUT_TEXT}`);
  });
});
