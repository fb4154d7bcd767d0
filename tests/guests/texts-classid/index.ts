// Test-only guest for tests/texts.test.ts: a module that tests a text's class at run time
// (`instanceof` reads the class id 8 bytes before the string), so the texts transform must give
// its texts the 8-byte header; policies compile no such test and get the 4-byte one.
/* eslint-disable @typescript-eslint/no-wrapper-object-types -- AssemblyScript's `Object`, the class every
   managed object (a string too) extends, not JavaScript's wrapper type */
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

class Box {
  constructor(public value: Object) {}
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const op = readInvocation(operationLen, payloadLen).operation;
  if (op != "classid") {
    reportGuestError("unknown operation: " + op);
    releaseCallMemory();
    return 0;
  }
  const boxed = new Box(changetype<Object>("a text"));
  const other = new Box(new Box(changetype<Object>("")));
  respondString(
    (boxed.value instanceof String ? "string" : "not a string") +
      "," +
      (other.value instanceof String ? "string" : "not a string"),
  );
  releaseCallMemory();
  return 1;
}
