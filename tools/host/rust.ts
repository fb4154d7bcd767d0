// Texts shaped by the Rust side of policy-evaluator: the prefix its waPC runtime puts before every
// callback error (`Callback evaluation failure: {e:?}`) and Rust's `Debug` of a string, which the
// not-found and replay errors embed.

export const CALLBACK_FAILURE = "Callback evaluation failure: ";

/** Rust's `{:?}` of a string: `"` quoted, `\\` `"` `\n` `\r` `\t` `\0` escaped, other controls as `\u{…}`. */
export function rustDebugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c === 0) out += "\\0";
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/** Rust's `{:?}` of an `Option<&str>`: `None` or `Some("…")`. */
export function rustDebugOption(s: string | null): string {
  return s === null ? "None" : `Some(${rustDebugString(s)})`;
}
