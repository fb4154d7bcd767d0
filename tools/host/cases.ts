// The `test_data/cases.yml` runner (docs/test-data.md): loads a policy's cases, evaluates each
// against its annotated module (compiled once, fresh instance per call) and checks every `expect`
// field, returning structured results with precise failure messages. Shared by
// tests/policies.test.ts and `cachewarden examples`.
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { Operation } from "fast-json-patch";
import { HostCapabilitiesConfig } from "./capabilities";
import { loadClusterObjects } from "./cluster";
import { evaluate, EvaluationResult, SettingsOutcome, validateSettings } from "./evaluate";
import { PolicyModule } from "./guest";
import { loadReplaySession } from "./replay";
import { loadAdmissionRequest, loadSettings } from "./request";
import { metadataContextAwareResources, readPolicyMetadata } from "./metadata";
import { parseJsonOrYaml, readInput } from "./documents";

export interface CaseExpect {
  allowed?: boolean;
  mutated?: boolean;
  object?: string;
  code?: number;
  message?: string;
  messageContains?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
  annotations?: Record<string, string | null>;
  valid?: boolean;
}

export interface CaseSpec {
  name: string;
  description?: string;
  operation?: "validate" | "validate_settings";
  request?: string;
  settings?: string;
  session?: string;
  cluster?: string;
  contextAware?: boolean;
  hostCapabilities?: string[];
  expect: CaseExpect;
}

export interface CaseResult {
  policy: string;
  name: string;
  description: string;
  ok: boolean;
  /** one line per unmet expectation (or the error that stopped the case) */
  failures: string[];
  /** accepted / rejected / mutated / settings valid / settings invalid / error */
  decision: string;
  /** patch ops, rejection message or skip reason, for display */
  summary: string;
  /** host-side notes (e.g. unused replay exchanges) */
  notes: string[];
  evaluation?: EvaluationResult;
  settingsOutcome?: SettingsOutcome;
}

// `covers` is a free-text cross-reference to spec rows used by the policies' generated cases.yml
const CASE_KEYS = new Set([
  "covers",
  "name",
  "description",
  "operation",
  "request",
  "settings",
  "session",
  "cluster",
  "contextAware",
  "hostCapabilities",
  "expect",
]);
const EXPECT_KEYS = new Set([
  "allowed",
  "mutated",
  "object",
  "code",
  "message",
  "messageContains",
  "warnings",
  "auditAnnotations",
  "annotations",
  "valid",
]);

/** Parses and checks cases.yml strictly: unknown keys, duplicate names and missing inputs are errors. */
export function parseCases(text: string, source: string): CaseSpec[] {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new Error(`${source}: invalid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!Array.isArray(doc)) throw new Error(`${source}: expected a YAML list of cases`);
  const names = new Set<string>();
  return doc.map((raw, i) => {
    const c = raw as CaseSpec;
    const where = `${source}: case ${i + 1}${typeof c?.name === "string" ? ` (${c.name})` : ""}`;
    if (typeof c !== "object" || c === null) throw new Error(`${where}: must be a mapping`);
    for (const k of Object.keys(c)) if (!CASE_KEYS.has(k)) throw new Error(`${where}: unknown key \`${k}\``);
    if (typeof c.name !== "string" || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(c.name))
      throw new Error(`${where}: name must be kebab-case`);
    if (names.has(c.name)) throw new Error(`${where}: duplicate name`);
    names.add(c.name);
    if (typeof c.expect !== "object" || c.expect === null) throw new Error(`${where}: missing expect`);
    for (const k of Object.keys(c.expect))
      if (!EXPECT_KEYS.has(k)) throw new Error(`${where}: unknown expect key \`${k}\``);
    const op = c.operation ?? "validate";
    if (op !== "validate" && op !== "validate_settings")
      throw new Error(`${where}: operation must be validate or validate_settings`);
    if (op === "validate" && typeof c.request !== "string") throw new Error(`${where}: a validate case needs request`);
    if (op === "validate" && typeof c.expect.allowed !== "boolean")
      throw new Error(`${where}: expect.allowed is required for validate cases`);
    if (op === "validate_settings" && typeof c.expect.valid !== "boolean")
      throw new Error(`${where}: expect.valid is required for validate_settings cases`);
    if (c.session !== undefined && c.cluster !== undefined)
      throw new Error(`${where}: use session or cluster, not both`);
    return c;
  });
}

export function casesFile(policyDir: string): string {
  return path.join(policyDir, "test_data", "cases.yml");
}

export function loadCases(policyDir: string): CaseSpec[] {
  const file = casesFile(policyDir);
  return parseCases(readInput(file, "cases"), file);
}

/** Policies under `policiesDir` that have a cases.yml (sorted by name). */
export function policiesWithCases(policiesDir: string): string[] {
  if (!fs.existsSync(policiesDir)) return [];
  return fs
    .readdirSync(policiesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(casesFile(path.join(policiesDir, d.name))))
    .map((d) => d.name)
    .sort();
}

