// Rules 14–36 (the operator controller's checks and the IPC / PD schema constraints), one `it` per
// bound, plus the acceptance list of docs/policies/cacheengine-validator.md#operator-acceptance.
import { parseJsonString, JsonValue } from "../../../../assembly/json/index";
import { FieldErrorList } from "../../../../assembly/validate/index";
import { EngineKind, engineViolations } from "../rules";

function parse(text: string): JsonValue {
  const r = parseJsonString(text);
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

function violations(kind: EngineKind, specText: string): FieldErrorList {
  return engineViolations(kind, parse('{"metadata":{"name":"e"},"spec":' + specText + "}"));
}

/** An LMCacheEngine whose spec has exactly these members. */
function lm(members: string): string {
  return violations(EngineKind.LMCache, "{" + members + "}").aggregateText();
}

/** A CacheBlendEngine passing rules 1–13, with `server` and `blend` extended and more members. */
function cbWith(serverExtra: string, blendExtra: string, members: string): string {
  const spec =
    '{"server":{"chunkSize":256' +
    serverExtra +
    '},"blend":{"checkLayer":1,"recompRatio":0.15' +
    blendExtra +
    '},"injection":{"payloadImage":{"repository":"reg/p"}}' +
    (members.length > 0 ? "," + members : "") +
    "}";
  return violations(EngineKind.CacheBlend, spec).aggregateText();
}

function cb(members: string): string {
  return cbWith("", "", members);
}

function sizeGB(n: string): string {
  return lm('"l1":{"sizeGB":' + n + "}");
}
function watermark(n: string): string {
  return lm('"eviction":{"triggerWatermark":' + n + "}");
}
function evictionRatio(n: string): string {
  return lm('"eviction":{"evictionRatio":' + n + "}");
}
function serverPort(n: string): string {
  return lm('"server":{"port":' + n + "}");
}
function partialBucket(n: string): string {
  return cbWith("", ',"partialBucket":' + n, "");
}
function respPort(n: string): string {
  return lm('"l2Backend":{"resp":{"host":"r","port":' + n + "}}");
}
function heartbeat(n: string): string {
  return lm('"coordinator":{"url":"http://c","heartbeatInterval":' + n + "}");
}
function flushInterval(n: string): string {
  return lm('"coordinator":{"url":"http://c","l2EventFlushInterval":' + n + "}");
}
function nixlPort(n: string): string {
  return lm('"pd":{"nixlSideChannelPort":' + n + "}");
}

const POSITIVE = ": must be greater than 0";
const UNIT = ": must be in (0.0, 1.0]";
const PORT = ": must be in [1024, 65535]";
const RESP_PORT = ": must be in [1, 65535]";

describe("rule 14: l1.sizeGB > 0", () => {
  it("bound 0 (open): just below is rejected", () => {
    expect(sizeGB("-5e-324")).toBe("spec.l1.sizeGB: Invalid value: -5e-324" + POSITIVE);
    expect(sizeGB("-1")).toBe("spec.l1.sizeGB: Invalid value: -1" + POSITIVE);
  });
  it("bound 0: at is rejected, in any spelling", () => {
    expect(sizeGB("0")).toBe("spec.l1.sizeGB: Invalid value: 0" + POSITIVE);
    expect(sizeGB("0.0")).toBe("spec.l1.sizeGB: Invalid value: 0.0" + POSITIVE);
    expect(sizeGB("-0")).toBe("spec.l1.sizeGB: Invalid value: -0" + POSITIVE);
  });
  it("bound 0: just above and far above are accepted", () => {
    expect(sizeGB("5e-324")).toBe("");
    expect(sizeGB("0.5")).toBe("");
    expect(sizeGB("1e300")).toBe("");
  });
  it("absent, null and an absent l1 are not checked; both kinds", () => {
    expect(lm('"l1":{}')).toBe("");
    expect(lm('"l1":{"sizeGB":null}')).toBe("");
    expect(lm('"l1":null')).toBe("");
    expect(cb('"l1":{"sizeGB":0}')).toBe("spec.l1.sizeGB: Invalid value: 0" + POSITIVE);
  });
  it("wrong types are type errors in the rule's place", () => {
    expect(sizeGB('"4"')).toBe('spec.l1.sizeGB: Invalid value: "4": must be a number');
    expect(lm('"l1":[4]')).toBe("spec.l1: Invalid value: [4]: must be an object");
  });
});

describe("rule 15: eviction.triggerWatermark in (0, 1]", () => {
  it("lower bound 0 (open): just below and at are rejected", () => {
    expect(watermark("-5e-324")).toBe("spec.eviction.triggerWatermark: Invalid value: -5e-324" + UNIT);
    expect(watermark("0")).toBe("spec.eviction.triggerWatermark: Invalid value: 0" + UNIT);
  });
  it("lower bound 0: just above is accepted", () => {
    expect(watermark("5e-324")).toBe("");
    expect(watermark("0.01")).toBe("");
  });
  it("upper bound 1 (closed): just below and at are accepted", () => {
    expect(watermark("0.9999999999999999")).toBe("");
    expect(watermark("1")).toBe("");
    expect(watermark("1.0")).toBe("");
  });
  it("upper bound 1: just above and far above are rejected", () => {
    expect(watermark("1.0000000000000002")).toBe(
      "spec.eviction.triggerWatermark: Invalid value: 1.0000000000000002" + UNIT,
    );
    expect(watermark("1.1")).toBe("spec.eviction.triggerWatermark: Invalid value: 1.1" + UNIT);
    expect(watermark("100")).toBe("spec.eviction.triggerWatermark: Invalid value: 100" + UNIT);
  });
  it("wrong types; both kinds", () => {
    expect(watermark("true")).toBe("spec.eviction.triggerWatermark: Invalid value: true: must be a number");
    expect(lm('"eviction":"LRU"')).toBe('spec.eviction: Invalid value: "LRU": must be an object');
    expect(cb('"eviction":{"triggerWatermark":0}')).toBe("spec.eviction.triggerWatermark: Invalid value: 0" + UNIT);
  });
});

describe("rule 16: eviction.evictionRatio in (0, 1]", () => {
  it("lower bound 0 (open): just below and at are rejected", () => {
    expect(evictionRatio("-0.1")).toBe("spec.eviction.evictionRatio: Invalid value: -0.1" + UNIT);
    expect(evictionRatio("0")).toBe("spec.eviction.evictionRatio: Invalid value: 0" + UNIT);
  });
  it("lower bound 0: just above is accepted", () => {
    expect(evictionRatio("5e-324")).toBe("");
  });
  it("upper bound 1 (closed): at is accepted, just above and far above are rejected", () => {
    expect(evictionRatio("0.9999999999999999")).toBe("");
    expect(evictionRatio("1")).toBe("");
    expect(evictionRatio("1.0000000000000002")).toBe(
      "spec.eviction.evictionRatio: Invalid value: 1.0000000000000002" + UNIT,
    );
    expect(evictionRatio("1e300")).toBe("spec.eviction.evictionRatio: Invalid value: 1e300" + UNIT);
  });
  it("wrong types; the policy is never read", () => {
    expect(evictionRatio('"0.2"')).toBe('spec.eviction.evictionRatio: Invalid value: "0.2": must be a number');
    expect(lm('"eviction":{"policy":"noop","evictionRatio":0.2}')).toBe("");
    expect(lm('"eviction":{"policy":42}')).toBe("");
    expect(cb('"eviction":{"evictionRatio":2}')).toBe("spec.eviction.evictionRatio: Invalid value: 2" + UNIT);
  });
});

describe("rule 17: server.port in [1024, 65535]", () => {
  it("lower bound 1024: just below is rejected, at and just above are accepted", () => {
    expect(serverPort("1023")).toBe("spec.server.port: Invalid value: 1023" + PORT);
    expect(serverPort("80")).toBe("spec.server.port: Invalid value: 80" + PORT);
    expect(serverPort("1024")).toBe("");
    expect(serverPort("1025")).toBe("");
  });
  it("upper bound 65535: just below and at are accepted, just above and far above are rejected", () => {
    expect(serverPort("65534")).toBe("");
    expect(serverPort("65535")).toBe("");
    expect(serverPort("65536")).toBe("spec.server.port: Invalid value: 65536" + PORT);
    expect(serverPort("4294967552")).toBe("spec.server.port: Invalid value: 4294967552" + PORT);
    expect(serverPort("99999999999999999999999")).toBe(
      "spec.server.port: Invalid value: 99999999999999999999999" + PORT,
    );
    expect(serverPort("-99999999999999999999999")).toBe(
      "spec.server.port: Invalid value: -99999999999999999999999" + PORT,
    );
  });
  it("reads integral floats as integers, rejects fractions and other types", () => {
    expect(serverPort("8080.0")).toBe("");
    expect(serverPort("8.08e3")).toBe("");
    expect(serverPort("1.023e3")).toBe("spec.server.port: Invalid value: 1.023e3" + PORT);
    expect(serverPort("8080.5")).toBe("spec.server.port: Invalid value: 8080.5: must be an integer");
    expect(serverPort('"8080"')).toBe('spec.server.port: Invalid value: "8080": must be an integer');
    expect(serverPort("null")).toBe("");
  });
  it("applies to both kinds; CacheBlend's server type error is reported once, at rule 1", () => {
    expect(cbWith(',"port":80', "", "")).toBe("spec.server.port: Invalid value: 80" + PORT);
    expect(lm('"server":"x"')).toBe('spec.server: Invalid value: "x": must be an object');
    expect(
      violations(
        EngineKind.CacheBlend,
        '{"server":"x","injection":{"payloadImage":{"repository":"reg/p"}}}',
      ).aggregateText(),
    ).toBe('spec.server: Invalid value: "x": must be an object');
  });
});

describe("rule 18: blend.partialBucket >= 1 (CacheBlend)", () => {
  it("bound 1: just below (and far below) is rejected", () => {
    expect(partialBucket("0")).toBe("spec.blend.partialBucket: Invalid value: 0: must be >= 1");
    expect(partialBucket("-2147483648")).toBe("spec.blend.partialBucket: Invalid value: -2147483648: must be >= 1");
  });
  it("bound 1: at, just above and far above are accepted", () => {
    expect(partialBucket("1")).toBe("");
    expect(partialBucket("2")).toBe("");
    expect(partialBucket("2147483647")).toBe("");
    expect(partialBucket("1.0")).toBe("");
  });
  it("beyond int32 is the 32-bit type error (as checkLayer), never a range message", () => {
    expect(partialBucket("2147483648")).toBe(
      "spec.blend.partialBucket: Invalid value: 2147483648: must be a 32-bit integer",
    );
    expect(partialBucket("99999999999999999999999")).toBe(
      "spec.blend.partialBucket: Invalid value: 99999999999999999999999: must be a 32-bit integer",
    );
  });
  it("type errors; not checked on an LMCacheEngine", () => {
    expect(partialBucket("1.5")).toBe("spec.blend.partialBucket: Invalid value: 1.5: must be an integer");
    expect(partialBucket('"4"')).toBe('spec.blend.partialBucket: Invalid value: "4": must be an integer');
    expect(lm('"blend":{"partialBucket":0}')).toBe("");
  });
});

describe("rules 19 and 20: l2Backend sets exactly one of resp or raw", () => {
  it("rule 19: neither is Required", () => {
    expect(lm('"l2Backend":{}')).toBe("spec.l2Backend: Required value: exactly one of resp or raw must be set");
    expect(lm('"l2Backend":{"resp":null,"raw":null}')).toBe(
      "spec.l2Backend: Required value: exactly one of resp or raw must be set",
    );
    expect(cb('"l2Backend":{}')).toBe("spec.l2Backend: Required value: exactly one of resp or raw must be set");
  });
  it("exactly one is accepted", () => {
    expect(lm('"l2Backend":{"resp":{"host":"r","port":6379}}')).toBe("");
    expect(lm('"l2Backend":{"raw":{"type":"fs"}}')).toBe("");
  });
  it('rule 20: both valid sub-objects give rule 20 alone, value ""', () => {
    expect(lm('"l2Backend":{"resp":{"host":"r","port":6379},"raw":{"type":"fs"}}')).toBe(
      'spec.l2Backend: Invalid value: "": exactly one of resp or raw must be set, got multiple',
    );
  });
  it("rule 20 does not stop rules 21–24", () => {
    expect(lm('"l2Backend":{"resp":{},"raw":{}}')).toBe(
      '[spec.l2Backend: Invalid value: "": exactly one of resp or raw must be set, got multiple, ' +
        "spec.l2Backend.resp.host: Required value: must be a non-empty string, " +
        "spec.l2Backend.resp.port: Invalid value: 0: must be in [1, 65535], " +
        "spec.l2Backend.raw.type: Required value: must be a non-empty string]",
    );
  });
  it("a wrongly typed resp or raw takes rule 19's place", () => {
    expect(lm('"l2Backend":{"resp":"redis"}')).toBe('spec.l2Backend.resp: Invalid value: "redis": must be an object');
    expect(lm('"l2Backend":{"raw":[],"resp":{"host":"r","port":1}}')).toBe(
      "spec.l2Backend.raw: Invalid value: []: must be an object",
    );
    expect(lm('"l2Backend":"redis"')).toBe('spec.l2Backend: Invalid value: "redis": must be an object');
  });
});

describe("rule 21: resp.host", () => {
  it("absent, null and empty are Required; a host is accepted", () => {
    const req = "spec.l2Backend.resp.host: Required value: must be a non-empty string";
    expect(lm('"l2Backend":{"resp":{"port":6379}}')).toBe(req);
    expect(lm('"l2Backend":{"resp":{"host":null,"port":6379}}')).toBe(req);
    expect(lm('"l2Backend":{"resp":{"host":"","port":6379}}')).toBe(req);
    expect(lm('"l2Backend":{"resp":{"host":"r","port":6379}}')).toBe("");
  });
  it("a non-string host is a type error", () => {
    expect(lm('"l2Backend":{"resp":{"host":6379,"port":6379}}')).toBe(
      "spec.l2Backend.resp.host: Invalid value: 6379: must be a string",
    );
  });
});

describe("rule 22: resp.port in [1, 65535]", () => {
  it("lower bound 1: just below (and absent, printed 0) is rejected", () => {
    expect(respPort("0")).toBe("spec.l2Backend.resp.port: Invalid value: 0" + RESP_PORT);
    expect(respPort("-1")).toBe("spec.l2Backend.resp.port: Invalid value: -1" + RESP_PORT);
    expect(lm('"l2Backend":{"resp":{"host":"r"}}')).toBe("spec.l2Backend.resp.port: Invalid value: 0" + RESP_PORT);
    expect(respPort("null")).toBe("spec.l2Backend.resp.port: Invalid value: 0" + RESP_PORT);
  });
  it("lower bound 1: at and just above are accepted", () => {
    expect(respPort("1")).toBe("");
    expect(respPort("2")).toBe("");
  });
  it("upper bound 65535: just below and at are accepted, just above and far above are rejected", () => {
    expect(respPort("65534")).toBe("");
    expect(respPort("65535")).toBe("");
    expect(respPort("65536")).toBe("spec.l2Backend.resp.port: Invalid value: 65536" + RESP_PORT);
    expect(respPort("9223372036854775807")).toBe(
      "spec.l2Backend.resp.port: Invalid value: 9223372036854775807" + RESP_PORT,
    );
  });
  it("type errors replace the rule", () => {
    expect(respPort('"6379"')).toBe('spec.l2Backend.resp.port: Invalid value: "6379": must be an integer');
    expect(respPort("6379.5")).toBe("spec.l2Backend.resp.port: Invalid value: 6379.5: must be an integer");
    expect(respPort("6379.0")).toBe("");
  });
});

describe("rule 23: resp.authSecretRef.name", () => {
  it("a present authSecretRef needs a non-empty name", () => {
    const req = "spec.l2Backend.resp.authSecretRef.name: Required value: must be non-empty";
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":{}}}')).toBe(req);
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":{"name":""}}}')).toBe(req);
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":{"name":"s"}}}')).toBe("");
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":null}}')).toBe("");
  });
  it("type errors", () => {
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":"s"}}')).toBe(
      'spec.l2Backend.resp.authSecretRef: Invalid value: "s": must be an object',
    );
    expect(lm('"l2Backend":{"resp":{"host":"r","port":1,"authSecretRef":{"name":1}}}')).toBe(
      "spec.l2Backend.resp.authSecretRef.name: Invalid value: 1: must be a string",
    );
  });
});

