// Seeded generators of JSON text for the DOM differential tests: every number spelling, every
// escape (incl. surrogate pairs and lone surrogates), astral characters, escaped and duplicate
// keys, insignificant whitespace everywhere RFC 8259 allows it, and deep nesting.

/** mulberry32: small, fast, deterministic */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const NUMBER_SPELLINGS = [
  "0",
  "-0",
  "-0.0",
  "0.0",
  "1",
  "-1",
  "1000.0",
  "0.10",
  "1e-7",
  "1E+2",
  "2.5E-3",
  "1e3",
  "10e-1",
  "1.5e300",
  "18446744073709551615",
  "18446744073709551616",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775808",
  "-9223372036854775809",
  "123456789012345678901234567890",
  "1e400",
  "-1e400",
  "1.7976931348623157e308",
  "5e-324",
  "0.1",
  "3.141592653589793",
  "1e-400",
  "0e0",
  "-0e-0",
  "12.50",
];

const STRING_PIECES = [
  "a",
  "Z",
  "hello",
  " ",
  "/",
  '\\"',
  "\\\\",
  "\\/",
  "\\b",
  "\\f",
  "\\n",
  "\\r",
  "\\t",
  "\\u0000",
  "\\u001f",
  "\\u001F",
  "\\u00e9",
  "\\u00E9",
  "\\u0041",
  "\\ud83d\\ude00",
  "\\uD83D\\uDE00",
  "\\ud800",
  "\\udc00",
  "\\udbff\\udfff",
  "é",
  "中文",
  "😀",
  "\u007f",
  "\u0080",
  "\u07ff",
  "\uffff",
  "\u{10ffff}",
  "{",
  "]",
  ",",
  ":",
];

const KEYS = [
  "a",
  "b",
  "name",
  "n\\u0061me",
  'we\\u0069rd\\"key',
  "é",
  "\\u00e9",
  "😀",
  "\\ud83d\\ude00",
  "x/y",
  "x\\/y",
  "",
  "k\\n",
  "metadata",
  "spec",
  "\\ud800",
];

export class Gen {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = rng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  ws(): string {
    if (!this.chance(0.25)) return "";
    let s = "";
    for (let i = 1 + this.int(3); i > 0; i--) s += this.pick([" ", "\n", "\t", "\r\n", "  "]);
    return s;
  }

  number(): string {
    switch (this.int(4)) {
      case 0:
        return String(this.int(2000) - 1000);
      case 1:
        return `${this.chance(0.3) ? "-" : ""}${this.int(100)}.${String(this.int(1000)).padStart(3, "0")}`;
      default:
        return this.pick(NUMBER_SPELLINGS);
    }
  }

  stringBody(): string {
    let s = "";
    for (let i = this.int(6); i > 0; i--) s += this.pick(STRING_PIECES);
    return s;
  }

  key(): string {
    return this.chance(0.7) ? this.pick(KEYS) : this.stringBody();
  }

  /** a JSON value of nesting depth at most `depth` */
  value(depth: number): string {
    const r = this.int(10);
    if (depth > 0 && r < 3) return this.container(depth, true);
    if (depth > 0 && r < 5) return this.container(depth, false);
    switch (r % 5) {
      case 0:
        return this.number();
      case 1:
        return this.pick(["true", "false", "null"]);
      default:
        return `"${this.stringBody()}"`;
    }
  }

  container(depth: number, object: boolean): string {
    const n = this.int(5);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = this.ws() + this.value(depth - 1) + this.ws();
      parts.push(object ? `${this.ws()}"${this.key()}"${this.ws()}:${v}` : v);
    }
    return (object ? "{" : "[") + (parts.length ? parts.join(",") : this.ws()) + (object ? "}" : "]");
  }

  /** a whole document, sometimes with whitespace around the root */
  document(depth: number): string {
    return this.ws() + this.value(depth) + this.ws();
  }

  /** `levels` nested containers with a small value at the bottom */
  deep(levels: number): string {
    let open = "",
      close = "";
    for (let i = 0; i < levels; i++) {
      if (this.chance(0.5)) {
        open += `{"${this.pick(KEYS)}":`;
        close = "}" + close;
      } else {
        open += "[1,";
        close = "]" + close;
      }
    }
    return open + this.value(1) + close;
  }

  /** a JavaScript string with everything that needs escaping, astral characters, maybe lone surrogates */
  text(allowLoneSurrogates: boolean): string {
    const pieces = [
      "plain",
      'q"uote',
      "back\\slash",
      "/",
      "\n",
      "\t",
      "\u0000",
      "\u001f",
      "\u007f",
      "é",
      "😀",
      "中",
      "\u2028",
    ];
    if (allowLoneSurrogates) pieces.push("\ud800", "\udfff", "\ud83d");
    let s = "";
    for (let i = this.int(5); i > 0; i--) s += this.pick(pieces);
    return s;
  }
}
