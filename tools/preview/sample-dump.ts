// Generated cluster dumps for `cachewarden preview`: a small one that produces every outcome and
// every skip reason lmcache-injector can reach from cluster objects (tests/preview.test.ts), and a
// large one for the scale check of the benchmark (tools/bench/preview.ts).
import * as yaml from "js-yaml";

type Obj = Record<string, unknown>;

const KV = JSON.stringify({
  kv_connector: "LMCacheMPConnector",
  kv_connector_extra_config: { "lmcache.mp.host": "tcp://cb.team-a.svc.cluster.local", "lmcache.mp.port": "5555" },
  kv_connector_module_path: "lmcache.integration.vllm.lmcache_mp_connector",
  kv_role: "kv_both",
});

export function connection(
  ns: string,
  engine: string,
  data: Record<string, string> | null = { "kv-transfer-config.json": KV },
): Obj {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: `${engine}-connection`, namespace: ns },
    ...(data ? { data } : {}),
  };
}

export function engine(ns: string, name: string, injection?: unknown, kind = "LMCacheEngine", spec: Obj = {}): Obj {
  return {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind,
    metadata: { name, namespace: ns },
    spec: { ...spec, ...(injection !== undefined ? { injection } : {}) },
  };
}

export function podSpec(container: Obj = {}): Obj {
  return { containers: [{ name: "vllm", image: "vllm/vllm-openai:latest", args: ["--model", "m"], ...container }] };
}

export function pod(ns: string, name: string, annotations: Obj = {}, container: Obj = {}, labels: Obj = {}): Obj {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: { app: name, ...labels }, annotations },
    spec: podSpec(container),
  };
}

export function workload(
  kind: "Deployment" | "StatefulSet",
  ns: string,
  name: string,
  annotations: Obj = {},
  labels: Obj = {},
): Obj {
  return {
    apiVersion: "apps/v1",
    kind,
    metadata: { name, namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name, ...labels }, annotations }, spec: podSpec() },
    },
  };
}

const ENGINE = "lmcache.ai/lmcache-engine";
const STAGING = { payloadImage: { repository: "registry.example.com/lmcache/payload", tag: "pinned" } };

/** Every outcome, and every skip reason reachable from cluster objects with the default settings. */
export function mixedObjects(): Obj[] {
  return [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: "team-a", labels: { tier: "gpu" } } },
    engine("team-a", "cb", STAGING),
    connection("team-a", "cb"),
    pod("team-a", "vllm-wired", { [ENGINE]: "cb" }),
    workload("Deployment", "team-a", "web", { [ENGINE]: "cb" }),
    pod("team-a", "plain"),
    pod("team-a", "done", { [ENGINE]: "cb", "lmcache.ai/lmcache-injected": "true" }),
    pod("team-a", "ghost", { [ENGINE]: "ghost" }),
    pod("team-a", "sidecar", { [ENGINE]: "cb", "lmcache.ai/lmcache-container": "sidecar" }),
    pod("team-a", "shell", { [ENGINE]: "cb" }, { command: ["/bin/sh", "-c", "vllm serve"] }),
    connection("team-a", "nokey", { other: "x" }),
    pod("team-a", "nokey", { [ENGINE]: "nokey" }),
    connection("team-a", "badjson", { "kv-transfer-config.json": "[1]" }),
    pod("team-a", "badjson", { [ENGINE]: "badjson" }),
    pod("team-a", "upper", { [ENGINE]: "Bad_Engine" }),
    pod("team-a", "secrets", { [ENGINE]: "cb", "lmcache.ai/lmcache-image-pull-secrets": "Bad_Secret" }),
    engine("team-a", "footgun", { payloadImage: { repository: "lmcache/vllm-openai", tag: "latest" } }),
    connection("team-a", "footgun"),
    pod("team-a", "footgun", { [ENGINE]: "footgun" }),
    engine("team-a", "mangled", { payloadImage: "registry.example.com/p:1" }),
    connection("team-a", "mangled"),
    pod("team-a", "mangled", { [ENGINE]: "mangled" }),
    pod("team-a", "numeric", { [ENGINE]: "cb", "example.com/replicas": 3 }),
    engine("team-b", "blend", STAGING, "CacheBlendEngine", { server: { chunkSize: 128 } }),
    workload("StatefulSet", "team-b", "db"),
  ];
}

/** `kubectl get … -o yaml` output: one List. */
export function listYaml(objects: Obj[]): string {
  return yaml.dump(
    { apiVersion: "v1", kind: "List", metadata: { resourceVersion: "" }, items: objects },
    { lineWidth: -1 },
  );
}

/** A multi-document YAML stream. */
export function streamYaml(objects: Obj[]): string {
  return objects.map((o) => "---\n" + yaml.dump(o, { lineWidth: -1 })).join("");
}

/**
 * `n` objects shaped like a cluster running the injectors: per namespace of 50 objects, one engine
 * and its connection ConfigMap, 4 Deployments, then pods (wired, not opted in, engine missing).
 */
export function scaleObjects(n: number): Obj[] {
  const out: Obj[] = [];
  for (let ns = 0; out.length < n; ns++) {
    const name = `ns-${ns}`;
    const block = [engine(name, "cb", STAGING), connection(name, "cb")];
    for (let i = 0; i < 4; i++) block.push(workload("Deployment", name, `web-${i}`, { [ENGINE]: "cb" }));
    for (let i = 0; block.length < 50; i++)
      block.push(pod(name, `vllm-${i}`, i % 3 === 2 ? {} : { [ENGINE]: i % 3 === 0 ? "cb" : "ghost" }));
    out.push(...block.slice(0, n - out.length));
  }
  return out;
}

const INJECT = { "lmcache.ai/lmcache-inject": "true" };

/**
 * Objects for the rendered-policies fixture (tests/fixtures/preview-policies): the cluster-wide
 * injector selects labelled pods outside kube-system, Kubewarden's namespace, team-c and team-d;
 * in the last two AdmissionPolicies take over:
 * team-c's carries its own engine, team-d's has none and cannot look one up.
 */
export function deployObjects(): Obj[] {
  return [
    engine("team-a", "cb"),
    connection("team-a", "cb"),
    pod("team-a", "labelled", { [ENGINE]: "cb" }, {}, INJECT),
    pod("team-a", "unlabelled", { [ENGINE]: "cb" }),
    pod("kube-system", "system", { [ENGINE]: "cb" }, {}, INJECT),
    pod("kubewarden", "kubewarden", { [ENGINE]: "cb" }, {}, INJECT),
    workload("Deployment", "team-c", "chat", { [ENGINE]: "cb" }, INJECT),
    pod("team-c", "other", { [ENGINE]: "other" }, {}, INJECT),
    connection("team-d", "cb"),
    pod("team-d", "denied", { [ENGINE]: "cb" }, {}, INJECT),
  ];
}

/**
 * The dump of the README's example ("Before you enable"): part of the mixed dump, where the
 * footgun engine has no connection ConfigMap, as the operator never creates one for an invalid engine.
 */
export function readmeObjects(): Obj[] {
  const keep = new Set(["cb", "cb-connection", "vllm-wired", "web", "plain", "ghost", "shell", "footgun", "blend"]);
  return mixedObjects().filter(
    (o) =>
      keep.has(String((o.metadata as Obj).name)) &&
      !(o.kind === "ConfigMap" && (o.metadata as Obj).name !== "cb-connection"),
  );
}