// --- comparison helpers ---------------------------------------------------------------------------

/** The first difference between two JSON values as `<path>: expected X, got Y`, or undefined. */
export function jsonDifference(expected: unknown, actual: unknown, at = ""): string | undefined {
  const show = (v: unknown): string => (v === undefined ? "(absent)" : JSON.stringify(v));
  if (expected === actual) return undefined;
  const bothObjects =
    typeof expected === "object" &&
    typeof actual === "object" &&
    expected !== null &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) return `${at || "/"}: expected ${show(expected)}, got ${show(actual)}`;
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length !== actual.length) {
    return `${at || "/"}: expected ${expected.length} items, got ${actual.length}`;
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  for (const k of new Set([...Object.keys(e), ...Object.keys(a)])) {
    const d = jsonDifference(e[k], a[k], `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (d) return d;
  }
  return undefined;
}

function describeOps(ops: Operation[]): string {
  const shown = ops.slice(0, 4).map((o) => `${o.op} ${o.path}`);
  return shown.join(", ") + (ops.length > 4 ? `, … (${ops.length} ops)` : "");
}

/** The `…skip-reason` value from audit annotations or the mutated object's annotations, if any. */
function skipReason(evaluation: EvaluationResult): string | undefined {
  const audit = evaluation.response?.auditAnnotations ?? {};
  const fromAudit = Object.entries(audit).find(([k]) => k.endsWith("skip-reason"));
  if (fromAudit) return fromAudit[1];
  const annotations = objectAnnotations(evaluation.mutatedObject) ?? {};
  const fromObject = Object.entries(annotations).find(([k]) => k.endsWith("skip-reason"));
  return fromObject?.[1];
}

function objectAnnotations(object: unknown): Record<string, string> | undefined {
  return (object as { metadata?: { annotations?: Record<string, string> } } | undefined)?.metadata?.annotations;
}

function describeDecision(evaluation: EvaluationResult): { decision: string; summary: string } {
  const response = evaluation.response!;
  const skip = skipReason(evaluation);
  if (!response.allowed)
    return { decision: "rejected", summary: `${response.status?.code ?? ""} ${response.status?.message ?? ""}`.trim() };
  if (evaluation.patchOperations?.length) {
    return { decision: "mutated", summary: describeOps(evaluation.patchOperations) + (skip ? ` [skip: ${skip}]` : "") };
  }
  return { decision: "accepted", summary: skip ? `skip: ${skip}` : (response.status?.message ?? "") };
}

// --- checking expectations ------------------------------------------------------------------------

function checkMessage(expect: CaseExpect, actual: string | undefined, failures: string[]): void {
  if (expect.message !== undefined && actual !== expect.message)
    failures.push(`message: expected ${JSON.stringify(expect.message)}, got ${JSON.stringify(actual ?? null)}`);
  if (expect.messageContains !== undefined && !(actual ?? "").includes(expect.messageContains)) {
    failures.push(
      `message: expected to contain ${JSON.stringify(expect.messageContains)}, got ${JSON.stringify(actual ?? null)}`,
    );
  }
}

function checkValidate(expect: CaseExpect, evaluation: EvaluationResult, testData: string, failures: string[]): void {
  const r = evaluation.response!;
  if (evaluation.trap) failures.push(`the policy trapped: ${evaluation.trap}`);
  // parseCases requires expect.allowed for every validate case
  if (r.allowed !== expect.allowed)
    failures.push(
      `allowed: expected ${expect.allowed}, got ${r.allowed}${r.status?.message ? ` (${r.status.message})` : ""}`,
    );
  const mutated = (evaluation.patchOperations?.length ?? 0) > 0;
  if (expect.mutated !== undefined && mutated !== expect.mutated) {
    failures.push(
      `mutated: expected ${expect.mutated}, got ${mutated}${mutated ? ` (${describeOps(evaluation.patchOperations!)})` : ""}`,
    );
  }
  if (expect.object !== undefined) {
    const file = path.join(testData, expect.object);
    const d = jsonDifference(parseJsonOrYaml(readInput(file, "expected object"), file), evaluation.mutatedObject);
    if (d) failures.push(`object (${expect.object}) differs at ${d}`);
  }
  if (expect.code !== undefined && r.status?.code !== expect.code)
    failures.push(`code: expected ${expect.code}, got ${r.status?.code ?? "none"}`);
  checkMessage(expect, r.status?.message, failures);
  if (expect.warnings !== undefined) {
    const d = jsonDifference(expect.warnings, r.warnings ?? []);
    if (d) failures.push(`warnings differ at ${d}`);
  }
  if (expect.auditAnnotations !== undefined) {
    const d = jsonDifference(expect.auditAnnotations, r.auditAnnotations ?? {});
    if (d) failures.push(`auditAnnotations differ at ${d}`);
  }
  if (expect.annotations !== undefined) {
    const actual = objectAnnotations(evaluation.mutatedObject) ?? {};
    for (const [key, value] of Object.entries(expect.annotations)) {
      if (value === null && key in actual)
        failures.push(`annotation ${key}: expected absent, got ${JSON.stringify(actual[key])}`);
      if (value !== null && actual[key] !== value)
        failures.push(
          `annotation ${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual[key] ?? null)}`,
        );
    }
  }
}

// --- running --------------------------------------------------------------------------------------

export interface RunCasesOptions {
  /** the module to run; default `<policyDir>/annotated-policy.wasm` */
  modulePath?: string;
  /** only these case names */
  only?: string[];
}

/** Where a case's lookups are answered instead of its session or cluster file (a live cluster, say). */
export type LookupSource = Pick<HostCapabilitiesConfig, "live" | "cluster" | "replay">;

function capabilitiesFor(
  c: CaseSpec,
  testData: string,
  metadataResources: HostCapabilitiesConfig["contextAwareResources"],
  source?: LookupSource,
): HostCapabilitiesConfig {
  return {
    allowedHostCapabilities: c.hostCapabilities ?? ["*"],
    contextAwareResources: c.contextAware === false ? [] : metadataResources,
    ...(source ??
      (c.session !== undefined
        ? { replay: loadReplaySession(path.join(testData, c.session)) }
        : c.cluster !== undefined
          ? { cluster: loadClusterObjects(path.join(testData, c.cluster)) }
          : {})),
  };
}

/**
 * Runs one case; errors in the case's own files become a failed result, never an exception.
 * `source` answers the lookups instead of the case's session or cluster file.
 */
export function runCase(
  policy: string,
  module: PolicyModule,
  c: CaseSpec,
  testData: string,
  source?: LookupSource,
): CaseResult {
  const base = { policy, name: c.name, description: c.description ?? "", notes: [] as string[] };
  const failures: string[] = [];
  try {
    const settings = c.settings !== undefined ? loadSettings(path.join(testData, c.settings)) : {};
    const metadata = readPolicyMetadata(module.module);
    const capabilities = capabilitiesFor(c, testData, metadataContextAwareResources(metadata), source);
    // like a ClusterAdmissionPolicy created from the metadata: spec.mutating = metadata.mutating, so
    // a validator that emits a patch is rejected here as it would be by policy-server. No time
    // budget: a loaded CI runner must not turn a slow case into a failure (the bench measures time).
    const policyServer = {
      allowedToMutate: metadata?.mutating !== false,
      policyId: `clusterwide-${policy}`,
      timeBudgetMs: null,
    };
    if (c.operation === "validate_settings") {
      const outcome = validateSettings(module, { settings, capabilities, ...policyServer });
      if (outcome.trap) failures.push(`the policy trapped: ${outcome.trap}`);
      if (outcome.valid !== c.expect.valid)
        failures.push(
          `valid: expected ${c.expect.valid}, got ${outcome.valid}${outcome.message ? ` (${outcome.message})` : ""}`,
        );
      checkMessage(c.expect, outcome.message, failures);
      const decision = outcome.valid ? "settings valid" : "settings invalid";
      return {
        ...base,
        ok: failures.length === 0,
        failures,
        decision,
        summary: outcome.message ?? "",
        settingsOutcome: outcome,
      };
    }
    const request = loadAdmissionRequest(path.join(testData, c.request!));
    const evaluation = evaluate(module, request, { settings, capabilities, ...policyServer });
    base.notes.push(...evaluation.hostWarnings);
    if (!evaluation.response) {
      failures.push(
        `settings are not valid: ${evaluation.settings.message}${evaluation.settings.trap ? " (trap)" : ""}`,
      );
      return {
        ...base,
        ok: false,
        failures,
        decision: "settings invalid",
        summary: evaluation.settings.message ?? "",
        evaluation,
      };
    }
    checkValidate(c.expect, evaluation, testData, failures);
    return { ...base, ok: failures.length === 0, failures, ...describeDecision(evaluation), evaluation };
  } catch (e) {
    failures.push((e as Error).message.split("\n")[0]);
    return { ...base, ok: false, failures, decision: "error", summary: failures[0] };
  }
}

export interface PolicyCasesRun {
  policy: string;
  /** set when the module or cases.yml could not be loaded; no case ran */
  error?: string;
  results: CaseResult[];
}

/** All cases of one policy: the module is compiled once, each call gets a fresh instance. */
export function runPolicyCases(policyDir: string, opts: RunCasesOptions = {}): PolicyCasesRun {
  const policy = path.basename(policyDir);
  let module: PolicyModule;
  let cases: CaseSpec[];
  try {
    cases = loadCases(policyDir);
    module = PolicyModule.fromFile(opts.modulePath ?? path.join(policyDir, "annotated-policy.wasm"));
  } catch (e) {
    return { policy, error: (e as Error).message.split("\n")[0], results: [] };
  }
  const testData = path.join(policyDir, "test_data");
  const selected = opts.only ? cases.filter((c) => opts.only!.includes(c.name)) : cases;
  return { policy, results: selected.map((c) => runCase(policy, module, c, testData)) };
}
