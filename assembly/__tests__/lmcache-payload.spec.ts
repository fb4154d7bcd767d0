import { Plan } from "../k8s/edits";
import { lmcacheKeys, cacheblendKeys } from "../keys/lmcache";
import { PayloadImage } from "../lmcache/injection";
import {
  addStagingEdits,
  decidePayload,
  PayloadOutcome,
  stagingConflict,
  stagingInitContainer,
} from "../lmcache/payload";
import { JsonValue, parseJsonString } from "../json/index";

function podWithMounts(mounts: string): JsonValue {
  const r = parseJsonString(
    '{"spec":{"containers":[{"name":"side"},{"name":"vllm","volumeMounts":' +
      mounts +
      '}],"volumes":[{"name":"lmcache-payload","hostPath":{"path":"/opt"}}]}}',
  );
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

function image(repository: string, tag: string, pullPolicy: string): PayloadImage {
  const p = new PayloadImage();
  p.repository = repository;
  p.tag = tag;
  p.pullPolicy = pullPolicy;
  return p;
}

describe("decidePayload (D6, X2, X3)", () => {
  it("no image: absent, empty or blank repository", () => {
    expect(decidePayload(null).outcome).toBe(PayloadOutcome.NoImage);
    expect(decidePayload(image("", "pinned", "")).outcome).toBe(PayloadOutcome.NoImage);
    expect(decidePayload(image(" \t", "", "")).outcome).toBe(PayloadOutcome.NoImage);
  });
  it("the ImageSpec default is refused", () => {
    const d = decidePayload(image("lmcache/vllm-openai", "latest", "IfNotPresent"));
    expect(d.outcome).toBe(PayloadOutcome.Invalid);
    expect(d.detail).toBe("payloadImage.repository is the ImageSpec default lmcache/vllm-openai");
  });
  it("whitespace, control characters and pull policies", () => {
    expect(decidePayload(image("reg/p latest", "", "")).detail).toBe(
      "payloadImage repository is not a valid image reference part",
    );
    expect(decidePayload(image("reg/p", "v1\n", "")).detail).toBe(
      "payloadImage tag is not a valid image reference part",
    );
    expect(decidePayload(image("reg/p", "v1", "Sometimes")).detail).toBe(
      'payloadImage.pullPolicy "Sometimes" is not one of Always, Never, IfNotPresent',
    );
    expect(decidePayload(image("reg/p", "v1", "Never")).stages).toBe(true);
  });
  it("a tag inside the repository is refused, naming it", () => {
    const d = decidePayload(image("reg/p:v1", "", ""));
    expect(d.outcome).toBe(PayloadOutcome.Invalid);
    expect(d.detail).toBe(
      'payloadImage.repository "reg/p:v1" holds a tag in its last path segment; put the tag in payloadImage.tag',
    );
    expect(decidePayload(image("reg:5000/p", "v1", "")).ref).toBe("reg:5000/p:v1");
  });
  it("references: tag, default tag, digest", () => {
    const a = decidePayload(image("reg/p", "pinned", "Always"));
    expect(a.stages).toBe(true);
    expect(a.ref).toBe("reg/p:pinned");
    expect(a.pullPolicy).toBe("Always");
    const b = decidePayload(image("reg/p", "", ""));
    expect(b.ref).toBe("reg/p:latest");
    expect(b.pullPolicy).toBe("IfNotPresent");
    expect(decidePayload(image("reg/p@sha256:abc", "latest", "")).ref).toBe("reg/p@sha256:abc");
  });
});

describe("staging edits", () => {
  it("the init container JSON is exact", () => {
    expect(stagingInitContainer(lmcacheKeys(), "reg/p:pinned", "IfNotPresent").toString()).toBe(
      '{"name":"lmcache-payload-stage","image":"reg/p:pinned","env":[{"name":"SHARED_DIR","value":"/lmcache-payload"}],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload"}],"imagePullPolicy":"IfNotPresent"}',
    );
    expect(stagingInitContainer(cacheblendKeys(), "r:t", "Never").toString()).toBe(
      '{"name":"cb-plugin-stage","image":"r:t","env":[{"name":"SHARED_DIR","value":"/cb-plugin"}],"volumeMounts":[{"name":"cb-plugin","mountPath":"/cb-plugin"}],"imagePullPolicy":"Never"}',
    );
  });
  it("volume, init container, read-only mount, PYTHONPATH, in that order", () => {
    const plan = new Plan();
    addStagingEdits(plan, 1, lmcacheKeys(), decidePayload(image("reg/p", "pinned", "")));
    expect(plan.describe()).toBe(
      [
        'append-if-absent spec.volumes {"name":"lmcache-payload","emptyDir":{}}',
        'append-if-absent spec.initContainers {"name":"lmcache-payload-stage","image":"reg/p:pinned","env":[{"name":"SHARED_DIR","value":"/lmcache-payload"}],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload"}],"imagePullPolicy":"IfNotPresent"}',
        'append-if-absent containers[1].volumeMounts {"name":"lmcache-payload","mountPath":"/lmcache-payload","readOnly":true}',
        "env-prepend-path containers[1] PYTHONPATH /lmcache-payload",
      ].join("\n"),
    );
  });
});

describe("stagingConflict", () => {
  it("the staging volume mounted elsewhere, or another volume at the staging path", () => {
    expect(
      stagingConflict(podWithMounts('[{"name":"lmcache-payload","mountPath":"/data"}]'), 1, "vllm", lmcacheKeys()),
    ).toBe('container "vllm" mounts volume "lmcache-payload" at "/data", which conflicts with the staging volume');
    expect(
      stagingConflict(podWithMounts('[{"name":"models","mountPath":"/cb-plugin"}]'), 1, "vllm", cacheblendKeys()),
    ).toBe('container "vllm" mounts volume "models" at "/cb-plugin", which conflicts with the staging volume');
  });
  it("no conflict: the staging mount itself, other mounts, other containers, a kept volume", () => {
    const keys = lmcacheKeys();
    expect(
      stagingConflict(
        podWithMounts(
          '[{"name":"models","mountPath":"/models"},{"name":"lmcache-payload","mountPath":"/lmcache-payload"}]',
        ),
        1,
        "vllm",
        keys,
      ),
    ).toBe("");
    expect(stagingConflict(podWithMounts('[{"name":"lmcache-payload","mountPath":"/data"}]'), 0, "side", keys)).toBe(
      "",
    );
    expect(stagingConflict(podWithMounts("[]"), 1, "vllm", keys)).toBe("");
  });
});
