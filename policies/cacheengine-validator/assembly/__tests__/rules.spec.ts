import { parseJsonString, JsonValue } from "../../../../assembly/json/index";
import { FieldErrorList } from "../../../../assembly/validate/index";
import { EngineKind, engineKindOf, engineViolations, CHUNK_SIZE_DETAIL } from "../rules";
import { REPOSITORY_FOOTGUN_DETAIL } from "../../../../assembly/keys/index";
import { compactJsonText, renderJsonValue } from "../../../../assembly/validate/index";

const CB_BASE =
  '{"server":{"chunkSize":256},"blend":{"checkLayer":1,"recompRatio":0.15},' +
  '"injection":{"payloadImage":{"repository":"reg/cb-payload","tag":"pinned","pullPolicy":"IfNotPresent"},"cudagraph":"eager"}}';

function parse(text: string): JsonValue {
  const r = parseJsonString(text);
  const v = r.value;
  return v !== null ? v : JsonValue.nul();
}

/** Violations of an engine whose `spec` is the given JSON text. */
function violations(kind: EngineKind, specText: string): FieldErrorList {
  return engineViolations(kind, parse('{"metadata":{"name":"e"},"spec":' + specText + "}"));
}

function lm(specText: string): string {
  return violations(EngineKind.LMCache, specText).aggregateText();
}

function cb(specText: string): string {
  return violations(EngineKind.CacheBlend, specText).aggregateText();
}

/** The CacheBlend base with `injection` replaced. */
function cbInjection(injectionText: string): string {
  return cb(
    '{"server":{"chunkSize":256},"blend":{"checkLayer":1,"recompRatio":0.15},"injection":' + injectionText + "}",
  );
}

function cbBlend(blendText: string): string {
  return cb(
    '{"server":{"chunkSize":256},"blend":' + blendText + ',"injection":{"payloadImage":{"repository":"reg/p"}}}',
  );
}

function cbChunkSize(numberText: string): string {
  return cb('{"server":{"chunkSize":' + numberText + '},"injection":{"payloadImage":{"repository":"reg/p"}}}');
}

const SUBDOMAIN_PREFIX = "a lowercase RFC 1123 subdomain must consist of";
const LABEL_PREFIX = "a lowercase RFC 1123 label must consist of";

describe("engineKindOf", () => {
  it("knows the two engine kinds and nothing else", () => {
    expect(engineKindOf("LMCacheEngine")).toBe(EngineKind.LMCache);
    expect(engineKindOf("CacheBlendEngine")).toBe(EngineKind.CacheBlend);
    expect(engineKindOf("LMCacheCoordinator")).toBe(EngineKind.Other);
    expect(engineKindOf("lmcacheengine")).toBe(EngineKind.Other);
    expect(engineKindOf("")).toBe(EngineKind.Other);
  });
});

describe("base objects", () => {
  it("accepts the CacheBlend base and an LMCache engine without injection", () => {
    expect(violations(EngineKind.CacheBlend, CB_BASE).isEmpty()).toBe(true);
    expect(violations(EngineKind.LMCache, "{}").isEmpty()).toBe(true);
    expect(violations(EngineKind.LMCache, '{"l1":{"sizeGB":4}}').isEmpty()).toBe(true);
  });
  it("accepts an LMCache engine without spec, requires injection of a CacheBlend engine without spec", () => {
    expect(engineViolations(EngineKind.LMCache, parse('{"metadata":{}}')).isEmpty()).toBe(true);
    expect(engineViolations(EngineKind.CacheBlend, parse('{"metadata":{}}')).aggregateText()).toBe(
      "spec.injection: Required value: must be specified for CacheBlend injection",
    );
  });
});

