import { JsonValue, parseJsonString } from "../json/index";
import { RecordedLookups } from "../kubewarden/host";
import {
  checkConnectionText,
  connectionConfigMapCanExist,
  EngineStep,
  lookupConnectionConfigMap,
  lookupEngineCr,
  readConnectionValue,
} from "../lmcache/engine";

const ENGINE_PAYLOAD =
  '{"api_version":"lmcache.lmcache.ai/v1alpha1","kind":"LMCacheEngine","name":"cb","namespace":"vllm-ns","disable_cache":false}';
const CM_PAYLOAD =
  '{"api_version":"v1","kind":"ConfigMap","name":"cb-connection","namespace":"vllm-ns","disable_cache":false}';
const DENIED =
  "Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.";
const NOT_FOUND_CR =
  "Callback evaluation failure: Cannot find lmcache.lmcache.ai/v1alpha1/LMCacheEngine named 'cb' inside of namespace 'Some(\"vllm-ns\")'";
const NOT_FOUND_CM =
  "Callback evaluation failure: Cannot find v1/ConfigMap named 'cb-connection' inside of namespace 'Some(\"vllm-ns\")'";

function json(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("unparsable test input");
}

describe("lookupEngineCr", () => {
  it("sends the exact lookup payload and reads spec.injection", () => {
    const l = new RecordedLookups().succeed(
      '{"spec":{"injection":{"targetContainer":"vllm"}}}',
      "get_resource",
      ENGINE_PAYLOAD,
    );
    const r = lookupEngineCr(l, "LMCacheEngine", "vllm-ns", "cb");
    expect(r.step).toBe(EngineStep.Ok);
    expect(r.injection.targetContainer).toBe("vllm");
    expect(l.calls.length).toBe(1);
    expect(l.calls[0].payload).toBe(ENGINE_PAYLOAD);
  });
  it("not found, denied, failed, malformed", () => {
    const nf = lookupEngineCr(new RecordedLookups().fail(NOT_FOUND_CR), "LMCacheEngine", "vllm-ns", "cb");
    expect(nf.step).toBe(EngineStep.NotFound);
    expect(nf.detail).toBe("LMCacheEngine vllm-ns/cb not found");
    const dn = lookupEngineCr(new RecordedLookups().fail(DENIED), "LMCacheEngine", "vllm-ns", "cb");
    expect(dn.step).toBe(EngineStep.Denied);
    expect(dn.detail).toBe("lookup of LMCacheEngine vllm-ns/cb was denied; use settings.engines");
    const fl = lookupEngineCr(
      new RecordedLookups().fail("Callback evaluation failure: ApiError 500"),
      "LMCacheEngine",
      "vllm-ns",
      "cb",
    );
    expect(fl.step).toBe(EngineStep.Failed);
    expect(fl.detail).toBe("lookup of LMCacheEngine vllm-ns/cb failed");
    expect(lookupEngineCr(new RecordedLookups().succeed("not json"), "LMCacheEngine", "vllm-ns", "cb").step).toBe(
      EngineStep.Failed,
    );
    expect(lookupEngineCr(new RecordedLookups().succeed("[1]"), "LMCacheEngine", "vllm-ns", "cb").step).toBe(
      EngineStep.Failed,
    );
  });
  it("read but malformed: engine-invalid, naming the field", () => {
    const a = lookupEngineCr(
      new RecordedLookups().succeed('{"spec":{"injection":"x"}}'),
      "LMCacheEngine",
      "vllm-ns",
      "cb",
    );
    expect(a.step).toBe(EngineStep.EngineInvalid);
    expect(a.detail).toBe("LMCacheEngine vllm-ns/cb is malformed: spec.injection has the wrong JSON type");
    const b = lookupEngineCr(
      new RecordedLookups().succeed('{"spec":{"injection":{"targetContainer":7}}}'),
      "CacheBlendEngine",
      "ns2",
      "cb",
    );
    expect(b.step).toBe(EngineStep.EngineInvalid);
    expect(b.detail).toBe(
      "CacheBlendEngine ns2/cb is malformed: spec.injection.targetContainer has the wrong JSON type",
    );
    const c = lookupEngineCr(
      new RecordedLookups().succeed('{"spec":{"injection":{"imagePullSecrets":"x"}}}'),
      "LMCacheEngine",
      "vllm-ns",
      "cb",
    );
    expect(c.detail).toBe(
      "LMCacheEngine vllm-ns/cb is malformed: spec.injection.imagePullSecrets has the wrong JSON type",
    );
  });
});

