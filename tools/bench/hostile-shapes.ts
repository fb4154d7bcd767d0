// The shapes of the hostile-input suite (hostile.ts runs them): for each policy, requests of about
// 1.5 MiB grown from one of the policy's own test_data requests into a shape built to be expensive
// (long strings of escapes, objects with 100,000+ keys, lists with 50,000+ items, long annotation
// values the policy parses). Generated here, never stored.
import * as fs from "node:fs";
import * as path from "node:path";
import { POLICIES_DIR } from "./policies";

/** Every hostile request is grown to at least this size (the 1.5 MiB). */
export const HOSTILE_REQUEST_BYTES = 1.5 * 1024 * 1024;

export interface HostileShape {
  policy: string;
  name: string;
  description: string;
  payload: Buffer;
}

type Json = Record<string, unknown>;

function readJson(file: string): Json {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Json;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * The smallest `n` (doubling, then bisecting) for which `make(n)` is at least `target` bytes, so
 * every shape lands just above the target whatever its per-item size.
 */
export function growTo(make: (n: number) => Buffer, target: number): Buffer {
  let hi = 1;
  while (make(hi).length < target) hi *= 2;
  let lo = Math.floor(hi / 2);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (make(mid).length < target) lo = mid;
    else hi = mid;
  }
  return make(hi);
}

function payloadOf(request: Json, settings: Json): Buffer {
  return Buffer.from(JSON.stringify({ request, settings }), "utf8");
}

type Mutator = (request: Json, n: number) => void;

function shape(
  policy: string,
  name: string,
  description: string,
  base: Json,
  settings: Json,
  mutate: Mutator,
  target: number,
): HostileShape {
  const payload = growTo((n) => {
    const request = clone(base);
    mutate(request, n);
    return payloadOf(request, settings);
  }, target);
  return { policy, name, description, payload };
}

// small accessors over the parsed test_data requests (shapes are known: these are our fixtures)
const obj = (v: unknown): Json => v as Json;
const objectOf = (r: Json): Json => obj(r.object);
const specOf = (r: Json): Json => obj(objectOf(r).spec);
const injectionOf = (r: Json): Json => obj(specOf(r).injection);
const imageOf = (r: Json): Json => obj(injectionOf(r).payloadImage);
const annotationsOf = (r: Json): Json => obj(obj(objectOf(r).metadata).annotations);
const containersOf = (r: Json): Json[] => specOf(r).containers as Json[];
const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** Kubernetes' limit for all of an object's annotations together (keys and values, bytes). */
export const MAX_ANNOTATIONS_BYTES = 262144;

/** `s0,s1,…` exactly `bytes` long (the last name cut to fit). */
function namesFilling(bytes: number): string {
  const parts: string[] = [];
  let length = -1;
  for (let i = 0; length < bytes; i++) {
    const name = `s${i}`;
    parts.push(name);
    length += name.length + 1;
  }
  return parts.join(",").slice(0, bytes);
}

/** `n` labels added to the object (padding that every policy reads past cheaply). */
function labelsOf(r: Json, n: number): void {
  const metadata = obj(objectOf(r).metadata);
  metadata.labels ??= {};
  const labels = obj(metadata.labels);
  for (let i = 0; i < n; i++) labels[`l${i}`] = "v";
}

type ShapeMaker = (name: string, description: string, mutate: Mutator) => HostileShape;

/** An injector's pull-secret override annotation: over Kubernetes' limit for all annotations (a
 *  quick skip) and at it (the longest list an injector reads). */
function pullSecretAnnotationShapes(s: ShapeMaker, key: string): HostileShape[] {
  return [
    s(
      "pull-secrets-annotation-150k",
      "the pull-secrets annotation lists 150,000+ names (over Kubernetes' limit for all annotations: not read)",
      (r, n) => {
        annotationsOf(r)[key] = range(n, (i) => `s${i}`).join(",");
      },
    ),
    s(
      "pull-secrets-annotation-at-limit",
      "the pull-secrets annotation at Kubernetes' 262,144-byte limit (39,000 names), 100,000+ labels beside",
      (r, n) => {
        annotationsOf(r)[key] = namesFilling(MAX_ANNOTATIONS_BYTES - key.length);
        labelsOf(r, n);
      },
    ),
  ];
}

/**
 * Shapes of the admission request around the object, the same for every policy: what the API
 * server fills in (the user's groups, the namespace) reaches the guest whatever the object is.
 */
