// What `cachewarden bench` is asked (BenchOptions) and what it reports (BenchReport and its parts):
// the JSON the bench writes, the page budget reads and the report renders.
import type { Stats } from "./measure";

export interface BenchOptions {
  policies?: string[];
  /** timed samples per measurement (default 200; --quick 30) */
  iterations?: number;
  quick?: boolean;
  /** policy name -> module to measure instead of policies/<name>/*.wasm (metadata and cases still from the policy) */
  modules?: Record<string, string>;
  /** only these case names (every policy); default: every validate case (--quick: the primary one) */
  cases?: string[];
  log?: (line: string) => void;
}

export interface TargetCheck {
  id: string;
  description: string;
  measured: number | null;
  limit: number;
  unit: string;
  pass: boolean;
  note?: string;
}

export interface CaseReport {
  name: string;
  primary: boolean;
  payloadBytes: number;
  /** accepted / rejected / mutated / accepted-unchanged, from the policy's own answer */
  outcome: string;
  error?: string;
  fresh?: Stats;
  warm?: Stats;
  js?: Stats;
  warmOverJs?: number;
  freshOverJs?: number;
  /** fresh evaluation vs the minimal guest's fresh evaluation of the same bytes (interleaved) */
  freshPair?: { policy: Stats; minimal: Stats; ratio: number };
  /** 4 KiB pages written by one fresh evaluation (pages.ts), and by the minimal guest's */
  pages?: {
    policy: number;
    minimal: number;
    byRegion: { belowData: number; staticData: number; heap: number };
    /** bytes the policy's evaluation wrote (pages.ts) */
    bytes: number;
  };
  /** linear memory after the fresh evaluation */
  peakMemoryBytes?: number;
  /** linear memory of the warm instance after all its calls (flat with COLLECT_AFTER_CALL) */
  warmMemoryBytes?: number;
  baseline?: { kind: string; patchOps: number; matchesPolicy: boolean };
  hostCalls?: number;
  warmMatchesFresh?: boolean;
}

export interface LargeReport {
  payloadBytes: number;
  fresh?: Stats;
  memoryBytes?: number;
  outcome?: string;
  error?: string;
}

export interface PolicyReport {
  name: string;
  mutating: boolean;
  module: { wasm: string; policyWasmBytes: number | null; annotatedWasmBytes: number | null };
  startup: { policy: Stats; minimal: Stats; ratio: number; startOnly: { policy: Stats; minimal: Stats } } | null;
  /** data segments in the module (each one is copied at instantiation) */
  dataSegments: number | null;
  cases: CaseReport[];
  primaryCase: string | null;
  large: LargeReport | null;
  error?: string;
}

export interface BenchReport {
  schema: "cachewarden-bench/1";
  startedAt: string;
  durationMs: number;
  environment: {
    node: string;
    v8: string;
    platform: string;
    arch: string;
    cpu: string;
    cpus: number;
    gc: boolean;
    commit: string | null;
  };
  options: { iterations: number; quick: boolean; cases: string[] | null };
  minimalGuest: { wasmBytes: number; dataSegments: number | null; startup: Stats | null };
  jsonDom: {
    probeWasmBytes: number;
    untouched: {
      payloadBytes: number;
      byteExact: boolean | null;
      error?: string;
      dom?: Stats;
      domParseOnly?: Stats;
      domFresh?: Stats;
      js?: Stats;
      ratio?: number;
      memoryBytes?: number;
    };
    large: {
      payloadBytes: number;
      error?: string;
      fresh?: Stats;
      memoryBytes?: number;
      js?: Stats;
      byteExact?: boolean | null;
    };
  };
  policies: PolicyReport[];
  unbuilt: string[];
  targets: TargetCheck[];
  pass: boolean;
}
