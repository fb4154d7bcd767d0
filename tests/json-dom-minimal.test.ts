// The JSON DOM suite again on the other runtime the toolchain allows (`--runtime minimal` with a
// collection after every call, docs/wasm-contract.md#build-flags): the production build uses its
// own bump allocator (assembly/rt/compact.ts), and the DOM must work under both.
process.env.JSON_PROBE_RUNTIME = "minimal";
// eslint-disable-next-line @typescript-eslint/no-require-imports
require("./json-dom.test");
