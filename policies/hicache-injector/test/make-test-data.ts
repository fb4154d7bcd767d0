// Writes policies/hicache-injector/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/hicache-injector/test/make-test-data.ts
//
// Every case states its decision by hand (the reason and detail of a fail-open, the tokens that
// are appended, whether env / mount / volume are added). Only the mechanical JSON edits of a
// decided wiring are done by `wire()` below, written from docs/policies/hicache-injector.md#commit
// and #nfs-wiring, never from the policy's output.
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";

const OUT = testDataDir(__dirname);
const POLICY = "hicache-injector";
const NS = "ns";
const UID = "5f0c9a1e-7d3b-4c2a-9e8f-1b2c3d4e5f60";

const K = {
  skip: "inferencecache.io/skip-inject",
  by: "inferencecache.io/injected-by",
  uid: "inferencecache.io/injected-by-uid",
  skipped: "inferencecache.io/inject-skipped",
};
const ENABLE = "--enable-hierarchical-cache";
const DIR_ENV = "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR";
const L3 = "inferencecache-hicache-l3";

const warn = (reason: string, detail: string) => `${POLICY}: injection skipped (${reason}): ${detail}`;
const INJECT = "inject SGLang HiCache config: ";
const RESOLVE = "resolve SGLang HiCache config: ";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generator edits free-form Kubernetes objects
type J = any;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

// ---------------------------------------------------------------- objects
function pod(opts: { annotations?: Record<string, string>; args?: string[]; containers?: J[] } = {}): J {
  const metadata: J = { name: "sglang-pod", namespace: NS, labels: { app: "sglang" } };
  if (opts.annotations) metadata.annotations = opts.annotations;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata,
    spec: {
      containers: opts.containers ?? [
        { name: "sglang", image: "lmsysorg/sglang:latest", args: opts.args ?? ["--model-path", "m"] },
      ],
    },
  };
}

function request(object: J | undefined, extra: Record<string, unknown> = {}): J {
  const r: J = {
    uid: "2b7e4d1a-9c3f-4e8b-a1d2-3c4b5a6d7e8f",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    requestKind: { group: "", version: "v1", kind: "Pod" },
    requestResource: { group: "", version: "v1", resource: "pods" },
    name: "sglang-pod",
    namespace: NS,
    operation: "CREATE",
    userInfo: { username: "system:serviceaccount:kube-system:replicaset-controller", groups: ["system:authenticated"] },
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
  };
  if (object !== undefined) r.object = object;
  return { ...r, ...extra };
}

/** The canonical host-only backend `hc` of the acceptance defaults, with spec changes merged in. */
function hostOnlySpec(changes: J = {}): J {
  return {
    runtime: "SGLang",
    type: "SGLangHiCache",
    engineSelector: { matchLabels: { app: "sglang" } },
    hiCache: { ratio: "2.0" },
    ...changes,
  };
}

/** The upstream NFS sample's spec. */
function nfsSpec(changes: J = {}, hiCache: J = {}): J {
  return {
    runtime: "SGLang",
    type: "SGLangHiCache",
    engineSelector: { matchLabels: { app: "sglang" } },
    integration: { failOpen: false },
    remoteStorage: {
      provider: "NFS",
      ownership: "External",
      nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/mnt/hicache" },
    },
    hiCache: { ratio: "2.0", storagePrefetchPolicy: "wait_complete", ...hiCache },
    ...changes,
  };
}

function backend(name: string, spec: J, uid = UID): J {
  return {
    apiVersion: "inferencecache.io/v1alpha1",
    kind: "CacheBackend",
    metadata: { name, namespace: NS, uid, resourceVersion: "7312", generation: 1 },
    spec,
  };
}

// ---------------------------------------------------------------- the oracle
interface Wiring {
  container?: number;
  tokens: string[];
  nfs?: { env?: boolean; mount?: boolean; volume?: boolean; mountPath?: string };
  extraEnv?: J[];
  by?: string;
  uid?: string | null;
}

function wire(input: J, w: Wiring): J {
  const out = clone(input);
  const c = out.spec.containers[w.container ?? 0];
  if (w.tokens.length > 0) c.args = [...(c.args ?? []), ...w.tokens];
  const mountPath = w.nfs?.mountPath ?? "/mnt/hicache";
  if (w.nfs?.env) c.env = [...(c.env ?? []), { name: DIR_ENV, value: mountPath }];
  if (w.nfs?.mount) c.volumeMounts = [...(c.volumeMounts ?? []), { name: L3, mountPath }];
  if (w.nfs?.volume)
    out.spec.volumes = [...(out.spec.volumes ?? []), { name: L3, nfs: { server: "192.0.2.10", path: "/hicache" } }];
  for (const e of w.extraEnv ?? []) c.env = [...(c.env ?? []), e];
  out.metadata.annotations = out.metadata.annotations ?? {};
  delete out.metadata.annotations[K.skipped];
  out.metadata.annotations[K.by] = w.by ?? `${NS}/hc`;
  if (w.uid === null) delete out.metadata.annotations[K.uid];
  else out.metadata.annotations[K.uid] = w.uid ?? UID;
  return out;
}

const RATIO_TOKENS = [ENABLE, "--hicache-ratio", "2.0"];
const nfsTokens = (prefetch = "wait_complete") => [
  ...RATIO_TOKENS,
  "--hicache-storage-backend",
  "file",
  "--hicache-storage-prefetch-policy",
  prefetch,
];
const ALL_NFS = { env: true, mount: true, volume: true };

function stripped(input: J): J {
  const out = clone(input);
  const a = out.metadata.annotations ?? {};
  delete a[K.by];
  delete a[K.uid];
  delete a[K.skipped];
  if (Object.keys(a).length === 0) delete out.metadata.annotations;
  return out;
}

function optedOut(input: J): J {
  const out = clone(input);
  const a = out.metadata.annotations;
  delete a[K.by];
  delete a[K.uid];
  a[K.skipped] = "skip-inject-annotation";
  return out;
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
  hostCapabilities?: string[];
  expect: Expect;
}
const cases: Case[] = [];
const files = new Map<string, string>();
const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
const yamlStream = (objs: J[]) => objs.map((o) => "---\n" + JSON.stringify(o, null, 2) + "\n").join("");

