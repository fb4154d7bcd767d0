// The suite's real kube-apiserver (tests/helpers/apiserver.ts) and the checks built on it:
//   - it runs the pinned release, admits by the default plugins, and its helpers work for others
//     (a namespace seeded with objects, a user whose RBAC cannot list a namespace);
//   - injector output broken on purpose fails the emitted-Pod check with the server's own message:
//     two volumes of one name, hostIPC with hostUsers: false, a hostPath volume in a `baseline`
//     namespace, and an engine with a value outside its CRD enum;
//   - the in-process Pod Security check (tools/podsecurity) gives the server's answer on a probe
//     for every check of the level, both sides.
// Run: node bin/cachewarden.js build && node --import tsx --test tests/apiserver.test.ts
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  equalityCount,
  IN_PROCESS,
  POD_SECURITY_REFUSAL,
  Kube,
  kubeServer,
  type PodSecurityLevel,
  vendoredCRDs,
} from "./helpers/apiserver";
import { assertEmittedPodsAccepted, EmittedPod } from "./helpers/emitted-pods";
import { evaluateRecorded } from "./helpers/policy-fixtures";
import { PolicyModule } from "../tools/host/guest";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

const ROOT = path.resolve(__dirname, "..");
const LMCACHE = path.join(ROOT, "policies", "lmcache-injector");
const WASM = path.join(LMCACHE, "annotated-policy.wasm");
const settingsOf = (f: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(LMCACHE, "test_data", f), "utf8"));

let kube: Kube;
before(async () => {
  kube = await kubeServer();
});

describe("the suite's kube-apiserver", () => {
  test("runs the Kubernetes release tests/kube/go.mod pins, on loopback", () => {
    const mod = fs.readFileSync(path.join(ROOT, "tests", "kube", "go.mod"), "utf8");
    const pinned = mod.match(/k8s\.io\/kubernetes v(\S+)/)![1];
    const r = kube.kubectl(["version", "-o", "json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).serverVersion.gitVersion, `v${pinned}`);
    assert.match(kube.info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  test("a namespace seeded with objects, and a user whose RBAC cannot list it", () => {
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "seed" }, data: { a: "1" } };
    const open = kube.namespace({ prefix: "seeded", objects: [cm] });
    const closed = kube.namespace({ prefix: "closed", objects: [cm] });
    const role = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "read-configmaps" },
      rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }],
    };
    const binding = {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "reader" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "read-configmaps" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "reader" }],
    };
    for (const object of [role, binding]) kube.one({ verb: "create", namespace: open, object });
    const reader = kube.userKubeconfig("reader");
    const allowed = kube.kubectl(["-n", open, "get", "configmaps", "seed", "-o", "name"], reader);
    assert.equal(allowed.stdout.trim(), "configmap/seed", allowed.stderr);
    const denied = kube.kubectl(["-n", closed, "get", "configmaps"], reader);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /configmaps is forbidden: User "reader" cannot list resource "configmaps"/);
  });
});

/** One recorded case of lmcache-injector: the incoming pod and the wired one. */
function wired(name: string, settings = "settings_default.json"): EmittedPod {
  const { request, result } = evaluateRecorded(PolicyModule.fromFile(WASM), LMCACHE, name, settingsOf(settings));
  assert.ok(result.mutatedObject, `${name} is wired`);
  return { before: request.object, after: result.mutatedObject, label: name };
}

