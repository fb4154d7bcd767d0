// Command-line flags in a container's `args`: detection in both `--flag value` and `--flag=value`
// forms, CacheBlend's applyArg/applyBareFlag and HiCache's argValues (docs/shared-rules.md#flags).
// The deciding logic works on string[] (pure, easy to test); the
// `*ToArray` functions carry the decision out on a live JSON array with the fewest changes, so
// untouched tokens keep their original bytes.
import { JsonValue } from "../json/index";
import { stringItems } from "./fields";

/** Some token equals `flag` or starts with `flag=`. */
export function hasFlag(args: string[], flag: string): bool {
  // `flag` or a token starting with `flag=`, without building the prefix
  const n = flag.length;
  for (let i = 0; i < args.length; i++) {
    const t = args[i];
    if (t == flag || (t.length > n && t.charCodeAt(n) == 0x3d && t.startsWith(flag))) return true;
  }
  return false;
}

/** Some token equals `flag`. */
export function hasExactFlag(args: string[], flag: string): bool {
  return args.indexOf(flag) >= 0;
}

/** Number of tokens equal to `flag`. */
export function countExactFlag(args: string[], flag: string): i32 {
  let n = 0;
  for (let i = 0; i < args.length; i++) if (args[i] == flag) n++;
  return n;
}

/** Some token starts with `flag=`. */
export function hasFlagWithEquals(args: string[], flag: string): bool {
  const prefix = flag + "=";
  for (let i = 0; i < args.length; i++) if (args[i].startsWith(prefix)) return true;
  return false;
}

/** The values given to a flag and how many occurrences were malformed. */
export class ArgValues {
  values: string[] = [];
  malformed: i32 = 0;
  /** the flag occurs at all (well-formed or not) */
  get present(): bool {
    return this.values.length > 0 || this.malformed > 0;
  }
}

/**
 * Exact `flag` takes the next token as its value unless there is none
 * or it starts with `--` (malformed; scanning continues with that next token); `flag=rest` takes
 * `rest`, empty `rest` is malformed. A next token like `-1` is a value.
 */
export function argValues(args: string[], flag: string): ArgValues {
  const out = new ArgValues();
  // `flag=` is tested in place (no joined prefix per call: HiCache reads ten flags)
  const n = flag.length;
  let i = 0;
  while (i < args.length) {
    const t = args[i];
    if (t == flag) {
      if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
        out.malformed++;
        i++;
        continue;
      }
      out.values.push(args[i + 1]);
      i += 2;
      continue;
    }
    if (t.length > n && t.charCodeAt(n) == 0x3d && t.startsWith(flag)) {
      const rest = t.substring(n + 1);
      if (rest.length == 0) out.malformed++;
      else out.values.push(rest);
    }
    i++;
  }
  return out;
}

export enum ArgActionKind {
  /** leave args as they are */
  None = 0,
  /** replace the token at `index` with `tokens[0]` */
  Replace = 1,
  /** append `tokens` at the end */
  Append = 2,
}

/** What applyArg/applyBareFlag will do to an args list. */
export class ArgAction {
  constructor(
    public kind: ArgActionKind,
    public index: i32,
    public tokens: string[],
  ) {}
}

/**
 * applyArg, first match only: exact `flag` followed by a token → overwrite that next token
 * (unconditionally, even another flag); exact `flag` last → append `value`; `flag=…` → rewrite to
 * `flag=value`; no match → append `flag`, `value`.
 */
export function planApplyArg(args: string[], flag: string, value: string): ArgAction {
  const prefix = flag + "=";
  for (let i = 0; i < args.length; i++) {
    const t = args[i];
    if (t == flag) {
      if (i + 1 < args.length) return new ArgAction(ArgActionKind.Replace, i + 1, [value]);
      return new ArgAction(ArgActionKind.Append, -1, [value]);
    }
    if (t.startsWith(prefix)) return new ArgAction(ArgActionKind.Replace, i, [prefix + value]);
  }
  return new ArgAction(ArgActionKind.Append, -1, [flag, value]);
}

/** applyBareFlag: nothing when `flag` or `flag=…` is present, else append `flag`. */
export function planApplyBareFlag(args: string[], flag: string): ArgAction {
  if (hasFlag(args, flag)) return new ArgAction(ArgActionKind.None, -1, []);
  return new ArgAction(ArgActionKind.Append, -1, [flag]);
}

/** The action carried out on a copy of `args`. */
export function applyArgAction(args: string[], action: ArgAction): string[] {
  const out = args.slice(0);
  if (
    action.kind == ArgActionKind.Replace &&
    action.index >= 0 &&
    action.index < out.length &&
    action.tokens.length > 0
  ) {
    out[action.index] = action.tokens[0];
  } else if (action.kind == ArgActionKind.Append) {
    for (let i = 0; i < action.tokens.length; i++) out.push(action.tokens[i]);
  }
  return out;
}

/** applyArg on a string list (returns a new list). */
export function applyArg(args: string[], flag: string, value: string): string[] {
  return applyArgAction(args, planApplyArg(args, flag, value));
}

/** applyBareFlag on a string list (returns a new list). */
export function applyBareFlag(args: string[], flag: string): string[] {
  return applyArgAction(args, planApplyBareFlag(args, flag));
}

// ---- on a live JSON array ----

