// The fuzz loop: for each target (every built policy, or an explicit guest module), run the fixed
// inputs, then alternate the "wrong type at every path" sweep with random mutations until the
// target's share of the time budget is used. Iteration i of a target is a pure function of
// (seed, target name, i), so a failure can be replayed alone with --iteration.
import * as fs from "node:fs";
import * as path from "node:path";
import type { HostCapabilitiesConfig } from "../host/capabilities";
import { PolicyModule } from "../host/guest";
import { diffObjects } from "../host/response";
import { JsonNode, nodeToValue, parseJsonNodes } from "../host/serde";
import { vllmPodPayload } from "../bench/fixtures";
import { discoverPolicies, loadValidateCases, policyWithModule, PolicyTarget } from "../bench/policies";
import { checkValidate, checkValidateSettings } from "./checks";
import { fuzzHostCalls, ObjectPool } from "./hostcalls";
import { applySwap, fixedInputs, FuzzSeed, makeSeed, mutate, Mutation, SwapTask, typeSwapTasks } from "./mutators";
import { hash32, Rng } from "./rng";

export interface GuestTarget {
  wasm: string;
  mutating: boolean;
  /** seed from this policy's test_data (and use its metadata) instead of the generated pod */
  casesFrom?: string;
}

export interface FuzzOptions {
  /** policy names (default: every built policy); ignored when `guests` is given */
  policies?: string[];
  /** fuzz these modules instead of the policies (seeded with the generated vLLM pod request) */
  guests?: GuestTarget[];
  seconds: number;
  seed: number;
  /** where failing inputs are written */
  outDir: string;
  /** stop a target after this many inputs even if time is left */
  maxIterations?: number;
  /** run only this iteration (replay) */
  iteration?: number;
  /** a slower evaluation is a failure (policy-server's default deadline is 2 s) */
  timeoutMs: number;
  /** called as each target finishes (progress, policy by policy) */
  onTargetDone?: (report: FuzzTargetReport) => void;
  /** keep fuzzing a target after a failure, collecting distinct failures */
  keepGoing?: boolean;
  log?: (line: string) => void;
}

export interface FuzzFailure {
  target: string;
  iteration: number;
  kind: string;
  message: string;
  operation: string;
  mutator: string;
  detail: string;
  input: Buffer;
  /** the saved input (.bin) and its description (.json) */
  files: string[];
  reproduce: string;
}

export interface FuzzTargetReport {
  name: string;
  mutating: boolean;
  seeds: number;
  inputs: number;
  seconds: number;
  byMutator: Record<string, number>;
  outcomes: Record<string, number>;
  sweep: { done: number; total: number };
  idempotencyChecks: number;
  /** the first failure (more with keepGoing, one per distinct kind) */
  failures: FuzzFailure[];
  /** the slowest evaluations, slowest first (a shape that is slow but under the deadline shows
   *  here before it fails) */
  slowest: SlowInput[];
  error?: string;
}

/** One of a target's slowest inputs: enough to replay it (`--iteration`) and to see its shape. */
export interface SlowInput {
  iteration: number;
  ms: number;
  operation: string;
  mutator: string;
  detail: string;
  inputBytes: number;
}

/** Slow inputs kept per target. */
export const SLOWEST_KEPT = 10;

/** Keeps the `SLOWEST_KEPT` slowest of the inputs offered, slowest first (a small sorted list:
 *  most inputs are faster than the tenth and cost one comparison). */
export function keepSlowest(list: SlowInput[], entry: SlowInput, keep: number = SLOWEST_KEPT): void {
  if (list.length >= keep && entry.ms <= list[list.length - 1].ms) return;
  let at = list.length;
  while (at > 0 && list[at - 1].ms < entry.ms) at--;
  list.splice(at, 0, entry);
  if (list.length > keep) list.length = keep;
}

export interface FuzzReport {
  seed: number;
  targets: FuzzTargetReport[];
  failures: FuzzFailure[];
}

interface Target {
  name: string;
  module: PolicyModule;
  mutating: boolean;
  seeds: FuzzSeed[];
  hostConfigs: Map<FuzzSeed, HostCapabilitiesConfig>;
  pool: ObjectPool;
  reproduce: string;
}

