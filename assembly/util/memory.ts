// Allocation without the zero fill. On a fresh instance (policy-server makes one per request)
// every 4 KiB page written for the first time is a page fault, so a buffer sized for the worst
// case but zero-filled touches pages the evaluation never uses. These are for buffers whose
// readers only ever read what was written first (docs/decisions.md, "Pages per evaluation").
// Under the production runtime (assembly/rt/compact.ts) a plain `new ArrayBuffer` costs the same
// (it clears only memory handed out before); these keep `stub` and `minimal` builds as lean.

/** an ArrayBuffer of `n` bytes whose contents are undefined until written */
export function uninitializedBuffer(n: i32): ArrayBuffer {
  return changetype<ArrayBuffer>(__new(<usize>max(n, 0), idof<ArrayBuffer>()));
}

/** a StaticArray<i32> of `n` items whose contents are undefined until written */
export function uninitializedI32s(n: i32): StaticArray<i32> {
  return changetype<StaticArray<i32>>(__new((<usize>max(n, 0)) << 2, idof<StaticArray<i32>>()));
}

/** a Uint8Array of `n` bytes whose contents are undefined until written (the host fills it) */
export function uninitializedBytes(n: i32): Uint8Array {
  return Uint8Array.wrap(uninitializedBuffer(n));
}
