// Result and kind types shared by the DOM, the readers and the policies that use them.

/** JSON value kinds. */
export enum JsonKind {
  Null = 0,
  Bool = 1,
  Number = 2,
  String = 3,
  Array = 4,
  Object = 5,
}

/** How an optional field or a typed read turned out. */
export enum ReadState {
  /** the key is missing (or the index out of range) */
  Absent = 0,
  /** the value is JSON null */
  Null = 1,
  /** the value has the requested type and was decoded */
  Ok = 2,
  /** wrong JSON kind, integer overflow, non-integer number text, lone-surrogate escape, … */
  Invalid = 3,
}

/** A typed read: `state` says what happened; `value` is meaningful only when `state == Ok`. */
export class Read<T> {
  constructor(
    public state: ReadState,
    public value: T,
    public error: string = "",
  ) {}
  get ok(): bool {
    return this.state == ReadState.Ok;
  }
  /** absent or null: the usual "not set" for Kubernetes optional fields */
  get missing(): bool {
    return this.state == ReadState.Absent || this.state == ReadState.Null;
  }
  get invalid(): bool {
    return this.state == ReadState.Invalid;
  }
}
