// lmcache-injector: the waPC entry point. All logic lives in policy.ts, plan.ts and settings.ts.
import { handleGuestCall } from "../../../assembly/kubewarden/index";
import { validate } from "./policy";
import { validateSettings } from "./settings";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  return handleGuestCall(operationLen, payloadLen, validate, validateSettings);
}
