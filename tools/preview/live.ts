// `cachewarden preview --kubeconfig`: reading a live cluster instead of a dump. The kinds read are
// the ones the chosen policies act on (their rules, and for pods the workloads whose templates make
// pods), the ones they look up (their contextAwareResources) and Namespaces (selectors, Pod Security
// labels), across all namespaces or the given ones, page by page through tools/host/live-client.ts.
// What cannot be read is reported, one line each, and the rest is previewed: a kind the cluster does
// not serve (a CRD not installed), a list the credentials may not make (per namespace when a list
// across all of them is refused). A cluster that cannot be reached, or that refuses the
// credentials, stops the run. Objects are kept as `kubectl get -o yaml` writes them (apiVersion and
// kind set, managedFields left out), so `--save-dump` gives the offline preview the same rows.
import * as fs from "node:fs";
import type { KubeObject } from "../host/cluster";
import { parseJsonOrYaml } from "../host/documents";
import { serdeJson } from "../host/serde";
import { LiveClient, LiveFailure, LiveSource } from "../host/live-client";
import type { Dump } from "./dump";
import type { PreviewPolicy } from "./policies";
import { TEMPLATE_OWNERS } from "./subjects";
import { fileErrorText } from "../file-errors";

export interface NotRead {
  /** `CacheBlendEngine (lmcache.lmcache.ai/v1alpha1)`, `namespace team-c` */
  what: string;
  reason: string;
}

export interface LiveRead {
  dump: Dump;
  notRead: NotRead[];
  /** `context "<name>" (<server>)`, for the headline */
  from: string;
}

export interface LiveReadOptions {
  /** only these namespaces (default: all) */
  namespaces?: string[];
  progress?: (line: string) => void;
}

type Kind = { apiVersion: string; kind: string };
const key = (k: Kind): string => `${k.apiVersion} ${k.kind}`;
const NAMESPACE: Kind = { apiVersion: "v1", kind: "Namespace" };

/** The kinds the policies act on and look up, and Namespaces; rules' resources resolved by discovery. */
async function kindsToRead(
  client: LiveClient,
  policies: readonly PreviewPolicy[],
  notRead: NotRead[],
): Promise<Kind[]> {
  const kinds = new Map<string, Kind>([[key(NAMESPACE), NAMESPACE]]);
  const add = (k: Kind): void => void kinds.set(key(k), k);
  for (const p of policies) {
    for (const rule of p.rules)
      for (const group of rule.apiGroups)
        for (const version of rule.apiVersions) {
          const apiVersion = group === "" ? version : `${group}/${version}`;
          for (const plural of rule.resources) {
            if (plural.includes("/") || [group, version, plural].includes("*")) continue;
            const kind = await client.kindOf(apiVersion, plural);
            if (kind === null)
              notRead.push({
                what: `${plural} (${apiVersion})`,
                reason: `the cluster does not serve it${group.includes(".") ? " (no CustomResourceDefinition for it is installed)" : ""}`,
              });
            else if (typeof kind !== "string") fatalOr(kind, notRead, `${plural} (${apiVersion})`);
            else {
              add({ apiVersion, kind });
              if (apiVersion === "v1" && kind === "Pod")
                for (const owner of TEMPLATE_OWNERS) {
                  const [v, k] = owner.split(" ");
                  add({ apiVersion: v, kind: k });
                }
            }
          }
        }
    p.contextAwareResources.forEach(add);
  }
  return [...kinds.values()];
}

/** An unreachable cluster or refused credentials stop the run; anything else is reported. */
function fatalOr(f: LiveFailure, notRead: NotRead[], what: string): void {
  if (f.cause === "unreachable" || f.cause === "unauthorized") throw new Error(f.problem);
  if (!notRead.some((n) => n.reason === f.problem)) notRead.push({ what, reason: f.problem });
}

/**
 * As `kubectl get -o yaml` shows an item: its type set, managedFields left out, keys sorted at every
 * level (number text kept), so a preview of it computes the same patches as one of kubectl's dump.
 */
function asDumped(o: KubeObject, k: Kind): KubeObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = o;
  const { managedFields: _m, ...meta } = (metadata ?? {}) as Record<string, unknown>;
  const typed = { apiVersion: k.apiVersion, kind: k.kind, metadata: meta, ...rest };
  return parseJsonOrYaml(serdeJson(typed), "the API server") as KubeObject;
}

