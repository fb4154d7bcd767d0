// The benchmark report as markdown (stdout and <out>/bench.md). bench.json holds the same data
// with every sample statistic.
import type { BenchReport, CaseReport } from "./types";
import type { Stats } from "./measure";

const us = (s: Stats | undefined): string => (s ? s.medianUs.toFixed(1) : "-");
const p99 = (s: Stats | undefined): string => (s ? s.p99Us.toFixed(1) : "-");
const x = (r: number | undefined): string => (r === undefined ? "-" : `${r.toFixed(2)}x`);
const kib = (bytes: number | null | undefined): string =>
  bytes === null || bytes === undefined ? "-" : `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number | null | undefined): string =>
  bytes === null || bytes === undefined ? "-" : `${(bytes / 1048576).toFixed(2)} MiB`;
const cell = (s: string): string => s.replace(/\|/g, "\\|");

function caseRow(policy: string, c: CaseReport): string {
  if (c.error)
    return `| ${policy} | ${c.name}${c.primary ? " ★" : ""} | ${c.payloadBytes} | ERROR: ${cell(c.error)} | | | | | | | | | | |`;
  const notes: string[] = [];
  if (c.baseline && !c.baseline.matchesPolicy) notes.push("JS output differs");
  if (c.warmMatchesFresh === false) notes.push("warm output differs");
  return (
    `| ${policy} | ${c.name}${c.primary ? " ★" : ""} | ${c.payloadBytes} | ${c.outcome}${notes.length ? ` (${notes.join(", ")})` : ""} | ` +
    `${us(c.fresh)} / ${p99(c.fresh)} | ${x(c.freshPair?.ratio)} | ${c.pages ? `${c.pages.policy} / ${c.pages.minimal}` : "-"} | ${us(c.warm)} / ${p99(c.warm)} | ${us(c.js)} / ${p99(c.js)} | ${x(c.warmOverJs)} | ${x(c.freshOverJs)} | ` +
    `${mib(c.peakMemoryBytes)} | ${c.baseline ? `${c.baseline.kind}${c.baseline.patchOps ? ` (${c.baseline.patchOps} ops)` : ""}` : "-"} | ${c.hostCalls ?? 0} |`
  );
}

export function renderMarkdown(r: BenchReport): string {
  const out: string[] = [];
  const e = r.environment;
  out.push("# cachewarden benchmark", "");
  out.push(
    `${r.startedAt} · node ${e.node} (V8 ${e.v8}) · ${e.platform}/${e.arch} · ${e.cpus}× ${e.cpu} · commit ${e.commit ?? "?"} · ` +
      `${r.options.iterations} iterations${r.options.quick ? " (quick)" : ""} · GC between phases: ${e.gc ? "yes" : "no"} · ${(r.durationMs / 1000).toFixed(1)} s`,
    "",
  );
  out.push("V8 timings are indicative of wasmtime, not equal to it. Medians / p99 in µs unless stated.", "");

  out.push("## Targets", "", "| Target | Measured | Limit | Result |", "|---|---|---|---|");
  for (const t of r.targets) {
    const measured = t.measured === null ? "-" : `${t.measured.toFixed(t.unit === "x" ? 2 : 1)} ${t.unit}`;
    out.push(
      `| ${cell(t.description)}${t.note ? ` — ${cell(t.note)}` : ""} | ${measured} | ≤ ${t.limit} ${t.unit} | ${t.pass ? "PASS" : "MISS"} |`,
    );
  }
  out.push("");

  out.push(
    "## Modules and start-up (instantiate + `_start`)",
    "",
    "| Module | policy.wasm | annotated | data segments | start-up median / p99 | minimal guest (same run) | ratio | `_start` alone (policy / minimal) |",
    "|---|---|---|---|---|---|---|---|",
  );
  out.push(
    `| minimal waPC guest | ${kib(r.minimalGuest.wasmBytes)} | - | ${r.minimalGuest.dataSegments ?? "-"} | ${us(r.minimalGuest.startup ?? undefined)} / ${p99(r.minimalGuest.startup ?? undefined)} | - | 1.00x | - |`,
  );
  out.push(`| JSON-DOM bench probe | ${kib(r.jsonDom.probeWasmBytes)} | - | - | - | - | - | - |`);
  for (const p of r.policies) {
    out.push(
      `| ${p.name}${p.mutating ? " (mutating)" : ""} | ${kib(p.module.policyWasmBytes)} | ${kib(p.module.annotatedWasmBytes)} | ${p.dataSegments ?? "-"} | ` +
        `${us(p.startup?.policy)} / ${p99(p.startup?.policy)} | ${us(p.startup?.minimal)} / ${p99(p.startup?.minimal)} | ${x(p.startup?.ratio)} | ` +
        `${p.startup ? `${p.startup.startOnly.policy.medianUs.toFixed(2)} / ${p.startup.startOnly.minimal.medianUs.toFixed(2)}` : "-"} |`,
    );
  }
  for (const name of r.unbuilt) out.push(`| ${name} | not built | | | | | | |`);
  out.push("");

  out.push(
    "## Fresh evaluation per policy (what policy-server runs per request)",
    "",
    "Primary case; fresh = instantiate + `_start` + one `validate`, interleaved with the minimal guest's fresh evaluation of the same " +
      "request; pages = 4 KiB pages of linear memory the evaluation writes on a fresh instance (each a page fault).",
    "",
    "| Policy | case | fresh median / p99 | minimal guest median / p99 | fresh / minimal | pages (policy / minimal) | warm / js | start-up / minimal | policy.wasm |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const p of r.policies) {
    const c = p.cases.find((k) => k.primary);
    out.push(
      `| ${p.name} | ${p.primaryCase ?? "-"} | ${us(c?.freshPair?.policy)} / ${p99(c?.freshPair?.policy)} | ${us(c?.freshPair?.minimal)} / ${p99(c?.freshPair?.minimal)} | ` +
        `${x(c?.freshPair?.ratio)} | ${c?.pages ? `${c.pages.policy} / ${c.pages.minimal}` : "-"} | ${x(c?.warmOverJs)} | ${x(p.startup?.ratio)} | ${kib(p.module.policyWasmBytes)} |`,
    );
  }
  out.push("");

  const u = r.jsonDom.untouched;
  const l = r.jsonDom.large;
  out.push(
    "## JSON DOM (bench probe: parse + serialize an untouched request)",
    "",
    "| Input | DOM warm | DOM parse only | DOM fresh instance | JSON.parse+stringify | DOM/JS | linear memory | byte-exact |",
    "|---|---|---|---|---|---|---|---|",
  );
  out.push(
    u.error
      ? `| ${u.payloadBytes} B pod request | ERROR: ${cell(u.error)} | | | | | | |`
      : `| ${u.payloadBytes} B pod request | ${us(u.dom)} / ${p99(u.dom)} | ${us(u.domParseOnly)} | ${us(u.domFresh)} / ${p99(u.domFresh)} | ${us(u.js)} / ${p99(u.js)} | ${x(u.ratio)} | ${mib(u.memoryBytes)} | ${u.byteExact} |`,
  );
  out.push(
    l.error
      ? `| ${mib(l.payloadBytes)} request | ERROR: ${cell(l.error)} | | | | | | |`
      : `| ${mib(l.payloadBytes)} request | - | - | ${l.fresh ? (l.fresh.medianUs / 1000).toFixed(1) : "-"} ms / ${l.fresh ? (l.fresh.p99Us / 1000).toFixed(1) : "-"} ms | ${l.js ? (l.js.medianUs / 1000).toFixed(1) : "-"} ms | ${l.fresh && l.js ? x(l.fresh.medianUs / l.js.medianUs) : "-"} | ${mib(l.memoryBytes)} | ${l.byteExact ?? "-"} |`,
  );
  out.push("");

  out.push(
    "## Policy evaluations",
    "",
    "fresh = instantiate + `_start` + `__guest_call validate` (policy-server, per request); warm = `__guest_call` only on a reused instance " +
      "(the policy's own work); js = JSON.parse of the same bytes and of the host responses the policy received + the same mutation (the policy's own patch, fast-json-patch) or a walk to the " +
      "checked fields + JSON.stringify. ★ = the case the targets use.",
    "",
    "| Policy | Case | bytes | outcome | fresh | fresh/minimal | pages (policy / minimal) | warm | js | warm/js | fresh/js | peak memory | JS baseline | host calls |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const p of r.policies) {
    if (p.error) out.push(`| ${p.name} | ERROR: ${cell(p.error)} | | | | | | | | | | | | |`);
    for (const c of p.cases) out.push(caseRow(p.name, c));
    if (p.large) {
      const lg = p.large;
      out.push(
        lg.error
          ? `| ${p.name} | ${p.primaryCase} grown to ${mib(lg.payloadBytes)} | ${lg.payloadBytes} | ERROR: ${cell(lg.error)} | | | | | | | | | | |`
          : `| ${p.name} | ${p.primaryCase} grown to ${mib(lg.payloadBytes)} | ${lg.payloadBytes} | ${lg.outcome} | ${lg.fresh ? `${(lg.fresh.medianUs / 1000).toFixed(1)} ms / ${(lg.fresh.p99Us / 1000).toFixed(1)} ms` : "-"} | - | - | - | - | - | - | ${mib(lg.memoryBytes)} | - | - |`,
      );
    }
  }
  out.push("");
  out.push(`Overall: ${r.targets.filter((t) => t.pass).length}/${r.targets.length} targets met.`);
  return out.join("\n") + "\n";
}