files.set("settings_default.json", json({}));
files.set(
  "cluster_hc.yml",
  "# the acceptance default: one host-only HiCache backend `hc`\n" + yamlStream([backend("hc", hostOnlySpec())]),
);
files.set("cluster_nfs.yml", "# the upstream NFS sample as `hc`\n" + yamlStream([backend("hc", nfsSpec())]));
files.set("cluster_empty.yml", "# no CacheBackend in the namespace\n[]\n");

interface ValidateCase {
  name: string;
  description: string;
  covers: string;
  input: J | undefined;
  requestExtra?: Record<string, unknown>;
  /** cluster objects (a new cluster file) or the name of a shared one */
  cluster?: J[] | string;
  session?: string;
  settings?: J | string;
  contextAware?: boolean;
  hostCapabilities?: string[];
  /** the expected object; undefined = no mutation */
  output?: J;
  failOpen?: [string, string];
  annotations?: Record<string, string | null>;
}

function add(v: ValidateCase): void {
  files.set(`request_${v.name}.json`, json(request(v.input, v.requestExtra)));
  let cluster: string | undefined;
  if (Array.isArray(v.cluster)) {
    cluster = `cluster_${v.name}.yml`;
    files.set(cluster, v.cluster.length === 0 ? "[]\n" : yamlStream(v.cluster));
  } else if (v.cluster !== undefined) cluster = v.cluster;
  let settings = "settings_default.json";
  if (typeof v.settings === "string") settings = v.settings;
  else if (v.settings !== undefined) {
    settings = `settings_${v.name}.json`;
    files.set(settings, json(v.settings));
  }
  const expect: Expect = { allowed: true, mutated: v.output !== undefined };
  if (v.output !== undefined) {
    expect.object = `expected_${v.name}.json`;
    files.set(expect.object, json(v.output));
  }
  expect.warnings = v.failOpen ? [warn(v.failOpen[0], v.failOpen[1])] : [];
  expect.auditAnnotations = v.failOpen ? { "skip-reason": v.failOpen[0] } : {};
  if (v.annotations) expect.annotations = v.annotations;
  cases.push({
    name: v.name,
    description: v.description,
    covers: v.covers,
    request: `request_${v.name}.json`,
    settings,
    session: v.session,
    cluster,
    contextAware: v.contextAware,
    hostCapabilities: v.hostCapabilities,
    expect,
  });
}

function settingsCase(name: string, description: string, settings: J, valid: boolean, message?: string): void {
  const file = `settings_${name}.json`;
  files.set(file, json(settings));
  cases.push({
    name,
    description,
    covers: "#settings",
    operation: "validate_settings",
    settings: file,
    expect: message === undefined ? { valid } : { valid, message },
  });
}

// ---- injection (host-only)
const P = pod();
add({
  name: "host-only-ratio",
  description: "acceptance 1: the default host-only backend with ratio 2.0",
  covers: "#acceptance-cases (1); #desired-flags",
  input: P,
  cluster: "cluster_hc.yml",
  output: wire(P, { tokens: RATIO_TOKENS }),
});
{
  const input = pod({
    containers: [
      { name: "sidecar", image: "busybox:1.36", args: ["sleep", "infinity"] },
      { name: "sglang", image: "lmsysorg/sglang:latest", args: ["--model-path", "m"] },
    ],
  });
  input.spec.volumes = [{ name: "cache", emptyDir: {} }];
  add({
    name: "host-only-size-all-optionals",
    description: "sizeGB 64 with write/io/layout; only the sglang container and no volume change",
    covers: "#desired-flags; #upstream-tests",
    input,
    cluster: [
      backend(
        "hc",
        hostOnlySpec({
          hiCache: { sizeGB: 64, writePolicy: "write_through", ioBackend: "kernel", memoryLayout: "page_first" },
        }),
      ),
    ],
    output: wire(input, {
      container: 1,
      tokens: [
        ENABLE,
        "--hicache-size",
        "64",
        "--hicache-write-policy",
        "write_through",
        "--hicache-io-backend",
        "kernel",
        "--hicache-mem-layout",
        "page_first",
      ],
    }),
  });
}
{
  // sizeGB written as a float: cachebackend-validator admits it as the integer 64 (docs/decisions.md,
  // "Integers written as floats"), so the injector wires it (regression of tests/backend-agreement.test.ts)
  const cluster = "cluster_size-integral-float.yml";
  files.set(
    cluster,
    "# `hc` with sizeGB written 64.0\n" +
      yamlStream([backend("hc", hostOnlySpec({ hiCache: { sizeGB: 64 } }))]).replace('"sizeGB": 64', '"sizeGB": 64.0'),
  );
  add({
    name: "size-integral-float",
    description: "sizeGB 64.0 is the integer 64: --hicache-size 64",
    covers: "#step-9; #desired-flags",
    input: P,
    cluster,
    output: wire(P, { tokens: [ENABLE, "--hicache-size", "64"] }),
  });
}
{
  const input = pod({ containers: [{ name: "only", image: "lmsysorg/sglang:latest" }] });
  add({
    name: "ratio-1-5-single-container-no-args",
    description: "ratio 1.5 on the only container, named `only`, which has no args",
    covers: "#engine-container; #commit",
    input,
    cluster: [backend("hc", hostOnlySpec({ hiCache: { ratio: "1.5" } }))],
    output: wire(input, { tokens: [ENABLE, "--hicache-ratio", "1.5"] }),
  });
}
{
  // legacy: no runtime, the engine from integration.engine, backendConfig model only
  const spec = {
    type: "SGLangHiCache",
    integration: { engine: "sglang" },
    engineSelector: { matchLabels: { app: "sglang" } },
    backendConfig: { model: "m" },
    hiCache: { ratio: "2.0", writePolicy: "write_back", ioBackend: "direct", memoryLayout: "layer_first" },
  };
  add({
    name: "legacy-hicache",
    description: "legacy HiCache (integration.engine sglang, backendConfig model) is host-only",
    covers: "#upstream-tests; #fields-read",
    input: P,
    cluster: [backend("hc", spec)],
    output: wire(P, {
      tokens: [
        ...RATIO_TOKENS,
        "--hicache-write-policy",
        "write_back",
        "--hicache-io-backend",
        "direct",
        "--hicache-mem-layout",
        "layer_first",
      ],
    }),
  });
}

