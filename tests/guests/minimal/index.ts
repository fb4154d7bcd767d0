// The smallest waPC guest the project can build, and the benchmark's yardstick (issue 8): it
// imports the whole waPC set a context-aware policy needs (request, response, error, `__host_call`
// with its four readers, console log), reads the whole request and answers `validate` with
// `{"accepted":true}`. A policy's start-up and fresh evaluation are judged against what the
// protocol alone costs on the same bytes. Built exactly like a policy (compileTestGuest).
import {
  consoleLog,
  hostCall,
  readInvocation,
  releaseCallMemory,
  reportGuestError,
  respondString,
} from "../../../assembly/wapc/index";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  let rc = 1;
  const op = invocation.operation;
  if (op == "validate" || op == "validate_settings") {
    respondString('{"accepted":true}');
  } else if (op == "protocol_version") {
    respondString('"v1"');
  } else if (op == "host_call") {
    // keeps `__host_call` and its readers (and the log) imported, as in a context-aware policy
    const r = hostCall("kubewarden", "kubernetes", "get_resource", invocation.payload);
    if (!r.ok) consoleLog(r.error);
    respondString(r.ok ? "true" : "false");
  } else {
    reportGuestError("unknown operation: " + op);
    rc = 0;
  }
  releaseCallMemory();
  return rc;
}
