// `cachewarden preview`: every policy that applies, evaluated on every object of a dump the way
// policy-server would (settings validated once per policy, then one fresh-instance `validate` per
// request, lookups answered from the dump for the resources the policy is granted), and each answer
// classified: wired (a pod mutated), skipped (accepted with a `skip-reason` audit annotation, the pod
// injectors' way of reporting why they left a pod alone), rejected, untouched, defaulted (any other
// object mutated: the CacheBackend defaulter); a policy in monitor mode is evaluated as in protect
// mode and says what it would do (would-wire, would-reject, would-default); a wired pod the
// namespace's Pod Security `enforce` level refuses is `refused`.
import { applyPatch, type Operation } from "fast-json-patch";
import type { ContextAwareResource } from "../host/metadata";
import type { KubeObject } from "../host/cluster";
import { guestPayloads, validateSettings } from "../host/evaluate";
import { evaluateMany, PoolJob, PoolPolicy, PoolResult } from "../host/evaluate-pool";
import { PolicyModule } from "../host/guest";
import { serdeJson } from "../host/serde";
import { BrokenDocument, Dump, readDumps } from "./dump";
import { lookedUpObjects, NotRead, readCluster, saveDump } from "./live";
import type { LiveSource } from "../host/live-client";
import { loadPolicies, PolicyProblem, PreviewPolicy } from "./policies";
import { applicability, namespaceLabels, ownedByWorkload, Subject, subjectsOf } from "./subjects";
import { formatViolations, violations } from "../podsecurity/levels";
import {
  DEFAULT_POD_SECURITY,
  exemptFromPodSecurity,
  namespacePodSecurity,
  PodSecurityConfig,
} from "../podsecurity/namespace";

export const OUTCOMES = [
  "wired",
  "would-wire",
  "skipped",
  "rejected",
  "would-reject",
  "refused",
  "untouched",
  "defaulted",
  "would-default",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface PreviewRow {
  /** null for cluster-scoped objects */
  namespace: string | null;
  object: string;
  source: string;
  policy: string;
  outcome: Outcome;
  /** the skip reason, or why the policy was not called (`not selected (objectSelector)`) */
  reason: string;
  /** the rejection message, the skip detail, or the policy's warnings */
  message: string;
  /** the JSON Patch of a mutation (wired, and skipped when the skip reason is stamped) */
  patch?: Operation[];
}

export interface PreviewPolicySummary {
  name: string;
  origin: PreviewPolicy["origin"];
  module: string;
  namespace?: string;
}

export interface PreviewReport {
  /** where the policies came from */
  policiesFrom: string;
  policies: PreviewPolicySummary[];
  objects: number;
  evaluations: number;
  rows: PreviewRow[];
  totals: {
    policies: Record<string, Record<Outcome, number>>;
    reasons: Record<string, number>;
  };
  broken: BrokenDocument[];
  problems: PolicyProblem[];
  /** objects no policy evaluates and none reads, by kind (`Rollout: 2`): what the preview did not check */
  leftOut: Record<string, number>;
  /** a live read: the cluster's context, and what could not be read (a kind not served, a list refused) */
  cluster?: { from: string; notRead: NotRead[] };
}

export interface PreviewOptions {
  /** a policies directory, kustomization or rendered YAML (default: the repository's built policies) */
  policies?: string;
  /** where `spec.module` references are resolved (default: the repository's policies/) */
  modules?: string;
  /** the API server's PodSecurity configuration: defaults for unlabelled namespaces, exemptions */
  podSecurity?: PodSecurityConfig;
  /** the namespace Kubewarden runs in, which cluster-wide policies skip (default: kubewarden) */
  policyServerNamespace?: string;
  /** worker threads (0: evaluate on this thread); default: this machine's parallelism for large dumps */
  workers?: number;
  /** progress lines (stderr in the CLI) */
  progress?: (line: string) => void;
  /** read a live cluster instead of dumps, answering lookups from it too */
  live?: {
    source: LiveSource;
    /** only these namespaces (default: all) */
    namespaces?: string[];
    /** write what was read here, for the offline preview */
    saveDump?: string;
  };
}

// Below this many evaluations starting threads costs more than it saves.
const IN_PROCESS_BELOW = 256;

/** The dump objects a policy may read: only the kinds it is granted, as policy-server gates them. */
function grantedObjects(objects: readonly KubeObject[], grants: readonly ContextAwareResource[]): KubeObject[] {
  const granted = new Set(grants.map((g) => `${g.apiVersion} ${g.kind}`));
  return objects.filter((o) => granted.has(`${o.apiVersion} ${o.kind}`));
}

const SKIP_WARNING = /^[^:]+: injection skipped \(([^)]*)\): (.*)$/s;

