// The hostile-input suite of the benchmark (issue 20): for every policy, requests of about 1.5 MiB
// whose shape is built to be expensive — long strings of escapes or control characters echoed in a
// message, objects with 100,000+ keys, lists with 50,000+ items, tens of thousands of violations,
// long annotation values the policy parses. Each is generated here (never stored) from one of the
// policy's own test_data requests, evaluated on a fresh instance per call (as policy-server does),
// and timed interleaved with a no-logic guest that reads the same bytes and answers. The ratio of
// the medians is the policy's cost over merely receiving the request.
import * as fs from "node:fs";
import { PolicyModule } from "../host/guest";
import { compileTestGuest } from "./guests";
import { measureInterleaved, Stats } from "./measure";
import { HostileShape, hostileShapes } from "./hostile-shapes";
import { discoverPolicies } from "./policies";

/** The issue's budgets: cost over the no-logic guest, linear memory, and what a policy says back. */
export const HOSTILE_TARGETS = {
  ratio: 10,
  memoryBytes: 64 * 1024 * 1024,
  /** message + warnings + audit annotation values of one response */
  outputBytes: 64 * 1024,
} as const;

/**
 * Shapes that still cost more than the CI budget, or come close enough that a loaded CI machine
 * (one clean-clone run measured 1.7x the ratios of a quiet one) tips them over
 * (docs/benchmarks.md "Hostile inputs" has their ratios and what they are made of). The CI test
 * (tests/hostile.test.ts) holds every other shape to a looser ratio and to the memory budget, and
 * all of them to the output budget; these are kept in the benchmark so the miss stays visible.
 *
 * pull-secrets-annotation-150k left the list on 2026-12-04: an annotation longer than Kubernetes'
 * 262,144 bytes for all annotations is not read (the API server refuses such a pod after
 * admission); pull-secrets-annotation-at-limit is the longest one the injectors read.
 *
 * args-50k of cacheblend-injector left the list (docs/benchmarks.md "Issue 20, fourth round"): its
 * walks over the 50,000 args turn each away on its length and the handed-out nodes no longer take
 * a slot per value, so it costs what lmcache-injector's args-50k does.
 *
 * cachebackend-validator's shapes all read the backend in place from the DOM's records and are
 * held to the CI budget (many-resources, ~8× in CPU time since its resource names and values are
 * sorted and checked on their raw bytes, was the last listed).
 *
 * The list is empty since then; a shape that misses again goes here with its reason.
 */
export const KNOWN_OVER_BUDGET: readonly string[] = [];

export interface HostileResult {
  policy: string;
  shape: string;
  description: string;
  payloadBytes: number;
  /** accepted / rejected / mutated, from the policy's answer */
  outcome: string;
  /** bytes of message + warnings + audit annotation values */
  outputBytes: number;
  fresh?: Stats;
  reference?: Stats;
  /** median over median (the issue's measure) */
  ratio?: number;
  /** fastest over fastest, in wall time */
  minRatio?: number;
  /** fastest over fastest in process CPU time: what other processes on the machine do does not
   *  count, so this is the CI test's measure */
  cpuRatio?: number;
  memoryBytes?: number;
  error?: string;
}

export interface HostileReport {
  referenceWasmBytes: number;
  results: HostileResult[];
}

type Json = Record<string, unknown>;

/** Bytes of what the policy says back to the user: message, warnings, audit annotation values. */
export function outputBytesOf(response: Json): number {
  let n = 0;
  if (typeof response.message === "string") n += Buffer.byteLength(response.message);
  if (Array.isArray(response.warnings))
    for (const w of response.warnings) if (typeof w === "string") n += Buffer.byteLength(w);
  const audit = response.audit_annotations;
  if (audit !== null && typeof audit === "object") {
    for (const [k, v] of Object.entries(audit as Json))
      n += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
  }
  return n;
}

function outcomeOf(response: Json): string {
  if (response.accepted !== true) return "rejected";
  return response.mutated_object !== undefined && response.mutated_object !== null ? "mutated" : "accepted";
}

export interface HostileOptions {
  policies?: string[];
  /** only shapes whose name contains one of these */
  shapes?: string[];
  /** timed fresh evaluations per contender (default 7) */
  iterations?: number;
  target?: number;
  /** time only the shapes this accepts (the others are evaluated once, for outcome, output and memory) */
  timed?: (shape: HostileShape) => boolean;
  log?: (line: string) => void;
}

/** The least process CPU time (user + system, µs) one call of each function took, over
 *  `iterations` interleaved rounds. */
function fastestCpuUs(fns: (() => unknown)[], iterations: number): number[] {
  const best = fns.map(() => Infinity);
  for (let k = 0; k < iterations; k++) {
    fns.forEach((fn, i) => {
      const t0 = process.cpuUsage();
      fn();
      const d = process.cpuUsage(t0);
      best[i] = Math.min(best[i], d.user + d.system);
    });
  }
  return best;
}