describe("rule 24: raw.type", () => {
  it("absent and empty are Required; a type is accepted", () => {
    const req = "spec.l2Backend.raw.type: Required value: must be a non-empty string";
    expect(lm('"l2Backend":{"raw":{}}')).toBe(req);
    expect(lm('"l2Backend":{"raw":{"type":""}}')).toBe(req);
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":{"path":"/x"}}}')).toBe("");
  });
  it("type errors (raw.config is an object)", () => {
    expect(lm('"l2Backend":{"raw":{"type":["fs"]}}')).toBe(
      'spec.l2Backend.raw.type: Invalid value: ["fs"]: must be a string',
    );
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":"serde"}}')).toBe(
      'spec.l2Backend.raw.config: Invalid value: "serde": must be an object',
    );
  });
});

const RESP = '"resp":{"host":"r","port":6379}';
const AESGCM = '"serde":{"aesgcm":{"masterKeySecretRef":{"name":"k"}}}';

describe("rule 25: serde needs a type", () => {
  it("serde without aesgcm is Required; with a valid aesgcm it is accepted", () => {
    expect(lm('"l2Backend":{' + RESP + ',"serde":{}}')).toBe(
      "spec.l2Backend.serde: Required value: exactly one serde type must be set",
    );
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":null}}')).toBe(
      "spec.l2Backend.serde: Required value: exactly one serde type must be set",
    );
    expect(lm('"l2Backend":{' + RESP + "," + AESGCM + "}")).toBe("");
  });
  it("type errors", () => {
    expect(lm('"l2Backend":{' + RESP + ',"serde":"aesgcm"}')).toBe(
      'spec.l2Backend.serde: Invalid value: "aesgcm": must be an object',
    );
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":true}}')).toBe(
      "spec.l2Backend.serde.aesgcm: Invalid value: true: must be an object",
    );
  });
});

