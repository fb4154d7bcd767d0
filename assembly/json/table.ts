// The parse table: one 16-byte record per value of a validated document, written by the validator
// (grammar.ts) and read by the DOM (document.ts, value.ts, writer.ts). Every offset and bit of a
// record is named here; the hot loops read records through the @inline slot accessors below,
// which compile to the same single loads as hand-written offsets.
import { uninitializedI32s } from "../util/memory";

/** i32s per value record, and the shift from an index to its byte offset (16 bytes) */
export const RECORD_I32S: i32 = 4;
export const RECORD_SHIFT: usize = 4;

// byte offsets of a record's four fields
// @ts-ignore: decorator
@inline const AT_START: usize = 0;
// @ts-ignore: decorator
@inline const AT_END: usize = 4;
// @ts-ignore: decorator
@inline const AT_NEXT: usize = 8;
// @ts-ignore: decorator
@inline const AT_KEY: usize = 12;

/** key word: bits 0-19 the raw key's length; bits 20-30 the gap, all ones = in the side list;
 *  bit 31 the key contains a backslash */
export const KEY_LENGTH_MASK: i32 = 0xfffff;
export const KEY_GAP_WIDE: i32 = 0x7ff;
// @ts-ignore: decorator
@inline const KEY_GAP_SHIFT: u32 = 20;
/** bit 31 of a key word, and of a key end handed to `add` or returned by `keyEnd` */
// @ts-ignore: decorator
@inline export const KEY_ESCAPED: i32 = 1 << 31;

/** the address of record i in the table data at `data` (no range check: i < count) */
// @ts-ignore: decorator
@inline export function recordSlot(data: usize, i: i32): usize {
  return data + ((<usize>i) << RECORD_SHIFT);
}
/** the start of the value whose record is at `slot` */
// @ts-ignore: decorator
@inline export function slotStart(slot: usize): i32 {
  return load<i32>(slot, AT_START);
}
/** the end of the value whose record is at `slot` */
// @ts-ignore: decorator
@inline export function slotEnd(slot: usize): i32 {
  return load<i32>(slot, AT_END);
}
/** the first value after the subtree of the value whose record is at `slot` */
// @ts-ignore: decorator
@inline export function slotNext(slot: usize): i32 {
  return load<i32>(slot, AT_NEXT);
}
/** the key word of the record at `slot` */
// @ts-ignore: decorator
@inline export function slotKeyWord(slot: usize): i32 {
  return load<i32>(slot, AT_KEY);
}

/** the gap field of key word `w` (KEY_GAP_WIDE: the span is in the side list) */
// @ts-ignore: decorator
@inline export function keyGap(w: i32): i32 {
  return (w >>> KEY_GAP_SHIFT) & KEY_GAP_WIDE;
}
/** the raw key length of key word `w` (meaningful unless its gap is KEY_GAP_WIDE) */
// @ts-ignore: decorator
@inline export function keyLength(w: i32): i32 {
  return w & KEY_LENGTH_MASK;
}
/** a key end from `keyEnd` without its escaped bit */
// @ts-ignore: decorator
@inline export function keyEndOffset(ke: i32): i32 {
  return ke & ~KEY_ESCAPED;
}

/**
 * One record per value of a validated document, in document (pre-)order: four i32 per value,
 * [start, end, next, key] where [start, end) is the value's text, `next` the index of the first
 * value after this one's subtree (its next sibling when it has one), and `key` where the raw member
 * key lies between its quotes (0 for array items and the root): `escaped << 31 | gap << 20 | length`,
 * with `gap` the bytes from the key's closing quote to the value (2 for `":`), `length` the raw
 * key's bytes and `escaped` whether it contains a backslash. A key too long or too far from its
 * value for those bits (never in real requests) keeps its span in a side list. A container's first
 * child is its own index + 1, so children are found, compared by key and counted without
 * rescanning any text. 16 bytes per value: on a fresh instance the table is, after the request
 * and the response, the largest thing an evaluation writes.
 */
export class ValueTable {
  data: StaticArray<i32>;
  count: i32 = 0;
  /** (index, keyStart, keyEnd) of the members whose key does not fit the key word, by index */
  private wide: StaticArray<i32> | null = null;
  private wideCount: i32 = 0;

  constructor(capacity: i32) {
    // not zero-filled: only added records are read, and unused capacity stays untouched pages
    this.data = uninitializedI32s(max(capacity, 4) * RECORD_I32S);
  }

  /** the address of record i (no range check) */
  @inline slot(i: i32): usize {
    return recordSlot(changetype<usize>(this.data), i);
  }

