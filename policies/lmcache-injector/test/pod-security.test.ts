// The README's "Which LMCache operator?" table against the mutation: for one case per IPC mode the
// pod is wired in that mode and, asked of the suite's real API server, needs exactly the Pod
// Security level the table states (private shm meets `baseline`: no hostIPC, no hostPath; the two
// host modes are refused by `baseline` for what they add), while every input pod meets `baseline`.
// Run: node bin/cachewarden.js build lmcache-injector && node --import tsx --test policies/lmcache-injector/test/pod-security.test.ts
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
const data = (f: string): string => path.join(POLICY_DIR, "test_data", f);

/** One case per mode (docs/policies/lmcache-injector.md#ipc-modes). */
const MODE_CASES: Array<[string, string, string]> = [
  ["private shm", "ipc-nvidia-private-shm", "settings_default.json"],
  ["host shm", "ipc-amd-host-shm", "settings_default.json"],
  ["host IPC", "ipc-amd-hostipc", "settings_default.json"],
  ["host IPC", "ipc-legacy-engine", "settings_default.json"],
  ["host IPC", "ipc-e1-engine-legacy", "settings_default.json"],
  ["private shm", "ipc-mode-isolated-legacy", "settings_ipc-mode-isolated.json"],
  ["host shm", "ipc-mode-hostshm-current", "settings_ipc-mode-hostShm.json"],
];

test(
  "README Pod Security levels: each IPC mode's wired pod needs exactly the level the table states, by the API server",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  async () => {
    const modes = readmeModesOf(POLICY_DIR);
    assert.deepEqual(modes.map((m) => m.mode).sort(), ["host IPC", "host shm", "private shm"]);
    assert.equal(modes.find((m) => m.mode === "private shm")?.level, "baseline");
    const module = PolicyModule.fromFile(WASM);
    const pods: EmittedPod[] = MODE_CASES.map(([mode, name, settings]) => {
      const { request, result: r } = evaluateRecorded(
        module,
        POLICY_DIR,
        name,
        JSON.parse(fs.readFileSync(data(settings), "utf8")) as Record<string, unknown>,
      );
      assert.ok(r.mutatedObject, `${name}: the pod is wired`);
      const wiredMode = modes.find((m) => wiredInMode(m, request.object, r.mutatedObject));
      assert.equal(wiredMode?.mode, mode, `${name} is wired in mode ${mode}`);
      return { before: request.object, after: r.mutatedObject, label: `${name} (${mode})` };
    });
    const kube = await kubeServer();
    const incoming = podSecurityAnswers(
      kube,
      pods.map((p) => p.before),
      pods.map((p) => p.label),
    );
    incoming.forEach((a, i) => assert.ok(a.baseline.accepted, `${pods[i].label}: the input pod meets baseline`));
    const problems = podSecurityProblems(kube, modes, pods);
    assert.deepEqual(problems, [], problems.join("\n"));
  },
);
