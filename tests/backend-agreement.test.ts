// cachebackend-validator and hicache-injector agree on CacheBackends
// (docs/policies/cachebackend-validator.md#agreement-with-hicache-injector). Every CacheBackend of
// the validator's test_data (object and oldObject) and of hicache-injector's test_data (cluster
// objects and inline `settings.backends`) is (1) validated as a CREATE by cachebackend-validator and
// (2) given to hicache-injector for an SGLang pod its engineSelector selects: answered through
// list_resources_by_namespace, and, for an SGLangHiCache backend, also carried in the settings
// (`lookup: false`). Then, neither policy trapping:
//   - a backend the validator admits is never refused at the injector boundary: an SGLangHiCache
//     backend is wired (or skipped with a named reason other than invalid-backend), a backend of any
//     other type leaves the pod untouched (another webhook owns it: the test's named reason);
//   - a backend the injector refuses at its boundary (fail-open invalid-backend, or inline settings
//     rejected by a backend check) is one the validator rejects.
// The converse is not claimed: the validator also enforces rules the injector never reads (tier-2
// resources, endpoints of other providers, the kernel-check annotation).
// Skips, with the reason, only when hicache-injector has not been built.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { evaluate, EvaluationResult } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { serdeJson } from "../tools/host/serde";
import { KubeObject } from "../tools/host/cluster";
import { requestFromManifest } from "../tools/host/request";
import { metadataContextAwareResources, readPolicyMetadata } from "../tools/host/metadata";
import { parseJsonOrYaml } from "../tools/host/documents";
import {
  cacheBackendCases,
  injectorCacheBackends,
  named,
  POLICIES,
  ROOT,
  VALIDATOR_WASM,
} from "./helpers/defaulted-backends";

const INJECTOR_WASM = path.join(POLICIES, "hicache-injector", "annotated-policy.wasm");
const HICACHE = "SGLangHiCache";
/**
 * Validator field errors whose rule the injector's boundary shares (the NFS server and path rules,
 * the reserved overrides, the HiCache resolution of rule 19): for an SGLangHiCache backend the pod
 * selects, each of these rejections must be a refusal at the injector boundary too, never a wiring.
 */
const SHARED_RULES: [string, RegExp][] = [
  ["NFS endpoint", /spec\.remoteStorage\.endpoint: Forbidden: NFS uses /],
  ["NFS ownership", /spec\.remoteStorage\.ownership: Unsupported value: /],
  ["NFS server", /spec\.remoteStorage\.nfs\.server: /],
  ["NFS path", /spec\.remoteStorage\.nfs\.(path|mountPath): /],
  ["NFS block", /spec\.remoteStorage\.nfs: Required value: /],
  ["reserved arg", /spec\.integration\.engineOverrides\.(args|suppressArgs)\[\d+\]: Forbidden: arg .* is reserved /],
  [
    "reserved env",
    /spec\.integration\.engineOverrides\.(env\[\d+\]\.name|suppressEnv\[\d+\]): Forbidden: env .* is reserved /,
  ],
  ["hiCache", /spec\.hiCache(\.(sizeGB|ratio|writePolicy|ioBackend|memoryLayout|storagePrefetchPolicy))?: /],
  ["integration", /spec\.integration\.(failOpen|mode|role): /],
  ["runtime", /spec\.integration\.engine: Invalid value: .*: SGLangHiCache requires integration\.engine=sglang/],
  ["autoscaling", /spec\.autoscaling: Forbidden: SGLangHiCache is engine-local/],
];

