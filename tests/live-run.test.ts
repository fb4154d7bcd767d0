// `cachewarden run` against a live cluster (the suite's kube-apiserver): a lookup answered from the
// kubeconfig's cluster, recorded with --record-host-capabilities-interactions and replayed to the same
// decision; `can_i` as a SubjectAccessReview; and each failure's text, both what the guest reads
// (policy-evaluator's) and the one line the user reads: an unreachable cluster, expired and missing
// credentials, a kind whose CRD is not installed, a forbidden list.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import { Kube, kubeServer } from "./helpers/apiserver";
import { ROOT } from "./helpers/host-guests";
import { registerRun } from "../tools/host/commands";
import { HostCapabilities } from "../tools/host/capabilities";
import { parseReplaySession } from "../tools/host/replay";
import { connection, engine } from "../tools/preview/sample-dump";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const LMCACHE = path.join(ROOT, "policies", "lmcache-injector");
let kube: Kube;
let ns: string;
let dir: string;

before(async () => {
  kube = await kubeServer();
  kube.installCRDs([path.join(ROOT, "tests", "fixtures", "crds", "lmcache", "lmcache.lmcache.ai_lmcacheengines.yaml")]);
  const cb = engine("x", "cb", { payloadImage: { repository: "registry.example.com/lmcache/payload", tag: "pinned" } });
  (cb.spec as J).l1 = { sizeGB: 1 };
  delete (cb.metadata as J).namespace;
  const cm = connection("x", "cb");
  delete (cm.metadata as J).namespace;
  ns = kube.namespace({ prefix: "live-run", objects: [cb, cm] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-live-run-"));
});

async function run(args: string[]): Promise<{ stdout: string; stderr: string; error?: string }> {
  const out = { stdout: "", stderr: "" };
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  registerRun(program, {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
  });
  try {
    await program.parseAsync(["node", "cachewarden", "run", ...args]);
    return out;
  } catch (e) {
    return { ...out, error: (e as Error).message };
  }
}

/** The bundled basic-injection request, moved into the test namespace. */
function podRequest(): string {
  const r = JSON.parse(fs.readFileSync(path.join(LMCACHE, "test_data", "request_basic-injection.json"), "utf8"));
  r.namespace = ns;
  if (r.object?.metadata) r.object.metadata.namespace = ns;
  const file = path.join(dir, `request-${ns}.json`);
  fs.writeFileSync(file, JSON.stringify(r));
  return file;
}

describe("run with a kubeconfig", () => {
  test("lookups are answered live; the recorded session replays to the same decision", async () => {
    const session = path.join(dir, "session.yml");
    const base = [path.join(LMCACHE, "annotated-policy.wasm"), "-r", podRequest(), "--allow-context-aware"];
    const live = await run([
      ...base,
      "--kubeconfig",
      kube.kubeconfig,
      "--record-host-capabilities-interactions",
      session,
    ]);
    assert.equal(live.error, undefined);
    assert.equal(live.stderr, "");
    const answer = JSON.parse(live.stdout);
    assert.equal(answer.allowed, true);
    assert.equal(answer.patchType, "JSONPatch", "the pod is wired with the live engine and ConfigMap");
    const exchanges = parseReplaySession(fs.readFileSync(session, "utf8"), session);
    assert.deepEqual(
      exchanges.map((e) => [e.request.variant, e.request.fields.kind, e.request.fields.namespace, e.response.type]),
      [
        ["KubernetesGetResource", "LMCacheEngine", ns, "Success"],
        ["KubernetesGetResource", "ConfigMap", ns, "Success"],
      ],
    );
    const replayed = await run([...base, "--replay-host-capabilities-interactions", session]);
    assert.equal(replayed.stdout, live.stdout, "the replay gives the same AdmissionResponse, byte for byte");
    assert.equal(replayed.stderr, "");
  });

  test("a missing engine is recorded as kwctl records an error: without the runtime's prefix", async () => {
    const r = JSON.parse(fs.readFileSync(podRequest(), "utf8"));
    r.object.metadata.annotations["lmcache.ai/lmcache-engine"] = "ghost";
    const request = path.join(dir, "ghost.json");
    fs.writeFileSync(request, JSON.stringify(r));
    const session = path.join(dir, "ghost.yml");
    const args = [path.join(LMCACHE, "annotated-policy.wasm"), "-r", request, "--allow-context-aware"];
    const live = await run([
      ...args,
      "--kubeconfig",
      kube.kubeconfig,
      "--record-host-capabilities-interactions",
      session,
    ]);
    const text = fs.readFileSync(session, "utf8");
    assert.match(text, /message: Cannot find lmcache\.lmcache\.ai\/v1alpha1\/LMCacheEngine named 'ghost'/);
    const replayed = await run([...args, "--replay-host-capabilities-interactions", session]);
    assert.equal(replayed.stdout, live.stdout);
  });

  test("flags that cannot go together, and --kubeconfig without --allow-context-aware", async () => {
    const base = [path.join(LMCACHE, "annotated-policy.wasm"), "-r", podRequest()];
    assert.equal(
      (await run([...base, "--kubeconfig", kube.kubeconfig])).error,
      "--kubeconfig and --context need --allow-context-aware: without it no Kubernetes resource may be read",
    );
    assert.equal(
      (await run([...base, "--allow-context-aware", "--kubeconfig", kube.kubeconfig, "--cluster-objects", "x.yml"]))
        .error,
      "--cluster-objects and --kubeconfig/--context cannot be used together",
    );
    assert.equal(
      (
        await run([
          ...base,
          "--replay-host-capabilities-interactions",
          "a.yml",
          "--record-host-capabilities-interactions",
          "b.yml",
        ])
      ).error,
      "--record-host-capabilities-interactions and --replay-host-capabilities-interactions cannot be used together",
    );
    assert.equal(
      (await run([...base, "--allow-context-aware", "--kubeconfig", path.join(dir, "none")])).error,
      `cannot read kubeconfig ${path.join(dir, "none")}: no such file`,
    );
    assert.equal(
      (await run([...base, "--allow-context-aware", "--kubeconfig", kube.kubeconfig, "--context", "elsewhere"])).error,
      'kubeconfig has no context "elsewhere"',
    );
  });
});

/** One lookup through the host's gates and the live answerer: the guest's text and the user's lines. */
function lookup(
  kubeconfig: string,
  operation: string,
  payload: Record<string, unknown>,
  grant = { apiVersion: String(payload.api_version), kind: String(payload.kind) },
): { guest: string; warnings: string[] } {
  const host = new HostCapabilities({ live: { kubeconfig, cacheSeconds: 0 }, contextAwareResources: [grant] });
  const a = host.handler("kubewarden", "kubernetes", operation, Buffer.from(JSON.stringify(payload)));
  return { guest: a.ok ? `ok:${a.response.toString("utf8")}` : `err:${a.error}`, warnings: host.warnings() };
}

const getConfigMap = (namespace: string, name: string) => ({
  api_version: "v1",
  kind: "ConfigMap",
  name,
  namespace,
  disable_cache: false,
});

describe("live answers and failures", () => {
  test("an object as the API server returns it, through the one serializer; not found and scope texts as policy-evaluator's", () => {
    const found = lookup(kube.kubeconfig, "get_resource", getConfigMap(ns, "cb-connection"));
    assert.match(found.guest, /^ok:\{"apiVersion":"v1","kind":"ConfigMap","metadata":\{"creationTimestamp":/);
    assert.match(found.guest, /"managedFields":\[\{"apiVersion":"v1"/, "a get keeps managedFields");
    assert.deepEqual(lookup(kube.kubeconfig, "get_resource", getConfigMap(ns, "nope")), {
      guest: `err:Callback evaluation failure: Cannot find v1/ConfigMap named 'nope' inside of namespace 'Some("${ns}")'`,
      warnings: [],
    });
    const listed = lookup(kube.kubeconfig, "list_resources_by_namespace", {
      api_version: "v1",
      kind: "ConfigMap",
      namespace: ns,
    });
    // a built-in kind's list items come without apiVersion and kind, as kube-rs hands them on
    assert.match(
      listed.guest,
      /^ok:\{"apiVersion":"v1","kind":"ConfigMapList","metadata":\{\},"items":\[\{"metadata":\{"annotations":\{\}/,
    );
    assert.match(listed.guest, /"managedFields":\[\]/, "a list is the reflector's copy");
  });

  test("can_i is a SubjectAccessReview", () => {
    const review = (user: string) => ({
      subject_access_review: {
        user,
        groups: ["system:masters"],
        resource_attributes: { namespace: ns, resource: "pods", verb: "get" },
      },
      disable_cache: true,
    });
    const host = new HostCapabilities({ live: { kubeconfig: kube.kubeconfig } });
    const a = host.handler("kubewarden", "kubernetes", "can_i", Buffer.from(JSON.stringify(review("alice"))));
    assert.ok(a.ok);
    assert.match(a.response.toString("utf8"), /^\{"allowed":true(,"reason":"[^"]*")?\}$/);
  });

  test("a kind whose CRD is not installed: kwctl's discovery error for the guest, one line for the user", () => {
    const r = lookup(kube.kubeconfig, "get_resource", {
      api_version: "widgets.example.com/v1",
      kind: "Widget",
      name: "w",
      namespace: ns,
      disable_cache: false,
    });
    assert.match(
      r.guest,
      /^err:Callback evaluation failure: error finding resource widgets\.example\.com\/v1 \/ Widget: ApiError: 404 page not found\n: Failed to parse error data \(Status \{ status: Some\(Failure\), code: 404, /,
    );
    assert.deepEqual(r.warnings, [
      "live cluster: Widget (widgets.example.com/v1): the cluster does not serve it (no CustomResourceDefinition for it is installed)",
    ]);
  });

  test("a forbidden list: the API server's refusal for the guest, one line for the user", () => {
    const reader = kube.userKubeconfig(`nobody-${crypto.randomBytes(3).toString("hex")}`);
    kube.one({
      verb: "create",
      object: {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: `discovery-${path.basename(reader)}` },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:discovery" },
        subjects: [{ kind: "User", name: path.basename(reader).replace("kubeconfig-", "") }],
      },
    });
    const user = path.basename(reader).replace("kubeconfig-", "");
    const r = lookup(reader, "list_resources_by_namespace", { api_version: "v1", kind: "ConfigMap", namespace: ns });
    const refusal = `configmaps is forbidden: User "${user}" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`;
    assert.ok(
      r.guest.startsWith(`err:Callback evaluation failure: ApiError: ${refusal}: Forbidden (Status {`),
      r.guest,
    );
    assert.deepEqual(r.warnings, [`live cluster: list ConfigMap in namespace ${ns}: forbidden: ${refusal}`]);
  });

  test("an unreachable cluster", async () => {
    const { file: kubeconfig, port } = await kube.unreachableKubeconfig(path.join(dir, "unreachable"));
    assert.deepEqual(lookup(kubeconfig, "get_resource", getConfigMap(ns, "cb-connection")), {
      guest: "err:Callback evaluation failure: ServiceError: client error (Connect)",
      warnings: [
        `live cluster: cannot reach the cluster of context "cachewarden-test" at https://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
      ],
    });
  });

  test("expired credentials (a service account token past its expiry) and missing ones", () => {
    const key = fs.readFileSync(path.join(kube.info.dir, "pki", "sa.key"));
    const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: kube.info.url,
      aud: [kube.info.url],
      sub: "system:serviceaccount:default:default",
      iat: now - 7200,
      nbf: now - 7200,
      exp: now - 3600,
    };
    const unsigned = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}`;
    const token = `${unsigned}.${crypto.sign("sha256", Buffer.from(unsigned), key).toString("base64url")}`;
    const base = fs.readFileSync(kube.kubeconfig, "utf8");
    const expired = path.join(dir, "expired");
    fs.writeFileSync(expired, base.replace(/client-certificate-data: \S+\n\s+client-key-data: \S+/, `token: ${token}`));
    const r = lookup(expired, "get_resource", getConfigMap(ns, "cb-connection"));
    assert.match(r.guest, /^err:Callback evaluation failure: ApiError: Unauthorized: Unauthorized \(Status \{/);
    assert.deepEqual(r.warnings, [
      'live cluster: the cluster of context "cachewarden-test" refused its credentials (401 Unauthorized): they are expired or not valid',
    ]);
    const missing = path.join(dir, "missing");
    fs.writeFileSync(missing, base.replace(/client-certificate-data: \S+\n\s+client-key-data: \S+/, "{}"));
    const m = lookup(missing, "get_resource", getConfigMap(ns, "cb-connection"));
    assert.match(
      m.guest,
      /^err:Callback evaluation failure: ApiError: forbidden: User "system:anonymous" cannot get path "\/api\/v1"/,
    );
    assert.deepEqual(m.warnings, [
      'live cluster: context "cachewarden-test" sends no credentials the cluster accepts (it answers as system:anonymous): forbidden: User "system:anonymous" cannot get path "/api/v1"',
    ]);
  });
});

describe("the client thread", () => {
  // a server that answers ConfigMap `slow` after 1.5 s and any other at once, in a process of its own
  // (the guest's thread blocks while it waits, so an in-process server could not answer)
  const SERVER = `
    const http = require("node:http");
    const list = { kind: "APIResourceList", apiVersion: "v1", groupVersion: "v1",
      resources: [{ name: "configmaps", singularName: "configmap", namespaced: true, kind: "ConfigMap", verbs: ["get"] }] };
    http.createServer((req, res) => {
      const send = (body) => { res.setHeader("content-type", "application/json"); res.end(JSON.stringify(body)); };
      if (req.url === "/api/v1") return send(list);
      const name = req.url.split("/").pop();
      const cm = { kind: "ConfigMap", apiVersion: "v1", metadata: { name, namespace: "ns" } };
      setTimeout(() => send(cm), name === "slow" ? 1500 : 0);
    }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`;

  test("an answer that comes after its lookup timed out is dropped, not handed to the next lookup", async (t) => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
    t.after(() => child.kill());
    const port = await new Promise<string>((resolve) =>
      child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())),
    );
    const kubeconfig = path.join(dir, "slow-kubeconfig");
    fs.writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: slow, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]
users: [{name: anyone, user: {}}]
contexts: [{name: slow, context: {cluster: slow, user: anyone}}]
current-context: slow
`,
    );
    const { LiveCluster } = await import("../tools/host/live");
    const cluster = new LiveCluster({ kubeconfig, answerTimeoutMs: 500, cacheSeconds: 0 });
    assert.throws(() => cluster.get("v1", "ConfigMap", "slow", "ns"), {
      message: "Callback evaluation failure: the live cluster did not answer within 0.5 s",
    });
    // let the late answer arrive, then ask for another object: its own answer, not the late one
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(JSON.parse(cluster.get("v1", "ConfigMap", "fast", "ns")).metadata.name, "fast");
    assert.equal(JSON.parse(cluster.get("v1", "ConfigMap", "other", "ns")).metadata.name, "other");
  });
});
