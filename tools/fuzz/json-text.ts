// JSON as the fuzzer edits it: a JS value whose parts may be raw text spliced verbatim (RawJson: an
// invalid number, a lone surrogate escape) or objects with repeated keys (DupObject), written back
// by emitJson; and the value paths the structural mutators pick from.
export type JsonPath = (string | number)[];

/** JSON text spliced verbatim by `emitJson` (may be invalid on purpose). */
export class RawJson {
  constructor(readonly text: string) {}
}
/** An object whose members are written in this order, repeated keys included. */
export class DupObject {
  constructor(readonly entries: [string | RawJson, unknown][]) {}
}

export type JsonKindName = "null" | "boolean" | "number" | "string" | "array" | "object";

export function kindOf(v: unknown): JsonKindName {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const t = typeof v;
  return t === "boolean" || t === "number" || t === "string" ? t : "object";
}

export function emitJson(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (v instanceof DupObject)
    return `{${v.entries.map(([k, val]) => `${k instanceof RawJson ? k.text : JSON.stringify(k)}:${emitJson(val)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : emitJson(x))).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${JSON.stringify(k)}:${emitJson(x)}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export function collectPaths(doc: unknown): { path: JsonPath; kind: JsonKindName }[] {
  const out: { path: JsonPath; kind: JsonKindName }[] = [];
  const stack: { v: unknown; path: JsonPath }[] = [{ v: doc, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (path.length > 0) out.push({ path, kind: kindOf(v) });
    if (v instanceof RawJson || v instanceof DupObject) continue; // already mutated: a leaf from now on
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: [...path, i] }));
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
  }
  return out; // depth-first, deterministic for a given document
}

export function pathText(path: JsonPath): string {
  return path.length === 0
    ? "<root>"
    : path
        .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
        .join("")
        .replace(/^\./, "");
}

export function getAt(doc: unknown, path: JsonPath): unknown {
  let v = doc;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** Sets (or, with `undefined`, deletes) the value at `path` in place; the root cannot be replaced. */
export function setAt(doc: unknown, path: JsonPath, value: unknown): void {
  if (path.length === 0) return;
  const parent = getAt(doc, path.slice(0, -1));
  if (parent === null || typeof parent !== "object" || parent instanceof RawJson || parent instanceof DupObject) return;
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
    else delete (parent as Record<string, unknown>)[last as string];
  } else (parent as Record<string | number, unknown>)[last] = value;
}
