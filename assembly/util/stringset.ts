// A set of strings for deduplicating long name lists (150,000 pull-secret names in one
// annotation). The standard Set rehashes as it grows, and under a bump runtime every outgrown
// table stays allocated; this one is sized once from the number of strings the caller will add,
// with open addressing over the positions of the members in one list (no entry objects).

/** Strings added so far, compared by content. */
export class StringSet {
  /** member position + 1 per slot, 0 for an empty slot */
  private slots: StaticArray<i32>;
  private mask: i32;
  private members: Array<string>;

  /** room for `expected` strings without growing (more still fit: the table then doubles) */
  constructor(expected: i32) {
    let size = 16;
    while (size < expected * 2) size <<= 1;
    this.slots = new StaticArray<i32>(size);
    this.mask = size - 1;
    this.members = new Array<string>(max(expected, 0));
    this.members.length = 0;
  }

  /** adds `s`; false when an equal string was already in the set */
  add(s: string): bool {
    if ((this.members.length + 1) * 2 > this.slots.length) this.grow();
    const i = this.find(s);
    const at = changetype<usize>(this.slots) + ((<usize>i) << 2);
    if (load<i32>(at) != 0) return false;
    this.members.push(s);
    store<i32>(at, this.members.length);
    return true;
  }

  has(s: string): bool {
    return unchecked(this.slots[this.find(s)]) != 0;
  }

  /** the slot holding a string equal to `s`, or the empty slot where it would go */
  private find(s: string): i32 {
    const slots = changetype<usize>(this.slots);
    const members = this.members;
    let i = hashOf(s) & this.mask;
    while (true) {
      const held = load<i32>(slots + ((<usize>i) << 2));
      if (held == 0 || unchecked(members[held - 1]) == s) return i;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const size = this.slots.length << 1;
    this.slots = new StaticArray<i32>(size);
    this.mask = size - 1;
    const members = this.members;
    for (let k = 0; k < members.length; k++) {
      unchecked((this.slots[this.find(unchecked(members[k]))] = k + 1));
    }
  }
}

/** FNV-1a over the UTF-16 code units */
function hashOf(s: string): i32 {
  let h: u32 = 0x811c9dc5;
  const p = changetype<usize>(s);
  const n = s.length;
  for (let i = 0; i < n; i++) {
    h = (h ^ (<u32>load<u16>(p + ((<usize>i) << 1)))) * 0x01000193;
  }
  return <i32>(h ^ (h >>> 16));
}
