// The five steps and the NFS failOpen warning, each bound from both sides
// (docs/policies/cachebackend-defaulter.md#steps).
import { parseJsonString } from "../../../../assembly/json/index";
import { BackendView, readBackend } from "../backend";
import {
  defaultsEngine,
  engineOf,
  defaultedMinReplicas,
  defaultedTimeout,
  defaultsIntegration,
  defaultsObservation,
  defaultsResources,
  planDefaults,
  Timeout,
  warnsNfsFailOpen,
} from "../steps";

function view(spec: string): BackendView {
  return readBackend(parseJsonString('{"kind":"CacheBackend","spec":' + spec + "}").value!);
}
function engine(spec: string): string {
  const v = view(spec);
  return defaultsEngine(v) ? engineOf(v) : "(kept)";
}
const NFS = '"remoteStorage":{"provider":"NFS","ownership":"External"}';

describe("step 1: legacy resources", () => {
  it("legacy without resources: written", () => {
    expect(defaultsResources(view("{}"))).toBe(true);
  });
  it("legacy with resources {}: kept", () => {
    expect(defaultsResources(view('{"resources":{}}'))).toBe(false);
  });
  it("legacy with resources null: written (null is absent)", () => {
    expect(defaultsResources(view('{"resources":null}'))).toBe(true);
  });
  it("runtime non-empty is canonical: none", () => {
    expect(defaultsResources(view('{"runtime":"VLLM"}'))).toBe(false);
  });
  it('runtime "" is legacy: written', () => {
    expect(defaultsResources(view('{"runtime":""}'))).toBe(true);
  });
  it("lmCache present is canonical, lmCache null is not", () => {
    expect(defaultsResources(view('{"lmCache":{}}'))).toBe(false);
    expect(defaultsResources(view('{"lmCache":null}'))).toBe(true);
  });
  it("remoteStorage present is canonical, remoteStorage null is not", () => {
    expect(defaultsResources(view('{"remoteStorage":{}}'))).toBe(false);
    expect(defaultsResources(view('{"remoteStorage":null}'))).toBe(true);
  });
});

describe("step 2: integration", () => {
  it("absent: {}", () => {
    expect(defaultsIntegration(view("{}"))).toBe(true);
  });
  it("null: {}", () => {
    expect(defaultsIntegration(view('{"integration":null}'))).toBe(true);
  });
  it("{} present: kept", () => {
    expect(defaultsIntegration(view('{"integration":{}}'))).toBe(false);
  });
});

describe("step 3: the engine is the runtime ID", () => {
  it("legacy, no engine: vllm", () => {
    expect(engine("{}")).toBe("vllm");
  });
  it("runtime SGLang: sglang; VLLM: vllm; vllm: vllm", () => {
    expect(engine('{"runtime":"SGLang"}')).toBe("sglang");
    expect(engine('{"runtime":"VLLM"}')).toBe("vllm");
    expect(engine('{"runtime":"vllm"}')).toBe("vllm");
  });
  it("another runtime: lower-cased as written", () => {
    expect(engine('{"runtime":"Triton"}')).toBe("triton");
  });
  it("canonical without runtime: vllm", () => {
    expect(engine('{"lmCache":{}}')).toBe("vllm");
  });
  it('engine "" counts as absent, null too', () => {
    expect(engine('{"runtime":"SGLang","integration":{"engine":""}}')).toBe("sglang");
    expect(engine('{"runtime":"SGLang","integration":{"engine":null}}')).toBe("sglang");
  });
  it("a set engine is kept, even one that differs from the runtime, even blank", () => {
    expect(engine('{"integration":{"engine":"SGLang"}}')).toBe("(kept)");
    expect(engine('{"runtime":"VLLM","integration":{"engine":"sglang"}}')).toBe("(kept)");
    expect(engine('{"integration":{"engine":" "}}')).toBe("(kept)");
  });
});

describe("step 4: the first-event timeout", () => {
  it("canonical without observation: observation {} and 5m0s", () => {
    const v = view('{"runtime":"VLLM"}');
    expect(defaultsObservation(v)).toBe(true);
    expect(defaultedTimeout(v)).toBe(Timeout.ObservationDefault);
  });
  it("canonical with observation without timeout: no new observation, 5m0s", () => {
    const v = view('{"runtime":"VLLM","observation":{"modelID":"m"}}');
    expect(defaultsObservation(v)).toBe(false);
    expect(defaultedTimeout(v)).toBe(Timeout.ObservationDefault);
  });
  it("canonical with the integration's timeout: copied", () => {
    expect(defaultedTimeout(view('{"runtime":"VLLM","integration":{"firstEventTimeout":"10m"}}'))).toBe(
      Timeout.ObservationCopy,
    );
  });
  it("canonical with an observation timeout: nothing, whatever the integration's", () => {
    expect(defaultedTimeout(view('{"runtime":"VLLM","observation":{"firstEventTimeout":"1m"}}'))).toBe(Timeout.None);
    expect(
      defaultedTimeout(
        view('{"runtime":"VLLM","observation":{"firstEventTimeout":"1m"},"integration":{"firstEventTimeout":"2m"}}'),
      ),
    ).toBe(Timeout.None);
  });
  it("canonical with an observation timeout null: 5m0s", () => {
    expect(defaultedTimeout(view('{"runtime":"VLLM","observation":{"firstEventTimeout":null}}'))).toBe(
      Timeout.ObservationDefault,
    );
  });
  it("legacy without the integration's timeout: 5m0s there; never an observation", () => {
    const v = view('{"observation":{"modelID":"m"}}');
    expect(defaultedTimeout(v)).toBe(Timeout.IntegrationDefault);
    expect(defaultsObservation(view("{}"))).toBe(false);
  });
  it("legacy with the integration's timeout: nothing", () => {
    expect(defaultedTimeout(view('{"integration":{"firstEventTimeout":"30s"}}'))).toBe(Timeout.None);
  });
});

