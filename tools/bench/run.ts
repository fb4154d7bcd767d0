// `cachewarden bench`: measures every built policy, the minimal waPC guest and the JSON DOM in one
// run and checks the issue's targets (PASS/MISS, reported, never asserted by tests).
//
// Per case: (a) fresh = instantiate + `_start` + `__guest_call validate` (what policy-server does
// per request), interleaved with the minimal guest's fresh evaluation of the same bytes (the figure
// a cluster feels, issue 8), and the 4 KiB pages that evaluation writes (pages.ts), (b) warm = `__guest_call` only on one reused instance (the policy's own work),
// (c) js = the plain-JS baseline of the same request (baseline.ts). Warm and js are interleaved so
// their ratio sees the same machine state; fresh is timed on its own because the instances it
// creates put GC pressure on whatever runs next to it. Start-up (instantiate + `_start`) of each
// policy is interleaved with that of the minimal guest for the same reason.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { HostCapabilities } from "../host/capabilities";
import type { GuestCallResult, HostCallHandler } from "../host/guest";
import { PolicyModule } from "../host/guest";
import { baselineSink, buildBaseline, sameJson } from "./baseline";
import { benchJsonDom, fmtUs, LARGE_REQUEST_BYTES } from "./dom";
import { growPayload } from "./fixtures";
import { compileTestGuest, ROOT } from "./guests";
import { instantiateAndStart, timeStartOnly, WarmInstance } from "./instance";
import { collectGarbage, measureInterleaved, ratio, Stats, summarize } from "./measure";
import { countPagesWritten } from "./pages";
import { discoverPolicies, loadValidateCases, policyWithModule, PolicyTarget, ValidateCase } from "./policies";
import { targetChecks } from "./targets";
import type { BenchOptions, BenchReport, CaseReport, LargeReport, PolicyReport } from "./types";

type Answer = ReturnType<HostCallHandler>;

/**
 * Records the host calls of one real evaluation, then answers the same calls from memory. Timed
 * runs use the memo so neither side pays for the replay machinery (serde parsing, equality checks):
 * the JS baseline does no lookups at all, and policy-server answers from its own cache.
 */
function memoHostCalls(module: PolicyModule, payload: Buffer, c: ValidateCase) {
  const caps = new HostCapabilities(c.host);
  // the answers by call (a cluster cache's job, kept cheap so it does not count as the policy's work)
  const memo: { binding: string; namespace: string; operation: string; body: Buffer; answer: Answer }[] = [];
  const recording: HostCallHandler = (binding, namespace, operation, body) => {
    const answer = caps.handler(binding, namespace, operation, body);
    memo.push({ binding, namespace, operation, body: Buffer.from(body), answer });
    return answer;
  };
  const result = module.call("validate", payload, { hostCall: recording });
  const replay: HostCallHandler = (binding, namespace, operation, body) => {
    for (const m of memo) {
      if (m.operation === operation && m.namespace === namespace && m.binding === binding && m.body.equals(body))
        return m.answer;
    }
    return { ok: false, error: "bench: host call not seen in the recorded evaluation" };
  };
  // what the host answered, which a JS policy would have to decode too
  const hostResponses = memo.flatMap((m) => (m.answer.ok ? [m.answer.response] : []));
  return { result, replay, calls: caps.calls.length, hostResponses };
}

function outcomeOf(response: Record<string, unknown>, payload: Buffer): string {
  if (response.accepted !== true) return "rejected";
  if (response.mutated_object === undefined || response.mutated_object === null) return "accepted";
  try {
    const object = (JSON.parse(payload.toString("utf8")) as { request: { object?: unknown } }).request.object;
    return sameJson(Buffer.from(JSON.stringify(object)), Buffer.from(JSON.stringify(response.mutated_object)))
      ? "accepted-unchanged"
      : "mutated";
  } catch {
    return "mutated";
  }
}

