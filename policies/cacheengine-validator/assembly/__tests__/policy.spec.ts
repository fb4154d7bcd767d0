import { bytesToString } from "../../../../assembly/kubewarden/index";
import { validate, validateSettings } from "../policy";

function bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

function request(kind: string, operation: string, object: string, oldObject: string = ""): string {
  let r = '{"uid":"u","kind":{"group":"lmcache.lmcache.ai","version":"v1alpha1","kind":"' + kind + '"},' +
    '"resource":{"group":"lmcache.lmcache.ai","version":"v1alpha1","resource":"x"},"operation":"' + operation + '","userInfo":{}';
  if (object.length > 0) r += ',"object":' + object;
  if (oldObject.length > 0) r += ',"oldObject":' + oldObject;
  return '{"request":' + r + '},"settings":{}}';
}

function run(kind: string, operation: string, object: string, oldObject: string = ""): string {
  return bytesToString(validate(bytes(request(kind, operation, object, oldObject))));
}

const FOOTGUN_LM = '{"metadata":{"name":"lm"},"spec":{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai"}}}}';
const GOOD_LM = '{"metadata":{"name":"lm"},"spec":{"injection":{"payloadImage":{"repository":"reg/p"}}}}';

describe("validate", () => {
  it("accepts a valid engine and rejects a footgun with 422", () => {
    expect(run("LMCacheEngine", "CREATE", GOOD_LM)).toBe('{"accepted":true}');
    const r = run("LMCacheEngine", "CREATE", FOOTGUN_LM);
    expect(r.startsWith('{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"lm\\" is invalid: spec.injection.payloadImage.repository: Invalid value: ')).toBe(true);
    expect(r.endsWith(',"code":422}')).toBe(true);
  });
  it("ignores other kinds and DELETE", () => {
    expect(run("LMCacheCoordinator", "CREATE", '"x"')).toBe('{"accepted":true}');
    expect(run("LMCacheEngine", "DELETE", "", FOOTGUN_LM)).toBe('{"accepted":true}');
    expect(run("LMCacheEngine", "CONNECT", FOOTGUN_LM)).toBe('{"accepted":true}');
  });
  it("rejects only introduced violations on UPDATE", () => {
    expect(run("LMCacheEngine", "UPDATE", FOOTGUN_LM, FOOTGUN_LM)).toBe('{"accepted":true}');
    expect(run("LMCacheEngine", "UPDATE", FOOTGUN_LM, GOOD_LM).startsWith('{"accepted":false')).toBe(true);
    expect(run("LMCacheEngine", "UPDATE", FOOTGUN_LM).startsWith('{"accepted":false')).toBe(true);
    expect(run("LMCacheEngine", "UPDATE", FOOTGUN_LM, "[]").startsWith('{"accepted":false')).toBe(true);
    expect(run("LMCacheEngine", "UPDATE", GOOD_LM, FOOTGUN_LM)).toBe('{"accepted":true}');
  });
  it("names a non-object object by its JSON kind", () => {
    expect(run("CacheBlendEngine", "CREATE", "[1]")).toBe(
      '{"accepted":false,"message":"CacheBlendEngine.lmcache.lmcache.ai \\"\\" is invalid: object: Invalid value: \\"array\\": must be a CacheBlendEngine object","code":422}');
    expect(run("CacheBlendEngine", "CREATE", "null")).toBe(
      '{"accepted":false,"message":"CacheBlendEngine.lmcache.lmcache.ai \\"\\" is invalid: object: Invalid value: \\"null\\": must be a CacheBlendEngine object","code":422}');
  });
  it("uses an empty name when metadata.name is not a string", () => {
    const r = run("LMCacheEngine", "CREATE", '{"metadata":{"name":7},"spec":"x"}');
    expect(r).toBe('{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"\\" is invalid: spec: Invalid value: \\"x\\": must be an object","code":422}');
  });
  it("answers a payload that is not an admission request without trapping", () => {
    expect(bytesToString(validate(bytes("not json"))).startsWith('{"accepted":false,"message":"cannot read the admission request: ')).toBe(true);
    expect(bytesToString(validate(bytes("[]"))).startsWith('{"accepted":false')).toBe(true);
    expect(bytesToString(validate(new Uint8Array(0))).startsWith('{"accepted":false')).toBe(true);
  });
});

describe("validateSettings", () => {
  it("accepts empty and null settings", () => {
    expect(bytesToString(validateSettings(bytes("{}")))).toBe('{"valid":true}');
    expect(bytesToString(validateSettings(bytes("null")))).toBe('{"valid":true}');
  });
  it("rejects every key as unknown", () => {
    expect(bytesToString(validateSettings(bytes('{"strict":true}')))).toBe('{"valid":false,"message":"strict: unknown field"}');
    expect(bytesToString(validateSettings(bytes('{"a":1,"b":{},"a":2}')))).toBe('{"valid":false,"message":"a: unknown field; b: unknown field"}');
  });
  it("rejects settings that are not an object or not JSON", () => {
    expect(bytesToString(validateSettings(bytes("[]")))).toBe('{"valid":false,"message":"settings must be an object"}');
    expect(bytesToString(validateSettings(bytes("{"))).startsWith('{"valid":false,"message":"settings are not valid JSON: ')).toBe(true);
  });
});
