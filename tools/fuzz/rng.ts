// Seedable PRNG (sfc32) so a fuzz run is reproducible: every iteration draws from its own generator
// derived from (seed, policy, iteration), so the inputs do not depend on how many iterations the
// time budget allowed before, and one iteration can be replayed alone.

/** 32-bit FNV-1a over strings and numbers, for deriving per-iteration seeds. */
export function hash32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193) >>> 0; // separator, so ("ab","c") != ("a","bc")
  }
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** uniform in [0, 1) */
  next(): number {
    return this.nextU32() / 4294967296;
  }
  /** uniform integer in [0, n) */
  int(n: number): number {
    return n <= 0 ? 0 : Math.floor(this.next() * n);
  }
  /** uniform integer in [lo, hi] */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** picks by weight: [[weight, value], ...] */
  weighted<T>(table: readonly (readonly [number, T])[]): T {
    const total = table.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of table) {
      if (r < w) return v;
      r -= w;
    }
    return table[table.length - 1][1];
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}