/** The message the emitted-Pod check fails with. */
function refusal(check: () => unknown): string {
  try {
    check();
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail("the check passed");
}

describe(
  "injector output broken on purpose fails with the API server's message",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  () => {
    test("the unbroken outputs pass", () => {
      const pods = [wired("ipc-nvidia-private-shm"), wired("ipc-amd-hostipc")];
      assert.equal(assertEmittedPodsAccepted(kube, pods).length, 2);
    });

    test("two volumes of one name", () => {
      const p = wired("ipc-nvidia-private-shm");
      const shm = p.after.spec.volumes.find((v: J) => v.name === "lmcache-dev-shm");
      p.after.spec.volumes.push(clone(shm));
      const message = refusal(() => assertEmittedPodsAccepted(kube, [p]));
      assert.match(message, /ipc-nvidia-private-shm: the API server refuses the emitted Pod: /);
      assert.match(message, /spec\.volumes\[\d+\]\.name: Duplicate value: "lmcache-dev-shm"/);
    });

    test("hostIPC with hostUsers: false", () => {
      const p = wired("ipc-amd-hostipc");
      assert.equal(p.after.spec.hostIPC, true);
      p.after.spec.hostUsers = false;
      const message = refusal(() => assertEmittedPodsAccepted(kube, [p]));
      assert.match(message, /spec\.HostIPC: Forbidden: when `hostUsers` is false/);
    });

    test("a hostPath volume in a `baseline` namespace", () => {
      const p = wired("ipc-amd-host-shm");
      const [answer] = kube.admitPods([p.after], "baseline");
      assert.equal(answer.accepted, false);
      assert.match(
        answer.message,
        /violates PodSecurity "baseline:latest": hostPath volumes \(volume "lmcache-dev-shm"\)/,
      );
      // the same pod is valid: a `privileged` namespace takes it
      assert.equal(assertEmittedPodsAccepted(kube, [p]).length, 1);
    });

    test("an engine with a value outside its CRD enum", () => {
      kube.installCRDs(vendoredCRDs("lmcache"));
      const ns = kube.namespace({ prefix: "engines" });
      const engine = {
        apiVersion: "lmcache.lmcache.ai/v1alpha1",
        kind: "LMCacheEngine",
        metadata: { name: "e" },
        spec: { l1: { sizeGB: 1 }, gpuVendor: "amd" },
      };
      const ok = kube.one({ verb: "create", namespace: ns, dryRun: true, object: engine });
      // the CRD's defaults, as an injector reads the stored engine
      assert.equal(ok.object.spec.hostIPC, false);
      assert.equal(ok.object.spec.gpuVendor, "amd");
      const broken = clone(engine);
      broken.spec.gpuVendor = "intel";
      const r = kube.one({ verb: "create", namespace: ns, dryRun: true, object: broken }, true);
      assert.equal(r.ok, false);
      assert.match(
        r.status!.message!,
        /spec\.gpuVendor: Unsupported value: "intel": supported values: "nvidia", "amd"/,
      );
    });
  },
);

/** A pod of one container with `patch` applied to the pod spec and `container` to the container. */
function probe(spec: J = {}, container: J = {}): J {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "probe" },
    spec: { containers: [{ name: "c", image: "registry.example/app:1", ...container }], ...spec },
  };
}

/** Every check of Pod Security `baseline`, each on both sides of its line. */
const BASELINE_PROBES: Array<[string, J, boolean]> = [
  ["plain", probe(), true],
  ["hostIPC", probe({ hostIPC: true }), false],
  ["hostIPC false", probe({ hostIPC: false }), true],
  ["hostPID", probe({ hostPID: true }), false],
  ["hostNetwork", probe({ hostNetwork: true }), false],
  ["hostPath volume", probe({ volumes: [{ name: "h", hostPath: { path: "/dev/shm" } }] }), false],
  ["emptyDir volume", probe({ volumes: [{ name: "m", emptyDir: { medium: "Memory" } }] }), true],
  ["nfs volume", probe({ volumes: [{ name: "n", nfs: { server: "192.0.2.10", path: "/x" } }] }), true],
  ["privileged", probe({}, { securityContext: { privileged: true } }), false],
  ["privileged false", probe({}, { securityContext: { privileged: false } }), true],
  ["capability outside baseline", probe({}, { securityContext: { capabilities: { add: ["NET_ADMIN"] } } }), false],
  ["capability in baseline", probe({}, { securityContext: { capabilities: { add: ["CHOWN"] } } }), true],
  ["hostPort", probe({}, { ports: [{ containerPort: 80, hostPort: 8080 }] }), false],
  ["containerPort only", probe({}, { ports: [{ containerPort: 80 }] }), true],
  ["procMount Unmasked", probe({}, { securityContext: { procMount: "Unmasked" } }), false],
  [
    "procMount Unmasked, own user namespace",
    probe({ hostUsers: false }, { securityContext: { procMount: "Unmasked" } }),
    true,
  ],
  ["seccomp Unconfined", probe({ securityContext: { seccompProfile: { type: "Unconfined" } } }), false],
  ["seccomp RuntimeDefault", probe({ securityContext: { seccompProfile: { type: "RuntimeDefault" } } }), true],
  ["unsafe sysctl", probe({ securityContext: { sysctls: [{ name: "kernel.msgmax", value: "1" }] } }), false],
  ["safe sysctl", probe({ securityContext: { sysctls: [{ name: "net.ipv4.ping_group_range", value: "0 1" }] } }), true],
  ["SELinux type", probe({}, { securityContext: { seLinuxOptions: { type: "spc_t" } } }), false],
  ["SELinux container_t", probe({}, { securityContext: { seLinuxOptions: { type: "container_t" } } }), true],
  ["AppArmor unconfined", probe({}, { securityContext: { appArmorProfile: { type: "Unconfined" } } }), false],
  [
    "init container privileged",
    probe({ initContainers: [{ name: "i", image: "x", securityContext: { privileged: true } }] }),
    false,
  ],
];

