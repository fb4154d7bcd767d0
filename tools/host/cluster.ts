// A fake cluster for host capabilities: a YAML list (or multi-document stream, or a `kind: List`)
// of Kubernetes objects answering get_resource / list_resources_* the way policy-evaluator's kube
// client does, including its not-found text (docs/wasm-contract.md#host-errors).
import * as fs from "node:fs";
import * as yaml from "js-yaml";

export type KubeObject = Record<string, unknown> & {
  apiVersion?: string; kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } & Record<string, unknown>;
};

const CALLBACK_FAILURE = "Callback evaluation failure: ";

/** Flattens documents and `List` objects into a plain object list; every object needs apiVersion, kind, metadata.name. */
export function parseClusterObjects(text: string, source = "<cluster>"): KubeObject[] {
  let docs: unknown[];
  try { docs = yaml.loadAll(text); } catch (e) { throw new Error(`${source}: invalid YAML: ${(e as Error).message.split("\n")[0]}`); }
  const out: KubeObject[] = [];
  const add = (doc: unknown): void => {
    if (doc === null || doc === undefined) return;
    if (Array.isArray(doc)) { doc.forEach(add); return; }
    const obj = doc as KubeObject;
    if (typeof obj !== "object") throw new Error(`${source}: cluster objects must be mappings`);
    if (typeof obj.kind === "string" && obj.kind.endsWith("List") && Array.isArray(obj.items)) { (obj.items as unknown[]).forEach(add); return; }
    if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string" || typeof obj.metadata?.name !== "string") {
      throw new Error(`${source}: object ${out.length + 1} needs apiVersion, kind and metadata.name`);
    }
    out.push(obj);
  };
  docs.forEach(add);
  return out;
}

export function loadClusterObjects(file: string): KubeObject[] {
  let text: string;
  try { text = fs.readFileSync(file, "utf8"); } catch (e) { throw new Error(`cannot read cluster objects ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
  return parseClusterObjects(text, file);
}

/** Rust's Debug of `Option<String>` as used in the not-found text. */
function debugOption(ns: string | null): string {
  return ns === null ? "None" : `Some(${JSON.stringify(ns)})`;
}

// --- selectors ------------------------------------------------------------------------------------

type Requirement = (labels: Record<string, string>) => boolean;

/** Splits on commas that are not inside `( … )` (set-based values). */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) { terms.push(cur); cur = ""; } else cur += ch;
  }
  terms.push(cur);
  return terms.map((t) => t.trim()).filter((t) => t !== "");
}

function parseRequirement(term: string): Requirement {
  let m = term.match(/^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/);
  if (m) {
    const [, key, op, value] = m;
    return op === "!=" ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  m = term.match(/^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/);
  if (m) {
    const [, key, op, list] = m;
    const values = new Set(list.split(",").map((v) => v.trim()));
    return op === "in" ? (l) => key in l && values.has(l[key]) : (l) => !(key in l) || !values.has(l[key]);
  }
  m = term.match(/^(!?)([^\s!=(),]+)$/);
  if (m) {
    const [, not, key] = m;
    return not ? (l) => !(key in l) : (l) => key in l;
  }
  throw new Error(`${CALLBACK_FAILURE}invalid label selector: ${JSON.stringify(term)}`);
}

/** Kubernetes label selector (equality-, set-based and existence requirements, ANDed). */
export function labelSelectorMatcher(selector: string | null): (obj: KubeObject) => boolean {
  if (selector === null || selector.trim() === "") return () => true;
  const reqs = splitTerms(selector).map(parseRequirement);
  return (obj) => reqs.every((r) => r(obj.metadata?.labels ?? {}));
}

function fieldAt(obj: unknown, dotted: string): string | undefined {
  let cur: unknown = obj;
  for (const part of dotted.split(".")) cur = (cur as Record<string, unknown> | undefined)?.[part];
  return cur === undefined || cur === null ? undefined : String(cur);
}

/** Field selector with `=`, `==`, `!=` on dotted paths (the API server supports few fields; we allow any). */
export function fieldSelectorMatcher(selector: string | null): (obj: KubeObject) => boolean {
  if (selector === null || selector.trim() === "") return () => true;
  const reqs = splitTerms(selector).map((term) => {
    const m = term.match(/^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/);
    if (!m) throw new Error(`${CALLBACK_FAILURE}invalid field selector: ${JSON.stringify(term)}`);
    const [, path, op, value] = m;
    return (o: KubeObject) => (op === "!=" ? fieldAt(o, path) !== value : fieldAt(o, path) === value);
  });
  return (obj) => reqs.every((r) => r(obj));
}

// --- the fake API ---------------------------------------------------------------------------------

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !("managedFields" in obj.metadata)) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export class FakeCluster {
  constructor(private readonly objects: readonly KubeObject[]) {}

  private ofKind(apiVersion: string, kind: string): KubeObject[] {
    return this.objects.filter((o) => o.apiVersion === apiVersion && o.kind === kind);
  }

  /** The object, or throws the host's not-found text. */
  get(apiVersion: string, kind: string, name: string, namespace: string | null): KubeObject {
    const found = this.ofKind(apiVersion, kind)
      .find((o) => o.metadata?.name === name && (o.metadata?.namespace ?? null) === namespace);
    if (!found) {
      throw new Error(`${CALLBACK_FAILURE}Cannot find ${apiVersion}/${kind} named '${name}' inside of namespace '${debugOption(namespace)}'`);
    }
    return withoutManagedFields(found);
  }

  /** A Kubernetes List of matching objects; `namespace` null lists every namespace. */
  list(apiVersion: string, kind: string, namespace: string | null, labelSelector: string | null, fieldSelector: string | null): Record<string, unknown> {
    const byLabel = labelSelectorMatcher(labelSelector);
    const byField = fieldSelectorMatcher(fieldSelector);
    const items = this.ofKind(apiVersion, kind)
      .filter((o) => namespace === null || o.metadata?.namespace === namespace)
      .filter((o) => byLabel(o) && byField(o))
      .map(withoutManagedFields);
    return { apiVersion, kind: `${kind}List`, metadata: { resourceVersion: "" }, items };
  }
}
