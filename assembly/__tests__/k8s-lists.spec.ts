import { JsonValue, parseJsonString } from "../json/index";
import {
  hasItemNamed,
  countItemsNamed,
  appendIfAbsentByName,
  appendToList,
  mergePullSecrets,
  pullSecretsToAppend,
  emptyDirVolume,
  nfsVolume,
  volumeMount,
  simpleInitContainer,
  appendVolumeIfAbsent,
  appendInitContainerIfAbsent,
  appendVolumeMountIfAbsent,
  appendPullSecretIfAbsent,
} from "../k8s/lists";
import { nameRef, ensureArrayMember, ensureObjectMember, stringItems, itemName } from "../k8s/fields";
import { envVar } from "../k8s/env";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

function secretsAfterMerge(podSpec: string, names: string[]): string {
  const spec = parse(podSpec);
  mergePullSecrets(spec, names);
  return spec.toString();
}

describe("named items", () => {
  it("hasItemNamed treats wrong-typed items safely", () => {
    const list = parse('[1,"lmcache-payload",null,{"name":5},{"nameX":"lmcache-payload"},{"name":"lmcache-payload"}]');
    expect(hasItemNamed(list, "lmcache-payload")).toBe(true);
    expect(countItemsNamed(list, "lmcache-payload")).toBe(1);
    expect(hasItemNamed(parse('[1,"a",{"name":2}]'), "a")).toBe(false);
    expect(hasItemNamed(parse('{"name":"a"}'), "a")).toBe(false);
    expect(hasItemNamed(null, "a")).toBe(false);
  });
  it("appendIfAbsentByName creates the list", () => {
    const spec = parse('{"containers":[]}');
    expect(appendIfAbsentByName(spec, "volumes", emptyDirVolume("lmcache-payload"))).toBe(true);
    expect(spec.toString()).toBe('{"containers":[],"volumes":[{"name":"lmcache-payload","emptyDir":{}}]}');
  });
  it("acceptance 30: a user volume with the same name is kept, not duplicated", () => {
    const text = '{"volumes":[{"name":"lmcache-payload","hostPath":{"path":"/data","type":""}}]}';
    const spec = parse(text);
    expect(appendIfAbsentByName(spec, "volumes", emptyDirVolume("lmcache-payload"))).toBe(true);
    expect(spec.toString()).toBe(text);
  });
  it("refuses a wrong-typed list or an unnamed item", () => {
    expect(appendIfAbsentByName(parse('{"volumes":{}}'), "volumes", emptyDirVolume("v"))).toBe(false);
    expect(appendIfAbsentByName(parse("{}"), "volumes", parse('{"emptyDir":{}}'))).toBe(false);
  });
  it("appendToList is unconditional", () => {
    const c = parse('{"env":[{"name":"A","value":"1"}]}');
    appendToList(c, "env", envVar("A", "2"));
    expect(c.toString()).toBe('{"env":[{"name":"A","value":"1"},{"name":"A","value":"2"}]}');
  });
});

describe("named conveniences", () => {
  it("create spec and lists as needed, never duplicate", () => {
    const pod = parse('{"kind":"Pod"}');
    expect(appendVolumeIfAbsent(pod, emptyDirVolume("v"))).toBe(true);
    expect(appendVolumeIfAbsent(pod, nfsVolume("v", "s", "/p"))).toBe(true);
    expect(appendInitContainerIfAbsent(pod, simpleInitContainer("i", "img", [], [], ""))).toBe(true);
    expect(appendPullSecretIfAbsent(pod, "s")).toBe(true);
    expect(appendPullSecretIfAbsent(pod, "s")).toBe(true);
    expect(pod.toString()).toBe(
      '{"kind":"Pod","spec":{"volumes":[{"name":"v","emptyDir":{}}],"initContainers":[{"name":"i","image":"img"}],"imagePullSecrets":[{"name":"s"}]}}',
    );
    const c = parse('{"name":"c","volumeMounts":[{"name":"m","mountPath":"/other"}]}');
    expect(appendVolumeMountIfAbsent(c, volumeMount("m", "/m", true))).toBe(true);
    expect(c.toString()).toBe('{"name":"c","volumeMounts":[{"name":"m","mountPath":"/other"}]}');
    expect(appendVolumeIfAbsent(parse('{"spec":"x"}'), emptyDirVolume("v"))).toBe(false);
  });
});

