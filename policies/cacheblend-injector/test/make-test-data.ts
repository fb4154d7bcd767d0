// Writes policies/cacheblend-injector/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/cacheblend-injector/test/make-test-data.ts
//
// Every case states its decision by hand: the target's final args are written out literally per
// case (they are what the flag rules of docs/policies/cacheblend-injector.md#flags must produce),
// and which image, secrets, reason and detail apply. Only the mechanical staging edits of a decided
// wiring (volume, init container, mount, PYTHONPATH, secrets, stamps) are done by `wire()` below.
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";
import { UNREADABLE_CONTAINER_BEFORE_TARGET } from "../../../tests/helpers/target-container-cases";
import { REALISTIC_POD_TEXT } from "../../lmcache-injector/test/realistic-pod";

const OUT = testDataDir(__dirname);
const POLICY = "cacheblend-injector";
const NS = "vllm-ns";
const API = "lmcache.lmcache.ai/v1alpha1";

const K = {
  engine: "lmcache.ai/cacheblend-engine",
  container: "lmcache.ai/cacheblend-container",
  secrets: "lmcache.ai/cacheblend-image-pull-secrets",
  injected: "lmcache.ai/cacheblend-injected",
  skip: "lmcache.ai/cacheblend-skip-reason",
  label: "lmcache.ai/cacheblend-inject",
};

/** What the operator's controller writes for a CacheBlendEngine: 2-space indented, keys sorted. */
function operatorKv(engine: string, ns: string): string {
  return JSON.stringify(
    {
      kv_connector: "CBKVConnector",
      kv_connector_extra_config: {
        "cb.check_layer": 1,
        "cb.recomp_ratio": 0.15,
        "lmcache.mp.host": `tcp://${engine}.${ns}.svc.cluster.local`,
        "lmcache.mp.port": "5555",
      },
      kv_connector_module_path: "lmcache_cacheblend.connector",
      kv_role: "kv_both",
    },
    null,
    2,
  );
}
const KV = operatorKv("cb", NS);
const REF = "reg/cb-payload:pinned";
const ENGINE_INJECTION = { payloadImage: { repository: "reg/cb-payload", tag: "pinned" } };

/** The args every flag appends to `--model m` when none of them is present (eager cudagraph). */
const wiredArgs = (kv: string = KV, prefix: string[] = ["--model", "m"]) => [
  ...prefix,
  "--attention-backend",
  "CUSTOM",
  "--kv-transfer-config",
  kv,
  "--no-enable-chunked-prefill",
  "--block-size",
  "64",
  "--pipeline-parallel-size",
  "1",
  "--no-async-scheduling",
  "--enforce-eager",
];

/** Today's flag set: no --attention-backend, --block-size or --no-async-scheduling. */
const currentArgs = (kv: string = KV, prefix: string[] = ["--model", "m"]) => [
  ...prefix,
  "--kv-transfer-config",
  kv,
  "--no-enable-chunked-prefill",
  "--pipeline-parallel-size",
  "1",
  "--enforce-eager",
];

const skipWarning = (reason: string, detail: string) => `${POLICY}: injection skipped (${reason}): ${detail}`;
const kvPresentWarning = (c: string) =>
  `${POLICY}: kv-transfer-config-present: container "${c}" already sets --kv-transfer-config; the engine connection config was not injected`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generator edits free-form Kubernetes objects
type J = any;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

function basicPod(annotations: Record<string, string> = { [K.engine]: "cb" }): J {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "vllm-pod", namespace: NS, labels: { [K.label]: "true" }, annotations },
    spec: {
      containers: [{ name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "m"] }],
    },
  };
}
function podWith(mut: (p: J) => void, annotations?: Record<string, string>): J {
  const p = basicPod(annotations);
  mut(p);
  return p;
}
function sidecarPod(annotations: Record<string, string>): J {
  return podWith((p) => {
    p.spec.containers = [
      { name: "sidecar", image: "busybox:1.36", args: ["sleep"] },
      { name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "m"] },
    ];
  }, annotations);
}

function request(object: J | undefined, extra: Record<string, unknown> = {}): J {
  const r: J = {
    uid: "1c9e7a52-7d1b-4f0e-8a3e-5b2d6c7f9a10",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    requestKind: { group: "", version: "v1", kind: "Pod" },
    requestResource: { group: "", version: "v1", resource: "pods" },
    name: "vllm-pod",
    namespace: NS,
    operation: "CREATE",
    userInfo: { username: "system:serviceaccount:kube-system:replicaset-controller", groups: ["system:authenticated"] },
    dryRun: false,
  };
  if (object !== undefined) r.object = object;
  return { ...r, ...extra };
}

interface Wiring {
  container?: number;
  /** the target's whole expected args */
  args: string[];
  /** user already had --kv-transfer-config (kv-transfer-config-present) */
  userKv?: boolean;
  secrets?: string[];
  /** IPC wiring: default hostIPC; "none" = a guard held (docs/policies/cacheblend-injector.md#ipc-modes) */
  ipc?: "hostIPC" | "host" | "none";
  /** success warnings after the kv-transfer-config-present one */
  warnings?: string[];
  /** NIXL side-channel port text: the engine has spec.pd */
  nixl?: string;
}

/** The staging and stamping edits of a decided wiring (the test oracle); args are given whole. */
function wire(pod: J, w: Wiring): J {
  const out = clone(pod);
  const spec = out.spec;
  const c = spec.containers[w.container ?? 0];
  const ipc = w.ipc ?? "hostIPC";
  if (ipc === "hostIPC") spec.hostIPC = true;
  else if (ipc === "host") {
    spec.volumes = [
      ...(spec.volumes ?? []),
      { name: "lmcache-dev-shm", hostPath: { path: "/dev/shm", type: "Directory" } },
    ];
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: "lmcache-dev-shm", mountPath: "/dev/shm" }];
  }
  spec.volumes = spec.volumes ?? [];
  if (!spec.volumes.some((v: J) => v.name === "cb-plugin")) spec.volumes.push({ name: "cb-plugin", emptyDir: {} });
  spec.initContainers = spec.initContainers ?? [];
  if (!spec.initContainers.some((v: J) => v.name === "cb-plugin-stage")) {
    spec.initContainers.push({
      name: "cb-plugin-stage",
      image: REF,
      env: [{ name: "SHARED_DIR", value: "/cb-plugin" }],
      volumeMounts: [{ name: "cb-plugin", mountPath: "/cb-plugin" }],
      imagePullPolicy: "IfNotPresent",
    });
  }
  c.volumeMounts = c.volumeMounts ?? [];
  if (!c.volumeMounts.some((v: J) => v.name === "cb-plugin"))
    c.volumeMounts.push({ name: "cb-plugin", mountPath: "/cb-plugin", readOnly: true });
  c.env = c.env ?? [];
  let found = false;
  for (const e of c.env) {
    if (e.name !== "PYTHONPATH") continue;
    found = true;
    e.value = e.value ? `/cb-plugin:${e.value}` : "/cb-plugin";
  }
  if (!found) c.env.push({ name: "PYTHONPATH", value: "/cb-plugin" });
  c.args = w.args;
  const seen = new Set<string>((spec.imagePullSecrets ?? []).map((x: J) => x.name));
  const add = [];
  for (const n of w.secrets ?? [])
    if (!seen.has(n)) {
      seen.add(n);
      add.push({ name: n });
    }
  if (add.length > 0) spec.imagePullSecrets = [...(spec.imagePullSecrets ?? []), ...add];
  if (w.nixl !== undefined) addNixl(c, w.nixl);
  out.metadata.annotations[K.injected] = "true";
  if (w.userKv) out.metadata.annotations[K.skip] = "kv-transfer-config-present";
  else delete out.metadata.annotations[K.skip];
  return out;
}