/** A target seeded with the policy's own validate cases (their host answers feed the object pool). */
function policyTarget(p: PolicyTarget, reproduce: string): Target {
  const cases = loadValidateCases(p);
  const pool = new ObjectPool();
  const hostConfigs = new Map<FuzzSeed, HostCapabilitiesConfig>();
  const seeds = cases.map((c) => {
    const s = makeSeed(c.name, c.payload);
    hostConfigs.set(s, c.host);
    pool.addFromConfig(c.host);
    return s;
  });
  if (seeds.length === 0) seeds.push(makeSeed("generated-vllm-pod", vllmPodPayload()));
  return {
    name: p.name,
    module: PolicyModule.fromFile(p.wasm),
    mutating: p.mutating,
    seeds,
    hostConfigs,
    pool,
    reproduce,
  };
}

function loadTargets(
  opts: FuzzOptions,
  log: (line: string) => void,
): { targets: Target[]; errors: FuzzTargetReport[] } {
  const targets: Target[] = [];
  const errors: FuzzTargetReport[] = [];
  const empty = (name: string, mutating: boolean, error: string): FuzzTargetReport => ({
    name,
    mutating,
    seeds: 0,
    inputs: 0,
    seconds: 0,
    byMutator: {},
    outcomes: {},
    sweep: { done: 0, total: 0 },
    idempotencyChecks: 0,
    failures: [],
    slowest: [],
    error,
  });
  if (opts.guests && opts.guests.length > 0) {
    for (const g of opts.guests) {
      const name = path.basename(g.wasm);
      try {
        if (g.casesFrom) {
          const p = policyWithModule(g.casesFrom, g.wasm);
          targets.push(
            policyTarget(
              { ...p, name, mutating: p.mutating || g.mutating },
              `npm run fuzz -- --guest ${g.wasm} --cases-from ${g.casesFrom} --seed ${opts.seed}`,
            ),
          );
          continue;
        }
        targets.push({
          name,
          module: PolicyModule.fromFile(g.wasm),
          mutating: g.mutating,
          seeds: [makeSeed("generated-vllm-pod", vllmPodPayload())],
          hostConfigs: new Map(),
          pool: new ObjectPool(),
          reproduce: `npm run fuzz -- --guest ${g.wasm}${g.mutating ? " --mutating" : ""} --seed ${opts.seed}`,
        });
      } catch (e) {
        errors.push(empty(name, g.mutating, (e as Error).message));
      }
    }
    return { targets, errors };
  }
  const { targets: policies, unbuilt } = discoverPolicies(opts.policies ?? []);
  for (const name of unbuilt) log(`${name}: not built, skipped (run \`npm run build\`)`);
  for (const p of policies) {
    try {
      targets.push(policyTarget(p, `npm run fuzz -- ${p.name} --seed ${opts.seed}`));
    } catch (e) {
      errors.push(empty(p.name, p.mutating, (e as Error).message.split("\n")[0]));
    }
  }
  return { targets, errors };
}

interface Planned {
  mutation: Mutation;
  seed: FuzzSeed | undefined;
  rng: Rng;
  operation: "validate" | "validate_settings";
}

/** Iteration i of a target: fixed inputs first, then every third input from the sweep, else random. */
function plan(t: Target, i: number, fixed: Mutation[], sweep: SwapTask[], seed: number): Planned {
  const rng = new Rng(hash32(seed, t.name, i));
  if (i < fixed.length)
    return {
      mutation: fixed[i],
      seed: t.seeds[Math.max(0, i - (fixed.length - t.seeds.length))],
      rng,
      operation: "validate",
    };
  const k = i - fixed.length;
  if (k % 3 === 0 && k / 3 < sweep.length) {
    const task = sweep[k / 3];
    return { mutation: applySwap(task), seed: task.seed, rng, operation: "validate" };
  }
  const s = rng.pick(t.seeds);
  if (rng.chance(0.04)) {
    // validate_settings gets the settings object alone (docs/wasm-contract.md#validate_settings)
    const settings = (s.doc as { settings?: unknown } | null)?.settings ?? {};
    const m = mutate(rng, makeSeed(`${s.name} settings`, Buffer.from(JSON.stringify(settings), "utf8")), t.seeds);
    return { mutation: m, seed: s, rng, operation: "validate_settings" };
  }
  return { mutation: mutate(rng, s, t.seeds), seed: s, rng, operation: "validate" };
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

function lastMember(node: JsonNode, key: string): JsonNode | undefined {
  if (node.kind !== "object") return undefined;
  for (let i = node.entries.length - 1; i >= 0; i--) if (node.entries[i].key === key) return node.entries[i].value;
  return undefined;
}

/** `request.object` of a payload: its node and the text it indexes; null when absent or null. */
function locateObject(payload: Buffer): { text: string; node: JsonNode } | null | "not-json" {
  let text: string;
  let root: JsonNode;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(payload);
    root = parseJsonNodes(text);
  } catch {
    return "not-json";
  }
  const request = lastMember(root, "request");
  const object = request ? lastMember(request, "object") : undefined;
  return object && object.kind !== "null" ? { text, node: object } : null;
}