describe("rule 1: chunkSize", () => {
  it("accepts 256 and an absent server", () => {
    expect(cbChunkSize("256")).toBe("");
    expect(cb('{"injection":{"payloadImage":{"repository":"reg/p"}}}')).toBe("");
  });
  it("rejects other values with their JSON text", () => {
    expect(cbChunkSize("128")).toBe("spec.server.chunkSize: Invalid value: 128: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("-256")).toBe("spec.server.chunkSize: Invalid value: -256: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("0")).toBe("spec.server.chunkSize: Invalid value: 0: " + CHUNK_SIZE_DETAIL);
  });
  it("reads an integral number written as a float or with an exponent as that integer", () => {
    expect(cbChunkSize("256.0")).toBe("");
    expect(cbChunkSize("2.56e2")).toBe("");
    expect(cbChunkSize("25600e-2")).toBe("");
    expect(cbChunkSize("128.0")).toBe("spec.server.chunkSize: Invalid value: 128.0: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("-0.0")).toBe("spec.server.chunkSize: Invalid value: -0.0: " + CHUNK_SIZE_DETAIL);
    expect(cbBlend('{"checkLayer":-1.0}')).toBe("spec.blend.checkLayer: Invalid value: -1.0: must be >= 0");
  });
  it("reports wrong types and out-of-range integers instead of truncating them", () => {
    expect(cbChunkSize('"256"')).toBe('spec.server.chunkSize: Invalid value: "256": must be an integer');
    expect(cbChunkSize("256.5")).toBe("spec.server.chunkSize: Invalid value: 256.5: must be an integer");
    expect(cbChunkSize("2.5e-1")).toBe("spec.server.chunkSize: Invalid value: 2.5e-1: must be an integer");
    expect(cbChunkSize("1e16")).toBe("spec.server.chunkSize: Invalid value: 1e16: must be an integer");
    expect(cbChunkSize("4294967552.0")).toBe(
      "spec.server.chunkSize: Invalid value: 4294967552.0: must be a 32-bit integer",
    );
    expect(cbChunkSize("4294967552")).toBe(
      "spec.server.chunkSize: Invalid value: 4294967552: must be a 32-bit integer",
    );
    expect(cbChunkSize("99999999999999999999999")).toBe(
      "spec.server.chunkSize: Invalid value: 99999999999999999999999: must be a 32-bit integer",
    );
    expect(cbChunkSize("null")).toBe("");
  });
  it("reports a server that is not an object once", () => {
    expect(cb('{"server":256,"injection":{"payloadImage":{"repository":"reg/p"}}}')).toBe(
      "spec.server: Invalid value: 256: must be an object",
    );
  });
  it("is CacheBlend only", () => {
    expect(lm('{"server":{"chunkSize":128}}')).toBe("");
  });
  it("bound 256 from both sides: just below, at, just above, far above", () => {
    expect(cbChunkSize("255")).toBe("spec.server.chunkSize: Invalid value: 255: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("256")).toBe("");
    expect(cbChunkSize("257")).toBe("spec.server.chunkSize: Invalid value: 257: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("512")).toBe("spec.server.chunkSize: Invalid value: 512: " + CHUNK_SIZE_DETAIL);
    expect(cbChunkSize("2147483647")).toBe("spec.server.chunkSize: Invalid value: 2147483647: " + CHUNK_SIZE_DETAIL);
  });
});

describe("rule 2: checkLayer", () => {
  it("bound 0 from both sides: just below, at, just above, far above", () => {
    expect(cbBlend('{"checkLayer":-1}')).toBe("spec.blend.checkLayer: Invalid value: -1: must be >= 0");
    expect(cbBlend('{"checkLayer":0}')).toBe("");
    expect(cbBlend('{"checkLayer":1}')).toBe("");
    expect(cbBlend('{"checkLayer":2147483647}')).toBe("");
  });
  it("accepts 0 and positive values, rejects negative ones", () => {
    expect(cbBlend('{"checkLayer":0}')).toBe("");
    expect(cbBlend('{"checkLayer":31}')).toBe("");
    expect(cbBlend('{"checkLayer":-1}')).toBe("spec.blend.checkLayer: Invalid value: -1: must be >= 0");
    expect(cbBlend('{"checkLayer":-2147483648}')).toBe(
      "spec.blend.checkLayer: Invalid value: -2147483648: must be >= 0",
    );
  });
  it("reports wrong types", () => {
    expect(cbBlend('{"checkLayer":true}')).toBe("spec.blend.checkLayer: Invalid value: true: must be an integer");
    expect(cbBlend('{"checkLayer":"0"}')).toBe('spec.blend.checkLayer: Invalid value: "0": must be an integer');
    expect(cbBlend('{"checkLayer":-2147483649}')).toBe(
      "spec.blend.checkLayer: Invalid value: -2147483649: must be a 32-bit integer",
    );
  });
});

describe("rule 3: recompRatio", () => {
  it("lower bound 0 (open) and upper bound 1 (closed), each from both sides", () => {
    expect(cbBlend('{"recompRatio":-5e-324}')).toBe(
      "spec.blend.recompRatio: Invalid value: -5e-324: must be in (0.0, 1.0]",
    );
    expect(cbBlend('{"recompRatio":0}')).toBe("spec.blend.recompRatio: Invalid value: 0: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":5e-324}')).toBe("");
    expect(cbBlend('{"recompRatio":0.9999999999999999}')).toBe("");
    expect(cbBlend('{"recompRatio":1}')).toBe("");
    expect(cbBlend('{"recompRatio":1.0000000000000002}')).toBe(
      "spec.blend.recompRatio: Invalid value: 1.0000000000000002: must be in (0.0, 1.0]",
    );
    expect(cbBlend('{"recompRatio":100}')).toBe("spec.blend.recompRatio: Invalid value: 100: must be in (0.0, 1.0]");
  });
  it("accepts (0, 1] including the closed end in any spelling", () => {
    expect(cbBlend('{"recompRatio":0.15}')).toBe("");
    expect(cbBlend('{"recompRatio":1}')).toBe("");
    expect(cbBlend('{"recompRatio":1.0}')).toBe("");
    expect(cbBlend('{"recompRatio":1e0}')).toBe("");
    expect(cbBlend('{"recompRatio":1e-300}')).toBe("");
  });
  it("rejects 0, negatives and values above 1 with their JSON text", () => {
    expect(cbBlend('{"recompRatio":0}')).toBe("spec.blend.recompRatio: Invalid value: 0: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":0.0}')).toBe("spec.blend.recompRatio: Invalid value: 0.0: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":-0.0}')).toBe("spec.blend.recompRatio: Invalid value: -0.0: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":-0.5}')).toBe("spec.blend.recompRatio: Invalid value: -0.5: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":1.0000001}')).toBe(
      "spec.blend.recompRatio: Invalid value: 1.0000001: must be in (0.0, 1.0]",
    );
    expect(cbBlend('{"recompRatio":1.5}')).toBe("spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]");
    expect(cbBlend('{"recompRatio":1e400}')).toBe(
      "spec.blend.recompRatio: Invalid value: 1e400: must be in (0.0, 1.0]",
    );
  });
  it("reports a string as a type error", () => {
    expect(cbBlend('{"recompRatio":"0.5"}')).toBe('spec.blend.recompRatio: Invalid value: "0.5": must be a number');
  });
  it("orders checkLayer before recompRatio and reports a bad blend once", () => {
    expect(cbBlend('{"recompRatio":1.5,"checkLayer":-1}')).toBe(
      "[spec.blend.checkLayer: Invalid value: -1: must be >= 0, spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]]",
    );
    expect(cbBlend("[1, 2]")).toBe("spec.blend: Invalid value: [1,2]: must be an object");
  });
});

