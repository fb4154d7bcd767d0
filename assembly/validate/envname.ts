// Environment variable names: Kubernetes `IsEnvVarName` (strict variant; the texts the
// planned cachebackend-validator reports) and the C-identifier shape `[A-Za-z_][A-Za-z0-9_]*`.
import { isAsciiDigit, isAsciiLetter } from "./chars";

// @ts-ignore: decorator
@lazy
export const ENV_VAR_NAME_PATTERN_MESSAGE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
// @ts-ignore: decorator
@lazy
export const ENV_VAR_NAME_DOT_MESSAGE = "must not be '.'";
// @ts-ignore: decorator
@lazy
export const ENV_VAR_NAME_DOTDOT_MESSAGE = "must not be '..'";
// @ts-ignore: decorator
@lazy
export const ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE = "must not start with '..'";

function isEnvNameStart(c: i32): bool {
  return isAsciiLetter(c) || c == 0x2d || c == 0x2e || c == 0x5f;
}

/** Regex `[-._a-zA-Z][-._a-zA-Z0-9]*`, anchored. */
function matchesEnvVarNamePattern(s: string): bool {
  if (s.length == 0 || !isEnvNameStart(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isEnvNameStart(c) && !isAsciiDigit(c)) return false;
  }
  return true;
}

/** `matchesEnvVarNamePattern` of the UTF-8 text [s, e) at `data` (a matching name is ASCII, so its
 *  bytes are its characters), read without a string. */
export function matchesEnvVarNamePatternBytes(data: usize, s: i32, e: i32): bool {
  if (e <= s || !isEnvNameStart(load<u8>(data + <usize>s))) return false;
  for (let i = s + 1; i < e; i++) {
    const c = <i32>load<u8>(data + <usize>i);
    if (!isEnvNameStart(c) && !isAsciiDigit(c)) return false;
  }
  return true;
}

/** Whether `IsEnvVarName` adds one of its `.`/`..` messages for the UTF-8 text [s, e) at `data`. */
export function hasEnvVarNameDotErrorBytes(data: usize, s: i32, e: i32): bool {
  if (e <= s || load<u8>(data + <usize>s) != 0x2e) return false;
  return e - s == 1 || load<u8>(data + <usize>(s + 1)) == 0x2e;
}

/** Kubernetes `IsEnvVarName`: the pattern message, then at most one of the `.`/`..` messages. */
export function envVarNameErrors(s: string): string[] {
  const errs = new Array<string>();
  if (!matchesEnvVarNamePattern(s)) errs.push(ENV_VAR_NAME_PATTERN_MESSAGE);
  if (s == ".") errs.push(ENV_VAR_NAME_DOT_MESSAGE);
  else if (s == "..") errs.push(ENV_VAR_NAME_DOTDOT_MESSAGE);
  else if (s.startsWith("..")) errs.push(ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE);
  return errs;
}

export function isEnvVarName(s: string): bool {
  return envVarNameErrors(s).length == 0;
}

/** `[A-Za-z_][A-Za-z0-9_]*`: a name every POSIX shell accepts. */
export function isCIdentifier(s: string): bool {
  if (s.length == 0) return false;
  const first = s.charCodeAt(0);
  if (!isAsciiLetter(first) && first != 0x5f) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != 0x5f) return false;
  }
  return true;
}
