// Writes policies/cachebackend-defaulter/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/cachebackend-defaulter/test/make-test-data.ts
//
// Every expected object and warning is written out by hand from
// docs/policies/cachebackend-defaulter.md (the steps, the warnings, the acceptance table), never
// taken from the policy's output: each case names the spec it sends and the spec it expects back.
// `covers` names the anchors of that page the case shows. The acceptance rows are cases
// `acceptance-<n>-…`; the other cases test each step's bounds from both sides.
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";
import * as yaml from "js-yaml";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const OUT = testDataDir(__dirname);
const GROUP = "inferencecache.io";
const NS = "team-a";
const POLICY = "cachebackend-defaulter";

const NFS_WARNING =
  "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";
const notDefaulted = (reason: string): string => `${POLICY}: not defaulted: ${reason}`;
const LEGACY_RESOURCES = { requests: { memory: "4Gi" }, limits: { memory: "8Gi" } };
const FIVE_MINUTES = "5m0s";

function backend(spec: J, name = "cb"): J {
  const o: J = { apiVersion: `${GROUP}/v1alpha1`, kind: "CacheBackend", metadata: { name, namespace: NS } };
  if (spec !== undefined) o.spec = spec;
  return o;
}

function request(op: string, object: J, oldObject?: J, kind = "CacheBackend"): J {
  const resource = kind === "CacheBackend" ? "cachebackends" : kind.toLowerCase() + "s";
  const group = kind === "CacheBackend" ? GROUP : "";
  const version = kind === "CacheBackend" ? "v1alpha1" : "v1";
  const r: J = {
    uid: "0b6f4a52-3c1d-4e8f-9a7b-2c5d6e7f8091",
    kind: { group, version, kind },
    resource: { group, version, resource },
    requestKind: { group, version, kind },
    requestResource: { group, version, resource },
    name: "cb",
    namespace: NS,
    operation: op,
    userInfo: { username: "kubernetes-admin", groups: ["kubeadm:cluster-admins", "system:authenticated"] },
  };
  if (object !== undefined) r.object = object;
  if (oldObject !== undefined) r.oldObject = oldObject;
  r.dryRun = false;
  r.options = {
    apiVersion: "meta.k8s.io/v1",
    kind: op === "CREATE" ? "CreateOptions" : op === "UPDATE" ? "UpdateOptions" : "DeleteOptions",
  };
  return r;
}

interface Case {
  name: string;
  description: string;
  covers: string;
  operation?: string;
  request?: string;
  settings?: string;
  expect: J;
}
const cases: Case[] = [];
const files = new Map<string, string>();
const json = (v: unknown): string => JSON.stringify(v, null, 2) + "\n";

interface Validate {
  name: string;
  description: string;
  covers: string;
  /** the spec sent (undefined: no spec) */
  spec?: J;
  /** the spec expected back; undefined: no mutated_object */
  out?: J;
  warnings?: string[];
  /** the whole request instead of a CREATE of `backend(spec)` */
  req?: J;
  /** raw request text (number spellings and escapes JSON.stringify would normalize) */
  raw?: string;
  /** the whole expected object instead of `backend(out)` */
  outObject?: J;
}

function add(v: Validate): void {
  const file = `request_${v.name}.json`;
  files.set(file, v.raw ?? json(v.req ?? request("CREATE", backend(v.spec))));
  const mutated = v.out !== undefined || v.outObject !== undefined;
  const expect: J = { allowed: true, mutated };
  if (mutated) {
    expect.object = `expected_${v.name}.json`;
    files.set(expect.object, json(v.outObject ?? backend(v.out)));
  }
  expect.warnings = v.warnings ?? [];
  cases.push({ name: v.name, description: v.description, covers: v.covers, request: file, expect });
}

/** The NFS sample of inference-cache's pull request, without `integration` unless given. */
function nfsHiCache(integration?: J, changes: J = {}): J {
  const spec: J = {
    runtime: "SGLang",
    type: "SGLangHiCache",
    engineSelector: { matchLabels: { app: "sglang" } },
    hiCache: { ratio: "2.0", storagePrefetchPolicy: "wait_complete" },
    remoteStorage: {
      provider: "NFS",
      ownership: "External",
      nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/mnt/hicache" },
    },
    ...changes,
  };
  if (integration !== undefined) spec.integration = integration;
  return spec;
}
/** nfsHiCache, defaulted: engine sglang at the end of integration, observation with 5m0s. */
function nfsHiCacheDefaulted(integration: J, changes: J = {}): J {
  return { ...nfsHiCache(integration, changes), observation: { firstEventTimeout: FIVE_MINUTES } };
}

