// The emitted-Pod check of tests/helpers/pod-admission.ts: each rule fires on the Pod that breaks
// it and stays quiet on the one next to it that does not, and a violation the incoming Pod already
// had is reported only when the mutation made it worse.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertAcceptedPod,
  introducedViolations,
  loadPodSchema,
  podViolations,
  TOTAL_ANNOTATION_SIZE_LIMIT,
} from "./helpers/pod-admission";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function pod(): J {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "vllm", annotations: { "lmcache.ai/lmcache-engine": "e" } },
    spec: {
      initContainers: [{ name: "stage", image: "reg/p:v1", volumeMounts: [{ name: "payload", mountPath: "/p" }] }],
      containers: [
        {
          name: "vllm",
          image: "vllm/vllm-openai:v0.11.0",
          env: [{ name: "PYTHONPATH", value: "/p" }],
          volumeMounts: [
            { name: "payload", mountPath: "/p", readOnly: true },
            { name: "cache", mountPath: "/cache" },
          ],
        },
      ],
      volumes: [
        { name: "payload", emptyDir: {} },
        { name: "cache", emptyDir: {} },
      ],
    },
  };
}

const rules = (p: J): string[] => podViolations(p).map((v) => `${v.rule} ${v.path}`);

describe("emitted-Pod check", () => {
  before(loadPodSchema);

  test("a valid Pod has no violation", () => assert.deepEqual(rules(pod()), []));

  test("the v1 schema: types and required fields, with the path", () => {
    const p = pod();
    p.spec.hostIPC = "true";
    p.spec.containers[0].args = ["--x", 7];
    delete p.spec.containers[0].name;
    assert.deepEqual(
      podViolations(p).map((v) => `${v.rule} ${v.path} ${v.message}`),
      [
        "pod-schema spec.containers[0] required: must have required property name",
        "pod-schema spec.containers[0].args[1] type: must be string",
        "pod-schema spec.hostIPC type: must be boolean",
      ],
    );
  });

  test("unique container names across containers and init containers", () => {
    const p = pod();
    p.spec.initContainers[0].name = "vllm";
    assert.deepEqual(rules(p), ["unique-container-names spec.containers[0].name"]);
    p.spec.initContainers[0].name = "vllm-stage";
    assert.deepEqual(rules(p), []);
  });

  test("container and volume names are DNS-1123 labels", () => {
    const p = pod();
    p.spec.containers[0].name = "vLLM";
    p.spec.volumes[1].name = "cache_dir";
    p.spec.containers[0].volumeMounts[1].name = "cache_dir";
    assert.deepEqual(rules(p), ["volume-name spec.volumes[1].name", "container-name spec.containers[0].name"]);
  });

  test("unique volume names", () => {
    const p = pod();
    p.spec.volumes.push({ name: "cache", hostPath: { path: "/x" } });
    assert.deepEqual(rules(p), ["unique-volume-names spec.volumes[2].name"]);
  });

  test("every volumeMount names a volume, in containers and init containers", () => {
    const p = pod();
    p.spec.volumes.shift();
    assert.deepEqual(rules(p), [
      "volume-mount-names-a-volume spec.initContainers[0].volumeMounts[0].name",
      "volume-mount-names-a-volume spec.containers[0].volumeMounts[0].name",
    ]);
  });

  test("a mountPath once per container (the same path in two containers is fine)", () => {
    const p = pod();
    p.spec.containers[0].volumeMounts[1].mountPath = "/p";
    assert.deepEqual(rules(p), ["unique-mount-path spec.containers[0].volumeMounts[1].mountPath"]);
  });

  test("env names follow IsEnvVarName", () => {
    const p = pod();
    p.spec.containers[0].env.push({ name: "1ST", value: "x" }, { name: "A=B" }, { name: "_ok.name-1" });
    assert.deepEqual(rules(p), ["env-name spec.containers[0].env[1].name", "env-name spec.containers[0].env[2].name"]);
  });

  test("annotation keys are qualified names", () => {
    const p = pod();
    Object.assign(p.metadata.annotations, {
      "Example.COM/Key": "upper case is checked lower-cased",
      "a/b/c": "x",
      "-lead": "x",
      [`${"k".repeat(63)}`]: "63 is fine",
      [`${"k".repeat(64)}`]: "64 is not",
      "under_score.io/x": "a prefix is a DNS subdomain",
    });
    assert.deepEqual(rules(p), [
      'annotation-key metadata.annotations["a/b/c"]',
      'annotation-key metadata.annotations["-lead"]',
      `annotation-key metadata.annotations["${"k".repeat(64)}"]`,
      'annotation-key metadata.annotations["under_score.io/x"]',
    ]);
  });

  test("annotations total at most 256 KiB of keys and values", () => {
    const p = pod();
    const used = Buffer.byteLength("lmcache.ai/lmcache-engine") + 1 + 1; // + "e" + key "x"
    p.metadata.annotations.x = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT - used);
    assert.deepEqual(rules(p), []);
    p.metadata.annotations.x += "v";
    assert.deepEqual(rules(p), ["annotation-total-size metadata.annotations"]);
  });

  test("a violation the incoming Pod had is not reported; one the mutation added is", () => {
    const incoming = pod();
    incoming.spec.volumes.push({ name: "cache", emptyDir: {} }); // already duplicated
    const after = JSON.parse(JSON.stringify(incoming));
    // an inserted init container shifts every index: still the same violations
    after.spec.initContainers.unshift({ name: "lmcache-payload-stage", image: "reg/p:v1" });
    after.spec.volumes.unshift({ name: "lmcache-payload", emptyDir: {} });
    assert.deepEqual(introducedViolations(incoming, after), []);
    assertAcceptedPod(incoming, after, "shifted");
    after.spec.containers[0].volumeMounts.push({ name: "lmcache-payload", mountPath: "/p" });
    after.spec.initContainers.push({ name: "vllm", image: "x" });
    assert.deepEqual(
      introducedViolations(incoming, after).map((v) => `${v.rule} ${v.path}`),
      [
        "unique-container-names spec.containers[0].name",
        "unique-mount-path spec.containers[0].volumeMounts[2].mountPath",
      ],
    );
    assert.throws(
      () => assertAcceptedPod(incoming, after, "case x"),
      /case x: the emitted Pod would be rejected by the API server:\nunique-container-names at spec\.containers\[0\]\.name: duplicate container "vllm"/,
    );
  });

  test("a second copy of a violation, or a larger oversize, is worse", () => {
    const incoming = pod();
    incoming.spec.volumes.push({ name: "cache", emptyDir: {} });
    incoming.metadata.annotations.big = "v".repeat(TOTAL_ANNOTATION_SIZE_LIMIT);
    const same = JSON.parse(JSON.stringify(incoming));
    assert.deepEqual(introducedViolations(incoming, same), []);
    same.spec.volumes.push({ name: "cache", emptyDir: {} });
    same.metadata.annotations["lmcache.ai/lmcache-injected"] = "true";
    assert.deepEqual(
      introducedViolations(incoming, same).map((v) => v.rule),
      ["annotation-total-size", "unique-volume-names"],
    );
  });

  test("schema errors the incoming Pod had survive index shifts; new ones are reported", () => {
    const incoming = pod();
    incoming.spec.containers[0].args = [1];
    const after = JSON.parse(JSON.stringify(incoming));
    after.spec.containers[0].args = ["--kv-transfer-config", "{}", 1];
    assert.deepEqual(introducedViolations(incoming, after), []);
    after.spec.hostIPC = 1;
    assert.deepEqual(
      introducedViolations(incoming, after).map((v) => `${v.rule} ${v.path}`),
      ["pod-schema spec.hostIPC"],
    );
  });
});
