// What counts as a failure for one fuzz evaluation: everything policy-server would turn into a 500
// (trap, guest error, a response serde cannot read) and the broken policy invariants
// (docs/wasm-contract.md#validate-response, #conformance;
// docs/policies/lmcache-injector.md#never-reject).
import type { GuestCallResult } from "../host/guest";
import { parseSettingsValidationResponse, parseValidationResponse, ValidationResponse } from "../host/response";

export type Verdict = { ok: true; response: ValidationResponse } | { ok: false; kind: string; message: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** The first string (value or key) that is not well-formed UTF-16, i.e. came from a lone-surrogate escape. */
function findLoneSurrogate(v: unknown, at = ""): string | null {
  if (typeof v === "string") return LONE_SURROGATE.test(v) ? at || "<root>" : null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = findLoneSurrogate(v[i], `${at}[${i}]`);
      if (r) return r;
    }
    return null;
  }
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) return `${at}.${JSON.stringify(k)}`;
      const r = findLoneSurrogate(x, `${at}.${k}`);
      if (r) return r;
    }
  }
  return null;
}

function callFailure(result: GuestCallResult): Verdict | null {
  if (result.trapped)
    return {
      ok: false,
      kind: "trap",
      message: `${result.trap ?? "trap"}${result.error ? ` (guest error before the trap: ${result.error})` : ""}`,
    };
  if (!result.ok)
    return {
      ok: false,
      kind: "guest-error",
      message: `__guest_call failed (policy-server answers 500): ${result.error ?? ""}`,
    };
  return null;
}

function decodeResponse(result: GuestCallResult): { text: string } | Verdict {
  try {
    return { text: utf8.decode(result.response!) };
  } catch {
    return { ok: false, kind: "response-not-utf8", message: "the response is not valid UTF-8" };
  }
}

/** Checks one `validate` answer of a policy (`mutating` from its metadata) to the payload `input`. */
export function checkValidate(mutating: boolean, input: Buffer, result: GuestCallResult): Verdict {
  const failed = callFailure(result);
  if (failed) return failed;
  const decoded = decodeResponse(result);
  if (!("text" in decoded)) return decoded;
  let response: ValidationResponse;
  try {
    response = parseValidationResponse(result.response!);
  } catch (e) {
    return {
      ok: false,
      kind: "invalid-response",
      message: `policy-server would reject: invalid response from policy: ${(e as Error).message}`,
    };
  }
  // serde_json refuses lone-surrogate escapes in strings; a policy may pass through what it was
  // given (untouched spans), but must not create one.
  if (!SURROGATE_ESCAPE.test(input.toString("latin1"))) {
    const where = findLoneSurrogate(JSON.parse(decoded.text));
    if (where)
      return {
        ok: false,
        kind: "invalid-response",
        message: `the response contains a lone surrogate escape at ${where} (serde_json rejects it)`,
      };
  }
  if (mutating && response.accepted !== true) {
    return {
      ok: false,
      kind: "invariant",
      message: `a mutating policy rejected a request (accepted: false, code ${response.code}, message ${JSON.stringify(response.message)})`,
    };
  }
  if (!mutating && response.accepted === false) {
    if (typeof response.message !== "string" || response.code !== 422) {
      return {
        ok: false,
        kind: "invariant",
        message: `a validator rejected without a string message and code 422 (code ${response.code}, message ${JSON.stringify(response.message)})`,
      };
    }
  }
  return { ok: true, response };
}

export function checkValidateSettings(result: GuestCallResult): Verdict | null {
  const failed = callFailure(result);
  if (failed) return failed;
  const decoded = decodeResponse(result);
  if (!("text" in decoded)) return decoded;
  try {
    parseSettingsValidationResponse(result.response!);
  } catch (e) {
    return {
      ok: false,
      kind: "invalid-response",
      message: `invalid validate_settings response: ${(e as Error).message}`,
    };
  }
  return null;
}
