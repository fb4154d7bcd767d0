import { bytesToString } from "../../../../assembly/kubewarden/index";
import { validate } from "../policy";
import { validateSettings } from "../settings";

function bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

function request(kind: string, operation: string, object: string, oldObject: string = ""): string {
  let r =
    '{"uid":"u","kind":{"group":"lmcache.lmcache.ai","version":"v1alpha1","kind":"' +
    kind +
    '"},' +
    '"resource":{"group":"lmcache.lmcache.ai","version":"v1alpha1","resource":"x"},"operation":"' +
    operation +
    '","userInfo":{}';
  if (object.length > 0) r += ',"object":' + object;
  if (oldObject.length > 0) r += ',"oldObject":' + oldObject;
  return '{"request":' + r + '},"settings":{}}';
}

function run(kind: string, operation: string, object: string, oldObject: string = ""): string {
  return bytesToString(validate(bytes(request(kind, operation, object, oldObject))));
}

const FOOTGUN_LM =
  '{"metadata":{"name":"lm"},"spec":{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai"}}}}';
const GOOD_LM = '{"metadata":{"name":"lm"},"spec":{"injection":{"payloadImage":{"repository":"reg/p"}}}}';

describe("validate", () => {
  it("accepts a valid engine and rejects a footgun with 422", () => {
    expect(run("LMCacheEngine", "CREATE", GOOD_LM)).toBe('{"accepted":true}');
    const r = run("LMCacheEngine", "CREATE", FOOTGUN_LM);
    expect(
      r.startsWith(
        '{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"lm\\" is invalid: spec.injection.payloadImage.repository: Invalid value: ',
      ),
    ).toBe(true);
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
  it("keeps an engine stored with server.port 80 editable; a new bad port is introduced", () => {
    const port80 = '{"metadata":{"name":"lm","labels":{"a":"b"}},"spec":{"server":{"port":80}}}';
    const port80Relabelled = '{"metadata":{"name":"lm","labels":{"a":"c"}},"spec":{"server":{"port":80}}}';
    const port81 = '{"metadata":{"name":"lm"},"spec":{"server":{"port":81}}}';
    expect(run("LMCacheEngine", "UPDATE", port80Relabelled, port80)).toBe('{"accepted":true}');
    expect(run("LMCacheEngine", "UPDATE", port81, port80)).toBe(
      '{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"lm\\" is invalid: spec.server.port: Invalid value: 81: must be in [1024, 65535]","code":422}',
    );
    expect(run("LMCacheEngine", "CREATE", port80Relabelled).startsWith('{"accepted":false')).toBe(true);
  });
  it("names a non-object object by its JSON kind", () => {
    expect(run("CacheBlendEngine", "CREATE", "[1]")).toBe(
      '{"accepted":false,"message":"CacheBlendEngine.lmcache.lmcache.ai \\"\\" is invalid: object: Invalid value: \\"array\\": must be a CacheBlendEngine object","code":422}',
    );
    expect(run("CacheBlendEngine", "CREATE", "null")).toBe(
      '{"accepted":false,"message":"CacheBlendEngine.lmcache.lmcache.ai \\"\\" is invalid: object: Invalid value: \\"null\\": must be a CacheBlendEngine object","code":422}',
    );
  });
  it("uses an empty name when metadata.name is not a string", () => {
    const r = run("LMCacheEngine", "CREATE", '{"metadata":{"name":7},"spec":"x"}');
    expect(r).toBe(
      '{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"\\" is invalid: spec: Invalid value: \\"x\\": must be an object","code":422}',
    );
  });
  it("answers a payload that is not an admission request without trapping", () => {
    expect(
      bytesToString(validate(bytes("not json"))).startsWith(
        '{"accepted":false,"message":"cannot read the admission request: ',
      ),
    ).toBe(true);
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
    expect(bytesToString(validateSettings(bytes('{"strict":true}')))).toBe(
      '{"valid":false,"message":"strict: unknown field"}',
    );
    expect(bytesToString(validateSettings(bytes('{"a":1,"b":{},"a":2}')))).toBe(
      '{"valid":false,"message":"a: unknown field; b: unknown field"}',
    );
  });
  it("rejects settings that are not an object or not JSON", () => {
    expect(bytesToString(validateSettings(bytes("[]")))).toBe('{"valid":false,"message":"settings must be an object"}');
    expect(
      bytesToString(validateSettings(bytes("{"))).startsWith('{"valid":false,"message":"settings are not valid JSON: '),
    ).toBe(true);
  });
});

// Bounded output (issue 20): echoed values past 1 KiB of their `%q` form, at most 100 violations.
function engineWithPullPolicy(pullPolicy: string): string {
  return (
    '{"metadata":{"name":"lm"},"spec":{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":"' +
    pullPolicy +
    '"}}}}'
  );
}

function engineWithBadSecrets(count: i32): string {
  const items = new Array<string>();
  for (let i = 0; i < count; i++) items.push('{"name":"Bad' + i.toString() + '"}');
  return '{"metadata":{"name":"lm"},"spec":{"injection":{"imagePullSecrets":[' + items.join(",") + "]}}}";
}

const HEAD = '{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"lm\\" is invalid: ';
const SUPPORTED = 'supported values: \\"Always\\", \\"Never\\", \\"IfNotPresent\\"';

describe("bounded messages", () => {
  it("an echoed value whose %q form is 1,024 bytes is printed whole", () => {
    expect(run("LMCacheEngine", "CREATE", engineWithPullPolicy("a".repeat(1022)))).toBe(
      HEAD +
        'spec.injection.payloadImage.pullPolicy: Unsupported value: \\"' +
        "a".repeat(1022) +
        '\\": ' +
        SUPPORTED +
        '","code":422}',
    );
  });
  it("one byte more: the start is kept and the rest counted", () => {
    expect(run("LMCacheEngine", "CREATE", engineWithPullPolicy("a".repeat(1023)))).toBe(
      HEAD +
        'spec.injection.payloadImage.pullPolicy: Unsupported value: \\"' +
        "a".repeat(1023) +
        "... (1 more bytes): " +
        SUPPORTED +
        '","code":422}',
    );
  });
  it("a run of escapes is cut in its quoted form", () => {
    // 600 backslashes quote to 1,202 bytes: 1 quote + 511.5 escapes shown, 178 bytes left out
    expect(run("LMCacheEngine", "CREATE", engineWithPullPolicy("\\\\".repeat(600)))).toBe(
      HEAD +
        'spec.injection.payloadImage.pullPolicy: Unsupported value: \\"' +
        "\\\\\\\\".repeat(511) +
        "\\\\... (178 more bytes): " +
        SUPPORTED +
        '","code":422}',
    );
  });
  it("100 violations are all listed, the 101st is counted", () => {
    const hundred = run("LMCacheEngine", "CREATE", engineWithBadSecrets(100));
    expect(hundred.includes("imagePullSecrets[99].name")).toBe(true);
    expect(hundred.includes(" more]")).toBe(false);
    const more = run("LMCacheEngine", "CREATE", engineWithBadSecrets(101));
    expect(more.includes("imagePullSecrets[99].name")).toBe(true);
    expect(more.includes("imagePullSecrets[100].name")).toBe(false);
    expect(more.endsWith(', and 1 more]","code":422}')).toBe(true);
  });
  it("the name in the message header is shortened like any echoed value", () => {
    const r = run("LMCacheEngine", "CREATE", '{"metadata":{"name":"' + "n".repeat(2000) + '"},"spec":"x"}');
    expect(r).toBe(
      '{"accepted":false,"message":"LMCacheEngine.lmcache.lmcache.ai \\"' +
        "n".repeat(1023) +
        '... (978 more bytes) is invalid: spec: Invalid value: \\"x\\": must be an object","code":422}',
    );
  });
});

function settingsWithKeys(count: i32, length: i32): string {
  const keys = new Array<string>();
  for (let i = 0; i < count; i++) keys.push('"' + "k".repeat(length - 1 - (i >= 10 ? 1 : 0)) + i.toString() + '":1');
  return "{" + keys.join(",") + "}";
}

describe("bounded settings messages", () => {
  it("100 unknown keys are listed, the 101st is counted", () => {
    const hundred = bytesToString(validateSettings(bytes(settingsWithKeys(100, 3))));
    expect(hundred.endsWith(' k99: unknown field"}')).toBe(true);
    const more = bytesToString(validateSettings(bytes(settingsWithKeys(101, 3))));
    expect(more.endsWith(' k99: unknown field; and 1 more"}')).toBe(true);
  });
  it("a key is echoed whole up to 1,024 bytes and shortened past it", () => {
    expect(bytesToString(validateSettings(bytes('{"' + "k".repeat(1024) + '":1}')))).toBe(
      '{"valid":false,"message":"' + "k".repeat(1024) + ': unknown field"}',
    );
    expect(bytesToString(validateSettings(bytes('{"' + "k".repeat(1025) + '":1}')))).toBe(
      '{"valid":false,"message":"' + "k".repeat(1024) + '... (1 more bytes): unknown field"}',
    );
  });
});
