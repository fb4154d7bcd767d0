// The benchmark's instance helpers: the start-up policy-server pays per evaluation, and the warm
// path (one instance reused; policy-server never does this, docs/wasm-contract.md#fresh-instances)
// that isolates the policy's own work from instantiation. The import object is the host's own
// (tools/host/instance.ts).
import { createWapcImports, newCallState, runInitializers } from "../host/instance";

export { WarmInstance, createWapcImports, newCallState } from "../host/instance";
export type { WapcCallState } from "../host/instance";

/** The start-up policy-server pays per evaluation: instantiate, then `_start` and `wapc_init`. */
export function instantiateAndStart(module: WebAssembly.Module): WebAssembly.Instance {
  // start-up never calls the host; the state only satisfies the import functions' signature
  const idle = newCallState("", "");
  let memory: WebAssembly.Memory | undefined;
  const instance = new WebAssembly.Instance(module, {
    wapc: createWapcImports(
      () => idle,
      () => memory,
    ),
  });
  memory = instance.exports.memory as WebAssembly.Memory;
  runInitializers(instance);
  return instance;
}

/** Instantiates (untimed), then returns the ns that `_start` + `wapc_init` alone take. */
export function timeStartOnly(module: WebAssembly.Module): number {
  const idle = newCallState("", "");
  let memory: WebAssembly.Memory | undefined;
  const instance = new WebAssembly.Instance(module, {
    wapc: createWapcImports(
      () => idle,
      () => memory,
    ),
  });
  memory = instance.exports.memory as WebAssembly.Memory;
  const t0 = process.hrtime.bigint();
  runInitializers(instance);
  return Number(process.hrtime.bigint() - t0);
}