describe("rule 26: serde.aesgcm.masterKeySecretRef.name", () => {
  it("absent reference, absent name and empty name are Required", () => {
    const req = "spec.l2Backend.serde.aesgcm.masterKeySecretRef.name: Required value: must be non-empty";
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":{}}}')).toBe(req);
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":{"masterKeySecretRef":{}}}}')).toBe(req);
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":{"masterKeySecretRef":{"name":""}}}}')).toBe(req);
  });
  it("type errors", () => {
    expect(lm('"l2Backend":{' + RESP + ',"serde":{"aesgcm":{"masterKeySecretRef":"k"}}}')).toBe(
      'spec.l2Backend.serde.aesgcm.masterKeySecretRef: Invalid value: "k": must be an object',
    );
  });
});

describe("rule 27: serde with a raw adapter that sets a serde config key", () => {
  it("is rejected with value empty", () => {
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":{"serde":{"type":"fp8"}}},' + AESGCM + "}")).toBe(
      "spec.l2Backend.serde: Invalid value: \"\": cannot be combined with a raw adapter that sets a 'serde' config key",
    );
  });
  it("needs both: serde alone, a serde key alone, or a null key are accepted", () => {
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":{"other":1}},' + AESGCM + "}")).toBe("");
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":{"serde":{"type":"fp8"}}}}')).toBe("");
    expect(lm('"l2Backend":{"raw":{"type":"fs","config":{"serde":null}},' + AESGCM + "}")).toBe("");
  });
});

