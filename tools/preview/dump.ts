// Reading `kubectl get … -o yaml|json` dumps for `cachewarden preview`: a `List`, a multi-document
// YAML stream or JSON, in any number of files. Unlike the host's cluster-object loader, one bad
// document must not abort the run, so every document is parsed on its own and a document (or List
// item) the tool cannot read is reported with the reason and left out.
import { parseJsonOrYaml, readInput } from "../host/documents";
import type { KubeObject } from "../host/cluster";

export interface DumpObject {
  object: KubeObject;
  /** `<file>#<document>` (1-based), plus `.items[<i>]` for an item of a List */
  source: string;
}

export interface BrokenDocument {
  source: string;
  reason: string;
}

export interface Dump {
  objects: DumpObject[];
  broken: BrokenDocument[];
}

// A YAML document starts after a `---` line (a directive end marker may carry content after a
// space) and ends at a `...` line; inside block scalars such lines would be indented.
const DOCUMENT_MARKER = /^(---|\.\.\.)(\s.*)?$/;

/**
 * The non-blank documents of a stream as text, numbered from 1 in order, each with the file line
 * (1-based) its text starts on, so a parse error can name the line of the file, not of the document.
 */
export function splitDocuments(text: string): { index: number; text: string; line: number }[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) return [{ index: 1, text, line: 1 }];
  const chunks: { lines: string[]; line: number }[] = [{ lines: [], line: 1 }];
  text.split(/\r?\n/).forEach((l, i) => {
    const m = DOCUMENT_MARKER.exec(l);
    if (!m) chunks[chunks.length - 1].lines.push(l);
    else if (m[1] === "---" && m[2] && m[2].trim() !== "") chunks.push({ lines: [m[2].trim()], line: i + 1 });
    else chunks.push({ lines: [], line: i + 2 });
  });
  const blank = (l: string): boolean => l.trim() === "" || l.trimStart().startsWith("#");
  return chunks
    .filter((c) => !c.lines.every(blank))
    .map((c, i) => ({ index: i + 1, text: c.lines.join("\n"), line: c.line }));
}

/** A YAML error's `(line:column)`, which counts from the document's start, moved to the file's lines. */
export function fileLines(message: string, firstLine: number): string {
  return message.replace(/\((\d+):(\d+)\)/, (_m, l: string, c: string) => `(${Number(l) + firstLine - 1}:${c})`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Why an object cannot be previewed, or null when it can. */
function objectProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return `expected a Kubernetes object, got ${describe(value)}`;
  const obj = value as KubeObject;
  const missing: string[] = [];
  if (typeof obj.apiVersion !== "string" || obj.apiVersion === "") missing.push("apiVersion");
  if (typeof obj.kind !== "string" || obj.kind === "") missing.push("kind");
  const metadata = obj.metadata as unknown;
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) missing.push("metadata");
  else if (typeof obj.metadata?.name !== "string" || obj.metadata.name === "") missing.push("metadata.name");
  else if (obj.metadata.namespace !== undefined && typeof obj.metadata.namespace !== "string")
    return "metadata.namespace is not a string";
  return missing.length > 0 ? `missing ${missing.join(", ")}` : null;
}

/** Adds one parsed document (flattening `*List` objects) to the dump. */
function addDocument(value: unknown, source: string, dump: Dump): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => addDocument(item, `${source}[${i}]`, dump));
    return;
  }
  const obj = value as KubeObject;
  if (typeof obj === "object" && typeof obj.kind === "string" && obj.kind.endsWith("List") && "items" in obj) {
    if (!Array.isArray(obj.items)) {
      dump.broken.push({ source, reason: `${obj.kind}.items is ${describe(obj.items)}, not a list` });
      return;
    }
    (obj.items as unknown[]).forEach((item, i) => addDocument(item, `${source}.items[${i}]`, dump));
    return;
  }
  const problem = objectProblem(value);
  if (problem !== null) dump.broken.push({ source, reason: problem });
  else dump.objects.push({ object: obj, source });
}

/** Parses one file's text; never throws. */
export function parseDump(text: string, file: string, into: Dump = { objects: [], broken: [] }): Dump {
  for (const doc of splitDocuments(text)) {
    const source = `${file}#${doc.index}`;
    let value: unknown;
    try {
      value = parseJsonOrYaml(doc.text, source);
    } catch (e) {
      into.broken.push({ source, reason: fileLines((e as Error).message.replace(`${source}: `, ""), doc.line) });
      continue;
    }
    addDocument(value, source, into);
  }
  return into;
}

/**
 * Reads every file (`-` = stdin). A file that cannot be read (a mistyped path, a directory) stops
 * the run: a preview of fewer objects than asked would pass a CI gate having checked nothing.
 */
export function readDumps(files: readonly string[]): Dump {
  const dump: Dump = { objects: [], broken: [] };
  for (const file of files) parseDump(readInput(file, "dump"), file === "-" ? "stdin" : file, dump);
  return dump;
}