describe("rules 4 and 5: CacheBlend injection and payloadImage", () => {
  it("requires injection (absent or null)", () => {
    expect(cb('{"server":{"chunkSize":256}}')).toBe(
      "spec.injection: Required value: must be specified for CacheBlend injection",
    );
    expect(cb('{"injection":null}')).toBe("spec.injection: Required value: must be specified for CacheBlend injection");
  });
  it("requires payloadImage only when injection is there", () => {
    expect(cbInjection('{"cudagraph":"eager"}')).toBe(
      "spec.injection.payloadImage: Required value: must be specified for CacheBlend injection",
    );
    expect(cbInjection('{"payloadImage":null}')).toBe(
      "spec.injection.payloadImage: Required value: must be specified for CacheBlend injection",
    );
  });
  it("reports wrong types instead of Required", () => {
    expect(cbInjection('"x"')).toBe('spec.injection: Invalid value: "x": must be an object');
    expect(cbInjection('{"payloadImage":"reg/p:v1"}')).toBe(
      'spec.injection.payloadImage: Invalid value: "reg/p:v1": must be an object',
    );
  });
  it("does not require injection of an LMCache engine", () => {
    expect(lm('{"injection":{}}')).toBe("");
    expect(lm('{"injection":{"payloadImage":null}}')).toBe("");
    expect(lm('{"injection":"x"}')).toBe('spec.injection: Invalid value: "x": must be an object');
  });
});

