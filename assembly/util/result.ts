// One result type for fallible operations whose failure is a text (host calls, guest replies,
// reads of a typed struct): policies never throw, so errors travel as values. Outcomes with more
// than two cases keep their own type (`Read<T>` for a JSON field: absent, null, ok or invalid;
// `LookupResult` for a lookup: found, not found, denied or failed).

/** `ok` with `value`, or not ok with `error` (then `value` is a placeholder). */
export class Result<T> {
  constructor(
    public ok: bool,
    public value: T,
    public error: string,
  ) {}
}

/** A success. */
export function success<T>(value: T): Result<T> {
  return new Result<T>(true, value, "");
}

/** A failure with its reason; `placeholder` fills `value`, which callers must not use. */
export function failure<T>(placeholder: T, error: string): Result<T> {
  return new Result<T>(false, placeholder, error);
}