// ---- NFS
for (const prefetch of ["wait_complete", "best_effort", "timeout"]) {
  const name = prefetch === "wait_complete" ? "nfs" : `nfs-${prefetch.replace("_", "-")}`;
  add({
    name,
    description: `acceptance 2: the NFS sample, prefetch ${prefetch}`,
    covers: "#acceptance-cases (2); #nfs-wiring",
    input: P,
    cluster:
      prefetch === "wait_complete"
        ? "cluster_nfs.yml"
        : [backend("hc", nfsSpec({}, { storagePrefetchPolicy: prefetch }))],
    output: wire(P, { tokens: nfsTokens(prefetch), nfs: ALL_NFS }),
  });
}
{
  // the upstream worked example: a user env is kept before the wired one
  const input = pod();
  input.spec.containers[0].env = [{ name: "USER_FLAG", value: "preserved" }];
  add({
    name: "nfs-worked-example",
    description: "the upstream worked example: USER_FLAG kept, env/mount/volume added",
    covers: "#upstream-tests",
    input,
    cluster: "cluster_nfs.yml",
    output: wire(input, { tokens: nfsTokens(), nfs: ALL_NFS }),
  });
}
const NFS_OUT = wire(P, { tokens: nfsTokens(), nfs: ALL_NFS });
add({
  name: "nfs-readmission",
  description: "acceptance 3: the output of the NFS case admitted again changes nothing",
  covers: "#idempotency",
  input: NFS_OUT,
  cluster: "cluster_nfs.yml",
});
add({
  name: "host-only-readmission",
  description: "the output of the host-only case admitted again changes nothing",
  covers: "#idempotency",
  input: wire(P, { tokens: RATIO_TOKENS }),
  cluster: "cluster_hc.yml",
});
{
  const input = pod();
  input.spec.containers[0].env = [{ name: DIR_ENV, value: "/mnt/hicache" }];
  add({
    name: "nfs-env-already-present",
    description: "acceptance 4: only the env is there; the rest is completed, env not duplicated",
    covers: "#idempotency; #nfs-wiring",
    input,
    cluster: "cluster_nfs.yml",
    output: wire(input, { tokens: nfsTokens(), nfs: { mount: true, volume: true } }),
  });
}
{
  const input = pod();
  input.spec.containers[0].volumeMounts = [{ name: L3, mountPath: "/mnt/hicache", readOnly: false }];
  add({
    name: "nfs-identical-mount-kept",
    description: "acceptance 37: an identical mount with readOnly: false is kept, not duplicated",
    covers: "#nfs-wiring",
    input,
    cluster: "cluster_nfs.yml",
    output: wire(input, { tokens: nfsTokens(), nfs: { env: true, volume: true } }),
  });
}

// ---- the benchmark's primary case: a realistic SGLang pod, a namespace holding 3 CacheBackends
{
  const input = pod();
  input.metadata.labels = {
    app: "sglang",
    "app.kubernetes.io/name": "sglang",
    "app.kubernetes.io/instance": "llama-70b",
    "pod-template-hash": "7d9f8c6b5",
  };
  input.metadata.generateName = "sglang-llama-70b-7d9f8c6b5-";
  input.metadata.ownerReferences = [
    {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      name: "sglang-llama-70b-7d9f8c6b5",
      uid: "0e6f3a2b-1c4d-4e5f-8a9b-0c1d2e3f4a5b",
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  input.spec.containers = [
    {
      name: "sglang",
      image: "lmsysorg/sglang:v0.5.3-cu126",
      command: ["python3", "-m", "sglang.launch_server"],
      args: ["--model-path", "meta-llama/Llama-3.1-70B-Instruct", "--tp", "4", "--host", "0.0.0.0", "--port", "30000"],
      ports: [{ name: "http", containerPort: 30000, protocol: "TCP" }],
      env: [
        { name: "HF_TOKEN", valueFrom: { secretKeyRef: { name: "hf-token", key: "token" } } },
        { name: "NCCL_DEBUG", value: "WARN" },
      ],
      resources: { limits: { "nvidia.com/gpu": "4", memory: "320Gi" }, requests: { cpu: "16", memory: "320Gi" } },
      volumeMounts: [
        { name: "model-cache", mountPath: "/root/.cache/huggingface" },
        { name: "kube-api-access-x7k2p", mountPath: "/var/run/secrets/kubernetes.io/serviceaccount", readOnly: true },
      ],
      readinessProbe: { httpGet: { path: "/health", port: 30000 }, periodSeconds: 10 },
      terminationMessagePath: "/dev/termination-log",
      terminationMessagePolicy: "File",
      imagePullPolicy: "IfNotPresent",
    },
    {
      name: "metrics-exporter",
      image: "prom/statsd-exporter:v0.28.0",
      ports: [{ name: "metrics", containerPort: 9102, protocol: "TCP" }],
      resources: { requests: { cpu: "50m", memory: "64Mi" } },
    },
  ];
  input.spec.volumes = [
    { name: "model-cache", persistentVolumeClaim: { claimName: "hf-model-cache" } },
    {
      name: "kube-api-access-x7k2p",
      projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: "token" } }], defaultMode: 420 },
    },
  ];
  input.spec.nodeSelector = { "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3" };
  input.spec.tolerations = [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }];
  input.spec.serviceAccountName = "sglang";
  input.spec.restartPolicy = "Always";
  add({
    name: "realistic-three-backends",
    description: "a realistic SGLang pod; the namespace holds 3 CacheBackends, one NFS HiCache backend matches",
    covers: "#nfs-wiring; #step-7",
    input,
    cluster: [
      backend("chat-lmcache", {
        runtime: "VLLM",
        type: "LMCache",
        engineSelector: { matchLabels: { app: "vllm-chat" } },
      }),
      backend(
        "hc",
        nfsSpec(
          { integration: { failOpen: false, engineOverrides: { args: ["--page-size", "64"] } } },
          {
            writePolicy: "write_through",
          },
        ),
      ),
      backend("small-hicache", hostOnlySpec({ engineSelector: { matchLabels: { app: "sglang-small" } } })),
    ],
    output: wire(input, {
      tokens: [
        ...RATIO_TOKENS,
        "--hicache-write-policy",
        "write_through",
        "--hicache-storage-backend",
        "file",
        "--hicache-storage-prefetch-policy",
        "wait_complete",
        "--page-size",
        "64",
      ],
      nfs: ALL_NFS,
    }),
  });
}

