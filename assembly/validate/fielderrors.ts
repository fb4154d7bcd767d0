// Kubernetes-style field errors (`k8s.io/apimachinery/pkg/util/validation/field`): made from a
// `Path` value (path.ts) whose text is rendered when the error is made; rendering,
// aggregation into the 422 message, and the UPDATE "only newly introduced errors" filter
// (docs/shared-rules.md#field-errors).
import { i32ToDecimal, i64ToDecimal } from "../util/decimal";
import { concat } from "../util/text";
import { ValueCheck } from "./check";
import { goQuote, goQuoteShort } from "./quote";
import { MAX_LISTED_BYTES, shortenRendered } from "./shorten";
import { utf8Length } from "./chars";
import { Path } from "./path";

export enum FieldErrorType {
  Required = 0,
  Forbidden = 1,
  Invalid = 2,
  NotSupported = 3,
  Internal = 4,
}

/** One violation. `renderedValue` is the value as the message prints it (`%q` for strings,
 *  bare numbers/booleans, compact JSON); `rawValue` is the value text compared on UPDATE (the raw
 *  string for strings, otherwise the same text; `""` for Required/Forbidden/Internal). A string
 *  value is quoted only when the message prints it (`rendered` null): of 1,000 kept violations
 *  the message shows at most 100, and an UPDATE's old ones are only compared. */
export class FieldError {
  constructor(
    public type: FieldErrorType,
    public field: string,
    private rendered: string | null,
    public rawValue: string,
    public detail: string,
  ) {}

  get renderedValue(): string {
    const rendered = this.rendered;
    if (rendered !== null) return rendered;
    const quoted = goQuoteShort(this.rawValue);
    this.rendered = quoted;
    return quoted;
  }

  /** Kubernetes `ErrorType.String()`. */
  typeText(): string {
    switch (this.type) {
      case FieldErrorType.Required:
        return "Required value";
      case FieldErrorType.Forbidden:
        return "Forbidden";
      case FieldErrorType.Invalid:
        return "Invalid value";
      case FieldErrorType.NotSupported:
        return "Unsupported value";
      default:
        return "Internal error";
    }
  }

  hasValue(): bool {
    return this.type == FieldErrorType.Invalid || this.type == FieldErrorType.NotSupported;
  }

  /** `ErrorBody()`: type text, then the value for I/NS, then `: <detail>` when non-empty. */
  body(): string {
    const value = this.hasValue();
    const detail = this.detail.length > 0;
    return concat(this.typeText(), value ? ": " : "", value ? this.renderedValue : "", detail ? ": " : "", this.detail);
  }

  /** `<field>: <body>`. */
  render(): string {
    const value = this.hasValue();
    const detail = this.detail.length > 0;
    return concat(
      this.field,
      ": ",
      this.typeText(),
      value ? ": " : "",
      value ? this.renderedValue : "",
      detail ? ": " : "",
      this.detail,
    );
  }

  /** Same `(type, field, value text, detail)` tuple (the UPDATE comparison key). */
  sameTuple(other: FieldError): bool {
    return (
      this.type == other.type &&
      this.field == other.field &&
      this.rawValue == other.rawValue &&
      this.detail == other.detail
    );
  }
}

/** `supported values: "a", "b"` (each value `%q`), or `""` for an empty list. */
export function supportedValuesDetail(supported: string[]): string {
  if (supported.length == 0) return "";
  const quoted = new Array<string>(supported.length);
  for (let i = 0; i < supported.length; i++) quoted[i] = goQuote(supported[i]);
  return "supported values: " + quoted.join(", ");
}

export function required(field: Path, detail: string): FieldError {
  return new FieldError(FieldErrorType.Required, field.toString(), "", "", detail);
}

export function forbidden(field: Path, detail: string): FieldError {
  return new FieldError(FieldErrorType.Forbidden, field.toString(), "", "", detail);
}

export function internalError(field: Path, detail: string): FieldError {
  return new FieldError(FieldErrorType.Internal, field.toString(), "", "", detail);
}

/** Invalid with a string value, printed `%q` (shortened past 1 KiB, shorten.ts). */
export function invalidString(field: Path, value: string, detail: string): FieldError {
  return invalidStringAt(field.toString(), value, detail);
}

function invalidStringAt(field: string, value: string, detail: string): FieldError {
  return new FieldError(FieldErrorType.Invalid, field, null, value, detail);
}

/** Invalid with a non-string value already rendered (number text, `true`, compact JSON); the
 *  printed form is shortened past 1 KiB, the UPDATE comparison keeps the whole text. */
export function invalidRaw(field: Path, renderedValue: string, detail: string): FieldError {
  return new FieldError(
    FieldErrorType.Invalid,
    field.toString(),
    shortenRendered(renderedValue),
    renderedValue,
    detail,
  );
}

