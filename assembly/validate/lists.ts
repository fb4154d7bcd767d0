// Small list-shaped string rules shared by several policies.
import { isGoSpace, trimGoSpace } from "./chars";

/** Comma-separated names (e.g. the image-pull-secrets override annotation): TrimSpace the whole
 *  text, split on `,`, TrimSpace each part, drop empty parts. `" , "` → `[]`. */
export function splitCommaList(text: string): string[] {
  const csv = trimGoSpace(text);
  const n = csv.length;
  // sized once (an annotation can list 150,000 names: growing by pushes left every outgrown copy
  // allocated under the stub runtime), and each part cut out once, already trimmed
  let parts = 1;
  for (let i = 0; i < n; i++) if (csv.charCodeAt(i) == 0x2c) parts++;
  const out = new Array<string>(n > 0 ? parts : 0);
  out.length = 0;
  let start = 0;
  for (let i = 0; i <= n; i++) {
    if (i == n || csv.charCodeAt(i) == 0x2c) {
      let s = start;
      let e = i;
      while (s < e && isGoSpace(csv.charCodeAt(s))) s++;
      while (e > s && isGoSpace(csv.charCodeAt(e - 1))) e--;
      if (e > s) out.push(csv.substring(s, e));
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
