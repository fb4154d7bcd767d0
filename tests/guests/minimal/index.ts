// The smallest waPC guest the project can build: the hand-written ABI and nothing else. The
// benchmark instantiates it next to every policy, so a policy's start-up cost is judged against
// what the protocol alone costs (issue 2: start-up within 1.2x of this guest).
import { readInvocation, reportGuestError, respondString } from "../../../assembly/wapc/index";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  if (invocation.operation == "protocol_version") {
    respondString("\"v1\"");
    return 1;
  }
  reportGuestError("unknown operation: " + invocation.operation);
  return 0;
}
