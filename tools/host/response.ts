// From the guest's ValidationResponse to kwctl's AdmissionResponse
// (docs/wasm-contract.md#admission-response, #kwctl-run): strict serde-like parsing, mutated_object
// → base64 RFC 6902 patch, then policy-server's post-processing (monitor / protect + not allowed to
// mutate / custom message).
import { compare, Operation } from "fast-json-patch";
import { deserialize, SerdeError, SerdeType } from "./serde";

export interface ValidationResponse {
  accepted: boolean;
  message: string | null;
  code: number | null;
  mutated_object: unknown;
  audit_annotations: Record<string, string> | null;
  warnings: string[] | null;
}

export interface SettingsValidationResponse {
  valid: boolean;
  message: string | null;
}

const VALIDATION_RESPONSE: SerdeType = {
  struct: "ValidationResponse",
  fields: {
    accepted: { type: "bool" },
    message: { type: "string", optional: true },
    code: { type: "u16", optional: true },
    mutated_object: { type: "value", optional: true },
    audit_annotations: { type: { map: "string" }, optional: true },
    warnings: { type: { seq: "string" }, optional: true },
  },
};

const SETTINGS_VALIDATION_RESPONSE: SerdeType = {
  struct: "SettingsValidationResponse",
  fields: { valid: { type: "bool" }, message: { type: "string", optional: true } },
};

/** Parses a `validate` answer like serde would; throws SerdeError with serde's message. */
export function parseValidationResponse(bytes: Uint8Array): ValidationResponse {
  return deserialize<ValidationResponse>(Buffer.from(bytes).toString("utf8"), VALIDATION_RESPONSE);
}

/** Parses a `validate_settings` answer like serde would; throws SerdeError with serde's message. */
export function parseSettingsValidationResponse(bytes: Uint8Array): SettingsValidationResponse {
  return deserialize<SettingsValidationResponse>(Buffer.from(bytes).toString("utf8"), SETTINGS_VALIDATION_RESPONSE);
}

export { SerdeError };

export interface AdmissionResponseStatus {
  message?: string;
  code?: number;
  details?: { causes: { message: string }[] };
}

/** kwctl's output shape; key order is the order of construction (see `admissionResponse`). */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  patchType?: "JSONPatch";
  patch?: string;
  status?: AdmissionResponseStatus;
  auditAnnotations: Record<string, string> | null;
  warnings: string[] | null;
}

export const DELETE_MUTATION_TEXT =
  "Incoming object is null, which happens only with DELETE operations, but the policy is attempting a mutation. This is not allowed";

export const TIMEOUT_TEXT = "Policy execution interrupted because it exceeded the allowed execution time";

/** Builds a response with kwctl's key order: uid, allowed, patchType, patch, status, auditAnnotations, warnings. */
export function admissionResponse(parts: {
  uid: string;
  allowed: boolean;
  patch?: string;
  status?: AdmissionResponseStatus;
  auditAnnotations?: Record<string, string> | null;
  warnings?: string[] | null;
}): AdmissionResponse {
  const out: AdmissionResponse = { uid: parts.uid, allowed: parts.allowed } as AdmissionResponse;
  if (parts.patch !== undefined) {
    out.patchType = "JSONPatch";
    out.patch = parts.patch;
  }
  if (parts.status !== undefined) out.status = parts.status;
  out.auditAnnotations =
    parts.auditAnnotations && Object.keys(parts.auditAnnotations).length > 0 ? parts.auditAnnotations : null;
  out.warnings = parts.warnings && parts.warnings.length > 0 ? parts.warnings : null;
  return out;
}

/** policy-evaluator's `reject_internal_server_error`: allowed false, code 500, prefixed message. */
export function internalServerError(uid: string, message: string): AdmissionResponse {
  return admissionResponse({
    uid,
    allowed: false,
    status: { message: `internal server error: ${message}`, code: 500 },
  });
}

/** The RFC 6902 operations that turn `original` into `mutated` (empty when they are JSON-equal). */
export function diffObjects(original: unknown, mutated: unknown): Operation[] {
  // fast-json-patch compares objects/arrays only; wrap so scalar roots still diff correctly
  const ops = compare({ root: original } as object, { root: mutated } as object);
  return ops.map((op) => ({ ...op, path: op.path.replace(/^\/root/, "") }) as Operation);
}

export function encodePatch(ops: Operation[]): string {
  return Buffer.from(JSON.stringify(ops), "utf8").toString("base64");
}

export function decodePatch(patch: string): Operation[] {
  return JSON.parse(Buffer.from(patch, "base64").toString("utf8")) as Operation[];
}

/** `from_policy_validation_response`: turns a parsed ValidationResponse into an AdmissionResponse. */
export function fromValidationResponse(request: Record<string, unknown>, vr: ValidationResponse): AdmissionResponse {
  const uid = String(request.uid ?? "");
  let patch: string | undefined;
  if (vr.mutated_object !== null) {
    // an absent optional field reads as null (serde.ts), never undefined
    if (request.object === undefined || request.object === null) return internalServerError(uid, DELETE_MUTATION_TEXT);
    const ops = diffObjects(request.object, vr.mutated_object);
    if (ops.length > 0) patch = encodePatch(ops);
  }
  const status: AdmissionResponseStatus | undefined =
    vr.message !== null || vr.code !== null
      ? { ...(vr.message !== null ? { message: vr.message } : {}), ...(vr.code !== null ? { code: vr.code } : {}) }
      : undefined;
  return admissionResponse({
    uid,
    allowed: vr.accepted,
    patch,
    status,
    auditAnnotations: vr.audit_annotations,
    warnings: vr.warnings,
  });
}

export type PolicyMode = "protect" | "monitor";

export interface PostProcessing {
  /** default "protect" (kwctl) */
  mode?: PolicyMode;
  /** spec.mutating; default true (kwctl) */
  allowedToMutate?: boolean;
  /** spec.message: replaces rejection messages */
  customMessage?: string;
  /** names the policy in the mutation-rejection text */
  policyId?: string;
}

/** admission_response_handler.rs, in order: monitor, not-allowed-to-mutate, custom message. */
export function postProcess(response: AdmissionResponse, opts: PostProcessing): AdmissionResponse {
  if (opts.mode === "monitor") {
    return admissionResponse({
      uid: response.uid,
      allowed: true,
      auditAnnotations: response.auditAnnotations,
      warnings: response.warnings,
    });
  }
  let out = response;
  if (opts.allowedToMutate === false && out.patch !== undefined) {
    out = admissionResponse({
      uid: out.uid,
      allowed: false,
      status: {
        message: `Request rejected by policy ${opts.policyId ?? "policy"}. The policy attempted to mutate the request, but it is currently configured to not allow mutations.`,
      },
      auditAnnotations: out.auditAnnotations,
      warnings: out.warnings,
    });
  }
  if (opts.customMessage !== undefined && !out.allowed) {
    const original = out.status?.message;
    out = admissionResponse({
      uid: out.uid,
      allowed: false,
      patch: out.patch,
      status: {
        message: opts.customMessage,
        ...(out.status?.code !== undefined ? { code: out.status.code } : {}),
        ...(original !== undefined ? { details: { causes: [{ message: original }] } } : {}),
      },
      auditAnnotations: out.auditAnnotations,
      warnings: out.warnings,
    });
  }
  return out;
}