describe("rules 6–8: repository", () => {
  it("requires a non-blank repository when payloadImage is present", () => {
    const req = "spec.injection.payloadImage.repository: Required value: must be a non-empty string";
    expect(lm('{"injection":{"payloadImage":{}}}')).toBe(req);
    expect(lm('{"injection":{"payloadImage":{"repository":null}}}')).toBe(req);
    expect(lm('{"injection":{"payloadImage":{"repository":""}}}')).toBe(req);
    expect(lm('{"injection":{"payloadImage":{"repository":" \\t "}}}')).toBe(req);
    expect(cbInjection('{"payloadImage":{"tag":"v1"}}')).toBe(req);
  });
  it("rejects exactly the ImageSpec default", () => {
    const footgun =
      'spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": ' + REPOSITORY_FOOTGUN_DETAIL;
    expect(
      lm(
        '{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai","tag":"latest","pullPolicy":"IfNotPresent"}}}',
      ),
    ).toBe(footgun);
    expect(cbInjection('{"payloadImage":{"repository":"lmcache/vllm-openai"}}')).toBe(footgun);
    expect(lm('{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai@sha256:abc"}}}')).toBe("");
    expect(lm('{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai-payload"}}}')).toBe("");
  });
  it("rejects whitespace and control characters, printed with %q", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p latest"}}}')).toBe(
      'spec.injection.payloadImage.repository: Invalid value: "reg/p latest": must not contain whitespace',
    );
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p\\u0000"}}}')).toBe(
      'spec.injection.payloadImage.repository: Invalid value: "reg/p\\x00": must not contain whitespace',
    );
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p\\n"}}}')).toBe(
      'spec.injection.payloadImage.repository: Invalid value: "reg/p\\n": must not contain whitespace',
    );
  });
  it("accepts digest references", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p@sha256:abc"}}}')).toBe("");
  });
  it("type-checks repository and tag", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":42,"tag":1.5}}}')).toBe(
      "[spec.injection.payloadImage.repository: Invalid value: 42: must be a string, " +
        "spec.injection.payloadImage.tag: Invalid value: 1.5: must be a string]",
    );
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","tag":"v1.2-rc"}}}')).toBe("");
  });
  it("rule 8b: rejects a tag with whitespace (the injectors could not stage it)", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","tag":"any tag"}}}')).toBe(
      'spec.injection.payloadImage.tag: Invalid value: "any tag": must not contain whitespace',
    );
  });
});

describe("rule 9: pullPolicy", () => {
  it("accepts the enum and an absent value", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":"Always"}}}')).toBe("");
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":"Never"}}}')).toBe("");
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p"}}}')).toBe("");
  });
  it("rejects other strings, including the empty one", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":"Sometimes"}}}')).toBe(
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "IfNotPresent"',
    );
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":""}}}')).toBe(
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "": supported values: "Always", "Never", "IfNotPresent"',
    );
  });
  it("reports objects as compact JSON", () => {
    expect(lm('{"injection":{"payloadImage":{"repository":"reg/p","pullPolicy":{ "a" : [ 1 , "x y" ] }}}}')).toBe(
      'spec.injection.payloadImage.pullPolicy: Invalid value: {"a":[1,"x y"]}: must be a string',
    );
  });
});

