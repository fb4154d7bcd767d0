// Parsing into a DOM: one validating pass over the bytes (grammar.ts) records every value, and the
// root node is handed out over those records (value.ts); everything below it is made on demand.
import { Validator } from "./grammar";
import { JsonValue, rootNode } from "./value";

/** The result of parsing: `value` is non-null iff `ok`; `error` names the problem and byte offset. */
export class ParseResult {
  constructor(
    public value: JsonValue | null,
    public error: string,
    public offset: i32,
  ) {}
  get ok(): bool {
    return this.value !== null;
  }
}

/** Strict RFC 8259 parse of UTF-8 bytes; iterative, depth-limited (default 1,000).
 *  The DOM refers to `bytes` instead of copying them: do not modify them while it is in use. */
export function parseJson(bytes: Uint8Array, maxDepth: i32 = 1000): ParseResult {
  const v = new Validator(bytes.dataStart, bytes.length, maxDepth);
  if (!v.run()) return new ParseResult(null, v.message, v.offset);
  return new ParseResult(rootNode(v, bytes), "", 0);
}

/** Convenience: parse the UTF-8 encoding of `text`. */
export function parseJsonString(text: string, maxDepth: i32 = 1000): ParseResult {
  return parseJson(Uint8Array.wrap(String.UTF8.encode(text)), maxDepth);
}
