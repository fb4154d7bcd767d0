// Many `validate` evaluations across worker threads, each worker compiling every module once and
// running each evaluation on a fresh instance (the same `validateRequest` as `cachewarden run`).
// `evaluateWithDeadline` starts a thread per evaluation, which is right for one hard deadline and
// far too slow for a 10,000-object preview; this pool keeps its workers and feeds them chunks.
// Settings are validated once per policy by the caller, as policy-server does at start-up.
//
// Cluster objects travel as serde_json text and are parsed again in each worker: the number text a
// parsed document remembers (`256.0`) does not survive structured cloning, and lookups must answer
// with the same bytes as in-process.
import * as os from "node:os";
import * as path from "node:path";
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { Operation } from "fast-json-patch";
import { LIVE_PROBLEM, type HostCapabilitiesConfig } from "./capabilities";
import type { KubeObject } from "./cluster";
import { EvaluationOptions, validateRequest } from "./evaluate";
import { PolicyModule } from "./guest";
import { AdmissionRequest } from "./request";
import { parseJsonOrYaml } from "./documents";
import type { AdmissionResponse } from "./response";

export interface PoolPolicy {
  moduleBytes: Uint8Array;
  source: string;
  /** post-processing, budget and the capability grants; the answers come from `clusterJson` */
  options: Omit<EvaluationOptions, "log" | "payloads" | "settings" | "capabilities"> & {
    capabilities?: Omit<HostCapabilitiesConfig, "cluster" | "replay">;
  };
  /** the objects lookups are answered from, as one JSON array (written with `serdeJson`) */
  clusterJson?: string;
}

export interface PoolJob {
  policy: number;
  request: AdmissionRequest;
  /** the exact `validate` payload (`guestPayloads(request, settings).validate`) */
  payload: string;
}

export interface PoolResult {
  response: AdmissionResponse;
  patchOperations?: Operation[];
  trap?: string;
  /** with live lookups: the answers of the lookups that succeeded (what was read from the cluster) */
  reads?: string[];
  /** with live lookups: one line per lookup that failed not of the policy's doing (forbidden, not served, …) */
  lookupProblems?: string[];
}

interface LoadedPolicy {
  module: PolicyModule;
  options: EvaluationOptions;
}

function loadPolicies(policies: readonly PoolPolicy[]): LoadedPolicy[] {
  return policies.map((p) => {
    const cluster =
      p.clusterJson !== undefined ? (parseJsonOrYaml(p.clusterJson, p.source) as KubeObject[]) : undefined;
    return {
      module: PolicyModule.fromBytes(p.moduleBytes, p.source),
      options: { ...p.options, capabilities: { ...(p.options.capabilities ?? {}), ...(cluster ? { cluster } : {}) } },
    };
  });
}

function runJob(loaded: readonly LoadedPolicy[], job: PoolJob): PoolResult {
  const policy = loaded[job.policy];
  const r = validateRequest(policy.module, job.request, {
    ...policy.options,
    payloads: { validateSettings: "", validate: job.payload },
  });
  const reads = policy.options.capabilities?.live
    ? r.hostCalls.filter((c) => c.ok && c.namespace === "kubernetes" && c.operation !== "can_i").map((c) => c.result)
    : [];
  const lookupProblems = policy.options.capabilities?.live
    ? r.hostWarnings.filter((w) => w.startsWith(LIVE_PROBLEM)).map((w) => w.slice(LIVE_PROBLEM.length))
    : [];
  return {
    response: r.response!,
    ...(r.patchOperations ? { patchOperations: r.patchOperations } : {}),
    ...(r.trap !== undefined ? { trap: r.trap } : {}),
    ...(reads.length > 0 ? { reads } : {}),
    ...(lookupProblems.length > 0 ? { lookupProblems } : {}),
  };
}

export interface PoolRunOptions {
  /** worker threads; 0 evaluates on the calling thread; default: the machine's parallelism */
  workers?: number;
  /** jobs per message to a worker */
  chunkSize?: number;
  /** called after every finished chunk with the number of finished jobs */
  onProgress?: (done: number, total: number) => void;
}

export type ToWorker = { chunk: number; jobs: PoolJob[] };
export type FromWorker = { chunk: number; results: PoolResult[] } | { error: string };

/** Evaluates every job; results are in job order whatever the number of workers. */
export async function evaluateMany(
  policies: readonly PoolPolicy[],
  jobs: readonly PoolJob[],
  opts: PoolRunOptions = {},
): Promise<PoolResult[]> {
  const workers = Math.min(opts.workers ?? os.availableParallelism(), Math.ceil(jobs.length / 16));
  const chunkSize = opts.chunkSize ?? 64;
  // no jobs: no workers either
  if (workers <= 0) {
    const loaded = loadPolicies(policies);
    const results: PoolResult[] = [];
    for (const job of jobs) {
      results.push(runJob(loaded, job));
      if (results.length % chunkSize === 0 || results.length === jobs.length)
        opts.onProgress?.(results.length, jobs.length);
    }
    return results;
  }
  const chunks: PoolJob[][] = [];
  for (let i = 0; i < jobs.length; i += chunkSize) chunks.push(jobs.slice(i, i + chunkSize));
  const results: PoolResult[][] = [];
  let next = 0;
  let done = 0;
  // the worker has no tsx loader of its own: register it, then load this very file
  const bootstrap = `require("tsx/cjs"); require(${JSON.stringify(path.join(__dirname, "evaluate-pool.ts"))});`;
  const threads = Array.from(
    { length: workers },
    () => new Worker(bootstrap, { eval: true, workerData: { poolPolicies: policies } }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      let finished = 0;
      const feed = (w: Worker): void => {
        if (next < chunks.length) {
          const chunk = next++;
          w.postMessage({ chunk, jobs: chunks[chunk] } satisfies ToWorker);
        }
      };
      for (const w of threads) {
        w.on("message", (m: FromWorker) => {
          if ("error" in m) {
            reject(new Error(m.error));
            return;
          }
          results[m.chunk] = m.results;
          done += m.results.length;
          opts.onProgress?.(done, jobs.length);
          if (++finished === chunks.length) resolve();
          else feed(w);
        });
        w.on("error", reject);
        feed(w);
      }
    });
  } finally {
    await Promise.all(threads.map((w) => w.terminate()));
  }
  return results.flat();
}

/** The part of the worker's port the worker side uses. */
export interface PoolPort {
  postMessage(m: FromWorker): void;
  on(event: "message", listener: (m: ToWorker) => void): unknown;
}

/**
 * Worker side: compile once, then answer chunks until terminated. `port` is the worker's
 * `parentPort`; tests pass a stand-in, since code run inside a worker thread is invisible to coverage.
 */
export function runPoolWorker(policies: readonly PoolPolicy[], port: PoolPort): void {
  let loaded: LoadedPolicy[];
  try {
    loaded = loadPolicies(policies);
  } catch (e) {
    port.postMessage({ error: (e as Error).message } satisfies FromWorker);
    return;
  }
  port.on("message", (m: ToWorker) => {
    try {
      port.postMessage({ chunk: m.chunk, results: m.jobs.map((j) => runJob(loaded, j)) } satisfies FromWorker);
    } catch (e) {
      port.postMessage({ error: (e as Error).message } satisfies FromWorker);
    }
  });
}

// `workerData` is null on the main thread
if (Array.isArray((workerData as { poolPolicies?: unknown } | null)?.poolPolicies))
  runPoolWorker((workerData as { poolPolicies: PoolPolicy[] }).poolPolicies, parentPort!);
