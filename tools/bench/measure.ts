// Timing primitives. Every sample is one operation timed with process.hrtime.bigint(); the
// contenders of one comparison are run interleaved in small blocks after a warm-up, so drift (CPU
// frequency, GC pressure, other load) hits both sides of a ratio alike.
import * as v8 from "node:v8";
import * as vm from "node:vm";

export interface Stats {
  samples: number;
  medianUs: number;
  p99Us: number;
  meanUs: number;
  minUs: number;
  maxUs: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function summarize(samplesNs: number[]): Stats {
  const us = samplesNs.map((ns) => ns / 1000).sort((a, b) => a - b);
  const mean = us.reduce((a, b) => a + b, 0) / (us.length || 1);
  return {
    samples: us.length,
    medianUs: round(percentile(us, 50)),
    p99Us: round(percentile(us, 99)),
    meanUs: round(mean),
    minUs: round(us[0] ?? NaN),
    maxUs: round(us[us.length - 1] ?? NaN),
  };
}

let gcFn: (() => void) | null | undefined;

/**
 * A full GC between phases, so garbage of one phase is not collected inside the next one's timing.
 * Uses `--expose-gc` when given; otherwise enables it at run time (a documented V8 flag). No-op
 * when neither works.
 */
export function collectGarbage(): boolean {
  if (gcFn === undefined) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === "function") gcFn = g;
    else {
      try {
        v8.setFlagsFromString("--expose-gc");
        gcFn = vm.runInNewContext("gc") as () => void;
      } catch {
        gcFn = null;
      }
    }
  }
  if (gcFn) {
    gcFn();
    return true;
  }
  return false;
}

export interface MeasureOptions {
  /** timed samples wanted per contender */
  iterations: number;
  /** untimed runs per contender before timing */
  warmup: number;
  /** samples per contender per interleaving round */
  block?: number;
  /** stop early (keeping at least `minSamples`) once the whole comparison has run this long */
  budgetMs?: number;
  minSamples?: number;
}

/** Times each contender `iterations` times, interleaved in blocks; returns stats by name. */
export function measureInterleaved(
  contenders: Record<string, () => void>,
  opts: MeasureOptions,
): Record<string, Stats> {
  const names = Object.keys(contenders);
  for (const name of names) for (let i = 0; i < opts.warmup; i++) contenders[name]();
  collectGarbage();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  const block = Math.max(1, opts.block ?? 10);
  const minSamples = Math.min(opts.iterations, opts.minSamples ?? 20);
  const deadline =
    opts.budgetMs !== undefined ? process.hrtime.bigint() + BigInt(Math.round(opts.budgetMs * 1e6)) : undefined;
  let done = 0;
  while (done < opts.iterations) {
    const n = Math.min(block, opts.iterations - done);
    for (const name of names) {
      const fn = contenders[name];
      const out = samples[name];
      for (let i = 0; i < n; i++) {
        const t0 = process.hrtime.bigint();
        fn();
        out.push(Number(process.hrtime.bigint() - t0));
      }
    }
    done += n;
    if (deadline !== undefined && done >= minSamples && process.hrtime.bigint() > deadline) break;
  }
  return Object.fromEntries(names.map((n) => [n, summarize(samples[n])]));
}

export function ratio(a: Stats, b: Stats): number {
  return round(a.medianUs / b.medianUs);
}
