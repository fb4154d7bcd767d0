import { JsonValue, parseJsonString } from "../json/index";
import { bytesToString } from "../kubewarden/response";
import { validateSettingsWith } from "../kubewarden/settings";
import {
  findInlineEngine,
  InjectorFlavor,
  lookupsEnabled,
  splitEngineKey,
  validateInjectorSettings,
} from "../lmcache/settings";

function json(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("unparsable test input");
}
function lm(text: string): string {
  return validateInjectorSettings(json(text), InjectorFlavor.LMCache).join("; ");
}
function cb(text: string): string {
  return validateInjectorSettings(json(text), InjectorFlavor.CacheBlend).join("; ");
}
function lmProblems(settings: JsonValue): string[] {
  return validateInjectorSettings(settings, InjectorFlavor.LMCache);
}
function payload(text: string): string {
  return bytesToString(validateSettingsWith(Uint8Array.wrap(String.UTF8.encode(text)), lmProblems));
}

describe("validateInjectorSettings", () => {
  it("accepts empty settings and a complete LMCache engine", () => {
    expect(lm("{}")).toBe("");
    expect(
      lm(
        '{"lookup":true,"engines":{"cb":{"kvTransferConfig":{"kv_connector":"X"},"injection":{"payloadImage":{"repository":"reg/p","tag":"pinned","pullPolicy":"Always"},"imagePullSecrets":[{"name":"pull"}],"targetContainer":"vllm"}}}}',
      ),
    ).toBe("");
    expect(lm('{"lookup":null,"engines":null}')).toBe("");
  });
  it("kvTransferConfig not an object, lookups off without engines, unknown key", () => {
    expect(lm('{"engines":{"cb":{"kvTransferConfig":"x"}}}')).toBe(
      "engines[cb].kvTransferConfig: must be a JSON object",
    );
    expect(lm('{"lookup":false}')).toBe(
      "lookup: lookups are disabled and settings.engines is empty, so the policy can never inject",
    );
    expect(cb('{"lookup":false,"engines":{}}')).toBe(
      "lookup: lookups are disabled and settings.engines is empty, so the policy can never inject",
    );
    expect(lm('{"lookups":true}')).toBe("lookups: unknown field");
    expect(cb('{"lookups":true}')).toBe("lookups: unknown field");
  });
  it("top-level types", () => {
    expect(lm('{"lookup":"false"}')).toBe("lookup: must be a boolean");
    expect(lm('{"engines":[]}')).toBe("engines: must be an object");
    expect(lm('{"lookup":false,"engines":[]}')).toBe("engines: must be an object");
    expect(lm("[]")).toBe("settings: must be an object");
  });
  it("engine keys: LMCache names are DNS-1123 subdomains", () => {
    expect(
      lm('{"engines":{"CB":{"kvTransferConfig":{}}}}').startsWith(
        "engines[CB]: invalid engine name: a lowercase RFC 1123 subdomain",
      ),
    ).toBe(true);
    expect(
      lm('{"engines":{"ns/cb":{"kvTransferConfig":{}}}}').startsWith("engines[ns/cb]: invalid engine name: "),
    ).toBe(true);
    expect(lm('{"engines":{"a.b-c":{"kvTransferConfig":{}}}}')).toBe("");
  });
  it("engine keys: CacheBlend accepts [<ns>/]<name>", () => {
    const ok = '{"kvTransferConfig":{},"injection":{"payloadImage":{"repository":"reg/p"}}}';
    expect(cb('{"engines":{"cb":' + ok + ',"other-ns/cb":' + ok + "}}")).toBe("");
    expect(
      cb('{"engines":{"Other/cb":' + ok + "}}").startsWith("engines[Other/cb]: invalid engine reference: namespace: "),
    ).toBe(true);
    expect(cb('{"engines":{"a/b/c":' + ok + "}}").startsWith("engines[a/b/c]: invalid engine reference: name: ")).toBe(
      true,
    );
    expect(cb('{"engines":{"/cb":' + ok + "}}").startsWith("engines[/cb]: invalid engine reference: namespace: ")).toBe(
      true,
    );
    expect(cb('{"engines":{"ns/":' + ok + "}}").startsWith("engines[ns/]: invalid engine reference: name: ")).toBe(
      true,
    );
  });
  it("splitEngineKey splits at the first slash only", () => {
    const k = splitEngineKey("a/b/c");
    expect(k.hasNamespace).toBe(true);
    expect(k.namespace).toBe("a");
    expect(k.name).toBe("b/c");
    expect(splitEngineKey("cb").hasNamespace).toBe(false);
  });
  it("entry shape", () => {
    expect(lm('{"engines":{"cb":"x"}}')).toBe("engines[cb]: must be an object");
    expect(lm('{"engines":{"cb":{}}}')).toBe("engines[cb].kvTransferConfig: required");
    expect(lm('{"engines":{"cb":{"kvTransferConfig":null}}}')).toBe("engines[cb].kvTransferConfig: required");
    expect(lm('{"engines":{"cb":{"kvTransferConfig":{},"x":1}}}')).toBe("engines[cb].x: unknown field");
    expect(lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":[]}}}')).toBe(
      "engines[cb].injection: must be an object",
    );
  });
  it("payloadImage: optional for LMCache, required for CacheBlend", () => {
    expect(lm('{"engines":{"cb":{"kvTransferConfig":{}}}}')).toBe("");
    expect(lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":{}}}}')).toBe("");
    expect(cb('{"engines":{"cb":{"kvTransferConfig":{}}}}')).toBe(
      "engines[cb].injection.payloadImage: required for CacheBlend injection",
    );
    expect(cb('{"engines":{"cb":{"kvTransferConfig":{},"injection":{"cudagraph":"eager"}}}}')).toBe(
      "engines[cb].injection.payloadImage: required for CacheBlend injection",
    );
    expect(lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":{"payloadImage":"reg/p"}}}}')).toBe(
      "engines[cb].injection.payloadImage: must be an object",
    );
  });
  it("payloadImage fields", () => {
    const e = (img: string): string =>
      lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":{"payloadImage":' + img + "}}}}");
    const p = "engines[cb].injection.payloadImage.";
    expect(e("{}")).toBe(p + "repository: must be a non-empty string");
    expect(e('{"repository":"  "}')).toBe(p + "repository: must be a non-empty string");
    expect(e('{"repository":7}')).toBe(p + "repository: must be a non-empty string");
    expect(e('{"repository":"lmcache/vllm-openai"}')).toBe(
      p +
        'repository: must not be the ImageSpec default "lmcache/vllm-openai" (the engine image is not a payload image)',
    );
    expect(e('{"repository":"reg/p latest"}')).toBe(p + "repository: must not contain whitespace");
    expect(e('{"repository":"reg/p","tag":5}')).toBe(p + "tag: must be a string");
    expect(e('{"repository":"reg/p","tag":"v\\t1"}')).toBe(p + "tag: must not contain whitespace");
    expect(e('{"repository":"reg/p","tag":null,"pullPolicy":""}')).toBe("");
    expect(e('{"repository":"reg/p","pullPolicy":"Sometimes"}')).toBe(
      p + 'pullPolicy: must be one of "Always", "Never", "IfNotPresent"',
    );
    expect(e('{"repository":"reg/p","digest":"sha256:x"}')).toBe(p + "digest: unknown field");
    expect(e('{"repository":"reg/p@sha256:abc"}')).toBe("");
  });
  it("imagePullSecrets, targetContainer, cudagraph", () => {
    const e = (inj: string): string => lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":' + inj + "}}}");
    const p = "engines[cb].injection.";
    expect(e('{"imagePullSecrets":"pull"}')).toBe(p + "imagePullSecrets: must be a list of {name} objects");
    expect(e('{"imagePullSecrets":[{"name":"ok"},{"name":"Bad_Name"}]}')).toBe(
      p + "imagePullSecrets[1].name: must be a valid Secret name (DNS-1123 subdomain)",
    );
    expect(e('{"imagePullSecrets":["pull"]}')).toBe(
      p + "imagePullSecrets[0].name: must be a valid Secret name (DNS-1123 subdomain)",
    );
    expect(e('{"imagePullSecrets":[{"name":""}]}')).toBe(
      p + "imagePullSecrets[0].name: must be a valid Secret name (DNS-1123 subdomain)",
    );
    expect(e('{"imagePullSecrets":[{"name":"a","key":"b"}]}')).toBe(p + "imagePullSecrets[0].key: unknown field");
    expect(e('{"targetContainer":"vLLM"}')).toBe(
      p + "targetContainer: must be a valid container name (DNS-1123 label)",
    );
    expect(e('{"targetContainer":3}')).toBe(p + "targetContainer: must be a valid container name (DNS-1123 label)");
    expect(e('{"targetContainer":""}')).toBe("");
    expect(e('{"cudagraph":"eager"}')).toBe(p + "cudagraph: unknown field");
    const c = (inj: string): string =>
      cb('{"engines":{"cb":{"kvTransferConfig":{},"injection":{"payloadImage":{"repository":"r"},' + inj + "}}}}");
    expect(c('"cudagraph":"full_decode_only"')).toBe("");
    expect(c('"cudagraph":"full"')).toBe(p + 'cudagraph: must be one of "eager", "piecewise", "full_decode_only"');
  });
  it("length bounds of names, each from both sides: just below, at, just above, far above", () => {
    const at253 = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    const ok = '{"kvTransferConfig":{},"injection":{"payloadImage":{"repository":"reg/p"}}}';
    // LMCache engine name: a DNS-1123 subdomain, at most 253
    const lmName = (name: string): string => lm('{"engines":{"' + name + '":{"kvTransferConfig":{}}}}');
    expect(lmName(at253.slice(1))).toBe("");
    expect(lmName(at253)).toBe("");
    expect(lmName(at253 + "e")).toBe(
      "engines[" + at253 + "e]: invalid engine name: must be no more than 253 characters",
    );
    expect(lmName("a".repeat(1000))).toBe(
      "engines[" + "a".repeat(1000) + "]: invalid engine name: must be no more than 253 characters",
    );
    // CacheBlend reference: namespace a DNS-1123 label (at most 63), name a subdomain (at most 253)
    const cbKey = (key: string): string => cb('{"engines":{"' + key + '":' + ok + "}}");
    expect(cbKey("a".repeat(62) + "/cb")).toBe("");
    expect(cbKey("a".repeat(63) + "/cb")).toBe("");
    expect(cbKey("a".repeat(64) + "/cb")).toBe(
      "engines[" + "a".repeat(64) + "/cb]: invalid engine reference: namespace: must be no more than 63 characters",
    );
    expect(cbKey("a".repeat(1000) + "/cb")).toBe(
      "engines[" + "a".repeat(1000) + "/cb]: invalid engine reference: namespace: must be no more than 63 characters",
    );
    expect(cbKey("ns/" + at253.slice(1))).toBe("");
    expect(cbKey("ns/" + at253)).toBe("");
    expect(cbKey("ns/" + at253 + "e")).toBe(
      "engines[ns/" + at253 + "e]: invalid engine reference: name: must be no more than 253 characters",
    );
    expect(cbKey("ns/" + "a".repeat(1000))).toBe(
      "engines[ns/" + "a".repeat(1000) + "]: invalid engine reference: name: must be no more than 253 characters",
    );
    // injection.targetContainer: a DNS-1123 label; imagePullSecrets[].name: a subdomain
    const inj = (text: string): string => lm('{"engines":{"cb":{"kvTransferConfig":{},"injection":' + text + "}}}");
    const target = (name: string): string => inj('{"targetContainer":"' + name + '"}');
    const TARGET_ERROR = "engines[cb].injection.targetContainer: must be a valid container name (DNS-1123 label)";
    expect(target("a".repeat(62))).toBe("");
    expect(target("a".repeat(63))).toBe("");
    expect(target("a".repeat(64))).toBe(TARGET_ERROR);
    expect(target("a".repeat(1000))).toBe(TARGET_ERROR);
    const secret = (name: string): string => inj('{"imagePullSecrets":[{"name":"' + name + '"}]}');
    const SECRET_ERROR =
      "engines[cb].injection.imagePullSecrets[0].name: must be a valid Secret name (DNS-1123 subdomain)";
    expect(secret(at253.slice(1))).toBe("");
    expect(secret(at253)).toBe("");
    expect(secret(at253 + "e")).toBe(SECRET_ERROR);
    expect(secret("a".repeat(1000))).toBe(SECRET_ERROR);
  });
  it("lists every error, unknown fields of an object first", () => {
    expect(lm('{"lookup":1,"extra":true,"engines":{"cb":{"kvTransferConfig":[]}}}')).toBe(
      "extra: unknown field; lookup: must be a boolean; engines[cb].kvTransferConfig: must be a JSON object",
    );
  });
});