describe("mergePullSecrets", () => {
  it("acceptance 29: [a, a, b] into [b] gives [b, a]", () => {
    expect(secretsAfterMerge('{"imagePullSecrets":[{"name":"b"}]}', ["a", "a", "b"])).toBe(
      '{"imagePullSecrets":[{"name":"b"},{"name":"a"}]}',
    );
  });
  it("keeps existing duplicates and items without names", () => {
    expect(secretsAfterMerge('{"imagePullSecrets":[{"name":"x"},{"name":"x"},{}]}', ["x", "y"])).toBe(
      '{"imagePullSecrets":[{"name":"x"},{"name":"x"},{},{"name":"y"}]}',
    );
  });
  it("creates the list only when something is appended", () => {
    expect(secretsAfterMerge("{}", [])).toBe("{}");
    expect(secretsAfterMerge('{"imagePullSecrets":null}', [])).toBe('{"imagePullSecrets":null}');
    expect(secretsAfterMerge("{}", ["cb-payload-pull"])).toBe('{"imagePullSecrets":[{"name":"cb-payload-pull"}]}');
  });
  it("a new list (absent or null) is written exactly as item-by-item appends would write it", () => {
    expect(secretsAfterMerge('{"imagePullSecrets":null,"x":1}', ["a", 'q"\\\t', "é", "a"])).toBe(
      '{"imagePullSecrets":[{"name":"a"},{"name":"q\\"\\\\\\t"},{"name":"é"}],"x":1}',
    );
    // the created list reads like any other: a later append sees its names
    const spec = parse("{}");
    expect(mergePullSecrets(spec, ["a", "b"])).toBe(true);
    expect(hasItemNamed(spec.get("imagePullSecrets"), "b")).toBe(true);
    expect(mergePullSecrets(spec, ["b", "c"])).toBe(true);
    expect(spec.toString()).toBe('{"imagePullSecrets":[{"name":"a"},{"name":"b"},{"name":"c"}]}');
  });
  it("many injected names (hashed, not looked up one by one) merge the same way", () => {
    const names = ["a", "b", "x", "c", "a", "d", "e", "f", "x", "g", "h"];
    expect(pullSecretsToAppend(parse('[{"name":"x"},{"name":5},"b",{"name":"b"}]'), names)).toStrictEqual([
      "a",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
    ]);
    expect(pullSecretsToAppend(null, names)).toStrictEqual(["a", "b", "x", "c", "d", "e", "f", "g", "h"]);
  });
  it("already listed: count stays 1", () => {
    const text = '{"imagePullSecrets":[ {"name":"lmcache-payload-pull"} ]}';
    expect(secretsAfterMerge(text, ["lmcache-payload-pull"])).toBe(text);
  });
  it("refuses a wrong-typed list", () => {
    expect(mergePullSecrets(parse('{"imagePullSecrets":"x"}'), ["a"])).toBe(false);
    expect(pullSecretsToAppend(null, ["a", "", "a"])).toStrictEqual(["a", ""]);
  });
});

describe("builders", () => {
  it("exact JSON of the staged objects", () => {
    expect(emptyDirVolume("cb-plugin").toString()).toBe('{"name":"cb-plugin","emptyDir":{}}');
    expect(nfsVolume("inferencecache-hicache-l3", "192.0.2.10", "/hicache").toString()).toBe(
      '{"name":"inferencecache-hicache-l3","nfs":{"server":"192.0.2.10","path":"/hicache"}}',
    );
    expect(volumeMount("lmcache-payload", "/lmcache-payload", true).toString()).toBe(
      '{"name":"lmcache-payload","mountPath":"/lmcache-payload","readOnly":true}',
    );
    expect(volumeMount("inferencecache-hicache-l3", "/mnt/hicache", false).toString()).toBe(
      '{"name":"inferencecache-hicache-l3","mountPath":"/mnt/hicache"}',
    );
    expect(nameRef("s").toString()).toBe('{"name":"s"}');
  });
  it("init container", () => {
    const c = simpleInitContainer(
      "lmcache-payload-stage",
      "reg/p:pinned",
      [envVar("SHARED_DIR", "/lmcache-payload")],
      [volumeMount("lmcache-payload", "/lmcache-payload", false)],
      "IfNotPresent",
    );
    expect(c.toString()).toBe(
      '{"name":"lmcache-payload-stage","image":"reg/p:pinned","env":[{"name":"SHARED_DIR","value":"/lmcache-payload"}],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload"}],"imagePullPolicy":"IfNotPresent"}',
    );
    expect(simpleInitContainer("i", "img", [], [], "").toString()).toBe('{"name":"i","image":"img"}');
  });
});

describe("fields helpers", () => {
  it("ensure members", () => {
    const o = parse('{"a":null,"b":1,"c":[]}');
    expect(ensureArrayMember(o, "a") !== null).toBe(true);
    expect(ensureArrayMember(o, "b") === null).toBe(true);
    expect(ensureObjectMember(o, "c") === null).toBe(true);
    expect(ensureObjectMember(o, "d") !== null).toBe(true);
    expect(o.toString()).toBe('{"a":[],"b":1,"c":[],"d":{}}');
    expect(ensureObjectMember(parse("[]"), "x") === null).toBe(true);
  });
  it("stringItems and itemName", () => {
    const s = stringItems(parse('["a","b"]'));
    expect(s !== null && s.length == 2).toBe(true);
    expect(stringItems(parse('["a",1]')) === null).toBe(true);
    expect(stringItems(parse("{}")) === null).toBe(true);
    expect(itemName(parse('{"name":"n"}'))).toBe("n");
    expect(itemName(parse('{"name":1}')) === null).toBe(true);
  });
});