/** An inline backend's spec key that is not a CacheBackend field. */
const PRUNED_KEY = /^backends\[0\]\.spec\.[^:.[]+: unknown field$/;

type J = Record<string, unknown>;
const isObject = (v: unknown): v is J => typeof v === "object" && v !== null && !Array.isArray(v);

interface BackendFixture {
  source: string;
  backend: J;
}

const hostOnly = (): J => ({
  runtime: "SGLang",
  type: HICACHE,
  engineSelector: { matchLabels: { app: "sglang" } },
  hiCache: { ratio: "2.0" },
});
const withIntegration = (integration: J): J => ({ ...hostOnly(), integration });
const withHiCache = (hiCache: J): J => ({ ...hostOnly(), hiCache });
/**
 * Backends neither test_data holds, where the two readings could drift: null or empty as "unset",
 * integral floats, and the shared rules no fixture reaches.
 */
const EDGE_SPECS: [string, J][] = [
  ["blank-endpoint", { ...hostOnly(), endpoint: "  " }],
  ["null-optionals", { ...hostOnly(), autoscaling: null, backendConfig: null, remoteStorage: null, lmCache: null }],
  ["empty-mode-and-role", withIntegration({ mode: "", role: "" })],
  ["null-fail-open", withIntegration({ failOpen: null })],
  ["empty-ratio-with-size", withHiCache({ ratio: "", sizeGB: 4 })],
  // parsed, so the payload keeps the number text as written
  ["size-integral-float", withHiCache(parseJsonOrYaml('{"sizeGB": 256.0}', "edge") as J)],
  ["size-exponent", withHiCache(parseJsonOrYaml('{"sizeGB": 2.56e2}', "edge") as J)],
  ["null-prefetch-and-write-policy", withHiCache({ ratio: "2", storagePrefetchPolicy: null, writePolicy: null })],
  ["autoscaling", { ...hostOnly(), autoscaling: { minReplicas: 1, maxReplicas: 2 } }],
  [
    "reserved-env",
    withIntegration({ engineOverrides: { env: [{ name: "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR", value: "/x" }] } }),
  ],
  [
    "reserved-suppress-env",
    withIntegration({ engineOverrides: { suppressEnv: ["SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR"] } }),
  ],
];

/** Every distinct CacheBackend of both policies' test_data, and the edge backends. */
function backendFixtures(): BackendFixture[] {
  const seen = new Set<string>();
  const out: BackendFixture[] = [];
  const add = (source: string, raw: unknown): void => {
    if (!isObject(raw)) return;
    const backend = named(raw);
    const text = serdeJson(backend);
    if (seen.has(text)) return;
    seen.add(text);
    out.push({ source, backend });
  };
  for (const { c, request } of cacheBackendCases("cachebackend-validator"))
    for (const key of ["object", "oldObject"]) add(`cachebackend-validator ${c.name}.${key}`, (request as J)[key]);
  for (const b of injectorCacheBackends()) add(b.source, b.object);
  for (const [name, spec] of EDGE_SPECS) add(`edge ${name}`, { metadata: { name }, spec });
  return out;
}

function specOf(backend: J): J {
  return isObject(backend.spec) ? backend.spec : {};
}

/** `spec.engineSelector.matchLabels` when it is a non-empty map of strings (the only selecting kind). */
function selectorLabels(backend: J): Record<string, string> | undefined {
  const selector = specOf(backend).engineSelector;
  const labels = isObject(selector) ? selector.matchLabels : undefined;
  if (!isObject(labels) || Object.keys(labels).length === 0) return undefined;
  return Object.values(labels).every((v) => typeof v === "string") ? (labels as Record<string, string>) : undefined;
}

function namespaceOf(backend: J): string {
  return (backend.metadata as { namespace: string }).namespace;
}

/** An SGLang pod in the backend's namespace carrying the selector's labels; its engine container is `sglang`. */
function podFor(backend: J): J {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "sglang-pod", namespace: namespaceOf(backend), labels: selectorLabels(backend) ?? {} },
    spec: {
      containers: [{ name: "sglang", image: "lmsysorg/sglang:latest", args: ["--model-path", "Qwen/Qwen2.5-0.5B"] }],
    },
  };
}

interface Verdict {
  allowed: boolean;
  message: string;
}

function validatorVerdict(validator: PolicyModule, backend: J): Verdict {
  const r = evaluate(validator, requestFromManifest(backend), { timeBudgetMs: null, allowedToMutate: false });
  assert.equal(r.trap, undefined, `cachebackend-validator trapped: ${r.trap}`);
  assert.ok(r.response, `cachebackend-validator gave no response: ${r.settings.message}`);
  return { allowed: r.response.allowed, message: r.response.status?.message ?? "" };
}

