// The `wapc` import object every Node-side caller of a guest uses: `PolicyModule.call` (a fresh
// instance per call, like policy-server) and `WarmInstance` (one instance reused, the benchmark's
// warm path). Only the nine wapc functions exist; memory views are re-read after every call
// because they detach on grow; the host-call response and error are cleared before each host call.
/** Answers `__host_call(binding, namespace, operation, payload)`: bytes on success, an error text otherwise. */
export type HostCallHandler = (
  binding: string,
  namespace: string,
  operation: string,
  payload: Buffer,
) => { ok: true; response: Buffer } | { ok: false; error: string };

export interface GuestCallOptions {
  /** answers host calls; default: every call fails with "host capabilities are not available" */
  hostCall?: HostCallHandler;
  /** receives `__console_log` lines */
  log?: (line: string) => void;
}

export interface GuestCallResult {
  /** `__guest_call` returned 1 and set a response */
  ok: boolean;
  /** the `__guest_response` bytes */
  response?: Buffer;
  /** the `__guest_error` text, or the host's own "no response" text */
  error?: string;
  /** the module trapped (in `_start`, `wapc_init` or `__guest_call`) */
  trapped: boolean;
  /** the trap text: `Initialization failed: …` for `_start`/`wapc_init`, `wasm trap: …` for the call */
  trap?: string;
  /** wall time of instantiate + init + call, in ms (policy-server's deadline covers init and call); set by `call` */
  elapsedMs?: number;
  /** linear memory size after the call, in bytes */
  memoryBytes: number;
}

/** Mutable state of the call in progress, read and written by the wapc import functions. */
export interface WapcCallState {
  operation: Buffer;
  payload: Buffer;
  response?: Buffer;
  guestError?: string;
  hostResponse?: Buffer;
  hostError?: Buffer;
  hostCall: HostCallHandler;
  log?: (line: string) => void;
}

const NO_HOST_CAPABILITIES: HostCallHandler = () => ({ ok: false, error: "host capabilities are not available" });

export function newCallState(
  operation: string,
  payload: Uint8Array | string,
  opts: GuestCallOptions = {},
): WapcCallState {
  return {
    operation: Buffer.from(operation, "utf8"),
    // the host only reads the payload (copies it into guest memory), so a caller's Buffer is used as is
    payload:
      typeof payload === "string"
        ? Buffer.from(payload, "utf8")
        : Buffer.isBuffer(payload)
          ? payload
          : Buffer.from(payload),
    hostCall: opts.hostCall ?? NO_HOST_CAPABILITIES,
    log: opts.log,
  };
}

/**
 * The `wapc` import functions over `state()` (the call in progress) and `memory()` (the instance's
 * exported memory, known only after instantiation).
 */
export function createWapcImports(
  state: () => WapcCallState,
  memory: () => WebAssembly.Memory | undefined,
): Record<string, (...args: number[]) => number | void> {
  let view: Buffer | undefined;
  const mem = (): Buffer => {
    const m = memory();
    if (!m) throw new Error("guest called the host before its memory was exported");
    // a grown memory has a new buffer (the old one is detached): re-create the view then only
    if (view === undefined || view.buffer !== m.buffer) view = Buffer.from(m.buffer);
    return view;
  };
  const checked = (m: Buffer, ptr: number, len: number): void => {
    if (ptr < 0 || len < 0 || ptr + len > m.length)
      throw new RangeError(`guest passed an out-of-range buffer (${ptr}+${len})`);
  };
  /** a copy: guest memory is reused by the next call */
  const slice = (ptr: number, len: number): Buffer => {
    const m = mem();
    checked(m, ptr, len);
    return Buffer.from(m.subarray(ptr, ptr + len));
  };
  /** decoded straight from guest memory, no intermediate copy */
  const text = (ptr: number, len: number): string => {
    const m = mem();
    checked(m, ptr, len);
    return m.toString("utf8", ptr, ptr + len);
  };
  return {
    __guest_request(opPtr: number, ptr: number): void {
      const s = state();
      mem().set(s.operation, opPtr);
      mem().set(s.payload, ptr);
    },
    __guest_response(ptr: number, len: number): void {
      state().response = slice(ptr, len);
    },
    __guest_error(ptr: number, len: number): void {
      state().guestError = text(ptr, len);
    },
    __host_call(
      bp: number,
      bl: number,
      np: number,
      nl: number,
      op: number,
      ol: number,
      pp: number,
      pl: number,
    ): number {
      const s = state();
      s.hostResponse = undefined;
      s.hostError = undefined;
      const r = s.hostCall(text(bp, bl), text(np, nl), text(op, ol), slice(pp, pl));
      if (r.ok) {
        s.hostResponse = r.response;
        return 1;
      }
      s.hostError = Buffer.from(r.error, "utf8");
      return 0;
    },
    __host_response_len(): number {
      const s = state();
      return s.hostResponse ? s.hostResponse.length : 0;
    },
    __host_response(ptr: number): void {
      const s = state();
      if (s.hostResponse) mem().set(s.hostResponse, ptr);
    },
    __host_error_len(): number {
      const s = state();
      return s.hostError ? s.hostError.length : 0;
    },
    __host_error(ptr: number): void {
      const s = state();
      if (s.hostError) mem().set(s.hostError, ptr);
    },
    __console_log(ptr: number, len: number): void {
      state().log?.(text(ptr, len));
    },
  };
}