  /** a new value starting at `start` (its end and next are set when it ends); returns its index.
   *  `keyEnd` carries KEY_ESCAPED; (0, 0) for a value without a key. */
  add(start: i32, keyStart: i32, keyEnd: i32): i32 {
    const i = this.count;
    if ((i + 1) * RECORD_I32S > this.data.length) this.grow();
    const slot = this.slot(i);
    store<i32>(slot, start, AT_START);
    store<i32>(slot, 0, AT_END);
    store<i32>(slot, i + 1, AT_NEXT);
    let key = 0;
    if (keyStart != 0 || keyEnd != 0) {
      const ke = keyEndOffset(keyEnd);
      const gap = start - ke;
      const length = ke - keyStart;
      key = keyEnd & KEY_ESCAPED;
      if (<u32>gap < <u32>KEY_GAP_WIDE && <u32>length <= <u32>KEY_LENGTH_MASK) key |= (gap << KEY_GAP_SHIFT) | length;
      else {
        key |= KEY_GAP_WIDE << KEY_GAP_SHIFT;
        this.addWide(i, keyStart, ke);
      }
    }
    store<i32>(slot, key, AT_KEY);
    this.count = i + 1;
    return i;
  }

  /** the value i (added, so in range) ends at `end`; its subtree ends here too */
  @inline close(i: i32, end: i32): void {
    const slot = this.slot(i);
    store<i32>(slot, end, AT_END);
    store<i32>(slot, this.count, AT_NEXT);
  }

  // Growing and trimming go through the runtime's reallocation, which a bump runtime does in
  // place for the last allocation (the validator allocates nothing else while it fills the table):
  // no copy, and no unused capacity left between the table and what is allocated after it.
  private grow(): void {
    this.data = changetype<StaticArray<i32>>(__renew(changetype<usize>(this.data), (<usize>this.data.length) << 3));
  }

  /** gives back the capacity past the last record */
  trim(): void {
    const used = (<usize>max(this.count, 1)) << RECORD_SHIFT;
    if (used < (<usize>this.data.length) << 2)
      this.data = changetype<StaticArray<i32>>(__renew(changetype<usize>(this.data), used));
  }

  private addWide(i: i32, keyStart: i32, keyEnd: i32): void {
    let wide = this.wide;
    const n = this.wideCount;
    if (wide === null || (n + 1) * 3 > wide.length) {
      const next = uninitializedI32s(max(n * 6, 12));
      if (wide !== null) memory.copy(changetype<usize>(next), changetype<usize>(wide), <usize>n * 12);
      wide = next;
      this.wide = next;
    }
    const at = changetype<usize>(wide) + <usize>n * 12;
    store<i32>(at, i);
    store<i32>(at, keyStart, 4);
    store<i32>(at, keyEnd, 8);
    this.wideCount = n + 1;
  }

  /** the side-list span of member i: which 1 keyStart, 2 keyEnd (indices are added in order) */
  wideKey(i: i32, which: i32): i32 {
    const wide = this.wide;
    if (wide === null) return 0;
    let lo = 0;
    let hi = this.wideCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = changetype<usize>(wide) + <usize>mid * 12;
      const vi = load<i32>(at);
      if (vi == i) return load<i32>(at + ((<usize>which) << 2));
      if (vi < i) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** start of value i's text; -1 when i is out of range */
  @inline start(i: i32): i32 {
    if (<u32>i >= <u32>this.count) return -1;
    return slotStart(this.slot(i));
  }

  /** end of value i's text; -1 when i is out of range */
  @inline end(i: i32): i32 {
    if (<u32>i >= <u32>this.count) return -1;
    return load<i32>(this.slot(i), AT_END);
  }

  /** the first value after value i's subtree; -1 when i is out of range */
  @inline next(i: i32): i32 {
    if (<u32>i >= <u32>this.count) return -1;
    return slotNext(this.slot(i));
  }

  /** value i's key word (see the class comment); 0 when it has no key or i is out of range */
  @inline keyWord(i: i32): i32 {
    if (<u32>i >= <u32>this.count) return 0;
    return slotKeyWord(this.slot(i));
  }

  /** start of member i's raw key (0 without a key) */
  keyStart(i: i32): i32 {
    const w = this.keyWord(i);
    if (w == 0) return 0;
    return keyStartOf(this, i, w, this.start(i));
  }

  /** end of member i's raw key, with KEY_ESCAPED set when the key contains a backslash (0 without
   *  a key) */
  keyEnd(i: i32): i32 {
    const w = this.keyWord(i);
    if (w == 0) return 0;
    return keyEndOf(this, i, w, this.start(i)) | (w & KEY_ESCAPED);
  }
}

/** the key end of member i from its key word `w` and its value's start (KEY_ESCAPED clear) */
// @ts-ignore: decorator
@inline export function keyEndOf(table: ValueTable, i: i32, w: i32, start: i32): i32 {
  const gap = keyGap(w);
  return gap == KEY_GAP_WIDE ? table.wideKey(i, 2) : start - gap;
}

/** the key start of member i from its key word `w` and its value's start */
// @ts-ignore: decorator
@inline export function keyStartOf(table: ValueTable, i: i32, w: i32, start: i32): i32 {
  const gap = keyGap(w);
  return gap == KEY_GAP_WIDE ? table.wideKey(i, 1) : start - gap - keyLength(w);
}
