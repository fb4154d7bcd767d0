// Reading a CacheBackend: each member the steps read is checked for its JSON type, and the first
// wrong one in step order is named (docs/policies/cachebackend-defaulter.md#malformed-objects).
import { parseJsonString } from "../../../../assembly/json/index";
import { BackendView, pathOf, readBackend } from "../backend";

function view(object: string): BackendView {
  return readBackend(parseJsonString(object).value!);
}
/** `<path>: <what>` of the first mistyped member, or "" */
function mistyped(spec: string): string {
  const v = view('{"spec":' + spec + "}");
  return v.readable ? "" : pathOf(v.mistypedAt) + ": " + v.mistypedAs;
}

describe("members of the wrong type, one by one", () => {
  it("spec", () => {
    expect(mistyped('"x"')).toBe("spec: must be an object");
    expect(mistyped("[]")).toBe("spec: must be an object");
    expect(mistyped("null")).toBe("");
  });
  it("spec.runtime", () => {
    expect(mistyped('{"runtime":5}')).toBe("spec.runtime: must be a string");
    expect(mistyped('{"runtime":{}}')).toBe("spec.runtime: must be a string");
  });
  it("spec.resources", () => {
    expect(mistyped('{"resources":"x"}')).toBe("spec.resources: must be an object");
    expect(mistyped('{"resources":[]}')).toBe("spec.resources: must be an object");
  });
  it("spec.integration", () => {
    expect(mistyped('{"integration":"x"}')).toBe("spec.integration: must be an object");
  });
  it("spec.integration.engine", () => {
    expect(mistyped('{"integration":{"engine":7}}')).toBe("spec.integration.engine: must be a string");
  });
  it("spec.observation", () => {
    expect(mistyped('{"observation":[]}')).toBe("spec.observation: must be an object");
  });
  it("spec.observation.firstEventTimeout: not a string, not a duration", () => {
    expect(mistyped('{"observation":{"firstEventTimeout":300}}')).toBe(
      "spec.observation.firstEventTimeout: must be a string",
    );
    expect(mistyped('{"observation":{"firstEventTimeout":"5 m"}}')).toBe(
      "spec.observation.firstEventTimeout: must be a duration",
    );
  });
  it("spec.integration.firstEventTimeout: not a string, not a duration, empty", () => {
    expect(mistyped('{"integration":{"firstEventTimeout":true}}')).toBe(
      "spec.integration.firstEventTimeout: must be a string",
    );
    expect(mistyped('{"integration":{"firstEventTimeout":"soon"}}')).toBe(
      "spec.integration.firstEventTimeout: must be a duration",
    );
    expect(mistyped('{"integration":{"firstEventTimeout":""}}')).toBe(
      "spec.integration.firstEventTimeout: must be a duration",
    );
  });
  it("durations at the bound", () => {
    expect(mistyped('{"integration":{"firstEventTimeout":"2562047h47m16.854775807s"}}')).toBe("");
    expect(mistyped('{"integration":{"firstEventTimeout":"2562047h47m16.854775808s"}}')).toBe(
      "spec.integration.firstEventTimeout: must be a duration",
    );
  });
  it("spec.autoscaling", () => {
    expect(mistyped('{"autoscaling":"on"}')).toBe("spec.autoscaling: must be an object");
  });
  it("spec.autoscaling.minReplicas", () => {
    expect(mistyped('{"autoscaling":{"minReplicas":"2"}}')).toBe("spec.autoscaling.minReplicas: must be a number");
  });
  it("spec.replicas: a string, a boolean; a fraction is a number", () => {
    expect(mistyped('{"replicas":"2"}')).toBe("spec.replicas: must be a number");
    expect(mistyped('{"replicas":true}')).toBe("spec.replicas: must be a number");
    expect(mistyped('{"replicas":1.5}')).toBe("");
  });
  it("spec.type", () => {
    expect(mistyped('{"type":1}')).toBe("spec.type: must be a string");
  });
  it("a string with a lone surrogate escape is not a string", () => {
    expect(mistyped('{"runtime":"\\ud800"}')).toBe("spec.runtime: must be a string");
  });
  it("members nothing reads may have any type", () => {
    expect(mistyped('{"hiCache":"x","lmCache":7,"remoteStorage":[],"integration":{"failOpen":"no","mode":1}}')).toBe(
      "",
    );
  });
});

describe("the first in step order is named", () => {
  it("runtime before resources before integration", () => {
    expect(mistyped('{"integration":1,"resources":1,"runtime":1}')).toBe("spec.runtime: must be a string");
    expect(mistyped('{"integration":1,"resources":1}')).toBe("spec.resources: must be an object");
  });
  it("engine before observation; observation's timeout before integration's", () => {
    expect(mistyped('{"observation":1,"integration":{"engine":1}}')).toBe("spec.integration.engine: must be a string");
    expect(mistyped('{"observation":{"firstEventTimeout":"x"},"integration":{"firstEventTimeout":"y"}}')).toBe(
      "spec.observation.firstEventTimeout: must be a duration",
    );
  });
  it("the integration's timeout before autoscaling, minReplicas before replicas, replicas before type", () => {
    expect(mistyped('{"autoscaling":1,"integration":{"firstEventTimeout":"y"}}')).toBe(
      "spec.integration.firstEventTimeout: must be a duration",
    );
    expect(mistyped('{"replicas":"1","autoscaling":{"minReplicas":"1"}}')).toBe(
      "spec.autoscaling.minReplicas: must be a number",
    );
    expect(mistyped('{"type":1,"replicas":"1"}')).toBe("spec.replicas: must be a number");
  });
});

describe("what is read", () => {
  it("canonical by runtime, lmCache or remoteStorage of any type; legacy otherwise", () => {
    expect(view('{"spec":{"runtime":"VLLM"}}').canonical).toBe(true);
    expect(view('{"spec":{"lmCache":7}}').canonical).toBe(true);
    expect(view('{"spec":{"remoteStorage":"x"}}').canonical).toBe(true);
    expect(view('{"spec":{"runtime":""}}').canonical).toBe(false);
    expect(view("{}").canonical).toBe(false);
  });
  it("NFS: an object whose provider is the string NFS", () => {
    expect(view('{"spec":{"remoteStorage":{"provider":"NFS"}}}').nfs).toBe(true);
    expect(view('{"spec":{"remoteStorage":{"provider":"nfs"}}}').nfs).toBe(false);
    expect(view('{"spec":{"remoteStorage":{"provider":5}}}').nfs).toBe(false);
    expect(view('{"spec":{"remoteStorage":"NFS"}}').nfs).toBe(false);
  });
  it("failOpen present only when not null", () => {
    expect(view('{"spec":{"integration":{"failOpen":false}}}').hasFailOpen).toBe(true);
    expect(view('{"spec":{"integration":{"failOpen":null}}}').hasFailOpen).toBe(false);
  });
  it("the last of a repeated member wins, as when the API server decodes it", () => {
    expect(view('{"spec":{"runtime":"VLLM","runtime":""}}').canonical).toBe(false);
  });
});