/** `_start` then `wapc_init`, when exported, as wasmtime-provider does after instantiation. */
export function runInitializers(instance: WebAssembly.Instance): void {
  const ex = instance.exports as Record<string, unknown>;
  if (typeof ex._start === "function") (ex._start as () => void)();
  if (typeof ex.wapc_init === "function") (ex.wapc_init as () => void)();
}

/** One `__guest_call` over `state`, reported as wapc's host would see it. */
export function invokeGuestCall(instance: WebAssembly.Instance, state: WapcCallState): GuestCallResult {
  const memoryBytes = (): number => (instance.exports.memory as WebAssembly.Memory).buffer.byteLength;
  let rc: number;
  try {
    rc = (instance.exports.__guest_call as (a: number, b: number) => number)(
      state.operation.length,
      state.payload.length,
    );
  } catch (e) {
    // wasmtime-provider replaces any `__guest_error` text with the trap's own text
    return {
      ok: false,
      trapped: true,
      trap: `wasm trap: ${(e as Error).message}`,
      error: state.guestError,
      memoryBytes: memoryBytes(),
    };
  }
  if (rc === 1) {
    if (state.response === undefined)
      return {
        ok: false,
        trapped: false,
        error: "No error message OR response set for call success",
        memoryBytes: memoryBytes(),
      };
    return { ok: true, trapped: false, response: state.response, memoryBytes: memoryBytes() };
  }
  return {
    ok: false,
    trapped: false,
    error: state.guestError ?? "No error message set for call failure",
    memoryBytes: memoryBytes(),
  };
}

/** One instance, started once, answering many `__guest_call`s. A trap poisons it. */
export class WarmInstance {
  private current: WapcCallState = newCallState("", "");
  private readonly instance: WebAssembly.Instance;
  private readonly memory: WebAssembly.Memory;
  private trapped?: string;

  constructor(readonly module: WebAssembly.Module) {
    let memory: WebAssembly.Memory | undefined;
    this.instance = new WebAssembly.Instance(module, {
      wapc: createWapcImports(
        () => this.current,
        () => memory,
      ),
    });
    memory = this.instance.exports.memory as WebAssembly.Memory;
    this.memory = memory;
    runInitializers(this.instance);
  }

  /** Current linear memory size in bytes (memory never shrinks, so this is the peak so far). */
  get memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** One `__guest_call` on this instance; the result has the same shape as `PolicyModule.call`. */
  call(operation: string, payload: Uint8Array | string, opts: GuestCallOptions = {}): GuestCallResult {
    if (this.trapped !== undefined) {
      return {
        ok: false,
        trapped: true,
        trap: `instance is unusable after an earlier trap: ${this.trapped}`,
        memoryBytes: this.memoryBytes,
      };
    }
    const state = newCallState(operation, payload, opts);
    this.current = state;
    const result = invokeGuestCall(this.instance, state);
    if (result.trapped) this.trapped = result.trap;
    return result;
  }
}
