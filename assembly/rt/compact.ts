// The production runtime: a bump allocator like AssemblyScript's `stub`, with an 8-byte block
// header and 4-byte alignment instead of a 20-byte header and 16-byte alignment.
//
// Why (issue 8): policy-server evaluates every request on a fresh instance, where each 4 KiB page
// first written is a page fault that costs more than the evaluation's own work. An evaluation
// allocates 170-460 objects, most of them 8-60 bytes; the stub spent 20-48 bytes on each block's
// header and padding. Without a collector only two header words are ever read: the class id
// (`instanceof`, at ptr - 8) and the byte size (`String#length`, `ArrayBuffer#byteLength`, at
// ptr - 4), and both keep their standard places. The two GC words and the block-size word of the
// standard layout are not stored at all; the size word doubles as the block's size.
//
// Memory from `__new`/`__renew` reads as zeros, as the standard library expects of this runtime
// kind (it skips its own fills when ASC_RUNTIME is not stub or minimal). Memory past the highest
// address ever handed out is still as instantiation left it, zero, so on a fresh instance nothing
// is filled; after `__reset` (RESET_HEAP_AFTER_CALL) reused memory below that mark is cleared when
// it is handed out again.
//
// Alignment 4: no field wider than 4 bytes is read often enough for a misaligned 8-byte access
// to matter (wasm allows them), and strings, the most common block, are 2-aligned anyway.
import { BLOCK_MAXSIZE } from "~lib/rt/common";
import { E_ALLOCATION_TOO_LARGE } from "~lib/util/error";

// @ts-ignore: decorator
@inline const HEADER: usize = 8;
// @ts-ignore: decorator
@inline const AL_MASK: usize = 3;

// @ts-ignore: decorator
@lazy const startOffset: usize = (__heap_base + AL_MASK) & ~AL_MASK;
// @ts-ignore: decorator
@lazy let offset: usize = startOffset;
/** memory at and above this address has never been handed out: it is still zero */
// @ts-ignore: decorator
@lazy let pristine: usize = startOffset;

// @ts-ignore: decorator
@inline function alignUp(n: usize): usize {
  return (n + AL_MASK) & ~AL_MASK;
}

function growMemoryTo(end: usize): void {
  const pagesBefore = memory.size();
  const maxOffset = (<usize>pagesBefore) << 16;
  if (end > maxOffset) {
    const pagesNeeded = <i32>((end - maxOffset + 0xffff) >>> 16);
    const pagesWanted = max(pagesBefore, pagesNeeded); // doubles, as the stub does
    if (memory.grow(pagesWanted) < 0) {
      if (memory.grow(pagesNeeded) < 0) unreachable(); // out of memory
    }
  }
}

/** [from, to) reads as zeros afterwards; only memory handed out before needs the fill (none on
 *  a fresh instance) */
// @ts-ignore: decorator
@inline function clear(from: usize, to: usize): void {
  if (from < pristine) memory.fill(from, 0, min(to, pristine) - from);
}

/** a block of `size` bytes with class id `id` at the heap's end */
function allocate(size: usize, id: u32): usize {
  if (size > BLOCK_MAXSIZE - HEADER) throw new Error(E_ALLOCATION_TOO_LARGE);
  const ptr = offset + HEADER;
  const end = ptr + alignUp(size);
  if (end < ptr) unreachable(); // past 4 GiB: out of memory, as a failed grow
  growMemoryTo(end);
  clear(ptr, ptr + size);
  store<u32>(ptr - 8, id);
  store<u32>(ptr - 4, <u32>size);
  offset = end;
  if (end > pristine) pristine = end;
  return ptr;
}

/** the block at `ptr` resized to `size`: in place when it is the last one, else a copy */
function resize(ptr: usize, size: usize): usize {
  const oldSize = <usize>load<u32>(ptr - 4);
  if (ptr + alignUp(oldSize) == offset) {
    if (size > BLOCK_MAXSIZE - HEADER) throw new Error(E_ALLOCATION_TOO_LARGE);
    const end = ptr + alignUp(size);
    if (end < ptr) unreachable(); // past 4 GiB: out of memory, as a failed grow
    growMemoryTo(end);
    if (size > oldSize) clear(ptr + oldSize, ptr + size);
    store<u32>(ptr - 4, <u32>size);
    offset = end;
    if (end > pristine) pristine = end;
    return ptr;
  }
  if (size <= oldSize) {
    // shrunk in place; the tail stays allocated until the reset
    store<u32>(ptr - 4, <u32>size);
    return ptr;
  }
  const moved = allocate(size, load<u32>(ptr - 8));
  memory.copy(moved, ptr, oldSize);
  return moved;
}

// @ts-ignore: decorator
@global
function __alloc(size: usize): usize {
  return allocate(size, 0);
}

// @ts-ignore: decorator
@global
function __realloc(ptr: usize, size: usize): usize {
  return resize(ptr, size);
}

// @ts-ignore: decorator
@global
function __free(ptr: usize): void {
  if (ptr + alignUp(<usize>load<u32>(ptr - 4)) == offset) offset = ptr - HEADER;
}

// @ts-ignore: decorator
@global
function __reset(): void {
  offset = startOffset;
}

// @ts-ignore: decorator
@global
function __new(size: usize, id: u32): usize {
  return allocate(size, id);
}

// @ts-ignore: decorator
@global
function __renew(oldPtr: usize, size: usize): usize {
  return resize(oldPtr, size);
}

// @ts-ignore: decorator
@global
function __link(_parentPtr: usize, _childPtr: usize, _expectMultiple: bool): void {
  // nop: no collector
}

// @ts-ignore: decorator
@global
function __pin(ptr: usize): usize {
  return ptr;
}

// @ts-ignore: decorator
@global
function __unpin(_ptr: usize): void {
  // nop
}

// @ts-ignore: decorator
@global
function __visit(_ptr: usize, _cookie: u32): void {
  // nop
}

// @ts-ignore: decorator
@global
function __collect(): void {
  // nop
}
