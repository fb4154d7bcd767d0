// The one statement of what each policy's lookups need from the Kubernetes API, derived from its
// metadata: the resources of `contextAwareResources`, with the verbs its `hostCapabilities` use.
// policy-server answers `get_resource` with a direct GET and the two list capabilities from a
// reflector (an initial LIST, then a WATCH) scoped like the call: by namespace, or cluster-wide
// (docs/decisions.md, "RBAC verbs"). deploy/, its least-privilege variant, the policy READMEs and
// docs/publishing.md all use or are tested against this derivation.

import { pluralResource } from "../host/request";

type Obj = Record<string, unknown>;

/** The verbs each lookup capability needs, and whether a namespaced Role can grant them. */
export const CAPABILITY_VERBS: Record<string, { verbs: string[]; namespaced: boolean }> = {
  "kubernetes/get_resource": { verbs: ["get"], namespaced: true },
  "kubernetes/list_resources_by_namespace": { verbs: ["list", "watch"], namespaced: true },
  "kubernetes/list_resources_all": { verbs: ["list", "watch"], namespaced: false },
};

export interface LookupGrant {
  apiGroup: string;
  /** plural, lowercase: `configmaps` */
  resource: string;
  kind: string;
  verbs: string[];
  /** false when a cluster-wide list needs a ClusterRole */
  namespaced: boolean;
}

const VERB_ORDER = ["get", "list", "watch"];

/**
 * What one policy's lookups need: each contextAwareResource with the union of the verbs of its
 * kubernetes/* host capabilities. A policy that declares no capabilities may use any of them
 * (Kubewarden's default), so it gets all three verbs, cluster-wide.
 */
export function lookupGrants(meta: Obj): LookupGrant[] {
  const resources = (meta.contextAwareResources ?? []) as { apiVersion: string; kind: string }[];
  if (resources.length === 0) return [];
  const declared = meta.hostCapabilities as string[] | undefined;
  const caps = (declared ?? Object.keys(CAPABILITY_VERBS)).filter((c) => c in CAPABILITY_VERBS);
  const verbs = VERB_ORDER.filter((v) => caps.some((c) => CAPABILITY_VERBS[c].verbs.includes(v)));
  const namespaced = caps.every((c) => CAPABILITY_VERBS[c].namespaced);
  return resources.map((r) => ({
    apiGroup: r.apiVersion.includes("/") ? r.apiVersion.split("/")[0] : "",
    resource: pluralResource(r.kind),
    kind: r.kind,
    verbs,
    namespaced,
  }));
}

/** RBAC rules for grants: one rule per (group, verbs), resources sorted; rules sorted by group. */
export function rbacRules(grants: readonly LookupGrant[]): Obj[] {
  const byKey = new Map<string, { group: string; verbs: string[]; resources: Set<string> }>();
  for (const g of grants) {
    const verbs = VERB_ORDER.filter((v) =>
      grants.some((o) => o.apiGroup === g.apiGroup && o.resource === g.resource && o.verbs.includes(v)),
    );
    const key = `${g.apiGroup} ${verbs.join(",")}`;
    if (!byKey.has(key)) byKey.set(key, { group: g.apiGroup, verbs, resources: new Set() });
    byKey.get(key)!.resources.add(g.resource);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => ({ apiGroups: [r.group], resources: [...r.resources].sort(), verbs: r.verbs }));
}

const code = (s: string): string => `\`${s}\``;
const andList = (items: string[]): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/**
 * The sentence a policy README states its lookups' RBAC with, e.g. "The policy server's service
 * account needs `get` on `configmaps` and `lmcacheengines.lmcache.lmcache.ai`."; empty when the
 * policy looks nothing up.
 */
export function rbacSentence(meta: Obj): string {
  const grants = lookupGrants(meta);
  if (grants.length === 0) return "";
  const byVerbs = new Map<string, string[]>();
  for (const g of grants) {
    const key = andList(g.verbs.map(code));
    if (!byVerbs.has(key)) byVerbs.set(key, []);
    byVerbs.get(key)!.push(code(g.apiGroup ? `${g.resource}.${g.apiGroup}` : g.resource));
  }
  const parts = [...byVerbs.entries()].map(([verbs, resources]) => `${verbs} on ${andList(resources)}`);
  const scope = grants.every((g) => g.namespaced)
    ? "in every namespace it looks in (a ClusterRole, or a Role in each)"
    : "cluster-wide (a ClusterRole)";
  return `The policy server's service account needs ${andList(parts)}, ${scope}.`;
}

/** The docs/publishing.md table: one row per policy with lookups. */
export function rbacTable(policies: readonly { name: string; meta: Obj }[]): string {
  const rows = policies
    .map((p) => ({ name: p.name, grants: lookupGrants(p.meta) }))
    .filter((p) => p.grants.length > 0)
    .map(
      (p) =>
        `| \`${p.name}\` | ${p.grants.map((g) => code(g.apiGroup ? `${g.resource}.${g.apiGroup}` : g.resource)).join(", ")} | ${p.grants[0].verbs.map(code).join(", ")} | ${p.grants[0].namespaced ? "yes" : "no"} |`,
    );
  return ["| Policy | Resources | Verbs | A Role per namespace suffices |", "|---|---|---|---|", ...rows].join("\n");
}
