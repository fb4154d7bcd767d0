// Probes the production runtime (assembly/rt/compact.ts) through the production build: block
// layout, zeroed memory after a reset, in-place and moving resizes, the last block's free, memory
// growth. Each operation answers a JSON object of named facts; tests/runtime.test.ts checks them.
import { readInvocation, releaseCallMemory, reportGuestError, respondString } from "../../../assembly/wapc/index";

class Base {}

class Three extends Base {
  a: i32 = 1;
  b: i32 = 2;
  c: i32 = 3;
}

class Wide {
  tag: i32 = 5;
  value: f64 = 0;
}

let facts = "";
function fact(name: string, value: string): void {
  facts += (facts.length > 0 ? "," : "") + '"' + name + '":' + value;
}
function num(name: string, value: i64): void {
  fact(name, value.toString());
}

/** where the runtime would place the next block's payload */
function nextPayload(): usize {
  const probe = __alloc(0);
  __free(probe);
  return probe;
}

function layout(): void {
  const x = new Three();
  const y = new Three();
  const px = changetype<usize>(x);
  const py = changetype<usize>(y);
  num("distance", <i64>(py - px));
  num("align", <i64>(px & 3));
  num("classIdMatches", load<u32>(px - 8) == idof<Three>() ? 1 : 0);
  num("size", <i64>load<u32>(px - 4));
  const s = "ab".repeat(3);
  num("stringLength", s.length);
  num("stringBytes", <i64>load<u32>(changetype<usize>(s) - 4));
  num("bufferLength", new ArrayBuffer(13).byteLength);
  const w = new Wide();
  w.value = 3.25;
  num("wideAlign", <i64>(changetype<usize>(w) & 7));
  fact("wideValue", w.value.toString());
  const base: Base = x; // a run-time class test: reads the class id before the object
  num("instanceofOk", base instanceof Three ? 1 : 0);
}

// "dirty" and "zeros" have names and payloads of one length, so on one instance their blocks
// land at the same addresses: what "dirty" wrote is what "zeros" is handed after the reset.
function dirty(): void {
  const a = new StaticArray<i32>(64);
  for (let i = 0; i < 64; i++) a[i] = 0x7f7f7f7f;
  const b = new Array<i32>(8);
  for (let i = 0; i < 40; i++) b.push(-1);
  const c = new ArrayBuffer(300);
  memory.fill(changetype<usize>(c), 0xee, 300);
  num("at", <i64>changetype<usize>(a));
}

function zeros(): void {
  const a = new StaticArray<i32>(64);
  num("at", <i64>changetype<usize>(a));
  let nonZero = 0;
  for (let i = 0; i < 64; i++) if (a[i] != 0) nonZero++;
  const b = new Array<i32>(8);
  b.length = 48;
  for (let i = 0; i < 48; i++) if (b[i] != 0) nonZero++;
  const c = new ArrayBuffer(300);
  for (let i = 0; i < 300; i++) if (load<u8>(changetype<usize>(c) + i) != 0) nonZero++;
  num("nonZero", nonZero);
}

function resize(): void {
  // every address first: recording a fact allocates
  const first = changetype<usize>(new ArrayBuffer(8));
  store<u64>(first, 0x0102030405060708);
  const grown = __renew(first, 4000);
  const after = changetype<usize>(new Three());
  const moved = __renew(grown, 8000);
  const movedSize = load<u32>(moved - 4);
  const shrunk = __renew(moved, 10);
  const next = nextPayload();
  const inner = __renew(first, 4);
  const last = changetype<usize>(new Three());
  __free(last);
  const reused = changetype<usize>(new Three());
  num("lastGrowsInPlace", grown == first ? 1 : 0);
  num("nextAfterGrown", <i64>(after - grown));
  num("innerMoves", moved != grown ? 1 : 0);
  num("movedKeepsBytes", load<u64>(moved) == 0x0102030405060708 ? 1 : 0);
  num("movedKeepsClass", load<u32>(moved - 8) == idof<ArrayBuffer>() ? 1 : 0);
  num("movedSize", <i64>movedSize);
  num("lastShrinksInPlace", shrunk == moved ? 1 : 0);
  num("nextAfterShrunk", <i64>(next - shrunk));
  num("innerShrinksInPlace", inner == first ? 1 : 0);
  num("innerShrunkSize", <i64>load<u32>(first - 4));
  num("freedLastReused", reused == last ? 1 : 0);
}

function grow(): void {
  const before = memory.size();
  const big = changetype<usize>(new ArrayBuffer(300 * 1024));
  store<u8>(big + 300 * 1024 - 1, 9);
  num("grewPages", memory.size() - before);
  num("lastByte", load<u8>(big + 300 * 1024 - 1));
  num("fitsInMemory", big + 300 * 1024 <= (<usize>memory.size()) << 16 ? 1 : 0);
}

export function __guest_call(operationLen: i32, payloadLen: i32): i32 {
  const op = readInvocation(operationLen, payloadLen).operation;
  facts = "";
  let rc = 1;
  if (op == "layout") layout();
  else if (op == "dirty") dirty();
  else if (op == "zeros") zeros();
  else if (op == "resize") resize();
  else if (op == "grow") grow();
  else if (op == "heapStart") num("at", <i64>nextPayload());
  else rc = 0;
  if (rc == 1) respondString("{" + facts + "}");
  else reportGuestError("unknown operation: " + op);
  facts = "";
  releaseCallMemory();
  return rc;
}