// ---------------------------------------------------------------- the acceptance table
add({
  name: "acceptance-1-empty-spec",
  description: "spec {}: legacy resources, integration with engine vllm and 5m0s",
  covers: "#acceptance, #step-1, #step-2, #step-3, #step-4",
  spec: {},
  out: { resources: LEGACY_RESOURCES, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "acceptance-2-empty-resources-kept",
  description: "legacy resources {} is the user's: kept empty; integration as for {}",
  covers: "#acceptance, #step-1",
  spec: { resources: {} },
  out: { resources: {}, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "acceptance-3-canonical-hicache",
  description: "canonical SGLang HiCache: no resources, engine sglang, observation 5m0s",
  covers: "#acceptance, #step-1, #step-3, #step-4",
  spec: { runtime: "SGLang", type: "SGLangHiCache", hiCache: { ratio: "2.0" } },
  out: {
    runtime: "SGLang",
    type: "SGLangHiCache",
    hiCache: { ratio: "2.0" },
    integration: { engine: "sglang" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "acceptance-4-integration-timeout-copied",
  description: "canonical with integration.firstEventTimeout 10m: copied to observation",
  covers: "#acceptance, #step-4",
  spec: { runtime: "VLLM", integration: { firstEventTimeout: "10m" } },
  out: {
    runtime: "VLLM",
    integration: { firstEventTimeout: "10m", engine: "vllm" },
    observation: { firstEventTimeout: "10m" },
  },
});
add({
  name: "acceptance-5-observation-timeout-kept",
  description: "canonical with observation.firstEventTimeout 1m: observation untouched",
  covers: "#acceptance, #step-4",
  spec: { runtime: "VLLM", observation: { firstEventTimeout: "1m" } },
  out: { runtime: "VLLM", observation: { firstEventTimeout: "1m" }, integration: { engine: "vllm" } },
});
add({
  name: "acceptance-6-legacy-engine-kept",
  description: "legacy integration.engine SGLang: kept as written, 5m0s added",
  covers: "#acceptance, #step-3, #step-4",
  spec: { integration: { engine: "SGLang" } },
  out: { integration: { engine: "SGLang", firstEventTimeout: FIVE_MINUTES }, resources: LEGACY_RESOURCES },
});
add({
  name: "acceptance-7-lower-case-runtime",
  description: "canonical runtime vllm (lower case): engine vllm",
  covers: "#acceptance, #step-3",
  spec: { runtime: "vllm" },
  out: { runtime: "vllm", integration: { engine: "vllm" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "acceptance-8-autoscaling-floor",
  description: "replicas 3 with autoscaling: minReplicas 3, plus steps 1-4",
  covers: "#acceptance, #step-5",
  spec: { replicas: 3, autoscaling: { maxReplicas: 5 } },
  out: {
    replicas: 3,
    autoscaling: { maxReplicas: 5, minReplicas: 3 },
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "acceptance-9-replicas-zero-no-floor",
  description: "replicas 0 with autoscaling: no minReplicas (the validator asks for it)",
  covers: "#acceptance, #step-5",
  spec: { replicas: 0, autoscaling: { maxReplicas: 5 } },
  out: {
    replicas: 0,
    autoscaling: { maxReplicas: 5 },
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "acceptance-10-already-defaulted",
  description: "the output of acceptance 1 fed back: accepted, no mutation",
  covers: "#acceptance, #idempotency",
  spec: { resources: LEGACY_RESOURCES, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "acceptance-11-integration-not-object",
  description: "integration a string: accepted unchanged, not-defaulted warning",
  covers: "#acceptance, #malformed-objects",
  spec: { integration: "x" },
  warnings: [notDefaulted("spec.integration: must be an object")],
});
add({
  name: "acceptance-11-timeout-not-duration",
  description: "integration.firstEventTimeout soon: accepted unchanged, not-defaulted warning",
  covers: "#acceptance, #malformed-objects",
  spec: { integration: { firstEventTimeout: "soon" } },
  warnings: [notDefaulted("spec.integration.firstEventTimeout: must be a duration")],
});
add({
  name: "acceptance-12-nfs-without-fail-open",
  description: "NFS HiCache without failOpen: defaulted, and the failOpen warning",
  covers: "#acceptance, #nfs-failopen-warning",
  spec: nfsHiCache(),
  out: { ...nfsHiCache(), integration: { engine: "sglang" }, observation: { firstEventTimeout: FIVE_MINUTES } },
  warnings: [NFS_WARNING],
});
add({
  name: "acceptance-13-nfs-fail-open-false",
  description: "NFS HiCache with failOpen false: defaulted, no warning",
  covers: "#acceptance, #nfs-failopen-warning",
  spec: nfsHiCache({ failOpen: false }),
  out: nfsHiCacheDefaulted({ failOpen: false, engine: "sglang" }),
});
{
  const stored = backend({
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  });
  add({
    name: "acceptance-14-update-without-integration",
    description: "UPDATE whose new object lacks integration: defaulted like CREATE, oldObject not read",
    covers: "#acceptance, #registration",
    req: request("UPDATE", backend({ resources: LEGACY_RESOURCES, replicas: 2 }), stored),
    out: {
      resources: LEGACY_RESOURCES,
      replicas: 2,
      integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
    },
  });
}
{
  // raw text: an unknown field, number spellings and escapes the DOM must hand back byte for byte
  const object =
    '{"apiVersion":"inferencecache.io/v1alpha1","kind":"CacheBackend","metadata":{"name":"cb","namespace":"team-a",' +
    '"annotations":{"team.example.com/owner":"ml \\u0026 infra \\u00e9"}},' +
    '"spec":{"x-unknown":{"weight":1000.0,"score":2.5e+3,"ratio":0.150},"replicas":1.0e0,' +
    '"autoscaling":{"maxReplicas":2E0},"backendConfig":{"model":"caf\\u00e9 \\/ r\\u00e9sum\\u00e9"}}}';
  const req = request("CREATE", { placeholder: true });
  const text = json(req).replace('{\n    "placeholder": true\n  }', object);
  add({
    name: "acceptance-15-unknown-fields-kept",
    description: "unknown fields, replicas 1.0e0, escapes: kept; minReplicas 1 and steps 1-4 added",
    covers: "#acceptance, #steps, #step-5",
    raw: text,
    outObject: {
      apiVersion: `${GROUP}/v1alpha1`,
      kind: "CacheBackend",
      metadata: { name: "cb", namespace: NS, annotations: { "team.example.com/owner": "ml & infra é" } },
      spec: {
        "x-unknown": { weight: 1000, score: 2500, ratio: 0.15 },
        replicas: 1,
        autoscaling: { maxReplicas: 2, minReplicas: 1 },
        backendConfig: { model: "café / résumé" },
        resources: LEGACY_RESOURCES,
        integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
      },
    },
  });
}
cases.push({
  name: "acceptance-16-settings-unknown-key",
  description: "settings {x: 1}: invalid",
  covers: "#acceptance, #registration",
  operation: "validate_settings",
  settings: "settings_unknown-key.json",
  expect: { valid: false, message: "x: unknown field" },
});
files.set("settings_unknown-key.json", json({ x: 1 }));
cases.push({
  name: "settings-empty",
  description: "no settings: valid",
  covers: "#registration",
  operation: "validate_settings",
  settings: "settings_empty.json",
  expect: { valid: true },
});
files.set("settings_empty.json", json({}));

// ---------------------------------------------------------------- step 1: legacy resources
add({
  name: "no-spec",
  description: "no spec at all: treated as {} (legacy), spec written",
  covers: "#steps, #step-1",
  spec: undefined,
  out: { resources: LEGACY_RESOURCES, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "spec-null",
  description: "spec null is absent: written",
  covers: "#steps, #step-1",
  spec: null,
  out: { resources: LEGACY_RESOURCES, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "legacy-resources-kept",
  description: "legacy resources with a cpu request: kept as written",
  covers: "#step-1",
  spec: { resources: { requests: { cpu: "1" } } },
  out: { resources: { requests: { cpu: "1" } }, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "legacy-resources-null",
  description: "resources null is absent: the default replaces it",
  covers: "#step-1",
  spec: { resources: null, type: "LMCache" },
  out: {
    resources: LEGACY_RESOURCES,
    type: "LMCache",
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "runtime-empty-string-is-legacy",
  description: 'runtime "" is not canonical: resources written, engine vllm',
  covers: "#step-1, #step-3",
  spec: { runtime: "" },
  out: {
    runtime: "",
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "canonical-by-lmcache",
  description: "lmCache alone makes a backend canonical: no resources, engine vllm, observation 5m0s",
  covers: "#step-1, #step-3, #step-4",
  spec: { lmCache: { chunkSizeTokens: 256 } },
  out: {
    lmCache: { chunkSizeTokens: 256 },
    integration: { engine: "vllm" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "lmcache-null-is-legacy",
  description: "lmCache null is absent: legacy",
  covers: "#step-1",
  spec: { lmCache: null },
  out: {
    lmCache: null,
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "canonical-by-remote-storage",
  description: "remoteStorage alone makes a backend canonical; the legacy engine sglang is kept",
  covers: "#step-1, #step-3, #step-4",
  spec: {
    integration: { engine: "sglang" },
    remoteStorage: { provider: "Redis", ownership: "External", endpoint: "redis:6379" },
  },
  out: {
    integration: { engine: "sglang" },
    remoteStorage: { provider: "Redis", ownership: "External", endpoint: "redis:6379" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "canonical-with-resources-kept",
  description: "canonical with deprecated resources: kept (the validator forbids them), nothing added there",
  covers: "#step-1",
  spec: { runtime: "VLLM", resources: { limits: { memory: "1Gi" } } },
  out: {
    runtime: "VLLM",
    resources: { limits: { memory: "1Gi" } },
    integration: { engine: "vllm" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});

// ---------------------------------------------------------------- steps 2, 3: integration, engine
add({
  name: "integration-null",
  description: "integration null is absent: {} with the engine and timeout",
  covers: "#step-2",
  spec: { integration: null, resources: {} },
  out: { integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES }, resources: {} },
});
add({
  name: "integration-empty-object",
  description: "integration {} is present: kept, the engine and timeout appended",
  covers: "#step-2, #step-3",
  spec: { runtime: "SGLang", integration: {} },
  out: { runtime: "SGLang", integration: { engine: "sglang" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "engine-empty-string",
  description: 'engine "" counts as absent: the runtime ID replaces it',
  covers: "#step-3",
  spec: { runtime: "SGLang", integration: { engine: "", mode: "Offload" } },
  out: {
    runtime: "SGLang",
    integration: { engine: "sglang", mode: "Offload" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "engine-null",
  description: "engine null is absent",
  covers: "#step-3",
  spec: { runtime: "VLLM", integration: { engine: null } },
  out: { runtime: "VLLM", integration: { engine: "vllm" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "runtime-upper-case",
  description: "runtime VLLM: engine vllm",
  covers: "#step-3",
  spec: { runtime: "VLLM" },
  out: { runtime: "VLLM", integration: { engine: "vllm" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "runtime-other-lower-cased",
  description: "another runtime string is lower-cased into the engine (the CRD's enum refuses it later)",
  covers: "#step-3",
  spec: { runtime: "Triton" },
  out: { runtime: "Triton", integration: { engine: "triton" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "engine-kept-beside-runtime",
  description: "an engine that differs from the runtime is kept (the validator reports the conflict)",
  covers: "#step-3",
  spec: { runtime: "VLLM", integration: { engine: "sglang" } },
  out: { runtime: "VLLM", integration: { engine: "sglang" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});

// ---------------------------------------------------------------- step 4: first-event timeout
add({
  name: "observation-without-timeout",
  description: "canonical observation with a modelID only: the timeout is appended",
  covers: "#step-4",
  spec: { runtime: "SGLang", observation: { modelID: "m" }, integration: { engine: "sglang" } },
  out: {
    runtime: "SGLang",
    observation: { modelID: "m", firstEventTimeout: FIVE_MINUTES },
    integration: { engine: "sglang" },
  },
});
add({
  name: "observation-timeout-null",
  description: "observation.firstEventTimeout null is absent: 5m0s",
  covers: "#step-4",
  spec: { runtime: "VLLM", integration: { engine: "vllm" }, observation: { firstEventTimeout: null } },
  out: { runtime: "VLLM", integration: { engine: "vllm" }, observation: { firstEventTimeout: FIVE_MINUTES } },
});
add({
  name: "integration-timeout-copied-as-written",
  description: "90s is copied as 90s (upstream writes 1m30s: D3)",
  covers: "#step-4, #d3",
  spec: { runtime: "VLLM", integration: { engine: "vllm", firstEventTimeout: "90s" } },
  out: {
    runtime: "VLLM",
    integration: { engine: "vllm", firstEventTimeout: "90s" },
    observation: { firstEventTimeout: "90s" },
  },
});
add({
  name: "integration-timeout-zero-copied",
  description: "a lone 0 is a Go duration: copied",
  covers: "#step-4",
  spec: { runtime: "VLLM", integration: { engine: "vllm", firstEventTimeout: "0" } },
  out: {
    runtime: "VLLM",
    integration: { engine: "vllm", firstEventTimeout: "0" },
    observation: { firstEventTimeout: "0" },
  },
});
add({
  name: "integration-timeout-largest-duration",
  description: "the largest Go duration is copied",
  covers: "#step-4, #malformed-objects",
  spec: { runtime: "VLLM", integration: { engine: "vllm", firstEventTimeout: "2562047h47m16.854775807s" } },
  out: {
    runtime: "VLLM",
    integration: { engine: "vllm", firstEventTimeout: "2562047h47m16.854775807s" },
    observation: { firstEventTimeout: "2562047h47m16.854775807s" },
  },
});
add({
  name: "integration-timeout-past-largest-duration",
  description: "one ns past the largest Go duration: not defaulted",
  covers: "#malformed-objects",
  spec: { runtime: "VLLM", integration: { firstEventTimeout: "2562047h47m16.854775808s" } },
  warnings: [notDefaulted("spec.integration.firstEventTimeout: must be a duration")],
});
add({
  name: "legacy-timeout-kept",
  description: "legacy integration.firstEventTimeout 30s: kept, only the engine added",
  covers: "#step-4",
  spec: { resources: {}, integration: { firstEventTimeout: "30s" } },
  out: { resources: {}, integration: { firstEventTimeout: "30s", engine: "vllm" } },
});
add({
  name: "legacy-observation-untouched",
  description: "a legacy backend's observation is neither created nor given a timeout",
  covers: "#step-4",
  spec: { observation: { modelID: "m" }, backendConfig: { model: "m" } },
  out: {
    observation: { modelID: "m" },
    backendConfig: { model: "m" },
    resources: LEGACY_RESOURCES,
    integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES },
  },
});

// ---------------------------------------------------------------- step 5: the autoscaling floor
const legacyTail = { resources: LEGACY_RESOURCES, integration: { engine: "vllm", firstEventTimeout: FIVE_MINUTES } };
const floorCase = (name: string, description: string, replicasText: string, floor: number | undefined): void => {
  // raw number text (2.0, 3e0, 2147483648), so the request says exactly what the case means
  const spec = `{"replicas":${replicasText},"autoscaling":{"maxReplicas":5}}`;
  const req = request("CREATE", backend({ placeholder: true }));
  const raw = json(req).replace('{\n      "placeholder": true\n    }', spec);
  add({
    name,
    description,
    covers: "#step-5",
    raw,
    outObject: backend({
      replicas: Number(replicasText),
      autoscaling: floor === undefined ? { maxReplicas: 5 } : { maxReplicas: 5, minReplicas: floor },
      ...legacyTail,
    }),
  });
};
floorCase("floor-replicas-one", "replicas 1: minReplicas 1", "1", 1);
floorCase("floor-replicas-minus-one", "replicas -1: no floor", "-1", undefined);
floorCase("floor-replicas-int32-max", "replicas 2147483647 (int32 max): that floor", "2147483647", 2147483647);
floorCase("floor-replicas-past-int32", "replicas 2147483648 (past int32): no floor", "2147483648", undefined);
floorCase("floor-replicas-far-past-int32", "replicas 1e15: no floor", "1e15", undefined);
floorCase("floor-replicas-fraction", "replicas 1.5 is not an integer: no floor", "1.5", undefined);
floorCase("floor-replicas-integral-float", "replicas 2.0 is the integer 2", "2.0", 2);
floorCase("floor-replicas-exponent", "replicas 3e0 is the integer 3", "3e0", 3);
add({
  name: "floor-no-replicas",
  description: "autoscaling without replicas (the schema defaults it later): no floor",
  covers: "#step-5",
  spec: { autoscaling: { maxReplicas: 5 } },
  out: { autoscaling: { maxReplicas: 5 }, ...legacyTail },
});
add({
  name: "floor-min-replicas-kept",
  description: "minReplicas 2 beside replicas 3: kept",
  covers: "#step-5",
  spec: { replicas: 3, autoscaling: { minReplicas: 2, maxReplicas: 5 } },
  out: { replicas: 3, autoscaling: { minReplicas: 2, maxReplicas: 5 }, ...legacyTail },
});
add({
  name: "floor-min-replicas-null",
  description: "minReplicas null is absent: replaced by replicas",
  covers: "#step-5",
  spec: { replicas: 3, autoscaling: { minReplicas: null, maxReplicas: 5 } },
  out: { replicas: 3, autoscaling: { minReplicas: 3, maxReplicas: 5 }, ...legacyTail },
});
add({
  name: "floor-no-autoscaling",
  description: "replicas 3 without autoscaling: no autoscaling written",
  covers: "#step-5",
  spec: { replicas: 3 },
  out: { replicas: 3, ...legacyTail },
});
add({
  name: "floor-autoscaling-null",
  description: "autoscaling null is absent: nothing written there",
  covers: "#step-5",
  spec: { replicas: 3, autoscaling: null },
  out: { replicas: 3, autoscaling: null, ...legacyTail },
});

// ---------------------------------------------------------------- malformed objects
const malformed = (name: string, description: string, spec: J, reason: string): void =>
  add({ name, description, covers: "#malformed-objects", spec, warnings: [notDefaulted(reason)] });
malformed("malformed-spec", "spec a string", "x", "spec: must be an object");
malformed("malformed-spec-list", "spec a list", [1], "spec: must be an object");
malformed("malformed-runtime", "runtime a number", { runtime: 5 }, "spec.runtime: must be a string");
malformed("malformed-resources", "resources a string", { resources: "x" }, "spec.resources: must be an object");
malformed(
  "malformed-canonical-resources",
  "a canonical backend's resources a list: still checked (all members, every object)",
  { runtime: "VLLM", resources: [] },
  "spec.resources: must be an object",
);
malformed(
  "malformed-engine",
  "engine a number",
  { integration: { engine: 7 } },
  "spec.integration.engine: must be a string",
);
malformed(
  "malformed-observation",
  "observation a list",
  { runtime: "VLLM", observation: [] },
  "spec.observation: must be an object",
);
malformed(
  "malformed-observation-timeout-type",
  "observation.firstEventTimeout a number",
  { runtime: "VLLM", observation: { firstEventTimeout: 300 } },
  "spec.observation.firstEventTimeout: must be a string",
);
malformed(
  "malformed-observation-timeout-text",
  "observation.firstEventTimeout 5 m (a space)",
  { runtime: "VLLM", observation: { firstEventTimeout: "5 m" } },
  "spec.observation.firstEventTimeout: must be a duration",
);
malformed(
  "malformed-integration-timeout-empty",
  'integration.firstEventTimeout "" is no Go duration',
  { integration: { firstEventTimeout: "" } },
  "spec.integration.firstEventTimeout: must be a duration",
);
malformed(
  "malformed-autoscaling",
  "autoscaling a string",
  { autoscaling: "on" },
  "spec.autoscaling: must be an object",
);
malformed(
  "malformed-min-replicas",
  "minReplicas a string",
  { replicas: 3, autoscaling: { minReplicas: "2", maxReplicas: 5 } },
  "spec.autoscaling.minReplicas: must be a number",
);
malformed("malformed-replicas", "replicas a string", { replicas: "2" }, "spec.replicas: must be a number");
malformed("malformed-type", "type a number", { type: 1 }, "spec.type: must be a string");
malformed(
  "malformed-first-in-step-order",
  "replicas (step 5) and integration (step 2) both wrong: integration is named",
  { replicas: "2", integration: "x" },
  "spec.integration: must be an object",
);
malformed(
  "malformed-runtime-before-type",
  "type and runtime both wrong: runtime (step 1) is named",
  { type: 1, runtime: 5 },
  "spec.runtime: must be a string",
);
malformed(
  "malformed-nfs-without-fail-open",
  "an NFS HiCache backend with a wrong type: only the not-defaulted warning",
  nfsHiCache(undefined, { replicas: "2" }),
  "spec.replicas: must be a number",
);
add({
  name: "object-not-an-object",
  description: "the object is a string: accepted unchanged with a warning",
  covers: "#malformed-objects, #responses",
  req: request("CREATE", "cb"),
  warnings: [notDefaulted("object: must be an object")],
});

// ---------------------------------------------------------------- the NFS failOpen warning
add({
  name: "nfs-integration-without-fail-open",
  description: "NFS HiCache with an integration block but no failOpen: warned",
  covers: "#nfs-failopen-warning",
  spec: nfsHiCache({ mode: "Offload" }),
  out: nfsHiCacheDefaulted({ mode: "Offload", engine: "sglang" }),
  warnings: [NFS_WARNING],
});
add({
  name: "nfs-fail-open-null",
  description: "failOpen null is absent: warned",
  covers: "#nfs-failopen-warning",
  spec: nfsHiCache({ failOpen: null }),
  out: nfsHiCacheDefaulted({ failOpen: null, engine: "sglang" }),
  warnings: [NFS_WARNING],
});
add({
  name: "nfs-fail-open-true",
  description: "failOpen true is explicit: no warning (the validator rejects it with its own message)",
  covers: "#nfs-failopen-warning",
  spec: nfsHiCache({ failOpen: true }),
  out: nfsHiCacheDefaulted({ failOpen: true, engine: "sglang" }),
});
add({
  name: "nfs-already-defaulted-still-warned",
  description: "a defaulted NFS HiCache backend without failOpen: no change, still warned",
  covers: "#nfs-failopen-warning, #idempotency",
  spec: nfsHiCacheDefaulted({ engine: "sglang" }),
  warnings: [NFS_WARNING],
});
add({
  name: "nfs-provider-lower-case",
  description: "provider nfs is not NFS: no warning",
  covers: "#nfs-failopen-warning",
  spec: nfsHiCache(undefined, {
    remoteStorage: {
      provider: "nfs",
      ownership: "External",
      nfs: { server: "192.0.2.10", path: "/", mountPath: "/m" },
    },
  }),
  out: {
    ...nfsHiCache(undefined, {
      remoteStorage: {
        provider: "nfs",
        ownership: "External",
        nfs: { server: "192.0.2.10", path: "/", mountPath: "/m" },
      },
    }),
    integration: { engine: "sglang" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "nfs-redis-hicache",
  description: "HiCache on Redis storage: no warning",
  covers: "#nfs-failopen-warning",
  spec: {
    runtime: "SGLang",
    type: "SGLangHiCache",
    hiCache: { sizeGB: 8 },
    remoteStorage: { provider: "Redis", ownership: "Managed" },
  },
  out: {
    runtime: "SGLang",
    type: "SGLangHiCache",
    hiCache: { sizeGB: 8 },
    remoteStorage: { provider: "Redis", ownership: "Managed" },
    integration: { engine: "sglang" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "nfs-lmcache-type",
  description: "LMCache on NFS storage (not HiCache): no warning",
  covers: "#nfs-failopen-warning",
  spec: nfsHiCache(undefined, { type: "LMCache", hiCache: undefined }),
  out: {
    ...nfsHiCache(undefined, { type: "LMCache", hiCache: undefined }),
    integration: { engine: "sglang" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});
add({
  name: "hicache-host-only-no-warning",
  description: "host-only HiCache: no warning",
  covers: "#nfs-failopen-warning",
  spec: { runtime: "SGLang", type: "SGLangHiCache", hiCache: { sizeGB: 8 } },
  out: {
    runtime: "SGLang",
    type: "SGLangHiCache",
    hiCache: { sizeGB: 8 },
    integration: { engine: "sglang" },
    observation: { firstEventTimeout: FIVE_MINUTES },
  },
});

// ---------------------------------------------------------------- requests
add({
  name: "delete",
  description: "DELETE: accepted, nothing written",
  covers: "#registration",
  req: request("DELETE", undefined, backend({})),
});
add({
  name: "other-kind",
  description: "a Pod (misconfigured rules): accepted untouched",
  covers: "#registration",
  req: request(
    "CREATE",
    { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: NS }, spec: {} },
    undefined,
    "Pod",
  ),
});

// ---------------------------------------------------------------- the realistic backend (benchmark)
{
  // a legacy backend as the API server hands it to admission: its schema defaults applied
  // (type, replicas, deploymentKind), kubectl's last-applied annotation, managedFields
  const lastApplied =
    '{"apiVersion":"inferencecache.io/v1alpha1","kind":"CacheBackend","metadata":{"annotations":{},"name":"llama3-cache","namespace":"team-a"},"spec":{"autoscaling":{"maxReplicas":4},"backendConfig":{"model":"meta-llama/Meta-Llama-3-8B-Instruct","serverImage":"lmcache/lmcache-server:0.3.9"},"engineSelector":{"matchLabels":{"app.kubernetes.io/name":"vllm","app.kubernetes.io/instance":"llama3"}},"replicas":2}}\n';
  const object = {
    apiVersion: `${GROUP}/v1alpha1`,
    kind: "CacheBackend",
    metadata: {
      name: "llama3-cache",
      namespace: NS,
      uid: "5c1e7a9d-0f3b-4a6e-8d2c-7b9f1e3a5c6d",
      generation: 1,
      creationTimestamp: "2026-12-05T09:12:44Z",
      labels: { "app.kubernetes.io/part-of": "inference", "team.example.com/cost-center": "ml-platform" },
      annotations: { "kubectl.kubernetes.io/last-applied-configuration": lastApplied },
      managedFields: [
        {
          manager: "kubectl-client-side-apply",
          operation: "Update",
          apiVersion: `${GROUP}/v1alpha1`,
          time: "2026-12-05T09:12:44Z",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": { "f:annotations": { ".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {} } },
            "f:spec": {
              ".": {},
              "f:autoscaling": { ".": {}, "f:maxReplicas": {} },
              "f:backendConfig": { ".": {}, "f:model": {}, "f:serverImage": {} },
              "f:engineSelector": {
                ".": {},
                "f:matchLabels": { ".": {}, "f:app.kubernetes.io/instance": {}, "f:app.kubernetes.io/name": {} },
              },
              "f:replicas": {},
            },
          },
        },
      ],
    },
    spec: {
      type: "LMCache",
      deploymentKind: "Deployment",
      replicas: 2,
      autoscaling: { maxReplicas: 4 },
      engineSelector: { matchLabels: { "app.kubernetes.io/name": "vllm", "app.kubernetes.io/instance": "llama3" } },
      backendConfig: { model: "meta-llama/Meta-Llama-3-8B-Instruct", serverImage: "lmcache/lmcache-server:0.3.9" },
    },
  };
  const out = JSON.parse(JSON.stringify(object));
  out.spec.autoscaling.minReplicas = 2;
  out.spec.resources = LEGACY_RESOURCES;
  out.spec.integration = { engine: "vllm", firstEventTimeout: FIVE_MINUTES };
  add({
    name: "realistic-legacy-backend",
    description: "a legacy backend as the API server sends it: floor 2, resources, integration",
    covers: "#steps",
    req: request("CREATE", object),
    outObject: out,
  });
}

// ---------------------------------------------------------------- write
const header =
  "# cachebackend-defaulter e2e cases (format: docs/test-data.md), generated by\n" +
  "# policies/cachebackend-defaulter/test/make-test-data.ts. `covers` names the anchors of\n" +
  "# docs/policies/cachebackend-defaulter.md each case shows.\n";
writeTestData(
  OUT,
  cases.map((c) => c.name),
  files,
  header + yaml.dump(cases, { lineWidth: -1 }),
);