describe("validate_settings of an injector (through the SDK)", () => {
  it("valid and invalid responses", () => {
    expect(payload("{}")).toBe('{"valid":true}');
    expect(payload("null")).toBe('{"valid":true}');
    expect(payload('{"lookups":true}')).toBe('{"valid":false,"message":"lookups: unknown field"}');
    expect(payload("[]")).toBe('{"valid":false,"message":"settings: must be an object"}');
    expect(payload("{").startsWith('{"valid":false,"message":"settings are not valid JSON: ')).toBe(true);
  });
});

describe("reading settings during validate", () => {
  it("lookupsEnabled: only an explicit false disables", () => {
    expect(lookupsEnabled(json("{}"))).toBe(true);
    expect(lookupsEnabled(json('{"lookup":true}'))).toBe(true);
    expect(lookupsEnabled(json('{"lookup":"no"}'))).toBe(true);
    expect(lookupsEnabled(json('{"lookup":false}'))).toBe(false);
  });
  it("findInlineEngine returns the exact kvTransferConfig text and the injection", () => {
    const s = json(
      '{"engines":{"cb":{"kvTransferConfig": {"kv_connector" : "X","n":1.50},"injection":{"payloadImage":{"repository":"reg/p"},"targetContainer":"vllm"}}}}',
    );
    const r = findInlineEngine(s, "cb");
    expect(r.ok).toBe(true);
    const e = r.engine;
    expect(e !== null).toBe(true);
    if (e === null) return;
    expect(e.kvTransferConfig).toBe('{"kv_connector" : "X","n":1.50}');
    expect(e.injection.hasTargetContainer).toBe(true);
    expect(e.injection.targetContainer).toBe("vllm");
    const img = e.injection.payloadImage;
    expect(img !== null).toBe(true);
    if (img !== null) expect(img.repository).toBe("reg/p");
  });
  it("findInlineEngine: absent key, no engines, malformed entry", () => {
    expect(findInlineEngine(json('{"engines":{"cb":{"kvTransferConfig":{}}}}'), "other").found).toBe(false);
    expect(findInlineEngine(json("{}"), "cb").found).toBe(false);
    const bad = findInlineEngine(
      json('{"engines":{"cb":{"kvTransferConfig":{},"injection":{"payloadImage":1}}}}'),
      "cb",
    );
    expect(bad.ok).toBe(false);
    expect(bad.found).toBe(false);
    expect(findInlineEngine(json('{"engines":{"cb":3}}'), "cb").ok).toBe(false);
  });
});
