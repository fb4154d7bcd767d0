import { JsonValue, parseJsonString } from "../json/index";
import { EngineInjection } from "../lmcache/injection";
import { resolveTargetContainer, TargetOutcome } from "../lmcache/target";

function pod(containers: string): JsonValue {
  const v = parseJsonString('{"spec":{"containers":' + containers + "}}").value;
  return v !== null ? v : JsonValue.object();
}
function engineDefault(name: string): EngineInjection {
  const i = new EngineInjection();
  i.hasTargetContainer = true;
  i.targetContainer = name;
  return i;
}
const TWO = '[{"name":"sidecar"},{"name":"vllm"}]';

describe("resolveTargetContainer", () => {
  it("no containers: absent, null or []", () => {
    const none = new EngineInjection();
    const absent = parseJsonString('{"spec":{"initContainers":[{"name":"vllm"}]}}').value;
    if (absent !== null) {
      const r = resolveTargetContainer(absent, "", none);
      expect(r.outcome).toBe(TargetOutcome.NotFound);
      expect(r.detail).toBe("pod has no containers");
    }
    expect(resolveTargetContainer(pod("null"), "", none).detail).toBe("pod has no containers");
    expect(resolveTargetContainer(pod("[]"), "vllm", none).detail).toBe("pod has no containers");
  });
  it("both empty: the first container", () => {
    const r = resolveTargetContainer(pod(TWO), "", new EngineInjection());
    expect(r.found).toBe(true);
    expect(r.index).toBe(0);
    expect(r.name).toBe("sidecar");
  });
  it("the annotation (trimmed) matches exactly", () => {
    const r = resolveTargetContainer(pod(TWO), "  vllm\t", engineDefault("sidecar"));
    expect(r.index).toBe(1);
    expect(r.name).toBe("vllm");
  });
  it("the annotation wins even when it names no container", () => {
    const r = resolveTargetContainer(pod(TWO), "does-not-exist", engineDefault("vllm"));
    expect(r.outcome).toBe(TargetOutcome.NotFound);
    expect(r.detail).toBe('no container named "does-not-exist"');
  });
  it("engine default when the annotation is blank", () => {
    expect(resolveTargetContainer(pod(TWO), "   ", engineDefault(" vllm ")).index).toBe(1);
    expect(resolveTargetContainer(pod(TWO), "", engineDefault("VLLM")).detail).toBe('no container named "VLLM"');
  });
  it("engine default blank: the first container", () => {
    expect(resolveTargetContainer(pod(TWO), "", engineDefault("  ")).index).toBe(0);
  });
  it("wrong types are Malformed with the path", () => {
    const none = new EngineInjection();
    const notArray = resolveTargetContainer(pod("{}"), "", none);
    expect(notArray.outcome).toBe(TargetOutcome.Malformed);
    expect(notArray.detail).toBe("spec.containers is not an array");
    expect(resolveTargetContainer(pod('["vllm"]'), "", none).detail).toBe("spec.containers[0] is not an object");
    expect(resolveTargetContainer(pod('[{"name":"a"},{"name":2}]'), "b", none).detail).toBe(
      "spec.containers[1].name is not a string",
    );
    expect(resolveTargetContainer(pod("[{}]"), "", none).detail).toBe("spec.containers[0].name is not a string");
    const specNotObject = parseJsonString('{"spec":[]}').value;
    if (specNotObject !== null)
      expect(resolveTargetContainer(specNotObject, "", none).detail).toBe("spec is not an object");
  });
  it("a malformed container before the named one is Malformed (invalid-request), not NotFound", () => {
    const none = new EngineInjection();
    const number = resolveTargetContainer(pod('[3,{"name":"vllm"}]'), "vllm", none);
    expect(number.outcome).toBe(TargetOutcome.Malformed);
    expect(number.detail).toBe("spec.containers[0] is not an object");
    const nameNumber = resolveTargetContainer(pod('[{"name":7},{"name":"vllm"}]'), "", engineDefault("vllm"));
    expect(nameNumber.outcome).toBe(TargetOutcome.Malformed);
    expect(nameNumber.detail).toBe("spec.containers[0].name is not a string");
    const wrongType = resolveTargetContainer(pod('[{"name":"a"},{"name":2}]'), "b", none);
    expect(wrongType.outcome).toBe(TargetOutcome.Malformed);
    const first = resolveTargetContainer(pod('["vllm"]'), "", none);
    expect(first.outcome).toBe(TargetOutcome.Malformed);
  });
  it("a match before a malformed item is found", () => {
    expect(resolveTargetContainer(pod('[{"name":"vllm"},3]'), "vllm", new EngineInjection()).index).toBe(0);
  });
});