describe("rules 28 and 29: coordinator sets exactly one of ref or url", () => {
  it("rule 28: both is Invalid with value empty", () => {
    expect(lm('"coordinator":{"ref":{"name":"c"},"url":"http://c"}')).toBe(
      'spec.coordinator: Invalid value: "": exactly one of ref or url must be set, got both',
    );
  });
  it("rule 29: neither is Required; {ref: {}} and url empty count as unset", () => {
    const req = "spec.coordinator: Required value: exactly one of ref or url must be set";
    expect(lm('"coordinator":{}')).toBe(req);
    expect(lm('"coordinator":{"ref":{},"url":""}')).toBe(req);
    expect(lm('"coordinator":{"ref":{"name":""}}')).toBe(req);
    expect(cb('"coordinator":{}')).toBe(req);
  });
  it("exactly one is accepted (the other unset)", () => {
    expect(lm('"coordinator":{"ref":{"name":"c"}}')).toBe("");
    expect(lm('"coordinator":{"ref":{"name":"c"},"url":""}')).toBe("");
    expect(lm('"coordinator":{"ref":{},"url":"http://c"}')).toBe("");
  });
  it("type errors take rule 28's place", () => {
    expect(lm('"coordinator":{"url":8080}')).toBe("spec.coordinator.url: Invalid value: 8080: must be a string");
    expect(lm('"coordinator":{"ref":"c"}')).toBe('spec.coordinator.ref: Invalid value: "c": must be an object');
    expect(lm('"coordinator":{"ref":{"name":true}}')).toBe(
      "spec.coordinator.ref.name: Invalid value: true: must be a string",
    );
    expect(lm('"coordinator":"c"')).toBe('spec.coordinator: Invalid value: "c": must be an object');
  });
});

