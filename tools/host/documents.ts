// JSON and YAML documents read losslessly, as kwctl reads its inputs: JSON by serde_json's grammar
// with every number's text kept, YAML with floats kept apart from integers. Request files, settings,
// replay sessions' objects and cluster-object files all come through here.
import * as fs from "node:fs";
import * as yaml from "js-yaml";
import { fileErrorText } from "../file-errors";
import { formatF64, JsonNode, parseJsonNodes, serdeNumber, valueFromNode } from "./serde";

/** Reads a file (or stdin for `-`) as UTF-8. */
export function readInput(file: string, what: string): string {
  try {
    return fs.readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    throw new Error(`cannot read ${what} ${file === "-" ? "from stdin" : file}: ${fileErrorText(e)}`);
  }
}

/** A JSON/YAML mapping (not null, not a list). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A YAML float, kept apart from integers (`256.0` is an f64 for serde_yaml, `256` a u64). */
class YamlFloat {
  constructor(readonly value: number) {}
}

const floatAsFloat = yaml.defineScalarTag<unknown>("tag:yaml.org,2002:float", {
  ...yaml.floatCoreTag,
  resolve: (source, isExplicit, tagName) => {
    const v = yaml.floatCoreTag.resolve(source, isExplicit, tagName);
    return v === yaml.NOT_RESOLVED ? v : new YamlFloat(v);
  },
});

/** js-yaml's default (YAML 1.2 core) schema, except that floats stay floats. */
export const LOSSLESS_YAML_SCHEMA = yaml.CORE_SCHEMA.withTags(floatAsFloat);

const at = { start: 0, end: 0 };

/**
 * A value loaded with LOSSLESS_YAML_SCHEMA as a node (a non-finite float is `null`, as in serde_json).
 * js-yaml yields null, booleans, numbers, strings, arrays, mappings and our floats, never `undefined`.
 */
export function yamlToNode(v: unknown): JsonNode {
  if (v === null) return { kind: "null", ...at };
  if (v instanceof YamlFloat)
    return Number.isFinite(v.value) ? { kind: "number", text: formatF64(v.value), ...at } : { kind: "null", ...at };
  if (typeof v === "number") return { kind: "number", text: Number.isSafeInteger(v) ? String(v) : formatF64(v), ...at };
  if (typeof v === "boolean") return { kind: "bool", value: v, ...at };
  if (typeof v === "string") return { kind: "string", value: v, ...at };
  if (Array.isArray(v)) return { kind: "array", items: v.map(yamlToNode), ...at };
  // the core schema yields nothing else: a mapping
  return {
    kind: "object",
    entries: Object.entries(v as Record<string, unknown>).map(([key, value]) => ({
      key,
      keyEnd: 0,
      value: yamlToNode(value),
    })),
    ...at,
  };
}

/** Rejects a number serde_json cannot hold (`1e400`: "number out of range"), as kwctl does on reading. */
export function checkNumbers(node: JsonNode, source: string): void {
  if (node.kind === "number") {
    try {
      serdeNumber(node.text);
    } catch (e) {
      throw new Error(`${source}: ${(e as Error).message}: ${node.text}`);
    }
  } else if (node.kind === "array") node.items.forEach((n) => checkNumbers(n, source));
  else if (node.kind === "object") node.entries.forEach((e) => checkNumbers(e.value, source));
}

/** JSON first (by serde_json's grammar, number text kept), then YAML (floats kept as floats). */
export function parseDocumentNode(text: string, source: string): JsonNode {
  let node: JsonNode | undefined;
  try {
    node = parseJsonNodes(text);
  } catch {
    /* not JSON: try YAML */
  }
  if (!node) {
    try {
      node = yamlToNode(yaml.load(text, { schema: LOSSLESS_YAML_SCHEMA }));
    } catch (e) {
      throw new Error(`${source}: neither JSON nor YAML: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  checkNumbers(node, source);
  return node;
}

/**
 * A JSON or YAML document as a plain value whose objects and arrays remember their source text, so
 * the payload the guest receives keeps each number's serde kind (`256.0` stays `256.0`).
 */
export function parseJsonOrYaml(text: string, source: string): unknown {
  return valueFromNode(parseDocumentNode(text, source));
}
