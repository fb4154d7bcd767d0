import { JsonValue, parseJsonString } from "../json/index";
import {
  readContainers,
  readPodList,
  findContainerIndex,
  findNamedIndex,
  containerAt,
  firstContainer,
  containerNames,
  containerPath,
} from "../k8s/containers";
import {
  checkContainerFields,
  checkContainerList,
  checkPodLists,
  checkStringArray,
  checkNamedObjectArray,
  checkEnvList,
  checkObject,
} from "../k8s/validate";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

const TWO = '{"spec":{"containers":[{"name":"sidecar","args":["sleep"]},{"name":"vllm"}]}}';

describe("readContainers", () => {
  it("absent, null and empty are empty lists without error", () => {
    expect(readContainers(parse("{}")).ok).toBe(true);
    expect(readContainers(parse("{}")).length).toBe(0);
    expect(readContainers(parse('{"spec":null}')).length).toBe(0);
    expect(readContainers(parse('{"spec":{"containers":null}}')).length).toBe(0);
    expect(readContainers(parse('{"spec":{"containers":[]}}')).length).toBe(0);
    expect(readContainers(parse('{"spec":{"initContainers":[{"name":"i"}]}}')).length).toBe(0);
  });
  it("wrong types are errors", () => {
    expect(readContainers(parse('{"spec":[]}')).error).toBe("spec is not an object");
    expect(readContainers(parse('{"spec":{"containers":{}}}')).error).toBe("spec.containers is not an array");
    expect(readContainers(parse("7")).error).toBe("object is not a JSON object");
    expect(readPodList(parse('{"spec":{"volumes":"x"}}'), "volumes").error).toBe("spec.volumes is not an array");
  });
  it("at() returns objects only", () => {
    const list = readContainers(parse('{"spec":{"containers":[1,{"name":"a"}]}}'));
    expect(list.length).toBe(2);
    expect(list.at(0) === null).toBe(true);
    expect(list.at(1) !== null).toBe(true);
    expect(list.at(2) === null).toBe(true);
    expect(list.at(-1) === null).toBe(true);
  });
});

describe("finding containers", () => {
  it("by exact name", () => {
    const pod = parse(TWO);
    expect(findContainerIndex(pod, "vllm")).toBe(1);
    expect(findContainerIndex(pod, "sidecar")).toBe(0);
    expect(findContainerIndex(pod, "VLLM")).toBe(-1);
    expect(findContainerIndex(pod, "")).toBe(-1);
  });
  it("first match wins; wrong-typed items are skipped safely", () => {
    const pod = parse('{"spec":{"containers":["vllm",{"name":1},{"name":"vllm","x":1},{"name":"vllm"}]}}');
    expect(findContainerIndex(pod, "vllm")).toBe(2);
    expect(findNamedIndex(null, "x")).toBe(-1);
  });
  it("first container and names", () => {
    const pod = parse(TWO);
    const first = firstContainer(pod);
    expect(first !== null && first.readString("name").value == "sidecar").toBe(true);
    expect(containerAt(pod, 5) === null).toBe(true);
    expect(firstContainer(parse("{}")) === null).toBe(true);
    expect(containerNames(pod)).toStrictEqual(["sidecar", "vllm"]);
    expect(containerNames(parse('{"spec":{"containers":[{"name":2}]}}'))).toStrictEqual([""]);
    expect(containerPath(3)).toBe("spec.containers[3]");
  });
});

