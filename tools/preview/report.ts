// The preview's three renderings: a plain-text table per namespace (for a terminal), markdown (for
// a review), JSON (for CI). All of them list rows in dump order inside each namespace, namespaces
// by name with cluster-scoped objects last, then the totals, broken documents and policy problems.
import type { Operation } from "fast-json-patch";
import { OUTCOMES, PreviewReport, PreviewRow } from "./run";

export interface RenderOptions {
  showPatch?: boolean;
}

const CLUSTER_SCOPED = "(cluster-scoped)";
const MAX_TEXT_CELL = 100;
const MAX_PATCH_SUMMARY = 100;

/**
 * `8 ops: add /spec/containers/0/args, add /spec/hostIPC, …` on one line: each operation's path
 * without trailing list indexes, repeated ones once, clipped.
 */
export function summarizePatch(ops: readonly Operation[] | undefined): string {
  if (!ops || ops.length === 0) return "";
  const head = `${ops.length} op${ops.length === 1 ? "" : "s"}: `;
  const parts = [...new Set(ops.map((o) => `${o.op} ${o.path.replace(/(\/(\d+|-))+$/, "")}`))];
  const body = parts.join(", ");
  return (
    head +
    (head.length + body.length > MAX_PATCH_SUMMARY ? body.slice(0, MAX_PATCH_SUMMARY - head.length - 1) + "…" : body)
  );
}

/** The reason and the message as one cell: `engine-not-found: ConfigMap ns/cb-connection not found`. */
export function reasonText(row: PreviewRow): string {
  if (row.reason && row.message) return `${row.reason}: ${row.message}`;
  return row.reason || row.message;
}

function byNamespace(rows: readonly PreviewRow[]): [string, PreviewRow[]][] {
  const groups = new Map<string, PreviewRow[]>();
  for (const row of rows) {
    const key = row.namespace ?? CLUSTER_SCOPED;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(row);
  }
  return [...groups.entries()].sort(([a], [b]) =>
    a === CLUSTER_SCOPED ? 1 : b === CLUSTER_SCOPED ? -1 : a < b ? -1 : a > b ? 1 : 0,
  );
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length > max ? oneLine.slice(0, max - 1) + "…" : oneLine;
}

/** Left-aligned columns two spaces apart, numbers right-aligned; no trailing spaces. */
function table(header: string[], rows: string[][], numeric: boolean[] = []): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    "  " +
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function headline(report: PreviewReport): string[] {
  const names = report.policies.map((p) => p.name).join(", ") || "none";
  return [
    `Policies (${report.policiesFrom}): ${names}`,
    ...(report.cluster ? [`Cluster: ${report.cluster.from}`] : []),
    `Objects: ${report.objects}, evaluations: ${report.evaluations}, broken documents: ${report.broken.length}`,
  ];
}

/** What a live read could not read, one line each. */
function notReadLines(report: PreviewReport): string[] {
  return (report.cluster?.notRead ?? []).map((n) => `${n.what}: ${n.reason}`);
}

function totalsRows(report: PreviewReport): { policies: string[][]; reasons: string[][] } {
  return {
    policies: Object.entries(report.totals.policies).map(([name, t]) => [name, ...OUTCOMES.map((o) => String(t[o]))]),
    reasons: Object.entries(report.totals.reasons).map(([reason, n]) => [reason, String(n)]),
  };
}