/** The NIXL env entries, each only when no entry has its name (docs/policies/cacheblend-injector.md#pd-roles). */
function addNixl(c: J, port: string): void {
  c.env = c.env ?? [];
  const has = (n: string) => c.env.some((e: J) => e.name === n);
  if (!has("VLLM_NIXL_SIDE_CHANNEL_HOST"))
    c.env.push({ name: "VLLM_NIXL_SIDE_CHANNEL_HOST", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } });
  if (!has("VLLM_NIXL_SIDE_CHANNEL_PORT")) c.env.push({ name: "VLLM_NIXL_SIDE_CHANNEL_PORT", value: port });
}

/** A CacheBlend decoder pod: the kv flag, the NIXL env and the stamps only. */
function wireDecoder(pod: J, kv: string, port: string): J {
  const out = clone(pod);
  const c = out.spec.containers[0];
  c.args = [...(c.args ?? []), "--kv-transfer-config", kv];
  addNixl(c, port);
  out.metadata.annotations[K.injected] = "true";
  delete out.metadata.annotations[K.skip];
  return out;
}

function stamped(pod: J, reason: string): J {
  const out = clone(pod);
  out.metadata.annotations = out.metadata.annotations ?? {};
  out.metadata.annotations[K.skip] = reason;
  return out;
}

// ---------------------------------------------------------------- cluster answers
interface Exchange {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  ok: boolean;
  text: string;
}
const notFound = (apiVersion: string, kind: string, name: string, ns: string) =>
  `Cannot find ${apiVersion}/${kind} named '${name}' inside of namespace 'Some("${ns}")'`;
const SERVER_ERROR = `ApiError: Internal error occurred: etcdserver: request timed out: InternalError (ErrorResponse { status: "Failure", message: "Internal error occurred: etcdserver: request timed out", reason: "InternalError", code: 500 })`;

function engineCr(injection: J | null, name: string, ns: string, extra: J = {}): J {
  const spec: J = { server: { port: 5555, chunkSize: 256 }, blend: { checkLayer: 1, recompRatio: 0.15 }, ...extra };
  if (injection !== null) spec.injection = injection;
  return {
    apiVersion: API,
    kind: "CacheBlendEngine",
    metadata: { name, namespace: ns, uid: "8d2f4b6a-1e3c-4a5b-9c7d-0e1f2a3b4c5d", generation: 1 },
    spec,
    status: { phase: "Ready" },
  };
}
/** `injection` null: the CR has no spec.injection */
const engineFound = (injection: J | null = ENGINE_INJECTION, name = "cb", ns = NS): Exchange => ({
  apiVersion: API,
  kind: "CacheBlendEngine",
  name,
  namespace: ns,
  ok: true,
  text: JSON.stringify(engineCr(injection, name, ns)),
});
/** A CacheBlendEngine with generation fields `extra`: `hostIPC`, `isolatedIPC` or `pd` make it
 *  current, `gpuVendor` alone does not (docs/policies/cacheblend-injector.md#which-lmcache-operator). */
