// The guest side of a policy-server-like waPC host: compile a module once, then run every call in
// a fresh instance with only the `wapc` imports, `_start` (then `wapc_init`) before `__guest_call`.
// A module that needs any other import fails to load, naming the import (as policy-server does).
import * as fs from "node:fs";
import { createWapcImports, invokeGuestCall, newCallState, runInitializers } from "./instance";
import type { GuestCallOptions, GuestCallResult } from "./instance";
import { fileErrorText } from "../file-errors";

// the call types live with the instance code that uses them (one direction: guest → instance)
export type { GuestCallOptions, GuestCallResult, HostCallHandler } from "./instance";

export class GuestLoadError extends Error {}

/** The nine waPC host functions policy-server links; any other `wapc` import fails to load. */
export const WAPC_HOST_FUNCTIONS: ReadonlySet<string> = new Set([
  "__guest_request",
  "__guest_response",
  "__guest_error",
  "__host_call",
  "__host_response_len",
  "__host_response",
  "__host_error_len",
  "__host_error",
  "__console_log",
]);

export class PolicyModule {
  readonly module: WebAssembly.Module;
  readonly bytes: Buffer;

  private constructor(
    bytes: Buffer,
    readonly source: string,
  ) {
    this.bytes = bytes;
    try {
      this.module = new WebAssembly.Module(new Uint8Array(bytes));
    } catch (e) {
      throw new GuestLoadError(`${source}: not a valid WebAssembly module: ${(e as Error).message}`);
    }
    for (const imp of WebAssembly.Module.imports(this.module)) {
      if (imp.module !== "wapc" || imp.kind !== "function" || !WAPC_HOST_FUNCTIONS.has(imp.name)) {
        throw new GuestLoadError(
          `${source}: unknown import: ${imp.module}::${imp.name} has not been defined (only the wapc host functions are provided)`,
        );
      }
    }
    const exports = new Map(WebAssembly.Module.exports(this.module).map((e) => [e.name, e.kind]));
    if (exports.get("__guest_call") !== "function") throw new GuestLoadError(`${source}: missing export __guest_call`);
    if (exports.get("memory") !== "memory") throw new GuestLoadError(`${source}: missing export memory`);
  }

  static fromFile(file: string): PolicyModule {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (e) {
      throw new GuestLoadError(`cannot read ${file}: ${fileErrorText(e)}`);
    }
    return new PolicyModule(bytes, file);
  }

  static fromBytes(bytes: Uint8Array, source = "<module>"): PolicyModule {
    return new PolicyModule(Buffer.from(bytes), source);
  }

  /** One guest call in a fresh instance, as policy-server does for every evaluation. */
  call(operation: string, payload: Uint8Array | string, opts: GuestCallOptions = {}): GuestCallResult {
    const started = performance.now();
    const result = this.callInFreshInstance(operation, payload, opts);
    return { ...result, elapsedMs: performance.now() - started };
  }

  private callInFreshInstance(
    operation: string,
    payload: Uint8Array | string,
    opts: GuestCallOptions,
  ): GuestCallResult {
    const state = newCallState(operation, payload, opts);
    let memory: WebAssembly.Memory | undefined;
    let instance: WebAssembly.Instance;
    try {
      instance = new WebAssembly.Instance(this.module, {
        wapc: createWapcImports(
          () => state,
          () => memory,
        ),
      });
    } catch (e) {
      return { ok: false, trapped: true, trap: `instantiation failed: ${(e as Error).message}`, memoryBytes: 0 };
    }
    memory = instance.exports.memory as WebAssembly.Memory;
    try {
      runInitializers(instance);
    } catch (e) {
      return {
        ok: false,
        trapped: true,
        trap: `Initialization failed: ${(e as Error).message}`,
        error: state.guestError,
        memoryBytes: memory.buffer.byteLength,
      };
    }
    return invokeGuestCall(instance, state);
  }
}
