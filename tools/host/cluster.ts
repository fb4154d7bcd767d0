// A fake cluster for host capabilities: a YAML list (or multi-document stream, or a `kind: List`)
// of Kubernetes objects answering get_resource / list_resources_* the way policy-evaluator's kube
// client does: its scope rules and error texts (docs/wasm-contract.md#host-errors), and its answer
// bytes (a DynamicObject: apiVersion, kind, metadata, then the other keys in byte order; listed
// objects come from a reflector cache, which empties `managedFields`, ensures `annotations` and
// drops kubectl's last-applied-configuration annotation). tools/host/README.md lists what is emulated.
import * as yaml from "js-yaml";
import { LOSSLESS_YAML_SCHEMA, readInput, yamlToNode } from "./documents";
import { CALLBACK_FAILURE, rustDebugOption } from "./rust";
import { compareKeys, memberSourceNode, serdeJson, valueFromNode, writeString } from "./serde";

export type KubeObject = Record<string, unknown> & {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } & Record<string, unknown>;
};

export { CALLBACK_FAILURE };

/** Flattens documents and `List` objects into a plain object list; every object needs apiVersion, kind, metadata.name. */
export function parseClusterObjects(text: string, source = "<cluster>"): KubeObject[] {
  let docs: unknown[];
  try {
    docs = yaml.loadAll(text, { schema: LOSSLESS_YAML_SCHEMA }).map((d) => valueFromNode(yamlToNode(d)));
  } catch (e) {
    throw new Error(`${source}: invalid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  const out: KubeObject[] = [];
  const add = (doc: unknown): void => {
    if (doc === null) return; // an empty document
    if (Array.isArray(doc)) {
      doc.forEach(add);
      return;
    }
    const obj = doc as KubeObject;
    if (typeof obj !== "object") throw new Error(`${source}: cluster objects must be mappings`);
    if (typeof obj.kind === "string" && obj.kind.endsWith("List") && Array.isArray(obj.items)) {
      (obj.items as unknown[]).forEach(add);
      return;
    }
    if (typeof obj.apiVersion !== "string" || typeof obj.kind !== "string" || typeof obj.metadata?.name !== "string") {
      throw new Error(`${source}: object ${out.length + 1} needs apiVersion, kind and metadata.name`);
    }
    out.push(obj);
  };
  docs.forEach(add);
  return out;
}

export function loadClusterObjects(file: string): KubeObject[] {
  return parseClusterObjects(readInput(file, "cluster objects"), file);
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
    if (ch === "," && depth === 0) {
      terms.push(cur);
      cur = "";
    } else cur += ch;
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
  // a blank selector has no terms, so it matches everything too
  if (selector === null) return () => true;
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
  if (selector === null) return () => true;
  const reqs = splitTerms(selector).map((term) => {
    const m = term.match(/^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/);
    if (!m) throw new Error(`${CALLBACK_FAILURE}invalid field selector: ${JSON.stringify(term)}`);
    const [, path, op, value] = m;
    return (o: KubeObject) => (op === "!=" ? fieldAt(o, path) !== value : fieldAt(o, path) === value);
  });
  return (obj) => reqs.every((r) => r(obj));
}

// --- the fake API ---------------------------------------------------------------------------------

// Kinds the API server serves cluster-scoped, for kinds the objects file holds no object of.
const CLUSTER_SCOPED_KINDS = new Set([
  "Namespace",
  "Node",
  "PersistentVolume",
  "ClusterRole",
  "ClusterRoleBinding",
  "StorageClass",
  "CustomResourceDefinition",
  "PriorityClass",
  "RuntimeClass",
  "IngressClass",
  "CSIDriver",
  "CSINode",
  "VolumeAttachment",
  "MutatingWebhookConfiguration",
  "ValidatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
  "APIService",
  "CertificateSigningRequest",
  "ClusterAdmissionPolicy",
  "ClusterAdmissionPolicyGroup",
  "PolicyServer",
]);

// ObjectMeta's fields: metadata is read into that struct, so other keys do not reach the guest
const OBJECT_META_FIELDS = new Set([
  "annotations",
  "creationTimestamp",
  "deletionGracePeriodSeconds",
  "deletionTimestamp",
  "finalizers",
  "generateName",
  "generation",
  "labels",
  "managedFields",
  "name",
  "namespace",
  "ownerReferences",
  "resourceVersion",
  "selfLink",
  "uid",
]);

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/**
 * A DynamicObject as serde_json writes it: apiVersion, kind, metadata (ObjectMeta), then the rest
 * sorted. Its type is optional: an item of a list of a built-in kind comes from the API server
 * without apiVersion and kind, and kube-rs then writes neither.
 */
export function dynamicObjectJson(obj: KubeObject, metadata: Record<string, unknown> = obj.metadata ?? {}): string {
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) if (OBJECT_META_FIELDS.has(k) && v !== null) meta[k] = v;
  const rest = Object.keys(obj)
    .filter((k) => k !== "apiVersion" && k !== "kind" && k !== "metadata")
    .sort(compareKeys);
  const typed = typeof obj.apiVersion === "string" && typeof obj.kind === "string";
  const parts = [
    ...(typed
      ? [`"apiVersion":${writeString(String(obj.apiVersion))}`, `"kind":${writeString(String(obj.kind))}`]
      : []),
    `"metadata":${serdeJson(meta)}`,
  ];
  // the other members are serde_json Values: they keep their number text (`256.0` stays a float),
  // as nested values do (metadata is read into ObjectMeta, whose numbers are integers)
  for (const k of rest) parts.push(`${writeString(k)}:${serdeJson(obj[k], memberSourceNode(obj, k))}`);
  return `{${parts.join(",")}}`;
}

/** The metadata of an object served from the reflector cache. */
export function cachedMetadata(obj: KubeObject): Record<string, unknown> {
  const annotations = { ...((obj.metadata?.annotations as Record<string, unknown> | undefined) ?? {}) };
  delete annotations[LAST_APPLIED];
  return { ...(obj.metadata ?? {}), annotations, managedFields: [] };
}

/** The answer to list_resources_*: kube-rs' ObjectList of the items (each already written). */
export function listAnswerJson(apiVersion: string, kind: string, items: readonly string[]): string {
  return `{"apiVersion":${writeString(apiVersion)},"kind":${writeString(`${kind}List`)},"metadata":{},"items":[${items.join(",")}]}`;
}

// policy-evaluator's kube client's texts for what it refuses (the guest reads them after CALLBACK_FAILURE)

export function namespacedWithoutNamespaceText(apiVersion: string, kind: string): string {
  return `Resource ${apiVersion}/${kind} is namespaced, but no namespace was provided`;
}

export function notFoundText(apiVersion: string, kind: string, name: string, namespace: string | null): string {
  return `Cannot find ${apiVersion}/${kind} named '${name}' inside of namespace '${rustDebugOption(namespace)}'`;
}

export function clusterWideText(apiVersion: string, kind: string): string {
  return `resource ${apiVersion}/${kind} is cluster wide. Cannot search for it inside of a namespace`;
}

export class FakeCluster {
  constructor(private readonly objects: readonly KubeObject[]) {}

  private ofKind(apiVersion: string, kind: string): KubeObject[] {
    return this.objects.filter((o) => o.apiVersion === apiVersion && o.kind === kind);
  }

  /** Namespaced when an object of the kind has a namespace; cluster-scoped when objects exist without one, or for well-known cluster kinds. */
  namespaced(apiVersion: string, kind: string): boolean {
    const objects = this.ofKind(apiVersion, kind);
    if (objects.length > 0) return objects.some((o) => typeof o.metadata?.namespace === "string");
    return !CLUSTER_SCOPED_KINDS.has(kind);
  }

  /** The answer to get_resource, or throws the text the guest receives. */
  get(apiVersion: string, kind: string, name: string, namespace: string | null): string {
    const namespaced = this.namespaced(apiVersion, kind);
    if (namespaced && namespace === null)
      throw new Error(CALLBACK_FAILURE + namespacedWithoutNamespaceText(apiVersion, kind));
    // a cluster-scoped kind is fetched by name alone: a namespace given with it is ignored
    const found = this.ofKind(apiVersion, kind).find(
      (o) => o.metadata?.name === name && (!namespaced || o.metadata?.namespace === namespace),
    );
    if (!found) throw new Error(CALLBACK_FAILURE + notFoundText(apiVersion, kind, name, namespace));
    return dynamicObjectJson(found);
  }

  /** The answer to list_resources_*: a List of matching objects; `namespace` null lists every namespace. */
  list(
    apiVersion: string,
    kind: string,
    namespace: string | null,
    labelSelector: string | null,
    fieldSelector: string | null,
  ): string {
    if (namespace !== null && !this.namespaced(apiVersion, kind))
      throw new Error(CALLBACK_FAILURE + clusterWideText(apiVersion, kind));
    const byLabel = labelSelectorMatcher(labelSelector);
    const byField = fieldSelectorMatcher(fieldSelector);
    const items = this.ofKind(apiVersion, kind)
      .filter((o) => namespace === null || o.metadata?.namespace === namespace)
      .filter((o) => byLabel(o) && byField(o))
      .map((o) => dynamicObjectJson(o, cachedMetadata(o)));
    return listAnswerJson(apiVersion, kind, items);
  }
}