/** What hicache-injector did with the pod, as one of four outcomes. */
type InjectorAnswer =
  | { kind: "refused"; text: string }
  | { kind: "skipped"; reason: string; text: string }
  | { kind: "wired"; text: string }
  | { kind: "untouched"; text: string };

function answerOf(r: EvaluationResult, how: string): InjectorAnswer {
  assert.equal(r.trap, undefined, `hicache-injector (${how}) trapped: ${r.trap}`);
  assert.equal(
    r.settings.trap,
    undefined,
    `hicache-injector (${how}) trapped in validate_settings: ${r.settings.trap}`,
  );
  if (!r.settings.valid) {
    const message = r.settings.message ?? "";
    const text = `${how}: settings rejected: ${message}`;
    // only the spec checks (step 9 and the env shapes) are the boundary; an unknown spec key is
    // a settings typo the API server would have pruned from a stored object
    const shapeOnly = message.split("; ").every((p) => PRUNED_KEY.test(p));
    return shapeOnly ? { kind: "skipped", reason: "unknown-spec-key", text } : { kind: "refused", text };
  }
  assert.ok(r.response, `hicache-injector (${how}) gave no response`);
  assert.equal(r.response.allowed, true, `hicache-injector (${how}) rejected the pod: ${r.response.status?.message}`);
  const warnings = (r.response.warnings ?? []).join(" | ");
  const reason = r.response.auditAnnotations?.["skip-reason"];
  if (reason === "invalid-backend") return { kind: "refused", text: `${how}: ${warnings}` };
  if (reason !== undefined) return { kind: "skipped", reason, text: `${how}: skipped (${reason}): ${warnings}` };
  const annotations = (r.mutatedObject as { metadata?: { annotations?: Record<string, string> } }).metadata
    ?.annotations;
  if (annotations?.["inferencecache.io/injected-by"] !== undefined)
    return { kind: "wired", text: `${how}: wired by ${annotations["inferencecache.io/injected-by"]}` };
  assert.equal(r.patchOperations, undefined, `hicache-injector (${how}) changed the pod without wiring it`);
  assert.equal(warnings, "", `hicache-injector (${how}) warned without a skip reason`);
  return { kind: "untouched", text: `${how}: pod untouched` };
}

function injectorLookedUp(injector: PolicyModule, backend: J): InjectorAnswer {
  const r = evaluate(injector, requestFromManifest(podFor(backend)), {
    timeBudgetMs: null,
    allowedToMutate: true,
    capabilities: {
      allowedHostCapabilities: ["*"],
      contextAwareResources: metadataContextAwareResources(readPolicyMetadata(injector.module)),
      cluster: [backend as KubeObject],
    },
  });
  return answerOf(r, "looked up");
}

function injectorInline(injector: PolicyModule, backend: J): InjectorAnswer {
  const metadata = backend.metadata as J;
  const inline: J = { metadata: { name: metadata.name, ...(metadata.uid !== undefined ? { uid: metadata.uid } : {}) } };
  if (backend.spec !== undefined) inline.spec = backend.spec;
  const r = evaluate(injector, requestFromManifest(podFor(backend)), {
    timeBudgetMs: null,
    allowedToMutate: true,
    settings: { lookup: false, backends: [inline] },
  });
  return answerOf(r, "inline");
}

/** The answers this backend gets: looked up always; inline only for SGLangHiCache (the only inline type). */
function injectorAnswers(injector: PolicyModule, backend: J): InjectorAnswer[] {
  const answers = [injectorLookedUp(injector, backend)];
  if (specOf(backend).type === HICACHE) answers.push(injectorInline(injector, backend));
  return answers;
}

/** Both answers for a failure message. */
function bothAnswers(verdict: Verdict, answer: InjectorAnswer): string {
  const validator = verdict.allowed
    ? "cachebackend-validator admits"
    : `cachebackend-validator rejects: ${verdict.message}`;
  return `${validator}; hicache-injector ${answer.text}`;
}