function saveFailure(opts: FuzzOptions, f: Omit<FuzzFailure, "files">): string[] {
  fs.mkdirSync(opts.outDir, { recursive: true });
  const base = path.join(
    opts.outDir,
    `${f.target.replace(/[^A-Za-z0-9._-]/g, "_")}-seed${opts.seed}-iter${f.iteration}`,
  );
  fs.writeFileSync(`${base}.bin`, f.input);
  fs.writeFileSync(
    `${base}.json`,
    JSON.stringify(
      {
        target: f.target,
        seed: opts.seed,
        iteration: f.iteration,
        operation: f.operation,
        kind: f.kind,
        message: f.message,
        mutator: f.mutator,
        detail: f.detail,
        inputBytes: f.input.length,
        input: `${path.basename(base)}.bin`,
        reproduce: f.reproduce,
      },
      null,
      2,
    ) + "\n",
  );
  return [`${base}.bin`, `${base}.json`];
}

/** Distinct failures collected per target with --keep-going. */
const MAX_FAILURES_PER_TARGET = 10;

/** Runs one planned input (and its idempotency re-evaluation); returns the failure, if any. */
function evaluateOne(
  t: Target,
  p: Planned,
  i: number,
  opts: FuzzOptions,
  report: FuzzTargetReport,
  count: (table: Record<string, number>, key: string) => void,
): { kind: string; message: string } | null {
  const caseConfig = p.seed ? t.hostConfigs.get(p.seed) : undefined;
  const host = fuzzHostCalls(p.rng, t.pool, caseConfig);
  const call = timed(() => t.module.call(p.operation, p.mutation.payload, { hostCall: host.handler }));
  keepSlowest(report.slowest, {
    iteration: i,
    ms: Math.round(call.ms * 10) / 10,
    operation: p.operation,
    mutator: p.mutation.mutator,
    detail: p.mutation.detail.slice(0, 200),
    inputBytes: p.mutation.payload.length,
  });
  if (call.ms > opts.timeoutMs)
    return {
      kind: "timeout",
      message: `the evaluation took ${call.ms.toFixed(0)} ms (limit ${opts.timeoutMs} ms; policy-server rejects with code 500)`,
    };
  if (p.operation === "validate_settings") {
    const v = checkValidateSettings(call.value);
    if (v && !v.ok) return v;
    count(report.outcomes, "settings");
    return null;
  }
  const verdict = checkValidate(t.mutating, p.mutation.payload, call.value);
  if (!verdict.ok) return verdict;
  const response = verdict.response;
  const hasMutation = response.mutated_object !== null && response.mutated_object !== undefined;
  if (!hasMutation) {
    count(report.outcomes, response.accepted ? "accepted" : "rejected");
    return null;
  }
  // The request's object as the DOM reads it (last duplicate wins), located in the input text so
  // the re-evaluation can splice the policy's output in verbatim: a JS round trip would rewrite
  // number text (1e400 -> null) and report changes the policy never made.
  const located = locateObject(p.mutation.payload);
  if (located === "not-json") {
    count(report.outcomes, "mutated (input not JSON to JS)");
    return null;
  }
  if (located === null) {
    return {
      kind: "invariant",
      message:
        "mutated_object on a request without object (policy-server rejects: Incoming object is null … attempting a mutation)",
    };
  }
  const changed = diffObjects(nodeToValue(located.node), response.mutated_object).length > 0;
  if (!t.mutating && changed)
    return {
      kind: "invariant",
      message: "a validating policy (mutating: false) returned a changed mutated_object (rejected in protect mode)",
    };
  count(report.outcomes, changed ? "mutated" : "accepted (unchanged object)");
  if (!t.mutating || !changed) return null;
  // idempotency: evaluating the policy's own output again (same cluster answers) changes nothing
  const responseText = call.value.response!.toString("utf8");
  const mutatedNode = lastMember(parseJsonNodes(responseText), "mutated_object");
  if (!mutatedNode) return null;
  report.idempotencyChecks++;
  const again = Buffer.from(
    located.text.slice(0, located.node.start) +
      responseText.slice(mutatedNode.start, mutatedNode.end) +
      located.text.slice(located.node.end),
    "utf8",
  );
  const host2 = fuzzHostCalls(new Rng(hash32(opts.seed, t.name, i, "again")), t.pool, caseConfig, host.answers);
  const second = timed(() => t.module.call("validate", again, { hostCall: host2.handler }));
  if (second.ms > opts.timeoutMs)
    return {
      kind: "re-evaluation timeout",
      message: `re-evaluating the policy's own output took ${second.ms.toFixed(0)} ms`,
    };
  const v2 = checkValidate(t.mutating, again, second.value);
  if (!v2.ok)
    return { kind: `re-evaluation ${v2.kind}`, message: `evaluating the policy's own output again: ${v2.message}` };
  const m2 = v2.response.mutated_object;
  if (m2 !== null && m2 !== undefined) {
    const ops = diffObjects(response.mutated_object, m2);
    if (ops.length > 0)
      return {
        kind: "not-idempotent",
        message: `evaluating the policy's own output again changes it: ${JSON.stringify(ops).slice(0, 600)}`,
      };
  }
  return null;
}