/** A pod that meets `restricted`, with `spec` and `container` merged over the hardened fields. */
function hardened(spec: J = {}, container: J = {}): J {
  return probe(
    { securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } }, ...spec },
    {
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
      ...container,
    },
  );
}
const sc = (over: J): J => ({
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] }, ...over },
});

/** Every check of Pod Security `restricted`, each on both sides of its line (baseline's are above). */
const RESTRICTED_PROBES: Array<[string, J, boolean]> = [
  ["hardened", hardened(), true],
  ["plain (nothing hardened)", probe(), false],
  ["nfs volume", hardened({ volumes: [{ name: "n", nfs: { server: "192.0.2.10", path: "/x" } }] }), false],
  [
    "emptyDir and configMap volumes",
    hardened({
      volumes: [
        { name: "m", emptyDir: {} },
        { name: "c", configMap: { name: "x" } },
      ],
    }),
    true,
  ],
  ["allowPrivilegeEscalation unset", hardened({}, { securityContext: { capabilities: { drop: ["ALL"] } } }), false],
  ["allowPrivilegeEscalation true", hardened({}, sc({ allowPrivilegeEscalation: true })), false],
  ["capabilities not dropped", hardened({}, { securityContext: { allowPrivilegeEscalation: false } }), false],
  ["NET_BIND_SERVICE added", hardened({}, sc({ capabilities: { drop: ["ALL"], add: ["NET_BIND_SERVICE"] } })), true],
  ["CHOWN added", hardened({}, sc({ capabilities: { drop: ["ALL"], add: ["CHOWN"] } })), false],
  ["runAsNonRoot unset", hardened({ securityContext: { seccompProfile: { type: "RuntimeDefault" } } }), false],
  [
    "runAsNonRoot on the container",
    hardened({ securityContext: { seccompProfile: { type: "RuntimeDefault" } } }, sc({ runAsNonRoot: true })),
    true,
  ],
  ["runAsNonRoot false on the container", hardened({}, sc({ runAsNonRoot: false })), false],
  ["runAsUser 0", hardened({}, sc({ runAsUser: 0 })), false],
  ["runAsUser 1000", hardened({}, sc({ runAsUser: 1000 })), true],
  ["seccomp unset", hardened({ securityContext: { runAsNonRoot: true } }), false],
  [
    "seccomp Localhost on the container",
    hardened(
      { securityContext: { runAsNonRoot: true } },
      sc({ seccompProfile: { type: "Localhost", localhostProfile: "p.json" } }),
    ),
    true,
  ],
  [
    "own user namespace: runAsNonRoot and runAsUser relaxed",
    hardened(
      { hostUsers: false, securityContext: { seccompProfile: { type: "RuntimeDefault" } } },
      sc({ runAsUser: 0 }),
    ),
    true,
  ],
  ["own user namespace: procMount still refused", hardened({ hostUsers: false }, sc({ procMount: "Unmasked" })), false],
  [
    "init container without securityContext (payload staging)",
    hardened({ initContainers: [{ name: "stage", image: "registry.example/payload:1" }] }),
    false,
  ],
  ["hostIPC (a baseline control)", hardened({ hostIPC: true }), false],
];

describe("the in-process Pod Security checks give the API server's answer", () => {
  const PROBES: [PodSecurityLevel, typeof BASELINE_PROBES][] = [
    ["restricted", RESTRICTED_PROBES],
    ["baseline", BASELINE_PROBES],
  ];

  test("every level with an in-process check has probes, on both sides", () => {
    assert.deepEqual(Object.keys(IN_PROCESS).sort(), PROBES.map(([level]) => level).sort());
    for (const [level, probes] of PROBES) {
      assert.ok(
        probes.some(([, , accepted]) => accepted),
        `${level}: a probe the level accepts`,
      );
      assert.ok(
        probes.some(([, , accepted]) => !accepted),
        `${level}: a probe the level refuses`,
      );
    }
  });

  for (const [level, probes] of PROBES)
    test(`${level}: every check, both sides, in the server's words`, () => {
      const before = equalityCount.get(level) ?? 0;
      // admitPods fails on any disagreement of tools/podsecurity with the server; the probes are
      // meant to fall where they do
      const answers = kube.admitPods(
        probes.map(([, pod]) => pod),
        level,
        probes.map(([name]) => name),
      );
      answers.forEach((a, i) => {
        const [name, , accepted] = probes[i];
        assert.equal(a.accepted, accepted, `${name}: ${a.message}`);
      });
      // every probe Pod Security judged (accepted, or refused by it rather than by validation) was compared
      const judged = answers.filter((a) => a.accepted || POD_SECURITY_REFUSAL.test(a.message)).length;
      assert.ok(judged >= probes.length - 1, `${probes.length - judged} probes refused before Pod Security`);
      assert.equal((equalityCount.get(level) ?? 0) - before, judged, "every judged probe was compared");
    });
});
