// The README's Pod Security section against the mutation: it says the wired pod needs the
// `privileged` level because of `spec.hostIPC: true` and nothing else Pod Security checks. The
// full-injection case's input and output are compared on every field the baseline and restricted
// levels look at, so the section is wrong (and this fails) if the policy stops setting hostIPC or
// starts setting any of the others.
// Run: node bin/cachewarden.js build cacheblend-injector && node --import tsx --test policies/cacheblend-injector/test/pod-security.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { PolicyModule } from "../../../tools/host/guest";
import { evaluateRecorded } from "../../../tests/helpers/policy-fixtures";
import { kubeServer } from "../../../tests/helpers/apiserver";
import { EmittedPod, podSecurityAnswers, podSecurityProblems } from "../../../tests/helpers/emitted-pods";
import { readmeModesOf, wiredInMode } from "../../../tests/helpers/readme-levels";

const POLICY_DIR = path.resolve(__dirname, "..");
const WASM = path.join(POLICY_DIR, "annotated-policy.wasm");

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function readmeSection(title: string): string {
  const readme = fs.readFileSync(path.join(POLICY_DIR, "README.md"), "utf8");
  const m = readme.match(new RegExp(`\\n## ${title}\\n([\\s\\S]*?)(?=\\n## |$)`));
  assert.ok(m, `README has a "## ${title}" section`);
  return m[1];
}

/** The pod-level and container-level fields the Pod Security Standards check (baseline + restricted). */
function podSecurityFields(pod: J): unknown {
  const spec = pod.spec ?? {};
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  return {
    hostIPC: spec.hostIPC,
    hostNetwork: spec.hostNetwork,
    hostPID: spec.hostPID,
    securityContext: spec.securityContext,
    hostPathVolumes: (spec.volumes ?? []).filter((v: J) => v.hostPath !== undefined),
    containers: containers.map((c: J) => ({ securityContext: c.securityContext, ports: c.ports })),
  };
}

test(
  "README Pod Security: the wired pod needs `privileged` for hostIPC and for nothing else",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  () => {
    const section = readmeSection("Pod Security");
    assert.match(section, /`privileged`/);
    assert.match(section, /`spec\.hostIPC: true`/);

    const module = PolicyModule.fromFile(WASM);
    const { request, result: r } = evaluateRecorded(module, POLICY_DIR, "full-injection");
    const before = podSecurityFields(request.object);
    const after = podSecurityFields(r.mutatedObject);
    assert.equal((before as J).hostIPC, undefined, "the input pod does not share the host's IPC namespace");
    // the staged init container has no securityContext or ports, like every container of the input
    assert.deepEqual(after, {
      ...(before as J),
      hostIPC: true,
      containers: [{ securityContext: undefined, ports: undefined }, ...(before as J).containers],
    });
  },
);

test(
  "README Pod Security table: host IPC and host shm both need `privileged` (CacheBlend has no private shm), a PD decoder `baseline`, by the API server",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  async () => {
    const modes = readmeModesOf(POLICY_DIR);
    assert.deepEqual(modes.map((m) => [m.mode, m.level]).sort(), [
      ["host IPC", "privileged"],
      ["host shm", "privileged"],
      ["none (PD decoder)", "baseline"],
    ]);
    const module = PolicyModule.fromFile(WASM);
    const pods: EmittedPod[] = [
      ["host IPC", "current-hostipc-true"],
      ["host shm", "current-host-shm"],
      ["host IPC", "e1-engine-legacy"],
      ["none (PD decoder)", "pd-decoder-no-payload"],
    ].map(([mode, name]) => {
      const { request, result: r } = evaluateRecorded(module, POLICY_DIR, name);
      // a decoder's wiring adds nothing Pod Security checks: no mode's wiring is found in its pod
      const found = modes.find((m) => wiredInMode(m, request.object, r.mutatedObject))?.mode;
      assert.equal(found ?? "none (PD decoder)", mode, name);
      return { before: request.object, after: r.mutatedObject, label: `${name} (${mode})` };
    });
    const kube = await kubeServer();
    const incoming = podSecurityAnswers(
      kube,
      pods.map((p) => p.before),
    );
    incoming.forEach((a, i) => assert.ok(a.baseline.accepted, `${pods[i].label}: the input pod meets baseline`));
    const problems = podSecurityProblems(kube, modes, pods);
    assert.deepEqual(problems, [], problems.join("\n"));
  },
);