/** The agreement for one backend; returns the violation, or undefined. */
function disagreement(verdict: Verdict, answer: InjectorAnswer, backend: J): string | undefined {
  const hicache = specOf(backend).type === HICACHE;
  if (verdict.allowed) {
    if (answer.kind === "refused")
      return `refused at the injector boundary but admitted (${bothAnswers(verdict, answer)})`;
    if (hicache && answer.kind === "untouched")
      return `an admitted SGLangHiCache backend is neither wired nor skipped with a reason (${bothAnswers(verdict, answer)})`;
    if (!hicache && answer.kind !== "untouched")
      return `an admitted backend of another type must leave the pod to its own webhook (${bothAnswers(verdict, answer)})`;
    return undefined;
  }
  // otherwise a rejected backend may get any answer but a trap (the injector never reads tier-2
  // resources, other providers' endpoints or the kernel-check annotation) ...
  if (!hicache || selectorLabels(backend) === undefined || answer.kind === "refused") return undefined;
  // ... except a rejection by a rule the injector boundary shares
  const shared = SHARED_RULES.find(([, rule]) => rule.test(verdict.message));
  if (shared !== undefined)
    return `rejected by a rule the injector boundary shares (${shared[0]}), but not refused (${bothAnswers(verdict, answer)})`;
  return undefined;
}

const injectorMissing = !fs.existsSync(INJECTOR_WASM)
  ? `${path.relative(ROOT, INJECTOR_WASM)} is not built (run \`cachewarden build hicache-injector\`)`
  : false;

describe("cachebackend-validator and hicache-injector agree on CacheBackends", { skip: injectorMissing }, () => {
  const fixtures = backendFixtures();
  let modules: { validator: PolicyModule; injector: PolicyModule } | undefined;
  const load = (): { validator: PolicyModule; injector: PolicyModule } =>
    (modules ??= {
      validator: PolicyModule.fromFile(VALIDATOR_WASM),
      injector: PolicyModule.fromFile(INJECTOR_WASM),
    });

  test("the fixtures hold admitted-and-wired, admitted-other-type and rejected-and-refused backends, and exercise every shared rule", () => {
    const { validator, injector } = load();
    const seen = new Set<string>();
    const sharedSeen = new Set<string>();
    for (const f of fixtures) {
      const verdict = validatorVerdict(validator, f.backend);
      if (specOf(f.backend).type === HICACHE && selectorLabels(f.backend) !== undefined)
        for (const [rule, pattern] of SHARED_RULES) if (pattern.test(verdict.message)) sharedSeen.add(rule);
      for (const answer of injectorAnswers(injector, f.backend))
        seen.add(`${verdict.allowed ? "admitted" : "rejected"}/${answer.kind}/${answer.text.split(":")[0]}`);
    }
    for (const needed of [
      "admitted/wired/looked up",
      "admitted/wired/inline",
      "admitted/untouched/looked up",
      "rejected/refused/looked up",
      "rejected/refused/inline",
    ])
      assert.ok(seen.has(needed), `no fixture is ${needed} (seen: ${[...seen].sort().join(", ")})`);
    const unexercised = SHARED_RULES.map(([rule]) => rule).filter((rule) => !sharedSeen.has(rule));
    assert.deepEqual(unexercised, [], "shared rules no selected SGLangHiCache fixture is rejected by");
  });

  for (const fixture of fixtures) {
    const name = (fixture.backend.metadata as { name: string }).name;
    test(`${fixture.source} (${name})`, () => {
      const { validator, injector } = load();
      const verdict = validatorVerdict(validator, fixture.backend);
      for (const answer of injectorAnswers(injector, fixture.backend)) {
        const problem = disagreement(verdict, answer, fixture.backend);
        assert.equal(problem, undefined, `${name}: ${problem}`);
      }
    });
  }
});

test("cachebackend-validator is built (backend agreement needs it)", () => {
  assert.ok(
    fs.existsSync(VALIDATOR_WASM),
    `${path.relative(ROOT, VALIDATOR_WASM)} is missing: run \`cachewarden build cachebackend-validator\``,
  );
});