// ---- opt-out truth table
const forged = { [K.by]: "ns/x", [K.uid]: "forged" };
for (const [value, optsOut] of [
  ["yes", true],
  ["true", true],
  ["n", true],
  ["false ", true],
  ["OFF", false],
  ["false", false],
  ["off", false],
] as [string, boolean][]) {
  const slug = value.trim().toLowerCase() + (value.endsWith(" ") ? "-trailing-space" : value === "OFF" ? "-upper" : "");
  const input = pod({ annotations: { [K.skip]: value, ...forged } });
  add({
    name: `skip-${slug}`,
    description: `skip-inject ${JSON.stringify(value)}: ${optsOut ? "opt-out, provenance removed, no lookup" : "not an opt-out, injected"}`,
    covers: "#opt-out-truth-table; #acceptance-cases",
    input,
    // an opt-out makes no lookup: an empty session fails any call
    session: optsOut ? "session_no-lookups.yml" : undefined,
    cluster: optsOut ? undefined : "cluster_hc.yml",
    output: optsOut ? optedOut(input) : wire(input, { tokens: RATIO_TOKENS }),
  });
}
files.set("session_no-lookups.yml", "[]\n");
add({
  name: "skip-true-already-marked",
  description: "acceptance 8: opt-out on a pod that already has exactly the marker: no mutation",
  covers: "#opt-out",
  input: pod({ annotations: { [K.skip]: "true", [K.skipped]: "skip-inject-annotation" } }),
  session: "session_no-lookups.yml",
});
{
  const input = pod({ annotations: { [K.skip]: "false", [K.skipped]: "skip-inject-annotation" } });
  add({
    name: "skip-false-clears-stale-marker",
    description: "skip-inject false injects and removes a stale inject-skipped",
    covers: "#provenance",
    input,
    cluster: "cluster_hc.yml",
    output: wire(input, { tokens: RATIO_TOKENS }),
    annotations: { [K.skipped]: null },
  });
}

// ---- selection
{
  const input = pod({ annotations: { [K.by]: "ns/x" } });
  add({
    name: "no-match-forged-provenance",
    description: "acceptance 9: no backend matches; forged injected-by is stripped silently",
    covers: "#step-7; #provenance",
    input,
    cluster: "cluster_empty.yml",
    output: stripped(input),
  });
}
add({
  name: "no-match-clean",
  description: "acceptance 10: no backend matches, no provenance: no mutation",
  covers: "#step-7",
  input: P,
  cluster: [backend("hc", hostOnlySpec({ engineSelector: { matchLabels: { app: "other" } } }))],
});
add({
  name: "two-hicache-matches",
  description: "acceptance 11: alpha and zebra both match: ambiguous, no wiring",
  covers: "#h2; #step-7",
  input: pod({ annotations: { [K.by]: "ns/x" } }),
  cluster: [backend("zebra", hostOnlySpec(), "z-uid"), backend("alpha", hostOnlySpec(), "a-uid")],
  output: stripped(pod({ annotations: { [K.by]: "ns/x" } })),
  failOpen: ["ambiguous-backends", "pod labels match CacheBackends ns/alpha, ns/zebra"],
});
add({
  name: "lmcache-type-match-untouched",
  description: "acceptance 12: the one match is an LMCache backend: pod untouched, forged provenance kept",
  covers: "#h1",
  input: pod({ annotations: { ...forged } }),
  cluster: [backend("lm", { runtime: "SGLang", type: "LMCache", engineSelector: { matchLabels: { app: "sglang" } } })],
});
add({
  name: "hicache-and-lmcache-match",
  description: "acceptance 13: hc (HiCache) and lm (LMCache) both match: ambiguous",
  covers: "#h2",
  input: P,
  cluster: [
    backend("lm", { runtime: "SGLang", type: "LMCache", engineSelector: { matchLabels: { app: "sglang" } } }),
    backend("hc", hostOnlySpec()),
  ],
  failOpen: ["ambiguous-backends", "pod labels match CacheBackends ns/hc, ns/lm"],
});
add({
  name: "empty-selector",
  description: "acceptance 14: selector {} never matches",
  covers: "#step-7",
  input: P,
  cluster: [backend("hc", hostOnlySpec({ engineSelector: { matchLabels: {} } }))],
});
add({
  name: "selector-partial-match",
  description: "a selector with a second label the pod lacks does not match",
  covers: "#step-7",
  input: P,
  cluster: [backend("hc", hostOnlySpec({ engineSelector: { matchLabels: { app: "sglang", tier: "gpu" } } }))],
});