export function runFuzz(opts: FuzzOptions): FuzzReport {
  const log = opts.log ?? (() => {});
  const { targets, errors } = loadTargets(opts, log);
  const reports: FuzzTargetReport[] = [...errors];
  for (const e of errors) opts.onTargetDone?.(e);
  const perTargetMs = (opts.seconds * 1000) / Math.max(1, targets.length);
  for (const t of targets) {
    const report: FuzzTargetReport = {
      name: t.name,
      mutating: t.mutating,
      seeds: t.seeds.length,
      inputs: 0,
      seconds: 0,
      byMutator: {},
      outcomes: {},
      sweep: { done: 0, total: 0 },
      idempotencyChecks: 0,
      failures: [],
      slowest: [],
    };
    reports.push(report);
    const fixed = fixedInputs(t.seeds);
    const sweep = new Rng(hash32(opts.seed, t.name, "sweep")).shuffle(typeSwapTasks(t.seeds));
    report.sweep.total = sweep.length;
    log(
      `${t.name}: ${t.mutating ? "mutating" : "validating"}, ${t.seeds.length} seed request(s), ${(perTargetMs / 1000).toFixed(1)} s`,
    );
    const started = Date.now();
    const count = (table: Record<string, number>, key: string): void => {
      table[key] = (table[key] ?? 0) + 1;
    };
    const first = opts.iteration ?? 0;
    const last =
      opts.iteration !== undefined
        ? opts.iteration
        : opts.maxIterations !== undefined
          ? opts.maxIterations - 1
          : Number.MAX_SAFE_INTEGER;
    const seen = new Set<string>();
    for (let i = first; i <= last; i++) {
      if (opts.iteration === undefined && Date.now() - started >= perTargetMs) break;
      const p = plan(t, i, fixed, sweep, opts.seed);
      report.inputs++;
      if (p.mutation.mutator === "type-swap-sweep") report.sweep.done++;
      for (const m of p.mutation.mutator.split("+")) count(report.byMutator, m);
      const found = evaluateOne(t, p, i, opts, report, count);
      if (!found) continue;
      // with --keep-going, report each distinct failure once (numbers and quoted values vary)
      const signature = `${found.kind}: ${found.message.replace(/"[^"]*"|\d+/g, "#").slice(0, 120)}`;
      if (seen.has(signature)) continue;
      seen.add(signature);
      const f: Omit<FuzzFailure, "files"> = {
        target: t.name,
        iteration: i,
        kind: found.kind,
        message: found.message,
        operation: p.operation,
        mutator: p.mutation.mutator,
        detail: p.mutation.detail,
        input: p.mutation.payload,
        reproduce: `${t.reproduce} --iteration ${i}`,
      };
      report.failures.push({ ...f, files: saveFailure(opts, f) });
      if (!opts.keepGoing || report.failures.length >= MAX_FAILURES_PER_TARGET) break;
    }
    report.seconds = Math.round((Date.now() - started) / 100) / 10;
    opts.onTargetDone?.(report);
  }
  return { seed: opts.seed, targets: reports, failures: reports.flatMap((r) => r.failures) };
}
