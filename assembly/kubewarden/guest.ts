// The `__guest_call` dispatch every Kubewarden policy needs (docs/wasm-contract.md#guest-call):
// `validate`, `validate_settings`, `protocol_version`; anything else is a guest error.
import { forgetStringScratch } from "../json/index";
import { failure, Result, success } from "../util/result";
import { readInvocation, releaseCallMemory, reportGuestError, respondBytes } from "../wapc/index";

// @ts-ignore: decorator
@lazy
export const OPERATION_VALIDATE = "validate";
// @ts-ignore: decorator
@lazy
export const OPERATION_VALIDATE_SETTINGS = "validate_settings";
// @ts-ignore: decorator
@lazy
export const OPERATION_PROTOCOL_VERSION = "protocol_version";

/** The JSON string `"v1"`: 4 bytes including the quotes. */
export function protocolVersionBytes(): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode('"v1"'));
}

/** What one guest call produces: response bytes (ok) or a guest error text. */
export type GuestReply = Result<Uint8Array>;

/** Pure dispatch on the operation name (testable without the host). */
export function dispatchOperation(
  operation: string,
  payload: Uint8Array,
  validate: (payload: Uint8Array) => Uint8Array,
  validateSettings: (payload: Uint8Array) => Uint8Array,
): GuestReply {
  if (operation == OPERATION_VALIDATE) return success<Uint8Array>(validate(payload));
  if (operation == OPERATION_VALIDATE_SETTINGS) return success<Uint8Array>(validateSettings(payload));
  if (operation == OPERATION_PROTOCOL_VERSION) return success<Uint8Array>(protocolVersionBytes());
  return failure<Uint8Array>(new Uint8Array(0), "unknown operation: " + operation);
}

/**
 * The body of a policy's `__guest_call`:
 * `export function __guest_call(a: i32, b: i32): i32 { return handleGuestCall(a, b, validate, validateSettings); }`
 * Returns 1 after responding, 0 after a guest error. Frees the call's memory after responding
 * (`releaseCallMemory`), so long-lived instances (Node host, benchmarks) stay flat. A mutating
 * policy passes `ROOM_FOR_EDITS` as `roomBeforePayload`, for its response to be written over the
 * request (`ValidationResponse.toBytesOver`).
 */
export function handleGuestCall(
  operationLen: i32,
  payloadLen: i32,
  validate: (payload: Uint8Array) => Uint8Array,
  validateSettings: (payload: Uint8Array) => Uint8Array,
  roomBeforePayload: i32 = 0,
): i32 {
  const invocation = readInvocation(operationLen, payloadLen, roomBeforePayload);
  const reply = dispatchOperation(invocation.operation, invocation.payload, validate, validateSettings);
  if (reply.ok) respondBytes(reply.value);
  else reportGuestError(reply.error);
  forgetStringScratch();
  releaseCallMemory();
  return reply.ok ? 1 : 0;
}