describe("rule 30: coordinator.heartbeatInterval > 0", () => {
  it("bound 0 (open): just below and at are rejected", () => {
    expect(heartbeat("-5e-324")).toBe("spec.coordinator.heartbeatInterval: Invalid value: -5e-324" + POSITIVE);
    expect(heartbeat("0")).toBe("spec.coordinator.heartbeatInterval: Invalid value: 0" + POSITIVE);
  });
  it("bound 0: just above and far above are accepted", () => {
    expect(heartbeat("5e-324")).toBe("");
    expect(heartbeat("1e300")).toBe("");
  });
  it("type errors", () => {
    expect(heartbeat('"10s"')).toBe('spec.coordinator.heartbeatInterval: Invalid value: "10s": must be a number');
  });
});

describe("rule 31: coordinator.l2EventFlushInterval > 0", () => {
  it("bound 0 (open): just below and at are rejected", () => {
    expect(flushInterval("-1")).toBe("spec.coordinator.l2EventFlushInterval: Invalid value: -1" + POSITIVE);
    expect(flushInterval("0")).toBe("spec.coordinator.l2EventFlushInterval: Invalid value: 0" + POSITIVE);
  });
  it("bound 0: just above and far above are accepted", () => {
    expect(flushInterval("5e-324")).toBe("");
    expect(flushInterval("86400")).toBe("");
  });
  it("type errors", () => {
    expect(flushInterval("{}")).toBe("spec.coordinator.l2EventFlushInterval: Invalid value: {}: must be a number");
  });
});