// ---- backend checks at the boundary
const invalid = (text: string): [string, string] => ["invalid-backend", `CacheBackend ${NS}/hc: ${text}`];
const badBackends: [string, string, J, string][] = [
  [
    "vllm-runtime",
    "acceptance 15",
    hostOnlySpec({ runtime: "VLLM" }),
    'no adapter for runtime="vllm" backend="SGLangHiCache"',
  ],
  [
    "nfs-failopen-omitted",
    "acceptance 16",
    nfsSpec({ integration: {} }),
    RESOLVE +
      "integration.failOpen must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency",
  ],
  [
    "nfs-managed",
    "acceptance 17",
    nfsSpec({
      remoteStorage: {
        provider: "NFS",
        ownership: "Managed",
        nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/mnt/hicache" },
      },
    }),
    'unsupported remote-storage provider="NFS" ownership="Managed": no remote-storage provider supports the declaration: provider="NFS" ownership="Managed"',
  ],
  [
    "nfs-server-out-of-range",
    "acceptance 18 (V1)",
    nfsSpec({
      remoteStorage: {
        provider: "NFS",
        ownership: "External",
        nfs: { server: "999.1.1.1", path: "/hicache", mountPath: "/mnt/hicache" },
      },
    }),
    "invalid inline NFS binding: remoteStorage.nfs.server: NFS server must be a valid IPv4 address, IPv6 address, or DNS-1123 hostname",
  ],
  [
    "nfs-server-at-sign",
    "upstream: server @",
    nfsSpec({
      remoteStorage: {
        provider: "NFS",
        ownership: "External",
        nfs: { server: "@", path: "/hicache", mountPath: "/mnt/hicache" },
      },
    }),
    "invalid inline NFS binding: remoteStorage.nfs.server: NFS server must be a valid IPv4 address, IPv6 address, or DNS-1123 hostname",
  ],
  [
    "nfs-mount-dev-shm",
    "acceptance 19 (V2)",
    nfsSpec({
      remoteStorage: {
        provider: "NFS",
        ownership: "External",
        nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/dev/shm" },
      },
    }),
    "invalid inline NFS binding: remoteStorage.nfs.mountPath must not mount remote storage over /proc, /sys or /dev",
  ],
  [
    "nfs-external-endpoint",
    "upstream: External NFS with an endpoint",
    nfsSpec({
      remoteStorage: {
        provider: "NFS",
        ownership: "External",
        endpoint: "nfs.example.com:2049",
        nfs: { server: "192.0.2.10", path: "/hicache", mountPath: "/mnt/hicache" },
      },
    }),
    "invalid inline NFS binding: remoteStorage.endpoint must be empty for an inline NFS binding",
  ],
  [
    "managed-redis",
    "acceptance 20",
    hostOnlySpec({ remoteStorage: { provider: "Redis", ownership: "Managed" } }),
    'runtime adapter does not accept remote binding protocol "resp"',
  ],
  [
    "override-reserved-arg",
    "acceptance 40",
    hostOnlySpec({ integration: { engineOverrides: { args: ["--hicache-ratio=3"] } } }),
    RESOLVE + 'engine override for reserved argument "--hicache-ratio" is unsupported',
  ],
  [
    "ratio-and-size",
    "both sizeGB and ratio",
    hostOnlySpec({ hiCache: { ratio: "2.0", sizeGB: 8 } }),
    RESOLVE + "exactly one of spec.hiCache.sizeGB and ratio must be set",
  ],
  ["size-zero", "sizeGB 0", hostOnlySpec({ hiCache: { sizeGB: 0 } }), RESOLVE + "sizeGB must be at least 1"],
  [
    "host-only-with-prefetch",
    "prefetch policy without NFS",
    hostOnlySpec({ hiCache: { ratio: "2.0", storagePrefetchPolicy: "best_effort" } }),
    RESOLVE + "storagePrefetchPolicy requires remoteStorage.provider=NFS",
  ],
  [
    "size-not-integer",
    "sizeGB is a string",
    hostOnlySpec({ hiCache: { sizeGB: "64" } }),
    "spec.hiCache.sizeGB must be an integer",
  ],
];
for (const [name, why, spec, text] of badBackends) {
  const input = pod({ annotations: { [K.by]: "ns/x", [K.uid]: "forged" } });
  add({
    name: `invalid-backend-${name}`,
    description: `${why}: fail-open invalid-backend, forged provenance stripped`,
    covers: "#step-9",
    input,
    cluster: [backend("hc", spec)],
    output: stripped(input),
    failOpen: invalid(text),
  });
}

// ---- engine container
add({
  name: "no-sglang-container",
  description: "acceptance 21: containers engine and metrics",
  covers: "#engine-container",
  input: pod({
    containers: [
      { name: "engine", image: "lmsysorg/sglang:latest" },
      { name: "metrics", image: "busybox:1.36" },
    ],
  }),
  cluster: "cluster_hc.yml",
  failOpen: [
    "engine-container-not-found",
    'pod has 2 containers [engine metrics] but none is named "sglang"; with several containers the policy does not guess which one runs SGLang',
  ],
});
{
  const input = pod({ containers: [{ name: "worker", image: "lmsysorg/sglang:latest", args: ["--model-path", "m"] }] });
  add({
    name: "single-container-worker",
    description: "acceptance 22: the only container, named worker, is wired",
    covers: "#engine-container",
    input,
    cluster: "cluster_hc.yml",
    output: wire(input, { tokens: RATIO_TOKENS }),
  });
}

