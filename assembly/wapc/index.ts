// waPC guest ABI, written by hand: the nine `wapc.*` host imports, reading an invocation,
// responding, erroring, calling the host, and the abort handler the build wires with
// `--use abort=assembly/wapc/index/wapcAbort`. Nothing here knows about Kubewarden or cachewarden.
import { failure, Result, success } from "../util/result";
import { u64ToDecimal } from "../util/decimal";
import { uninitializedBuffer, uninitializedBytes } from "../util/memory";

// @ts-ignore: decorator
@external("wapc", "__guest_request")
declare function __guest_request(operationPtr: usize, payloadPtr: usize): void;
// @ts-ignore: decorator
@external("wapc", "__guest_response")
declare function __guest_response(ptr: usize, len: usize): void;
// @ts-ignore: decorator
@external("wapc", "__guest_error")
declare function __guest_error(ptr: usize, len: usize): void;
// @ts-ignore: decorator
@external("wapc", "__host_call")
declare function __host_call(
  bindingPtr: usize,
  bindingLen: usize,
  namespacePtr: usize,
  namespaceLen: usize,
  operationPtr: usize,
  operationLen: usize,
  payloadPtr: usize,
  payloadLen: usize,
): bool;
// @ts-ignore: decorator
@external("wapc", "__host_response_len")
declare function __host_response_len(): usize;
// @ts-ignore: decorator
@external("wapc", "__host_response")
declare function __host_response(ptr: usize): void;
// @ts-ignore: decorator
@external("wapc", "__host_error_len")
declare function __host_error_len(): usize;
// @ts-ignore: decorator
@external("wapc", "__host_error")
declare function __host_error(ptr: usize): void;
// @ts-ignore: decorator
@external("wapc", "__console_log")
declare function __console_log(ptr: usize, len: usize): void;

/** One guest call as delivered by the host: the operation name and the raw payload bytes. */
export class Invocation {
  constructor(
    public operation: string,
    public payload: Uint8Array,
  ) {}
}

/**
 * Frees everything the call allocated; the guest calls it last, after responding. Long-lived
 * instances (kwctl, the Node host, benchmarks) then stay flat; policy-server uses a fresh instance
 * per call anyway.
 * - `--runtime assembly/rt/compact --use RESET_HEAP_AFTER_CALL=1` (the production build), or
 *   `--runtime stub` with the same define: the whole heap is
 *   reset, one store instead of freeing each object. Safe only because nothing allocated during a
 *   call outlives it: `_start` allocates nothing (a build gate checks) and no global keeps a call's
 *   objects (the JSON DOM drops its scratch first, see `forgetStringScratch`).
 * - `--runtime minimal --use COLLECT_AFTER_CALL=1`: a full collection.
 */
export function releaseCallMemory(): void {
  answeredBefore = true;
  if (isDefined(RESET_HEAP_AFTER_CALL)) heap.reset();
  else if (isDefined(COLLECT_AFTER_CALL)) __collect();
}

let answeredBefore = false;

/** Whether this instance answers its first call (policy-server makes a fresh instance for every
 *  request; kwctl and the Node host may reuse one). */
export function isFirstCall(): bool {
  return !answeredBefore;
}

/** Reads the current invocation (the host has told us both lengths in `__guest_call`) into two
 *  fresh buffers; the payload's buffer keeps `roomBefore` bytes free before it, never written
 *  here, for a response written over the payload (`ValidationResponse.toBytesOver`). */
export function readInvocation(operationLen: i32, payloadLen: i32, roomBefore: i32 = 0): Invocation {
  // the host writes every byte of both (no zero fill first: same pages, half the writes)
  const op = uninitializedBytes(operationLen);
  const room = max(roomBefore, 0);
  const length = max(payloadLen, 0); // as uninitializedBytes did: never a RangeError (a trap)
  const payload = Uint8Array.wrap(uninitializedBuffer(room + length), room, length);
  __guest_request(op.dataStart, payload.dataStart);
  return new Invocation(String.UTF8.decodeUnsafe(op.dataStart, op.length), payload);
}

/** Hands `bytes` to the host as the result of this call. */
export function respondBytes(bytes: Uint8Array): void {
  __guest_response(bytes.dataStart, bytes.length);
}

/** Hands a UTF-8 string to the host as the result of this call. */
export function respondString(text: string): void {
  const buf = String.UTF8.encode(text);
  __guest_response(changetype<usize>(buf), buf.byteLength);
}

/** Records a guest error; the caller then returns 0 from `__guest_call`. */
export function reportGuestError(message: string): void {
  const buf = String.UTF8.encode(message);
  __guest_error(changetype<usize>(buf), buf.byteLength);
}

/** Writes a line to the host log (`__console_log`); never `console.log`, which imports `env`. */
export function consoleLog(message: string): void {
  const buf = String.UTF8.encode(message);
  __console_log(changetype<usize>(buf), buf.byteLength);
}

/** The outcome of a host call: the response bytes, or the host's error text. */
export type HostCallResult = Result<Uint8Array>;

/** Calls `binding/namespace/operation` on the host with `payload`. Never traps. */
export function hostCall(binding: string, namespace: string, operation: string, payload: Uint8Array): HostCallResult {
  // the three names, UTF-8 encoded (as String.UTF8.encode does) back to back in one buffer
  const bl = <i32>String.UTF8.byteLength(binding);
  const nl = <i32>String.UTF8.byteLength(namespace);
  const ol = <i32>String.UTF8.byteLength(operation);
  const buffer = uninitializedBuffer(bl + nl + ol);
  const names = changetype<usize>(buffer);
  String.UTF8.encodeUnsafe(changetype<usize>(binding), binding.length, names);
  String.UTF8.encodeUnsafe(changetype<usize>(namespace), namespace.length, names + <usize>bl);
  String.UTF8.encodeUnsafe(changetype<usize>(operation), operation.length, names + <usize>(bl + nl));
  const ok = __host_call(
    names,
    bl,
    names + <usize>bl,
    nl,
    names + <usize>(bl + nl),
    ol,
    payload.dataStart,
    payload.length,
  );
  if (ok) {
    const len = <i32>__host_response_len();
    const response = uninitializedBytes(len);
    if (len > 0) __host_response(response.dataStart);
    return success<Uint8Array>(response);
  }
  const errLen = <i32>__host_error_len();
  const err = uninitializedBytes(errLen);
  if (errLen > 0) __host_error(err.dataStart);
  return failure<Uint8Array>(new Uint8Array(0), String.UTF8.decodeUnsafe(err.dataStart, errLen));
}

/**
 * Last-resort abort handler, wired with `--use abort=assembly/wapc/index/wapcAbort`. It reports
 * `message at file:line:column` through `__guest_error`, then traps. Policy code never reaches it:
 * under policy-server a trap rejects the request and the trap text replaces this message.
 */
export function wapcAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let text = message !== null ? message : "abort";
  if (fileName !== null) text += " at " + fileName + ":" + u64ToDecimal(<u64>line) + ":" + u64ToDecimal(<u64>column);
  reportGuestError(text);
  unreachable();
}
