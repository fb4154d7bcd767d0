// DNS-1123 label and subdomain checks with the Kubernetes `IsDNS1123Label` /
// `IsDNS1123Subdomain` message texts (docs/shared-rules.md#dns-1123). Lengths are UTF-8 byte
// lengths, as Go's `len` counts them.
import { utf8Length } from "./chars";

export const DNS1123_LABEL_MAX_LENGTH: i32 = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH: i32 = 253;

// @ts-ignore: decorator
@lazy
export const DNS1123_LABEL_MAX_LENGTH_MESSAGE = "must be no more than 63 characters";
// @ts-ignore: decorator
@lazy
export const DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE = "must be no more than 253 characters";
// @ts-ignore: decorator
@lazy
export const DNS1123_LABEL_PATTERN_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
// @ts-ignore: decorator
@lazy
export const DNS1123_SUBDOMAIN_PATTERN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

// inlined: it is called per character of every name checked
// @ts-ignore: decorator
@inline
function isLowerAlnum(c: i32): bool {
  return <u32>(c - 0x61) < 26 || <u32>(c - 0x30) < 10;
}

/** Regex `[a-z0-9]([-a-z0-9]*[a-z0-9])?` over `s[start, end)` (no length limit). */
function matchesLabelPattern(s: string, start: i32, end: i32): bool {
  if (end <= start) return false;
  if (!isLowerAlnum(s.charCodeAt(start)) || !isLowerAlnum(s.charCodeAt(end - 1))) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isLowerAlnum(c) && c != 0x2d) return false;
  }
  return true;
}

/** Regex `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`: dot-separated labels. */
export function matchesDns1123SubdomainPattern(s: string): bool {
  return matchesDns1123SubdomainPatternIn(s, 0, s.length);
}

/** `matchesDns1123SubdomainPattern` of `s[from, len)`, without a substring. */
export function matchesDns1123SubdomainPatternIn(s: string, from: i32, len: i32): bool {
  let start = from;
  for (let i = from; i <= len; i++) {
    if (i == len || s.charCodeAt(i) == 0x2e) {
      if (!matchesLabelPattern(s, start, i)) return false;
      start = i + 1;
    }
  }
  return true;
}

/** `isDns1123Subdomain` of the UTF-8 text [s, e) at `data` (a valid name is ASCII, so its bytes
 *  are its characters), read without a string. */
export function isDns1123SubdomainBytes(data: usize, s: i32, e: i32): bool {
  if (e - s > DNS1123_SUBDOMAIN_MAX_LENGTH) return false;
  let start = s;
  for (let i = s; i <= e; i++) {
    if (i == e || load<u8>(data + <usize>i) == 0x2e) {
      // one label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
      if (i <= start) return false;
      if (!isLowerAlnum(load<u8>(data + <usize>start)) || !isLowerAlnum(load<u8>(data + <usize>(i - 1)))) return false;
      for (let k = start + 1; k < i - 1; k++) {
        const c = <i32>load<u8>(data + <usize>k);
        if (!isLowerAlnum(c) && c != 0x2d) return false;
      }
      start = i + 1;
    }
  }
  return true;
}

/** True when every dot-separated label of `s` has at most 63 characters (V1 hostname rule). */
export function labelsAtMost63(s: string): bool {
  let start = 0;
  const len = s.length;
  for (let i = 0; i <= len; i++) {
    if (i == len || s.charCodeAt(i) == 0x2e) {
      if (i - start > DNS1123_LABEL_MAX_LENGTH) return false;
      start = i + 1;
    }
  }
  return true;
}

/** Kubernetes `IsDNS1123Label`: violation messages, empty when valid (length first, then pattern). */
export function dns1123LabelErrors(s: string): string[] {
  const errs = new Array<string>();
  if (utf8Length(s) > DNS1123_LABEL_MAX_LENGTH) errs.push(DNS1123_LABEL_MAX_LENGTH_MESSAGE);
  if (!matchesLabelPattern(s, 0, s.length)) errs.push(DNS1123_LABEL_PATTERN_MESSAGE);
  return errs;
}

/** Kubernetes `IsDNS1123Subdomain`: violation messages, empty when valid. */
export function dns1123SubdomainErrors(s: string): string[] {
  const errs = new Array<string>();
  if (utf8Length(s) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE);
  if (!matchesDns1123SubdomainPattern(s)) errs.push(DNS1123_SUBDOMAIN_PATTERN_MESSAGE);
  return errs;
}

export function isDns1123Label(s: string): bool {
  return s.length <= DNS1123_LABEL_MAX_LENGTH && matchesLabelPattern(s, 0, s.length);
}

export function isDns1123Subdomain(s: string): bool {
  return s.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && matchesDns1123SubdomainPattern(s);
}
