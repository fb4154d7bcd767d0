// Field paths as values, like apimachinery's `field.Path` (docs/shared-rules.md#field-errors):
// `newPath("spec").child("injection").index(3).key("k")` renders `spec.injection[3][k]`. A path
// is a small linked node; its text is built only by `toString()`, which the field-error
// constructors call when a violation is produced, so a valid object renders no path.
import { i32ToDecimal } from "../util/decimal";

const SEGMENT_CHILD: u8 = 0;
const SEGMENT_INDEX: u8 = 1;
const SEGMENT_KEY: u8 = 2;

export class Path {
  constructor(
    private parent: Path | null,
    private segment: u8,
    private name: string,
    private position: i32,
  ) {}

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
    if (this.segment == SEGMENT_INDEX) return "[" + i32ToDecimal(this.position) + "]";
    if (this.segment == SEGMENT_KEY) return "[" + this.name + "]";
    return this.parent === null ? this.name : "." + this.name;
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
