// The real Kubernetes API server for tests (tools/test/kube.ts starts it): one call to get a running
// server, and the questions tests ask it, each answered by the server itself:
//   - kubeServer(): the run's shared server (CACHEWARDEN_KUBE, set by tools/test/all.ts), or one
//     of this process's own, started once and stopped when the process exits;
//   - kube.batch(requests): many creates / applies / gets in one kube-client process;
//   - kube.namespace({ level }): a fresh namespace enforcing a Pod Security level, with the
//     `default` ServiceAccount the ServiceAccount admission plugin needs;
//   - kube.admitPods(pods, level): dry-run creates → accepted, or refused with the server's message;
//   - kube.installCRDs(files), kube.applyKustomize(dir), kube.userKubeconfig(name, groups).
// Every pod the server answers for a level that has an in-process check (IN_PROCESS) is also put
// to that check, and a disagreement fails the test: the server is the authority.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { formatViolations, violations } from "../../tools/podsecurity/levels";
import { freePort, KUBE_ENV, KubeServerInfo, kubeconfigText, startKubeServer } from "../../tools/test/kube";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export type PodSecurityLevel = "privileged" | "baseline" | "restricted";

/** The in-process check of one level: "" when the pod meets it, else the refusal in the server's words. */
const inProcess =
  (level: "baseline" | "restricted") =>
  (pod: J): string => {
    const found = violations(level, pod);
    return found.length === 0 ? "" : formatViolations(level, "latest", found);
  };

/**
 * The in-process Pod Security checks (tools/podsecurity/levels.ts, which `preview` uses), by level.
 * Held equal to the server on every pod it answers at that level: the same decision and, for a
 * refusal, the same message; a new level is one line here.
 */
export const IN_PROCESS: Partial<Record<PodSecurityLevel, (pod: J) => string>> = {
  baseline: inProcess("baseline"),
  restricted: inProcess("restricted"),
};

/** One request to kube-client batch (tests/kube/cmd/kube-client). */
export interface KubeRequest {
  verb: "create" | "apply" | "update" | "get" | "delete" | "wait";
  namespace?: string;
  object?: J;
  dryRun?: boolean;
  /** Strict (kubectl's default), Warn or Ignore */
  fieldValidation?: "Strict" | "Warn" | "Ignore";
  fieldManager?: string;
  force?: boolean;
  apiVersion?: string;
  kind?: string;
  name?: string;
  condition?: string;
  timeoutSeconds?: number;
}

/** The server's metav1.Status of a refusal. */
export interface KubeStatus {
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: { reason?: string; message?: string; field?: string }[] };
}

export interface KubeResult {
  ok: boolean;
  object?: J;
  status?: KubeStatus;
  /** a client-side error, e.g. a kind the server does not serve */
  error?: string;
}

/** A pod's answer: accepted, or refused with the server's own message. */
export interface Admission {
  accepted: boolean;
  /** the server's message ("" when accepted) */
  message: string;
  /** the pod as the server would store it (defaults, admission mutations) when accepted */
  object?: J;
  status?: KubeStatus;
}

/** What the server's message says when Pod Security refused the pod (not its validation). */
export const POD_SECURITY_REFUSAL = /violates PodSecurity "([a-z]+):/;

export class Kube {
  private readonly levels = new Map<PodSecurityLevel, string>();
  constructor(readonly info: KubeServerInfo) {}

  get kubeconfig(): string {
    return this.info.kubeconfig;
  }

  /** Sends every request through one kube-client process; results in request order. */
  batch(requests: KubeRequest[], kubeconfig = this.info.kubeconfig): KubeResult[] {
    if (requests.length === 0) return [];
    const r = spawnSync(this.info.bin.client, ["batch", "--kubeconfig", kubeconfig], {
      input: requests.map((q) => JSON.stringify(q)).join("\n"),
      encoding: "utf8",
      maxBuffer: 1024 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`kube-client batch failed: ${r.stderr}`);
    const out = r.stdout
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as KubeResult);
    assert.equal(out.length, requests.length, "kube-client answered every request");
    return out;
  }

  /** One request; fails on a refusal unless `allowRefusal`. */
  one(request: KubeRequest, allowRefusal = false): KubeResult {
    const [r] = this.batch([request]);
    if (!allowRefusal) assert.ok(r.ok, `${request.verb} refused: ${r.status?.message ?? r.error}`);
    return r;
  }