function floor(spec: string): i64 {
  return defaultedMinReplicas(view(spec));
}

describe("step 5: the autoscaling floor", () => {
  it("replicas 0: none; 1: 1; 3: 3", () => {
    expect(floor('{"replicas":0,"autoscaling":{}}')).toBe(-1);
    expect(floor('{"replicas":1,"autoscaling":{}}')).toBe(1);
    expect(floor('{"replicas":3,"autoscaling":{}}')).toBe(3);
  });
  it("replicas -1: none", () => {
    expect(floor('{"replicas":-1,"autoscaling":{}}')).toBe(-1);
  });
  it("int32 max: that floor; one past it, or far past it: none", () => {
    expect(floor('{"replicas":2147483647,"autoscaling":{}}')).toBe(2147483647);
    expect(floor('{"replicas":2147483648,"autoscaling":{}}')).toBe(-1);
    expect(floor('{"replicas":18446744073709551616,"autoscaling":{}}')).toBe(-1);
  });
  it("integral floats are integers; a fraction is not", () => {
    expect(floor('{"replicas":2.0,"autoscaling":{}}')).toBe(2);
    expect(floor('{"replicas":3e0,"autoscaling":{}}')).toBe(3);
    expect(floor('{"replicas":1.5,"autoscaling":{}}')).toBe(-1);
  });
  it("no replicas, no autoscaling, autoscaling null: none", () => {
    expect(floor('{"autoscaling":{}}')).toBe(-1);
    expect(floor('{"replicas":3}')).toBe(-1);
    expect(floor('{"replicas":3,"autoscaling":null}')).toBe(-1);
  });
  it("minReplicas present: kept; null: absent", () => {
    expect(floor('{"replicas":3,"autoscaling":{"minReplicas":2}}')).toBe(-1);
    expect(floor('{"replicas":3,"autoscaling":{"minReplicas":null}}')).toBe(3);
  });
});

describe("the NFS failOpen warning", () => {
  it("HiCache on NFS without failOpen, with or without integration", () => {
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + "}"))).toBe(true);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + ',"integration":{}}'))).toBe(true);
  });
  it("failOpen null is absent; true or false is present", () => {
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + ',"integration":{"failOpen":null}}'))).toBe(true);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + ',"integration":{"failOpen":true}}'))).toBe(false);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + ',"integration":{"failOpen":false}}'))).toBe(false);
  });
  it("another cache type, another provider, provider nfs, no remoteStorage: none", () => {
    expect(warnsNfsFailOpen(view('{"type":"LMCache",' + NFS + "}"))).toBe(false);
    expect(warnsNfsFailOpen(view("{" + NFS + "}"))).toBe(false);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache","remoteStorage":{"provider":"Redis"}}'))).toBe(false);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache","remoteStorage":{"provider":"nfs"}}'))).toBe(false);
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache"}'))).toBe(false);
  });
  it("a malformed object: none", () => {
    expect(warnsNfsFailOpen(view('{"type":"SGLangHiCache",' + NFS + ',"replicas":"2"}'))).toBe(false);
  });
});

describe("the plan: all or nothing, nothing when defaulted", () => {
  it("a malformed object: nothing", () => {
    expect(planDefaults(view('{"integration":"x"}')).changes).toBe(false);
  });
  it("{}: every step that applies", () => {
    const d = planDefaults(view("{}"));
    expect(d.spec).toBe(false);
    expect(d.resources).toBe(true);
    expect(d.integration).toBe(true);
    expect(d.engine).toBe(true);
    expect(d.timeout).toBe(Timeout.IntegrationDefault);
    expect(d.minReplicas).toBe(-1);
    expect(d.changes).toBe(true);
  });
  it("no spec: spec first", () => {
    expect(planDefaults(readBackend(parseJsonString('{"kind":"CacheBackend"}').value!)).spec).toBe(true);
  });
  it("a defaulted legacy object: no change", () => {
    const spec = '{"resources":{},"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}';
    expect(planDefaults(view(spec)).changes).toBe(false);
  });
  it("a defaulted canonical object: no change", () => {
    const spec = '{"runtime":"SGLang","integration":{"engine":"sglang"},"observation":{"firstEventTimeout":"5m0s"}}';
    expect(planDefaults(view(spec)).changes).toBe(false);
  });
  it("only the floor missing: a change", () => {
    const spec =
      '{"resources":{},"integration":{"engine":"vllm","firstEventTimeout":"5m0s"},"replicas":1,"autoscaling":{}}';
    expect(planDefaults(view(spec)).changes).toBe(true);
  });
});
