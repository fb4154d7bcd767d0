// The pull-secret override annotation against Kubernetes' 262,144 bytes for all of a pod's
// annotations (docs/decisions.md#annotation-over-the-limit): at the limit both injectors read it
// and append every name; one byte over, they skip `invalid-image-pull-secrets` without reading it.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { hostileShapes, MAX_ANNOTATIONS_BYTES } from "../tools/bench/hostile-shapes";
import { PolicyModule } from "../tools/host/guest";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const ROOT = path.resolve(__dirname, "..");
const INJECTORS = [
  { policy: "lmcache-injector", key: "lmcache.ai/lmcache-image-pull-secrets" },
  { policy: "cacheblend-injector", key: "lmcache.ai/cacheblend-image-pull-secrets" },
];

/** the hostile at-limit shape, without its padding */
function atLimit(policy: string): J {
  const shape = hostileShapes(policy, 1).find((s) => s.name === "pull-secrets-annotation-at-limit");
  assert.ok(shape, policy);
  return JSON.parse(shape.payload.toString("utf8"));
}

function evaluate(policy: string, payload: J): J {
  const wasm = path.join(ROOT, "policies", policy, "policy.wasm");
  const r = PolicyModule.fromFile(wasm).call("validate", Buffer.from(JSON.stringify(payload)));
  assert.ok(r.ok && r.response, `${policy}: ${r.error ?? r.trap}`);
  return JSON.parse(r.response.toString("utf8"));
}

describe("pull-secret annotation at Kubernetes' annotation size limit", () => {
  for (const { policy, key } of INJECTORS) {
    const built = fs.existsSync(path.join(ROOT, "policies", policy, "policy.wasm"));
    test(`${policy}: read at the limit, skipped one byte over`, { skip: built ? false : "not built" }, () => {
      const payload = atLimit(policy);
      const annotations = payload.request.object.metadata.annotations;
      const value: string = annotations[key];
      assert.equal(key.length + value.length, MAX_ANNOTATIONS_BYTES);
      // the last name is cut to fit and may repeat an earlier one: the merge appends a name once
      const names = [...new Set(value.split(",").filter((n) => n.length > 0))];

      const read = evaluate(policy, payload);
      assert.equal(read.accepted, true);
      assert.equal(read.warnings, undefined, JSON.stringify(read.warnings));
      const secrets: J[] = read.mutated_object.spec.imagePullSecrets;
      assert.deepEqual(
        secrets.slice(-names.length).map((s) => s.name),
        names,
      );

      annotations[key] = value + "s";
      const over = evaluate(policy, payload);
      assert.equal(over.accepted, true);
      assert.deepEqual(over.warnings, [
        `${policy}: injection skipped (invalid-image-pull-secrets): annotation ${key} is over Kubernetes' 262144-byte limit for all of a pod's annotations`,
      ]);
      assert.equal(JSON.stringify(over).includes('"name":"s1"'), false);
    });
  }
});
