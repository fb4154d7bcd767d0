// Test-only guest for tests/json-dom.test.ts: applies a scripted edit to a JSON document with the
// DOM and responds with the step results and the serialized bytes. Built with the production flags.
//
// Operations (payload):
//   identity  <document>                      → the document re-serialized
//   edit      <script length>\n<script><doc>  → <JSON array of step results>\n<serialized doc>
//   equals    <length of a>\n<a><b>           → "true" | "false"
//   parse     <document>                      → empty (validating pass only); noop → empty
// A document that does not parse answers a guest error "parse error: …".
import { readInvocation, releaseCallMemory, respondBytes, reportGuestError } from "../../../assembly/wapc/index";
import {
  ByteSink,
  JsonValue,
  ReadState,
  forgetStringScratch,
  jsonEquals,
  parseJson,
} from "../../../assembly/json/index";

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const inv = readInvocation(operationLen, payloadLen);
  const ok = dispatch(inv.operation, inv.payload);
  forgetStringScratch();
  releaseCallMemory();
  return ok ? 1 : 0;
}

function dispatch(op: string, payload: Uint8Array): bool {
  if (op == "identity") return identity(payload);
  if (op == "edit") return edit(payload);
  if (op == "equals") return equals(payload);
  if (op == "parse") return parseOnly(payload);
  if (op == "noop") {
    respondBytes(new Uint8Array(0));
    return true;
  }
  reportGuestError("unknown operation: " + op);
  return false;
}

function fail(message: string): bool {
  reportGuestError(message);
  return false;
}

function identity(payload: Uint8Array): bool {
  const r = parseJson(payload);
  const v = r.value;
  if (v === null) return fail("parse error: " + r.error);
  respondBytes(v.toBytes());
  return true;
}

/** parses without serializing (timing of the validating pass) */
function parseOnly(payload: Uint8Array): bool {
  const r = parseJson(payload);
  if (r.value === null) return fail("parse error: " + r.error);
  respondBytes(new Uint8Array(0));
  return true;
}

/** splits `<decimal length>\n<first><rest>`; null when malformed */
function split(payload: Uint8Array): Uint8Array[] | null {
  let i = 0;
  let len = 0;
  while (i < payload.length && payload[i] != 0x0a) {
    const d = <i32>payload[i] - 0x30;
    if (d < 0 || d > 9) return null;
    len = len * 10 + d;
    i++;
  }
  i++;
  if (i + len > payload.length) return null;
  return [payload.subarray(i, i + len), payload.subarray(i + len)];
}

function equals(payload: Uint8Array): bool {
  const parts = split(payload);
  if (parts === null) return fail("bad framing");
  const a = parseJson(parts[0]).value;
  const b = parseJson(parts[1]).value;
  if (a === null || b === null) return fail("parse error");
  respondBytes(Uint8Array.wrap(String.UTF8.encode(jsonEquals(a, b) ? "true" : "false")));
  return true;
}

function edit(payload: Uint8Array): bool {
  const parts = split(payload);
  if (parts === null) return fail("bad framing");
  const script = parseJson(parts[0]).value;
  if (script === null) return fail("bad script");
  const r = parseJson(parts[1]);
  const doc = r.value;
  if (doc === null) return fail("parse error: " + r.error);
  const out = new ByteSink();
  out.writeByte(0x5b);
  for (let i = 0; i < script.size(); i++) {
    if (i > 0) out.writeByte(0x2c);
    const step = script.at(i);
    if (step === null) return fail("bad step");
    runStep(doc, step, out);
  }
  out.writeByte(0x5d);
  out.writeByte(0x0a);
  doc.writeTo(out);
  respondBytes(out.bytes());
  return true;
}

function text(step: JsonValue, i: i32): string {
  const v = step.at(i);
  return v === null ? "" : v.asString().value;
}

function int(step: JsonValue, i: i32): i32 {
  const v = step.at(i);
  return v === null ? -1 : <i32>v.asI64().value;
}

