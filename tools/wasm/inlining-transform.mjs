// asc transform of the production build: binaryen's inlining limits, which asc hard-codes per
// optimisation level (at -O3: functions up to 12 nodes always inlined, up to 70 nodes when called
// from several places, loops included). Every call site of a helper gets its own copy, and on this
// project's code that was a sixth of policy.wasm (lmcache-injector 60.2 → 52.3 KB) for about 4 %
// of warm time (docs/benchmarks.md, "Inlining limits"). The limits below keep the tiny accessors
// inlined and leave larger helpers as calls; the hot helpers that need inlining say `@inline`.
//
// asc sets the limits inside `Module#optimize` right before it runs the passes, and a transform
// has no hook between the two, so the setters are wrapped here (this module is loaded in asc's
// process, with the same `assemblyscript` instance). A missing setter fails the build instead of
// silently building with asc's limits.
import { Module } from "assemblyscript";

/** binaryen inlining limits, in expression nodes */
export const INLINING = {
  setAlwaysInlineMaxSize: 6,
  setFlexibleInlineMaxSize: 2,
  setAllowInliningFunctionsWithLoops: false,
};

for (const [setter, value] of Object.entries(INLINING)) {
  const original = Module.prototype[setter];
  if (typeof original !== "function")
    throw new Error(`inlining-transform: assemblyscript's Module has no ${setter} (a changed asc version?)`);
  if (original.cwWrapped) continue;
  const wrapped = function () {
    return original.call(this, value);
  };
  wrapped.cwWrapped = true;
  Module.prototype[setter] = wrapped;
}

export default class CachewardenInlining {}