/** The case the targets use: a name saying "realistic", else the largest mutated (or any) request. */
function pickPrimary(cases: ValidateCase[]): ValidateCase | null {
  if (cases.length === 0) return null;
  const named = cases.find((c) => /realistic/.test(c.name));
  if (named) return named;
  const pool = cases.filter((c) => c.expectMutated === true);
  return [...(pool.length > 0 ? pool : cases)].sort((a, b) => b.payload.length - a.payload.length)[0];
}

/** Count of the data section's segments (LEB128 right after the section header), or null. */
export function countDataSegments(bytes: Uint8Array): number | null {
  const leb = (at: number): [number, number] => {
    let result = 0;
    let shift = 0;
    let i = at;
    for (;;) {
      const b = bytes[i++];
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) break;
    }
    return [result, i];
  };
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i];
    const [size, body] = leb(i + 1);
    if (id === 11) return leb(body)[0];
    i = body + size;
  }
  return null;
}

function fileSize(file: string | undefined): number | null {
  return file && fs.existsSync(file) ? fs.statSync(file).size : null;
}

function gitCommit(): string | null {
  const r = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function runBench(opts: BenchOptions = {}): BenchReport {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const quick = opts.quick === true;
  const iterations = Math.max(1, opts.iterations ?? (quick ? 30 : 200));
  const warmup = Math.max(3, Math.round(iterations / 10));
  const budgetMs = quick ? 400 : 1500;
  const largeIterations = quick ? 2 : 6;
  const measure = { iterations, warmup, block: 10, budgetMs, minSamples: Math.min(iterations, 20) };
  const gc = collectGarbage();

  log(
    `bench: ${iterations} timed iterations per measurement${quick ? " (quick)" : ""}; GC between phases: ${gc ? "yes" : "no"}`,
  );
  const minimalPath = compileTestGuest("minimal", { log });
  const probePath = compileTestGuest("bench-probe", { log });
  const minimal = PolicyModule.fromFile(minimalPath);
  const probe = PolicyModule.fromFile(probePath);
  const minimalStart = (): void => {
    instantiateAndStart(minimal.module);
  };

  const { pod, untouched, large } = benchJsonDom(probe, measure, quick, largeIterations, log);

  // --- policies -------------------------------------------------------------------------------------
  const overrides = opts.modules ?? {};
  const wanted = (opts.policies ?? []).filter((n) => !(n in overrides));
  const discovered =
    Object.keys(overrides).length > 0 && wanted.length === 0 && (opts.policies ?? []).length > 0
      ? { targets: [] as PolicyTarget[], unbuilt: [] as string[] }
      : discoverPolicies(wanted);
  const targets = [
    ...discovered.targets.filter((t) => !(t.name in overrides)),
    ...Object.entries(overrides).map(([name, wasm]) => ({
      ...policyWithModule(name, wasm),
      policyWasm: wasm,
      annotatedWasm: undefined,
    })),
  ];
  const unbuilt = discovered.unbuilt.filter((n) => !(n in overrides));
  for (const name of unbuilt) log(`${name}: not built, skipped (run \`npm run build\`)`);
  const policies: PolicyReport[] = [];
  let minimalStartupAll: Stats | null = null;
  for (const target of targets) policies.push(benchPolicy(target));

  function benchPolicy(target: PolicyTarget): PolicyReport {
    const report: PolicyReport = {
      name: target.name,
      mutating: target.mutating,
      module: {
        wasm: path.relative(ROOT, target.wasm),
        policyWasmBytes: fileSize(target.policyWasm),
        annotatedWasmBytes: fileSize(target.annotatedWasm),
      },
      startup: null,
      dataSegments: null,
      cases: [],
      primaryCase: null,
      large: null,
    };
    let module: PolicyModule;
    let cases: ValidateCase[];
    try {
      module = PolicyModule.fromFile(target.wasm);
      cases = loadValidateCases(target);
    } catch (e) {
      report.error = (e as Error).message.split("\n")[0];
      log(`${target.name}: ${report.error}`);
      return report;
    }
    const primary = pickPrimary(cases);
    report.primaryCase = primary?.name ?? null;
    const selected =
      opts.cases && opts.cases.length > 0
        ? cases.filter((c) => opts.cases!.includes(c.name))
        : quick
          ? primary
            ? [primary]
            : []
          : cases;
    log(
      `${target.name}: ${selected.length} case(s)${primary ? `, primary ${primary.name}` : ""}; module ${report.module.annotatedWasmBytes ?? report.module.policyWasmBytes} bytes`,
    );

    collectGarbage();
    const s = measureInterleaved(
      {
        policy: () => {
          instantiateAndStart(module.module);
        },
        minimal: minimalStart,
      },
      measure,
    );
    // `_start` alone shows whether a costly global initialiser is to blame, or instantiation itself
    const startOnly = { policy: [] as number[], minimal: [] as number[] };
    for (let i = 0; i < iterations; i++) {
      startOnly.policy.push(timeStartOnly(module.module));
      startOnly.minimal.push(timeStartOnly(minimal.module));
    }
    report.startup = {
      policy: s.policy,
      minimal: s.minimal,
      ratio: ratio(s.policy, s.minimal),
      startOnly: { policy: summarize(startOnly.policy), minimal: summarize(startOnly.minimal) },
    };
    report.dataSegments = countDataSegments(module.bytes);
    if (!minimalStartupAll) minimalStartupAll = s.minimal;
    log(
      `  start-up ${fmtUs(s.policy)} vs minimal guest ${fmtUs(s.minimal)} (${report.startup.ratio}x); _start alone ${fmtUs(report.startup.startOnly.policy)} vs ${fmtUs(report.startup.startOnly.minimal)}; ${report.dataSegments} data segments`,
    );

    selected.forEach((c, i) => {
      const cr = benchCase(module, target, c, c === primary);
      report.cases.push(cr);
      log(
        `  [${i + 1}/${selected.length}] ${c.name}: ${cr.error ? `ERROR ${cr.error}` : `${cr.outcome}; fresh ${fmtUs(cr.fresh)}  warm ${fmtUs(cr.warm)}  js ${fmtUs(cr.js)}  warm/js ${cr.warmOverJs}x`}`,
      );
    });

    if (primary) {
      const grown = growPayload(primary.payload, LARGE_REQUEST_BYTES);
      if (grown) {
        collectGarbage();
        const lr: LargeReport = { payloadBytes: grown.length };
        let memoryBytes = 0;
        let failure: string | undefined;
        let outcome = "";
        // Only the evaluation is timed; reading the (multi-MiB) response happens afterwards.
        let last: GuestCallResult | undefined;
        const r = measureInterleaved(
          {
            fresh: () => {
              last = module.call("validate", grown, { hostCall: new HostCapabilities(primary.host).handler });
              memoryBytes = Math.max(memoryBytes, last.memoryBytes);
            },
          },
          { iterations: largeIterations, warmup: 1, block: 1 },
        );
        if (last && !last.ok) failure = last.trapped ? `trap: ${last.trap}` : `guest error: ${last.error}`;
        else if (last)
          outcome = outcomeOf(JSON.parse(last.response!.toString("utf8")) as Record<string, unknown>, grown);
        if (failure) lr.error = failure;
        else Object.assign(lr, { fresh: r.fresh, memoryBytes, outcome });
        report.large = lr;
        log(
          `  ${(grown.length / 1048576).toFixed(2)} MiB request: ${lr.error ?? `${outcome}; ${(r.fresh.medianUs / 1000).toFixed(1)} ms, ${(memoryBytes / 1048576).toFixed(1)} MiB linear memory`}`,
        );
      }
    }
    return report;
  }

  function benchCase(module: PolicyModule, target: PolicyTarget, c: ValidateCase, isPrimary: boolean): CaseReport {
    const cr: CaseReport = { name: c.name, primary: isPrimary, payloadBytes: c.payload.length, outcome: "error" };
    collectGarbage();
    const { result, replay, calls, hostResponses } = memoHostCalls(module, c.payload, c);
    cr.hostCalls = calls;
    if (!result.ok) {
      cr.error = result.trapped ? `trap: ${result.trap}` : `guest error: ${result.error}`;
      return cr;
    }
    let response: Record<string, unknown>;
    try {
      response = JSON.parse(result.response!.toString("utf8")) as Record<string, unknown>;
    } catch {
      cr.error = "the response is not JSON";
      return cr;
    }
    cr.outcome = outcomeOf(response, c.payload);
    cr.peakMemoryBytes = result.memoryBytes;
    const baseline = buildBaseline(target.name, c.payload, response, hostResponses);
    cr.baseline = {
      kind: baseline.kind,
      patchOps: baseline.patchOps,
      matchesPolicy: sameJson(baseline.run(), result.response!),
    };
    const warm = new WarmInstance(module.module);
    const warmCheck = warm.call("validate", c.payload, { hostCall: replay });
    cr.warmMatchesFresh = warmCheck.ok && Buffer.compare(warmCheck.response!, result.response!) === 0;
    const callOpts = { hostCall: replay };
    // The case a target is judged on gets many more samples: with 200, the warm/js median moved
    // between 0.85x and 1.16x from one run to the next on a loaded machine.
    const warmMeasure =
      isPrimary && !quick ? { ...measure, iterations: Math.max(measure.iterations, 3000), budgetMs: 6000 } : measure;
    const r = measureInterleaved(
      {
        warm: () => {
          warm.call("validate", c.payload, callOpts);
        },
        js: () => {
          baseline.run();
        },
      },
      warmMeasure,
    );
    cr.warmMemoryBytes = warm.memoryBytes;
    collectGarbage();
    const pages = countPagesWritten(module.module, module.bytes, c.payload, replay);
    const minimalPages = countPagesWritten(minimal.module, minimal.bytes, c.payload);
    if (!pages.result.ok || Buffer.compare(pages.result.response!, result.response!) !== 0) {
      cr.error = "the page count changed the answer (see tools/bench/pages.ts)";
      return cr;
    }
    cr.pages = {
      policy: pages.written,
      minimal: minimalPages.written,
      byRegion: pages.byRegion,
      bytes: pages.bytesWritten,
    };
    collectGarbage();
    // both sides create and drop instances, so the GC pressure they put on each other is alike
    const freshMeasure =
      isPrimary && !quick ? { ...measure, iterations: Math.max(measure.iterations, 2000), budgetMs: 6000 } : measure;
    const f = measureInterleaved(
      {
        fresh: () => {
          module.call("validate", c.payload, callOpts);
        },
        minimal: () => {
          minimal.call("validate", c.payload);
        },
      },
      freshMeasure,
    );
    Object.assign(cr, {
      fresh: f.fresh,
      warm: r.warm,
      js: r.js,
      warmOverJs: ratio(r.warm, r.js),
      freshOverJs: ratio(f.fresh, r.js),
      freshPair: { policy: f.fresh, minimal: f.minimal, ratio: ratio(f.fresh, f.minimal) },
    });
    return cr;
  }

  const checks = targetChecks(pod.length, untouched, large, policies);

  // keeps the baselines' reads observable (see baseline.ts)
  if (baselineSink() === -1) log("");
  let minimalStartup: Stats | null = minimalStartupAll;
  if (!minimalStartup) minimalStartup = measureInterleaved({ minimal: minimalStart }, measure).minimal;

  return {
    schema: "cachewarden-bench/1",
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    environment: {
      node: process.version,
      v8: process.versions.v8,
      platform: process.platform,
      arch: process.arch,
      cpu: os.cpus()[0]?.model ?? "unknown",
      cpus: os.cpus().length,
      gc,
      commit: gitCommit(),
    },
    options: { iterations, quick, cases: opts.cases && opts.cases.length > 0 ? opts.cases : null },
    minimalGuest: {
      wasmBytes: minimal.bytes.length,
      dataSegments: countDataSegments(minimal.bytes),
      startup: minimalStartup,
    },
    jsonDom: { probeWasmBytes: probe.bytes.length, untouched, large },
    policies,
    unbuilt,
    targets: checks,
    pass: checks.every((c) => c.pass),
  };
}