describe("type validation details", () => {
  it("args element not a string", () => {
    const c = parse('{"name":"vllm","args":["--model","m",7]}');
    expect(checkContainerFields(c, "spec.containers[0]")).toBe("spec.containers[0].args[2] is not a string");
  });
  it("args / command not arrays", () => {
    expect(checkContainerFields(parse('{"name":"v","args":"x"}'), "spec.containers[1]")).toBe(
      "spec.containers[1].args is not an array",
    );
    expect(checkContainerFields(parse('{"name":"v","command":[null]}'), "p")).toBe("p.command[0] is not a string");
  });
  it("env entries need a string name; value must be a string when set", () => {
    expect(checkContainerFields(parse('{"name":"v","env":[{"name":"A"},{"value":"x"}]}'), "p")).toBe(
      "p.env[1].name is not a string",
    );
    expect(checkContainerFields(parse('{"name":"v","env":["A=1"]}'), "p")).toBe("p.env[0] is not an object");
    expect(checkContainerFields(parse('{"name":"v","env":[{"name":"A","value":1}]}'), "p")).toBe(
      "p.env[0].value is not a string",
    );
    expect(checkContainerFields(parse('{"name":"v","env":{}}'), "p")).toBe("p.env is not an array");
    expect(checkEnvList(parse('{"env":[{"name":"A","value":null,"valueFrom":{}}]}'), "p")).toBe("");
  });
  it("env: a name problem anywhere is reported before a value problem, and the first of each", () => {
    const env = '[{"name":"A","value":1},{"name":"B","value":[]},{"name":2},{"value":"x"}]';
    expect(checkEnvList(parse('{"env":' + env + "}"), "p")).toBe("p.env[2].name is not a string");
    expect(checkEnvList(parse('{"env":[{"name":"A"},{"name":"B","value":1},{"name":"C","value":true}]}'), "p")).toBe(
      "p.env[1].value is not a string",
    );
    expect(checkEnvList(parse('{"env":[{"name":"A","value":{}},7]}'), "p")).toBe("p.env[1] is not an object");
  });
  it("volumeMounts named objects; container itself", () => {
    expect(checkContainerFields(parse('{"name":"v","volumeMounts":[{"mountPath":"/x"}]}'), "p")).toBe(
      "p.volumeMounts[0].name is not a string",
    );
    expect(checkContainerFields(parse('"c"'), "p")).toBe("p is not an object");
    expect(checkContainerFields(null, "p")).toBe("p is not an object");
    expect(checkContainerFields(parse('{"args":[]}'), "p")).toBe("p.name is not a string");
  });
  it("a well-typed container passes", () => {
    expect(
      checkContainerFields(
        parse(
          '{"name":"v","args":["a"],"command":[],"env":[{"name":"A","valueFrom":{"x":1}}],"volumeMounts":[{"name":"m","mountPath":"/m"}]}',
        ),
        "p",
      ),
    ).toBe("");
    expect(checkContainerFields(parse('{"name":"v","args":null,"env":null}'), "p")).toBe("");
  });
  it("container list and pod lists", () => {
    expect(checkContainerList(parse('{"spec":{"containers":[{"name":"a"},3]}}'))).toBe(
      "spec.containers[1] is not an object",
    );
    expect(checkContainerList(parse('{"spec":{"containers":"x"}}'))).toBe("spec.containers is not an array");
    expect(checkContainerList(parse("{}"))).toBe("");
    expect(checkPodLists(parse('{"spec":{"volumes":[{"name":"v"}],"initContainers":[{}]}}'))).toBe(
      "spec.initContainers[0].name is not a string",
    );
    expect(checkPodLists(parse('{"spec":{"imagePullSecrets":{}}}'))).toBe("spec.imagePullSecrets is not an array");
    expect(checkPodLists(parse('{"spec":{"imagePullSecrets":[{},"x"]}}'))).toBe("");
  });
  it("generic checkers", () => {
    expect(checkStringArray(parse('{"a":[1]}'), "a", "x")).toBe("x.a[0] is not a string");
    expect(checkNamedObjectArray(parse('{"a":[{"name":"n"}]}'), "a", "x")).toBe("");
    expect(checkObject(parse('{"a":[]}'), "a", "x")).toBe("x.a is not an object");
    expect(checkObject(parse('{"a":null}'), "a", "x")).toBe("");
  });
});
