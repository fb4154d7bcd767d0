// Semantic equality (docs/wasm-contract.md#json-equality), iterative so request data never drives
// recursion.

import { JsonKind } from "./types";
import { JsonValue } from "./value";
import { decodeStringBody } from "./strings";
import { decimalsEqual, readDecimal } from "./numbers";

/** Semantic equality: objects as unordered key sets (last occurrence wins), numbers by exact
 *  decimal value, strings by decoded text. */
export function jsonEquals(a: JsonValue, b: JsonValue): bool {
  const left = new Array<JsonValue>();
  const right = new Array<JsonValue>();
  left.push(a);
  right.push(b);
  while (left.length > 0) {
    const x = left.pop();
    const y = right.pop();
    if (x === y || sameCleanText(x, y)) continue;
    if (x._kind != y._kind) return false;
    switch (x._kind) {
      case JsonKind.Null:
        break;
      case JsonKind.Bool:
        if (x.asBool().value != y.asBool().value) return false;
        break;
      case JsonKind.Number:
        if (!numbersEqual(x, y)) return false;
        break;
      case JsonKind.String:
        if (stringText(x) != stringText(y)) return false;
        break;
      case JsonKind.Array:
        if (!pushArrayPairs(x, y, left, right)) return false;
        break;
      default:
        if (!pushObjectPairs(x, y, left, right)) return false;
    }
  }
  return true;
}

/** identical clean source text is semantically equal without looking inside */
function sameCleanText(x: JsonValue, y: JsonValue): bool {
  const xb = x._bytes,
    yb = y._bytes;
  if (x.dirty || y.dirty || xb === null || yb === null) return false;
  const n = x._end - x._start;
  if (n != y._end - y._start) return false;
  return memory.compare(xb.dataStart + <usize>x._start, yb.dataStart + <usize>y._start, <usize>n) == 0;
}

function numbersEqual(x: JsonValue, y: JsonValue): bool {
  const xb = x._bytes,
    yb = y._bytes;
  if (xb === null || yb === null) return xb === yb;
  return decimalsEqual(readDecimal(xb.dataStart, x._start, x._end), readDecimal(yb.dataStart, y._start, y._end));
}

/** decoded text; lone surrogates kept as code units so they compare like any other */
function stringText(v: JsonValue): string {
  const b = v._bytes;
  if (b === null) return "";
  const s = decodeStringBody(b.dataStart, v._start + 1, v._end - 1, false);
  return s !== null ? s : "";
}

function pushArrayPairs(x: JsonValue, y: JsonValue, left: Array<JsonValue>, right: Array<JsonValue>): bool {
  const xs = x._children(),
    ys = y._children();
  if (xs.length != ys.length) return false;
  for (let i = 0; i < xs.length; i++) {
    left.push(unchecked(xs[i]));
    right.push(unchecked(ys[i]));
  }
  return true;
}

/** the members that count: the last occurrence of every decoded key */
function effectiveMembers(v: JsonValue): Map<string, JsonValue> {
  const m = new Map<string, JsonValue>();
  const items = v._children();
  for (let i = 0; i < items.length; i++) {
    const item = unchecked(items[i]);
    m.set(item._decodedKey(), item);
  }
  return m;
}

function pushObjectPairs(x: JsonValue, y: JsonValue, left: Array<JsonValue>, right: Array<JsonValue>): bool {
  const mx = effectiveMembers(x),
    my = effectiveMembers(y);
  if (mx.size != my.size) return false;
  const keys = mx.keys();
  for (let i = 0; i < keys.length; i++) {
    const k = unchecked(keys[i]);
    if (!my.has(k)) return false;
    left.push(mx.get(k));
    right.push(my.get(k));
  }
  return true;
}
