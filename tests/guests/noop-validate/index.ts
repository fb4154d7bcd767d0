// The no-logic reference of the hostile-input benchmark (tools/bench/hostile.ts): a waPC guest that
// reads the whole request into its memory and answers `validate` with `{"accepted":true}`, so a
// policy's cost on a hostile request is judged against what receiving the same bytes costs.
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  let rc = 1;
  if (invocation.operation == "validate") respondString('{"accepted":true}');
  else if (invocation.operation == "protocol_version") respondString('"v1"');
  else if (invocation.operation == "validate_settings") respondString('{"valid":true}');
  else {
    reportGuestError("unknown operation: " + invocation.operation);
    rc = 0;
  }
  releaseCallMemory();
  return rc;
}