describe("rule 32: gpuVendor", () => {
  it("accepts every member of the enum", () => {
    expect(lm('"gpuVendor":"nvidia"')).toBe("");
    expect(lm('"gpuVendor":"amd"')).toBe("");
    expect(lm('"gpuVendor":null')).toBe("");
  });
  it("rejects near misses, including the empty string, on both kinds", () => {
    const ns = (v: string): string => "spec.gpuVendor: Unsupported value: " + v + ': supported values: "nvidia", "amd"';
    expect(lm('"gpuVendor":"NVIDIA"')).toBe(ns('"NVIDIA"'));
    expect(lm('"gpuVendor":"amdgpu"')).toBe(ns('"amdgpu"'));
    expect(lm('"gpuVendor":""')).toBe(ns('""'));
    expect(cb('"gpuVendor":"intel"')).toBe(ns('"intel"'));
  });
  it("a non-string is the type error, not rule 32", () => {
    expect(lm('"gpuVendor":1')).toBe("spec.gpuVendor: Invalid value: 1: must be a string");
  });
});

describe("rule 33: hostIPC is a boolean", () => {
  it("accepts both booleans and null", () => {
    expect(lm('"hostIPC":true')).toBe("");
    expect(lm('"hostIPC":false')).toBe("");
    expect(cb('"hostIPC":false')).toBe("");
    expect(lm('"hostIPC":null')).toBe("");
  });
  it("rejects anything else once", () => {
    expect(lm('"hostIPC":"true"')).toBe('spec.hostIPC: Invalid value: "true": must be a boolean');
    expect(lm('"hostIPC":1')).toBe("spec.hostIPC: Invalid value: 1: must be a boolean");
    expect(cb('"hostIPC":{}')).toBe("spec.hostIPC: Invalid value: {}: must be a boolean");
  });
});

