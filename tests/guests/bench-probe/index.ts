// Benchmark probe: the JSON DOM (assembly/json) behind the bare waPC ABI (assembly/wapc), with no
// policy logic, so the benchmark can time the DOM alone against JSON.parse + JSON.stringify.
//   parse_serialize  parse the payload, serialize it untouched, respond with the bytes
//   parse            parse only; respond with `true` (so parse cost can be separated from output)
//   protocol_version "v1"
// Like the policies, it frees the call's memory after each call, so a warm instance timed for
// thousands of calls stays flat.
import { forgetStringScratch, parseJson } from "../../../assembly/json/index";
import {
  readInvocation,
  releaseCallMemory,
  reportGuestError,
  respondBytes,
  respondString,
} from "../../../assembly/wapc/index";

function parseSerialize(payload: Uint8Array): i32 {
  const parsed = parseJson(payload);
  const value = parsed.value;
  if (value === null) {
    reportGuestError("parse error at " + parsed.offset.toString() + ": " + parsed.error);
    return 0;
  }
  respondBytes(value.toBytes());
  return 1;
}

function parseOnly(payload: Uint8Array): i32 {
  const parsed = parseJson(payload);
  if (parsed.value === null) {
    reportGuestError("parse error at " + parsed.offset.toString() + ": " + parsed.error);
    return 0;
  }
  respondString("true");
  return 1;
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  const operation = invocation.operation;
  let rc = 0;
  if (operation == "parse_serialize") rc = parseSerialize(invocation.payload);
  else if (operation == "parse") rc = parseOnly(invocation.payload);
  else if (operation == "protocol_version") {
    respondString('"v1"');
    rc = 1;
  } else reportGuestError("unknown operation: " + operation);
  forgetStringScratch();
  releaseCallMemory();
  return rc;
}