// ---- arguments
type ArgOutcome = string[] | { fail: [string, string] };
const argsCase = (name: string, description: string, args: string[], cluster: string | J[], outcome: ArgOutcome) => {
  const input = pod({ args: ["--model-path", "m", ...args] });
  const fail = Array.isArray(outcome) ? undefined : outcome.fail;
  add({
    name,
    description,
    covers: "#arguments",
    input,
    cluster,
    output: Array.isArray(outcome) ? wire(input, { tokens: outcome }) : undefined,
    failOpen: fail,
  });
};
const argConflict = (detail: string): { fail: [string, string] } => ({ fail: ["arg-conflict", INJECT + detail] });
const LMCACHE_ARGS: { fail: [string, string] } = {
  fail: ["lmcache-args-present", INJECT + "native HiCache conflicts with SGLang LMCache arguments"],
};
argsCase(
  "lmcache-enable-flag",
  "acceptance 23: --enable-lmcache",
  ["--enable-lmcache"],
  "cluster_hc.yml",
  LMCACHE_ARGS,
);
argsCase(
  "lmcache-config-file-flag",
  "--lmcache-config-file=/etc/lmcache.yaml",
  ["--lmcache-config-file=/etc/lmcache.yaml"],
  "cluster_hc.yml",
  LMCACHE_ARGS,
);
argsCase(
  "ratio-equals-form-kept",
  "acceptance 24: --hicache-ratio=2 is kept",
  ["--hicache-ratio=2"],
  "cluster_hc.yml",
  [ENABLE],
);
argsCase(
  "ratio-hex-kept",
  "acceptance 25: --hicache-ratio 0x1p1 is equivalent",
  ["--hicache-ratio", "0x1p1"],
  "cluster_hc.yml",
  [ENABLE],
);
argsCase(
  "ratio-conflict",
  "acceptance 26: --hicache-ratio 3",
  ["--hicache-ratio", "3"],
  "cluster_hc.yml",
  argConflict('existing --hicache-ratio="3" conflicts with desired value "2.0"'),
);
const SIZE64 = [backend("hc", hostOnlySpec({ hiCache: { sizeGB: 64 } }))];
argsCase(
  "size-leading-zero-kept",
  "acceptance 27: --hicache-size 064 is equivalent to 64",
  ["--hicache-size", "064"],
  SIZE64,
  [ENABLE],
);
argsCase(
  "size-not-equivalent",
  "--hicache-size 64.0 is not an int64: conflict",
  ["--hicache-size", "64.0"],
  SIZE64,
  argConflict('existing --hicache-size="64.0" conflicts with desired value "64"'),
);
argsCase(
  "size-spec-with-ratio-arg",
  "acceptance 28: sizeGB spec, --hicache-ratio 2 in args",
  ["--hicache-ratio", "2"],
  SIZE64,
  argConflict("existing --hicache-ratio conflicts with spec.hiCache.sizeGB"),
);
argsCase(
  "bare-io-backend",
  "acceptance 29: trailing bare --hicache-io-backend",
  ["--hicache-io-backend"],
  "cluster_hc.yml",
  argConflict("--hicache-io-backend is duplicated or malformed"),
);
argsCase(
  "write-policy-then-flag",
  "acceptance 30: --hicache-write-policy followed by --foo",
  ["--hicache-write-policy", "--foo"],
  "cluster_hc.yml",
  argConflict("--hicache-write-policy is duplicated or malformed"),
);
argsCase(
  "size-minus-one-with-ratio",
  "acceptance 31: --hicache-size -1 is a value; size present with a ratio spec",
  ["--hicache-size", "-1"],
  "cluster_hc.yml",
  argConflict("existing --hicache-size conflicts with spec.hiCache.ratio"),
);
argsCase(
  "storage-backend-without-nfs",
  "acceptance 32: --hicache-storage-backend file on a host-only backend",
  ["--hicache-storage-backend", "file"],
  "cluster_hc.yml",
  argConflict("existing --hicache-storage-backend requires remoteStorage.provider=NFS"),
);
argsCase(
  "enable-with-value",
  "acceptance 33: --enable-hierarchical-cache=true",
  ["--enable-hierarchical-cache=true"],
  "cluster_hc.yml",
  argConflict("--enable-hierarchical-cache is a boolean flag and must not carry a value"),
);
argsCase(
  "enable-twice",
  "--enable-hierarchical-cache twice",
  [ENABLE, ENABLE],
  "cluster_hc.yml",
  argConflict("--enable-hierarchical-cache is duplicated"),
);
argsCase(
  "ratio-twice",
  "ratio twice (2 and =2), both equivalent: still duplicated",
  ["--hicache-ratio", "2", "--hicache-ratio=2"],
  "cluster_hc.yml",
  argConflict("--hicache-ratio is duplicated or malformed"),
);
argsCase(
  "ratio-equals-empty",
  "--hicache-ratio= (empty value) is malformed",
  ["--hicache-ratio="],
  "cluster_hc.yml",
  argConflict("--hicache-ratio is duplicated or malformed"),
);
argsCase(
  "mem-layout-duplicated",
  "--hicache-mem-layout twice (spec sets none)",
  ["--hicache-mem-layout", "page_first", "--hicache-mem-layout", "page_first"],
  "cluster_hc.yml",
  argConflict("--hicache-mem-layout is duplicated or malformed"),
);
argsCase(
  "write-policy-conflict",
  "--hicache-write-policy write_back vs spec write_through",
  ["--hicache-write-policy", "write_back"],
  [backend("hc", hostOnlySpec({ hiCache: { ratio: "2.0", writePolicy: "write_through" } }))],
  argConflict('existing --hicache-write-policy="write_back" conflicts with desired value "write_through"'),
);
argsCase(
  "user-optionals-kept",
  "upstream: the pod already carries every flag (spec sets no optionals): args unchanged",
  [
    ENABLE,
    "--hicache-ratio=2",
    "--hicache-write-policy",
    "write_through",
    "--hicache-io-backend=kernel",
    "--hicache-mem-layout",
    "page_first",
  ],
  [backend("hc", hostOnlySpec({ hiCache: { ratio: "2.0" } }))],
  [],
);
{
  // a conflict with forged provenance: nothing wired, the forged keys go
  const input = pod({ args: ["--model-path", "m", "--hicache-ratio", "3"], annotations: { ...forged } });
  add({
    name: "arg-conflict-strips-forged",
    description: "a fail-open path strips forged provenance, wiring nothing",
    covers: "#provenance; #fail-open",
    input,
    cluster: "cluster_hc.yml",
    output: stripped(input),
    failOpen: argConflict('existing --hicache-ratio="3" conflicts with desired value "2.0"').fail,
  });
}

// ---- NFS conflicts
{
  const envFrom = pod();
  envFrom.spec.containers[0].env = [{ name: DIR_ENV, valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }];
  add({
    name: "nfs-env-value-from",
    description: "acceptance 34: the storage dir env comes from valueFrom",
    covers: "#nfs-wiring",
    input: envFrom,
    cluster: "cluster_nfs.yml",
    failOpen: ["env-conflict", INJECT + `existing env ${DIR_ENV} conflicts with remoteStorage.nfs.mountPath`],
  });
  const envOther = pod();
  envOther.spec.containers[0].env = [{ name: DIR_ENV, value: "/other" }];
  add({
    name: "nfs-env-other-dir",
    description: "upstream: the storage dir env points elsewhere",
    covers: "#nfs-wiring",
    input: envOther,
    cluster: "cluster_nfs.yml",
    failOpen: ["env-conflict", INJECT + `existing env ${DIR_ENV} conflicts with remoteStorage.nfs.mountPath`],
  });
  const envTwice = pod();
  envTwice.spec.containers[0].env = [
    { name: DIR_ENV, value: "/mnt/hicache" },
    { name: DIR_ENV, value: "/mnt/hicache" },
  ];
  add({
    name: "nfs-env-duplicated",
    description: "the storage dir env twice, even identical",
    covers: "#nfs-wiring",
    input: envTwice,
    cluster: "cluster_nfs.yml",
    failOpen: ["env-conflict", INJECT + `env ${DIR_ENV} is duplicated`],
  });
  const vol = pod();
  vol.spec.volumes = [{ name: L3, emptyDir: {} }];
  add({
    name: "nfs-foreign-volume",
    description: "acceptance 35: a user emptyDir volume with the reserved name",
    covers: "#nfs-wiring",
    input: vol,
    cluster: "cluster_nfs.yml",
    failOpen: ["volume-conflict", INJECT + `volume "${L3}" conflicts with remoteStorage.nfs`],
  });
  const volBoth = pod();
  volBoth.spec.volumes = [{ name: L3, nfs: { server: "192.0.2.10", path: "/hicache" }, emptyDir: {} }];
  add({
    name: "nfs-volume-two-sources",
    description: "the reserved volume with the right NFS source plus an emptyDir",
    covers: "#nfs-wiring",
    input: volBoth,
    cluster: "cluster_nfs.yml",
    failOpen: ["volume-conflict", INJECT + `volume "${L3}" conflicts with remoteStorage.nfs`],
  });
  const mount = pod();
  mount.spec.containers[0].volumeMounts = [{ name: "data", mountPath: "/mnt/hicache" }];
  add({
    name: "nfs-foreign-mount-on-path",
    description: "acceptance 36: a user mount named data at /mnt/hicache",
    covers: "#nfs-wiring",
    input: mount,
    cluster: "cluster_nfs.yml",
    failOpen: [
      "mount-conflict",
      INJECT + `volume mount name "${L3}" or path "/mnt/hicache" conflicts with remoteStorage.nfs`,
    ],
  });
  const mountOther = pod();
  mountOther.spec.containers[0].volumeMounts = [{ name: L3, mountPath: "/other" }];
  add({
    name: "nfs-mount-other-path",
    description: "upstream: the reserved mount at /other",
    covers: "#nfs-wiring",
    input: mountOther,
    cluster: "cluster_nfs.yml",
    failOpen: [
      "mount-conflict",
      INJECT + `volume mount name "${L3}" or path "/mnt/hicache" conflicts with remoteStorage.nfs`,
    ],
  });
}

