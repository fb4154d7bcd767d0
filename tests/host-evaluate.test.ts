// One evaluation as kwctl / policy-server run it (tools/host/evaluate.ts, evaluate-worker.ts): the
// per-call time budget and its bound, the texts for each way a guest call fails, the payload bytes
// a worker hands over, and the worker side of a deadline run (tested in-process: code inside a
// worker thread is invisible to coverage).
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { PolicyModule } from "../tools/host/guest";
import type { GuestCallResult } from "../tools/host/guest";
import { evaluate, validateSettings, DEFAULT_TIME_BUDGET_MS, EvaluationOptions } from "../tools/host/evaluate";
import { evaluateWithDeadline, interrupted, runEvaluation, WorkerMessage } from "../tools/host/evaluate-worker";
import { TIMEOUT_TEXT } from "../tools/host/response";
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

  test("a DELETE (no object) without a patch has no mutated object", () => {
    const r = evaluate(probe, podRequest(null) as never, { settings: accept });
    assert.equal(r.response?.allowed, true);
    assert.equal(r.mutatedObject, undefined);
    assert.equal(r.patchOperations, undefined);
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
    for (const phase of ["startup", "validate_settings"]) {
      assert.deepEqual(interrupted(phase, request), {
        settings: { valid: false, message: SETTINGS_TIMEOUT },
        hostCalls: [],
        hostWarnings: [],
      });
    }
    const r = interrupted("validate", request);
    assert.deepEqual(
      [r.settings, r.response?.uid, r.response?.allowed, r.response?.status, r.hostCalls, r.hostWarnings],
      [{ valid: true }, "11111111-2222-3333-4444-555555555555", false, { message: TIMEOUT_TEXT, code: 500 }, [], []],
    );
    const { uid: _uid, ...noUid } = podRequest();
    assert.equal(interrupted("validate", noUid as never).response?.uid, "");
  });
});