function requestLevelShapes(s: ShapeMaker): HostileShape[] {
  return [
    s("long-groups", "userInfo.groups has 80,000+ items", (r, n) => {
      obj(r.userInfo).groups = range(n, (i) => `group-${i}`);
    }),
    s(
      "long-namespace",
      "the request's and the object's namespace are a long run of backslashes (a namespace is read, looked up and echoed)",
      (r, n) => {
        r.namespace = "\\".repeat(n);
        const metadata = obj(objectOf(r).metadata);
        metadata.namespace = r.namespace;
      },
    ),
  ];
}

function cacheengineShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "cacheengine-validator", "test_data");
  const base = readJson(path.join(dir, "request_cb-base.json"));
  const p = "cacheengine-validator";
  const s = (name: string, description: string, mutate: Mutator, from: Json = base): HostileShape =>
    shape(p, name, description, from, {}, mutate, target);
  return [
    s("backslash-pull-policy", "payloadImage.pullPolicy is a run of backslashes (echoed, each one escaped)", (r, n) => {
      imageOf(r).pullPolicy = "\\".repeat(n);
    }),
    s("control-char-pull-policy", "payloadImage.pullPolicy is a run of U+0001 (echoed as \\x01)", (r, n) => {
      imageOf(r).pullPolicy = "\u0001".repeat(n);
    }),
    s("quoted-name-and-tag", "metadata.name is a run of quotes and the tag a run of tabs (both echoed)", (r, n) => {
      obj(objectOf(r).metadata).name = '"'.repeat(n);
      imageOf(r).tag = "\t".repeat(n);
    }),
    s(
      "many-violations",
      "imagePullSecrets holds tens of thousands of names that are not DNS-1123 subdomains",
      (r, n) => {
        injectionOf(r).imagePullSecrets = range(n, (i) => ({ name: `Bad_${i}` }));
      },
    ),
    s(
      "many-violations-update",
      "UPDATE: old and new engines both carry tens of thousands of bad pull secret names, differently ordered",
      (r, n) => {
        r.operation = "UPDATE";
        injectionOf(r).imagePullSecrets = range(n, (i) => ({ name: `Bad_${i}` }));
        const old = clone(objectOf(r));
        obj(obj(old.spec).injection).imagePullSecrets = range(n, (i) => ({ name: `Bad_${n - i}` }));
        r.oldObject = old;
      },
    ),
    s("long-valid-list", "imagePullSecrets holds 50,000+ valid names", (r, n) => {
      injectionOf(r).imagePullSecrets = range(n, (i) => ({ name: `pull-secret-${i}` }));
    }),
    s("wide-payload-image", "payloadImage has 100,000+ unknown keys beside the ones the rules read", (r, n) => {
      const image = imageOf(r);
      for (let i = 0; i < n; i++) image[`k${i}`] = i;
    }),
    s("wide-labels", "metadata.labels has 100,000+ keys", (r, n) => {
      const labels = obj(obj(objectOf(r).metadata).labels);
      for (let i = 0; i < n; i++) labels[`l${i}`] = "v";
    }),
    ...requestLevelShapes(s),
  ];
}

function cachebackendShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "cachebackend-validator", "test_data");
  const base = readJson(path.join(dir, "request_nfs-sample.json"));
  const legacy = readJson(path.join(dir, "request_resources-negative.json"));
  const p = "cachebackend-validator";
  const s = (name: string, description: string, mutate: Mutator, from: Json = base): HostileShape =>
    shape(p, name, description, from, {}, mutate, target);
  const nfsOf = (r: Json): Json => obj(obj(specOf(r).remoteStorage).nfs);
  const overridesOf = (r: Json): Json => {
    const integration = obj(specOf(r).integration);
    integration.engineOverrides ??= {};
    return obj(integration.engineOverrides);
  };
  return [
    s("backslash-ratio", "hiCache.ratio is a run of backslashes (echoed, each one escaped)", (r, n) => {
      obj(specOf(r).hiCache).ratio = "\\".repeat(n);
    }),
    s("control-char-server", "the NFS server is a run of U+0001 (echoed as \\x01)", (r, n) => {
      nfsOf(r).server = "\u0001".repeat(n);
    }),
    s(
      "quoted-name-and-mount-path",
      "metadata.name is a run of quotes and mountPath a run of tabs (both echoed)",
      (r, n) => {
        obj(objectOf(r).metadata).name = '"'.repeat(n);
        nfsOf(r).mountPath = "\t".repeat(n);
      },
    ),
    s("many-violations", "engineOverrides.env holds tens of thousands of invalid names", (r, n) => {
      overridesOf(r).env = range(n, (i) => ({ name: `${i}BAD` }));
    }),
    s(
      "many-violations-update",
      "UPDATE: old and new backends both carry tens of thousands of invalid env names, differently ordered",
      (r, n) => {
        r.operation = "UPDATE";
        overridesOf(r).env = range(n, (i) => ({ name: `${i}BAD` }));
        const old = clone(objectOf(r));
        obj(obj(obj(old.spec).integration).engineOverrides).env = range(n, (i) => ({ name: `${n - i}BAD` }));
        r.oldObject = old;
      },
    ),
    s("long-valid-list", "engineOverrides.args holds 50,000+ valid flags", (r, n) => {
      overridesOf(r).args = range(n, (i) => `--flag-${i}=v`);
    }),
    s(
      "wide-backend-config",
      "backendConfig has 100,000+ keys (each one a HiCache violation, in sorted order)",
      (r, n) => {
        const config: Json = {};
        for (let i = 0; i < n; i++) config[`k${n - i}`] = "v";
        specOf(r).backendConfig = config;
      },
    ),
    s(
      "many-resources",
      "legacy spec.resources.requests has 50,000+ extended resources without limits",
      (r, n) => {
        const requests: Json = {};
        for (let i = 0; i < n; i++) requests[`example.com/r${i}`] = "1";
        obj(specOf(r).resources).requests = requests;
      },
      legacy,
    ),
    s("wide-labels", "metadata.labels has 100,000+ keys", (r, n) => {
      const metadata = obj(objectOf(r).metadata);
      metadata.labels ??= {};
      const labels = obj(metadata.labels);
      for (let i = 0; i < n; i++) labels[`l${i}`] = "v";
    }),
    ...requestLevelShapes(s),
  ];
}

function lmcacheShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "lmcache-injector", "test_data");
  const base = readJson(path.join(dir, "request_settings-engine-staging.json"));
  const settings = readJson(path.join(dir, "settings_engine-cb-inline-staging.json"));
  const p = "lmcache-injector";
  const s = (name: string, description: string, mutate: Mutator): HostileShape =>
    shape(p, name, description, base, settings, mutate, target);
  const vllm = (r: Json): Json => containersOf(r)[1];
  return [
    s("env-50k", "the target container has 50,000+ env entries", (r, n) => {
      vllm(r).env = range(n, (i) => ({ name: `E_${i}`, value: "v" }));
    }),
    s("args-50k", "the target container has 50,000+ args", (r, n) => {
      vllm(r).args = range(n, (i) => `--a${i}`);
    }),
    s("annotations-130k", "the pod has 130,000+ annotations", (r, n) => {
      const a = annotationsOf(r);
      for (let i = 0; i < n; i++) a[`example.com/a${i}`] = "v";
    }),
    s("containers-50k-target-last", "50,000+ containers, the target last", (r, n) => {
      const target = vllm(r);
      specOf(r).containers = [...range(n, (i) => ({ name: `c${i}`, image: "busybox" })), target];
    }),
    s("volumes-50k", "50,000+ volumes (staging adds one)", (r, n) => {
      specOf(r).volumes = range(n, (i) => ({ name: `v${i}`, emptyDir: {} }));
    }),
    s("pod-pull-secrets-50k", "50,000+ pod imagePullSecrets (staging merges its own)", (r, n) => {
      specOf(r).imagePullSecrets = range(n, (i) => ({ name: `s${i}` }));
    }),
    ...pullSecretAnnotationShapes(s, "lmcache.ai/lmcache-image-pull-secrets"),
    s(
      "bad-pull-secrets-annotation",
      "the pull-secrets annotation is one long invalid name of control characters (echoed in the skip warning)",
      (r, n) => {
        annotationsOf(r)["lmcache.ai/lmcache-image-pull-secrets"] = "\u0001".repeat(n);
      },
    ),
    s(
      "bad-engine-reference",
      "the engine annotation is a long run of backslashes (echoed in the skip warning)",
      (r, n) => {
        annotationsOf(r)["lmcache.ai/lmcache-engine"] = "\\".repeat(n);
      },
    ),
    s(
      "unknown-container-name",
      "the container annotation names a missing container with a long run of quotes (echoed)",
      (r, n) => {
        annotationsOf(r)["lmcache.ai/lmcache-container"] = '"'.repeat(n);
      },
    ),
    ...requestLevelShapes(s),
  ];
}

function cacheblendShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "cacheblend-injector", "test_data");
  const base = readJson(path.join(dir, "request_settings-engine-qualified-key.json"));
  const settings = readJson(path.join(dir, "settings_settings-engine-qualified-key.json"));
  const p = "cacheblend-injector";
  const s = (name: string, description: string, mutate: Mutator): HostileShape =>
    shape(p, name, description, base, settings, mutate, target);
  const vllm = (r: Json): Json => containersOf(r)[0];
  return [
    s("env-50k", "the target container has 50,000+ env entries (PYTHONPATH is looked for)", (r, n) => {
      vllm(r).env = range(n, (i) => ({ name: `E_${i}`, value: "v" }));
    }),
    s("args-50k", "the target container has 50,000+ args (each of the seven flags scans them)", (r, n) => {
      vllm(r).args = range(n, (i) => `--a${i}`);
    }),
    s("containers-50k-target-last", "50,000+ containers, the target last", (r, n) => {
      const target = vllm(r);
      annotationsOf(r)["lmcache.ai/cacheblend-container"] = "vllm";
      specOf(r).containers = [...range(n, (i) => ({ name: `c${i}`, image: "busybox" })), target];
    }),
    s("volumes-50k", "50,000+ volumes (staging adds one)", (r, n) => {
      specOf(r).volumes = range(n, (i) => ({ name: `v${i}`, emptyDir: {} }));
    }),
    s("annotations-130k", "the pod has 130,000+ annotations", (r, n) => {
      const a = annotationsOf(r);
      for (let i = 0; i < n; i++) a[`example.com/a${i}`] = "v";
    }),
    ...pullSecretAnnotationShapes(s, "lmcache.ai/cacheblend-image-pull-secrets"),
    s(
      "bad-engine-reference",
      "the engine annotation is a namespace and a long run of backslashes (echoed in the skip warning)",
      (r, n) => {
        annotationsOf(r)["lmcache.ai/cacheblend-engine"] = "vllm-ns/" + "\\".repeat(n);
      },
    ),
    s(
      "unknown-container-name",
      "the container annotation names a missing container with a long run of quotes (echoed)",
      (r, n) => {
        annotationsOf(r)["lmcache.ai/cacheblend-container"] = '"'.repeat(n);
      },
    ),
    ...requestLevelShapes(s),
  ];
}

function hicacheShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "hicache-injector", "test_data");
  const base = readJson(path.join(dir, "request_realistic-three-backends.json"));
  // the backend travels in the settings, so every shape runs the whole NFS plan without a host
  const settings = readJson(path.join(dir, "settings_inline-backend-admission-policy.json"));
  const p = "hicache-injector";
  const s = (name: string, description: string, mutate: Mutator): HostileShape =>
    shape(p, name, description, base, settings, mutate, target);
  const sglang = (r: Json): Json => containersOf(r)[0];
  return [
    s("env-50k", "the engine container has 50,000+ env entries (the storage-dir env is searched)", (r, n) => {
      sglang(r).env = range(n, (i) => ({ name: `E_${i}`, value: "v" }));
    }),
    s("args-50k", "the engine container has 50,000+ args (every HiCache flag is scanned for)", (r, n) => {
      sglang(r).args = range(n, (i) => `--a${i}`);
    }),
    s("mounts-50k", "the engine container has 50,000+ volume mounts (searched by name and path)", (r, n) => {
      sglang(r).volumeMounts = range(n, (i) => ({ name: `m${i}`, mountPath: `/m/${i}` }));
    }),
    s("volumes-50k", "50,000+ pod volumes (searched for the L3 volume)", (r, n) => {
      specOf(r).volumes = range(n, (i) => ({ name: `v${i}`, emptyDir: {} }));
    }),
    s("containers-50k-engine-last", "50,000+ containers, sglang last", (r, n) => {
      const engine = sglang(r);
      specOf(r).containers = [...range(n, (i) => ({ name: `c${i}`, image: "busybox" })), engine];
    }),
    s("labels-100k", "the pod has 100,000+ labels (the selector is matched against them)", (r, n) => {
      const labels = obj(obj(objectOf(r).metadata).labels);
      for (let i = 0; i < n; i++) labels[`l${i}`] = "v";
    }),
    s(
      "conflicting-ratio-backslashes",
      "--hicache-ratio carries a long run of backslashes (echoed in the arg-conflict warning)",
      (r, n) => {
        sglang(r).args = ["--hicache-ratio", "\\".repeat(n)];
      },
    ),
    s("skip-annotation-control-chars", "the skip-inject annotation is a long run of U+0001 (an opt-out)", (r, n) => {
      annotationsOrNew(r)["inferencecache.io/skip-inject"] = "\u0001".repeat(n);
    }),
    ...requestLevelShapes(s),
  ];
}

