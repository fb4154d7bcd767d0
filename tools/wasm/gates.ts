// Structural gates (docs/wasm-contract.md#structural-gates, plus `_start` allocating nothing) for
// any module path or buffer.
// V8 validates the module; our own reader supplies signatures and the start section, which the JS
// reflection API hides. The start-section gate is the only defence against the epoch trap under
// policy-server (a JS host cannot reproduce it), so it is never skipped.
import * as fs from "node:fs";
import { PolicyModule, WAPC_HOST_FUNCTIONS } from "../host/guest";
import { metadataProblems } from "./metadata";
import { formatFuncType, METADATA_SECTION, readStructure, sameFuncType, WasmStructure } from "./wasm";
import { fileErrorText } from "../file-errors";

export class GateError extends Error {}

export interface GateOptions {
  /**
   * "required": an annotated module, exactly one valid metadata section (annotated-policy.wasm).
   * "absent": an unannotated module, no metadata section (policy.wasm, before the annotator).
   */
  metadata: "required" | "absent";
}

function importProblems(s: WasmStructure): string[] {
  const problems: string[] = [];
  for (const imp of s.imports) {
    if (imp.kind === "memory" || imp.kind === "table") {
      problems.push(
        `imports ${imp.kind} ${imp.module}.${imp.name} (${imp.kind} must be defined by the module, never imported)`,
      );
    } else if (imp.module !== "wapc") {
      const what = imp.module.startsWith("wasi") ? "WASI" : `module "${imp.module}"`;
      problems.push(`imports ${imp.module}.${imp.name} from ${what} (only wapc.* imports are allowed)`);
    } else if (imp.kind !== "function" || !WAPC_HOST_FUNCTIONS.has(imp.name)) {
      // policy-server links only the nine waPC functions: anything else fails at load there
      problems.push(`imports ${imp.kind} wapc.${imp.name}, which is not one of the waPC host functions`);
    }
  }
  return problems;
}

function exportProblems(s: WasmStructure): string[] {
  const problems: string[] = [];
  const byName = new Map(s.exports.map((e) => [e.name, e]));
  const guestCall = byName.get("__guest_call");
  if (!guestCall || guestCall.kind !== "function")
    problems.push("missing export __guest_call (function (i32, i32) -> i32)");
  else if (!sameFuncType(guestCall.type, ["i32", "i32"], ["i32"]))
    problems.push(`export __guest_call has signature ${formatFuncType(guestCall.type)}, expected (i32, i32) -> i32`);
  const memory = byName.get("memory");
  if (!memory || memory.kind !== "memory") problems.push('missing export memory (a memory named exactly "memory")');
  const start = byName.get("_start");
  if (!start || start.kind !== "function")
    problems.push("missing export _start (function () -> (); build with --exportStart _start)");
  else if (!sameFuncType(start.type, [], []))
    problems.push(`export _start has signature ${formatFuncType(start.type)}, expected () -> ()`);
  return problems;
}

function startSectionProblems(s: WasmStructure): string[] {
  return s.hasStartSection
    ? ["has a wasm start section (it traps under policy-server's epoch interruption; build with --exportStart _start)"]
    : [];
}

/** Gate 4: the metadata section count and, for an annotated module, its payload. */
export function metadataSectionProblems(s: WasmStructure, expect: GateOptions["metadata"]): string[] {
  const sections = s.customSections.filter((c) => c.name === METADATA_SECTION);
  if (expect === "absent") {
    return sections.length === 0
      ? []
      : [`carries ${sections.length} ${METADATA_SECTION} section(s); an unannotated module must carry none`];
  }
  if (sections.length !== 1) return [`carries ${sections.length} ${METADATA_SECTION} sections, expected exactly 1`];
  let doc: unknown;
  try {
    doc = JSON.parse(sections[0].data.toString("utf8"));
  } catch (e) {
    return [`${METADATA_SECTION} payload is not valid JSON (${(e as Error).message})`];
  }
  const problems = metadataProblems(doc, { requireProtocolVersion: true }).map((p) => `${METADATA_SECTION}: ${p}`);
  if (problems.length > 0) return problems;
  const meta = doc as Record<string, unknown>;
  // Both must be written out: policy-server reads them from the section, and the annotator always writes them.
  const shown = (v: unknown): string => (v === undefined ? "missing" : `is ${JSON.stringify(v)}`);
  if (meta.protocolVersion !== "v1")
    problems.push(`${METADATA_SECTION}: protocolVersion ${shown(meta.protocolVersion)}, expected "v1"`);
  if (meta.executionMode !== "kubewarden-wapc")
    problems.push(`${METADATA_SECTION}: executionMode ${shown(meta.executionMode)}, expected "kubewarden-wapc"`);
  return problems;
}

/** Response bytes for a message: short printable text verbatim in backticks, anything else JSON-escaped. */
export function showBytes(b: Buffer): string {
  const text = b.toString("utf8");
  const shown = /^[\x20-\x7e]{0,60}$/.test(text)
    ? `\`${text}\``
    : JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
  return `${shown} (${b.length} bytes)`;
}

