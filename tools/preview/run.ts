// `cachewarden preview`: every policy that applies, evaluated on every object of a dump the way
// policy-server would (settings validated once per policy, then one fresh-instance `validate` per
// request, lookups answered from the dump for the resources the policy is granted), and each answer
// classified: wired (a pod mutated), skipped (accepted with a `skip-reason` audit annotation, the pod
// injectors' way of reporting why they left a pod alone), rejected, untouched, defaulted (any other
// object mutated: the CacheBackend defaulter).
import type { Operation } from "fast-json-patch";
import type { ContextAwareResource } from "../host/capabilities";
import type { KubeObject } from "../host/cluster";
import { guestPayloads, validateSettings } from "../host/evaluate";
import { evaluateMany, PoolJob, PoolPolicy, PoolResult } from "../host/evaluate-pool";
import { PolicyModule } from "../host/guest";
import { serdeJson } from "../host/serde";
import { BrokenDocument, readDumps } from "./dump";
import { loadPolicies, PolicyProblem, PreviewPolicy } from "./policies";
import { applicability, namespaceLabels, Subject, subjectsOf } from "./subjects";

export const OUTCOMES = ["wired", "skipped", "rejected", "untouched", "defaulted"] as const;
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
}

export interface PreviewOptions {
  /** a policies directory, kustomization or rendered YAML (default: the repository's built policies) */
  policies?: string;
  /** where `spec.module` references are resolved (default: the repository's policies/) */
  modules?: string;
  /** worker threads (0: evaluate on this thread); default: this machine's parallelism for large dumps */
  workers?: number;
  /** progress lines (stderr in the CLI) */
  progress?: (line: string) => void;
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
  return { wired: 0, skipped: 0, rejected: 0, untouched: 0, defaulted: 0 };
}

export async function preview(dumpFiles: readonly string[], opts: PreviewOptions = {}): Promise<PreviewReport> {
  const progress = opts.progress ?? (() => undefined);
  const dump = readDumps(dumpFiles);
  const loaded = loadPolicies(opts.policies, opts.modules);
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

  const broken = [...dump.broken];
  const subjects: Subject[] = dump.objects.flatMap((o) => subjectsOf(o, broken));
  const labelsOfNamespace = namespaceLabels(dump.objects);
  const allObjects = dump.objects.map((o) => o.object);

  const rows: (
    PreviewRow | { pending: number; kind: string; base: Omit<PreviewRow, "outcome" | "reason" | "message"> }
  )[] = [];
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
      rows.push({ pending: jobs.length, kind: String((s.request.kind as { kind?: unknown }).kind), base });
      jobs.push({ policy: index, request: s.request, payload: guestPayloads(s.request, policy.settings).validate });
    }
  }

  const poolPolicies: PoolPolicy[] = policies.map(({ policy, module }) => {
    const granted = grantedObjects(allObjects, policy.contextAwareResources);
    return {
      moduleBytes: module.bytes,
      source: policy.modulePath,
      options: {
        mode: policy.mode,
        allowedToMutate: policy.mutating,
        policyId: policy.id,
        ...(policy.message !== undefined ? { customMessage: policy.message } : {}),
        // offline there is no deadline to keep: a slow evaluation on a loaded machine is not a timeout
        timeBudgetMs: null,
        capabilities: { allowedHostCapabilities: ["*"], contextAwareResources: policy.contextAwareResources },
      },
      // a granted kind the dump holds no object of is an empty list, not a failed lookup (the
      // dump command lists every kind the policies read, so its absence means there are none)
      ...(policy.contextAwareResources.length > 0 ? { clusterJson: serdeJson(granted) } : {}),
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

  const finalRows: PreviewRow[] = rows.map((r) =>
    "pending" in r ? { ...r.base, ...classify(results[r.pending], r.kind) } : r,
  );
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
  };
}
