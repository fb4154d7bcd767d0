// `preview --pod-security-config`: the Pod Security levels a wired pod meets in each namespace are
// the ones a real API server applies when it runs with the same PodSecurity admission configuration
// (its defaults under the namespaces' labels, its exempt namespaces and runtime classes). A server
// of this file's own is started with the configuration; every pod the preview wires or refuses is
// sent to it (dry run, by kubectl as an admin would) and its answer, refusal or warning, must be the
// preview's, word for word.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { applyPatch, type Operation } from "fast-json-patch";
import { readPodSecurityConfig } from "../tools/podsecurity/namespace";
import { preview, type PreviewReport } from "../tools/preview/run";
import { connection, engine, listYaml, pod } from "../tools/preview/sample-dump";
import { startKubeServer, type KubeServer } from "../tools/test/kube";
import { ROOT } from "./helpers/host-guests";

type Obj = Record<string, unknown>;
const ENGINE = "lmcache.ai/lmcache-engine";
const STAGING = { payloadImage: { repository: "registry.example.com/lmcache/payload", tag: "pinned" } };
const PS = "pod-security.kubernetes.io/";

// the cluster's defaults: baseline enforced, restricted (pinned) warned; one namespace and one runtime class exempt
const POD_SECURITY = `apiVersion: pod-security.admission.config.k8s.io/v1
kind: PodSecurityConfiguration
defaults:
  enforce: baseline
  warn: restricted
  warn-version: v1.30
exemptions:
  namespaces: [exempt]
  runtimeClasses: [kata]
`;
const ADMISSION = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
  - name: PodSecurity
    path: pod-security.yaml
