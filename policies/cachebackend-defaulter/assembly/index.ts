// cachebackend-defaulter entry: waPC dispatch only; the request in policy.ts, the reading in
// backend.ts, the steps in steps.ts, the writing in apply.ts, the settings in settings.ts.
import { handleGuestCall, ROOM_FOR_EDITS } from "../../../assembly/kubewarden/index";
import { validate } from "./policy";
import { validateSettings } from "./settings";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  return handleGuestCall(operationLen, payloadLen, validate, validateSettings, ROOM_FOR_EDITS);
}