/** Reads the cluster of `source` for the policies; throws one line when it cannot be read at all. */
export async function readCluster(
  source: LiveSource,
  policies: readonly PreviewPolicy[],
  opts: LiveReadOptions = {},
): Promise<LiveRead> {
  const progress = opts.progress ?? (() => undefined);
  const client = await LiveClient.connect(source);
  const notRead: NotRead[] = [];
  const dump: Dump = { objects: [], broken: [] };
  const from = `context ${JSON.stringify(client.context)} (${client.server})`;
  const wanted = opts.namespaces !== undefined ? new Set(opts.namespaces) : undefined;
  let namespaces: string[] | undefined = opts.namespaces;
  const kinds = await kindsToRead(client, policies, notRead);
  const started = Date.now();
  for (const k of kinds) {
    const what = `${k.kind} (${k.apiVersion})`;
    const r = await client.resource(k.apiVersion, k.kind);
    if ("cause" in r) {
      fatalOr(r, notRead, what);
      continue;
    }
    const items: KubeObject[] = [];
    if (!r.namespaced || wanted === undefined) {
      const all = await client.list(k.apiVersion, k.kind, null);
      // with --namespace, of the cluster-scoped kinds only Namespaces are narrowed to those given
      const keep = (o: KubeObject): boolean =>
        r.namespaced || !wanted || key(k) !== key(NAMESPACE) || wanted.has(name(o));
      if ("items" in all) items.push(...all.items.filter(keep));
      else if (all.cause === "forbidden" && r.namespaced && namespaces !== undefined) {
        // a list across all namespaces refused: namespace by namespace, reporting the refused ones
        items.push(...(await perNamespace(client, k, namespaces, notRead)));
      } else fatalOr(all, notRead, what);
    } else items.push(...(await perNamespace(client, k, namespaces!, notRead)));
    if (key(k) === key(NAMESPACE) && wanted === undefined) namespaces = items.map(name);
    for (const o of items)
      dump.objects.push({
        object: asDumped(o, k),
        source: `${k.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ""}${name(o)}`,
      });
    progress(`preview: read ${items.length} ${k.kind} object(s) (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  return { dump, notRead, from };
}

async function perNamespace(
  client: LiveClient,
  k: Kind,
  namespaces: string[],
  notRead: NotRead[],
): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const ns of namespaces) {
    const listed = await client.list(k.apiVersion, k.kind, ns);
    if ("items" in listed) out.push(...listed.items);
    else if (listed.cause !== "forbidden") fatalOr(listed, notRead, `namespace ${ns}`);
    else {
      // one line per namespace, naming every kind its credentials may not list
      const what = `namespace ${ns}`;
      const seen = notRead.find((n) => n.what === what);
      if (seen)
        seen.reason = seen.reason.replace(
          /^the credentials may not list ([^:]*):/,
          `the credentials may not list $1, ${k.kind}:`,
        );
      else
        notRead.push({
          what,
          reason: `the credentials may not list ${k.kind}: ${listed.problem.replace(/^[^:]*: forbidden: /, "")}`,
        });
    }
  }
  return out;
}

const name = (o: KubeObject): string => String(o.metadata?.name);

/** Objects a live lookup returned that the read did not hold (a namespace outside the ones read). */
export function lookedUpObjects(answers: readonly string[]): KubeObject[] {
  const out: KubeObject[] = [];
  for (const text of answers) {
    const v = parseJsonOrYaml(text, "a lookup") as KubeObject & { items?: KubeObject[] };
    if (!Array.isArray(v.items)) out.push(v);
    else {
      const k = { apiVersion: String(v.apiVersion), kind: String(v.kind).replace(/List$/, "") };
      out.push(...v.items.map((o) => asDumped(o, k)));
    }
  }
  return out;
}

/**
 * `--save-dump`: what was read, as one `kind: List` in JSON (what `kubectl get -o json` writes and
 * `preview <dump>` reads), written by the serde writer so every number keeps its text.
 */
export function saveDump(file: string, objects: readonly KubeObject[]): void {
  const text = serdeJson({ apiVersion: "v1", kind: "List", metadata: { resourceVersion: "" }, items: objects }) + "\n";
  try {
    fs.writeFileSync(file, text);
  } catch (e) {
    throw new Error(`cannot write dump ${file}: ${fileErrorText(e)}`);
  }
}