function describeFailedCall(op: string, r: ReturnType<PolicyModule["call"]>): string {
  if (r.trapped) return `${op} trapped: ${r.trap}${r.error ? ` (guest error: ${r.error})` : ""}`;
  return `${op} failed: ${r.error ?? "no response"}`;
}

/** Gate 5: the module answers `protocol_version` with exactly `"v1"` and `validate_settings {}` with JSON. */
export function smokeProblems(bytes: Uint8Array, source: string): string[] {
  let mod: PolicyModule;
  try {
    mod = PolicyModule.fromBytes(bytes, source);
  } catch (e) {
    return [(e as Error).message];
  }
  const problems: string[] = [];
  const pv = mod.call("protocol_version", new Uint8Array(0));
  if (!pv.ok || !pv.response) problems.push(describeFailedCall("protocol_version", pv));
  else if (!pv.response.equals(Buffer.from('"v1"')))
    problems.push(`protocol_version returned ${showBytes(pv.response)}, expected exactly \`"v1"\` (4 bytes)`);
  const vs = mod.call("validate_settings", "{}");
  if (!vs.ok || !vs.response) problems.push(describeFailedCall("validate_settings {}", vs));
  else problems.push(...settingsResponseProblems(vs.response));
  return problems;
}

function settingsResponseProblems(response: Buffer): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.toString("utf8"));
  } catch (e) {
    return [`validate_settings {} returned invalid JSON ${showBytes(response)}: ${(e as Error).message}`];
  }
  if (
    parsed === null ||
    typeof parsed !== "object" ||
    Array.isArray(parsed) ||
    typeof (parsed as { valid?: unknown }).valid !== "boolean"
  ) {
    return [`validate_settings {} returned ${showBytes(response)}, expected an object with a boolean "valid"`];
  }
  return [];
}

/**
 * Gate 6: `_start` leaves linear memory exactly as instantiation made it. The production runtime
 * resets the whole heap after every call (assembly/wapc `releaseCallMemory`), which would clobber
 * anything a global initialiser allocated in `_start`; any allocation writes at least a block
 * header, so "no byte changed" means "nothing allocated".
 */
export function startWriteProblems(bytes: Uint8Array): string[] {
  let instance: WebAssembly.Instance;
  try {
    const module = new WebAssembly.Module(new Uint8Array(bytes));
    const noop = (): number => 0;
    const wapc = Object.fromEntries(WebAssembly.Module.imports(module).map((i) => [i.name, noop]));
    instance = new WebAssembly.Instance(module, { wapc });
  } catch (e) {
    return [`cannot instantiate to check _start: ${(e as Error).message}`];
  }
  const memory = instance.exports.memory as WebAssembly.Memory;
  const before = new Uint8Array(memory.buffer).slice();
  try {
    (instance.exports._start as () => void)();
  } catch (e) {
    return [`_start trapped: ${(e as Error).message}`];
  }
  const after = new Uint8Array(memory.buffer);
  let first = -1;
  let changed = 0;
  for (let i = 0; i < after.length; i++) {
    if ((i < before.length ? before[i] : 0) !== after[i]) {
      if (first < 0) first = i;
      changed++;
    }
  }
  if (changed === 0) return [];
  return [
    `_start writes linear memory (${changed} byte(s) changed, the first at offset ${first}): a global initialiser allocates, and the heap reset after each call would clobber it; make the global lazy or a static value`,
  ];
}

/** Every gate problem of a module; empty when it passes. `source` names it in messages. */
export function gateProblems(bytes: Uint8Array, source: string, opts: GateOptions): string[] {
  try {
    new WebAssembly.Module(new Uint8Array(bytes));
  } catch (e) {
    return [`not a valid WebAssembly module: ${(e as Error).message}`];
  }
  let structure: WasmStructure;
  try {
    structure = readStructure(bytes);
  } catch (e) {
    return [`cannot read module structure: ${(e as Error).message}`];
  }
  const structural = [...importProblems(structure), ...exportProblems(structure), ...startSectionProblems(structure)];
  const metadata = metadataSectionProblems(structure, opts.metadata);
  // A module that cannot link or lacks the ABI cannot be smoke-run; its structural problems say why.
  const smoke = structural.length === 0 ? [...startWriteProblems(bytes), ...smokeProblems(bytes, source)] : [];
  return [...structural, ...metadata, ...smoke];
}

/** Throws a one-line GateError `<label>: <problem>; <problem>` when any gate fails. */
export function assertGates(bytes: Uint8Array, label: string, opts: GateOptions): void {
  const problems = gateProblems(bytes, label, opts);
  if (problems.length > 0) throw new GateError(`${label}: ${problems.join("; ")}`);
}

export function checkModuleFile(file: string, opts: GateOptions): string[] {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    return [`cannot read (${fileErrorText(e)})`];
  }
  return gateProblems(bytes, file, opts);
}
