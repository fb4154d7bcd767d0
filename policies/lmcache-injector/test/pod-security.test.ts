// The README's "Which LMCache operator?" table against the mutation: for one case per IPC mode the
// wired pod needs exactly the Pod Security level the table states (private shm meets `baseline`:
// no hostIPC, no hostPath), while every input pod meets `baseline`.
// Run: node bin/cachewarden.js build lmcache-injector && node --import tsx --test policies/lmcache-injector/test/pod-security.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { PolicyModule } from "../../../tools/host/guest";
import { evaluateRecorded } from "../../../tests/helpers/policy-fixtures";
import { baselineViolations, neededLevel } from "../../../tools/podsecurity/baseline";
import { readmeModeLevels } from "../../../tests/helpers/readme-levels";

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
  "README Pod Security levels: each IPC mode's wired pod needs exactly the level the table states",
  { skip: fs.existsSync(WASM) ? false : `${WASM} not built (run cachewarden build)` },
  () => {
    const levels = readmeModeLevels(path.join(POLICY_DIR, "README.md"));
    assert.deepEqual([...levels.keys()].sort(), ["host IPC", "host shm", "private shm"]);
    assert.equal(levels.get("private shm"), "baseline");
    const module = PolicyModule.fromFile(WASM);
    for (const [mode, name, settings] of MODE_CASES) {
      const { request, result: r } = evaluateRecorded(
        module,
        POLICY_DIR,
        name,
        JSON.parse(fs.readFileSync(data(settings), "utf8")) as Record<string, unknown>,
      );
      assert.deepEqual(baselineViolations(request.object), [], `${name}: the input pod meets baseline`);
      assert.ok(r.mutatedObject, `${name}: the pod is wired`);
      assert.equal(
        neededLevel(r.mutatedObject),
        levels.get(mode),
        `${name} (${mode}): ${baselineViolations(r.mutatedObject)}`,
      );
    }
  },
);