describe("lookupConnectionConfigMap", () => {
  it("exact payload, verbatim value", () => {
    const l = new RecordedLookups().succeed(
      '{"data":{"kv-transfer-config.json":"{\\n  \\"kv_role\\": \\"kv_both\\"\\n}"}}',
      "get_resource",
      CM_PAYLOAD,
    );
    const r = lookupConnectionConfigMap(l, "vllm-ns", "cb");
    expect(r.step).toBe(EngineStep.Ok);
    expect(r.kvText).toBe('{\n  "kv_role": "kv_both"\n}');
  });
  it("not found, denied", () => {
    const nf = lookupConnectionConfigMap(new RecordedLookups().fail(NOT_FOUND_CM), "vllm-ns", "cb");
    expect(nf.step).toBe(EngineStep.NotFound);
    expect(nf.detail).toBe("ConfigMap vllm-ns/cb-connection not found");
    const dn = lookupConnectionConfigMap(new RecordedLookups().fail(DENIED), "vllm-ns", "cb");
    expect(dn.detail).toBe("lookup of ConfigMap vllm-ns/cb-connection was denied; use settings.engines");
  });
  it("X4: a name that cannot exist is not looked up", () => {
    const long = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(58);
    expect(connectionConfigMapCanExist(long)).toBe(false);
    expect(connectionConfigMapCanExist("a".repeat(242))).toBe(true);
    const l = new RecordedLookups();
    const r = lookupConnectionConfigMap(l, "vllm-ns", long);
    expect(r.step).toBe(EngineStep.NotFound);
    expect(l.calls.length).toBe(0);
  });
  it("data shapes (D3 first half)", () => {
    expect(readConnectionValue(json("{}"), "ns", "cb").step).toBe(EngineStep.ConfigMissing);
    expect(readConnectionValue(json('{"data":null}'), "ns", "cb").step).toBe(EngineStep.ConfigMissing);
    expect(readConnectionValue(json('{"data":{"other":"x"}}'), "ns", "cb").step).toBe(EngineStep.ConfigMissing);
    expect(readConnectionValue(json('{"data":{"kv-transfer-config.json":""}}'), "ns", "cb").step).toBe(
      EngineStep.ConfigMissing,
    );
    expect(readConnectionValue(json('{"data":{"kv-transfer-config.json":5}}'), "ns", "cb").step).toBe(
      EngineStep.ConfigMissing,
    );
    expect(readConnectionValue(json('{"data":{"kv-transfer-config.json":5}}'), "ns", "cb").detail).toBe(
      "ConfigMap ns/cb-connection has no kv-transfer-config.json value",
    );
    expect(readConnectionValue(json('{"data":"x"}'), "ns", "cb").step).toBe(EngineStep.Failed);
  });
});

describe("checkConnectionText (D3)", () => {
  it("only a JSON object passes, verbatim", () => {
    expect(checkConnectionText('{\n "a": 1 }\n', "ns", "cb").kvText).toBe('{\n "a": 1 }\n');
    expect(checkConnectionText("{}", "ns", "cb").step).toBe(EngineStep.Ok);
    const arr = checkConnectionText("[1,2]", "ns", "cb");
    expect(arr.step).toBe(EngineStep.ConfigInvalid);
    expect(arr.detail).toBe("kv-transfer-config.json of ns/cb-connection is not a JSON object");
    expect(checkConnectionText("not json", "ns", "cb").step).toBe(EngineStep.ConfigInvalid);
    expect(checkConnectionText("{} x", "ns", "cb").step).toBe(EngineStep.ConfigInvalid);
    expect(checkConnectionText('"{}"', "ns", "cb").step).toBe(EngineStep.ConfigInvalid);
  });
});