// ---- engineOverrides
{
  const spec = hostOnlySpec({
    integration: { engineOverrides: { args: ["--page-size", "64"], env: [{ name: "FOO", value: "bar" }] } },
  });
  add({
    name: "overrides-appended",
    description: "acceptance 38: --page-size 64 and FOO=bar after the HiCache wiring",
    covers: "#engineoverrides",
    input: P,
    cluster: [backend("hc", spec)],
    output: wire(P, { tokens: [...RATIO_TOKENS, "--page-size", "64"], extraEnv: [{ name: "FOO", value: "bar" }] }),
  });
  const spec2 = hostOnlySpec({ integration: { engineOverrides: { args: ["--model-path", "other"] } } });
  add({
    name: "override-user-owned-ignored",
    description: "acceptance 39: --model-path other is user-owned: ignored",
    covers: "#engineoverrides",
    input: P,
    cluster: [backend("hc", spec2)],
    output: wire(P, { tokens: RATIO_TOKENS }),
  });
}

// ---- settings-carried backends and lookups
add({
  name: "lookup-denied",
  description: "acceptance 41: AdmissionPolicy (no grants) with lookups on",
  covers: "#settings; #h4",
  input: P,
  contextAware: false,
  failOpen: ["lookup-denied", `listing CacheBackends in ${NS} was denied; use settings.backends`],
});
{
  const input = pod({ annotations: { [K.uid]: "stale" } });
  add({
    name: "inline-backend-no-uid",
    description: "acceptance 42: settings carry hc without uid, lookups off: no host call, stale uid removed",
    covers: "#settings; #h4",
    input,
    session: "session_no-lookups.yml",
    settings: { lookup: false, backends: [{ metadata: { name: "hc" }, spec: hostOnlySpec() }] },
    output: wire(input, { tokens: RATIO_TOKENS, uid: null }),
    annotations: { [K.uid]: null, [K.by]: "ns/hc" },
  });
  add({
    name: "inline-backend-admission-policy",
    description: "an AdmissionPolicy whose settings carry an NFS backend with a uid: no lookup needed",
    covers: "#settings; #h4",
    input: P,
    contextAware: false,
    settings: { backends: [{ metadata: { name: "l3", uid: "U" }, spec: nfsSpec() }] },
    output: wire(P, { tokens: nfsTokens(), nfs: ALL_NFS, by: "ns/l3", uid: "U" }),
  });
  const forgedInput = pod({ annotations: { [K.by]: "ns/x" } });
  add({
    name: "inline-backends-empty",
    description: "acceptance 43: backends [] replaces the lookup: strip only",
    covers: "#settings",
    input: forgedInput,
    session: "session_no-lookups.yml",
    settings: { backends: [] },
    output: stripped(forgedInput),
  });
}
{
  const SERVER_ERROR = `ApiError: Internal error occurred: etcdserver: request timed out: InternalError (ErrorResponse { status: "Failure", message: "Internal error occurred: etcdserver: request timed out", reason: "InternalError", code: 500 })`;
  const listRequest = [
    "  request: |",
    "    !KubernetesListResourceNamespace",
    "    api_version: inferencecache.io/v1alpha1",
    "    kind: CacheBackend",
    `    namespace: ${NS}`,
  ];
  files.set(
    "session_list-server-error.yml",
    ["- type: Exchange", ...listRequest, "  response:", "    type: Error", `    message: '${SERVER_ERROR}'`].join(
      "\n",
    ) + "\n",
  );
  const malformed = JSON.stringify({
    apiVersion: "v1",
    kind: "List",
    metadata: { resourceVersion: "" },
    items: [
      {
        apiVersion: "inferencecache.io/v1alpha1",
        kind: "CacheBackend",
        metadata: { namespace: NS },
        spec: hostOnlySpec(),
      },
    ],
  });
  files.set(
    "session_list-malformed-item.yml",
    ["- type: Exchange", ...listRequest, "  response:", "    type: Success", `    payload: '${malformed}'`].join("\n") +
      "\n",
  );
  // a recorded exchange for another namespace: the replaying host cannot answer this list
  files.set(
    "session_list-other-namespace.yml",
    [
      "- type: Exchange",
      ...listRequest.map((l) => l.replace(`namespace: ${NS}`, "namespace: other")),
      "  response:",
      "    type: Success",
      `    payload: '{"apiVersion":"v1","kind":"List","items":[]}'`,
    ].join("\n") + "\n",
  );
  add({
    name: "lookup-replay-mismatch",
    description: "the host cannot answer the list (its recording is for another namespace): lookup-failed",
    covers: "#step-6",
    input: P,
    session: "session_list-other-namespace.yml",
    failOpen: ["lookup-failed", `listing CacheBackends in ${NS} failed`],
  });
  add({
    name: "list-capability-not-granted",
    description: "context-aware, but the list capability is not among the allowed host capabilities",
    covers: "#step-6",
    input: P,
    cluster: "cluster_hc.yml",
    hostCapabilities: ["kubernetes/get_resource"],
    failOpen: ["lookup-denied", `listing CacheBackends in ${NS} was denied; use settings.backends`],
  });
  const input = pod({ annotations: { ...forged } });
  add({
    name: "lookup-server-error",
    description: "acceptance 44: the list lookup fails with a server error",
    covers: "#step-6",
    input,
    session: "session_list-server-error.yml",
    output: stripped(input),
    failOpen: ["lookup-failed", `listing CacheBackends in ${NS} failed`],
  });
  add({
    name: "lookup-item-without-name",
    description: "the host answers a list whose item has no metadata.name",
    covers: "#step-6",
    input: P,
    session: "session_list-malformed-item.yml",
    failOpen: ["lookup-failed", `listing CacheBackends in ${NS} failed`],
  });
}
{
  const input = pod();
  delete input.metadata.namespace;
  add({
    name: "namespace-from-request",
    description: "a pod without metadata.namespace: the lookup uses request.namespace",
    covers: "#step-5",
    input,
    cluster: "cluster_hc.yml",
    output: wire(input, { tokens: RATIO_TOKENS }),
  });
  add({
    name: "no-namespace",
    description: "neither request.namespace nor metadata.namespace: invalid-request",
    covers: "#step-5",
    input,
    requestExtra: { namespace: "" },
    session: "session_no-lookups.yml",
    failOpen: ["invalid-request", "request could not be read: namespace is missing"],
  });
}

