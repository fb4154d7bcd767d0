// Test-only waPC guests for the build gates, written as WAT and assembled with wabt. `goodGuest()`
// is a minimal module that passes every gate; each option breaks exactly one rule.
import wabtInit from "wabt";

export interface GuestOptions {
  /** extra WAT import lines (e.g. an `env` or WASI import) */
  extraImports?: string;
  /** import the memory from `wapc` instead of defining it (still exported as `memory`) */
  importMemory?: boolean;
  /** export the memory as `memory` (default true) */
  exportMemory?: boolean;
  /** export `_start` () -> () (default true) */
  exportStart?: boolean;
  /** export `__guest_call` (default true) */
  exportGuestCall?: boolean;
  /** export `__guest_call` with (i32, i64) -> i32 instead of (i32, i32) -> i32 */
  wrongGuestCallSignature?: boolean;
  /** add a wasm start section (what AS emits without --exportStart) */
  startSection?: boolean;
  /** `_start` also stores into linear memory (what a global initialiser that allocates does) */
  startWritesMemory?: boolean;
  /** bytes `protocol_version` responds with (default the 4 bytes "v1") */
  protocolVersion?: string;
  /** bytes `validate_settings` responds with (default {"valid":true}) */
  settingsResponse?: string;
}

/** WAT data strings: escape `"` and `\` (test payloads are ASCII). */
function watString(s: string): string {
  return s.replace(/\\/g, "\\5c").replace(/"/g, "\\22");
}

export function guestWat(o: GuestOptions = {}): string {
  const pv = o.protocolVersion ?? '"v1"';
  const settings = o.settingsResponse ?? '{"valid":true}';
  const accepted = '{"accepted":true}';
  const unknown = "unknown operation";
  const memory = o.importMemory ? '(import "wapc" "memory" (memory 1))' : "(memory 1)";
  const lines = [
    "(module",
    '  (import "wapc" "__guest_request" (func $request (param i32 i32)))',
    '  (import "wapc" "__guest_response" (func $response (param i32 i32)))',
    '  (import "wapc" "__guest_error" (func $error (param i32 i32)))',
    o.extraImports ?? "",
    `  ${memory}`,
    o.exportMemory === false ? "" : '  (export "memory" (memory 0))',
    `  (data (i32.const 16) "${watString(pv)}")`,
    `  (data (i32.const 64) "${watString(settings)}")`,
    `  (data (i32.const 128) "${watString(accepted)}")`,
    `  (data (i32.const 256) "${unknown}")`,
    "  (global $initialised (mut i32) (i32.const 0))",
    o.startWritesMemory
      ? "  (func $init (global.set $initialised (i32.const 1)) (i32.store (i32.const 8192) (i32.const 28)))"
      : "  (func $init (global.set $initialised (i32.const 1)))",
    o.exportStart === false ? "" : '  (export "_start" (func $init))',
    o.startSection ? "  (start $init)" : "",
    // Dispatch on the operation length: protocol_version = 16, validate_settings = 17, validate = 8.
    "  (func $dispatch (param $opLen i32) (param $msgLen i32) (result i32)",
    "    (call $request (i32.const 1024) (i32.const 4096))",
    `    (if (i32.eq (local.get $opLen) (i32.const 16)) (then (call $response (i32.const 16) (i32.const ${Buffer.byteLength(pv)})) (return (i32.const 1))))`,
    `    (if (i32.eq (local.get $opLen) (i32.const 17)) (then (call $response (i32.const 64) (i32.const ${Buffer.byteLength(settings)})) (return (i32.const 1))))`,
    `    (if (i32.eq (local.get $opLen) (i32.const 8)) (then (call $response (i32.const 128) (i32.const ${accepted.length})) (return (i32.const 1))))`,
    `    (call $error (i32.const 256) (i32.const ${unknown.length}))`,
    "    (i32.const 0))",
    o.exportGuestCall === false
      ? ""
      : o.wrongGuestCallSignature
        ? '  (func (export "__guest_call") (param i32 i64) (result i32) (call $dispatch (local.get 0) (i32.wrap_i64 (local.get 1))))'
        : '  (export "__guest_call" (func $dispatch))',
    ")",
  ];
  return lines.filter((l) => l !== "").join("\n");
}

let wabtPromise: ReturnType<typeof wabtInit> | undefined;

export async function watToWasm(name: string, wat: string): Promise<Buffer> {
  wabtPromise ??= wabtInit();
  const wabt = await wabtPromise;
  const mod = wabt.parseWat(name, wat);
  try {
    return Buffer.from(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

export function guestWasm(name: string, o: GuestOptions = {}): Promise<Buffer> {
  return watToWasm(`${name}.wat`, guestWat(o));
}
