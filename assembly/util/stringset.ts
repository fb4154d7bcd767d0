// A set of strings for deduplicating long name lists (150,000 pull-secret names in one
// annotation). The standard Set rehashes as it grows, and under the stub runtime every outgrown
// table stays allocated; this one is sized once from the number of strings the caller will add,
// with open addressing over the positions of the members in one list (no entry objects).

/** Strings added so far, compared by content. */
export class StringSet {
  /** per slot: the member's hash in the high word, its position + 1 in the low word; 0 when empty.
   *  A probe compares hashes before strings: a string compare reads a member far away in memory,
   *  and 150,000 names cost one or two such reads each. */
  private slots: StaticArray<u64>;
  private mask: i32;
  private members: Array<string>;

  /** room for `expected` strings without growing (more still fit: the table then doubles) */
  constructor(expected: i32) {
    // at most three quarters full: with the hashes in the slots a longer probe costs little, and
    // the table is written (zeroed) whole on a fresh instance's pages
    let size = 16;
    while (size * 3 < expected * 4) size <<= 1;
    this.slots = new StaticArray<u64>(size);
    this.mask = size - 1;
    this.members = new Array<string>(max(expected, 0));
    this.members.length = 0;
  }

  /** adds `s`; false when an equal string was already in the set */
  add(s: string): bool {
    if ((this.members.length + 1) * 4 > this.slots.length * 3) this.grow();
    const h = hashOf(s);
    const i = this.find(s, h);
    const at = changetype<usize>(this.slots) + ((<usize>i) << 3);
    if (load<u64>(at) != 0) return false;
    this.members.push(s);
    store<u64>(at, ((<u64>h) << 32) | (<u64>this.members.length));
    return true;
  }

  has(s: string): bool {
    return unchecked(this.slots[this.find(s, hashOf(s))]) != 0;
  }

  /** the slot holding a string equal to `s` (whose hash is `h`), or the empty slot where it would go */
  private find(s: string, h: u32): i32 {
    const slots = changetype<usize>(this.slots);
    const members = this.members;
    let i = (<i32>h) & this.mask;
    while (true) {
      const held = load<u64>(slots + ((<usize>i) << 3));
      if (held == 0 || (<u32>(held >> 32) == h && unchecked(members[<i32>held - 1]) == s)) return i;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const size = old.length << 1;
    this.slots = new StaticArray<u64>(size);
    this.mask = size - 1;
    const slots = changetype<usize>(this.slots);
    for (let k = 0; k < old.length; k++) {
      const held = unchecked(old[k]);
      if (held == 0) continue;
      // the hash is kept: no member is hashed or compared again
      let i = (<i32>(held >> 32)) & this.mask;
      while (load<u64>(slots + ((<usize>i) << 3)) != 0) i = (i + 1) & this.mask;
      store<u64>(slots + ((<usize>i) << 3), held);
    }
  }
}

/** FNV-1a over the UTF-16 code units */
function hashOf(s: string): u32 {
  let h: u32 = 0x811c9dc5;
  const p = changetype<usize>(s);
  const n = s.length;
  for (let i = 0; i < n; i++) {
    h = (h ^ (<u32>load<u16>(p + ((<usize>i) << 1)))) * 0x01000193;
  }
  return h ^ (h >>> 16);
}
