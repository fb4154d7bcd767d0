// Field paths as values, like apimachinery's `field.Path` (docs/shared-rules.md#field-errors):
// `newPath("spec").child("injection").index(3).key("k")` renders `spec.injection[3][k]`. A path
// is a small linked node; its text is built only by `toString()`, which the field-error
// constructors call when a violation is produced, so a valid object renders no path.
import { i32ToDecimal } from "../util/decimal";

const SEGMENT_CHILD: u8 = 0;
const SEGMENT_INDEX: u8 = 1;
const SEGMENT_KEY: u8 = 2;

export class Path {
  // three words, so a path node is a 32-byte block on the heap rather than 48 (validators build
  // dozens per object; issue 8): an index segment has no name and its index in `word`; a named
  // segment says in `word` whether it is a child or a key
  private name: string | null;
  private word: i32;
  constructor(
    private parent: Path | null,
    segment: u8,
    name: string,
    position: i32,
  ) {
    this.name = segment == SEGMENT_INDEX ? null : name;
    this.word = segment == SEGMENT_INDEX ? position : <i32>segment;
  }

  /** `<this>.<name>` */
  child(name: string): Path {
    return new Path(this, SEGMENT_CHILD, name, 0);
  }

  /** `<this>[<i>]` */
  index(i: i32): Path {
    return new Path(this, SEGMENT_INDEX, "", i);
  }

  /** `<this>[<k>]` (the key as given, without quotes, as Kubernetes prints map keys) */
  key(k: string): Path {
    return new Path(this, SEGMENT_KEY, k, 0);
  }

  /** The rendered path, in one join. */
  toString(): string {
    let depth = 0;
    for (let p: Path | null = this; p !== null; p = p.parent) depth++;
    const pieces = new Array<string>(depth);
    let at = depth;
    for (let p: Path | null = this; p !== null; p = p.parent) pieces[--at] = p.piece();
    return pieces.join("");
  }

  private piece(): string {
    const name = this.name;
    if (name === null) return "[" + i32ToDecimal(this.word) + "]";
    if (this.word == SEGMENT_KEY) return "[" + name + "]";
    return this.parent === null ? name : "." + name;
  }
}

/** A path starting at the top-level field `name`. */
export function newPath(name: string): Path {
  return new Path(null, SEGMENT_CHILD, name, 0);
}

/** `parent.child(name)`, or `newPath(name)` at the top level. */
export function childPath(parent: Path | null, name: string): Path {
  return parent === null ? newPath(name) : parent.child(name);
}