/** Invalid for an absent/null value: Kubernetes prints `"null"`. */
export function invalidNull(field: Path, detail: string): FieldError {
  return new FieldError(FieldErrorType.Invalid, field.toString(), '"null"', "null", detail);
}

export function invalidInt(field: Path, value: i64, detail: string): FieldError {
  return invalidRaw(field, i64ToDecimal(value), detail);
}

export function invalidBool(field: Path, value: bool, detail: string): FieldError {
  return invalidRaw(field, value ? "true" : "false", detail);
}

/** NotSupported with a string value (`%q`) and the supported list. */
export function notSupportedString(field: Path, value: string, supported: string[]): FieldError {
  return new FieldError(FieldErrorType.NotSupported, field.toString(), null, value, supportedValuesDetail(supported));
}

/** NotSupported with a non-string value already rendered (e.g. `false`). */
export function notSupportedRaw(field: Path, renderedValue: string, supported: string[]): FieldError {
  return new FieldError(
    FieldErrorType.NotSupported,
    field.toString(),
    shortenRendered(renderedValue),
    renderedValue,
    supportedValuesDetail(supported),
  );
}

/** Ordered collection of violations, in rule order. Past MAX_COLLECTED_ERRORS violations are
 *  only counted (`omitted`): a list of 200,000 bad items must not cost seconds and hundreds of
 *  megabytes to reject. */
export class FieldErrorList {
  items: FieldError[] = [];
  /** violations counted but not kept */
  omitted: i32 = 0;

  /** every violation, kept or counted */
  get length(): i32 {
    return this.items.length + this.omitted;
  }

  isEmpty(): bool {
    return this.length == 0;
  }

  /** true once further violations are only counted; rules over long lists can then call
   *  `omit()` instead of building each violation */
  get full(): bool {
    return this.items.length >= MAX_COLLECTED_ERRORS;
  }

  add(e: FieldError): void {
    if (this.full) this.omitted++;
    else this.items.push(e);
  }

  /** Counts one violation without keeping it. */
  omit(): void {
    this.omitted++;
  }

  /** Adds `e` unless it is null (for checks that return "no violation" as null). */
  addMaybe(e: FieldError | null): void {
    if (e !== null) this.add(e);
  }

  addAll(other: FieldErrorList): void {
    for (let i = 0; i < other.items.length; i++) this.add(unchecked(other.items[i]));
    this.omitted += other.omitted;
  }

  /** One Invalid string violation per message (the `IsDNS1123…`/`IsEnvVarName` pattern); the
   *  path is rendered once for all of them. */
  addInvalidStringPerMessage(field: Path, value: string, messages: string[], prefix: string = ""): void {
    if (messages.length > 0) this.addInvalidStringPerMessageAt(field.toString(), value, messages, prefix);
  }

  /** `addInvalidStringPerMessage` with the path already rendered */
  addInvalidStringPerMessageAt(at: string, value: string, messages: string[], prefix: string = ""): void {
    for (let i = 0; i < messages.length; i++) {
      const message = unchecked(messages[i]);
      // without a prefix the message itself (a concatenation copies it, 50,000 times for a list)
      this.add(invalidStringAt(at, value, prefix.length > 0 ? prefix + message : message));
    }
  }

  /** Rendered errors in order, identical texts kept once (Kubernetes aggregate semantics), at
   *  most `limit` of them. */
  distinctMessages(limit: i32 = i32.MAX_VALUE): string[] {
    return this.distinct(limit, new Array<i32>());
  }

  /** `distinctMessages`, with the position of each one's first item pushed onto `firsts` */
  private distinct(limit: i32, firsts: i32[]): string[] {
    const out = new Array<string>();
    const seen = new Set<string>();
    for (let i = 0; i < this.items.length && out.length < limit; i++) {
      const text = unchecked(this.items[i]).render();
      if (seen.has(text)) continue;
      seen.add(text);
      out.push(text);
      firsts.push(i);
    }
    return out;
  }

  /** The aggregate text: `e1` for one distinct error, `[e1, e2, …]` for several, `""` for none.
   *  Past MAX_REPORTED_ERRORS distinct errors, or once the listed ones would pass
   *  MAX_LISTED_BYTES (shorten.ts), the list ends with `and N more` (N counts the violations after
   *  the last one shown, duplicates included, without rendering them): an object with 200,000 bad
   *  list items must not take seconds and megabytes to reject (the API server would time out the
   *  webhook instead), and the message stays within 64 KiB. */
  aggregateText(): string {
    const firsts = new Array<i32>();
    const msgs = this.distinct(MAX_REPORTED_ERRORS + 1, firsts);
    if (msgs.length == 0) return "";
    if (msgs.length == 1) return unchecked(msgs[0]);
    let shown = min(msgs.length, MAX_REPORTED_ERRORS);
    let bytes = 0;
    for (let i = 0; i < shown; i++) {
      bytes += utf8Length(unchecked(msgs[i])) + 2; // ", "
      if (bytes > MAX_LISTED_BYTES && i > 0) {
        shown = i;
        break;
      }
    }
    if (shown < msgs.length) {
      // the items before the first one not shown (duplicates included) are the ones shown
      const more = this.length - unchecked(firsts[shown]);
      return "[" + msgs.slice(0, shown).join(", ") + ", and " + i32ToDecimal(more) + " more]";
    }
    return "[" + msgs.join(", ") + "]";
  }