const engineWith = (extra: J): Exchange => ({
  ...engineFound(),
  text: JSON.stringify(engineCr(ENGINE_INJECTION, "cb", NS, extra)),
});
const engineMissing = (name = "cb", ns = NS): Exchange => ({
  apiVersion: API,
  kind: "CacheBlendEngine",
  name,
  namespace: ns,
  ok: false,
  text: notFound(API, "CacheBlendEngine", name, ns),
});
const engineError = (): Exchange => ({ ...engineMissing(), text: SERVER_ERROR });
const cmFound = (data: J = { "kv-transfer-config.json": KV }, name = "cb", ns = NS): Exchange => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: `${name}-connection`,
  namespace: ns,
  ok: true,
  text: JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${name}-connection`, namespace: ns, labels: { "app.kubernetes.io/instance": name } },
    data,
  }),
});
const cmMissing = (): Exchange => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: "cb-connection",
  namespace: NS,
  ok: false,
  text: notFound("v1", "ConfigMap", "cb-connection", NS),
});

const yamlSingleQuoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
function sessionYaml(exchanges: Exchange[]): string {
  if (exchanges.length === 0) return "[]\n";
  return (
    exchanges
      .map((e) =>
        [
          "- type: Exchange",
          "  request: |",
          "    !KubernetesGetResource",
          `    api_version: ${e.apiVersion}`,
          `    kind: ${e.kind}`,
          `    name: ${e.name}`,
          `    namespace: ${e.namespace}`,
          "    disable_cache: false",
          "  response:",
          e.ok ? "    type: Success" : "    type: Error",
          e.ok ? `    payload: ${yamlSingleQuoted(e.text)}` : `    message: ${yamlSingleQuoted(e.text)}`,
        ].join("\n"),
      )
      .join("\n") + "\n"
  );
}

// ---------------------------------------------------------------- cases
interface Expect {
  allowed?: boolean;
  mutated?: boolean;
  object?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
  annotations?: Record<string, string | null>;
  valid?: boolean;
  message?: string;
}
interface Case {
  name: string;
  description: string;
  covers: string;
  operation?: string;
  request?: string;
  settings?: string;
  session?: string;
  contextAware?: boolean;
  expect: Expect;
}
const cases: Case[] = [];
const files = new Map<string, string>();
function put(file: string, text: string): string {
  const prev = files.get(file);
  if (prev !== undefined && prev !== text) throw new Error(`${file} written twice with different content`);
  files.set(file, text);
  return file;
}
const putJson = (file: string, v: J) => put(file, JSON.stringify(v, null, 2) + "\n");

const SETTINGS_DEFAULT = putJson("settings_default.json", {});
const NO_LOOKUPS = put("session_no-lookups.yml", sessionYaml([]));
const STANDARD = [engineFound(), cmFound()];

interface Common {
  description: string;
  covers: string;
  settings?: J;
  contextAware?: boolean;
  session: Exchange[];
}
function addCase(name: string, c: Common, reqFile: string, expect: Expect): void {
  cases.push({
    name,
    description: c.description,
    covers: c.covers,
    request: reqFile,
    settings: c.settings === undefined ? SETTINGS_DEFAULT : putJson(`settings_${name}.json`, c.settings),
    session: c.session.length === 0 ? NO_LOOKUPS : put(`session_${name}.yml`, sessionYaml(c.session)),
    contextAware: c.contextAware,
    expect,
  });
}
function injectCase(name: string, pod: J, c: Common, w: Wiring): void {
  const req = putJson(`request_${name}.json`, request(pod));
  const exp = putJson(`expected_${name}.json`, wire(pod, w));
  addCase(name, c, req, {
    allowed: true,
    mutated: true,
    object: exp,
    warnings: [
      ...(w.userKv ? [kvPresentWarning(pod.spec.containers[w.container ?? 0].name)] : []),
      ...(w.warnings ?? []),
    ],
    auditAnnotations: {},
    annotations: { [K.injected]: "true", [K.skip]: w.userKv ? "kv-transfer-config-present" : null },
  });
}
function skipCase(name: string, pod: J, c: Common, reason: string, detail: string): void {
  const req = putJson(`request_${name}.json`, request(pod));
  const exp = putJson(`expected_${name}.json`, stamped(pod, reason));
  addCase(name, c, req, {
    allowed: true,
    mutated: true,
    object: exp,
    warnings: [skipWarning(reason, detail)],
    auditAnnotations: { "skip-reason": reason },
    annotations: { [K.skip]: reason, [K.injected]: null },
  });
}
function passCase(name: string, requestValue: J, c: Common): void {
  const req = putJson(`request_${name}.json`, requestValue);
  addCase(name, c, req, { allowed: true, mutated: false, warnings: [], auditAnnotations: {} });
}
function settingsCase(name: string, description: string, covers: string, settings: J, message?: string): void {
  cases.push({
    name,
    description,
    covers,
    operation: "validate_settings",
    settings: putJson(`settings_${name}.json`, settings),
    expect: message === undefined ? { valid: true } : { valid: false, message },
  });
}

const withAnn = (extra: Record<string, string>) => basicPod({ [K.engine]: "cb", ...extra });
const withArgs = (args: string[]) =>
  podWith((p) => {
    p.spec.containers[0].args = args;
  });

// ---- gate (steps 1–6)
passCase("not-opted-in", request(basicPod({})), {
  description: "no cacheblend-engine annotation",
  covers: "#step-5; #upstream-tests (no engine annotation)",
  session: [],
});
passCase("already-injected", request(withAnn({ [K.injected]: "true", [K.skip]: "engine-not-found" })), {
  description: 'injected guard "true" with a stale skip reason: passed unchanged',
  covers: "#step-4; #upstream-tests (already injected)",
  session: [],
});
passCase("update-operation", request(basicPod(), { operation: "UPDATE" }), {
  description: "UPDATE of an opted-in pod is passed untouched",
  covers: "#step-2",
  session: [],
});
passCase("lmcache-keys-ignored", request(basicPod({ "lmcache.ai/lmcache-engine": "cb" })), {
  description: "only the LMCache engine annotation: not opted in to CacheBlend",
  covers: "#keys",
  session: [],
});

// ---- full wiring (acceptance 37, upstream full injection)
injectCase(
  "full-injection",
  basicPod(),
  {
    description: "engine cb: hostIPC, cb-plugin staging, the flag set with --enforce-eager, no PYTHONHASHSEED",
    covers: "#wiring; #flags; #staging; #upstream-tests (full injection)",
    session: STANDARD,
  },
  { args: wiredArgs() },
);
injectCase(
  "full-injection-pull-secret",
  basicPod(),
  {
    description: "engine imagePullSecrets [cb-payload-pull] are always merged",
    covers: "#pull-secrets; #upstream-tests (full injection)",
    session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: [{ name: "cb-payload-pull" }] }), cmFound()],
  },
  { args: wiredArgs(), secrets: ["cb-payload-pull"] },
);
injectCase(
  "secret-already-listed",
  podWith((p) => {
    p.spec.imagePullSecrets = [{ name: "cb-payload-pull" }];
  }),
  {
    description: "pod already lists the engine's secret: still exactly one",
    covers: "#pull-secrets; #upstream-tests (pod already lists the secret)",
    session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: [{ name: "cb-payload-pull" }] }), cmFound()],
  },
  { args: wiredArgs(), secrets: ["cb-payload-pull"] },
);
injectCase(
  "secrets-override",
  withAnn({ [K.secrets]: "override-a, override-b" }),
  {
    description: "override annotation replaces the engine's secrets",
    covers: "#pull-secrets; #upstream-tests (override)",
    session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: [{ name: "cb-payload-pull" }] }), cmFound()],
  },
  { args: wiredArgs(), secrets: ["override-a", "override-b"] },
);
skipCase(
  "secrets-override-invalid",
  withAnn({ [K.secrets]: "good, Bad_Name" }),
  { description: "override annotation lists an invalid Secret name", covers: "#step-15; #d5", session: STANDARD },
  "invalid-image-pull-secrets",
  '"Bad_Name" is not a valid Secret name',
);
injectCase(
  "injected-capitalized",
  withAnn({ [K.injected]: "True" }),
  { description: 'injected "True" is not the guard: full injection', covers: "#step-4", session: STANDARD },
  { args: wiredArgs() },
);
injectCase(
  "stale-skip-reason-removed",
  withAnn({ [K.skip]: "engine-not-found" }),
  { description: "success removes an earlier skip reason (D10)", covers: "#stamping; #d10", session: STANDARD },
  { args: wiredArgs() },
);
injectCase(
  "existing-pythonpath",
  podWith((p) => {
    p.spec.containers[0].env = [{ name: "PYTHONPATH", value: "/opt/extra" }];
  }),
  {
    description: "existing PYTHONPATH gets /cb-plugin prepended",
    covers: "#staging; #upstream-tests (existing PYTHONPATH)",
    session: STANDARD,
  },
  { args: wiredArgs() },
);
injectCase(
  "staging-prestaged",
  podWith((p) => {
    p.spec.volumes = [{ name: "cb-plugin", emptyDir: { medium: "Memory" } }];
    p.spec.initContainers = [{ name: "cb-plugin-stage", image: "reg/own-plugin:1" }];
  }),
  {
    description: "a volume and an init container with the staging names are kept, not duplicated",
    covers: "#staging",
    session: STANDARD,
  },
  { args: wiredArgs() },
);
injectCase(
  "hostipc-false-replaced",
  podWith((p) => {
    p.spec.hostIPC = false;
  }),
  { description: "hostIPC false becomes true", covers: "#wiring", session: STANDARD },
  { args: wiredArgs() },
);
injectCase(
  "annotation-named-second-container",
  sidecarPod({ [K.engine]: "cb", [K.container]: "vllm" }),
  {
    description: "container annotation names the second container; the sidecar is untouched",
    covers: "#target-container; #upstream-tests (annotation-named non-first container)",
    session: STANDARD,
  },
  { container: 1, args: wiredArgs() },
);
injectCase(
  "engine-default-target-container",
  sidecarPod({ [K.engine]: "cb" }),
  {
    description: "engine injection.targetContainer picks vllm",
    covers: "#target-container; #upstream-tests (engine targetContainer default)",
    session: [engineFound({ ...ENGINE_INJECTION, targetContainer: "vllm" }), cmFound()],
  },
  { container: 1, args: wiredArgs() },
);

// ---- engine reference and lookups (steps 7–11): the CR is read before the ConfigMap
const OTHER_KV = operatorKv("cb", "other-ns");
injectCase(
  "cross-namespace-reference",
  withAnn({ [K.engine]: "other-ns/cb" }),
  {
    description: "annotation other-ns/cb: CR and ConfigMap read from other-ns",
    covers: "#step-7; #step-9; #upstream-tests (envtest cross-namespace)",
    session: [
      engineFound(ENGINE_INJECTION, "cb", "other-ns"),
      cmFound({ "kv-transfer-config.json": OTHER_KV }, "cb", "other-ns"),
    ],
  },
  { args: wiredArgs(OTHER_KV) },
);
injectCase(
  "cross-namespace-reference-padded",
  withAnn({ [K.engine]: " other-ns / cb " }),
  {
    description: "annotation ' other-ns / cb ' is trimmed around and inside",
    covers: "#step-7",
    session: [
      engineFound(ENGINE_INJECTION, "cb", "other-ns"),
      cmFound({ "kv-transfer-config.json": OTHER_KV }, "cb", "other-ns"),
    ],
  },
  { args: wiredArgs(OTHER_KV) },
);
for (const [name, ref] of [
  ["reference-leading-slash", "/cb"],
  ["reference-two-slashes", "a/b/c"],
  ["reference-trailing-slash", "other-ns/"],
  ["reference-uppercase", "CB"],
]) {
  skipCase(
    name,
    withAnn({ [K.engine]: ref }),
    { description: `annotation ${JSON.stringify(ref)}: invalid, no lookup`, covers: "#step-7; #d4", session: [] },
    "invalid-engine-reference",
    `"${ref}" is not a valid engine reference`,
  );
}
skipCase(
  "engine-cr-absent",
  withAnn({ [K.engine]: "does-not-exist" }),
  {
    description: "CacheBlendEngine not found: engine-not-found, the ConfigMap is not read",
    covers: "#step-9; #upstream-tests (engine CR absent)",
    session: [engineMissing("does-not-exist")],
  },
  "engine-not-found",
  "CacheBlendEngine vllm-ns/does-not-exist not found",
);
skipCase(
  "configmap-absent",
  basicPod(),
  {
    description: "CR found, ConfigMap missing",
    covers: "#step-10; #upstream-tests (ConfigMap absent)",
    session: [engineFound(), cmMissing()],
  },
  "engine-not-found",
  "ConfigMap vllm-ns/cb-connection not found",
);
skipCase(
  "engine-lookup-failed",
  basicPod(),
  { description: "CacheBlendEngine lookup fails with a server error", covers: "#step-9", session: [engineError()] },
  "lookup-failed",
  "lookup of CacheBlendEngine vllm-ns/cb failed",
);
skipCase(
  "lookup-denied",
  basicPod(),
  {
    description: "AdmissionPolicy without inline engines: the host denies the CR lookup",
    covers: "#step-9; #settings",
    contextAware: false,
    session: [],
  },
  "lookup-denied",
  "lookup of CacheBlendEngine vllm-ns/cb was denied; use settings.engines",
);
skipCase(
  "configmap-value-not-object",
  basicPod(),
  {
    description: "kv-transfer-config.json is a JSON array",
    covers: "#step-11; #d3",
    session: [engineFound(), cmFound({ "kv-transfer-config.json": "[1,2]" })],
  },
  "invalid-connection-config",
  "kv-transfer-config.json of vllm-ns/cb-connection is not a JSON object",
);
skipCase(
  "configmap-key-missing",
  basicPod(),
  {
    description: "ConfigMap without kv-transfer-config.json",
    covers: "#step-11; #d3",
    session: [engineFound(), cmFound({ other: "x" })],
  },
  "connection-config-missing",
  "ConfigMap vllm-ns/cb-connection has no kv-transfer-config.json value",
);

// ---- inline engines (settings)
const INLINE_KV = { kv_connector: "CBKVConnector", kv_role: "kv_both" };
const inlineEngine = { kvTransferConfig: INLINE_KV, injection: ENGINE_INJECTION };
injectCase(
  "settings-engine-qualified-key",
  basicPod(),
  {
    description: "inline engine vllm-ns/cb, lookup false, annotation cb: no lookup",
    covers: "#step-8; #settings",
    settings: { lookup: false, engines: { "vllm-ns/cb": inlineEngine } },
    session: [],
  },
  { args: wiredArgs(JSON.stringify(INLINE_KV)) },
);
injectCase(
  "settings-engine-bare-key",
  basicPod(),
  {
    description: "inline engine cb for the pod's own namespace",
    covers: "#step-8; #settings",
    settings: { lookup: false, engines: { cb: inlineEngine } },
    session: [],
  },
  { args: wiredArgs(JSON.stringify(INLINE_KV)) },
);
skipCase(
  "settings-bare-key-other-namespace",
  withAnn({ [K.engine]: "other-ns/cb" }),
  {
    description: "inline key cb is not used for other-ns/cb",
    covers: "#step-8; #settings",
    settings: { lookup: false, engines: { cb: inlineEngine } },
    session: [],
  },
  "engine-not-found",
  "engine other-ns/cb is not in settings.engines and lookups are disabled",
);

// ---- target container, command (steps 12–13)
skipCase(
  "unknown-container",
  withAnn({ [K.container]: "does-not-exist" }),
  {
    description: "container annotation names no container",
    covers: "#step-12; #upstream-tests (unknown container name)",
    session: STANDARD,
  },
  "target-container-not-found",
  'no container named "does-not-exist"',
);
// a container that cannot be read before the named one: invalid-request (one list for both injectors)
for (const u of UNREADABLE_CONTAINER_BEFORE_TARGET) {
  const p = withAnn({ [K.container]: "vllm" });
  p.spec.containers = [u.before, ...p.spec.containers];
  skipCase(
    u.name,
    p,
    { description: u.description, covers: "#step-12; #target-container", session: STANDARD },
    "invalid-request",
    u.message,
  );
}
skipCase(
  "command-override",
  podWith((p) => {
    p.spec.containers[0].command = ["/bin/sh", "-c", "exec vllm serve"];
  }),
  { description: "target sets command", covers: "#step-13; #upstream-tests (command override)", session: STANDARD },
  "command-override",
  'container "vllm" sets command; only args can be extended',
);

// ---- payload image (step 14): skips carry nothing but the reason (D2)
skipCase(
  "injection-absent",
  basicPod(),
  {
    description: "CR without injection: payload-image-unset, no hostIPC, no volume",
    covers: "#step-14; #d2",
    session: [engineFound(null), cmFound()],
  },
  "payload-image-unset",
  "CacheBlendEngine vllm-ns/cb has no injection.payloadImage.repository",
);
skipCase(
  "payload-image-repository-blank",
  basicPod(),
  {
    description: "payloadImage.repository is blank",
    covers: "#step-14; #x2",
    session: [engineFound({ payloadImage: { repository: "  ", tag: "pinned" } }), cmFound()],
  },
  "payload-image-unset",
  "CacheBlendEngine vllm-ns/cb has no injection.payloadImage.repository",
);
skipCase(
  "payload-image-footgun",
  basicPod(),
  {
    description: "payloadImage.repository is the ImageSpec default",
    covers: "#step-14; #d6",
    session: [engineFound({ payloadImage: { repository: "lmcache/vllm-openai", tag: "latest" } }), cmFound()],
  },
  "payload-image-invalid",
  "payloadImage.repository is the ImageSpec default lmcache/vllm-openai",
);
skipCase(
  "payload-image-whitespace",
  basicPod(),
  {
    description: "payloadImage.repository contains a space",
    covers: "#step-14; #x3",
    session: [engineFound({ payloadImage: { repository: "reg/cb payload" } }), cmFound()],
  },
  "payload-image-invalid",
  "payloadImage repository is not a valid image reference part",
);
// ---- edge cases of the shared LMCache code (docs/decisions.md#edge-cases-of-the-shared-lmcache-steps)
skipCase(
  "payload-image-repository-with-tag",
  basicPod(),
  {
    description: "payloadImage.repository reg/cb-payload:v1 holds a tag: the image would be reg/cb-payload:v1:latest",
    covers: "#step-14; decision (tag in repository)",
    session: [engineFound({ payloadImage: { repository: "reg/cb-payload:v1" } }), cmFound()],
  },
  "payload-image-invalid",
  'payloadImage.repository "reg/cb-payload:v1" holds a tag in its last path segment; put the tag in payloadImage.tag',
);
skipCase(
  "payload-image-bad-pull-policy",
  basicPod(),
  {
    description: "pullPolicy outside the enum: the message names the field and the allowed values",
    covers: "#step-14; #x3",
    session: [engineFound({ payloadImage: { repository: "reg/cb-payload", pullPolicy: "Sometimes" } }), cmFound()],
  },
  "payload-image-invalid",
  'payloadImage.pullPolicy "Sometimes" is not one of Always, Never, IfNotPresent',
);
skipCase(
  "engine-target-container-number",
  basicPod(),
  {
    description: "CacheBlendEngine read, but targetContainer is 7: engine-invalid naming the field, not lookup-failed",
    covers: "#step-9; decision (engine-invalid)",
    session: [engineFound({ ...ENGINE_INJECTION, targetContainer: 7 })],
  },
  "engine-invalid",
  "CacheBlendEngine vllm-ns/cb is malformed: spec.injection.targetContainer has the wrong JSON type",
);
skipCase(
  "engine-pull-secrets-string",
  basicPod(),
  {
    description: 'CacheBlendEngine read, but imagePullSecrets is "x": engine-invalid naming the field',
    covers: "#step-9; decision (engine-invalid)",
    session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: "x" })],
  },
  "engine-invalid",
  "CacheBlendEngine vllm-ns/cb is malformed: spec.injection.imagePullSecrets has the wrong JSON type",
);
injectCase(
  "engine-pull-secret-empty-name",
  basicPod(),
  {
    description: "engine imagePullSecrets [{}, cb-payload-pull]: the empty name is never put on the pod",
    covers: "#pull-secrets; decision (empty pull-secret name)",
    session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: [{}, { name: "cb-payload-pull" }] }), cmFound()],
  },
  { args: wiredArgs(), secrets: ["cb-payload-pull"] },
);
skipCase(
  "staging-mount-elsewhere",
  podWith((p) => {
    p.spec.volumes = [{ name: "cb-plugin", emptyDir: {} }];
    p.spec.containers[0].volumeMounts = [{ name: "cb-plugin", mountPath: "/opt/cb" }];
  }),
  {
    description: "the target already mounts cb-plugin at /opt/cb: PYTHONPATH=/cb-plugin would name an empty path",
    covers: "#staging; decision (staging conflicts)",
    session: STANDARD,
  },
  "staging-conflict",
  'container "vllm" mounts volume "cb-plugin" at "/opt/cb", which conflicts with the staging volume',
);
skipCase(
  "staging-path-taken",
  podWith((p) => {
    p.spec.volumes = [{ name: "models", emptyDir: {} }];
    p.spec.containers[0].volumeMounts = [{ name: "models", mountPath: "/cb-plugin" }];
  }),
  {
    description: "the target already mounts another volume at /cb-plugin: a second mount there is refused",
    covers: "#staging; decision (staging conflicts)",
    session: STANDARD,
  },
  "staging-conflict",
  'container "vllm" mounts volume "models" at "/cb-plugin", which conflicts with the staging volume',
);

// ---- flags (acceptance 45–50, upstream replacement cases)
injectCase(
  "attention-backend-replaced",
  withArgs(["--model", "m", "--attention-backend", "FLASH_ATTN"]),
  { description: "--attention-backend FLASH_ATTN becomes CUSTOM, once", covers: "#flags", session: STANDARD },
  {
    args: [
      "--model",
      "m",
      "--attention-backend",
      "CUSTOM",
      "--kv-transfer-config",
      KV,
      "--no-enable-chunked-prefill",
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "attention-backend-equals-form",
  withArgs(["--model", "m", "--attention-backend=FLASH_ATTN"]),
  { description: "--attention-backend=FLASH_ATTN keeps its form", covers: "#flags", session: STANDARD },
  {
    args: [
      "--model",
      "m",
      "--attention-backend=CUSTOM",
      "--kv-transfer-config",
      KV,
      "--no-enable-chunked-prefill",
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "user-kv-transfer-config",
  withArgs(["--model", "m", "--kv-transfer-config", '{"kv_connector":"Other"}']),
  {
    description: "user kv flag untouched; kv-transfer-config-present next to injected",
    covers: "#stamping; #upstream-tests (user --kv-transfer-config)",
    session: STANDARD,
  },
  {
    userKv: true,
    args: [
      "--model",
      "m",
      "--kv-transfer-config",
      '{"kv_connector":"Other"}',
      "--attention-backend",
      "CUSTOM",
      "--no-enable-chunked-prefill",
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "block-size-before-flag",
  withArgs(["--block-size", "--model", "m"]),
  { description: "the token after --block-size is overwritten, even a flag", covers: "#flags", session: STANDARD },
  {
    args: [
      "--block-size",
      "64",
      "m",
      "--attention-backend",
      "CUSTOM",
      "--kv-transfer-config",
      KV,
      "--no-enable-chunked-prefill",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "block-size-last",
  withArgs(["--attention-backend", "CUSTOM", "--no-enable-chunked-prefill", "--kv-transfer-config={}", "--block-size"]),
  {
    description: "a bare --block-size at the end gets 64 right after it",
    covers: "#flags",
    session: STANDARD,
  },
  {
    userKv: true,
    args: [
      "--attention-backend",
      "CUSTOM",
      "--no-enable-chunked-prefill",
      "--kv-transfer-config={}",
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "block-size-first-occurrence",
  withArgs(["--model", "m", "--block-size=32", "--block-size", "16"]),
  { description: "only the first --block-size is rewritten, in its = form", covers: "#flags", session: STANDARD },
  {
    args: [
      "--model",
      "m",
      "--block-size=64",
      "--block-size",
      "16",
      "--attention-backend",
      "CUSTOM",
      "--kv-transfer-config",
      KV,
      "--no-enable-chunked-prefill",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "bare-flag-equals-form",
  withArgs(["--model", "m", "--no-enable-chunked-prefill=true"]),
  { description: "--no-enable-chunked-prefill=true counts: not added again", covers: "#flags", session: STANDARD },
  {
    args: [
      "--model",
      "m",
      "--no-enable-chunked-prefill=true",
      "--attention-backend",
      "CUSTOM",
      "--kv-transfer-config",
      KV,
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ],
  },
);
injectCase(
  "cudagraph-piecewise",
  withArgs(["--model", "m", "--enforce-eager"]),
  {
    description: "cudagraph piecewise: no eager flag added, the user's kept",
    covers: "#flags",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: "piecewise" }), cmFound()],
  },
  { args: wiredArgs(KV, ["--model", "m", "--enforce-eager"]).slice(0, -1) },
);
injectCase(
  "cudagraph-piecewise-no-user-flag",
  basicPod(),
  {
    description: "cudagraph piecewise: nothing for cudagraph",
    covers: "#flags",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: "piecewise" }), cmFound()],
  },
  { args: wiredArgs().slice(0, -1) },
);
injectCase(
  "cudagraph-full-decode-only",
  basicPod(),
  {
    description: "cudagraph full_decode_only: --compilation-config instead of --enforce-eager",
    covers: "#flags; #upstream-tests (cudagraph full_decode_only)",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: "full_decode_only" }), cmFound()],
  },
  { args: [...wiredArgs().slice(0, -1), "--compilation-config", '{"cudagraph_mode":"FULL_DECODE_ONLY"}'] },
);
injectCase(
  "cudagraph-full-decode-only-equals-form",
  withArgs(["--model", "m", '--compilation-config={"x":1}']),
  {
    description: "full_decode_only rewrites a user --compilation-config= in place",
    covers: "#flags",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: "full_decode_only" }), cmFound()],
  },
  {
    args: [
      "--model",
      "m",
      '--compilation-config={"cudagraph_mode":"FULL_DECODE_ONLY"}',
      ...wiredArgs(KV, []).slice(0, -1),
    ],
  },
);
injectCase(
  "cudagraph-unknown",
  basicPod(),
  {
    description: "an unrecognized cudagraph value means eager",
    covers: "#flags",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: "full" }), cmFound()],
  },
  { args: wiredArgs() },
);
injectCase(
  "cudagraph-not-string",
  basicPod(),
  {
    description: "cudagraph of another JSON type is treated as absent: eager",
    covers: "#step-16; #flags",
    session: [engineFound({ ...ENGINE_INJECTION, cudagraph: 3 }), cmFound()],
  },
  { args: wiredArgs() },
);

// ---- today's operator: IPC modes and flag set (docs/policies/cacheblend-injector.md#which-lmcache-operator)
{
  const cur = (extra: J) => [engineWith(extra), cmFound()];
  const covers = "#which-lmcache-operator; #ipc-modes";
  injectCase(
    "current-host-shm",
    basicPod(),
    {
      description: "current engine hostIPC false: host shm, today's flag set",
      covers: covers + "; #flags",
      session: cur({ hostIPC: false, gpuVendor: "nvidia" }),
    },
    { ipc: "host", args: currentArgs() },
  );
  injectCase(
    "current-hostipc-true",
    basicPod(),
    { description: "current engine hostIPC true: hostIPC, today's flag set", covers, session: cur({ hostIPC: true }) },
    { ipc: "hostIPC", args: currentArgs() },
  );
  injectCase(
    "current-isolated-ignored",
    basicPod(),
    {
      description: "isolatedIPC true on a CacheBlendEngine: no isolated mode, host shm",
      covers,
      session: cur({ isolatedIPC: true }),
    },
    { ipc: "host", args: currentArgs() },
  );
  injectCase(
    "current-user-backend-block-size",
    withArgs(["--model", "m", "--attention-backend", "FLASH_ATTN", "--block-size", "128"]),
    {
      description: "current engine: the user's --attention-backend and --block-size stay, once each",
      covers: "#flags",
      session: cur({ hostIPC: false }),
    },
    {
      ipc: "host",
      args: currentArgs(KV, ["--model", "m", "--attention-backend", "FLASH_ATTN", "--block-size", "128"]),
    },
  );
  injectCase(
    "current-pod-already-hostipc",
    podWith((p) => {
      p.spec.hostIPC = true;
    }),
    {
      description: "current engine, pod already hostIPC: nothing IPC-related added",
      covers,
      session: cur({ hostIPC: false }),
    },
    { ipc: "none", args: currentArgs() },
  );
  injectCase(
    "current-volume-name-taken",
    podWith((p) => {
      p.spec.volumes = [{ name: "lmcache-dev-shm", emptyDir: {} }];
    }),
    {
      description: "current engine, pod has a volume named lmcache-dev-shm: nothing IPC-related added",
      covers,
      session: cur({ hostIPC: false }),
    },
    { ipc: "none", args: currentArgs() },
  );
  injectCase(
    "current-own-dshm-warning",
    podWith((p) => {
      p.spec.volumes = [{ name: "dshm", emptyDir: { medium: "Memory" } }];
      p.spec.containers[0].volumeMounts = [{ name: "dshm", mountPath: "/dev/shm" }];
    }),
    {
      description: "host shm, target mounts its own dshm emptyDir: nothing added, the /dev/shm warning",
      covers,
      session: cur({ hostIPC: false }),
    },
    {
      ipc: "none",
      args: currentArgs(),
      warnings: [`${POLICY}: container "vllm" mounts its own /dev/shm, hiding the host's; CUDA IPC may fail`],
    },
  );
  injectCase(
    "ipc-mode-hostshm-current",
    basicPod(),
    {
      description: "ipcMode hostShm with a current engine hostIPC true: host shm",
      covers,
      settings: { ipcMode: "hostShm" },
      session: cur({ hostIPC: true }),
    },
    { ipc: "host", args: currentArgs() },
  );
  injectCase(
    "ipc-mode-hostipc-current",
    basicPod(),
    {
      description: "ipcMode hostIPC with a current engine: hostIPC",
      covers,
      settings: { ipcMode: "hostIPC" },
      session: cur({ hostIPC: false }),
    },
    { ipc: "hostIPC", args: currentArgs() },
  );
  injectCase(
    "ipc-mode-hostshm-legacy",
    basicPod(),
    {
      description: "ipcMode hostShm with a legacy engine: host shm, the first operator's flags",
      covers,
      settings: { ipcMode: "hostShm" },
      session: STANDARD,
    },
    { ipc: "host", args: wiredArgs() },
  );
  injectCase(
    "cacheblend-args-current-legacy-engine",
    basicPod(),
    {
      description: "cacheblendArgs current with a legacy engine: today's flags, hostIPC",
      covers: "#flags",
      settings: { cacheblendArgs: "current" },
      session: STANDARD,
    },
    { args: currentArgs() },
  );
  injectCase(
    "cacheblend-args-legacy-current-engine",
    basicPod(),
    {
      description: "cacheblendArgs legacy with a current engine: the first operator's flags, host shm",
      covers: "#flags",
      settings: { cacheblendArgs: "legacy" },
      session: cur({ hostIPC: false }),
    },
    { ipc: "host", args: wiredArgs() },
  );
  // E1 engines as the API server returns them: the first operator's CRDs (and its SetDefaults)
  // default gpuVendor, so gpuVendor alone is no sign of today's operator (regression: issue 30)
  const E1_SPEC = { gpuVendor: "nvidia", logLevel: "INFO", nodeSelector: { "nvidia.com/gpu.present": "true" } };
  injectCase(
    "e1-engine-legacy",
    basicPod(),
    {
      description: "E1 engine {gpuVendor: nvidia, logLevel: INFO, nodeSelector}: legacy, hostIPC and the E1 flags",
      covers,
      session: cur(E1_SPEC),
    },
    { args: wiredArgs() },
  );
  injectCase(
    "e1-engine-l1-legacy",
    basicPod(),
    {
      description: "E1 engine {gpuVendor: nvidia, l1: {sizeGB: 10}}: legacy, hostIPC and the E1 flags",
      covers,
      session: cur({ gpuVendor: "nvidia", l1: { sizeGB: 10 } }),
    },
    { args: wiredArgs() },
  );
  injectCase(
    "e1-engine-hostipc-false-current",
    basicPod(),
    {
      description: "the same E1 engine with hostIPC false added: today's operator, host shm and today's flags",
      covers: covers + "; #flags",
      session: cur({ ...E1_SPEC, hostIPC: false }),
    },
    { ipc: "host", args: currentArgs() },
  );
  injectCase(
    "inline-gpu-vendor-only-legacy",
    basicPod(),
    {
      description: "inline engine with gpuVendor nvidia alone: legacy, hostIPC and the E1 flags",
      covers: covers + "; #settings",
      settings: { lookup: false, engines: { cb: { ...inlineEngine, gpuVendor: "nvidia" } } },
      session: [],
    },
    { args: wiredArgs(JSON.stringify(INLINE_KV)) },
  );
  injectCase(
    "cacheblend-args-auto",
    basicPod(),
    {
      description: "cacheblendArgs auto: the engine decides (legacy: the first operator's flags)",
      covers: "#flags",
      settings: { cacheblendArgs: "auto" },
      session: STANDARD,
    },
    { args: wiredArgs() },
  );
}

