// Serialization of the DOM: clean nodes are one copy of their source text; dirty containers are
// re-emitted compactly, iteratively (request data never drives recursion). Generic over the node
// type `N` (value.ts writes with JsonValue), so the writer depends only on the document's tables and
// the node table, and the node on the writer: one direction.
import {
  CHAR_CLOSE_BRACE,
  CHAR_CLOSE_BRACKET,
  CHAR_COLON,
  CHAR_COMMA,
  CHAR_OPEN_BRACE,
  CHAR_OPEN_BRACKET,
  CHAR_QUOTE,
} from "./chars";
import { handedOut, NodeDoc } from "./nodes";
import { ByteSink } from "./sink";
import { keyEndOffset, keyGap, keyLength, recordSlot, slotEnd, slotKeyWord, slotNext, slotStart } from "./table";
import { JsonKind } from "./types";

/** Writes `root` to `sink`. */
export function writeValue<N>(root: N, sink: ByteSink): void {
  if (writeLeaf<N>(root, sink)) return;
  const stack = new Array<N>();
  const next = new Array<i32>();
  openContainer<N>(root, sink, stack, next);
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = unchecked(stack[top]);
    const doc = node._doc;
    if (doc !== null && node.readsRecords()) {
      // dirty below, but its own member list never changed (at most items were pushed after it):
      // walk the records (as _children() would), writing untouched members straight from the
      // source without creating nodes, then the pushed tail
      writeRecordStep<N>(node, doc, sink, stack, next, top);
      continue;
    }
    const items = node._children();
    const i = unchecked(next[top]);
    if (i >= items.length) {
      closeContainer<N>(node, sink, stack, next);
      continue;
    }
    unchecked((next[top] = i + 1));
    if (i > 0) sink.writeByte(<u8>CHAR_COMMA);
    const child = unchecked(items[i]);
    if (node._kind == JsonKind.Object) writeKey<N>(child, sink);
    if (!writeLeaf<N>(child, sink)) openContainer<N>(child, sink, stack, next);
  }
}

/** one step of a records walk: `next[top]` is 0 before the first member, then the value index of
 *  the next member; past the records, -1 - k for item k of the pushed tail */
function writeRecordStep<N>(
  node: N,
  doc: NodeDoc<N>,
  sink: ByteSink,
  stack: Array<N>,
  next: Array<i32>,
  top: i32,
): void {
  const table = doc.table;
  const limit = table.next(node._vi);
  let vi = unchecked(next[top]);
  const first = vi == 0;
  if (first) vi = node._vi + 1;
  if (vi < 0 || vi >= limit) {
    writeTailStep<N>(node, sink, stack, next, top, vi < 0 ? -1 - vi : 0, limit > node._vi + 1);
    return;
  }
  if (!first) sink.writeByte(<u8>CHAR_COMMA);
  if (writeCompactRun<N>(doc, node._kind == JsonKind.Object, vi, limit, sink, next, top)) return;
  const after = table.next(vi);
  unchecked((next[top] = after <= vi ? -1 : after));
  const bytes = doc.bytes;
  if (node._kind == JsonKind.Object) {
    sink.writeByte(<u8>CHAR_QUOTE);
    sink.writeBytes(bytes, table.keyStart(vi), keyEndOffset(table.keyEnd(vi)));
    sink.writeByte(<u8>CHAR_QUOTE);
    sink.writeByte(<u8>CHAR_COLON);
  }
  const child = doc.existing(vi);
  if (child === null) {
    sink.writeBytes(bytes, table.start(vi), table.end(vi));
  } else if (!writeLeaf<N>(child, sink)) {
    openContainer<N>(child, sink, stack, next);
  }
}

/** Writes the untouched members from `vi` on whose source is compact — one comma between them and,
 *  in an object, `"key":` before each value — as one copy of that source (the bytes are the ones
 *  member-by-member writing gives), and sets `next[top]` past them; false, writing nothing, when
 *  member `vi` does not start such a run. One edit of a list of 50,000 items or an object of
 *  130,000 members re-emitted each of them separately. */
