// host-probe: a test guest whose behaviour is chosen by the settings, to exercise the Node host.
// `validate` reads `"probe":"<mode>"` from the payload's settings (the last occurrence, since the
// host serialises `{"request":…,"settings":…}`); `validate_settings` reads `"settings_probe"`.
// String fields are found by text search with a minimal JSON-string unescape: the project's JSON
// DOM is not a dependency of host tests.
import {
  hostCall,
  readInvocation,
  releaseCallMemory,
  reportGuestError,
  respondString,
  consoleLog,
} from "../../../assembly/wapc/index";

let initOrder = "";
initOrder += "S"; // a top-level statement: runs in the exported `_start`
let calls = 0;
let spin: i64 = 0;

/** Runs after `_start` when the host honours the waPC start order. */
export function wapc_init(): void {
  initOrder += "W";
}

/** The JSON string value of the last `"key":"…"` in `text`, unescaped; "" when absent. */
function field(text: string, key: string): string {
  const marker = '"' + key + '":"';
  const at = text.lastIndexOf(marker);
  if (at < 0) return "";
  let out = "";
  let i = at + marker.length;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c == '"') break;
    if (c == "\\") {
      i++;
      const e = text.charAt(i);
      if (e == "n") out += "\n";
      else if (e == "t") out += "\t";
      else out += e; // \" \\ \/
    } else out += c;
    i++;
  }
  return out;
}

function escapeJson(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x22) out += '\\"';
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x0a) out += "\\n";
    else if (c < 0x20) out += "\\u00" + (c < 0x10 ? "0" : "") + c.toString(16);
    else out += String.fromCharCode(c);
  }
  return out + '"';
}

/** `calls` is lines of `binding|namespace|operation|payload`; answers `ok:<body>` / `err:<text>` per line. */
function runHostCalls(script: string): string {
  const lines = script.split("\n");
  const results = new Array<string>();
  for (let i = 0; i < lines.length; i++) {
    const parts = lines[i].split("|", 4);
    if (parts.length < 4) continue;
    const payload = Uint8Array.wrap(String.UTF8.encode(parts[3]));
    const r = hostCall(parts[0], parts[1], parts[2], payload);
    results.push(r.ok ? "ok:" + String.UTF8.decodeUnsafe(r.value.dataStart, r.value.length) : "err:" + r.error);
  }
  return results.join("\n");
}

function validate(text: string): i32 {
  const mode = field(text, "probe");
  if (mode == "reply") {
    respondString(field(text, "reply"));
    return 1;
  }
  if (mode == "state") {
    respondString('{"accepted":true,"message":"init=' + initOrder + " calls=" + calls.toString() + '"}');
    return 1;
  }
  if (mode == "error") {
    reportGuestError(field(text, "error"));
    return 0;
  }
  if (mode == "trap") {
    reportGuestError("written before the trap");
    unreachable();
  }
  if (mode == "abort") {
    throw new Error("probe abort");
  }
  if (mode == "silent") return 1;
  if (mode == "loop") {
    while (spin >= 0) spin++;
    return 0;
  }
  if (mode == "log") {
    consoleLog("probe log line");
  }
  if (mode == "hostcalls") {
    respondString('{"accepted":true,"message":' + escapeJson(runHostCalls(field(text, "calls"))) + "}");
    return 1;
  }
  respondString('{"accepted":true}');
  return 1;
}

function validateSettings(text: string): i32 {
  const mode = field(text, "settings_probe");
  if (mode == "invalid") {
    respondString('{"valid":false,"message":' + escapeJson(field(text, "message")) + "}");
    return 1;
  }
  if (mode == "error") {
    reportGuestError("settings exploded");
    return 0;
  }
  if (mode == "reply") {
    respondString(field(text, "settings_reply"));
    return 1;
  }
  if (mode == "log") consoleLog("probe settings log line");
  respondString('{"valid":true}');
  return 1;
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const rc = dispatch(operationLen, payloadLen);
  releaseCallMemory();
  return rc;
}

function dispatch(operationLen: i32, payloadLen: i32): i32 {
  const inv = readInvocation(operationLen, payloadLen);
  const text = String.UTF8.decodeUnsafe(inv.payload.dataStart, inv.payload.length);
  calls++;
  if (inv.operation == "protocol_version") {
    respondString('"v1"');
    return 1;
  }
  if (inv.operation == "validate_settings") return validateSettings(text);
  if (inv.operation == "validate") return validate(text);
  reportGuestError("unknown operation: " + inv.operation);
  return 0;
}