  /**
   * A new namespace (name `<prefix>-<random>`), enforcing Pod Security `level` when given, with
   * `objects` created in it; its `default` ServiceAccount is created too (no controller-manager runs).
   */
  namespace(
    options: { prefix?: string; level?: PodSecurityLevel; labels?: Record<string, string>; objects?: J[] } = {},
  ): string {
    const name = `${options.prefix ?? "test"}-${randomBytes(4).toString("hex")}`;
    const labels: Record<string, string> = { ...(options.labels ?? {}) };
    if (options.level) {
      labels["pod-security.kubernetes.io/enforce"] = options.level;
      labels["pod-security.kubernetes.io/enforce-version"] = "latest";
    }
    this.one({ verb: "create", object: { apiVersion: "v1", kind: "Namespace", metadata: { name, labels } } });
    const results = this.batch(
      [{ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default" } }, ...(options.objects ?? [])].map(
        (object) => ({ verb: "create" as const, namespace: name, object }),
      ),
    );
    results.forEach((r, i) => assert.ok(r.ok, `object ${i} in ${name}: ${r.status?.message ?? r.error}`));
    return name;
  }

  /** This process's namespace for `level` (created on first use). */
  levelNamespace(level: PodSecurityLevel): string {
    let ns = this.levels.get(level);
    if (!ns) {
      ns = this.namespace({ prefix: `pss-${level}`, level });
      this.levels.set(level, ns);
    }
    return ns;
  }

  /**
   * Dry-run creates every pod in a namespace enforcing `level` (strict field validation, as
   * kubectl): accepted, or refused with the server's message. The pods are copied; a pod without
   * a name gets one, and its namespace is the level's. Where an in-process check exists for the
   * level, it must give the server's answer on every pod Pod Security judged.
   */
  admitPods(pods: J[], level: PodSecurityLevel, labels: string[] = []): Admission[] {
    const namespace = this.levelNamespace(level);
    const results = this.batch(
      pods.map((pod) => ({
        verb: "create",
        namespace,
        dryRun: true,
        apiVersion: "v1",
        kind: "Pod",
        object: forCreate(pod),
      })),
    );
    const answers = results.map((r): Admission =>
      r.ok
        ? { accepted: true, message: "", object: r.object }
        : { accepted: false, message: r.status?.message ?? r.error ?? "", status: r.status },
    );
    const check = IN_PROCESS[level];
    if (check)
      answers.forEach((a, i) => {
        const judged = a.accepted || POD_SECURITY_REFUSAL.test(a.message);
        if (!judged) return;
        const expected = check(pods[i]);
        const label = labels[i] ?? `pod ${i}`;
        assert.equal(
          expected === "",
          a.accepted,
          `${label}: the in-process ${level} check (tools/podsecurity) says ${expected || "accepted"}, the API server says ${a.accepted ? "accepted" : a.message}`,
        );
        if (!a.accepted)
          assert.ok(
            a.message.endsWith(expected),
            `${label}: the in-process ${level} check words the refusal\n  ${expected}\nthe API server\n  ${a.message}`,
          );
        equalityCount.set(level, (equalityCount.get(level) ?? 0) + 1);
      });
    return answers;
  }

  /** Creates the CustomResourceDefinitions in `files` (YAML; existing ones are kept) and waits until each is served. */
  installCRDs(files: string[]): void {
    const crds = files.flatMap((f) => yaml.loadAll(fs.readFileSync(f, "utf8")) as J[]).filter((d) => d);
    const created = this.batch(crds.map((object) => ({ verb: "create" as const, object })));
    created.forEach((r, i) =>
      assert.ok(
        r.ok || r.status?.reason === "AlreadyExists",
        `${crds[i].metadata.name}: ${r.status?.message ?? r.error}`,
      ),
    );
    const waited = this.batch(
      crds.map((c) => ({
        verb: "wait" as const,
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        name: c.metadata.name,
        condition: "Established",
        timeoutSeconds: 30,
      })),
    );
    waited.forEach((r, i) => assert.ok(r.ok, `${crds[i].metadata.name}: ${r.status?.message ?? r.error}`));
  }

  /** `kubectl <args>` against this server (kubectl from the machine, as an admin would run it). */
  kubectl(args: string[], kubeconfig = this.info.kubeconfig): { code: number; stdout: string; stderr: string } {
    const r = spawnSync("kubectl", ["--kubeconfig", kubeconfig, ...args], { encoding: "utf8" });
    return { code: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  }

  /** Creates the namespaces that do not exist yet, as an admin's cluster would have them (with their `default` ServiceAccount). */
  ensureNamespaces(names: string[]): void {
    const unique = [...new Set(names)];
    const created = this.batch(
      unique.map((name) => ({
        verb: "create" as const,
        object: { apiVersion: "v1", kind: "Namespace", metadata: { name } },
      })),
    );
    const fresh = unique.filter((_, i) => created[i].ok);
    created.forEach((r, i) =>
      assert.ok(r.ok || r.status?.reason === "AlreadyExists", `${unique[i]}: ${r.status?.message}`),
    );
    const accounts = this.batch(
      fresh.map((namespace) => ({
        verb: "create" as const,
        namespace,
        object: { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default" } },
      })),
    );
    accounts.forEach((r, i) => assert.ok(r.ok, `${fresh[i]}/default ServiceAccount: ${r.status?.message ?? r.error}`));
  }

  /**
   * `kubectl apply -k <dir> --dry-run=server`, as an admin applies a kustomization: the namespaces
   * its objects live in are created first (a dry run creates no namespace for the objects after it).
   */
  applyKustomize(dir: string): { code: number; stdout: string; stderr: string } {
    const rendered = this.kubectl(["kustomize", dir]);
    assert.equal(rendered.code, 0, `kubectl kustomize ${dir}: ${rendered.stderr}`);
    const docs = (yaml.loadAll(rendered.stdout) as J[]).filter((d) => d);
    this.ensureNamespaces(docs.map((d) => d.metadata?.namespace).filter((n): n is string => typeof n === "string"));
    return this.kubectl(["apply", "-k", dir, "--dry-run=server"]);
  }

  /** The admin kubeconfig pointed at a loopback port nothing listens on (a port just freed), written to `file`. */
  async unreachableKubeconfig(file: string): Promise<{ file: string; port: number }> {
    const port = await freePort();
    const text = fs
      .readFileSync(this.info.kubeconfig, "utf8")
      .replace(/server: \S+/, `server: https://127.0.0.1:${port}`);
    fs.writeFileSync(file, text);
    return { file, port };
  }

  /** A kubeconfig for a user (client certificate: CN = name, O = groups), written into the server's folder. */
  userKubeconfig(name: string, groups: string[] = []): string {
    const pki = path.join(this.info.dir, "pki");
    execFileSync(this.info.bin.client, ["user", pki, name, ...groups]);
    const file = path.join(this.info.dir, `kubeconfig-${name}`);
    fs.writeFileSync(file, kubeconfigText(this.info.url, pki, name));
    return file;
  }
}

/** How many pods each in-process check was compared with the server on, in this process. */
export const equalityCount = new Map<PodSecurityLevel, number>();

/** A copy of `pod` the server can create: a name when it has none, no stored-object fields. */
function forCreate(pod: J): J {
  const copy = JSON.parse(JSON.stringify(pod ?? {}));
  if (copy && typeof copy === "object" && !Array.isArray(copy)) {
    const meta = copy.metadata && typeof copy.metadata === "object" ? copy.metadata : (copy.metadata = {});
    if (!Array.isArray(meta)) {
      // nothing is stored by a dry run, so every nameless pod can be called the same
      if (meta.name === undefined && meta.generateName === undefined) meta.name = "pod";
      delete meta.namespace;
      delete meta.resourceVersion;
    }
  }
  return copy;
}

let own: Promise<Kube> | undefined;

/** The run's API server (CACHEWARDEN_KUBE), or this process's own (started on first call, stopped at exit). */
export function kubeServer(): Promise<Kube> {
  const shared = process.env[KUBE_ENV];
  if (shared) return Promise.resolve(new Kube(JSON.parse(fs.readFileSync(shared, "utf8")) as KubeServerInfo));
  own ??= startKubeServer((s) => process.stderr.write(`${s}\n`)).then((server) => {
    process.once("beforeExit", () => void server.stop());
    return new Kube(server);
  });
  return own;
}

let dedicated: Promise<Kube> | undefined;

/**
 * A server of this test process's own (started on first call, stopped at exit), for tests that need
 * a cluster no other suite changes: which CRDs are installed, what every namespace holds, objects
 * in fixed namespaces created and deleted case by case.
 */
export function ownKubeServer(): Promise<Kube> {
  dedicated ??= startKubeServer((s) => process.stderr.write(`${s}\n`)).then((server) => {
    process.once("beforeExit", () => void server.stop());
    return new Kube(server);
  });
  return dedicated;
}

/** The vendored CRDs (tests/fixtures/crds/<source>/*.yaml), every source or the named ones. */
export function vendoredCRDs(...sources: string[]): string[] {
  const root = path.resolve(__dirname, "..", "fixtures", "crds");
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && (sources.length === 0 || sources.includes(d.name)))
    .flatMap((d) =>
      fs
        .readdirSync(path.join(root, d.name))
        .filter((f) => f.endsWith(".yaml"))
        .sort()
        .map((f) => path.join(root, d.name, f)),
    );
}