/** follows a path of keys (strings) and indices (numbers) through live nodes */
function walk(doc: JsonValue, path: JsonValue | null): JsonValue | null {
  if (path === null) return null;
  let node: JsonValue | null = doc;
  for (let i = 0; i < path.size() && node !== null; i++) {
    const seg = path.at(i);
    if (seg === null) return null;
    node = seg.isString() ? node.get(seg.asString().value) : node.at(<i32>seg.asI64().value);
  }
  return node;
}

/** ["json", text] | ["str", text] | ["units", [u16…]] | ["int", decimal] | ["raw", numberText] | ["bool", b] | ["null"] | ["obj"] | ["arr"] */
function makeValue(spec: JsonValue | null): JsonValue | null {
  if (spec === null) return null;
  const tag = text(spec, 0);
  if (tag == "json") return JsonValue.parse(Uint8Array.wrap(String.UTF8.encode(text(spec, 1))));
  if (tag == "str") return JsonValue.str(text(spec, 1));
  if (tag == "units") return JsonValue.str(fromUnits(spec.at(1)));
  if (tag == "int") return JsonValue.int(I64.parseInt(text(spec, 1)));
  if (tag == "raw") return JsonValue.rawNumber(text(spec, 1));
  if (tag == "bool") {
    const b = spec.at(1);
    return JsonValue.bool(b !== null && b.asBool().value);
  }
  if (tag == "null") return JsonValue.nul();
  if (tag == "obj") return JsonValue.object();
  if (tag == "arr") return JsonValue.array();
  return null;
}

/** a string from UTF-16 code units, so scripts can carry lone surrogates */
function fromUnits(list: JsonValue | null): string {
  const units = new Array<i32>();
  if (list !== null)
    for (let i = 0; i < list.size(); i++) {
      const u = list.at(i);
      if (u !== null) units.push(<i32>u.asI64().value);
    }
  return String.fromCharCodes(units);
}

function writeBool(out: ByteSink, b: bool): void {
  out.writeUtf8(b ? "true" : "false");
}

function writeRead(out: ByteSink, state: ReadState, value: string): void {
  out.writeUtf8("[" + (<i32>state).toString() + ",");
  out.writeJsonString(value);
  out.writeUtf8("]");
}

/** one step; writes its result (a boolean, or [state, value] for reads) */
function runStep(doc: JsonValue, step: JsonValue, out: ByteSink): void {
  const op = text(step, 0);
  const node = walk(doc, step.at(1));
  if (node === null) {
    out.writeUtf8("null");
    return;
  }
  if (op == "set") {
    const v = makeValue(step.at(3));
    writeBool(out, v !== null && node.set(text(step, 2), v));
    return;
  }
  if (op == "remove") {
    writeBool(out, node.remove(text(step, 2)));
    return;
  }
  if (op == "push") {
    const v = makeValue(step.at(2));
    writeBool(out, v !== null && node.push(v));
    return;
  }
  if (op == "insert") {
    const v = makeValue(step.at(3));
    writeBool(out, v !== null && node.insert(int(step, 2), v));
    return;
  }
  if (op == "removeAt") {
    writeBool(out, node.removeAt(int(step, 2)));
    return;
  }
  if (op == "replace") {
    const v = makeValue(step.at(3));
    writeBool(out, v !== null && node.replace(int(step, 2), v));
    return;
  }
  if (op == "raw") {
    out.writeJsonString(node.rawText());
    return;
  }
  if (op == "keys") {
    out.writeByte(0x5b);
    for (let i = 0; i < node.size(); i++) {
      if (i > 0) out.writeByte(0x2c);
      out.writeJsonString(node.keyAt(i));
    }
    out.writeByte(0x5d);
    return;
  }
  if (op == "string") {
    const r = node.asString();
    writeRead(out, r.state, r.value);
    return;
  }
  if (op == "i64") {
    const r = node.asI64();
    writeRead(out, r.state, r.value.toString());
    return;
  }
  if (op == "u64") {
    const r = node.asU64();
    writeRead(out, r.state, r.value.toString());
    return;
  }
  if (op == "f64") {
    const r = node.asF64();
    writeRead(out, r.state, reinterpret<u64>(r.value).toString());
    return;
  }
  if (op == "bool") {
    const r = node.asBool();
    writeRead(out, r.state, r.value ? "true" : "false");
    return;
  }
  out.writeUtf8('"unknown step"');
}