describe("rule 34: isolatedIPC is a boolean (LMCache)", () => {
  it("accepts both booleans", () => {
    expect(lm('"isolatedIPC":true')).toBe("");
    expect(lm('"isolatedIPC":false')).toBe("");
  });
  it("rejects anything else on an LMCacheEngine only", () => {
    expect(lm('"isolatedIPC":"false"')).toBe('spec.isolatedIPC: Invalid value: "false": must be a boolean');
    expect(lm('"isolatedIPC":0')).toBe("spec.isolatedIPC: Invalid value: 0: must be a boolean");
    expect(cb('"isolatedIPC":"false"')).toBe("");
  });
});

describe("rule 35: pd.nixlSideChannelPort in [1024, 65535]", () => {
  it("lower bound 1024: just below is rejected, at and just above are accepted", () => {
    expect(nixlPort("1023")).toBe("spec.pd.nixlSideChannelPort: Invalid value: 1023" + PORT);
    expect(nixlPort("1024")).toBe("");
    expect(nixlPort("1025")).toBe("");
  });
  it("upper bound 65535: just below and at are accepted, just above and far above are rejected", () => {
    expect(nixlPort("65534")).toBe("");
    expect(nixlPort("65535")).toBe("");
    expect(nixlPort("65536")).toBe("spec.pd.nixlSideChannelPort: Invalid value: 65536" + PORT);
    expect(nixlPort("1e15")).toBe("spec.pd.nixlSideChannelPort: Invalid value: 1e15" + PORT);
  });
  it("an integral float is an integer; absent, pd: {} and both kinds", () => {
    expect(nixlPort("5600.0")).toBe("");
    expect(lm('"pd":{}')).toBe("");
    expect(cb('"pd":{"nixlSideChannelPort":80}')).toBe("spec.pd.nixlSideChannelPort: Invalid value: 80" + PORT);
  });
  it("type errors", () => {
    expect(nixlPort('"5558"')).toBe('spec.pd.nixlSideChannelPort: Invalid value: "5558": must be an integer');
    expect(nixlPort("5558.5")).toBe("spec.pd.nixlSideChannelPort: Invalid value: 5558.5: must be an integer");
    expect(lm('"pd":true')).toBe("spec.pd: Invalid value: true: must be an object");
  });
});

describe("rule 36: pd.nixlLoadFailurePolicy", () => {
  it("accepts every member of the enum", () => {
    expect(lm('"pd":{"nixlLoadFailurePolicy":"fail"}')).toBe("");
    expect(lm('"pd":{"nixlLoadFailurePolicy":"ignore"}')).toBe("");
  });
  it("rejects near misses on both kinds", () => {
    const ns = (v: string): string =>
      "spec.pd.nixlLoadFailurePolicy: Unsupported value: " + v + ': supported values: "fail", "ignore"';
    expect(lm('"pd":{"nixlLoadFailurePolicy":"Fail"}')).toBe(ns('"Fail"'));
    expect(lm('"pd":{"nixlLoadFailurePolicy":""}')).toBe(ns('""'));
    expect(cb('"pd":{"nixlLoadFailurePolicy":"retry"}')).toBe(ns('"retry"'));
  });
  it("type errors", () => {
    expect(lm('"pd":{"nixlLoadFailurePolicy":false}')).toBe(
      "spec.pd.nixlLoadFailurePolicy: Invalid value: false: must be a string",
    );
  });
});

