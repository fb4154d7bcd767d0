// One policy evaluation the way kwctl / policy-server do it: `validate_settings` with the settings
// object alone, then `validate` with `{"request": …, "settings": …}`, each in a fresh instance,
// then the AdmissionResponse with policy-server's post-processing
// (docs/wasm-contract.md#admission-response).
//
// Time budget (policy-server's epoch deadline, default 2 s): JS cannot interrupt wasm running on
// the same thread, so the default synchronous path *measures* every guest call and, when a call
// went over budget, reports the interruption policy-server would have produced. A runaway guest
// therefore still blocks the caller; `evaluateWithDeadline` (evaluate-worker.ts) runs the same
// evaluation in a worker thread and terminates it at the deadline, for callers that need a hard
// stop (the CLI's explicit `--timeout-seconds`).
import { applyPatch, Operation } from "fast-json-patch";
import { HostCapabilities, HostCapabilitiesConfig, HostCallRecord } from "./capabilities";
import { serdeJson } from "./serde";
import { GuestCallResult, PolicyModule } from "./guest";
import { AdmissionRequest, requestForGuest } from "./request";
import {
  AdmissionResponse,
  admissionResponse,
  decodePatch,
  fromValidationResponse,
  internalServerError,
  parseSettingsValidationResponse,
  parseValidationResponse,
  postProcess,
  PostProcessing,
  TIMEOUT_TEXT,
} from "./response";

export const DEFAULT_TIME_BUDGET_MS = 2000;

export interface EvaluationOptions extends PostProcessing {
  /** the policy settings; default `{}` */
  settings?: Record<string, unknown>;
  /** host-capability gating and answers; default: `*` allowed, no contextAwareResources, no cluster */
  capabilities?: HostCapabilitiesConfig;
  /** per-guest-call budget in ms, checked after the call; `null` disables; default 2000 */
  timeBudgetMs?: number | null;
  /** receives `__console_log` and `tracing/log` lines */
  log?: (line: string) => void;
  /**
   * the exact payload texts, when computed elsewhere (a worker thread: the number text a parsed
   * document remembers does not cross the thread boundary); default: `guestPayloads`
   */
  payloads?: GuestPayloads;
}

export interface GuestPayloads {
  validateSettings: string;
  validate: string;
}

/**
 * The bytes policy-server hands the guest: the settings alone, then `{"request","settings"}`, each
 * written as serde_json writes a `Value` (keys in byte order, numbers keeping their kind).
 */
export function guestPayloads(request: AdmissionRequest, settings: Record<string, unknown> = {}): GuestPayloads {
  return {
    validateSettings: serdeJson(settings),
    validate: serdeJson({ request: requestForGuest(request), settings }),
  };
}

export interface SettingsOutcome {
  valid: boolean;
  /** kwctl's text for an invalid outcome (the policy's message or the callback error) */
  message?: string;
  /** the guest trapped (a trap is always a test failure) */
  trap?: string;
}

export interface EvaluationResult {
  settings: SettingsOutcome;
  /** absent when the settings are invalid (kwctl stops there) */
  response?: AdmissionResponse;
  /** the `validate` call trapped */
  trap?: string;
  /** the object after applying the patch (the request object when there is no patch) */
  mutatedObject?: unknown;
  /** decoded patch operations, when there is a patch */
  patchOperations?: Operation[];
  hostCalls: HostCallRecord[];
  /** host-side warnings (e.g. unused replay exchanges); not part of the AdmissionResponse */
  hostWarnings: string[];
}

function overBudget(result: GuestCallResult, budgetMs: number | null | undefined): boolean {
  const budget = budgetMs === undefined ? DEFAULT_TIME_BUDGET_MS : budgetMs;
  return budget !== null && budget > 0 && (result.elapsedMs ?? 0) > budget;
}