function cachebackendDefaulterShapes(target: number): HostileShape[] {
  const dir = path.join(POLICIES_DIR, "cachebackend-defaulter", "test_data");
  const base = readJson(path.join(dir, "request_realistic-legacy-backend.json"));
  const p = "cachebackend-defaulter";
  const s = (name: string, description: string, mutate: Mutator): HostileShape =>
    shape(p, name, description, base, {}, mutate, target);
  const canonical = (r: Json): Json => {
    const spec = specOf(r);
    spec.runtime = "SGLang";
    delete spec.resources;
    return spec;
  };
  return [
    s("wide-spec", "spec has 100,000+ unknown keys beside the ones the steps read", (r, n) => {
      const spec = specOf(r);
      for (let i = 0; i < n; i++) spec[`k${i}`] = i;
    }),
    s("wide-integration", "spec.integration has 100,000+ unknown keys; the engine and timeout are appended", (r, n) => {
      const integration: Json = {};
      for (let i = 0; i < n; i++) integration[`k${i}`] = "v";
      specOf(r).integration = integration;
    }),
    s(
      "long-copied-timeout",
      "a canonical backend's integration.firstEventTimeout is 1.5 MiB of 1s1s… (parsed, then copied into observation)",
      (r, n) => {
        canonical(r).integration = { firstEventTimeout: "1s".repeat(n) };
      },
    ),
    s(
      "long-fraction-timeout",
      "integration.firstEventTimeout is 1.5 MiB of fraction digits (precision stops, parsing goes on)",
      (r, n) => {
        specOf(r).integration = { firstEventTimeout: "0." + "1".repeat(n) + "s" };
      },
    ),
    s(
      "long-bad-timeout",
      "integration.firstEventTimeout is a 1.5 MiB run of backslashes (not a duration: not defaulted)",
      (r, n) => {
        specOf(r).integration = { firstEventTimeout: "\\".repeat(n) };
      },
    ),
    s("long-runtime", "spec.runtime is a 1.5 MiB run of A (lower-cased into the engine it writes)", (r, n) => {
      canonical(r).runtime = "A".repeat(n);
    }),
    s("escaped-model", "backendConfig.model is a 1.5 MiB run of \\u0001 escapes (copied as written)", (r, n) => {
      obj(specOf(r).backendConfig).model = "\u0001".repeat(n);
    }),
    s("managed-fields-50k", "metadata.managedFields has 50,000+ entries", (r, n) => {
      const metadata = obj(objectOf(r).metadata);
      const entry = (metadata.managedFields as Json[])[0];
      metadata.managedFields = range(n, (i) => ({
        ...entry,
        time: `2026-12-05T09:12:${String(i % 60).padStart(2, "0")}Z`,
      }));
    }),
    s("wide-labels", "metadata.labels has 100,000+ keys", (r, n) => {
      labelsOf(r, n);
    }),
    {
      policy: p,
      name: "repeated-integration",
      description: "spec repeats the integration key 50,000+ times (the last one counts)",
      // JSON.stringify cannot repeat a key: the member is written n times into the text
      payload: growTo((n) => {
        const text = payloadOf(base, {}).toString("utf8");
        const at = text.indexOf('"spec":{') + '"spec":{'.length;
        return Buffer.from(text.slice(0, at) + '"integration":{"mode":"Offload"},'.repeat(n) + text.slice(at), "utf8");
      }, target),
    },
    ...requestLevelShapes(s),
  ];
}

function annotationsOrNew(r: Json): Json {
  const metadata = obj(objectOf(r).metadata);
  metadata.annotations ??= {};
  return obj(metadata.annotations);
}

/** Every hostile shape of `policy` (an empty list for a policy the suite does not know yet). */
export function hostileShapes(policy: string, target = HOSTILE_REQUEST_BYTES): HostileShape[] {
  if (policy === "cacheengine-validator") return cacheengineShapes(target);
  if (policy === "lmcache-injector") return lmcacheShapes(target);
  if (policy === "cacheblend-injector") return cacheblendShapes(target);
  if (policy === "hicache-injector") return hicacheShapes(target);
  if (policy === "cachebackend-validator") return cachebackendShapes(target);
  if (policy === "cachebackend-defaulter") return cachebackendDefaulterShapes(target);
  return [];
}