/** Carries `action` out on a JSON array of strings; false when `array` is not an array. */
export function applyArgActionToArray(array: JsonValue, action: ArgAction): bool {
  if (!array.isArray()) return false;
  if (action.kind == ArgActionKind.Replace) {
    if (action.tokens.length == 0) return false;
    return array.replace(action.index, JsonValue.str(action.tokens[0]));
  }
  if (action.kind == ArgActionKind.Append) return appendTokensToArray(array, action.tokens);
  return true;
}

/** Pushes each token as a JSON string. */
export function appendTokensToArray(array: JsonValue, tokens: string[]): bool {
  for (let i = 0; i < tokens.length; i++) {
    if (!array.push(JsonValue.str(tokens[i]))) return false;
  }
  return true;
}

/** Whether `array` is an array whose every item is a decodable string (what `stringItems` needs),
 *  read in place. */
function isStringArray(array: JsonValue): bool {
  return array.isArray() && array.indexOfItemNotDecodableString() < 0;
}

/** the first item of `array` that is `flag` or starts with `flag=` (`hasFlag`'s test), from the
 *  items that start with `flag` (most args are turned away on their first raw bytes), or -1 */
function indexOfFlag(array: JsonValue, flag: string, withValue: string): i32 {
  for (let i = array.indexOfItemStartingWith(flag); i >= 0; i = array.indexOfItemStartingWith(flag, i + 1)) {
    if (array.itemStringStartsWith(i, flag, true) || array.itemStringStartsWith(i, withValue)) return i;
  }
  return -1;
}

/** `planApplyArg(stringItems(array), flag, value)` read in place: CacheBlend applies seven flags
 *  one after another, and decoding the args for each wrote a copy of every token (the kv-transfer
 *  JSON among them) seven times on a fresh instance's pages. */
function planApplyArgInPlace(array: JsonValue, flag: string, value: string): ArgAction {
  const prefix = flag + "=";
  const i = indexOfFlag(array, flag, prefix);
  if (i < 0) return new ArgAction(ArgActionKind.Append, -1, [flag, value]);
  if (!array.itemStringStartsWith(i, flag, true)) return new ArgAction(ArgActionKind.Replace, i, [prefix + value]);
  if (i + 1 < array.size()) return new ArgAction(ArgActionKind.Replace, i + 1, [value]);
  return new ArgAction(ArgActionKind.Append, -1, [value]);
}

/** applyArg on a JSON array of strings; false when it is not one (`checked`: the caller knows it
 *  is, as `applyEdits` does after its checks, so the items are not read once more for it). */
export function applyArgToArray(array: JsonValue, flag: string, value: string, checked: bool = false): bool {
  if (checked ? !array.isArray() : !isStringArray(array)) return false;
  return applyArgActionToArray(array, planApplyArgInPlace(array, flag, value));
}

/** applyBareFlag on a JSON array of strings; false when it is not one (`checked` as above). */
export function applyBareFlagToArray(array: JsonValue, flag: string, checked: bool = false): bool {
  if (checked ? !array.isArray() : !isStringArray(array)) return false;
  // `hasFlag` in place: `flag` itself or `flag=…`
  if (indexOfFlag(array, flag, flag + "=") >= 0) return true;
  return appendTokensToArray(array, [flag]);
}

/** The args that rules over `flags` read, decoded and in order: every item that starts with one of
 *  `prefixes` (each flag starts with one of them), and the item after one that is exactly a flag.
 *  hasFlag, hasExactFlag, countExactFlag, hasFlagWithEquals and argValues answer for any of `flags`
 *  over them as over all the args: only a flag's own items and the value after an exact flag are
 *  read, and those stay next to each other. Found in one walk, without decoding the others (50,000
 *  args were decoded and scanned once per flag). Null when `array` is not an array of strings. */
export function argsReadBy(array: JsonValue, prefixes: string[], flags: string[]): string[] | null {
  if (!isStringArray(array)) return null;
  const out = new Array<string>(0);
  const n = array.size();
  let i = array.indexOfItemStartingWithAny(prefixes);
  while (i >= 0) {
    // the item, and after an exact flag the next one (which may be a flag itself)
    for (;;) {
      const t = array.itemStringValue(i);
      if (t === null) return null;
      out.push(t);
      if (i + 1 >= n || !flags.includes(t)) break;
      i++;
    }
    i = array.indexOfItemStartingWithAny(prefixes, i + 1);
  }
  return out;
}

/** `hasFlag(containerArgs(container), flag)`: 1 or 0, and -1 where containerArgs is null (args not
 *  an array of strings; `checked`: the caller has made sure they are, as `checkContainerFields`
 *  does, so they are not walked once more for it) */
export function containerHasFlag(container: JsonValue, flag: string, checked: bool = false): i32 {
  const args = container.getPresent("args");
  if (args === null) return 0;
  // read in place: 50,000 args are not decoded to look for one flag
  if (checked ? !args.isArray() : !isStringArray(args)) return -1;
  return indexOfFlag(args, flag, flag + "=") >= 0 ? 1 : 0;
}

/** The container's `args` as strings: [] when unset, null when not an array of strings. */
export function containerArgs(container: JsonValue): string[] | null {
  const args = container.getPresent("args");
  if (args === null) return new Array<string>(0);
  return stringItems(args);
}