// ---- requests
add({
  name: "update-operation",
  description: "acceptance 45: UPDATE passes",
  covers: "#step-2",
  input: P,
  requestExtra: { operation: "UPDATE", oldObject: P },
  session: "session_no-lookups.yml",
});
{
  const input = pod();
  input.metadata.labels = ["app", "sglang"];
  add({
    name: "labels-not-object",
    description: "acceptance 46: metadata.labels is a list",
    covers: "#step-3",
    input,
    session: "session_no-lookups.yml",
    failOpen: ["invalid-request", "request could not be read: metadata.labels is not an object"],
  });
}

// ---- settings
settingsCase("settings-default", "no settings: lookups", {}, true);
settingsCase(
  "settings-inline-nfs",
  "an inline NFS backend with a uid",
  { lookup: false, backends: [{ metadata: { name: "l3", uid: "U" }, spec: nfsSpec() }] },
  true,
);
settingsCase(
  "settings-inline-lmcache",
  "acceptance 47: an inline LMCache backend",
  { backends: [{ metadata: { name: "lm" }, spec: { runtime: "SGLang", type: "LMCache" } }] },
  false,
  "backends[0].spec.type: only SGLangHiCache backends can be defined inline",
);
settingsCase(
  "settings-lookup-false",
  "acceptance 48: lookup false and no backends",
  { lookup: false },
  false,
  "lookup: lookups are disabled and settings.backends is absent, so the policy can never inject",
);
settingsCase("settings-unknown-key", "an unknown top-level key", { lookups: true }, false, "lookups: unknown field");
settingsCase("settings-lookup-not-bool", "lookup is a string", { lookup: "yes" }, false, "lookup: must be a boolean");
settingsCase(
  "settings-backends-not-list",
  "backends is an object",
  { backends: {} },
  false,
  "backends: must be a list",
);
settingsCase(
  "settings-backend-problems",
  "bad name, duplicate, unknown keys, missing spec",
  {
    backends: [
      { metadata: { name: "Bad_Name" }, spec: hostOnlySpec() },
      { metadata: { name: "hc", owner: "me" }, spec: hostOnlySpec(), status: {} },
      { metadata: { name: "hc", uid: 7 } },
      "hc",
    ],
  },
  false,
  [
    "backends[0].metadata.name: must be a valid CacheBackend name (DNS-1123 subdomain)",
    "backends[1].status: unknown field",
    "backends[1].metadata.owner: unknown field",
    'backends[2].metadata.name: duplicate name "hc"',
    "backends[2].metadata.uid: must be a string",
    "backends[2].spec: required",
    "backends[3]: must be an object",
  ].join("; "),
);
settingsCase(
  "settings-backend-check-fails",
  "an inline backend that would fail at the boundary, and an unknown spec key",
  {
    backends: [
      { metadata: { name: "a" }, spec: nfsSpec({ integration: { failOpen: true } }) },
      { metadata: { name: "b" }, spec: hostOnlySpec({ engineSelector: {} }) },
      { metadata: { name: "c" }, spec: hostOnlySpec({ hicache: {} }) },
    ],
  },
  false,
  [
    "backends[0].spec: " +
      RESOLVE +
      "integration.failOpen must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency",
    "backends[1].spec: " + RESOLVE + "spec.engineSelector.matchLabels is required",
    "backends[2].spec.hicache: unknown field",
  ].join("; "),
);
settingsCase(
  "settings-override-env-shape",
  "engineOverrides.env entries with both value and valueFrom, and no name",
  {
    backends: [
      {
        metadata: { name: "hc" },
        spec: hostOnlySpec({
          integration: {
            engineOverrides: {
              env: [{ name: "A", value: "x", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }, { value: "y" }],
            },
          },
        }),
      },
    ],
  },
  false,
  [
    "backends[0].spec.integration.engineOverrides.env[0]: env entry may set value OR valueFrom, not both — engine pods carrying this entry would fail Kubernetes Pod validation",
    "backends[0].spec.integration.engineOverrides.env[1]: engineOverrides env entries must declare a Name",
  ].join("; "),
);

// ---------------------------------------------------------------- write
function yamlScalar(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  return String(v);
}
function casesYaml(): string {
  const lines: string[] = [
    "# hicache-injector e2e cases (docs/test-data.md). Generated by test/make-test-data.ts; `covers` names",
    "# the anchors of docs/policies/hicache-injector.md each case shows.",
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
    if (c.hostCapabilities) lines.push(`  hostCapabilities: [${c.hostCapabilities.map(yamlScalar).join(", ")}]`);
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
