// The fuzzer seeds every policy from its own test_data (tools/fuzz/run.ts), so the fields of
// cacheengine-validator's rules 14–36 are only fuzzed (type swaps at every path, splices, number
// spellings) when some case carries them. This holds the seeds to that: each field appears in a
// case the policy accepts and in a case it rejects for that field
// (docs/policies/cacheengine-validator.md#operator-rules).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { loadCases } from "../tools/host/cases";
import { loadValidateCases, PolicyTarget } from "../tools/bench/policies";
import { makeSeed, FuzzSeed } from "../tools/fuzz/mutators";

const DIR = path.resolve(__dirname, "..", "policies", "cacheengine-validator");
const target: PolicyTarget = {
  name: "cacheengine-validator",
  dir: DIR,
  wasm: "",
  mutating: false,
  contextAwareResources: [],
};

/** A field under `request.object.spec`, and the text a rejection for it carries. */
const FIELDS: Array<[string, string]> = [
  ["l1.sizeGB", "spec.l1.sizeGB: "],
  ["eviction.triggerWatermark", "spec.eviction.triggerWatermark: "],
  ["eviction.evictionRatio", "spec.eviction.evictionRatio: "],
  ["server.port", "spec.server.port: "],
  ["blend.partialBucket", "spec.blend.partialBucket: "],
  ["l2Backend.resp.host", "spec.l2Backend.resp.host: "],
  ["l2Backend.resp.port", "spec.l2Backend.resp.port: "],
  ["l2Backend.resp.authSecretRef.name", "spec.l2Backend.resp.authSecretRef.name: "],
  ["l2Backend.raw.type", "spec.l2Backend.raw.type: "],
  ["l2Backend.raw.config", "a raw adapter that sets a 'serde' config key"],
  ["l2Backend.serde.aesgcm.masterKeySecretRef.name", "spec.l2Backend.serde.aesgcm.masterKeySecretRef.name: "],
  ["coordinator.ref.name", "spec.coordinator: "],
  ["coordinator.url", "spec.coordinator"],
  ["coordinator.heartbeatInterval", "spec.coordinator.heartbeatInterval: "],
  ["coordinator.l2EventFlushInterval", "spec.coordinator.l2EventFlushInterval: "],
  ["gpuVendor", "spec.gpuVendor: "],
  ["hostIPC", "spec.hostIPC: "],
  ["isolatedIPC", "spec.isolatedIPC: "],
  ["pd.nixlSideChannelPort", "spec.pd.nixlSideChannelPort: "],
  ["pd.nixlLoadFailurePolicy", "spec.pd.nixlLoadFailurePolicy: "],
];

function carries(seed: FuzzSeed, field: string): boolean {
  const want = ["request", "object", "spec", ...field.split(".")].join("\u0000");
  return seed.paths.some((p) => p.path.join("\u0000") === want);
}

test("cacheengine-validator's fuzz seeds carry every field of rules 14-36, accepted and rejected", () => {
  const expects = new Map(loadCases(DIR).map((c) => [c.name, c.expect as { allowed?: boolean; message?: string }]));
  const seeds = loadValidateCases(target).map((c) => makeSeed(c.name, c.payload));
  assert.ok(seeds.length > 0, "no validate cases");
  for (const [field, rejection] of FIELDS) {
    const with_ = seeds.filter((s) => carries(s, field));
    const accepted = with_.filter((s) => expects.get(s.name)?.allowed === true);
    const rejected = with_.filter(
      (s) => expects.get(s.name)?.allowed === false && (expects.get(s.name)?.message ?? "").includes(rejection),
    );
    assert.ok(accepted.length > 0, `no accepted seed carries spec.${field}`);
    assert.ok(rejected.length > 0, `no seed carries spec.${field} and is rejected for it`);
  }
});
