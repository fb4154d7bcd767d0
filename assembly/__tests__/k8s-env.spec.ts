import { JsonValue, parseJsonString } from "../json/index";
import {
  envVar,
  envIndices,
  findEnvIndex,
  setEnvIfAbsent,
  upsertEnv,
  prependPathEnv,
  checkEnvWritable,
  hasValueFrom,
} from "../k8s/env";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

describe("env lookup", () => {
  it("finds by exact name, skipping wrong-typed entries", () => {
    const c = parse(
      '{"env":["PYTHONPATH",{"name":1},{"name":"PYTHONPATH","value":"/a"},{"name":"X"},{"name":"PYTHONPATH"}]}',
    );
    expect(findEnvIndex(c.get("env"), "PYTHONPATH")).toBe(2);
    expect(envIndices(c.get("env"), "PYTHONPATH")).toStrictEqual([2, 4]);
    expect(findEnvIndex(c.get("env"), "pythonpath")).toBe(-1);
    expect(findEnvIndex(null, "X")).toBe(-1);
  });
  it("envVar and valueFrom", () => {
    expect(envVar("A", "1").toString()).toBe('{"name":"A","value":"1"}');
    expect(hasValueFrom(parse('{"valueFrom":null}'))).toBe(false);
    expect(hasValueFrom(parse('{"valueFrom":{}}'))).toBe(true);
  });
});

describe("setEnvIfAbsent", () => {
  it("appends when absent, creating env", () => {
    const c = parse('{"name":"vllm"}');
    expect(setEnvIfAbsent(c, "PYTHONHASHSEED", "0")).toBe(true);
    expect(c.toString()).toBe('{"name":"vllm","env":[{"name":"PYTHONHASHSEED","value":"0"}]}');
  });
  it("keeps a user value or valueFrom", () => {
    const text = '{"env":[{"name":"PYTHONHASHSEED","value":"42"}]}';
    const c = parse(text);
    expect(setEnvIfAbsent(c, "PYTHONHASHSEED", "0")).toBe(true);
    expect(c.toString()).toBe(text);
    const f = parse('{"env":[{"name":"PYTHONHASHSEED","valueFrom":{"configMapKeyRef":{"name":"x","key":"y"}}}]}');
    setEnvIfAbsent(f, "PYTHONHASHSEED", "0");
    expect(f.toString()).toBe(
      '{"env":[{"name":"PYTHONHASHSEED","valueFrom":{"configMapKeyRef":{"name":"x","key":"y"}}}]}',
    );
  });
  it("env: null is replaced; a wrong type refuses", () => {
    const c = parse('{"env":null}');
    expect(setEnvIfAbsent(c, "A", "1")).toBe(true);
    expect(c.toString()).toBe('{"env":[{"name":"A","value":"1"}]}');
    expect(setEnvIfAbsent(parse('{"env":"x"}'), "A", "1")).toBe(false);
  });
});

describe("upsertEnv", () => {
  it("replaces value and drops valueFrom keeping position", () => {
    const c = parse(
      '{"env":[{"name":"A","value":"1"},{"name":"D","valueFrom":{"fieldRef":{}}},{"name":"Z","value":"z"}]}',
    );
    expect(upsertEnv(c, "D", "/mnt")).toBe(true);
    expect(c.toString()).toBe(
      '{"env":[{"name":"A","value":"1"},{"name":"D","value":"/mnt"},{"name":"Z","value":"z"}]}',
    );
  });
  it("appends when absent", () => {
    const c = parse('{"env":[{"name":"USER_FLAG","value":"preserved"}]}');
    upsertEnv(c, "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR", "/mnt/hicache");
    expect(c.toString()).toBe(
      '{"env":[{"name":"USER_FLAG","value":"preserved"},{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/mnt/hicache"}]}',
    );
  });
  it("an equal entry keeps its bytes", () => {
    const text = '{"env":[ {"name":"D", "value":"/mnt"} ]}';
    const c = parse(text);
    upsertEnv(c, "D", "/mnt");
    expect(c.toString()).toBe(text);
  });
});

