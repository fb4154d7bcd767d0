// The test suite's real Kubernetes API server: kube-apiserver and etcd built from the Go module in
// tests/kube (Kubernetes and etcd releases pinned by its go.mod), started on 127.0.0.1 with free
// ports and a temporary folder, and stopped when the run ends. The binaries are built once into
// build/kube/ and reused while the module's files and the Go version are unchanged.
//
// One server serves a whole `npm test`: tools/test/all.ts starts it and passes its description to
// the test processes in CACHEWARDEN_KUBE (a JSON file); a test file run alone starts its own.
import { ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as https from "node:https";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
export const KUBE_MODULE = path.join(ROOT, "tests", "kube");
export const KUBE_BIN = path.join(ROOT, "build", "kube");
/** The environment variable that hands a running server to test processes. */
export const KUBE_ENV = "CACHEWARDEN_KUBE";
/** The Kubernetes release of k8s.io/kubernetes in tests/kube/go.mod, stamped into the binary's version. */
const K8S_VERSION = /\bk8s\.io\/kubernetes v(\d+)\.(\d+)\.(\d+)/;

export interface KubeBinaries {
  apiserver: string;
  etcd: string;
  client: string;
}

/** What a test process needs to use a running server (also the JSON in CACHEWARDEN_KUBE). */
export interface KubeServerInfo {
  /** admin kubeconfig (system:masters) */
  kubeconfig: string;
  url: string;
  /** the server's temporary folder: pki/ (CA and keys), logs */
  dir: string;
  bin: KubeBinaries;
}

export interface KubeServer extends KubeServerInfo {
  stop(): Promise<void>;
}

function moduleFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...moduleFiles(p));
    else if (/\.go$|^go\.(mod|sum)$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** What the binaries are built from: the module's files and the Go toolchain's version. */
function sourceStamp(goVersion: string): string {
  const h = createHash("sha256").update(goVersion);
  for (const f of moduleFiles(KUBE_MODULE)) h.update(path.relative(KUBE_MODULE, f)).update(fs.readFileSync(f));
  return h.digest("hex");
}

const binaries = (dir: string): KubeBinaries => ({
  apiserver: path.join(dir, "kube-apiserver"),
  etcd: path.join(dir, "etcd"),
  client: path.join(dir, "kube-client"),
});

/**
 * Builds kube-apiserver, etcd and kube-client into build/kube/ unless the same sources were built
 * there before. Needs Go (the version tests/kube/go.mod names, or newer); fails with what to do.
 */
export function ensureKubeBinaries(log: (s: string) => void = () => undefined): KubeBinaries {
  const env = { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-buildvcs=false" };
  const go = spawnSync("go", ["version"], { encoding: "utf8", env });
  if (go.status !== 0)
    throw new Error(
      "the tests need Go (see README: Quick start) to build kube-apiserver and etcd from tests/kube; `go version` failed",
    );
  const stamp = sourceStamp(go.stdout.trim());
  const bin = binaries(KUBE_BIN);
  const stampFile = path.join(KUBE_BIN, "stamp");
  const built = (): boolean =>
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === stamp &&
    Object.values(bin).every((b) => fs.existsSync(b));
  if (built()) return bin;
  const version = fs.readFileSync(path.join(KUBE_MODULE, "go.mod"), "utf8").match(K8S_VERSION);
  if (!version) throw new Error("tests/kube/go.mod does not require k8s.io/kubernetes");
  const [, major, minor, patch] = version;
  const v = "k8s.io/component-base/version";
  const ldflags = [
    "-s",
    "-w",
    `-X ${v}.gitVersion=v${major}.${minor}.${patch}`,
    `-X ${v}.gitMajor=${major}`,
    `-X ${v}.gitMinor=${minor}`,
    `-X ${v}.gitTreeState=clean`,
  ].join(" ");
  // a private folder, renamed into place: two runs building at once never see half a binary
  fs.mkdirSync(KUBE_BIN, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(KUBE_BIN, "tmp-"));
  log(`building kube-apiserver, etcd and kube-client (${go.stdout.trim()}) into ${path.relative(ROOT, KUBE_BIN)}/`);
  const started = Date.now();
  const r = spawnSync(
    "go",
    [
      "build",
      "-trimpath",
      `-ldflags=${ldflags}`,
      "-o",
      tmp + path.sep,
      "k8s.io/kubernetes/cmd/kube-apiserver",
      "./cmd/etcd",
      "./cmd/kube-client",
    ],
    { cwd: KUBE_MODULE, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new Error(`go build in tests/kube failed:\n${r.stdout}${r.stderr}`);
  }
  for (const [name, file] of Object.entries(binaries(tmp))) fs.renameSync(file, bin[name as keyof KubeBinaries]);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.writeFileSync(stampFile, stamp);
  log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return bin;
}

/** A port the kernel just handed out on 127.0.0.1 (closed again for the server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A kubeconfig for `user` with the client certificate files in `pki` (user-<name>.crt/.key). */
export function kubeconfigText(url: string, pki: string, user: string): string {
  const b64 = (f: string): string => fs.readFileSync(path.join(pki, f)).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: cachewarden-test",
    "  cluster:",
    `    server: ${url}`,
    `    certificate-authority-data: ${b64("ca.crt")}`,
    "users:",
    `- name: ${user}`,
    "  user:",
    `    client-certificate-data: ${b64(`user-${user}.crt`)}`,
    `    client-key-data: ${b64(`user-${user}.key`)}`,
    "contexts:",
    "- name: cachewarden-test",
    "  context:",
    "    cluster: cachewarden-test",
    `    user: ${user}`,
    "current-context: cachewarden-test",
    "",
  ].join("\n");
}

/** GET `url` as the admin: the status code and the body ("" and 0 when unreachable). */
function getText(url: string, pki: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = https.get(
      url,
      {
        ca: fs.readFileSync(path.join(pki, "ca.crt")),
        cert: fs.readFileSync(path.join(pki, "user-admin.crt")),
        key: fs.readFileSync(path.join(pki, "user-admin.key")),
        timeout: 5000,
        // a fresh connection: a pooled one may have been closed by the server while the suites ran
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", (e) => resolve({ status: 0, body: e.message }));
    req.on("timeout", () => req.destroy(new Error("timed out")));
  });
}

/** How many requests the server answered so far, and how many of them were dry runs (its own metrics). */
export async function requestCounts(server: KubeServerInfo): Promise<{ total: number; dryRun: number }> {
  const { status, body } = await getText(`${server.url}/metrics`, path.join(server.dir, "pki"));
  if (status !== 200) throw new Error(`GET /metrics: ${status || body}`);
  let total = 0;
  let dryRun = 0;
  for (const line of body.split("\n")) {
    const m = line.match(/^apiserver_request_total\{([^}]*)\} (\S+)$/);
    if (!m) continue;
    const n = Number(m[2]);
    total += n;
    if (/dry_run="All"/.test(m[1])) dryRun += n;
  }
  return { total, dryRun };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Runs a server under `kube-client supervise`, output to `log`: it dies with this process. */
function supervised(bin: KubeBinaries, log: string, command: string, args: string[]): ChildProcess {
  const out = fs.openSync(log, "a");
  const child = spawn(bin.client, ["supervise", command, ...args], { stdio: ["ignore", out, out] });
  fs.closeSync(out);
  // the server must not keep the test process alive: it is stopped when that process exits
  child.unref();
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts etcd and kube-apiserver on free loopback ports with data in a new temporary folder, and
 * resolves once /readyz answers. Admission: the API server's default plugins, PodSecurity and
 * ServiceAccount included (no controller-manager runs, so helpers create each namespace's
 * `default` ServiceAccount themselves).
 */
export async function startKubeServer(
  log: (s: string) => void = () => undefined,
  /** more kube-apiserver flags (e.g. `--admission-control-config-file=…`) */
  apiserverArgs: readonly string[] = [],
): Promise<KubeServer> {
  const bin = ensureKubeBinaries(log);
  // a port picked free can be taken by another process before the server binds it: try again
  for (let attempt = 1; ; attempt++)
    try {
      return await startOnce(bin, apiserverArgs);
    } catch (e) {
      if (attempt === 3) throw e;
      log(`kube-apiserver start failed, trying again: ${(e as Error).message.split("\n")[0]}`);
    }
}

async function startOnce(bin: KubeBinaries, apiserverArgs: readonly string[]): Promise<KubeServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-kube-"));
  const pki = path.join(dir, "pki");
  execFileSync(bin.client, ["pki", pki]);
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const c of children.reverse()) await stopChild(c);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const onExit = (): void => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  try {
    const [etcdClient, etcdPeer, securePort] = [await freePort(), await freePort(), await freePort()];
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const peerUrl = `http://127.0.0.1:${etcdPeer}`;
    children.push(
      supervised(bin, path.join(dir, "etcd.log"), bin.etcd, [
        "--name=test",
        `--data-dir=${path.join(dir, "etcd")}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=test=${peerUrl}`,
        // test data only: durability is not worth the fsyncs
        "--unsafe-no-fsync",
      ]),
    );
    const url = `https://127.0.0.1:${securePort}`;
    children.push(
      supervised(bin, path.join(dir, "kube-apiserver.log"), bin.apiserver, [
        `--etcd-servers=${etcdUrl}`,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        // the `kubernetes` Service's endpoints would be the loopback address, which it refuses
        "--endpoint-reconciler-type=none",
        `--secure-port=${securePort}`,
        `--cert-dir=${path.join(dir, "certs")}`,
        `--tls-cert-file=${path.join(pki, "serving.crt")}`,
        `--tls-private-key-file=${path.join(pki, "serving.key")}`,
        `--client-ca-file=${path.join(pki, "ca.crt")}`,
        `--service-account-issuer=${url}`,
        `--service-account-key-file=${path.join(pki, "sa.pub")}`,
        `--service-account-signing-key-file=${path.join(pki, "sa.key")}`,
        "--service-cluster-ip-range=10.0.0.0/24",
        "--authorization-mode=RBAC",
        // as on kubeadm clusters: the `privileged` Pod Security level can be tested at all
        "--allow-privileged=true",
        ...apiserverArgs,
      ]),
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      if ((await getText(`${url}/readyz`, pki)).status === 200) break;
      // a child killed by a signal has no exit code: either way it will not become ready
      const dead = children.find((c) => c.exitCode !== null || c.signalCode !== null);
      if (dead || Date.now() > deadline)
        throw new Error(
          `kube-apiserver did not become ready:\n${tail(path.join(dir, "etcd.log"))}\n${tail(path.join(dir, "kube-apiserver.log"))}`,
        );
      await sleep(200);
    }
    const kubeconfig = path.join(dir, "kubeconfig");
    fs.writeFileSync(kubeconfig, kubeconfigText(url, pki, "admin"));
    return {
      kubeconfig,
      url,
      dir,
      bin,
      stop: async () => {
        process.removeListener("exit", onExit);
        await stop();
      },
    };
  } catch (e) {
    process.removeListener("exit", onExit);
    await stop();
    throw e;
  }
}