  /** `<Kind>.<group> "<name>" is invalid: <aggregate>` (name printed `%q`). */
  invalidMessage(kind: string, group: string, name: string): string {
    return concat(qualifiedKind(kind, group), " ", goQuoteShort(name), " is invalid: ", this.aggregateText());
  }
}

/** Distinct violations written into one aggregated message before the rest are counted. */
export const MAX_REPORTED_ERRORS: i32 = 100;
/** Violations kept per list; later ones are only counted. */
export const MAX_COLLECTED_ERRORS: i32 = 1000;

/** `Kind.group`, or `Kind` for the core group. */
export function qualifiedKind(kind: string, group: string): string {
  return group.length == 0 ? kind : kind + "." + group;
}

/** UPDATE filter: the errors of `newErrs` whose `(type, field, value text, detail)` tuple does
 *  not occur in `oldErrs`, in order. */
export function introducedErrors(newErrs: FieldErrorList, oldErrs: FieldErrorList): FieldErrorList {
  const out = new FieldErrorList();
  const olds = oldErrs.items;
  const news = newErrs.items;
  if (olds.length * news.length <= DIRECT_COMPARISONS) {
    // the usual UPDATE: a few errors on each side, compared in place (no key strings built)
    for (let i = 0; i < news.length; i++) {
      const e = unchecked(news[i]);
      let seen = false;
      for (let j = 0; j < olds.length && !seen; j++) seen = e.sameTuple(unchecked(olds[j]));
      if (!seen) out.add(e);
    }
  } else {
    // the old errors in a table by a hash of their tuple (open addressing over their positions,
    // compared with sameTuple): a key string of the whole tuple was built for each of up to
    // 2,000 errors, a quarter of an UPDATE with 1,000 violations on each side
    let size = 16;
    while (size < olds.length * 2) size <<= 1;
    const mask = size - 1;
    const slots = new StaticArray<i32>(size);
    for (let j = 0; j < olds.length; j++) {
      let i = tupleHash(unchecked(olds[j])) & mask;
      while (unchecked(slots[i]) != 0) i = (i + 1) & mask;
      unchecked((slots[i] = j + 1));
    }
    for (let k = 0; k < news.length; k++) {
      const e = unchecked(news[k]);
      let i = tupleHash(e) & mask;
      let seen = false;
      for (let held = unchecked(slots[i]); held != 0 && !seen; held = unchecked(slots[i])) {
        seen = e.sameTuple(unchecked(olds[held - 1]));
        i = (i + 1) & mask;
      }
      if (!seen) out.add(e);
    }
  }
  // violations past the collection limit were never built, so they cannot be compared: a new
  // object with more of them than the old one is treated as introducing the difference
  if (newErrs.omitted > oldErrs.omitted) out.omitted += newErrs.omitted - oldErrs.omitted;
  return out;
}

/** Old x new errors compared pairwise before the filter switches to a set of tuple keys. */
const DIRECT_COMPARISONS: i32 = 4096;

/** FNV-1a over the UPDATE tuple's parts (equal tuples, equal hashes); of the detail only its
 *  length: many violations share one long message (a DNS-1123 one is 200+ characters), which
 *  `sameTuple` compares only for a field and value that match */
function tupleHash(e: FieldError): i32 {
  let h: u32 = (0x811c9dc5 ^ (<u32>e.type)) * 0x01000193;
  h = hashUnits(h, e.field);
  h = hashUnits(h, e.rawValue);
  h = (h ^ (<u32>e.detail.length)) * 0x01000193;
  return <i32>(h ^ (h >>> 16));
}

function hashUnits(h: u32, s: string): u32 {
  const p = changetype<usize>(s);
  // the length first: ("ab", "c") and ("a", "bc") hash apart
  h = (h ^ (<u32>s.length)) * 0x01000193;
  for (let i = 0; i < s.length; i++) h = (h ^ (<u32>load<u16>(p + ((<usize>i) << 1)))) * 0x01000193;
  return h;
}

/** Attaches a field path to a single-value check: null when ok, Required or Invalid (`%q`). */
export function fieldErrorFromCheck(field: Path, value: string, check: ValueCheck): FieldError | null {
  if (check.ok) return null;
  if (check.required) return required(field, check.detail);
  return invalidString(field, value, check.detail);
}
