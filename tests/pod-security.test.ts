// tools/podsecurity/levels.ts, control by control and on both sides: the pod each check lets
// through and the one it refuses, at `baseline` and `restricted`, with the version a check starts
// at, the Windows exemptions, and the namespace labels preview reads. The suite's real API server
// holds the same function equal to the server's own Pod Security admission.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatViolations, violations, type Level, type PolicyVersion } from "../tools/podsecurity/levels";
import { namespacePodSecurity, parseVersion } from "../tools/podsecurity/namespace";
import { baselineViolations, neededLevel } from "../tools/podsecurity/baseline";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A pod that meets `restricted` (every control set the strict way); cases break one thing each. */
function strictPod(): J {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", annotations: {} },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
      initContainers: [
        {
          name: "init",
          image: "i",
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
        },
      ],
      containers: [
        {
          name: "app",
          image: "a",
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
        },
      ],
      volumes: [{ name: "shm", emptyDir: { medium: "Memory" } }],
    },
  };
}

const checks = (level: Level, pod: J, version: PolicyVersion = "latest"): string[] =>
  violations(level, pod, version).map((v) => v.check);
const app = (pod: J): J => pod.spec.containers[0];
const init = (pod: J): J => pod.spec.initContainers[0];

/** [name, the change, the check it trips, the level that refuses it] */
const CASES: [string, (p: J) => void, string, Level][] = [
  ["hostIPC", (p) => (p.spec.hostIPC = true), "hostNamespaces", "baseline"],
  ["hostPID", (p) => (p.spec.hostPID = true), "hostNamespaces", "baseline"],
  ["hostNetwork", (p) => (p.spec.hostNetwork = true), "hostNamespaces", "baseline"],
  [
    "a hostPath volume",
    (p) => p.spec.volumes.push({ name: "h", hostPath: { path: "/dev/shm" } }),
    "hostPathVolumes",
    "baseline",
  ],
  ["a privileged init container", (p) => (init(p).securityContext.privileged = true), "privileged", "baseline"],
  [
    "an added SYS_ADMIN",
    (p) => (app(p).securityContext.capabilities.add = ["SYS_ADMIN"]),
    "capabilities_baseline",
    "baseline",
  ],
  ["a hostPort", (p) => (app(p).ports = [{ containerPort: 80, hostPort: 8080 }]), "hostPorts", "baseline"],
  [
    "hostProcess",
    (p) => (p.spec.securityContext.windowsOptions = { hostProcess: true }),
    "windowsHostProcess",
    "baseline",
  ],
  [
    "an Unconfined AppArmor annotation",
    (p) => (p.metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"] = "unconfined"),
    "appArmorProfile",
    "baseline",
  ],
  [
    "an Unconfined AppArmor profile",
    (p) => (app(p).securityContext.appArmorProfile = { type: "Unconfined" }),
    "appArmorProfile",
    "baseline",
  ],
  ["an SELinux user", (p) => (app(p).securityContext.seLinuxOptions = { user: "root" }), "seLinuxOptions", "baseline"],
  [
    "an SELinux type spc_t",
    (p) => (p.spec.securityContext.seLinuxOptions = { type: "spc_t" }),
    "seLinuxOptions",
    "baseline",
  ],
  ["procMount Unmasked", (p) => (app(p).securityContext.procMount = "Unmasked"), "procMount", "baseline"],
  [
    "seccomp Unconfined",
    (p) => (app(p).securityContext.seccompProfile = { type: "Unconfined" }),
    "seccompProfile_baseline",
    "baseline",
  ],
  [
    "an unsafe sysctl",
    (p) => (p.spec.securityContext.sysctls = [{ name: "kernel.msgmax", value: "1" }]),
    "sysctls",
    "baseline",
  ],
  [
    "a probe host",
    (p) => (app(p).livenessProbe = { httpGet: { host: "10.0.0.1", port: 80 } }),
    "hostProbesAndHostLifecycle",
    "baseline",
  ],
  [
    "an nfs volume",
    (p) => p.spec.volumes.push({ name: "n", nfs: { server: "s", path: "/" } }),
    "restrictedVolumes",
    "restricted",
  ],
  [
    "an init container without securityContext",
    (p) => delete init(p).securityContext,
    "allowPrivilegeEscalation",
    "restricted",
  ],
  [
    "allowPrivilegeEscalation unset",
    (p) => delete app(p).securityContext.allowPrivilegeEscalation,
    "allowPrivilegeEscalation",
    "restricted",
  ],
  ["runAsNonRoot unset", (p) => delete p.spec.securityContext.runAsNonRoot, "runAsNonRoot", "restricted"],
  [
    "runAsNonRoot false on a container",
    (p) => (app(p).securityContext.runAsNonRoot = false),
    "runAsNonRoot",
    "restricted",
  ],
  ["runAsUser 0", (p) => (p.spec.securityContext.runAsUser = 0), "runAsUser", "restricted"],
  ["seccomp unset", (p) => delete p.spec.securityContext.seccompProfile, "seccompProfile_restricted", "restricted"],
  [
    "capabilities not dropped",
    (p) => (app(p).securityContext.capabilities = {}),
    "capabilities_restricted",
    "restricted",
  ],
  [
    "an added NET_RAW",
    (p) => (app(p).securityContext.capabilities.add = ["NET_RAW"]),
    "capabilities_restricted",
    "restricted",
  ],
];

describe("each control, on both sides", () => {
  test("the strict pod meets restricted (so each case below breaks exactly one thing)", () => {
    assert.deepEqual(violations("restricted", strictPod()), []);
    assert.equal(neededLevel(strictPod()), "restricted");
  });

  /** the restricted check that replaces a baseline one at the restricted level (upstream's overrides) */
  const OVERRIDDEN_BY: Record<string, string> = {
    hostPathVolumes: "restrictedVolumes",
    capabilities_baseline: "capabilities_restricted",
    procMount: "procMount_restricted",
    seccompProfile_baseline: "seccompProfile_restricted",
  };
  for (const [name, change, check, level] of CASES) {
    test(`${name}: refused by ${level} (${check})`, () => {
      const pod = strictPod();
      change(pod);
      const atRestricted = OVERRIDDEN_BY[check] ?? check;
      assert.ok(
        checks("restricted", pod).includes(atRestricted),
        `restricted: ${checks("restricted", pod).join(", ")}`,
      );
      assert.equal(checks("baseline", pod).includes(check), level === "baseline");
      assert.deepEqual(violations("privileged", pod), []);
    });
  }

  test("the allowed values pass: baseline capabilities, NET_BIND_SERVICE, safe sysctls, container_t, Localhost, hostPort 0", () => {
    const pod = strictPod();
    app(pod).securityContext.capabilities.add = ["NET_BIND_SERVICE"];
    init(pod).securityContext.capabilities.add = ["CHOWN"];
    pod.spec.securityContext.sysctls = [{ name: "net.ipv4.ip_local_port_range", value: "1 2" }];
    app(pod).securityContext.seLinuxOptions = { type: "container_t" };
    app(pod).securityContext.seccompProfile = { type: "Localhost", localhostProfile: "p.json" };
    app(pod).ports = [{ containerPort: 80, hostPort: 0 }];
    pod.metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"] = "runtime/default";
    assert.deepEqual(checks("baseline", pod), []);
    assert.deepEqual(checks("restricted", pod), ["capabilities_restricted"], "CHOWN is baseline-only");
  });
});

describe("versions", () => {
  test("a check applies from its version on: restricted capabilities v1.22, runAsUser v1.23, probe hosts v1.34", () => {
    const pod = strictPod();
    app(pod).securityContext.capabilities = {};
    pod.spec.securityContext.runAsUser = 0;
    app(pod).livenessProbe = { tcpSocket: { host: "h", port: 1 } };
    const at = (minor: number) => checks("restricted", pod, { major: 1, minor });
    assert.deepEqual(at(21), []);
    assert.deepEqual(at(22), ["capabilities_restricted"]);
    // in upstream's order: the baseline checks by id, then the restricted ones by id
    assert.deepEqual(at(23), ["capabilities_restricted", "runAsUser"]);
    assert.deepEqual(at(33), ["capabilities_restricted", "runAsUser"]);
    assert.deepEqual(at(34), ["hostProbesAndHostLifecycle", "capabilities_restricted", "runAsUser"]);
  });

  test("sysctls allowed later are refused before their version", () => {
    const pod = strictPod();
    pod.spec.securityContext.sysctls = [{ name: "net.ipv4.tcp_keepalive_time", value: "1" }];
    assert.deepEqual(checks("baseline", pod, { major: 1, minor: 28 }), ["sysctls"]);
    assert.deepEqual(checks("baseline", pod, { major: 1, minor: 29 }), []);
  });

  test("from v1.35 a pod in its own user namespace is relaxed from procMount (baseline), runAsNonRoot and runAsUser", () => {
    const pod = strictPod();
    pod.spec.hostUsers = false;
    delete pod.spec.securityContext.runAsNonRoot;
    pod.spec.securityContext.runAsUser = 0;
    app(pod).securityContext.procMount = "Unmasked";
    const v = (minor: number) => ({ major: 1, minor });
    assert.deepEqual(checks("baseline", pod, v(34)), ["procMount"]);
    assert.deepEqual(checks("baseline", pod, v(35)), []);
    assert.deepEqual(checks("restricted", pod, v(34)), ["procMount", "runAsNonRoot", "runAsUser"]);
    // restricted keeps refusing the unmasked /proc, by its own check
    assert.deepEqual(checks("restricted", pod, v(35)), ["procMount_restricted"]);
    pod.spec.hostUsers = true;
    assert.deepEqual(checks("restricted", pod, v(35)), ["procMount_restricted", "runAsNonRoot", "runAsUser"]);
  });

  test("Windows pods skip the Linux-only restricted controls from v1.25", () => {
    const pod = strictPod();
    pod.spec.os = { name: "windows" };
    delete pod.spec.securityContext.runAsNonRoot;
    assert.deepEqual(checks("restricted", pod, { major: 1, minor: 24 }), ["runAsNonRoot"]);
    assert.deepEqual(checks("restricted", pod, { major: 1, minor: 25 }), []);
  });
});

describe("namespace labels and messages", () => {
  test("enforce and warn with their versions; an unknown enforce level fails closed, an unknown warn level open; a bad version is latest", () => {
    assert.deepEqual(
      namespacePodSecurity({
        "pod-security.kubernetes.io/enforce": "baseline",
        "pod-security.kubernetes.io/enforce-version": "v1.29",
        "pod-security.kubernetes.io/warn": "restricted",
        "pod-security.kubernetes.io/audit": "restricted",
      }),
      [
        { mode: "enforce", level: "baseline", version: { major: 1, minor: 29 } },
        { mode: "warn", level: "restricted", version: "latest" },
      ],
    );
    assert.deepEqual(
      namespacePodSecurity({
        "pod-security.kubernetes.io/enforce": "strict",
        "pod-security.kubernetes.io/warn": "strict",
      }),
      [{ mode: "enforce", level: "restricted", version: "latest" }],
    );
    assert.deepEqual(namespacePodSecurity({}), []);
    for (const bad of ["1.29", "v2.1", "v1.05", "v1.x", ""]) assert.equal(parseVersion(bad), "latest", bad);
    assert.deepEqual(parseVersion("v1.0"), { major: 1, minor: 0 });
    assert.deepEqual(parseVersion("v1.35"), { major: 1, minor: 35 });
    assert.equal(parseVersion("latest"), "latest");
  });

  test("the API server's wording, and the baseline view the injectors' tests use", () => {
    const pod = strictPod();
    pod.spec.hostIPC = true;
    pod.spec.volumes.push({ name: "shm-host", hostPath: { path: "/dev/shm" } });
    assert.equal(
      formatViolations("baseline", "latest", violations("baseline", pod)),
      'violates PodSecurity "baseline:latest": host namespaces (hostIPC=true), hostPath volumes (volume "shm-host")',
    );
    assert.deepEqual(baselineViolations(pod), [
      "host namespaces (hostIPC=true)",
      'hostPath volumes (volume "shm-host")',
    ]);
    assert.equal(neededLevel(pod), "privileged");
  });

  test("malformed pods are checked without throwing", () => {
    for (const pod of [null, {}, { spec: { containers: "x", volumes: [null] } }, { spec: { containers: [null] } }])
      assert.doesNotThrow(() => violations("restricted", pod));
  });
});