/** Runs the hostile suite over every built policy (or `policies`). */
export function runHostile(opts: HostileOptions = {}): HostileReport {
  const log = opts.log ?? (() => {});
  const iterations = Math.max(1, opts.iterations ?? 7);
  const referenceWasm = compileTestGuest("noop-validate", { log });
  const reference = PolicyModule.fromFile(referenceWasm);
  const results: HostileResult[] = [];
  for (const p of discoverPolicies(opts.policies ?? []).targets) {
    const module = PolicyModule.fromFile(p.wasm);
    for (const sh of hostileShapes(p.name, opts.target)) {
      if (opts.shapes && !opts.shapes.some((n) => sh.name.includes(n))) continue;
      const r: HostileResult = {
        policy: p.name,
        shape: sh.name,
        description: sh.description,
        payloadBytes: sh.payload.length,
        outcome: "-",
        outputBytes: 0,
      };
      results.push(r);
      const first = module.call("validate", sh.payload);
      if (!first.ok || !first.response) {
        r.error = first.trapped ? `trap: ${first.trap}` : `guest error: ${first.error}`;
        log(`  ${p.name} ${sh.name}: ${r.error}`);
        continue;
      }
      const response = JSON.parse(first.response.toString("utf8")) as Json;
      r.outcome = outcomeOf(response);
      r.outputBytes = outputBytesOf(response);
      let memoryBytes = first.memoryBytes;
      if (opts.timed && !opts.timed(sh)) {
        r.memoryBytes = memoryBytes;
        log(
          `  ${p.name} ${sh.name}: ${r.outcome}; ${(first.elapsedMs ?? 0).toFixed(1)} ms once (not timed); ${(memoryBytes / 1048576).toFixed(1)} MiB; says ${r.outputBytes} B`,
        );
        continue;
      }
      const m = measureInterleaved(
        {
          policy: () => {
            memoryBytes = Math.max(memoryBytes, module.call("validate", sh.payload).memoryBytes);
          },
          reference: () => {
            reference.call("validate", sh.payload);
          },
        },
        { iterations, warmup: 1, block: 1 },
      );
      const cpu = fastestCpuUs(
        [() => module.call("validate", sh.payload), () => reference.call("validate", sh.payload)],
        iterations,
      );
      r.cpuRatio = Math.round((cpu[0] / Math.max(1, cpu[1])) * 10) / 10;
      Object.assign(r, {
        fresh: m.policy,
        reference: m.reference,
        ratio: Math.round((m.policy.medianUs / m.reference.medianUs) * 10) / 10,
        minRatio: Math.round((m.policy.minUs / m.reference.minUs) * 10) / 10,
        memoryBytes,
      });
      log(
        `  ${p.name} ${sh.name}: ${(sh.payload.length / 1048576).toFixed(2)} MiB ${r.outcome}; ${(m.policy.medianUs / 1000).toFixed(1)} ms vs ${(m.reference.medianUs / 1000).toFixed(1)} ms = ${r.ratio}x (fastest ${r.minRatio}x, cpu ${r.cpuRatio}x); ${(memoryBytes / 1048576).toFixed(1)} MiB; says ${r.outputBytes} B`,
      );
    }
  }
  return { referenceWasmBytes: fs.statSync(referenceWasm).size, results };
}

/** Whether a result is within every budget of the issue (a failed evaluation is not). */
export function withinBudget(r: HostileResult, ratioLimit: number = HOSTILE_TARGETS.ratio): boolean {
  return (
    r.error === undefined &&
    r.ratio !== undefined &&
    r.ratio <= ratioLimit &&
    (r.memoryBytes ?? Infinity) <= HOSTILE_TARGETS.memoryBytes &&
    r.outputBytes <= HOSTILE_TARGETS.outputBytes
  );
}

/** The markdown table of the suite (benchmark report and docs). */
export function renderHostileMarkdown(report: HostileReport): string {
  const lines = [
    `No-logic reference guest: ${report.referenceWasmBytes} B; ratio = median fresh evaluation of the policy / of the reference on the same bytes (budget ≤ ${HOSTILE_TARGETS.ratio}×, ≤ ${HOSTILE_TARGETS.memoryBytes / 1048576} MiB, output ≤ ${HOSTILE_TARGETS.outputBytes / 1024} KiB).`,
    "",
    "| Policy | Shape | Request | Outcome | Policy | Reference | Ratio | Fastest | CPU | Memory | Output | |",
    "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const r of report.results) {
    const ms = (s?: Stats) => (s ? `${(s.medianUs / 1000).toFixed(1)} ms` : "-");
    lines.push(
      `| ${r.policy} | ${r.shape} | ${(r.payloadBytes / 1048576).toFixed(2)} MiB | ${r.error ?? r.outcome} | ${ms(r.fresh)} | ${ms(r.reference)} | ${r.ratio !== undefined ? `${r.ratio}×` : "-"} | ${r.minRatio !== undefined ? `${r.minRatio}×` : "-"} | ${r.cpuRatio !== undefined ? `${r.cpuRatio}×` : "-"} | ${r.memoryBytes !== undefined ? `${(r.memoryBytes / 1048576).toFixed(1)} MiB` : "-"} | ${r.outputBytes} B | ${withinBudget(r) ? "PASS" : "MISS"} |`,
    );
  }
  return lines.join("\n") + "\n";
}
