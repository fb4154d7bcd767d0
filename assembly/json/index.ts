// Lossless raw-span JSON DOM over UTF-8 bytes (docs/wasm-contract.md#json-dom).
//
// PUBLIC API CONTRACT — other modules code against these names and signatures:
//   types.ts     JsonKind, ReadState, Read<T>
//   sink.ts      ByteSink
//   parse.ts     ParseResult, parseJson, parseJsonString
//   document.ts  isJsonObjectText
//   value.ts     JsonValue
//   arena.ts     forgetStringScratch
//   equals.ts    jsonEquals
// Internal files, each importing only the ones below it (docs/architecture.md#the-json-dom):
// value.ts (the node) → parse.ts sits above it; below it writer.ts (serialization), probes.ts
// (record probes without a node), literal.ts (raw string-literal matching), nodes.ts (the nodes
// handed out per document), document.ts (the document's tables and record walks), arena.ts
// (decoded strings), keys.ts (raw text compared with strings), strings.ts (string bodies: escapes
// found, strict decoding), grammar.ts (the validating pass), table.ts (the parse table's records),
// numbers.ts (number text), sink.ts, types.ts, chars.ts (character codes).
// Never traps on any input: parse errors, wrong kinds and out-of-range indices are values.
// Nothing here knows about Kubernetes; it needs only the AssemblyScript standard library and
// works under `--runtime minimal` (with __collect between calls), `stub`, `incremental` and the
// production runtime (assembly/rt/compact.ts).
//
// Design: parseJson validates the whole input in one iterative pass and records every value's
// span, raw key and next sibling; nodes are spans into the input. An untouched container answers
// get/has/at/keyAt/size from the records, creating only the node it returns (kept unique per
// document), and builds its full child list only when first mutated or iterated as a whole.
// A clean node serializes as one copy of its source bytes; mutations mark the path to the root
// dirty, and only dirty containers are re-emitted (compactly).
// Members whose names start with `_` are internal: only files of assembly/json read them.

export { JsonKind, ReadState, Read } from "./types";
export { ByteSink } from "./sink";
export { ParseResult, parseJson, parseJsonString } from "./parse";
export { isJsonObjectText } from "./document";
export { JsonValue } from "./value";
export { forgetStringScratch } from "./arena";
export { jsonEquals } from "./equals";