// ---- PD roles (docs/policies/cacheblend-injector.md#pd-roles)
{
  const ROLE = "lmcache.ai/pd-role";
  const DKV = operatorKv("cb-decoder", NS);
  const PKV = operatorKv("cb-prefiller", NS);
  const pdCm = () =>
    cmFound({
      "kv-transfer-config.json": KV,
      "kv-transfer-config-prefiller.json": PKV,
      "kv-transfer-config-decoder.json": DKV,
    });
  const covers = "#pd-roles";
  injectCase(
    "pd-prefiller",
    withAnn({ [ROLE]: "prefiller" }),
    {
      description: "engine with pd, role prefiller: full wiring with the prefiller key, host shm, NIXL env",
      covers,
      session: [engineWith({ pd: {} }), pdCm()],
    },
    { ipc: "host", args: currentArgs(PKV), nixl: "5558" },
  );
  {
    // row 20: a decoder of an engine stored without payloadImage
    const name = "pd-decoder-no-payload";
    const pod = withAnn({ [ROLE]: "decoder" });
    const engine: Exchange = {
      ...engineFound(null),
      text: JSON.stringify(engineCr(null, "cb", NS, { hostIPC: false, pd: { nixlSideChannelPort: 5600 } })),
    };
    const req = putJson(`request_${name}.json`, request(pod));
    const exp = putJson(`expected_${name}.json`, wireDecoder(pod, DKV, "5600"));
    addCase(
      name,
      {
        description: "role decoder, engine without payloadImage: kv, NIXL env and stamps only",
        covers,
        session: [engine, pdCm()],
      },
      req,
      {
        allowed: true,
        mutated: true,
        object: exp,
        warnings: [],
        auditAnnotations: {},
        annotations: { [K.injected]: "true", [K.skip]: null },
      },
    );
  }
  {
    // a decoder gets no IPC wiring whatever ipcMode says; its own --kv-transfer-config is kept and stamped
    const name = "pd-decoder-ipc-mode-user-kv";
    const pod = withAnn({ [ROLE]: "decoder" });
    pod.spec.containers[0].args = ["--model", "m", "--kv-transfer-config", "{}"];
    const out = clone(pod);
    addNixl(out.spec.containers[0], "5558");
    out.metadata.annotations[K.injected] = "true";
    out.metadata.annotations[K.skip] = "kv-transfer-config-present";
    const req = putJson(`request_${name}.json`, request(pod));
    const exp = putJson(`expected_${name}.json`, out);
    addCase(
      name,
      {
        description: "decoder with ipcMode hostIPC and its own --kv-transfer-config: NIXL env and stamps only",
        covers,
        settings: { ipcMode: "hostIPC" },
        session: [engineWith({ pd: {} }), pdCm()],
      },
      req,
      {
        allowed: true,
        mutated: true,
        object: exp,
        warnings: [kvPresentWarning("vllm")],
        auditAnnotations: {},
        annotations: { [K.injected]: "true", [K.skip]: "kv-transfer-config-present" },
      },
    );
  }
  skipCase(
    "pd-unknown-role",
    withAnn({ [ROLE]: "prefill" }),
    { description: "role prefill: skip unknown-pd-role", covers, session: [engineWith({ pd: {} }), pdCm()] },
    "unknown-pd-role",
    'pd-role "prefill" is not "prefiller" or "decoder"',
  );
  injectCase(
    "pd-role-ignored",
    withAnn({ [ROLE]: "decoder" }),
    {
      description: "legacy engine, role decoder: the full wiring, the ignored-role warning",
      covers,
      session: STANDARD,
    },
    {
      args: wiredArgs(),
      warnings: ['cacheblend-injector: lmcache.ai/pd-role "decoder" ignored: engine vllm-ns/cb has no spec.pd'],
    },
  );
  // an unknown role is read only with spec.pd: without it the pod is wired with the plain key and
  // the ignored-role warning, never skipped unknown-pd-role (regression: issue 30)
  const prefillIgnored = [
    'cacheblend-injector: lmcache.ai/pd-role "prefill" ignored: engine vllm-ns/cb has no spec.pd',
  ];
  injectCase(
    "pd-unknown-role-legacy-engine",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, legacy engine without pd: the full E1 wiring and the warning",
      covers,
      session: STANDARD,
    },
    { args: wiredArgs(), warnings: prefillIgnored },
  );
  injectCase(
    "pd-unknown-role-current-engine-without-pd",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, current engine without pd: host shm, today's flags and the warning",
      covers,
      session: [engineWith({ hostIPC: false }), cmFound()],
    },
    { ipc: "host", args: currentArgs(), warnings: prefillIgnored },
  );
  injectCase(
    "pd-unknown-role-inline-without-pd",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, no engine CR (inline engine without pd): the plain key and the warning",
      covers: covers + "; #settings",
      settings: { lookup: false, engines: { cb: inlineEngine } },
      session: [],
    },
    { args: wiredArgs(JSON.stringify(INLINE_KV)), warnings: prefillIgnored },
  );
}

