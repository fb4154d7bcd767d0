// A deliberately broken guest for tests/fuzz.test.ts: it proves the fuzzer can fail. It behaves
// like a validator that accepts everything, but scans the payload's bracket nesting into a
// fixed-size stack without checking the depth -- the classic recursive-parser bug. Any input
// nested deeper than MAX_DEPTH indexes past the stack, the bounds check aborts, and the module
// traps (unreachable). Every other input gets `{"accepted":true}`.
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

const MAX_DEPTH = 512;

function scanNesting(payload: Uint8Array): void {
  const stack = new StaticArray<u8>(MAX_DEPTH);
  let depth = 0;
  for (let i = 0; i < payload.length; i++) {
    const c = payload[i];
    if (c == 0x5b || c == 0x7b) {
      stack[depth] = c;
      depth++;
    } // BUG (on purpose): no depth check
    else if ((c == 0x5d || c == 0x7d) && depth > 0) depth--;
  }
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const rc = dispatch(operationLen, payloadLen);
  releaseCallMemory();
  return rc;
}

function dispatch(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  if (invocation.operation == "validate") {
    scanNesting(invocation.payload);
    respondString('{"accepted":true}');
    return 1;
  }
  if (invocation.operation == "validate_settings") {
    respondString('{"valid":true}');
    return 1;
  }
  if (invocation.operation == "protocol_version") {
    respondString('"v1"');
    return 1;
  }
  reportGuestError("unknown operation: " + invocation.operation);
  return 0;
}
