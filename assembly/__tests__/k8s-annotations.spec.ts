import { JsonValue, parseJsonString, ReadState } from "../json/index";
import {
  checkAnnotations,
  checkLabels,
  checkAnnotationsWritable,
  readAnnotation,
  readLabel,
  annotationOrEmpty,
  setAnnotation,
  removeAnnotation,
} from "../k8s/annotations";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

describe("checkAnnotations / checkLabels", () => {
  it("accepts absent, null and string maps", () => {
    expect(checkAnnotations(parse("{}"))).toBe("");
    expect(checkAnnotations(parse('{"metadata":null}'))).toBe("");
    expect(checkAnnotations(parse('{"metadata":{}}'))).toBe("");
    expect(checkAnnotations(parse('{"metadata":{"annotations":null}}'))).toBe("");
    expect(checkAnnotations(parse('{"metadata":{"annotations":{"a":"1","b":""}}}'))).toBe("");
  });
  it("reports wrong types", () => {
    expect(checkAnnotations(parse("[]"))).toBe("object is not a JSON object");
    expect(checkAnnotations(parse('{"metadata":"x"}'))).toBe("metadata is not an object");
    expect(checkAnnotations(parse('{"metadata":{"annotations":"x"}}'))).toBe("metadata.annotations is not an object");
    expect(checkAnnotations(parse('{"metadata":{"annotations":{"a":"1","b":2}}}'))).toBe(
      "metadata.annotations[b] is not a string",
    );
    expect(checkAnnotations(parse('{"metadata":{"annotations":{"a":null}}}'))).toBe(
      "metadata.annotations[a] is not a string",
    );
    expect(checkLabels(parse('{"metadata":{"labels":{"app":true}}}'))).toBe("metadata.labels[app] is not a string");
    expect(checkLabels(parse('{"metadata":{"annotations":{"app":true}}}'))).toBe("");
  });
  it("writable needs only the containers to be objects", () => {
    expect(checkAnnotationsWritable(parse('{"metadata":{"annotations":{"a":1}}}'))).toBe("");
    expect(checkAnnotationsWritable(parse('{"metadata":{"annotations":[]}}'))).toBe(
      "metadata.annotations is not an object",
    );
  });
});

describe("readAnnotation", () => {
  it("absent / null / ok / invalid", () => {
    expect(readAnnotation(parse("{}"), "k").state).toBe(ReadState.Absent);
    expect(readAnnotation(parse('{"metadata":{"annotations":{}}}'), "k").state).toBe(ReadState.Absent);
    expect(readAnnotation(parse('{"metadata":{"annotations":{"k":null}}}'), "k").state).toBe(ReadState.Null);
    const ok = readAnnotation(parse('{"metadata":{"annotations":{"k":"  v\\u00e9 "}}}'), "k");
    expect(ok.state).toBe(ReadState.Ok);
    expect(ok.value).toBe("  vé ");
    expect(readAnnotation(parse('{"metadata":{"annotations":{"k":1}}}'), "k").state).toBe(ReadState.Invalid);
    expect(readAnnotation(parse('{"metadata":{"annotations":"s"}}'), "k").state).toBe(ReadState.Invalid);
    expect(readAnnotation(parse('"s"'), "k").state).toBe(ReadState.Invalid);
  });
  it("escaped keys are compared decoded; last duplicate wins", () => {
    expect(readAnnotation(parse('{"metadata":{"annotations":{"lmcache.ai\\/x":"1"}}}'), "lmcache.ai/x").value).toBe(
      "1",
    );
    expect(readAnnotation(parse('{"metadata":{"annotations":{"k":"1","k":"2"}}}'), "k").value).toBe("2");
  });
  it("labels and the empty fallback", () => {
    expect(readLabel(parse('{"metadata":{"labels":{"app":"sglang"}}}'), "app").value).toBe("sglang");
    expect(annotationOrEmpty(parse('{"metadata":{"annotations":{"k":3}}}'), "k")).toBe("");
  });
});

describe("setAnnotation", () => {
  it("creates metadata and annotations when absent", () => {
    const pod = parse('{"kind":"Pod"}');
    expect(setAnnotation(pod, "a/b", "v")).toBe(true);
    expect(pod.toString()).toBe('{"kind":"Pod","metadata":{"annotations":{"a/b":"v"}}}');
  });
  it("replaces null metadata / annotations", () => {
    const a = parse('{"metadata":null}');
    expect(setAnnotation(a, "k", "v")).toBe(true);
    expect(a.toString()).toBe('{"metadata":{"annotations":{"k":"v"}}}');
    const b = parse('{"metadata":{"name":"p","annotations":null}}');
    expect(setAnnotation(b, "k", "v")).toBe(true);
    expect(b.toString()).toBe('{"metadata":{"name":"p","annotations":{"k":"v"}}}');
  });
  it("replaces in place, keeps other bytes", () => {
    const pod = parse('{"metadata":{"annotations":{"x":"\\u00e9","k":"old","z":"1"}},"spec":{ "n" : 1.50 }}');
    expect(setAnnotation(pod, "k", "new")).toBe(true);
    expect(pod.toString()).toBe('{"metadata":{"annotations":{"x":"\\u00e9","k":"new","z":"1"}},"spec":{ "n" : 1.50 }}');
  });
  it("an equal value leaves the bytes untouched", () => {
    const text = '{ "metadata" : { "annotations" : { "k" : "v" } } }';
    const pod = parse(text);
    expect(setAnnotation(pod, "k", "v")).toBe(true);
    expect(pod.toString()).toBe(text);
  });
  it("refuses wrong-typed containers without changing anything", () => {
    const pod = parse('{"metadata":{"annotations":"s"}}');
    expect(setAnnotation(pod, "k", "v")).toBe(false);
    expect(pod.toString()).toBe('{"metadata":{"annotations":"s"}}');
    expect(setAnnotation(parse('{"metadata":7}'), "k", "v")).toBe(false);
    expect(setAnnotation(parse("[]"), "k", "v")).toBe(false);
  });
  it("escapes new keys and values", () => {
    const pod = parse("{}");
    setAnnotation(pod, 'k"', "line\nnext");
    expect(pod.toString()).toBe('{"metadata":{"annotations":{"k\\"":"line\\nnext"}}}');
  });
});

describe("removeAnnotation", () => {
  it("removes and reports", () => {
    const pod = parse('{"metadata":{"annotations":{"a":"1","b":"2"}}}');
    expect(removeAnnotation(pod, "a")).toBe(true);
    expect(pod.toString()).toBe('{"metadata":{"annotations":{"b":"2"}}}');
    expect(removeAnnotation(pod, "a")).toBe(false);
  });
  it("keeps an emptied map unless asked to drop it", () => {
    const keep = parse('{"metadata":{"annotations":{"a":"1"}}}');
    removeAnnotation(keep, "a");
    expect(keep.toString()).toBe('{"metadata":{"annotations":{}}}');
    const drop = parse('{"metadata":{"name":"p","annotations":{"a":"1"}}}');
    removeAnnotation(drop, "a", true);
    expect(drop.toString()).toBe('{"metadata":{"name":"p"}}');
  });
  it("does not drop a map it did not empty", () => {
    const pod = parse('{"metadata":{"annotations":{}}}');
    expect(removeAnnotation(pod, "a", true)).toBe(false);
    expect(pod.toString()).toBe('{"metadata":{"annotations":{}}}');
  });
  it("is safe on wrong types", () => {
    expect(removeAnnotation(parse('{"metadata":{"annotations":"x"}}'), "a")).toBe(false);
    expect(removeAnnotation(parse("1"), "a")).toBe(false);
  });
});
