// Small list-shaped string rules shared by several policies.
import { trimGoSpace } from "./chars";

/** Comma-separated names (e.g. the image-pull-secrets override annotation): TrimSpace the whole
 *  text, split on `,`, TrimSpace each part, drop empty parts. `" , "` → `[]`. */
export function splitCommaList(text: string): string[] {
  const out = new Array<string>();
  const csv = trimGoSpace(text);
  if (csv.length == 0) return out;
  let start = 0;
  for (let i = 0; i <= csv.length; i++) {
    if (i == csv.length || csv.charCodeAt(i) == 0x2c) {
      const part = trimGoSpace(csv.substring(start, i));
      if (part.length > 0) out.push(part);
      start = i + 1;
    }
  }
  return out;
}

/** True when `list` contains `value` (exact match). */
export function containsString(list: string[], value: string): bool {
  for (let i = 0; i < list.length; i++) {
    if (unchecked(list[i]) == value) return true;
  }
  return false;
}