describe("rules 10 and 11: imagePullSecrets", () => {
  it("rule 11 length bound 253 from both sides: just below, at, just above, far above", () => {
    const secret = (name: string): string => lm('{"injection":{"imagePullSecrets":[{"name":"' + name + '"}]}}');
    const at = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    expect(at.length).toBe(253);
    expect(secret(at.slice(1))).toBe("");
    expect(secret(at)).toBe("");
    const above = at + "e";
    expect(secret(above)).toBe(
      'spec.injection.imagePullSecrets[0].name: Invalid value: "' + above + '": must be no more than 253 characters',
    );
    const far = "a".repeat(1000);
    expect(secret(far)).toBe(
      'spec.injection.imagePullSecrets[0].name: Invalid value: "' + far + '": must be no more than 253 characters',
    );
  });
  it("accepts valid names, also without payloadImage", () => {
    expect(lm('{"injection":{"imagePullSecrets":[{"name":"payload-pull"},{"name":"a.b-c"}]}}')).toBe("");
    expect(lm('{"injection":{"imagePullSecrets":[]}}')).toBe("");
  });
  it("requires a name", () => {
    expect(lm('{"injection":{"imagePullSecrets":[{"name":""}]}}')).toBe(
      "spec.injection.imagePullSecrets[0].name: Required value: must be a non-empty Secret name",
    );
    expect(lm('{"injection":{"imagePullSecrets":[{"name":"ok"},{}]}}')).toBe(
      "spec.injection.imagePullSecrets[1].name: Required value: must be a non-empty Secret name",
    );
    expect(lm('{"injection":{"imagePullSecrets":[null]}}')).toBe(
      "spec.injection.imagePullSecrets[0].name: Required value: must be a non-empty Secret name",
    );
  });
  it("reports each DNS-1123 subdomain message", () => {
    const one = lm('{"injection":{"imagePullSecrets":[{"name":"Payload_Pull"}]}}');
    expect(
      one.startsWith('spec.injection.imagePullSecrets[0].name: Invalid value: "Payload_Pull": ' + SUBDOMAIN_PREFIX),
    ).toBe(true);
    const long = "a".repeat(254);
    const errs = violations(EngineKind.LMCache, '{"injection":{"imagePullSecrets":[{"name":"' + long + '"}]}}');
    expect(errs.aggregateText()).toBe(
      'spec.injection.imagePullSecrets[0].name: Invalid value: "' + long + '": must be no more than 253 characters',
    );
    const longBad = "A" + "a".repeat(253);
    expect(
      violations(EngineKind.LMCache, '{"injection":{"imagePullSecrets":[{"name":"' + longBad + '"}]}}').length,
    ).toBe(2);
  });
  it("type-checks the list, its items and names", () => {
    expect(lm('{"injection":{"imagePullSecrets":{"name":"x"}}}')).toBe(
      'spec.injection.imagePullSecrets: Invalid value: {"name":"x"}: must be a list',
    );
    expect(lm('{"injection":{"imagePullSecrets":["x",{"name":5}]}}')).toBe(
      '[spec.injection.imagePullSecrets[0]: Invalid value: "x": must be an object, ' +
        "spec.injection.imagePullSecrets[1].name: Invalid value: 5: must be a string]",
    );
  });
});

describe("rule 12: targetContainer", () => {
  it("length bound 63 from both sides: just below, at, just above, far above", () => {
    const target = (name: string): string => lm('{"injection":{"targetContainer":"' + name + '"}}');
    expect(target("a".repeat(62))).toBe("");
    expect(target("a".repeat(63))).toBe("");
    expect(target("a".repeat(64))).toBe(
      'spec.injection.targetContainer: Invalid value: "' + "a".repeat(64) + '": must be no more than 63 characters',
    );
    expect(target("a".repeat(1000))).toBe(
      'spec.injection.targetContainer: Invalid value: "' + "a".repeat(1000) + '": must be no more than 63 characters',
    );
  });
  it("accepts a label and the empty string", () => {
    expect(lm('{"injection":{"targetContainer":"vllm"}}')).toBe("");
    expect(lm('{"injection":{"targetContainer":""}}')).toBe("");
    expect(lm('{"injection":{"targetContainer":"' + "a".repeat(63) + '"}}')).toBe("");
  });
  it("rejects non-labels, one violation per message", () => {
    expect(
      lm('{"injection":{"targetContainer":"vLLM"}}').startsWith(
        'spec.injection.targetContainer: Invalid value: "vLLM": ' + LABEL_PREFIX,
      ),
    ).toBe(true);
    const long = "a".repeat(64);
    expect(lm('{"injection":{"targetContainer":"' + long + '"}}')).toBe(
      'spec.injection.targetContainer: Invalid value: "' + long + '": must be no more than 63 characters',
    );
    expect(violations(EngineKind.LMCache, '{"injection":{"targetContainer":"' + "A".repeat(64) + '"}}').length).toBe(2);
    expect(
      lm('{"injection":{"targetContainer":" vllm"}}').startsWith(
        'spec.injection.targetContainer: Invalid value: " vllm": ',
      ),
    ).toBe(true);
  });
  it("type-checks", () => {
    expect(lm('{"injection":{"targetContainer":false}}')).toBe(
      "spec.injection.targetContainer: Invalid value: false: must be a string",
    );
  });
});