// ---- the realistic pod (benchmark input): the lmcache-injector fixture opted in to CacheBlend instead
{
  const name = "realistic-full-injection";
  const raw = REALISTIC_POD_TEXT.replace(
    '"lmcache.ai/lmcache-engine": "cb"',
    '"lmcache.ai/cacheblend-engine": "cb"',
  ).replace('"lmcache.ai/lmcache-inject": "true"', '"lmcache.ai/cacheblend-inject": "true"');
  if (raw === REALISTIC_POD_TEXT) throw new Error("the realistic pod's keys were not replaced");
  const pod = JSON.parse(raw);
  const reqText = `{"uid":"9b2f6c1e-7d4a-4e0b-8c3f-2a1d5e6f7a81","kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"name":"vllm-qwen-7b","namespace":"vllm-ns","operation":"CREATE","userInfo":{"username":"alice@example.com","groups":["system:authenticated"]},"object":${raw},"dryRun":false}\n`;
  const req = put(`request_${name}.json`, reqText);
  const exp = putJson(
    `expected_${name}.json`,
    wire(pod, {
      args: wiredArgs(KV, [
        "--model",
        "Qwen/Qwen2.5-7B-Instruct",
        "--port",
        "8000",
        "--gpu-memory-utilization",
        "0.90",
        "--max-model-len",
        "32768",
      ]),
      secrets: ["cb-payload-pull"],
    }),
  );
  addCase(
    name,
    {
      description: "realistic 7 KB vLLM pod (benchmark input): full wiring with staging and a pull secret",
      covers: "#wiring; #flags; #staging; benchmark input",
      session: [engineFound({ ...ENGINE_INJECTION, imagePullSecrets: [{ name: "cb-payload-pull" }] }), cmFound()],
    },
    req,
    {
      allowed: true,
      mutated: true,
      object: exp,
      warnings: [],
      auditAnnotations: {},
      annotations: { [K.injected]: "true", [K.skip]: null },
    },
  );
}

