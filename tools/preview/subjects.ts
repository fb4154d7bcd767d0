// What the API server would send each policy for a dumped object: the object itself as a CREATE,
// and for a workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob) also the Pod its
// template would create (namespace from the owner), since the pod injectors act on pods that do not
// exist yet. A ReplicaSet or Job whose controller is a Deployment or CronJob is left to its owner's
// row (the dump holds both; the owner's template is what the next rollout uses). Matching follows the webhook
// configuration the Kubewarden controller writes: rules (group, version, resource, CREATE), an
// AdmissionPolicy's own namespace, namespaceSelector and objectSelector.
import { AdmissionRequest, pluralResource, requestFromManifest } from "../host/request";
import type { KubeObject } from "../host/cluster";
import { isObject } from "../host/documents";
import type { BrokenDocument, DumpObject } from "./dump";
import type { LabelSelector, PolicyRule, PreviewPolicy } from "./policies";

export interface Subject {
  /** `Pod/name`, or `Deployment/name (pod template)` for a template */
  display: string;
  namespace: string | null;
  source: string;
  group: string;
  version: string;
  resource: string;
  labels: Record<string, string>;
  request: AdmissionRequest;
}

/** Workload kinds and where their pod template is. */
const TEMPLATE_PATHS: Record<string, string[]> = {
  "apps/v1 Deployment": ["spec", "template"],
  "apps/v1 StatefulSet": ["spec", "template"],
  "apps/v1 DaemonSet": ["spec", "template"],
  "apps/v1 ReplicaSet": ["spec", "template"],
  "batch/v1 Job": ["spec", "template"],
  "batch/v1 CronJob": ["spec", "jobTemplate", "spec", "template"],
};
/** The workload kinds whose pod template is previewed, as `apiVersion Kind`. */
export const TEMPLATE_OWNERS: readonly string[] = Object.keys(TEMPLATE_PATHS);

/** A ReplicaSet made by a Deployment, a Job made by a CronJob: the owner's row stands for its pods. */
const OWNED_BY: Record<string, string> = { ReplicaSet: "Deployment", Job: "CronJob" };

/** Whether the object's pods are previewed through its controller's template instead. */
export function ownedByWorkload(object: KubeObject): boolean {
  const owner = OWNED_BY[String(object.kind)];
  const refs = (object.metadata as Record<string, unknown> | undefined)?.ownerReferences;
  return (
    owner !== undefined &&
    Array.isArray(refs) &&
    refs.some((r) => isObject(r) && r.kind === owner && r.controller === true)
  );
}

/** Whether the object is a workload whose pod template is previewed. */
export function isTemplateOwner(object: KubeObject): boolean {
  return `${object.apiVersion} ${object.kind}` in TEMPLATE_PATHS;
}

function labelsOf(metadata: unknown): Record<string, string> {
  const labels = isObject(metadata) ? metadata.labels : undefined;
  if (!isObject(labels)) return {};
  return Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)]));
}

function subject(object: KubeObject, display: string, source: string): Subject {
  const request = requestFromManifest(object);
  const kind = request.kind as { group: string; version: string };
  return {
    display,
    namespace: typeof object.metadata?.namespace === "string" ? object.metadata.namespace : null,
    source,
    group: kind.group,
    version: kind.version,
    resource: pluralResource(String(object.kind)),
    labels: labelsOf(object.metadata),
    request,
  };
}

/** The Pod a workload's template would create; null (with a broken entry) when there is no template. */
function templatePod(owner: KubeObject, source: string, broken: BrokenDocument[]): KubeObject | null {
  const at = TEMPLATE_PATHS[`${owner.apiVersion} ${owner.kind}`];
  let template: unknown = owner;
  for (const key of at) template = isObject(template) ? template[key] : undefined;
  if (!isObject(template)) {
    broken.push({ source, reason: `${owner.kind}/${owner.metadata?.name}: ${at.join(".")} is not an object` });
    return null;
  }
  const metadata = isObject(template.metadata) ? { ...template.metadata } : {};
  delete metadata.name; // the controller names pods by generateName
  metadata.generateName = `${owner.metadata?.name}-`;
  if (typeof owner.metadata?.namespace === "string") metadata.namespace = owner.metadata.namespace;
  else delete metadata.namespace;
  return { apiVersion: "v1", kind: "Pod", metadata, ...(template.spec !== undefined ? { spec: template.spec } : {}) };
}

/** Every request a dumped object stands for; a workload without a template is reported broken. */
export function subjectsOf(item: DumpObject, broken: BrokenDocument[]): Subject[] {
  const { object, source } = item;
  const name = String(object.metadata?.name);
  const out = [subject(object, `${object.kind}/${name}`, source)];
  if (isTemplateOwner(object) && !ownedByWorkload(object)) {
    const pod = templatePod(object, source, broken);
    if (pod) out.push(subject(pod, `${object.kind}/${name} (pod template)`, source));
  }
  return out;
}

// --- matching -------------------------------------------------------------------------------------

const anyOf = (list: string[], value: string): boolean => list.includes("*") || list.includes(value);

export function ruleMatches(rule: PolicyRule, s: Subject, operation = "CREATE"): boolean {
  return (
    anyOf(rule.operations, operation) &&
    anyOf(rule.apiGroups, s.group) &&
    anyOf(rule.apiVersions, s.version) &&
    anyOf(rule.resources, s.resource)
  );
}

/** metav1.LabelSelector semantics; an empty selector matches everything. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case "In":
        if (!has || !values.includes(labels[e.key])) return false;
        break;
      case "NotIn":
        if (has && values.includes(labels[e.key])) return false;
        break;
      case "Exists":
        if (!has) return false;
        break;
      case "DoesNotExist":
        if (has) return false;
        break;
      default:
        return false; // the API server rejects unknown operators; nothing matches
    }
  }
  return true;
}

/** Labels of every namespace: the dump's Namespace objects, else the label the API server always sets. */
export function namespaceLabels(objects: readonly DumpObject[]): (namespace: string) => Record<string, string> {
  const known = new Map<string, Record<string, string>>();
  for (const { object } of objects)
    if (object.apiVersion === "v1" && object.kind === "Namespace")
      known.set(String(object.metadata?.name), labelsOf(object.metadata));
  return (namespace) => ({ "kubernetes.io/metadata.name": namespace, ...(known.get(namespace) ?? {}) });
}

export type Applicability = { applies: false } | { applies: true; excludedBy?: "namespaceSelector" | "objectSelector" };

/** Whether the policy's webhook would be called for the subject, or which selector filters it out. */
export function applicability(
  policy: PreviewPolicy,
  s: Subject,
  labelsOfNamespace: (namespace: string) => Record<string, string>,
): Applicability {
  if (!policy.rules.some((r) => ruleMatches(r, s))) return { applies: false };
  if (policy.namespace !== undefined && s.namespace !== policy.namespace) return { applies: false };
  if (policy.namespaceSelector && s.namespace !== null) {
    if (!selectorMatches(policy.namespaceSelector, labelsOfNamespace(s.namespace)))
      return { applies: true, excludedBy: "namespaceSelector" };
  }
  if (!selectorMatches(policy.objectSelector, s.labels)) return { applies: true, excludedBy: "objectSelector" };
  return { applies: true };
}
