import { JsonValue, parseJsonString } from "../json/index";
import { readEngineCrInjection, readEngineInjection } from "../lmcache/injection";

function json(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("unparsable test input");
}

describe("readEngineInjection", () => {
  it("absent or null injection reads as empty", () => {
    const r = readEngineInjection(null, "spec.injection");
    expect(r.ok).toBe(true);
    expect(r.value.payloadImage === null).toBe(true);
    expect(r.value.imagePullSecrets.length).toBe(0);
    expect(r.value.hasTargetContainer).toBe(false);
    expect(readEngineInjection(JsonValue.nul(), "x").ok).toBe(true);
  });
  it("reads every field; null strings are empty", () => {
    const r = readEngineInjection(
      json(
        '{"payloadImage":{"repository":"reg/p","tag":null},"imagePullSecrets":[{"name":"a"},{},{"name":" b "}],"targetContainer":" vllm ","cudagraph":"piecewise"}',
      ),
      "spec.injection",
    );
    expect(r.ok).toBe(true);
    const img = r.value.payloadImage;
    expect(img !== null).toBe(true);
    if (img !== null) {
      expect(img.repository).toBe("reg/p");
      expect(img.tag).toBe("");
      expect(img.pullPolicy).toBe("");
    }
    // names as given: an entry without a name is "", nothing trimmed
    expect(r.value.imagePullSecrets.join(",")).toBe("a,, b ");
    expect(r.value.hasTargetContainer).toBe(true);
    expect(r.value.targetContainer).toBe(" vllm ");
    expect(r.value.cudagraph).toBe("piecewise");
  });
  it('targetContainer "" is set (blank), cudagraph of another kind is absent', () => {
    const r = readEngineInjection(json('{"targetContainer":"","cudagraph":5}'), "spec.injection");
    expect(r.ok).toBe(true);
    expect(r.value.hasTargetContainer).toBe(true);
    expect(r.value.cudagraph).toBe("");
  });
  it("wrong JSON types are errors naming the field", () => {
    expect(readEngineInjection(json('"x"'), "spec.injection").error).toBe("spec.injection has the wrong JSON type");
    expect(readEngineInjection(json('{"payloadImage":"reg/p:1"}'), "spec.injection").error).toBe(
      "spec.injection.payloadImage has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"payloadImage":{"repository":1}}'), "i").error).toBe(
      "i.payloadImage.repository has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"payloadImage":{"repository":"r","tag":1}}'), "i").error).toBe(
      "i.payloadImage.tag has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"payloadImage":{"repository":"r","pullPolicy":true}}'), "i").error).toBe(
      "i.payloadImage.pullPolicy has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"imagePullSecrets":{}}'), "i").error).toBe(
      "i.imagePullSecrets has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"imagePullSecrets":["a"]}'), "i").error).toBe(
      "i.imagePullSecrets[0] has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"imagePullSecrets":[{"name":1}]}'), "i").error).toBe(
      "i.imagePullSecrets[0].name has the wrong JSON type",
    );
    expect(readEngineInjection(json('{"targetContainer":[]}'), "i").error).toBe(
      "i.targetContainer has the wrong JSON type",
    );
  });
});

describe("readEngineCrInjection", () => {
  it("spec absent, injection absent, injection present", () => {
    expect(readEngineCrInjection(json('{"kind":"LMCacheEngine"}')).ok).toBe(true);
    expect(readEngineCrInjection(json('{"spec":{"server":{}}}')).value.payloadImage === null).toBe(true);
    const r = readEngineCrInjection(json('{"spec":{"injection":{"payloadImage":{"repository":"reg/p"}}}}'));
    expect(r.ok).toBe(true);
    expect(r.value.payloadImage !== null).toBe(true);
  });
  it("malformed CRs", () => {
    expect(readEngineCrInjection(json("[]")).ok).toBe(false);
    expect(readEngineCrInjection(json('{"spec":1}')).error).toBe("spec has the wrong JSON type");
    expect(readEngineCrInjection(json('{"spec":{"injection":[]}}')).error).toBe(
      "spec.injection has the wrong JSON type",
    );
  });
});