/** Wired / skipped / rejected / untouched / defaulted, with the reason and message a reader needs;
 *  a mutation of an object of `kind` other than Pod is `defaulted`. */
export function classify(
  result: PoolResult,
  kind = "Pod",
): Pick<PreviewRow, "outcome" | "reason" | "message" | "patch"> {
  const r = result.response;
  const patch = result.patchOperations && result.patchOperations.length > 0 ? result.patchOperations : undefined;
  const warnings = r.warnings ?? [];
  if (!r.allowed) return { outcome: "rejected", reason: "", message: r.status?.message ?? "" };
  const skip = r.auditAnnotations?.["skip-reason"];
  if (skip !== undefined) {
    const detail = warnings.map((w) => SKIP_WARNING.exec(w)).find((m) => m !== null && m[1] === skip);
    return {
      outcome: "skipped",
      reason: skip,
      message: detail ? detail[2] : warnings.join("; "),
      ...(patch ? { patch } : {}),
    };
  }
  return {
    outcome: patch ? (kind === "Pod" ? "wired" : "defaulted") : "untouched",
    reason: "",
    message: warnings.join("; "),
    ...(patch ? { patch } : {}),
  };
}

function emptyTotals(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

/** A monitor-mode answer says what the policy would do; policy-server applies none of it. */
function asMonitor(row: Pick<PreviewRow, "outcome" | "reason" | "message" | "patch">): typeof row {
  if (row.outcome === "wired") return { ...row, outcome: "would-wire" };
  if (row.outcome === "rejected") return { ...row, outcome: "would-reject" };
  if (row.outcome === "defaulted") return { ...row, outcome: "would-default" };
  return row;
}

const POD_KIND = "v1 Pod";

/**
 * A wired pod checked against its namespace's Pod Security levels (labels over the cluster's
 * defaults, exemptions honoured): `refused` with the API server's reason when the `enforce` level
 * forbids the patched pod, the `warn` level's findings as a note.
 */
function withPodSecurity(
  row: Pick<PreviewRow, "outcome" | "reason" | "message" | "patch">,
  s: Subject,
  labelsOfNamespace: (namespace: string) => Record<string, string>,
  config: PodSecurityConfig,
): typeof row {
  if (row.outcome !== "wired" || !row.patch || s.namespace === null) return row;
  const object = s.request.object as Record<string, unknown>;
  if (`${String(object.apiVersion)} ${String(object.kind)}` !== POD_KIND) return row;
  let patched: unknown;
  try {
    patched = applyPatch(structuredClone(object), row.patch, false, false).newDocument;
  } catch {
    return row; // a patch that does not apply is reported by its own row, not as Pod Security
  }
  if (exemptFromPodSecurity(config, s.namespace, patched)) return row;
  let out = row;
  for (const ps of namespacePodSecurity(labelsOfNamespace(s.namespace), config)) {
    const found = violations(ps.level, patched, ps.version);
    if (found.length === 0) continue;
    const text = formatViolations(ps.level, ps.version, found);
    if (ps.mode === "enforce") out = { ...out, outcome: "refused", reason: "pod-security", message: text };
    else if (out.outcome !== "refused")
      out = { ...out, message: [out.message, `Pod Security warning: ${text}`].filter(Boolean).join("; ") };
  }
  return out;
}

export async function preview(dumpFiles: readonly string[], opts: PreviewOptions = {}): Promise<PreviewReport> {
  const progress = opts.progress ?? (() => undefined);
  let dump: Dump | undefined = opts.live ? undefined : readDumps(dumpFiles);
  const loaded = loadPolicies(opts.policies, opts.modules, opts.policyServerNamespace);
  const problems = [...loaded.problems];

  // compile each module once; a policy whose settings policy-server would refuse is left out
  const modules = new Map<string, PolicyModule>();
  const policies: { policy: PreviewPolicy; module: PolicyModule }[] = [];
  for (const policy of loaded.policies) {
    let module = modules.get(policy.modulePath);
    try {
      module ??= PolicyModule.fromFile(policy.modulePath);
    } catch (e) {
      problems.push({ source: policy.source, reason: (e as Error).message });
      continue;
    }
    modules.set(policy.modulePath, module);
    const settings = validateSettings(module, { settings: policy.settings, timeBudgetMs: null });
    if (!settings.valid) {
      problems.push({ source: policy.source, reason: `${policy.name}: settings are not valid: ${settings.message}` });
      continue;
    }
    policies.push({ policy, module });
  }
  const read = opts.live
    ? await readCluster(
        opts.live.source,
        policies.map((p) => p.policy),
        { namespaces: opts.live.namespaces, progress },
      )
    : undefined;
  dump ??= read!.dump;

  const broken = [...dump.broken];
  const subjects: Subject[] = dump.objects.flatMap((o) => subjectsOf(o, broken));
  const labelsOfNamespace = namespaceLabels(dump.objects);
  const allObjects = dump.objects.map((o) => o.object);

  type Pending = {
    pending: number;
    /** the request's kind: a mutated Pod is wired, any other object defaulted */
    kind: string;
    base: Omit<PreviewRow, "outcome" | "reason" | "message">;
    subject: Subject;
    monitor: boolean;
  };
  const rows: (PreviewRow | Pending)[] = [];
  const jobs: PoolJob[] = [];
  for (const s of subjects) {
    for (const [index, { policy }] of policies.entries()) {
      const a = applicability(policy, s, labelsOfNamespace);
      if (!a.applies) continue;
      const base = { namespace: s.namespace, object: s.display, source: s.source, policy: policy.name };
      if (a.excludedBy) {
        rows.push({ ...base, outcome: "untouched", reason: `not selected (${a.excludedBy})`, message: "" });
        continue;
      }
      rows.push({
        pending: jobs.length,
        kind: String((s.request.kind as { kind?: unknown }).kind),
        base,
        subject: s,
        monitor: policy.mode === "monitor",
      });
      jobs.push({ policy: index, request: s.request, payload: guestPayloads(s.request, policy.settings).validate });
    }
  }
  const leftOut = leftOutKinds(
    dump.objects,
    subjects,
    policies.map((p) => p.policy),
    labelsOfNamespace,
  );

  const poolPolicies: PoolPolicy[] = policies.map(({ policy, module }) => {
    const granted = grantedObjects(allObjects, policy.contextAwareResources);
    return {
      moduleBytes: module.bytes,
      source: policy.modulePath,
      options: {
        // monitor mode is evaluated as protect, so the row can say what the policy would do
        mode: "protect",
        allowedToMutate: policy.mutating,
        policyId: policy.id,
        ...(policy.message !== undefined ? { customMessage: policy.message } : {}),
        // offline there is no deadline to keep: a slow evaluation on a loaded machine is not a timeout
        timeBudgetMs: null,
        capabilities: {
          allowedHostCapabilities: ["*"],
          contextAwareResources: policy.contextAwareResources,
          // live lookups reuse answers for the whole run: the preview is of one moment of the cluster
          ...(opts.live && policy.contextAwareResources.length > 0
            ? { live: { ...opts.live.source, cacheSeconds: Infinity } }
            : {}),
        },
      },
      // a granted kind the dump holds no object of is an empty list, not a failed lookup (the
      // dump command lists every kind the policies read, so its absence means there are none)
      ...(!opts.live && policy.contextAwareResources.length > 0 ? { clusterJson: serdeJson(granted) } : {}),
    };
  });
  const workers = opts.workers ?? (jobs.length < IN_PROCESS_BELOW ? 0 : undefined);
  const started = Date.now();
  let reported = 0;
  const results = await evaluateMany(poolPolicies, jobs, {
    workers,
    onProgress: (done, total) => {
      // one line per tenth, so a log of a large run stays short
      if (done === total || done - reported >= total / 10) {
        reported = done;
        progress(`preview: ${done}/${total} evaluations (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    },
  });

  if (opts.live?.saveDump !== undefined) {
    // what the lookups read beyond the lists (another namespace's engine) is saved too
    const have = new Set(allObjects.map(objectKey));
    const extra = lookedUpObjects(results.flatMap((r) => r.reads ?? [])).filter((o) => {
      const k = objectKey(o);
      return have.has(k) ? false : (have.add(k), true);
    });
    saveDump(opts.live.saveDump, [...allObjects, ...extra]);
  }

  // a lookup the cluster refused (forbidden, a kind not served) is not read either: one line each
  if (read)
    for (const problem of new Set(results.flatMap((r) => r.lookupProblems ?? [])))
      if (!read.notRead.some((n) => n.what === "a lookup" && n.reason === problem))
        read.notRead.push({ what: "a lookup", reason: problem });

  const finalRows: PreviewRow[] = rows.map((r) => {
    if (!("pending" in r)) return r;
    const answer = classify(results[r.pending], r.kind);
    return {
      ...r.base,
      ...(r.monitor
        ? asMonitor(answer)
        : withPodSecurity(answer, r.subject, labelsOfNamespace, opts.podSecurity ?? DEFAULT_POD_SECURITY)),
    };
  });
  const totals: PreviewReport["totals"] = { policies: {}, reasons: {} };
  for (const { policy } of policies) totals.policies[policy.name] = emptyTotals();
  for (const row of finalRows) {
    totals.policies[row.policy][row.outcome]++;
    if (row.outcome === "skipped") totals.reasons[row.reason] = (totals.reasons[row.reason] ?? 0) + 1;
  }
  // most frequent reason first, ties by name: the same order in every output
  totals.reasons = Object.fromEntries(
    Object.entries(totals.reasons).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)),
  );
  return {
    policiesFrom: loaded.from,
    policies: policies.map(({ policy }) => ({
      name: policy.name,
      origin: policy.origin,
      module: policy.moduleRef,
      ...(policy.namespace !== undefined ? { namespace: policy.namespace } : {}),
    })),
    objects: dump.objects.length,
    evaluations: jobs.length,
    rows: finalRows,
    totals,
    broken,
    problems,
    leftOut,
    ...(read ? { cluster: { from: read.from, notRead: read.notRead } } : {}),
  };
}

const objectKey = (o: KubeObject): string =>
  `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ""} ${o.metadata?.name}`;

/**
 * Objects of the dump no policy evaluated (neither they nor a pod template of theirs matched a
 * policy's rules), by kind, leaving out what the policies only read (their granted kinds), the
 * Namespaces (read for selectors and Pod Security) and workloads previewed through their owner.
 */
function leftOutKinds(
  objects: readonly { object: KubeObject; source: string }[],
  subjects: readonly Subject[],
  policies: readonly PreviewPolicy[],
  labelsOfNamespace: (namespace: string) => Record<string, string>,
): Record<string, number> {
  const read = new Set(policies.flatMap((p) => p.contextAwareResources.map((r) => `${r.apiVersion} ${r.kind}`)));
  read.add("v1 Namespace");
  const evaluated = new Set<string>();
  for (const s of subjects)
    if (policies.some((p) => applicability(p, s, labelsOfNamespace).applies)) evaluated.add(s.source);
  const out: Record<string, number> = {};
  for (const { object, source } of objects) {
    const key = `${object.apiVersion} ${object.kind}`;
    if (read.has(key) || ownedByWorkload(object) || evaluated.has(source)) continue;
    out[String(object.kind)] = (out[String(object.kind)] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
