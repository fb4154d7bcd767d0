// Test-only guest for tests/texts.test.ts: every kind of string the texts transform rewrites or
// leaves alone (tools/wasm/texts-transform.mjs), answered as one line per case, so the test can
// compare what the built module says with what the source says.
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

// @ts-ignore: decorator
@lazy
const LAZY_CONSTANT = "a lazy constant";
const PLAIN_CONSTANT = "a non-lazy constant";
// eslint-disable-next-line prefer-const -- the probe needs a mutable top-level string variable
let plainVariable = "a top-level variable";

const SHADOWED = "the global constant";

// a local with a constant's name: reads of it must stay reads of the local
function shadowing(suffix: string): string {
  const SHADOWED = "the local " + suffix;
  return SHADOWED;
}

class Holder {
  static readonly STATIC_FIELD: string = "a static field";
  field: string = "an instance field";
}

function defaulted(text: string = "a default parameter"): string {
  return text;
}

// never called, so never compiled: its text must not take bytes in the module
// eslint-disable-next-line @typescript-eslint/no-unused-vars
function neverCalled(): string {
  return "a text no compiled code reads";
}

function answer(): string {
  const lines = [
    "plain ASCII",
    'quote " backslash \\ tab \t newline \n end',
    "two-byte é, three-byte → €, four-byte 😀, separator \u2028",
    LAZY_CONSTANT,
    PLAIN_CONSTANT,
    plainVariable,
    Holder.STATIC_FIELD,
    new Holder().field,
    defaulted(),
    "concat " + LAZY_CONSTANT + " and " + "literal",
    shadowing("variable") + " / " + SHADOWED,
    "",
    // more than one entry of the texts' table (16 texts each), and a text whose encoded body passes
    // 255 bytes, so every length takes two bytes (tools/wasm/texts-dictionary.mjs)
    ["t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09", "t10", "t11", "t12", "t13", "t14", "t15"].join(","),
    "ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĲĳĴĵĶķĸĹĺĻļĽľĿŀŁłŃńŅņŇňŉŊŋŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷ",
  ];
  return lines.join("|");
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const invocation = readInvocation(operationLen, payloadLen);
  let rc = 1;
  if (invocation.operation == "protocol_version") respondString('"v1"');
  else if (invocation.operation == "texts") respondString(answer());
  else {
    reportGuestError("unknown operation: " + invocation.operation);
    rc = 0;
  }
  releaseCallMemory();
  return rc;
}
