// Lossless raw-span JSON DOM over UTF-8 bytes (toolchain.md §4.3).
//
// PUBLIC API CONTRACT — other modules code against these names and signatures:
//   types.ts  JsonKind, ReadState, Read<T>
//   sink.ts   ByteSink
//   value.ts  ParseResult, parseJson, parseJsonString, JsonValue
//   equals.ts jsonEquals
// Never traps on any input: parse errors, wrong kinds and out-of-range indices are values.
// Nothing here knows about Kubernetes; it needs only the AssemblyScript standard library and
// works under `--runtime minimal` (with __collect between calls), `stub` and `incremental`.
//
// Design: parseJson validates the whole input in one iterative pass and records only where each
// container ends; nodes are spans into the input and containers materialise their direct children
// on first access. A clean node serializes as one copy of its source bytes; mutations mark the
// path to the root dirty, and only dirty containers are re-emitted (compactly).
// Members whose names start with `_` are internal.

export { JsonKind, ReadState, Read } from "./types";
export { ByteSink } from "./sink";
export { ParseResult, parseJson, parseJsonString, JsonValue } from "./value";
export { jsonEquals } from "./equals";
