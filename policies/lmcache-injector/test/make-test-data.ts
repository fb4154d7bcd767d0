// Writes policies/lmcache-injector/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/lmcache-injector/test/make-test-data.ts
//
// Every case states its decision by hand (which container is wired, which image and secrets are
// staged, which reason and detail a skip carries). Only the mechanical JSON edits of a decided
// wiring are done by the small `wire()` helper below, written from docs/policies/lmcache-injector.md#wiring, never
// from the policy's output.
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";
import { UNREADABLE_CONTAINER_BEFORE_TARGET } from "../../../tests/helpers/target-container-cases";
import { REALISTIC_POD_TEXT } from "./realistic-pod";

const OUT = testDataDir(__dirname);
const POLICY = "lmcache-injector";
const NS = "vllm-ns";

// ---------------------------------------------------------------- keys and fixed texts
const K = {
  engine: "lmcache.ai/lmcache-engine",
  container: "lmcache.ai/lmcache-container",
  secrets: "lmcache.ai/lmcache-image-pull-secrets",
  injected: "lmcache.ai/lmcache-injected",
  skip: "lmcache.ai/lmcache-skip-reason",
  label: "lmcache.ai/lmcache-inject",
};

/** What the operator's controller writes: 2-space indented, keys sorted. */
function operatorKv(engine: string, ns: string): string {
  return JSON.stringify(
    {
      kv_connector: "LMCacheMPConnector",
      kv_connector_extra_config: {
        "lmcache.mp.host": `tcp://${engine}.${ns}.svc.cluster.local`,
        "lmcache.mp.port": "5555",
      },
      kv_connector_module_path: "lmcache.integration.vllm.lmcache_mp_connector",
      kv_role: "kv_both",
    },
    null,
    2,
  );
}
const KV = operatorKv("cb", NS);

const skipWarning = (reason: string, detail: string) => `${POLICY}: injection skipped (${reason}): ${detail}`;
const kvPresentWarning = (c: string) =>
  `${POLICY}: kv-transfer-config-present: container "${c}" already sets --kv-transfer-config; the engine connection config was not injected`;

// ---------------------------------------------------------------- objects
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

function sidecarPod(annotations: Record<string, string>): J {
  const pod = basicPod(annotations);
  pod.spec.containers = [
    { name: "sidecar", image: "busybox:1.36", args: ["sleep"] },
    { name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "Qwen/Qwen2.5-0.5B"] },
  ];
  return pod;
}

function request(object: J | undefined, extra: Record<string, unknown> = {}): J {
  const r: J = {
    uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    requestKind: { group: "", version: "v1", kind: "Pod" },
    requestResource: { group: "", version: "v1", resource: "pods" },
    name: "vllm-pod",
    namespace: NS,
    operation: "CREATE",
    userInfo: {
      username: "system:serviceaccount:kube-system:replicaset-controller",
      uid: "c2ba1b38-2f1a-4b0e-9d55-0f4a9d1c3a11",
      groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
    },
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
  };
  if (object !== undefined) r.object = object;
  return { ...r, ...extra };
}

interface Staging {
  ref: string;
  pullPolicy?: string;
  secrets?: string[];
}
interface Wiring {
  container?: number; // index of the target in spec.containers (default 0)
  kv?: string | null; // appended kv text; null = user has one (kv-transfer-config-present)
  staging?: Staging;
  /** IPC wiring (docs/policies/lmcache-injector.md#ipc-modes): default hostIPC; "none" = guard held */
  ipc?: "hostIPC" | "private" | "host" | "none";
  /** success warnings after the kv-transfer-config-present one */
  warnings?: string[];
  /** NIXL side-channel port text: the engine has spec.pd (docs/policies/lmcache-injector.md#pd-roles) */
  nixl?: string;
}

/** The edits of a decided wiring (the test oracle). */
function wire(pod: J, w: Wiring = {}): J {
  const out = clone(pod);
  const spec = out.spec;
  const c = spec.containers[w.container ?? 0];
  const ipc = w.ipc ?? "hostIPC";
  if (ipc === "hostIPC") spec.hostIPC = true;
  else if (ipc !== "none") {
    const source =
      ipc === "private" ? { emptyDir: { medium: "Memory" } } : { hostPath: { path: "/dev/shm", type: "Directory" } };
    spec.volumes = [...(spec.volumes ?? []), { name: "lmcache-dev-shm", ...source }];
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: "lmcache-dev-shm", mountPath: "/dev/shm" }];
  }
  const kv = w.kv === undefined ? KV : w.kv;
  if (kv !== null) c.args = [...(c.args ?? []), "--kv-transfer-config", kv];
  c.env = c.env ?? [];
  if (!c.env.some((e: J) => e.name === "PYTHONHASHSEED")) c.env.push({ name: "PYTHONHASHSEED", value: "0" });
  if (w.staging) {
    const s = w.staging;
    spec.volumes = spec.volumes ?? [];
    if (!spec.volumes.some((v: J) => v.name === "lmcache-payload"))
      spec.volumes.push({ name: "lmcache-payload", emptyDir: {} });
    spec.initContainers = spec.initContainers ?? [];
    if (!spec.initContainers.some((v: J) => v.name === "lmcache-payload-stage")) {
      spec.initContainers.push({
        name: "lmcache-payload-stage",
        image: s.ref,
        env: [{ name: "SHARED_DIR", value: "/lmcache-payload" }],
        volumeMounts: [{ name: "lmcache-payload", mountPath: "/lmcache-payload" }],
        imagePullPolicy: s.pullPolicy ?? "IfNotPresent",
      });
    }
    c.volumeMounts = c.volumeMounts ?? [];
    if (!c.volumeMounts.some((v: J) => v.name === "lmcache-payload")) {
      c.volumeMounts.push({ name: "lmcache-payload", mountPath: "/lmcache-payload", readOnly: true });
    }
    let found = false;
    for (const e of c.env) {
      if (e.name !== "PYTHONPATH") continue;
      found = true;
      if (e.valueFrom !== undefined) {
        delete e.valueFrom;
        e.value = "/lmcache-payload";
      } else if (!e.value) e.value = "/lmcache-payload";
      else e.value = `/lmcache-payload:${e.value}`;
    }
    if (!found) c.env.push({ name: "PYTHONPATH", value: "/lmcache-payload" });
    const injected = s.secrets ?? [];
    const seen = new Set<string>((spec.imagePullSecrets ?? []).map((x: J) => x.name));
    const add = [];
    for (const n of injected)
      if (!seen.has(n)) {
        seen.add(n);
        add.push({ name: n });
      }
    if (add.length > 0) spec.imagePullSecrets = [...(spec.imagePullSecrets ?? []), ...add];
  }
  if (w.nixl !== undefined) {
    const has = (n: string) => c.env.some((e: J) => e.name === n);
    if (!has("VLLM_NIXL_SIDE_CHANNEL_HOST"))
      c.env.push({ name: "VLLM_NIXL_SIDE_CHANNEL_HOST", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } });
    if (!has("VLLM_NIXL_SIDE_CHANNEL_PORT")) c.env.push({ name: "VLLM_NIXL_SIDE_CHANNEL_PORT", value: w.nixl });
  }
  out.metadata.annotations = out.metadata.annotations ?? {};
  out.metadata.annotations[K.injected] = "true";
  if (kv === null) out.metadata.annotations[K.skip] = "kv-transfer-config-present";
  else delete out.metadata.annotations[K.skip];
  return out;
}

function stamped(pod: J, reason: string): J {
  const out = clone(pod);
  out.metadata.annotations = out.metadata.annotations ?? {};
  out.metadata.annotations[K.skip] = reason;
  return out;
}

// ---------------------------------------------------------------- cluster answers
const GR = "!KubernetesGetResource";
interface Exchange {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  ok: boolean;
  text: string;
}
// recorded `Error` messages carry no prefix: kwctl records the handler's error, and adds
// `Callback evaluation failure: ` when it replays it (tools/host/README.md)
const notFound = (apiVersion: string, kind: string, name: string, ns = NS) =>
  `Cannot find ${apiVersion}/${kind} named '${name}' inside of namespace 'Some("${ns}")'`;
const SERVER_ERROR = `ApiError: Internal error occurred: etcdserver: request timed out: InternalError (ErrorResponse { status: "Failure", message: "Internal error occurred: etcdserver: request timed out", reason: "InternalError", code: 500 })`;

function engineCr(injection?: J, name = "cb", extra: J = {}): J {
  const spec: J = { server: { port: 5555 }, l1: { sizeGB: 20 }, ...extra };
  if (injection !== undefined) spec.injection = injection;
  return {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "LMCacheEngine",
    metadata: {
      name,
      namespace: NS,
      uid: "3f7a2c1e-0b4d-4d8e-9a51-6c2e8f1d0a77",
      resourceVersion: "48213",
      generation: 1,
    },
    spec,
    status: { phase: "Ready" },
  };
}
function connectionCm(data: J | undefined, name = "cb"): J {
  const cm: J = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `${name}-connection`,
      namespace: NS,
      labels: { "app.kubernetes.io/managed-by": "lmcache-operator", "app.kubernetes.io/instance": name },
    },
  };
  if (data !== undefined) cm.data = data;
  return cm;
}

const engineFound = (injection?: J, name = "cb"): Exchange => ({
  apiVersion: "lmcache.lmcache.ai/v1alpha1",
  kind: "LMCacheEngine",
  name,
  namespace: NS,
  ok: true,
  text: JSON.stringify(engineCr(injection, name)),
});
/** An engine with generation fields `extra`: `hostIPC`, `isolatedIPC` or `pd` make it current,
 *  `gpuVendor` alone does not (docs/policies/lmcache-injector.md#which-lmcache-operator). */
const engineWith = (extra: J, injection?: J): Exchange => ({
  ...engineFound(injection),
  text: JSON.stringify(engineCr(injection, "cb", extra)),
});
const engineRaw = (text: string, ok = true): Exchange => ({
  apiVersion: "lmcache.lmcache.ai/v1alpha1",
  kind: "LMCacheEngine",
  name: "cb",
  namespace: NS,
  ok,
  text,
});
const engineMissing = (name = "cb"): Exchange => ({
  apiVersion: "lmcache.lmcache.ai/v1alpha1",
  kind: "LMCacheEngine",
  name,
  namespace: NS,
  ok: false,
  text: notFound("lmcache.lmcache.ai/v1alpha1", "LMCacheEngine", name),
});
const cmFound = (data: J = { "kv-transfer-config.json": KV }, name = "cb"): Exchange => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: `${name}-connection`,
  namespace: NS,
  ok: true,
  text: JSON.stringify(connectionCm(data, name)),
});
const cmRaw = (ok: boolean, text: string): Exchange => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: "cb-connection",
  namespace: NS,
  ok,
  text,
});
const cmMissing = (): Exchange => cmRaw(false, notFound("v1", "ConfigMap", "cb-connection"));