// ---- step 16
skipCase(
  "args-element-number",
  withArgs(["--model", "m", "--port", 8000 as unknown as string]),
  { description: "an args element is a number", covers: "#step-16", session: STANDARD },
  "invalid-request",
  "request could not be read: spec.containers[0].args[3] is not a string",
);

// ---- settings (acceptance 55–57)
settingsCase("settings-default", "no settings", "#settings", {});
settingsCase("settings-engines-valid", "a qualified and a bare inline engine", "#settings", {
  lookup: false,
  engines: {
    "vllm-ns/cb": inlineEngine,
    cb: { ...inlineEngine, injection: { ...ENGINE_INJECTION, cudagraph: "piecewise" } },
  },
});
settingsCase(
  "settings-payload-image-missing",
  "inline engine without injection.payloadImage",
  "#settings",
  { engines: { cb: { kvTransferConfig: INLINE_KV, injection: { targetContainer: "vllm" } } } },
  "engines[cb].injection.payloadImage: required for CacheBlend injection",
);
settingsCase(
  "settings-cudagraph-invalid",
  "cudagraph outside the enum",
  "#settings",
  { engines: { cb: { kvTransferConfig: INLINE_KV, injection: { ...ENGINE_INJECTION, cudagraph: "full" } } } },
  'engines[cb].injection.cudagraph: must be one of "eager", "piecewise", "full_decode_only"',
);
settingsCase(
  "settings-lookup-false-no-engines",
  "lookup false and no engines",
  "#settings",
  { lookup: false },
  "lookup: lookups are disabled and settings.engines is empty, so the policy can never inject",
);
settingsCase("settings-unknown-key", "a misspelled key", "#settings", { lookups: true }, "lookups: unknown field");