describe("acceptance cases of the operator rules", () => {
  it("l1.sizeGB 0 and server.port 80", () => {
    expect(sizeGB("0")).toBe("spec.l1.sizeGB: Invalid value: 0: must be greater than 0");
    expect(serverPort("80")).toBe("spec.server.port: Invalid value: 80: must be in [1024, 65535]");
  });
  it("triggerWatermark 0 / 0.01 / 1.0 / 1.1: rejected / accepted / accepted / rejected", () => {
    expect(watermark("0")).not.toBe("");
    expect(watermark("0.01")).toBe("");
    expect(watermark("1.0")).toBe("");
    expect(watermark("1.1")).not.toBe("");
  });
  it("resp with host empty and port 0: rules 21 and 22 in one message", () => {
    expect(lm('"l2Backend":{"resp":{"host":"","port":0}}')).toBe(
      "[spec.l2Backend.resp.host: Required value: must be a non-empty string, " +
        "spec.l2Backend.resp.port: Invalid value: 0: must be in [1, 65535]]",
    );
  });
  it("four violations in rule order (14, 15, 16, 17)", () => {
    expect(lm('"server":{"port":80},"eviction":{"evictionRatio":0,"triggerWatermark":0},"l1":{"sizeGB":0}')).toBe(
      "[spec.l1.sizeGB: Invalid value: 0: must be greater than 0, " +
        "spec.eviction.triggerWatermark: Invalid value: 0: must be in (0.0, 1.0], " +
        "spec.eviction.evictionRatio: Invalid value: 0: must be in (0.0, 1.0], " +
        "spec.server.port: Invalid value: 80: must be in [1024, 65535]]",
    );
  });
});

describe("order of rules 14–36", () => {
  it("follows rule 13 and the table", () => {
    const errs = violations(
      EngineKind.CacheBlend,
      '{"pd":{"nixlLoadFailurePolicy":"x","nixlSideChannelPort":1},"isolatedIPC":1,"hostIPC":1,"gpuVendor":"x",' +
        '"coordinator":{"l2EventFlushInterval":0,"heartbeatInterval":0},' +
        '"l2Backend":{"serde":{"aesgcm":{}},"raw":{"config":{"serde":1}},"resp":{"authSecretRef":{}}},' +
        '"blend":{"partialBucket":0},"server":{"port":1,"chunkSize":256},"eviction":{"evictionRatio":0,"triggerWatermark":0},' +
        '"l1":{"sizeGB":0},"injection":{"payloadImage":{"repository":"reg/p"},"cudagraph":"x"}}',
    );
    const fields = new Array<string>();
    for (let i = 0; i < errs.items.length; i++) fields.push(errs.items[i].field);
    expect(fields.join(" ")).toBe(
      "spec.injection.cudagraph spec.l1.sizeGB spec.eviction.triggerWatermark spec.eviction.evictionRatio " +
        "spec.server.port spec.blend.partialBucket spec.l2Backend spec.l2Backend.resp.host spec.l2Backend.resp.port " +
        "spec.l2Backend.resp.authSecretRef.name spec.l2Backend.raw.type " +
        "spec.l2Backend.serde.aesgcm.masterKeySecretRef.name spec.l2Backend.serde " +
        "spec.coordinator spec.coordinator.heartbeatInterval spec.coordinator.l2EventFlushInterval " +
        "spec.gpuVendor spec.hostIPC spec.pd.nixlSideChannelPort spec.pd.nixlLoadFailurePolicy",
    );
  });
});