describe("prependPathEnv", () => {
  it("no entry: append", () => {
    const c = parse('{"env":[{"name":"A","value":"1"}]}');
    expect(prependPathEnv(c, "PYTHONPATH", "/lmcache-payload")).toBe(true);
    expect(c.toString()).toBe('{"env":[{"name":"A","value":"1"},{"name":"PYTHONPATH","value":"/lmcache-payload"}]}');
  });
  it("no env at all: create", () => {
    const c = parse("{}");
    prependPathEnv(c, "PYTHONPATH", "/cb-plugin");
    expect(c.toString()).toBe('{"env":[{"name":"PYTHONPATH","value":"/cb-plugin"}]}');
  });
  it("existing value: mp:existing", () => {
    const c = parse('{"env":[{"name":"PYTHONPATH","value":"/opt/extra"}]}');
    prependPathEnv(c, "PYTHONPATH", "/lmcache-payload");
    expect(c.toString()).toBe('{"env":[{"name":"PYTHONPATH","value":"/lmcache-payload:/opt/extra"}]}');
  });
  it("absent, null or empty value: mp", () => {
    const c = parse(
      '{"env":[{"name":"PYTHONPATH"},{"name":"PYTHONPATH","value":""},{"name":"PYTHONPATH","value":null}]}',
    );
    prependPathEnv(c, "PYTHONPATH", "/m");
    expect(c.toString()).toBe(
      '{"env":[{"name":"PYTHONPATH","value":"/m"},{"name":"PYTHONPATH","value":"/m"},{"name":"PYTHONPATH","value":"/m"}]}',
    );
  });
  it("acceptance 25: valueFrom entry becomes {name, value: mp} in the same position", () => {
    const c = parse(
      '{"env":[{"name":"A","value":"1"},{"name":"PYTHONPATH","valueFrom":{"configMapKeyRef":{"name":"c","key":"k"}}},{"name":"B","value":"2"}]}',
    );
    prependPathEnv(c, "PYTHONPATH", "/lmcache-payload");
    expect(c.toString()).toBe(
      '{"env":[{"name":"A","value":"1"},{"name":"PYTHONPATH","value":"/lmcache-payload"},{"name":"B","value":"2"}]}',
    );
  });
  it("acceptance 26: every PYTHONPATH entry rewritten", () => {
    const c = parse(
      '{"env":[{"name":"PYTHONPATH","value":"/a"},{"name":"X","value":"x"},{"name":"PYTHONPATH","value":"/b"}]}',
    );
    prependPathEnv(c, "PYTHONPATH", "/lmcache-payload");
    expect(c.toString()).toBe(
      '{"env":[{"name":"PYTHONPATH","value":"/lmcache-payload:/a"},{"name":"X","value":"x"},{"name":"PYTHONPATH","value":"/lmcache-payload:/b"}]}',
    );
  });
  it("no check whether mp is already present", () => {
    const c = parse('{"env":[{"name":"PYTHONPATH","value":"/m"}]}');
    prependPathEnv(c, "PYTHONPATH", "/m");
    expect(c.toString()).toBe('{"env":[{"name":"PYTHONPATH","value":"/m:/m"}]}');
  });
  it("refuses a non-string value of a matching entry", () => {
    const c = parse('{"env":[{"name":"PYTHONPATH","value":3}]}');
    expect(checkEnvWritable(c, "PYTHONPATH", "spec.containers[0]")).toBe(
      "spec.containers[0].env[0].value is not a string",
    );
    expect(prependPathEnv(c, "PYTHONPATH", "/m")).toBe(false);
    expect(checkEnvWritable(c, "OTHER", "p")).toBe("");
    expect(checkEnvWritable(parse('{"env":1}'), "X", "p")).toBe("p.env is not an array");
  });
});