`;

/**
 * namespace → labels: each reads the defaults, a label or an exemption differently. (A label value
 * the plugin cannot parse is refused on the Namespace by this server, so only namespaces labelled
 * before the plugin ran can hold one: tests/pod-security.test.ts has those cases.)
 */
const NAMESPACES: Record<string, Record<string, string>> = {
  plain: {},
  open: { [`${PS}enforce`]: "privileged" },
  quiet: { [`${PS}enforce`]: "privileged", [`${PS}warn`]: "privileged" },
  strict: { [`${PS}enforce`]: "restricted", [`${PS}warn`]: "baseline" },
  pinned: { [`${PS}enforce-version`]: "v1.21", [`${PS}warn-version`]: "latest" },
  exempt: { [`${PS}enforce`]: "restricted" },
};

let dir: string;
let server: KubeServer;
let policies: string;

function kubectl(args: string[], input?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("kubectl", ["--kubeconfig", server.kubeconfig, ...args], { encoding: "utf8", input });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-psconfig-"));
  fs.writeFileSync(path.join(dir, "pod-security.yaml"), POD_SECURITY);
  fs.writeFileSync(path.join(dir, "admission.yaml"), ADMISSION);
  server = await startKubeServer(
    (s) => process.stderr.write(`${s}\n`),
    [`--admission-control-config-file=${path.join(dir, "admission.yaml")}`],
  );
  const setup: Obj[] = [
    { apiVersion: "node.k8s.io/v1", kind: "RuntimeClass", metadata: { name: "kata" }, handler: "kata" },
    ...Object.entries(NAMESPACES).map(([name, labels]) => ({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name, labels },
    })),
    ...Object.keys(NAMESPACES).map((namespace) => ({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "default", namespace },
    })),
  ];
  const r = kubectl(["create", "-f", "-"], listYaml(setup));
  assert.equal(r.code, 0, r.stderr);
  policies = path.join(dir, "policies");
  fs.mkdirSync(policies);
  fs.symlinkSync(path.join(ROOT, "policies", "lmcache-injector"), path.join(policies, "lmcache-injector"), "dir");
});

after(async () => {
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Per namespace: a pod wired with hostIPC (an E1 engine), one wired as today's operator, one of an exempt runtime class. */
function cluster(): Obj[] {
  return Object.entries(NAMESPACES).flatMap(([ns, labels]) => {
    const kata = pod(ns, "kata", { [ENGINE]: "cb" });
    (kata.spec as Obj).runtimeClassName = "kata";
    return [
      { apiVersion: "v1", kind: "Namespace", metadata: { name: ns, labels } },
      engine(ns, "cb", STAGING),
      connection(ns, "cb"),
      engine(ns, "cur", STAGING, "LMCacheEngine", { gpuVendor: "nvidia", hostIPC: false }),
      connection(ns, "cur"),
      pod(ns, "host-ipc", { [ENGINE]: "cb" }),
      pod(ns, "isolated", { [ENGINE]: "cur" }),
      kata,
    ];
  });
}

/** What the server says of the wired pod: refused with its message, or accepted with its Pod Security warnings. */
function serverAnswer(wired: Obj): string {
  const r = kubectl(["create", "--dry-run=server", "-o", "name", "-f", "-"], JSON.stringify(wired));
  if (r.code !== 0) {
    const m = /is forbidden: (violates PodSecurity .*)$/m.exec(r.stderr);
    assert.ok(m, `not a Pod Security refusal: ${r.stderr}`);
    return `refused: ${m[1]}`;
  }
  const warnings = [...r.stderr.matchAll(/^Warning: would (violate PodSecurity .*)$/gm)].map((m) => `${m[1]}`);
  return ["wired", ...warnings.map((w) => `Pod Security warning: ${w.replace(/^violate/, "violates")}`)].join("; ");
}

/** The preview's row in the same words. */
function previewAnswer(row: PreviewReport["rows"][number]): string {
  if (row.outcome === "refused") return `refused: ${row.message}`;
  return [row.outcome, ...(row.message ? [row.message] : [])].join("; ");
}

test("each wired pod meets the levels a real API server with the same configuration applies: defaults, labels over them, exemptions", async () => {
  const dump = path.join(dir, "cluster.yaml");
  const objects = cluster();
  fs.writeFileSync(dump, listYaml(objects));
  const report = await preview([dump], {
    policies,
    workers: 0,
    podSecurity: readPodSecurityConfig(path.join(dir, "admission.yaml")),
  });
  const pods = new Map(
    objects
      .filter((o) => o.kind === "Pod")
      .map((o) => [`${(o.metadata as Obj).namespace}/${(o.metadata as Obj).name}`, o]),
  );
  const seen: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const row of report.rows) {
    if (!row.object.startsWith("Pod/")) continue;
    const key = `${row.namespace}/${row.object.slice(4)}`;
    assert.ok(row.patch, `${key} is wired: ${row.outcome} ${row.message}`);
    const wired = applyPatch(structuredClone(pods.get(key)!), row.patch as Operation[], false, false).newDocument;
    seen[key] = previewAnswer(row);
    expected[key] = serverAnswer(wired as Obj);
  }
  assert.equal(Object.keys(seen).length, 3 * Object.keys(NAMESPACES).length);
  assert.deepEqual(seen, expected);
  // what the configuration changes, read from the answers: the defaults apply to an unlabelled
  // namespace, a version label alone pins the default level, labels override the defaults
  const outcome = (k: string) => seen[k].split(":")[0].split(";")[0];
  assert.equal(outcome("plain/host-ipc"), "refused");
  assert.match(seen["plain/isolated"], /^wired; Pod Security warning: violates PodSecurity "restricted:v1\.30": /);
  assert.match(seen["pinned/host-ipc"], /^refused: violates PodSecurity "baseline:v1\.21": host namespaces/);
  assert.match(
    seen["open/host-ipc"],
    /^wired; Pod Security warning: violates PodSecurity "restricted:v1\.30": host namespaces/,
  );
  assert.equal(seen["quiet/host-ipc"], "wired");
  assert.match(seen["strict/isolated"], /^refused: violates PodSecurity "restricted:latest"/);
  for (const ns of Object.keys(NAMESPACES)) assert.equal(seen[`${ns}/kata`], "wired", `${ns}/kata`);
  for (const name of ["host-ipc", "isolated"]) assert.equal(seen[`exempt/${name}`], "wired");
});

test("the configuration file: AdmissionConfiguration (inline or by path) or PodSecurityConfiguration; what the API server would not start with is one line", () => {
  const write = (name: string, text: string): string => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };
  const byPath = readPodSecurityConfig(path.join(dir, "admission.yaml"));
  assert.deepEqual(byPath, readPodSecurityConfig(path.join(dir, "pod-security.yaml")));
  const inline = write(
    "inline.yaml",
    `${ADMISSION.replace("    path: pod-security.yaml\n", "    configuration:\n")}${POD_SECURITY.replace(/^/gm, "      ")}`,
  );
  assert.deepEqual(readPodSecurityConfig(inline), byPath);
  assert.deepEqual(byPath, {
    defaults: {
      enforce: { level: "baseline", version: "latest" },
      warn: { level: "restricted", version: { major: 1, minor: 30 } },
    },
    exemptions: { namespaces: ["exempt"], runtimeClasses: ["kata"], usernames: [] },
  });
  const refused = (text: string) => () => readPodSecurityConfig(write("bad.yaml", text));
  assert.throws(refused(POD_SECURITY.replace("enforce: baseline", "enforce: strict")), {
    message: `Pod Security configuration ${path.join(dir, "bad.yaml")}: defaults.enforce: "strict" must be one of privileged, baseline, restricted`,
  });
  assert.throws(refused(POD_SECURITY.replace("v1.30", '"1.30"')), {
    message: `Pod Security configuration ${path.join(dir, "bad.yaml")}: defaults.warn-version: "1.30" must be "latest" or "v1.x"`,
  });
  assert.throws(refused(POD_SECURITY.replace("v1.30", "1.30")), {
    message: `Pod Security configuration ${path.join(dir, "bad.yaml")}: defaults.warn-version: 1.3 is not a string (quote it)`,
  });
  assert.throws(refused("apiVersion: v1\nkind: ConfigMap\n"), /expected kind PodSecurityConfiguration/);
  assert.throws(refused(ADMISSION.replace("PodSecurity", "Other")), /its plugins have no PodSecurity entry/);
  assert.throws(() => readPodSecurityConfig(path.join(dir, "missing.yaml")), {
    message: `cannot read Pod Security configuration ${path.join(dir, "missing.yaml")}: ENOENT: no such file (check the path)`,
  });
});
