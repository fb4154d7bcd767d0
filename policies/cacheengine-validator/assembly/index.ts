// cacheengine-validator entry: waPC dispatch only; the policy lives in policy.ts, the rules in rules.ts.
import { handleGuestCall } from "../../../assembly/kubewarden/index";
import { validate, validateSettings } from "./policy";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  return handleGuestCall(operationLen, payloadLen, validate, validateSettings);
}