settingsCase(
  "settings-ipc-mode-isolated",
  "ipcMode isolated: CacheBlend has no isolated mode",
  "#settings",
  { ipcMode: "isolated" },
  'ipcMode: must be one of "auto", "hostIPC", "hostShm"',
);
settingsCase("settings-ipc-mode-hostshm", "ipcMode hostShm is accepted", "#settings", {
  ipcMode: "hostShm",
  cacheblendArgs: "legacy",
});
settingsCase(
  "settings-cacheblend-args-invalid",
  "cacheblendArgs outside the values",
  "#settings",
  { cacheblendArgs: "new" },
  'cacheblendArgs: must be one of "auto", "current", "legacy"',
);
settingsCase(
  "settings-inline-current-fields",
  "inline engine: isolatedIPC is not a CacheBlend field, hostIPC must be a boolean",
  "#settings",
  {
    engines: {
      cb: { ...inlineEngine, isolatedIPC: true, hostIPC: 1, gpuVendor: "amd", pd: { nixlSideChannelPort: 5558 } },
    },
  },
  "engines[cb].isolatedIPC: unknown field; engines[cb].hostIPC: must be a boolean",
);
// ---------------------------------------------------------------- output
const yamlScalar = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : String(v));
function casesYaml(): string {
  const lines: string[] = [
    "# cacheblend-injector e2e cases (docs/test-data.md). Generated by test/make-test-data.ts; `covers` names",
    "# the anchors of docs/policies/cacheblend-injector.md each case shows.",
  ];
  for (const c of cases) {
    lines.push(`- name: ${c.name}`);
    lines.push(`  description: ${yamlScalar(c.description)}`);
    lines.push(`  covers: ${yamlScalar(c.covers)}`);
    if (c.operation) lines.push(`  operation: ${c.operation}`);
    if (c.request) lines.push(`  request: ${c.request}`);
    if (c.settings) lines.push(`  settings: ${c.settings}`);
    if (c.session) lines.push(`  session: ${c.session}`);
    if (c.contextAware !== undefined) lines.push(`  contextAware: ${c.contextAware}`);
    lines.push("  expect:");
    for (const [k, v] of Object.entries(c.expect)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) lines.push(`    ${k}: [${v.map(yamlScalar).join(", ")}]`);
      else if (typeof v === "object" && v !== null) {
        const entries = Object.entries(v as Record<string, unknown>).map(
          ([a, b]) => `${JSON.stringify(a)}: ${b === null ? "null" : yamlScalar(b)}`,
        );
        lines.push(`    ${k}: {${entries.join(", ")}}`);
      } else lines.push(`    ${k}: ${yamlScalar(v)}`);
    }
  }
  return lines.join("\n") + "\n";
}

writeTestData(
  OUT,
  cases.map((c) => c.name),
  files,
  casesYaml(),
);