/** The text wapc/policy-evaluator put after `Guest call failure: ` (or the init failure). */
function guestFailureText(result: GuestCallResult): string {
  // a trap in `__guest_call` is a GuestCallFailure; one in `_start`/`wapc_init` fails initialisation
  if (result.trapped && !result.trap?.startsWith("wasm trap:")) return result.trap ?? "Initialization failed";
  if (result.trapped) return `Guest call failure: ${result.trap}`;
  return `Guest call failure: ${result.error ?? "No error message set for call failure"}`;
}

/** `validate_settings` with the settings object alone; never throws for guest misbehaviour. */
export function validateSettings(
  module: PolicyModule,
  opts: EvaluationOptions = {},
  host?: HostCapabilities,
): SettingsOutcome {
  const capabilities = host ?? new HostCapabilities(opts.capabilities, opts.log);
  const payload = opts.payloads?.validateSettings ?? serdeJson(opts.settings ?? {});
  const result = module.call("validate_settings", payload, { hostCall: capabilities.handler, log: opts.log });
  const prefix = "Error invoking settings validation callback: ";
  if (overBudget(result, opts.timeBudgetMs)) return { valid: false, message: prefix + TIMEOUT_TEXT };
  if (!result.ok)
    return {
      valid: false,
      message: prefix + guestFailureText(result),
      ...(result.trapped ? { trap: result.trap } : {}),
    };
  try {
    const parsed = parseSettingsValidationResponse(result.response!);
    return parsed.valid ? { valid: true } : { valid: false, message: parsed.message ?? "" };
  } catch (e) {
    return { valid: false, message: `${prefix}invalid response from policy: ${(e as Error).message}` };
  }
}

/** `validate` and the AdmissionResponse, without the settings step. */
export function validateRequest(
  module: PolicyModule,
  request: AdmissionRequest,
  opts: EvaluationOptions = {},
  host?: HostCapabilities,
): Omit<EvaluationResult, "settings"> {
  const capabilities = host ?? new HostCapabilities(opts.capabilities, opts.log);
  const payload = opts.payloads?.validate ?? guestPayloads(request, opts.settings).validate;
  const result = module.call("validate", payload, { hostCall: capabilities.handler, log: opts.log });
  const uid = String(request.uid ?? "");
  const done = (response: AdmissionResponse, trap?: string): Omit<EvaluationResult, "settings"> => {
    const final = postProcess(response, opts);
    const patchOperations = final.patch !== undefined ? decodePatch(final.patch) : undefined;
    return {
      response: final,
      trap,
      patchOperations,
      mutatedObject: applyOperations(request.object, patchOperations),
      hostCalls: capabilities.calls,
      hostWarnings: capabilities.warnings(),
    };
  };
  if (overBudget(result, opts.timeBudgetMs))
    return done(admissionResponse({ uid, allowed: false, status: { message: TIMEOUT_TEXT, code: 500 } }));
  if (!result.ok)
    return done(internalServerError(uid, guestFailureText(result)), result.trapped ? result.trap : undefined);
  try {
    return done(fromValidationResponse(request, parseValidationResponse(result.response!)));
  } catch (e) {
    return done(internalServerError(uid, `invalid response from policy: ${(e as Error).message}`));
  }
}

// a patch exists only when the request has an object (fromValidationResponse refuses one without);
// applyPatch works on a copy (mutateDocument false), so the request keeps its object
function applyOperations(object: unknown, ops: Operation[] | undefined): unknown {
  if (!ops) return object;
  return applyPatch(object, ops, false, false).newDocument;
}

/** kwctl run: settings first (an invalid outcome stops there), then validate. One host state for both. */
export function evaluate(
  module: PolicyModule,
  request: AdmissionRequest,
  opts: EvaluationOptions = {},
): EvaluationResult {
  const host = new HostCapabilities(opts.capabilities, opts.log);
  const settings = validateSettings(module, opts, host);
  if (!settings.valid) return { settings, hostCalls: host.calls, hostWarnings: host.warnings() };
  return { settings, ...validateRequest(module, request, opts, host) };
}