function writeCompactRun<N>(
  doc: NodeDoc<N>,
  isObject: bool,
  vi: i32,
  limit: i32,
  sink: ByteSink,
  next: Array<i32>,
  top: i32,
): bool {
  const table = doc.table;
  // every index below `limit` is a record, read without per-field checks
  limit = min(limit, table.count);
  const records = changetype<usize>(table.data);
  const from = compactStart(records, vi, isObject);
  if (from < 0 || handedOut(doc, vi)) return false;
  const base = doc.bytes.dataStart;
  let last = vi;
  let end = slotEnd(recordSlot(records, vi));
  let after = slotNext(recordSlot(records, vi));
  while (
    after > last &&
    after < limit &&
    <u32>load<u8>(base + <usize>end) == CHAR_COMMA &&
    compactStart(records, after, isObject) == end + 1 &&
    !handedOut(doc, after)
  ) {
    last = after;
    const slot = recordSlot(records, after);
    end = slotEnd(slot);
    after = slotNext(slot);
  }
  unchecked((next[top] = after <= last ? -1 : after));
  sink.writeBytes(doc.bytes, from, end);
  return true;
}

/** where member `i`'s compact source starts: its value, or in an object the quote before its key
 *  when `":` joins key and value; -1 otherwise */
// @ts-ignore: decorator
@inline function compactStart(records: usize, i: i32, isObject: bool): i32 {
  const slot = recordSlot(records, i);
  const start = slotStart(slot);
  if (!isObject) return start;
  const w = slotKeyWord(slot);
  return keyGap(w) == 2 ? start - 3 - keyLength(w) : -1;
}

/** writes item (or member) k of the tail added after `node`'s records (`afterRecords`: some record was written
 *  before it), or closes `node` past the last */
function writeTailStep<N>(
  node: N,
  sink: ByteSink,
  stack: Array<N>,
  next: Array<i32>,
  top: i32,
  k: i32,
  afterRecords: bool,
): void {
  const tail = node._items;
  if (!node._itemsAreTail || tail === null || k >= tail.length) {
    closeContainer<N>(node, sink, stack, next);
    return;
  }
  unchecked((next[top] = -2 - k));
  if (k > 0 || afterRecords) sink.writeByte(<u8>CHAR_COMMA);
  const child = unchecked(tail[k]);
  if (node._kind == JsonKind.Object) writeKey<N>(child, sink);
  if (!writeLeaf<N>(child, sink)) openContainer<N>(child, sink, stack, next);
}

/** writes a node that needs no descent (clean text or a scalar); false for a dirty container */
function writeLeaf<N>(v: N, sink: ByteSink): bool {
  const bytes = v._bytes;
  if (bytes !== null && !v._dirty) {
    sink.writeBytes(bytes, v._outerStart, v._outerEnd);
    return true;
  }
  if (v.isContainer()) return false;
  if (bytes !== null) sink.writeBytes(bytes, v._start, v._end);
  else sink.writeUtf8("null"); // a bare node (`new JsonValue()`)
  return true;
}

function openContainer<N>(v: N, sink: ByteSink, stack: Array<N>, next: Array<i32>): void {
  sink.writeByte(<u8>(v._kind == JsonKind.Object ? CHAR_OPEN_BRACE : CHAR_OPEN_BRACKET));
  stack.push(v);
  next.push(0);
}

// @ts-ignore: decorator
@inline function closeContainer<N>(v: N, sink: ByteSink, stack: Array<N>, next: Array<i32>): void {
  sink.writeByte(<u8>(v._kind == JsonKind.Object ? CHAR_CLOSE_BRACE : CHAR_CLOSE_BRACKET));
  stack.pop();
  next.pop();
}

function writeKey<N>(member: N, sink: ByteSink): void {
  sink.writeByte(<u8>CHAR_QUOTE);
  const kb = member._keyBytes;
  if (kb !== null) sink.writeBytes(kb, member._keyStart, member._keyEnd);
  sink.writeByte(<u8>CHAR_QUOTE);
  sink.writeByte(<u8>CHAR_COLON);
}