describe("rule 13: cudagraph", () => {
  it("accepts the enum", () => {
    expect(cbInjection('{"payloadImage":{"repository":"reg/p"},"cudagraph":"piecewise"}')).toBe("");
    expect(cbInjection('{"payloadImage":{"repository":"reg/p"},"cudagraph":"full_decode_only"}')).toBe("");
  });
  it("rejects other values", () => {
    expect(cbInjection('{"payloadImage":{"repository":"reg/p"},"cudagraph":"full"}')).toBe(
      'spec.injection.cudagraph: Unsupported value: "full": supported values: "eager", "piecewise", "full_decode_only"',
    );
    expect(cbInjection('{"payloadImage":{"repository":"reg/p"},"cudagraph":3}')).toBe(
      "spec.injection.cudagraph: Invalid value: 3: must be a string",
    );
  });
  it("is CacheBlend only", () => {
    expect(lm('{"injection":{"cudagraph":"full"}}')).toBe("");
  });
});

describe("order and malformed input", () => {
  it("reports every rule in table order", () => {
    const errs = violations(
      EngineKind.CacheBlend,
      '{"server":{"chunkSize":512},"blend":{"checkLayer":-2,"recompRatio":2},' +
        '"injection":{"payloadImage":{"repository":"lmcache/vllm-openai","pullPolicy":"Sometimes"},' +
        '"imagePullSecrets":[{"name":""},{"name":"Bad"}],"targetContainer":"-vllm","cudagraph":"graph"}}',
    );
    const fields = new Array<string>();
    for (let i = 0; i < errs.items.length; i++) fields.push(errs.items[i].field);
    expect(fields.join(" ")).toBe(
      "spec.server.chunkSize spec.blend.checkLayer spec.blend.recompRatio spec.injection.payloadImage.repository " +
        "spec.injection.payloadImage.pullPolicy spec.injection.imagePullSecrets[0].name spec.injection.imagePullSecrets[1].name " +
        "spec.injection.targetContainer spec.injection.cudagraph",
    );
  });
  it("never traps on a spec of the wrong type", () => {
    expect(lm('["x", 1]')).toBe('spec: Invalid value: ["x",1]: must be an object');
    expect(cb("[]")).toBe("spec: Invalid value: []: must be an object");
    expect(cb('"spec"')).toBe('spec: Invalid value: "spec": must be an object');
    expect(cb("7")).toBe("spec: Invalid value: 7: must be an object");
    expect(cb("null")).toBe("spec.injection: Required value: must be specified for CacheBlend injection");
  });
  it("never traps on deeply wrong shapes", () => {
    expect(violations(EngineKind.CacheBlend, '{"server":[],"blend":"x","injection":[[{}]]}').length).toBe(3);
    expect(
      violations(
        EngineKind.LMCache,
        '{"injection":{"payloadImage":[],"imagePullSecrets":[[],1,true,"a"],"targetContainer":{}}}',
      ).length,
    ).toBe(6);
  });
});

describe("value rendering", () => {
  it("compacts JSON outside strings only", () => {
    expect(compactJsonText('{ "a b" : [ 1 ,\n\t2 ] , "c\\" d" : "e " }')).toBe('{"a b":[1,2],"c\\" d":"e "}');
  });
  it("prints strings %q and numbers as written", () => {
    expect(renderJsonValue(parse('"a\\"b\\u0007"'))).toBe('"a\\"b\\a"');
    expect(renderJsonValue(parse("1.50"))).toBe("1.50");
    expect(renderJsonValue(parse("true"))).toBe("true");
    expect(renderJsonValue(parse("null"))).toBe("null");
  });
});