function yamlSingleQuoted(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sessionYaml(exchanges: Exchange[]): string {
  if (exchanges.length === 0) return "[]\n";
  return (
    exchanges
      .map((e) =>
        [
          "- type: Exchange",
          "  request: |",
          `    ${GR}`,
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
  cluster?: string;
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
  settings?: string;
  contextAware?: boolean;
  session?: Exchange[] | string;
  cluster?: string;
  reqExtra?: Record<string, unknown>;
}

function sessionFile(name: string, s: Exchange[] | string | undefined): string | undefined {
  if (s === undefined) return undefined;
  if (typeof s === "string") return s;
  if (s.length === 0) return NO_LOOKUPS;
  return put(`session_${name}.yml`, sessionYaml(s));
}

function addCase(name: string, c: Common, reqFile: string, expect: Expect): void {
  cases.push({
    name,
    description: c.description,
    covers: c.covers,
    request: reqFile,
    settings: c.settings ?? SETTINGS_DEFAULT,
    session: sessionFile(name, c.session),
    cluster: c.cluster,
    contextAware: c.contextAware,
    expect,
  });
}

/** A wired pod: the whole expected object. */
function injectCase(name: string, pod: J, c: Common, w: Wiring = {}): void {
  const req = putJson(`request_${name}.json`, request(pod, c.reqExtra));
  const exp = putJson(`expected_${name}.json`, wire(pod, w));
  const userKv = w.kv === null;
  addCase(name, c, req, {
    allowed: true,
    mutated: true,
    object: exp,
    warnings: [
      ...(userKv ? [kvPresentWarning(pod.spec.containers[w.container ?? 0].name)] : []),
      ...(w.warnings ?? []),
    ],
    auditAnnotations: {},
    annotations: { [K.injected]: "true", [K.skip]: userKv ? "kv-transfer-config-present" : null },
  });
}

/** A skip: only the skip-reason annotation (whole expected object too, to prove "nothing else"). */
function skipCase(name: string, pod: J, c: Common, reason: string, detail: string): void {
  const req = putJson(`request_${name}.json`, request(pod, c.reqExtra));
  const already = pod?.metadata?.annotations?.[K.skip] === reason;
  const exp = putJson(`expected_${name}.json`, stamped(pod, reason));
  addCase(name, c, req, {
    allowed: true,
    mutated: !already,
    object: exp,
    warnings: [skipWarning(reason, detail)],
    auditAnnotations: { "skip-reason": reason },
    annotations: { [K.skip]: reason, [K.injected]: null },
  });
}

/** A skip whose annotation cannot be written (not stampable): warning and audit annotation only. */
function unstampableCase(name: string, requestValue: J, c: Common, detail: string): void {
  const req = putJson(`request_${name}.json`, requestValue);
  addCase(name, c, req, {
    allowed: true,
    mutated: false,
    warnings: [skipWarning("invalid-request", `request could not be read: ${detail}`)],
    auditAnnotations: { "skip-reason": "invalid-request" },
  });
}

/** No mutation, no warning. */
function passCase(name: string, requestValue: J, c: Common): void {
  const req = putJson(`request_${name}.json`, requestValue);
  addCase(name, c, req, { allowed: true, mutated: false, warnings: [], auditAnnotations: {} });
}

function settingsCase(
  name: string,
  description: string,
  covers: string,
  settings: J,
  valid: boolean,
  message?: string,
): void {
  const file = putJson(`settings_${name}.json`, settings);
  cases.push({
    name,
    description,
    covers,
    operation: "validate_settings",
    settings: file,
    expect: valid ? { valid: true } : { valid: false, message },
  });
}

const withAnn = (extra: Record<string, string>) => basicPod({ [K.engine]: "cb", ...extra });
function podWith(mut: (p: J) => void, annotations?: Record<string, string>): J {
  const p = basicPod(annotations);
  mut(p);
  return p;
}
const STAGING_INJECTION = {
  payloadImage: {
    repository: "registry.example.com/lmcache/lmcache-payload",
    tag: "pinned",
    pullPolicy: "IfNotPresent",
  },
  imagePullSecrets: [{ name: "lmcache-payload-pull" }],
};
const STAGING_REF = "registry.example.com/lmcache/lmcache-payload:pinned";
const stagingSession = (injection: J = STAGING_INJECTION) => [engineFound(injection), cmFound()];

// ---- steps 1–6: gate
unstampableCase(
  "annotations-not-object",
  request(
    podWith((p) => {
      p.metadata.annotations = "lmcache.ai/lmcache-engine=cb";
    }),
  ),
  {
    description: "metadata.annotations is a string: not stampable, warning only",
    covers: "#step-3; #not-stampable",
    session: [],
  },
  "metadata.annotations is not an object",
);
unstampableCase(
  "annotation-value-not-string",
  request(
    podWith((p) => {
      p.metadata.annotations = { [K.engine]: "cb", "example.com/replicas": 3 };
    }),
  ),
  {
    description: "an annotation value is a number: not stampable, warning only",
    covers: "#step-3; #not-stampable",
    session: [],
  },
  "metadata.annotations[example.com/replicas] is not a string",
);
unstampableCase(
  "metadata-not-object",
  request({ apiVersion: "v1", kind: "Pod", metadata: ["vllm-pod"], spec: { containers: [] } }),
  { description: "metadata is an array: not stampable, warning only", covers: "#step-3; #not-stampable", session: [] },
  "metadata is not an object",
);
unstampableCase(
  "object-not-object",
  request("vllm-pod"),
  {
    description: "request.object is a string: not stampable, warning only",
    covers: "#step-3; #not-stampable",
    session: [],
  },
  "object is not a JSON object",
);
passCase("update-operation", request(basicPod(), { operation: "UPDATE", oldObject: basicPod() }), {
  description: "UPDATE of an opted-in pod is passed untouched",
  covers: "#step-2; #x1",
  session: [],
});
passCase(
  "delete-operation",
  (() => {
    const r = request(undefined, { operation: "DELETE", oldObject: basicPod() });
    return r;
  })(),
  { description: "DELETE (no object) is passed", covers: "#step-2; #x1", session: [] },
);
passCase("already-injected", request(withAnn({ [K.injected]: "true", [K.skip]: "engine-not-found" })), {
  description: 'injected guard "true" with a stale skip reason: passed unchanged',
  covers: "#step-4; #upstream-tests (already injected)",
  session: [],
});
passCase("not-opted-in", request(basicPod({})), {
  description: "no engine annotation: passed, no warning",
  covers: "#step-5; #upstream-tests (no engine annotation)",
  session: [],
});
passCase(
  "not-opted-in-no-annotations",
  request(
    podWith((p) => {
      delete p.metadata.annotations;
    }),
  ),
  { description: "no metadata.annotations at all: passed", covers: "#step-5", session: [] },
);
passCase("engine-annotation-blank", request(basicPod({ [K.engine]: "   " })), {
  description: "engine annotation is whitespace only: passed",
  covers: "#step-5",
  session: [],
});
injectCase("injected-capitalized", withAnn({ [K.injected]: "True" }), {
  description: 'injected guard "True" is not recognised: full injection',
  covers: "#step-4",
  session: STANDARD,
});
{
  const pod = podWith((p) => {
    delete p.metadata.namespace;
  });
  skipCase(
    "no-namespace",
    pod,
    {
      description: "neither request nor object carries a namespace",
      covers: "#step-6",
      session: [],
      reqExtra: { namespace: undefined },
    },
    "invalid-request",
    "request could not be read: namespace is missing",
  );
}
{
  const pod = podWith((p) => {
    delete p.metadata.namespace;
  });
  injectCase("namespace-from-request-only", pod, {
    description: "object without metadata.namespace: namespace taken from the request",
    covers: "#step-6",
    session: STANDARD,
  });
}
{
  const pod = basicPod();
  injectCase("namespace-from-object-only", pod, {
    description: "request without namespace: namespace taken from object.metadata",
    covers: "#step-6",
    session: STANDARD,
    reqExtra: { namespace: undefined },
  });
}

// ---- steps 7–8: engine reference and source
skipCase(
  "engine-namespaced-ref",
  basicPod({ [K.engine]: "vllm-ns/cb" }),
  {
    description: "LMCache engine annotation with a namespace: invalid, no lookup",
    covers: "#step-7; #d4",
    session: [],
  },
  "invalid-engine-reference",
  '"vllm-ns/cb" is not a valid engine reference',
);
skipCase(
  "engine-uppercase",
  basicPod({ [K.engine]: "CB" }),
  { description: "engine name with upper case: invalid", covers: "#step-7", session: [] },
  "invalid-engine-reference",
  '"CB" is not a valid engine reference',
);
injectCase("engine-annotation-padded", basicPod({ [K.engine]: "  cb\t" }), {
  description: "engine annotation is trimmed before use",
  covers: "#step-5; #keys",
  session: STANDARD,
});
{
  const settings = putJson("settings_engine-cb-inline.json", {
    lookup: false,
    engines: { cb: { kvTransferConfig: { kv_connector: "X" } } },
  });
  injectCase(
    "settings-engine",
    basicPod(),
    {
      description: "AdmissionPolicy with an inline engine and lookup:false: no host call, settings text injected",
      covers: "#step-8; #settings; #d8",
      settings,
      contextAware: false,
      session: [],
    },
    { kv: '{"kv_connector":"X"}' },
  );
  skipCase(
    "settings-engine-not-inline",
    basicPod({ [K.engine]: "other" }),
    {
      description: "lookup:false and the engine is not inline",
      covers: "#step-8",
      settings,
      contextAware: false,
      session: [],
    },
    "engine-not-found",
    "engine other is not in settings.engines and lookups are disabled",
  );
}
{
  const settings = putJson("settings_engine-cb-inline-staging.json", {
    lookup: false,
    engines: {
      cb: {
        kvTransferConfig: {
          kv_connector: "LMCacheMPConnector",
          kv_connector_extra_config: {
            "lmcache.mp.host": "tcp://cb.vllm-ns.svc.cluster.local",
            "lmcache.mp.port": "5555",
          },
          kv_role: "kv_both",
        },
        injection: {
          payloadImage: {
            repository: "registry.example.com/lmcache/lmcache-payload",
            tag: "pinned",
            pullPolicy: "Always",
          },
          imagePullSecrets: [{ name: "lmcache-payload-pull" }],
          targetContainer: "vllm",
        },
      },
    },
  });
  injectCase(
    "settings-engine-staging",
    sidecarPod({ [K.engine]: "cb" }),
    {
      description: "inline engine with injection: staging and target container from settings",
      covers: "#settings; #step-8; #d8",
      settings,
      contextAware: false,
      session: [],
    },
    {
      container: 1,
      kv: '{"kv_connector":"LMCacheMPConnector","kv_connector_extra_config":{"lmcache.mp.host":"tcp://cb.vllm-ns.svc.cluster.local","lmcache.mp.port":"5555"},"kv_role":"kv_both"}',
      staging: { ref: STAGING_REF, pullPolicy: "Always", secrets: ["lmcache-payload-pull"] },
    },
  );
  const both = putJson("settings_engine-cb-inline-lookup-on.json", {
    engines: { cb: { kvTransferConfig: { kv_connector: "X" } } },
  });
  injectCase(
    "settings-engine-before-lookup",
    basicPod(),
    {
      description: "inline engine wins even with lookups on: no host call",
      covers: "#settings; #d8",
      settings: both,
      session: [],
    },
    { kv: '{"kv_connector":"X"}' },
  );
  injectCase("settings-engine-absent-lookup-on", basicPod({ [K.engine]: "cb" }), {
    description: "lookups on and an inline engine for another name: cluster lookup used",
    covers: "#step-8; #step-9; #step-10",
    settings: putJson("settings_engine-other-inline-lookup-on.json", {
      lookup: true,
      engines: { other: { kvTransferConfig: { kv_connector: "X" } } },
    }),
    session: STANDARD,
  });
}

// ---- step 9: engine CR
skipCase(
  "lookup-denied",
  basicPod(),
  {
    description: "AdmissionPolicy (no contextAwareResources) with lookups on: denied",
    covers: "#step-9",
    contextAware: false,
  },
  "lookup-denied",
  "lookup of LMCacheEngine vllm-ns/cb was denied; use settings.engines",
);
injectCase("engine-cr-absent", basicPod(), {
  description: "LMCacheEngine not found, ConfigMap present: connection-only wiring",
  covers: "#step-9; #upstream-tests (engine CR absent)",
  session: [engineMissing(), cmFound()],
});
skipCase(
  "engine-lookup-failed",
  basicPod(),
  {
    description: "LMCacheEngine lookup fails with a server error",
    covers: "#step-9",
    session: [engineRaw(SERVER_ERROR, false)],
  },
  "lookup-failed",
  "lookup of LMCacheEngine vllm-ns/cb failed",
);
skipCase(
  "engine-replay-mismatch",
  basicPod(),
  {
    description: "the session recorded a lookup of another engine: kwctl's replay error is a failed lookup",
    covers: "#step-9",
    session: [engineFound(undefined, "other")],
  },
  "lookup-failed",
  "lookup of LMCacheEngine vllm-ns/cb failed",
);
skipCase(
  "engine-lookup-malformed",
  basicPod(),
  {
    description: "LMCacheEngine lookup answers something that is not JSON",
    covers: "#step-9 (malformed answer)",
    session: [engineRaw("<html>502 Bad Gateway</html>")],
  },
  "lookup-failed",
  "lookup of LMCacheEngine vllm-ns/cb failed",
);
skipCase(
  "engine-injection-malformed",
  basicPod(),
  {
    description: "LMCacheEngine spec.injection.payloadImage is a string (bypassed the schema)",
    covers: "#step-9 (malformed answer)",
    session: [engineFound({ payloadImage: "registry.example.com/lmcache/lmcache-payload:pinned" })],
  },
  "engine-invalid",
  "LMCacheEngine vllm-ns/cb is malformed: spec.injection.payloadImage has the wrong JSON type",
);

// ---- step 10: ConfigMap
skipCase(
  "configmap-absent",
  basicPod(),
  {
    description: "connection ConfigMap not found: skip, hostIPC not set",
    covers: "#step-10; #upstream-tests (ConfigMap absent)",
    session: [engineFound(), cmMissing()],
  },
  "engine-not-found",
  "ConfigMap vllm-ns/cb-connection not found",
);
skipCase(
  "configmap-lookup-failed",
  basicPod(),
  {
    description: "ConfigMap lookup fails with a server error",
    covers: "#step-10",
    session: [engineFound(), cmRaw(false, SERVER_ERROR)],
  },
  "lookup-failed",
  "lookup of ConfigMap vllm-ns/cb-connection failed",
);
{
  // 63+1+63+1+63+1+58 = 250 characters: a valid subdomain, but "<name>-connection" (261) cannot exist.
  const long = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(58)].join(".");
  skipCase(
    "engine-name-too-long",
    basicPod({ [K.engine]: long }),
    {
      description: "<engine>-connection longer than 253 characters: engine-not-found without a ConfigMap lookup",
      covers: "#step-10; #x4",
      session: [engineMissing(long)],
    },
    "engine-not-found",
    `ConfigMap vllm-ns/${long}-connection not found`,
  );
}

// ---- step 11: connection value
skipCase(
  "configmap-key-missing",
  basicPod(),
  {
    description: "ConfigMap without kv-transfer-config.json",
    covers: "#step-11; #d3",
    session: [engineFound(), cmFound({ "other.json": "{}" })],
  },
  "connection-config-missing",
  "ConfigMap vllm-ns/cb-connection has no kv-transfer-config.json value",
);
skipCase(
  "configmap-value-empty",
  basicPod(),
  {
    description: 'kv-transfer-config.json is ""',
    covers: "#step-11; #d3",
    session: [engineFound(), cmFound({ "kv-transfer-config.json": "" })],
  },
  "connection-config-missing",
  "ConfigMap vllm-ns/cb-connection has no kv-transfer-config.json value",
);
skipCase(
  "configmap-no-data",
  basicPod(),
  {
    description: "ConfigMap without data",
    covers: "#step-11; #d3",
    session: [engineFound(), cmRaw(true, JSON.stringify(connectionCm(undefined)))],
  },
  "connection-config-missing",
  "ConfigMap vllm-ns/cb-connection has no kv-transfer-config.json value",
);
skipCase(
  "configmap-value-array",
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
  "configmap-value-not-json",
  basicPod(),
  {
    description: "kv-transfer-config.json is not JSON",
    covers: "#step-11; #d3",
    session: [engineFound(), cmFound({ "kv-transfer-config.json": "not json" })],
  },
  "invalid-connection-config",
  "kv-transfer-config.json of vllm-ns/cb-connection is not a JSON object",
);
{
  const userKv = podWith((p) => {
    p.spec.containers[0].args = ["--kv-transfer-config", '{"kv_connector":"Other"}'];
  });
  skipCase(
    "configmap-invalid-with-user-kv",
    userKv,
    {
      description: "the connection value is checked even when the pod brings its own --kv-transfer-config",
      covers: "#step-11; #d3",
      session: [engineFound(), cmFound({ "kv-transfer-config.json": "not json" })],
    },
    "invalid-connection-config",
    "kv-transfer-config.json of vllm-ns/cb-connection is not a JSON object",
  );
}

// ---- step 12: target container
skipCase(
  "no-containers",
  podWith((p) => {
    p.spec.containers = [];
  }),
  { description: "spec.containers is []", covers: "#step-12; #target-container", session: STANDARD },
  "target-container-not-found",
  "pod has no containers",
);
skipCase(
  "only-init-containers",
  podWith((p) => {
    p.spec = { initContainers: [{ name: "vllm", image: "vllm/vllm-openai:latest" }] };
  }),
  {
    description: "only init containers, spec.containers absent",
    covers: "#step-12; #target-container",
    session: STANDARD,
  },
  "target-container-not-found",
  "pod has no containers",
);
skipCase(
  "unknown-container",
  withAnn({ [K.container]: "does-not-exist" }),
  {
    description: "container annotation names no container",
    covers: "#step-12; #upstream-tests (container annotation does-not-exist)",
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
  "engine-default-container-unknown",
  basicPod(),
  {
    description: "engine injection.targetContainer names no container",
    covers: "#step-12; #target-container",
    session: [engineFound({ targetContainer: "vllm-main" }), cmFound()],
  },
  "target-container-not-found",
  'no container named "vllm-main"',
);
injectCase(
  "annotation-named-second-container",
  sidecarPod({ [K.engine]: "cb", [K.container]: "vllm" }),
  {
    description: "[sidecar, vllm] + container annotation vllm: only vllm wired",
    covers: "#step-12; #upstream-tests (annotation-named non-first container)",
    session: STANDARD,
  },
  { container: 1 },
);
injectCase(
  "annotation-beats-engine-default",
  sidecarPod({ [K.engine]: "cb", [K.container]: " sidecar " }),
  {
    description: "annotation (trimmed) wins over the engine's targetContainer",
    covers: "#target-container",
    session: [engineFound({ targetContainer: "vllm" }), cmFound()],
  },
  { container: 0 },
);
injectCase(
  "engine-default-container-blank",
  sidecarPod({ [K.engine]: "cb" }),
  {
    description: 'engine targetContainer "": first container',
    covers: "#target-container",
    session: [engineFound({ targetContainer: "" }), cmFound()],
  },
  { container: 0 },
);

// ---- step 13: command override
skipCase(
  "command-override",
  podWith((p) => {
    p.spec.containers[0].command = ["/bin/sh", "-c", "exec vllm serve"];
  }),
  {
    description: "target sets command: skip, hostIPC stays unset",
    covers: "#step-13; #upstream-tests (command)",
    session: STANDARD,
  },
  "command-override",
  'container "vllm" sets command; only args can be extended',
);
injectCase(
  "command-empty-array",
  podWith((p) => {
    p.spec.containers[0].command = [];
  }),
  { description: "command: [] is not an override", covers: "#step-13", session: STANDARD },
);
{
  const pod = podWith((p) => {
    p.spec.hostIPC = false;
    p.spec.containers[0].command = ["vllm", "serve"];
  });
  skipCase(
    "command-override-hostipc-false",
    pod,
    { description: "command override keeps hostIPC false", covers: "#step-13; #d2", session: STANDARD },
    "command-override",
    'container "vllm" sets command; only args can be extended',
  );
}

// ---- step 14: payload image
injectCase(
  "staging-full",
  sidecarPod({ [K.engine]: "cb", [K.container]: "vllm" }),
  {
    description: "payload staging: emptyDir, init container, read-only mount, PYTHONPATH, pull secret",
    covers: "#step-14; #staging; #upstream-tests (payload staging)",
    session: stagingSession(),
  },
  { container: 1, staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase("payload-image-unset", basicPod(), {
  description: "engine injection without payloadImage: connection-only",
  covers: "#upstream-tests (injection.payloadImage unset)",
  session: [engineFound({ imagePullSecrets: [{ name: "lmcache-payload-pull" }] }), cmFound()],
});
skipCase(
  "payload-image-footgun",
  basicPod(),
  {
    description: "payloadImage {} stored as lmcache/vllm-openai:latest: skip, no hostIPC, no args",
    covers: "#step-14; #d6",
    session: [
      engineFound({ payloadImage: { repository: "lmcache/vllm-openai", tag: "latest", pullPolicy: "IfNotPresent" } }),
      cmFound(),
    ],
  },
  "payload-image-invalid",
  "payloadImage.repository is the ImageSpec default lmcache/vllm-openai",
);
injectCase("payload-image-repository-empty", basicPod(), {
  description: 'payloadImage.repository "": connection-only',
  covers: "#x2; #staging",
  session: [engineFound({ payloadImage: { repository: "", tag: "pinned" } }), cmFound()],
});
injectCase("payload-image-repository-blank", basicPod(), {
  description: "payloadImage.repository blank: connection-only",
  covers: "#x2",
  session: [engineFound({ payloadImage: { repository: "   " } }), cmFound()],
});
injectCase(
  "payload-image-digest",
  basicPod(),
  {
    description: "repository with @sha256: used as is",
    covers: "#d6",
    session: [
      engineFound({
        payloadImage: {
          repository: "reg/p@sha256:4f1c2a7be0d0b3a5c1e5f0a9c6d2e8b7a1f3c5d7e9b1a3c5d7e9f1a3b5c7d9e1",
          tag: "latest",
          pullPolicy: "IfNotPresent",
        },
      }),
      cmFound(),
    ],
  },
  { staging: { ref: "reg/p@sha256:4f1c2a7be0d0b3a5c1e5f0a9c6d2e8b7a1f3c5d7e9b1a3c5d7e9f1a3b5c7d9e1" } },
);
injectCase(
  "payload-image-defaults",
  basicPod(),
  {
    description: "payloadImage with repository only: tag latest, IfNotPresent",
    covers: "#staging",
    session: [engineFound({ payloadImage: { repository: "reg/p", tag: "", pullPolicy: "" } }), cmFound()],
  },
  { staging: { ref: "reg/p:latest" } },
);
skipCase(
  "payload-image-whitespace",
  basicPod(),
  {
    description: "repository containing a space",
    covers: "#step-14; #x3",
    session: [engineFound({ payloadImage: { repository: "reg/p latest" } }), cmFound()],
  },
  "payload-image-invalid",
  "payloadImage repository is not a valid image reference part",
);
skipCase(
  "payload-image-tag-control",
  basicPod(),
  {
    description: "tag containing a newline",
    covers: "#step-14; #x3",
    session: [engineFound({ payloadImage: { repository: "reg/p", tag: "v1\n" } }), cmFound()],
  },
  "payload-image-invalid",
  "payloadImage tag is not a valid image reference part",
);
skipCase(
  "payload-image-bad-pull-policy",
  basicPod(),
  {
    description: "pullPolicy outside the enum",
    covers: "#step-14; #x3",
    session: [engineFound({ payloadImage: { repository: "reg/p", pullPolicy: "Sometimes" } }), cmFound()],
  },
  "payload-image-invalid",
  'payloadImage.pullPolicy "Sometimes" is not one of Always, Never, IfNotPresent',
);
// ---- edge cases of the shared LMCache code (docs/decisions.md#edge-cases-of-the-shared-lmcache-steps)
skipCase(
  "payload-image-repository-with-tag",
  basicPod(),
  {
    description: "payloadImage.repository reg/p:v1 holds a tag: the image would be reg/p:v1:latest",
    covers: "#step-14; decision (tag in repository)",
    session: [engineFound({ payloadImage: { repository: "reg/p:v1" } }), cmFound()],
  },
  "payload-image-invalid",
  'payloadImage.repository "reg/p:v1" holds a tag in its last path segment; put the tag in payloadImage.tag',
);
injectCase(
  "payload-image-registry-port",
  basicPod(),
  {
    description: "a ':' before the last '/' is a registry port: reg:5000/p with tag v1 is staged",
    covers: "#step-14; decision (tag in repository)",
    session: [engineFound({ payloadImage: { repository: "reg:5000/p", tag: "v1" } }), cmFound()],
  },
  { staging: { ref: "reg:5000/p:v1" } },
);
skipCase(
  "engine-target-container-number",
  basicPod(),
  {
    description: "LMCacheEngine read, but targetContainer is 7: engine-invalid naming the field, not lookup-failed",
    covers: "#step-9; decision (engine-invalid)",
    session: [engineFound({ ...STAGING_INJECTION, targetContainer: 7 })],
  },
  "engine-invalid",
  "LMCacheEngine vllm-ns/cb is malformed: spec.injection.targetContainer has the wrong JSON type",
);
skipCase(
  "engine-pull-secrets-string",
  basicPod(),
  {
    description: 'LMCacheEngine read, but imagePullSecrets is "x": engine-invalid naming the field',
    covers: "#step-9; decision (engine-invalid)",
    session: [engineFound({ ...STAGING_INJECTION, imagePullSecrets: "x" })],
  },
  "engine-invalid",
  "LMCacheEngine vllm-ns/cb is malformed: spec.injection.imagePullSecrets has the wrong JSON type",
);
injectCase(
  "engine-pull-secret-empty-name",
  basicPod(),
  {
    description: "engine imagePullSecrets [{}, lmcache-payload-pull]: the empty name is never put on the pod",
    covers: "#pull-secrets; decision (empty pull-secret name)",
    session: stagingSession({ ...STAGING_INJECTION, imagePullSecrets: [{}, { name: "lmcache-payload-pull" }] }),
  },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
skipCase(
  "staging-mount-elsewhere",
  podWith((p) => {
    p.spec.volumes = [{ name: "lmcache-payload", emptyDir: {} }];
    p.spec.containers[0].volumeMounts = [{ name: "lmcache-payload", mountPath: "/opt/lmcache" }];
  }),
  {
    description: "the target already mounts lmcache-payload at /opt/lmcache: PYTHONPATH would name an empty path",
    covers: "#staging; decision (staging conflicts)",
    session: stagingSession(),
  },
  "staging-conflict",
  'container "vllm" mounts volume "lmcache-payload" at "/opt/lmcache", which conflicts with the staging volume',
);
skipCase(
  "staging-path-taken",
  podWith((p) => {
    p.spec.volumes = [{ name: "models", emptyDir: {} }];
    p.spec.containers[0].volumeMounts = [{ name: "models", mountPath: "/lmcache-payload" }];
  }),
  {
    description: "the target already mounts another volume at /lmcache-payload: a second mount there is refused",
    covers: "#staging; decision (staging conflicts)",
    session: stagingSession(),
  },
  "staging-conflict",
  'container "vllm" mounts volume "models" at "/lmcache-payload", which conflicts with the staging volume',
);
injectCase(
  "staging-conflict-needs-staging",
  podWith((p) => {
    p.spec.volumes = [{ name: "models", emptyDir: {} }];
    p.spec.containers[0].volumeMounts = [{ name: "models", mountPath: "/lmcache-payload" }];
  }),
  {
    description: "without a payload image nothing is staged, so a mount at /lmcache-payload is no conflict",
    covers: "#staging; decision (staging conflicts)",
    session: STANDARD,
  },
);

// ---- staging and pull-secret details
injectCase(
  "staging-existing-pythonpath",
  podWith((p) => {
    p.spec.containers[0].env = [{ name: "PYTHONPATH", value: "/opt/extra" }];
  }),
  {
    description: "PYTHONPATH=/opt/extra becomes /lmcache-payload:/opt/extra",
    covers: "#staging; #upstream-tests (existing PYTHONPATH)",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase(
  "staging-pythonpath-valuefrom",
  podWith((p) => {
    p.spec.containers[0].env = [
      { name: "A", value: "1" },
      { name: "PYTHONPATH", valueFrom: { configMapKeyRef: { name: "py", key: "path" } } },
      { name: "B", value: "2" },
    ];
  }),
  {
    description: "PYTHONPATH from valueFrom is replaced in place by the mount path",
    covers: "#staging",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase(
  "staging-pythonpath-twice",
  podWith((p) => {
    p.spec.containers[0].env = [
      { name: "PYTHONPATH", value: "/a" },
      { name: "PYTHONPATH", value: "/b" },
    ];
  }),
  { description: "two PYTHONPATH entries: both prefixed", covers: "#staging", session: stagingSession() },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase(
  "staging-pythonpath-empty",
  podWith((p) => {
    p.spec.containers[0].env = [{ name: "PYTHONPATH", value: "" }];
  }),
  { description: 'PYTHONPATH "" becomes the mount path', covers: "#staging", session: stagingSession() },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase(
  "staging-secrets-override",
  withAnn({ [K.secrets]: "override-a,override-b" }),
  {
    description: "pull-secret annotation replaces the engine's list",
    covers: "#pull-secrets; #upstream-tests (override annotation)",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: ["override-a", "override-b"] } },
);
injectCase(
  "staging-secret-already-listed",
  podWith((p) => {
    p.spec.imagePullSecrets = [{ name: "lmcache-payload-pull" }];
  }),
  {
    description: "pod already lists the engine's secret: count stays 1",
    covers: "#pull-secrets; #upstream-tests (pod already lists)",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase(
  "staging-secrets-dedupe",
  podWith(
    (p) => {
      p.spec.imagePullSecrets = [{ name: "b" }];
    },
    { [K.engine]: "cb", [K.secrets]: "a, a, b" },
  ),
  { description: 'annotation "a, a, b" with pod [b]: [b, a]', covers: "#pull-secrets", session: stagingSession() },
  { staging: { ref: STAGING_REF, secrets: ["a", "a", "b"] } },
);
injectCase(
  "staging-secrets-annotation-blank-parts",
  withAnn({ [K.secrets]: " , " }),
  {
    description: 'annotation " , " is non-blank: replaces the engine list with nothing',
    covers: "#pull-secrets",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: [] } },
);
skipCase(
  "staging-bad-pull-secret-annotation",
  withAnn({ [K.secrets]: "good, Bad_Name" }),
  {
    description: "staging with an invalid Secret name in the override annotation",
    covers: "#step-15; #d5",
    session: stagingSession(),
  },
  "invalid-image-pull-secrets",
  '"Bad_Name" is not a valid Secret name',
);
injectCase("unused-bad-pull-secret-annotation", withAnn({ [K.secrets]: "Bad_Name" }), {
  description: "no staging: the override annotation is not read",
  covers: "#d5",
  session: STANDARD,
});
injectCase(
  "engine-default-target-container",
  sidecarPod({ [K.engine]: "cb" }),
  {
    description: "engine targetContainer vllm with [sidecar, vllm]: vllm wired and staged, sidecar untouched",
    covers: "#target-container; #upstream-tests (engine targetContainer)",
    session: stagingSession({ ...STAGING_INJECTION, targetContainer: "vllm" }),
  },
  { container: 1, staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
{
  const pod = podWith((p) => {
    p.spec.volumes = [{ name: "lmcache-payload", emptyDir: {} }];
    p.spec.initContainers = [
      {
        name: "lmcache-payload-stage",
        image: "registry.example.com/lmcache/lmcache-payload:old",
        imagePullPolicy: "Always",
      },
    ];
    p.spec.containers[0].volumeMounts = [{ name: "lmcache-payload", mountPath: "/lmcache-payload", readOnly: true }];
  });
  injectCase(
    "staging-prestaged",
    pod,
    {
      description: "pre-existing volume, init container and mount with the staging names: kept, not duplicated",
      covers: "#staging; #upstream-tests (pre-existing volume and init container)",
      session: stagingSession(),
    },
    { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
  );
}
injectCase(
  "staging-user-volume-kept",
  podWith((p) => {
    p.spec.volumes = [{ name: "lmcache-payload", hostPath: { path: "/opt/lmcache", type: "Directory" } }];
  }),
  {
    description: "user volume named lmcache-payload (hostPath) kept; init container and mount added",
    covers: "#staging",
    session: stagingSession(),
  },
  { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);

// ---- wiring details
injectCase(
  "user-pythonhashseed-kept",
  podWith((p) => {
    p.spec.containers[0].env = [{ name: "PYTHONHASHSEED", value: "42" }];
  }),
  {
    description: "user PYTHONHASHSEED=42 stays, no second entry",
    covers: "#wiring; #upstream-tests (user-set PYTHONHASHSEED)",
    session: STANDARD,
  },
);
injectCase(
  "user-pythonhashseed-valuefrom",
  podWith((p) => {
    p.spec.containers[0].env = [{ name: "PYTHONHASHSEED", valueFrom: { configMapKeyRef: { name: "seed", key: "v" } } }];
  }),
  { description: "user PYTHONHASHSEED from valueFrom counts as set", covers: "#wiring", session: STANDARD },
);
injectCase(
  "user-kv-separate",
  podWith((p) => {
    p.spec.containers[0].args = ["--kv-transfer-config", '{"kv_connector":"Other"}'];
  }),
  {
    description: "user --kv-transfer-config <v>: kept, kv-transfer-config-present + injected, warning",
    covers: "#wiring; #stamping; #upstream-tests (user kv)",
    session: STANDARD,
  },
  { kv: null },
);
injectCase(
  "user-kv-equals-form",
  podWith((p) => {
    p.spec.containers[0].args = ["--model", "m", '--kv-transfer-config={"kv_connector":"Other"}'];
  }),
  {
    description: "user --kv-transfer-config=<v>: kept, kv-transfer-config-present + injected",
    covers: "#wiring; #stamping",
    session: STANDARD,
  },
  { kv: null },
);
injectCase(
  "user-kv-equals-empty",
  podWith((p) => {
    p.spec.containers[0].args = ["--model", "m", "--kv-transfer-config="];
  }),
  { description: "--kv-transfer-config= (empty value) counts as user-supplied", covers: "#wiring", session: STANDARD },
  { kv: null },
);
injectCase(
  "user-kv-with-staging",
  podWith(
    (p) => {
      p.spec.containers[0].args = ["--kv-transfer-config", "{}"];
    },
    { [K.engine]: "cb", [K.skip]: "engine-not-found" },
  ),
  {
    description: "user kv and staging: staging still applied; stale reason rewritten",
    covers: "#stamping; #d10",
    session: stagingSession(),
  },
  { kv: null, staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
);
injectCase("stale-skip-reason-removed", withAnn({ [K.skip]: "engine-not-found" }), {
  description: "success on a pod with a stale skip reason removes it",
  covers: "#stamping; #d10",
  session: STANDARD,
});
injectCase("basic-injection", basicPod(), {
  description: "engine cb: hostIPC, args [--model, m, --kv-transfer-config, <cm value>], PYTHONHASHSEED, injected",
  covers: "#wiring; #upstream-tests (full injection)",
  session: STANDARD,
});
injectCase(
  "args-absent",
  podWith((p) => {
    delete p.spec.containers[0].args;
  }),
  { description: "target without args: args created", covers: "#wiring", session: STANDARD },
);
injectCase(
  "hostipc-false-replaced",
  podWith((p) => {
    p.spec.hostIPC = false;
  }),
  { description: "hostIPC false becomes true", covers: "#wiring", session: STANDARD },
);
{
  // Both injectors on one pod, from the LMCache side: the cacheblend-injector ran first (name order) and wired the pod.
  const pod = podWith((p) => {
    p.metadata.annotations = {
      [K.engine]: "cb",
      "lmcache.ai/cacheblend-engine": "cb",
      "lmcache.ai/cacheblend-injected": "true",
    };
    p.spec.hostIPC = true;
    p.spec.volumes = [{ name: "cb-plugin", emptyDir: {} }];
    p.spec.initContainers = [
      {
        name: "cb-plugin-stage",
        image: "reg/cb-payload:pinned",
        env: [{ name: "SHARED_DIR", value: "/cb-plugin" }],
        volumeMounts: [{ name: "cb-plugin", mountPath: "/cb-plugin" }],
        imagePullPolicy: "IfNotPresent",
      },
    ];
    const c = p.spec.containers[0];
    c.volumeMounts = [{ name: "cb-plugin", mountPath: "/cb-plugin", readOnly: true }];
    c.env = [{ name: "PYTHONPATH", value: "/cb-plugin" }];
    c.args = [
      "--model",
      "m",
      "--attention-backend",
      "CUSTOM",
      "--kv-transfer-config",
      '{\n  "kv_connector": "CBKVConnector"\n}',
      "--no-enable-chunked-prefill",
      "--block-size",
      "64",
      "--pipeline-parallel-size",
      "1",
      "--no-async-scheduling",
      "--enforce-eager",
    ];
  });
  injectCase(
    "after-cacheblend",
    pod,
    {
      description: "pod already wired by cacheblend-injector: hostIPC/PYTHONHASHSEED only, kv-transfer-config-present",
      covers: "#registration (webhook order, LMCache side); #registration",
      session: STANDARD,
    },
    { kv: null },
  );
}

// ---- step 16: wrong JSON types
skipCase(
  "args-element-number",
  podWith((p) => {
    p.spec.containers[0].args = ["--model", "m", "--port", 8000];
  }),
  { description: "an args element is a number", covers: "#step-16", session: STANDARD },
  "invalid-request",
  "request could not be read: spec.containers[0].args[3] is not a string",
);
skipCase(
  "containers-not-array",
  podWith((p) => {
    p.spec.containers = { vllm: { image: "vllm/vllm-openai:latest" } };
  }),
  { description: "spec.containers is an object", covers: "#step-16", session: STANDARD },
  "invalid-request",
  "request could not be read: spec.containers is not an array",
);
skipCase(
  "env-entry-without-name",
  podWith((p) => {
    p.spec.containers[0].env = [{ value: "1" }];
  }),
  { description: "an env entry without a string name", covers: "#step-16", session: STANDARD },
  "invalid-request",
  "request could not be read: spec.containers[0].env[0].name is not a string",
);
skipCase(
  "command-not-array",
  podWith((p) => {
    p.spec.containers[0].command = "vllm serve";
  }),
  { description: "command is a string", covers: "#step-16", session: STANDARD },
  "invalid-request",
  "request could not be read: spec.containers[0].command is not an array",
);
skipCase(
  "volumes-not-array-staging",
  podWith((p) => {
    p.spec.volumes = "none";
  }),
  { description: "staging with spec.volumes a string", covers: "#step-16", session: stagingSession() },
  "invalid-request",
  "request could not be read: spec.volumes is not an array",
);

// ---- IPC modes of today's operator (docs/policies/lmcache-injector.md#ipc-modes)
{
  const shmWarning = `${POLICY}: container "vllm" mounts its own /dev/shm, hiding the host's; CUDA IPC may fail`;
  const cur = (extra: J, injection?: J) => [engineWith(extra, injection), cmFound()];
  const ipcCase = (
    name: string,
    description: string,
    extra: J,
    ipc: Wiring["ipc"],
    pod: J = basicPod(),
    w: Wiring = {},
  ) =>
    injectCase(
      name,
      pod,
      { description, covers: "#which-lmcache-operator; #ipc-modes", session: cur(extra) },
      { ipc, ...w },
    );
  ipcCase(
    "ipc-nvidia-private-shm",
    "current nvidia engine: private emptyDir Memory /dev/shm, no hostIPC",
    { gpuVendor: "nvidia", hostIPC: false },
    "private",
  );
  ipcCase("ipc-amd-host-shm", "current amd engine: hostPath /dev/shm", { gpuVendor: "amd", hostIPC: false }, "host");
  ipcCase(
    "ipc-nvidia-hostipc-true-isolated",
    "current nvidia engine with hostIPC true and no isolatedIPC: isolated by default, private shm (not hostIPC)",
    { gpuVendor: "nvidia", hostIPC: true },
    "private",
  );
  ipcCase(
    "ipc-amd-hostipc",
    "current amd engine with hostIPC true: hostIPC, no volume",
    { gpuVendor: "amd", hostIPC: true },
    "hostIPC",
  );
  ipcCase(
    "ipc-isolated-beats-hostipc",
    "isolatedIPC true wins over hostIPC true: private shm",
    { isolatedIPC: true, hostIPC: true },
    "private",
  );
  ipcCase(
    "ipc-isolated-false",
    "isolatedIPC false, hostIPC false: host shm",
    { isolatedIPC: false, hostIPC: false },
    "host",
  );
  ipcCase(
    "ipc-isolated-not-boolean",
    'isolatedIPC "yes" is absent: nvidia default, private shm',
    { isolatedIPC: "yes" },
    "private",
  );
  ipcCase(
    "ipc-gpu-vendor-uppercase",
    "gpuVendor AMD is not amd: nvidia path, private shm",
    { gpuVendor: "AMD", hostIPC: false },
    "private",
  );
  ipcCase(
    "ipc-hostipc-not-boolean",
    'engine hostIPC "true" is absent: nvidia, private shm',
    { hostIPC: "true" },
    "private",
  );
  ipcCase(
    "ipc-pd-only-current",
    "an engine with only pd {} is current: private shm",
    { pd: {} },
    "private",
    basicPod(),
    { nixl: "5558" },
  );
  ipcCase(
    "ipc-pod-already-hostipc",
    "current engine, pod already hostIPC true: nothing IPC-related added",
    { gpuVendor: "nvidia", hostIPC: false },
    "none",
    podWith((p) => {
      p.spec.hostIPC = true;
    }),
  );
  const dshm = (path = "/dev/shm") =>
    podWith((p) => {
      p.spec.volumes = [{ name: "dshm", emptyDir: { medium: "Memory" } }];
      p.spec.containers[0].volumeMounts = [{ name: "dshm", mountPath: path }];
    });
  ipcCase(
    "ipc-own-dshm-private",
    "nvidia engine, target mounts its own dshm at /dev/shm: nothing added, no warning",
    { gpuVendor: "nvidia", hostIPC: false },
    "none",
    dshm(),
  );
  ipcCase(
    "ipc-own-dshm-slash",
    "nvidia engine, target mounts dshm at /dev/shm/: nothing added",
    { gpuVendor: "nvidia", hostIPC: false },
    "none",
    dshm("/dev/shm/"),
  );
  ipcCase(
    "ipc-own-dshm-host-warning",
    "amd engine, target mounts its own dshm emptyDir: nothing added, the /dev/shm warning",
    { gpuVendor: "amd", hostIPC: false },
    "none",
    dshm(),
    { warnings: [shmWarning] },
  );
  ipcCase(
    "ipc-own-host-shm-no-warning",
    "amd engine, target already mounts a hostPath /dev/shm: nothing added, no warning",
    { gpuVendor: "amd", hostIPC: false },
    "none",
    podWith((p) => {
      p.spec.volumes = [{ name: "shm", hostPath: { path: "/dev/shm" } }];
      p.spec.containers[0].volumeMounts = [{ name: "shm", mountPath: "/dev/shm" }];
    }),
  );
  ipcCase(
    "ipc-init-container-shm-ignored",
    "an init container's /dev/shm mount does not count: private shm added",
    { gpuVendor: "nvidia", hostIPC: false },
    "private",
    podWith((p) => {
      p.spec.initContainers = [
        { name: "init", image: "busybox:1.36", volumeMounts: [{ name: "x", mountPath: "/dev/shm" }] },
      ];
      p.spec.volumes = [{ name: "x", emptyDir: {} }];
    }),
  );
  ipcCase(
    "ipc-volume-name-taken",
    "current engine, pod has a volume named lmcache-dev-shm: nothing IPC-related added",
    { gpuVendor: "nvidia", hostIPC: false },
    "none",
    podWith((p) => {
      p.spec.volumes = [{ name: "lmcache-dev-shm", emptyDir: {} }];
    }),
  );
  ipcCase(
    "ipc-hostipc-false-kept",
    "pod hostIPC false with a current nvidia engine: stays false, private shm",
    { gpuVendor: "nvidia", hostIPC: false },
    "private",
    podWith((p) => {
      p.spec.hostIPC = false;
    }),
  );
  injectCase(
    "ipc-private-shm-staging",
    podWith(() => {}),
    {
      description: "private shm volume and mount come before the staging volume and mount",
      covers: "#ipc-modes; #staging",
      session: cur({ gpuVendor: "nvidia", hostIPC: false }, STAGING_INJECTION),
    },
    { ipc: "private", staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } },
  );
  injectCase(
    "ipc-legacy-engine",
    basicPod(),
    {
      description: "legacy engine (no IPC fields): hostIPC true",
      covers: "#which-lmcache-operator",
      session: STANDARD,
    },
    { ipc: "hostIPC" },
  );
  // E1 engines as the API server returns them: the first operator's CRDs (and its SetDefaults)
  // default gpuVendor, so gpuVendor alone is no sign of today's operator (regression: issue 30)
  const E1_SPEC = { gpuVendor: "nvidia", logLevel: "INFO", nodeSelector: { "nvidia.com/gpu.present": "true" } };
  ipcCase(
    "ipc-e1-engine-legacy",
    "E1 engine {gpuVendor: nvidia, logLevel: INFO, nodeSelector}: legacy, hostIPC",
    E1_SPEC,
    "hostIPC",
  );
  ipcCase(
    "ipc-e1-engine-l1-legacy",
    "E1 engine {gpuVendor: nvidia, l1: {sizeGB: 10}}: legacy, hostIPC",
    { gpuVendor: "nvidia", l1: { sizeGB: 10 } },
    "hostIPC",
  );
  ipcCase(
    "ipc-e1-engine-amd-legacy",
    "E1 engine with gpuVendor amd and no IPC field: legacy, hostIPC (not host shm)",
    { ...E1_SPEC, gpuVendor: "amd" },
    "hostIPC",
  );
  ipcCase(
    "ipc-e1-engine-hostipc-false-current",
    "the same E1 engine with hostIPC false added: today's operator, private shm",
    { ...E1_SPEC, hostIPC: false },
    "private",
  );
  const isolatedKv = JSON.stringify({
    kv_connector: "LMCacheMPConnector",
    kv_connector_extra_config: { "lmcache.mp.host": "tcp://cb", "lmcache.mp.isolated_ipc": true },
    kv_role: "kv_both",
  });
  injectCase(
    "ipc-connection-only-isolated",
    basicPod(),
    {
      description: "no LMCacheEngine, connection config says lmcache.mp.isolated_ipc true: private shm",
      covers: "#ipc-modes",
      session: [engineMissing(), cmFound({ "kv-transfer-config.json": isolatedKv })],
    },
    { ipc: "private", kv: isolatedKv },
  );
  injectCase(
    "ipc-legacy-engine-connection-isolated",
    basicPod(),
    {
      description: "legacy (E1) engine whose connection config says lmcache.mp.isolated_ipc true: private shm",
      covers: "#which-lmcache-operator; #ipc-modes",
      session: [engineWith(E1_SPEC), cmFound({ "kv-transfer-config.json": isolatedKv })],
    },
    { ipc: "private", kv: isolatedKv },
  );
  const isolatedString = isolatedKv.replace("true", '"true"');
  injectCase(
    "ipc-connection-isolated-string",
    basicPod(),
    {
      description: 'lmcache.mp.isolated_ipc "true" (a string) is not isolated: hostIPC',
      covers: "#ipc-modes",
      session: [engineMissing(), cmFound({ "kv-transfer-config.json": isolatedString })],
    },
    { ipc: "hostIPC", kv: isolatedString },
  );
  const mode = (m: string) => putJson(`settings_ipc-mode-${m}.json`, { ipcMode: m });
  injectCase(
    "ipc-mode-hostshm-current",
    basicPod(),
    {
      description: "ipcMode hostShm with a current nvidia engine: host shm",
      covers: "#ipc-modes",
      settings: mode("hostShm"),
      session: cur({ gpuVendor: "nvidia", hostIPC: false }),
    },
    { ipc: "host" },
  );
  injectCase(
    "ipc-mode-isolated-legacy",
    basicPod(),
    {
      description: "ipcMode isolated with a legacy engine: private shm",
      covers: "#ipc-modes",
      settings: mode("isolated"),
      session: STANDARD,
    },
    { ipc: "private" },
  );
  injectCase(
    "ipc-mode-hostipc-current",
    basicPod(),
    {
      description: "ipcMode hostIPC with a current nvidia engine: hostIPC",
      covers: "#ipc-modes",
      settings: mode("hostIPC"),
      session: cur({ gpuVendor: "nvidia", hostIPC: false }),
    },
    { ipc: "hostIPC" },
  );
  injectCase(
    "ipc-mode-auto",
    basicPod(),
    {
      description: "ipcMode auto: the engine decides (legacy: hostIPC)",
      covers: "#ipc-modes",
      settings: mode("auto"),
      session: STANDARD,
    },
    { ipc: "hostIPC" },
  );
  injectCase(
    "ipc-inline-nvidia",
    basicPod(),
    {
      description: "inline engine {kvTransferConfig, gpuVendor: nvidia, hostIPC: false} with lookup false: private shm",
      covers: "#which-lmcache-operator; #settings",
      settings: putJson("settings_ipc-inline-nvidia.json", {
        lookup: false,
        engines: {
          cb: { kvTransferConfig: { kv_connector: "LMCacheMPConnector" }, gpuVendor: "nvidia", hostIPC: false },
        },
      }),
      session: [],
    },
    { ipc: "private", kv: '{"kv_connector":"LMCacheMPConnector"}' },
  );
  injectCase(
    "ipc-inline-gpu-vendor-only-legacy",
    basicPod(),
    {
      description: "inline engine {kvTransferConfig, gpuVendor: nvidia}: gpuVendor alone is legacy, hostIPC",
      covers: "#which-lmcache-operator; #settings",
      settings: putJson("settings_ipc-inline-gpu-vendor-only.json", {
        lookup: false,
        engines: { cb: { kvTransferConfig: { kv_connector: "LMCacheMPConnector" }, gpuVendor: "nvidia" } },
      }),
      session: [],
    },
    { ipc: "hostIPC", kv: '{"kv_connector":"LMCacheMPConnector"}' },
  );
  const badPod = (mut: (p: J) => void) => podWith(mut);
  skipCase(
    "ipc-pod-hostipc-not-boolean",
    badPod((p) => {
      p.spec.hostIPC = "yes";
    }),
    {
      description: "shm mode reads spec.hostIPC: a string is invalid-request",
      covers: "#ipc-modes",
      session: cur({ gpuVendor: "nvidia", hostIPC: false }),
    },
    "invalid-request",
    "request could not be read: spec.hostIPC is not a boolean",
  );
  skipCase(
    "ipc-volumes-not-array",
    badPod((p) => {
      p.spec.volumes = {};
    }),
    {
      description: "shm mode reads spec.volumes: an object is invalid-request",
      covers: "#ipc-modes",
      session: cur({ gpuVendor: "nvidia", hostIPC: false }),
    },
    "invalid-request",
    "request could not be read: spec.volumes is not an array",
  );
  skipCase(
    "ipc-mount-path-not-string",
    badPod((p) => {
      p.spec.containers[0].volumeMounts = [{ name: "dshm", mountPath: 5 }];
    }),
    {
      description: "shm mode reads the target's mountPath: a number is invalid-request",
      covers: "#ipc-modes",
      session: cur({ gpuVendor: "nvidia", hostIPC: false }),
    },
    "invalid-request",
    "request could not be read: spec.containers[0].volumeMounts[0].mountPath is not a string",
  );
  injectCase(
    "ipc-legacy-hostipc-not-boolean",
    badPod((p) => {
      p.spec.hostIPC = "yes";
    }),
    {
      description: "legacy engine: spec.hostIPC is replaced as before (host IPC mode reads nothing)",
      covers: "#which-lmcache-operator",
      session: STANDARD,
    },
    { ipc: "hostIPC" },
  );
}

// ---- PD roles (docs/policies/lmcache-injector.md#pd-roles)
{
  const ROLE = "lmcache.ai/pd-role";
  const kvFor = (role: string) => operatorKv(`cb-${role}`, NS);
  const pdCm = (omit?: string) => {
    const data: Record<string, string> = {
      "kv-transfer-config.json": KV,
      "kv-transfer-config-prefiller.json": kvFor("prefiller"),
      "kv-transfer-config-decoder.json": kvFor("decoder"),
    };
    if (omit) delete data[omit];
    return cmFound(data);
  };
  const pdSession = (pd: J, omit?: string) => [engineWith({ pd }), pdCm(omit)];
  const covers = "#pd-roles";
  injectCase(
    "pd-decoder",
    withAnn({ [ROLE]: "decoder" }),
    {
      description: "engine pd {}, role decoder: private shm, the decoder key, NIXL env port 5558",
      covers,
      session: pdSession({}),
    },
    { ipc: "private", kv: kvFor("decoder"), nixl: "5558" },
  );
  injectCase(
    "pd-prefiller-padded",
    withAnn({ [ROLE]: " prefiller\t" }),
    { description: 'role " prefiller\\t" is trimmed: the prefiller key', covers, session: pdSession({}) },
    { ipc: "private", kv: kvFor("prefiller"), nixl: "5558" },
  );
  injectCase(
    "pd-no-role-port",
    basicPod(),
    {
      description: "engine pd {nixlSideChannelPort: 5600}, no role: the plain key, NIXL port 5600",
      covers,
      session: pdSession({ nixlSideChannelPort: 5600 }),
    },
    { ipc: "private", nixl: "5600" },
  );
  injectCase(
    "pd-port-float-form",
    basicPod(),
    {
      description: "nixlSideChannelPort 5600.0 is the integer 5600",
      covers,
      session: pdSession({ nixlSideChannelPort: 5600.0 }),
    },
    { ipc: "private", nixl: "5600" },
  );
  injectCase(
    "pd-blank-role",
    withAnn({ [ROLE]: "  " }),
    { description: "a blank role is no role: the plain key, no warning", covers, session: pdSession({}) },
    { ipc: "private", nixl: "5558" },
  );
  skipCase(
    "pd-unknown-role",
    withAnn({ [ROLE]: "prefill" }),
    { description: "role prefill: skip unknown-pd-role", covers, session: pdSession({}) },
    "unknown-pd-role",
    'pd-role "prefill" is not "prefiller" or "decoder"',
  );
  skipCase(
    "pd-role-case-sensitive",
    withAnn({ [ROLE]: "Decoder" }),
    { description: "roles are compared exactly: Decoder is unknown", covers, session: pdSession({}) },
    "unknown-pd-role",
    'pd-role "Decoder" is not "prefiller" or "decoder"',
  );
  skipCase(
    "pd-unknown-role-cm-missing",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "unknown role but no ConfigMap: engine-not-found comes first",
      covers,
      session: [engineWith({ pd: {} }), cmMissing()],
    },
    "engine-not-found",
    "ConfigMap vllm-ns/cb-connection not found",
  );
  skipCase(
    "pd-decoder-key-missing",
    withAnn({ [ROLE]: "decoder" }),
    {
      description: "role decoder, decoder key absent: connection-config-missing (C1)",
      covers,
      session: pdSession({}, "kv-transfer-config-decoder.json"),
    },
    "connection-config-missing",
    "ConfigMap vllm-ns/cb-connection has no kv-transfer-config-decoder.json value",
  );
  skipCase(
    "pd-decoder-key-not-object",
    withAnn({ [ROLE]: "decoder" }),
    {
      description: "role decoder, decoder value not a JSON object: invalid-connection-config",
      covers,
      session: [
        engineWith({ pd: {} }),
        cmFound({ "kv-transfer-config.json": KV, "kv-transfer-config-decoder.json": "[1]" }),
      ],
    },
    "invalid-connection-config",
    "kv-transfer-config-decoder.json of vllm-ns/cb-connection is not a JSON object",
  );
  injectCase(
    "pd-role-ignored",
    withAnn({ [ROLE]: " decoder " }),
    {
      description: "engine without pd, role decoder: the plain key, no NIXL env, the ignored-role warning",
      covers,
      session: STANDARD,
    },
    { warnings: ['lmcache-injector: lmcache.ai/pd-role "decoder" ignored: engine vllm-ns/cb has no spec.pd'] },
  );
  injectCase(
    "pd-role-ignored-no-engine",
    withAnn({ [ROLE]: "prefiller" }),
    {
      description: "no LMCacheEngine, role prefiller: connection-only, the ignored-role warning",
      covers,
      session: [engineMissing(), cmFound()],
    },
    { warnings: ['lmcache-injector: lmcache.ai/pd-role "prefiller" ignored: engine vllm-ns/cb has no spec.pd'] },
  );
  // an unknown role is read only with spec.pd: without it the pod is wired with the plain key and
  // the ignored-role warning, never skipped unknown-pd-role (regression: issue 30)
  const prefillIgnored = ['lmcache-injector: lmcache.ai/pd-role "prefill" ignored: engine vllm-ns/cb has no spec.pd'];
  injectCase(
    "pd-unknown-role-legacy-engine",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, legacy engine without pd: wired with the plain key and the warning",
      covers,
      session: STANDARD,
    },
    { warnings: prefillIgnored },
  );
  injectCase(
    "pd-unknown-role-current-engine-without-pd",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, current engine without pd: private shm, the plain key and the warning",
      covers,
      session: [engineWith({ gpuVendor: "nvidia", hostIPC: false }), cmFound()],
    },
    { ipc: "private", warnings: prefillIgnored },
  );
  injectCase(
    "pd-unknown-role-no-engine",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, no LMCacheEngine: connection-only, the plain key and the warning",
      covers,
      session: [engineMissing(), cmFound()],
    },
    { warnings: prefillIgnored },
  );
  injectCase(
    "pd-unknown-role-inline-without-pd",
    withAnn({ [ROLE]: "prefill" }),
    {
      description: "role prefill, inline engine without pd: the plain key and the warning",
      covers,
      settings: putJson("settings_pd-inline-without-pd.json", {
        lookup: false,
        engines: { cb: { kvTransferConfig: { kv_connector: "LMCacheMPConnector" } } },
      }),
      session: [],
    },
    { warnings: prefillIgnored, kv: '{"kv_connector":"LMCacheMPConnector"}' },
  );
  injectCase(
    "pd-user-nixl-port",
    podWith((p) => {
      p.spec.containers[0].env = [{ name: "VLLM_NIXL_SIDE_CHANNEL_PORT", value: "9999" }];
    }),
    {
      description: "user VLLM_NIXL_SIDE_CHANNEL_PORT=9999 is kept; only the host entry is added",
      covers,
      session: pdSession({}),
    },
    { ipc: "private", nixl: "5558" },
  );
  skipCase(
    "pd-port-out-of-range",
    basicPod(),
    {
      description: "nixlSideChannelPort 1023: a malformed engine, engine-invalid naming the port",
      covers,
      session: [engineWith({ pd: { nixlSideChannelPort: 1023 } })],
    },
    "engine-invalid",
    "LMCacheEngine vllm-ns/cb is malformed: spec.pd.nixlSideChannelPort is not a whole number in [1024, 65535]",
  );
  skipCase(
    "pd-not-object",
    basicPod(),
    {
      description: "pd is a string: a malformed engine, engine-invalid",
      covers,
      session: [engineWith({ pd: "on" })],
    },
    "engine-invalid",
    "LMCacheEngine vllm-ns/cb is malformed: spec.pd has the wrong JSON type",
  );
  injectCase(
    "pd-port-upper-bound",
    basicPod(),
    {
      description: "nixlSideChannelPort 65535 is in range",
      covers,
      session: pdSession({ nixlSideChannelPort: 65535 }),
    },
    { ipc: "private", nixl: "65535" },
  );
  injectCase(
    "pd-inline-decoder",
    withAnn({ [ROLE]: "decoder" }),
    {
      description: "inline engine with pd and kvTransferConfigDecoder: the decoder's config",
      covers: covers + "; #settings",
      settings: putJson("settings_pd-inline-decoder.json", {
        lookup: false,
        engines: { cb: { kvTransferConfig: { r: "plain" }, kvTransferConfigDecoder: { r: "decoder" }, pd: {} } },
      }),
      session: [],
    },
    { ipc: "private", kv: '{"r":"decoder"}', nixl: "5558" },
  );
  skipCase(
    "pd-inline-prefiller-missing",
    withAnn({ [ROLE]: "prefiller" }),
    {
      description: "inline engine with pd but no kvTransferConfigPrefiller: connection-config-missing",
      covers,
      settings: "settings_pd-inline-decoder.json",
      session: [],
    },
    "connection-config-missing",
    "ConfigMap vllm-ns/cb-connection has no kv-transfer-config-prefiller.json value",
  );
}

// ---- realistic pod (benchmark input) and cluster-object cases
{
  const name = "full-injection";
  const raw = REALISTIC_POD_TEXT;
  const pod = JSON.parse(raw);
  const reqText = `{"uid":"9b2f6c1e-7d4a-4e0b-8c3f-2a1d5e6f7a80","kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"requestKind":{"group":"","version":"v1","kind":"Pod"},"requestResource":{"group":"","version":"v1","resource":"pods"},"name":"vllm-qwen-7b","namespace":"vllm-ns","operation":"CREATE","userInfo":{"username":"alice@example.com","groups":["ml-platform","system:authenticated"]},"object":${raw},"dryRun":false,"options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-client-side-apply","fieldValidation":"Strict"}}\n`;
  const req = put(`request_${name}.json`, reqText);
  const exp = putJson(`expected_${name}.json`, wire(pod));
  addCase(
    name,
    {
      description: "realistic 7 KB vLLM pod (benchmark input): engine found without injection, ConfigMap present",
      covers: "#wiring; #upstream-tests (full injection); benchmark input",
      session: STANDARD,
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
  const expStaged = putJson(
    `expected_full-injection-staging.json`,
    wire(pod, { staging: { ref: STAGING_REF, secrets: ["lmcache-payload-pull"] } }),
  );
  addCase(
    "full-injection-staging",
    {
      description: "realistic pod, engine with payload staging (cluster objects)",
      covers: "#staging; #pull-secrets",
      cluster: "cluster_staging.yml",
    },
    req,
    {
      allowed: true,
      mutated: true,
      object: expStaged,
      warnings: [],
      auditAnnotations: {},
      annotations: { [K.injected]: "true", [K.skip]: null },
    },
  );
}
{
  const yaml = (objs: J[]) => objs.map((o) => "---\n" + JSON.stringify(o, null, 2) + "\n").join("");
  put(
    "cluster_staging.yml",
    "# cluster objects answering get_resource (JSON is YAML)\n" +
      yaml([engineCr(STAGING_INJECTION), connectionCm({ "kv-transfer-config.json": KV })]),
  );
  put(
    "cluster_no-engine.yml",
    "# only the connection ConfigMap exists\n" + yaml([connectionCm({ "kv-transfer-config.json": KV })]),
  );
  put("cluster_empty.yml", "# no objects at all\n[]\n");
  injectCase("cluster-engine-absent", basicPod(), {
    description: "cluster objects: no LMCacheEngine, ConfigMap present: connection-only",
    covers: "#step-9",
    cluster: "cluster_no-engine.yml",
  });
  skipCase(
    "cluster-nothing",
    basicPod(),
    { description: "cluster objects: neither engine nor ConfigMap", covers: "#step-10", cluster: "cluster_empty.yml" },
    "engine-not-found",
    "ConfigMap vllm-ns/cb-connection not found",
  );
}

// ---- settings
settingsCase("settings-empty", "no settings: lookups on", "#settings", {}, true);
settingsCase(
  "settings-full",
  "every setting used",
  "#settings",
  {
    lookup: true,
    engines: {
      cb: {
        kvTransferConfig: { kv_connector: "LMCacheMPConnector" },
        injection: {
          payloadImage: {
            repository: "registry.example.com/lmcache/payload",
            tag: "pinned",
            pullPolicy: "IfNotPresent",
          },
          imagePullSecrets: [{ name: "payload-pull" }],
          targetContainer: "vllm",
        },
      },
    },
  },
  true,
);
settingsCase(
  "settings-kv-not-object",
  "kvTransferConfig is a string",
  "#settings-messages",
  { engines: { cb: { kvTransferConfig: "x" } } },
  false,
  "engines[cb].kvTransferConfig: must be a JSON object",
);
settingsCase(
  "settings-lookup-false-no-engines",
  "lookup:false without engines",
  "#settings-messages",
  { lookup: false },
  false,
  "lookup: lookups are disabled and settings.engines is empty, so the policy can never inject",
);
settingsCase(
  "settings-unknown-key",
  "misspelled lookup",
  "#settings-messages",
  { lookups: true },
  false,
  "lookups: unknown field",
);
settingsCase(
  "settings-lookup-not-bool",
  "lookup is a string",
  "#settings",
  { lookup: "false" },
  false,
  "lookup: must be a boolean",
);
settingsCase(
  "settings-engines-not-object",
  "engines is a list",
  "#settings",
  { engines: [] },
  false,
  "engines: must be an object",
);
settingsCase(
  "settings-invalid-engine-name",
  "engine key with upper case",
  "#settings",
  { engines: { CB: { kvTransferConfig: {} } } },
  false,
  "engines[CB]: invalid engine name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
);
settingsCase(
  "settings-engine-not-object",
  "engine entry is a string",
  "#settings",
  { engines: { cb: "cb-connection" } },
  false,
  "engines[cb]: must be an object",
);
settingsCase(
  "settings-kv-missing",
  "engine without kvTransferConfig",
  "#settings",
  { engines: { cb: {} } },
  false,
  "engines[cb].kvTransferConfig: required",
);
settingsCase(
  "settings-nested-unknown",
  "unknown field inside payloadImage",
  "#settings",
  {
    engines: {
      cb: { kvTransferConfig: {}, injection: { payloadImage: { repository: "reg/p", digest: "sha256:abc" } } },
    },
  },
  false,
  "engines[cb].injection.payloadImage.digest: unknown field",
);
settingsCase(
  "settings-cudagraph-lmcache",
  "cudagraph is CacheBlend-only",
  "#settings",
  { engines: { cb: { kvTransferConfig: {}, injection: { cudagraph: "eager" } } } },
  false,
  "engines[cb].injection.cudagraph: unknown field",
);
settingsCase(
  "settings-footgun",
  "inline payload image is the ImageSpec default",
  "#settings",
  { engines: { cb: { kvTransferConfig: {}, injection: { payloadImage: { repository: "lmcache/vllm-openai" } } } } },
  false,
  'engines[cb].injection.payloadImage.repository: must not be the ImageSpec default "lmcache/vllm-openai" (the engine image is not a payload image)',
);
settingsCase(
  "settings-many-errors",
  'every error is listed, joined by "; "',
  "#settings",
  {
    lookup: 1,
    extra: true,
    engines: {
      cb: {
        kvTransferConfig: [],
        injection: {
          payloadImage: { repository: " ", tag: 5, pullPolicy: "Sometimes" },
          imagePullSecrets: [{ name: "Bad_Name" }],
          targetContainer: "vLLM",
        },
      },
    },
  },
  false,
  [
    "extra: unknown field",
    "lookup: must be a boolean",
    "engines[cb].kvTransferConfig: must be a JSON object",
    "engines[cb].injection.payloadImage.repository: must be a non-empty string",
    "engines[cb].injection.payloadImage.tag: must be a string",
    'engines[cb].injection.payloadImage.pullPolicy: must be one of "Always", "Never", "IfNotPresent"',
    "engines[cb].injection.imagePullSecrets[0].name: must be a valid Secret name (DNS-1123 subdomain)",
    "engines[cb].injection.targetContainer: must be a valid container name (DNS-1123 label)",
  ].join("; "),
);
settingsCase(
  "settings-repository-whitespace",
  "inline repository with a space",
  "#settings",
  { engines: { cb: { kvTransferConfig: {}, injection: { payloadImage: { repository: "reg/p latest" } } } } },
  false,
  "engines[cb].injection.payloadImage.repository: must not contain whitespace",
);
settingsCase(
  "settings-lookup-false-empty-engines",
  "lookup:false with engines {}",
  "#settings",
  { lookup: false, engines: {} },
  false,
  "lookup: lookups are disabled and settings.engines is empty, so the policy can never inject",
);

settingsCase(
  "settings-ipc-mode-invalid",
  "ipcMode outside the values",
  "#settings",
  { ipcMode: "host" },
  false,
  'ipcMode: must be one of "auto", "isolated", "hostIPC", "hostShm"',
);
settingsCase("settings-ipc-mode-isolated", "ipcMode isolated is accepted", "#settings", { ipcMode: "isolated" }, true);
settingsCase(
  "settings-cacheblend-args-unknown",
  "cacheblendArgs is a cacheblend-injector setting",
  "#settings",
  { cacheblendArgs: "current" },
  false,
  "cacheblendArgs: unknown field",
);
settingsCase(
  "settings-inline-current-fields-valid",
  "inline engine with every current-operator field, port at both bounds' edges",
  "#settings",
  {
    engines: {
      a: {
        kvTransferConfig: {},
        hostIPC: false,
        isolatedIPC: true,
        gpuVendor: "amd",
        pd: { nixlSideChannelPort: 1024 },
      },
      b: { kvTransferConfig: {}, gpuVendor: "nvidia", pd: { nixlSideChannelPort: 65535 } },
      c: { kvTransferConfig: {}, pd: { nixlSideChannelPort: 5600.0 } },
      d: { kvTransferConfig: {}, pd: {} },
    },
  },
  true,
);
settingsCase(
  "settings-inline-current-fields-invalid",
  "inline engine current-operator fields with wrong values",
  "#settings",
  {
    engines: {
      a: { kvTransferConfig: {}, hostIPC: "no", isolatedIPC: 1, gpuVendor: "intel", pd: { nixlSideChannelPort: 1023 } },
      b: { kvTransferConfig: {}, pd: { nixlSideChannelPort: 65536 } },
      c: { kvTransferConfig: {}, pd: { nixlSideChannelPort: 5600.5 } },
      d: { kvTransferConfig: {}, pd: [] },
      e: { kvTransferConfig: {}, kvTransferConfigPrefiller: "x", kvTransferConfigDecoder: [] },
    },
  },
  false,
  [
    "engines[a].hostIPC: must be a boolean",
    "engines[a].isolatedIPC: must be a boolean",
    'engines[a].gpuVendor: must be one of "nvidia", "amd"',
    "engines[a].pd.nixlSideChannelPort: must be an integer in [1024, 65535]",
    "engines[b].pd.nixlSideChannelPort: must be an integer in [1024, 65535]",
    "engines[c].pd.nixlSideChannelPort: must be an integer in [1024, 65535]",
    "engines[d].pd: must be an object",
    "engines[e].kvTransferConfigPrefiller: must be a JSON object",
    "engines[e].kvTransferConfigDecoder: must be a JSON object",
  ].join("; "),
);

// ---------------------------------------------------------------- write
function yamlScalar(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}
function casesYaml(): string {
  const lines: string[] = [
    "# lmcache-injector e2e cases (docs/test-data.md). Generated by test/make-test-data.ts; `covers` names",
    "# the anchors of docs/policies/lmcache-injector.md each case shows (steps, upstream tests, D/X codes).",
  ];
  for (const c of cases) {
    lines.push(`- name: ${c.name}`);
    lines.push(`  description: ${yamlScalar(c.description)}`);
    lines.push(`  covers: ${yamlScalar(c.covers)}`);
    if (c.operation) lines.push(`  operation: ${c.operation}`);
    if (c.request) lines.push(`  request: ${c.request}`);
    if (c.settings) lines.push(`  settings: ${c.settings}`);
    if (c.session) lines.push(`  session: ${c.session}`);
    if (c.cluster) lines.push(`  cluster: ${c.cluster}`);
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
