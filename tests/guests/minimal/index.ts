// The smallest waPC guest the project can build: the hand-written ABI and nothing else. The
// benchmark instantiates it next to every policy, so a policy's start-up cost is judged against
// what the protocol alone costs (issue 2: start-up within 1.2x of this guest).
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  let rc = 0;
  if (invocation.operation == "protocol_version") {
    respondString("\"v1\"");
    rc = 1;
  } else {
    reportGuestError("unknown operation: " + invocation.operation);
  }
  releaseCallMemory();
  return rc;
}