export function renderText(report: PreviewReport, opts: RenderOptions = {}): string {
  const out = [...headline(report)];
  for (const [namespace, rows] of byNamespace(report.rows)) {
    out.push("", namespace === CLUSTER_SCOPED ? "Cluster-scoped" : `Namespace ${namespace}`);
    const cells = rows.map((r) => [
      r.object,
      r.policy,
      r.outcome,
      clip(reasonText(r), MAX_TEXT_CELL),
      summarizePatch(r.patch),
    ]);
    const lines = table(["OBJECT", "POLICY", "OUTCOME", "REASON / MESSAGE", "PATCH"], cells);
    out.push(lines[0]);
    rows.forEach((r, i) => {
      out.push(lines[i + 1]);
      if (opts.showPatch && r.patch) for (const op of r.patch) out.push(`      ${JSON.stringify(op)}`);
    });
  }
  const totals = totalsRows(report);
  out.push("", "Totals per policy");
  out.push(
    ...table(["POLICY", ...OUTCOMES.map((o) => o.toUpperCase())], totals.policies, [
      false,
      ...OUTCOMES.map(() => true),
    ]),
  );
  if (totals.reasons.length > 0) {
    out.push("", "Totals per skip reason");
    out.push(...table(["REASON", "COUNT"], totals.reasons, [false, true]));
  }
  const leftOut = Object.entries(report.leftOut);
  if (leftOut.length > 0) {
    out.push("", "Not previewed (no policy evaluates these kinds)");
    out.push(
      ...table(
        ["KIND", "OBJECTS"],
        leftOut.map(([k, n]) => [k, String(n)]),
        [false, true],
      ),
    );
  }
  if (report.broken.length > 0) {
    out.push("", "Broken documents (left out)");
    for (const b of report.broken) out.push(`  ${b.source}: ${b.reason}`);
  }
  if (report.problems.length > 0) {
    out.push("", "Policy problems (left out)");
    for (const p of report.problems) out.push(`  ${p.source}: ${p.reason}`);
  }
  const notRead = notReadLines(report);
  if (notRead.length > 0)
    out.push("", "Not read from the cluster (the rest is previewed)", ...notRead.map((l) => `  ${l}`));
  return out.join("\n") + "\n";
}

function md(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ");
}

function mdTable(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(md).join(" | ")} |`),
  ];
}

export function renderMarkdown(report: PreviewReport, opts: RenderOptions = {}): string {
  const out = ["## cachewarden preview", "", ...headline(report).map((l) => `${l}  `)];
  for (const [namespace, rows] of byNamespace(report.rows)) {
    out.push("", namespace === CLUSTER_SCOPED ? "### Cluster-scoped" : `### Namespace \`${namespace}\``, "");
    out.push(
      ...mdTable(
        ["Object", "Policy", "Outcome", "Reason / message", "Patch"],
        rows.map((r) => [r.object, r.policy, r.outcome, reasonText(r), summarizePatch(r.patch)]),
      ),
    );
    if (opts.showPatch) {
      for (const r of rows.filter((x) => x.patch)) {
        out.push("", `${r.object} (${r.policy}):`, "", "```json", ...r.patch!.map((op) => JSON.stringify(op)), "```");
      }
    }
  }
  const totals = totalsRows(report);
  out.push("", "### Totals per policy", "");
  out.push(...mdTable(["Policy", ...OUTCOMES], totals.policies));
  if (totals.reasons.length > 0)
    out.push("", "### Totals per skip reason", "", ...mdTable(["Reason", "Count"], totals.reasons));
  if (Object.keys(report.leftOut).length > 0)
    out.push(
      "",
      "### Not previewed (no policy evaluates these kinds)",
      "",
      ...mdTable(
        ["Kind", "Objects"],
        Object.entries(report.leftOut).map(([k, n]) => [k, String(n)]),
      ),
    );
  if (report.broken.length > 0) {
    out.push("", "### Broken documents (left out)", "");
    for (const b of report.broken) out.push(`- \`${b.source}\`: ${md(b.reason)}`);
  }
  if (report.problems.length > 0) {
    out.push("", "### Policy problems (left out)", "");
    for (const p of report.problems) out.push(`- \`${p.source}\`: ${md(p.reason)}`);
  }
  const notRead = notReadLines(report);
  if (notRead.length > 0)
    out.push("", "### Not read from the cluster (the rest is previewed)", "", ...notRead.map((l) => `- ${md(l)}`));
  return out.join("\n") + "\n";
}

/** The report as JSON; each row carries its patch summary, and its operations with `showPatch`. */
export function renderJson(report: PreviewReport, opts: RenderOptions = {}): string {
  const rows = report.rows.map(({ patch, ...row }) => ({
    ...row,
    patchSummary: summarizePatch(patch),
    ...(opts.showPatch && patch ? { patch } : {}),
  }));
  return JSON.stringify({ ...report, rows }, null, 2) + "\n";
}
