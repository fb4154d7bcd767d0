// A hard per-call deadline for one evaluation: the evaluation runs in a worker thread (wasm on the
// main thread cannot be interrupted from JS), and the worker is terminated when a guest call runs
// past the deadline — policy-server's epoch interruption. The worker reports each phase so every
// guest call gets its own deadline, as `_start`+`__guest_call` do under policy-server.
import * as path from "node:path";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { evaluate, EvaluationOptions, EvaluationResult, guestPayloads } from "./evaluate";
import { PolicyModule } from "./guest";
import type { AdmissionRequest } from "./request";
import { admissionResponse, TIMEOUT_TEXT } from "./response";

export interface WorkerInput {
  moduleBytes: Uint8Array;
  source: string;
  request: AdmissionRequest;
  opts: Omit<EvaluationOptions, "log">;
}

export type WorkerMessage = { phase: string } | { result: EvaluationResult } | { error: string };

/** Runs `evaluate` in a worker; a guest call still running after `deadlineMs` ends the evaluation as policy-server would. */
export function evaluateWithDeadline(
  module: PolicyModule,
  request: AdmissionRequest,
  opts: EvaluationOptions,
  deadlineMs: number,
): Promise<EvaluationResult> {
  const { log: _log, ...cloneable } = opts; // functions cannot cross the thread boundary
  const input: WorkerInput = {
    moduleBytes: module.bytes,
    source: module.source,
    request,
    opts: { payloads: guestPayloads(request, opts.settings), ...cloneable, timeBudgetMs: null },
  };
  // the worker has no tsx loader of its own: register it, then load this very file
  const bootstrap = `require("tsx/cjs"); require(${JSON.stringify(path.join(__dirname, "evaluate-worker.ts"))});`;
  return supervise(new Worker(bootstrap, { eval: true, workerData: input }), request, deadlineMs);
}

/** The part of a `Worker` the main thread uses (tests drive `supervise` with a stand-in). */
export interface SupervisedWorker {
  on(event: "message", listener: (m: WorkerMessage) => void): unknown;
  on(event: "error", listener: (e: Error) => void): unknown;
  on(event: "exit", listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

/**
 * Main-thread side: each phase report re-arms the deadline, so every guest call gets its own; the
 * result (or error) ends the run and clears the timer, which would otherwise keep the process (the
 * CLI) alive until the deadline.
 */
export function supervise(
  worker: SupervisedWorker,
  request: AdmissionRequest,
  deadlineMs: number,
): Promise<EvaluationResult> {
  return new Promise((resolve, reject) => {
    // the deadline is armed only by a phase report, so `phase` is always set when it fires
    let phase: string;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void worker.terminate();
        resolve(interrupted(phase, request));
      }, deadlineMs);
    };
    const finish = (): void => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.on("message", (m: WorkerMessage) => {
      if ("phase" in m) {
        phase = m.phase;
        arm();
        return;
      }
      finish();
      if ("result" in m) resolve(m.result);
      else reject(new Error(m.error));
    });
    worker.on("error", (e) => {
      finish();
      reject(e);
    });
    // a worker that ends without a result or an error (process.exit in it, or killed from outside)
    // would leave the run pending for ever; after a settled run this is a no-op
    worker.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the evaluation worker exited (code ${code}) without an answer`));
    });
  });
}

/** What policy-server answers when the guest call of `phase` is interrupted at the deadline. */
export function interrupted(phase: string, request: AdmissionRequest): EvaluationResult {
  if (phase === "validate_settings") {
    return {
      settings: { valid: false, message: `Error invoking settings validation callback: ${TIMEOUT_TEXT}` },
      hostCalls: [],
      hostWarnings: [],
    };
  }
  return {
    settings: { valid: true },
    response: admissionResponse({
      uid: String(request.uid ?? ""),
      allowed: false,
      status: { message: TIMEOUT_TEXT, code: 500 },
    }),
    hostCalls: [],
    hostWarnings: [],
  };
}

/**
 * Worker side: evaluate with a phase report before each guest call, then the result (or the error
 * that stopped it). `post` is the worker's port; tests call this in-process with a plain function,
 * since code run inside a worker thread is invisible to coverage.
 */
export function runEvaluation(input: WorkerInput, post: (m: WorkerMessage) => void): void {
  try {
    const module = PolicyModule.fromBytes(input.moduleBytes, input.source);
    const reportingModule = Object.create(module) as PolicyModule;
    reportingModule.call = (operation, payload, callOpts) => {
      post({ phase: operation });
      return module.call(operation, payload, callOpts);
    };
    post({ result: evaluate(reportingModule, input.request, input.opts) });
  } catch (e) {
    post({ error: (e as Error).message });
  }
}

// `workerData` is null on the main thread
if ((workerData as WorkerInput | null)?.moduleBytes)
  runEvaluation(workerData as WorkerInput, (m) => parentPort!.postMessage(m));
