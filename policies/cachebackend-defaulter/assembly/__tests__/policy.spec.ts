// The responses (docs/policies/cachebackend-defaulter.md#responses) of `evaluate`: what is written
// where, what stays byte for byte, the warnings, and the requests it leaves alone.
import { evaluate } from "../policy";

const KIND = '"kind":{"group":"inferencecache.io","version":"v1alpha1","kind":"CacheBackend"}';
const NFS_WARNING =
  "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";

function answer(request: string): string {
  return evaluate(Uint8Array.wrap(String.UTF8.encode('{"request":' + request + ',"settings":{}}'))).toString();
}
function create(object: string, operation: string = "CREATE"): string {
  return answer("{" + KIND + ',"operation":"' + operation + '","object":' + object + "}");
}

describe("what is written, and where", () => {
  it("{}: resources and integration at the end of spec, engine before the timeout", () => {
    expect(create('{"spec":{}}')).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"resources":{"requests":{"memory":"4Gi"},"limits":{"memory":"8Gi"}},' +
        '"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}}',
    );
  });
  it("no spec: spec at the end of the object", () => {
    expect(create('{"kind":"CacheBackend"}')).toBe(
      '{"accepted":true,"mutated_object":{"kind":"CacheBackend","spec":{"resources":{"requests":{"memory":"4Gi"},"limits":{"memory":"8Gi"}},' +
        '"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}}',
    );
  });
  it("a member present as null is replaced where it stands", () => {
    expect(create('{"spec":{"integration":null,"resources":{}}}')).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"integration":{"engine":"vllm","firstEventTimeout":"5m0s"},"resources":{}}}}',
    );
  });
  it("canonical: integration then observation; the integration's timeout copied with its escapes", () => {
    expect(create('{"spec":{"runtime":"SGLang","integration":{"firstEventTimeout":"1\\u006d30s"}}}')).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"runtime":"SGLang","integration":{"firstEventTimeout":"1\\u006d30s","engine":"sglang"},' +
        '"observation":{"firstEventTimeout":"1\\u006d30s"}}}}',
    );
  });
  it("an escaped timeout is decoded to be checked: one Go refuses is not defaulted", () => {
    expect(create('{"spec":{"runtime":"SGLang","integration":{"firstEventTimeout":"5\\u0020m"}}}')).toBe(
      '{"accepted":true,"warnings":["cachebackend-defaulter: not defaulted: spec.integration.firstEventTimeout: must be a duration"]}',
    );
  });
  it("an observation keeps its members; the timeout goes last", () => {
    expect(create('{"spec":{"lmCache":{},"integration":{"engine":"vllm"},"observation":{"modelID":"m"}}}')).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"lmCache":{},"integration":{"engine":"vllm"},"observation":{"modelID":"m","firstEventTimeout":"5m0s"}}}}',
    );
  });
  it("the floor is written as an integer; replicas keeps its spelling; untouched values keep their bytes", () => {
    // an object written to is emitted without the insignificant whitespace between its members
    expect(
      create('{ "spec": {"x": [1.50, "\\/"], "replicas": 2.0e0, "autoscaling": {"maxReplicas": 4}, "resources": {}} }'),
    ).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"x":[1.50, "\\/"],"replicas":2.0e0,"autoscaling":{"maxReplicas":4,"minReplicas":2},"resources":{},' +
        '"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}}',
    );
  });
});

function engineFor(runtime: string): string {
  const out = create('{"spec":{"runtime":' + runtime + ',"integration":{"firstEventTimeout":"1m"}}}');
  const at = out.indexOf('"engine":');
  return out.slice(at + 9, out.indexOf("}", at));
}

describe("the engine: the runtime lower-cased, on its bytes or through its text", () => {
  it("without escapes the runtime's bytes are lowered", () => {
    expect(engineFor('"SGLang"')).toBe('"sglang"');
    expect(engineFor('"Tri/ton"')).toBe('"tri/ton"');
    expect(engineFor('"İX"')).toBe('"ix"'); // U+0130 as UTF-8
    expect(engineFor('"\u212AÄB"')).toBe('"kÄb"'); // the Kelvin sign
  });
  it("with escapes the same engine, through the decoded runtime", () => {
    expect(engineFor('"SG\\u004cang"')).toBe('"sglang"');
    expect(engineFor('"\\u0130X"')).toBe('"ix"');
    expect(engineFor('"\\u212A\\u00c4B"')).toBe('"kÄb"');
  });
});

describe("no change: no mutated_object", () => {
  it("a defaulted legacy backend", () => {
    expect(create('{"spec":{"resources":{},"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}')).toBe(
      '{"accepted":true}',
    );
  });
  it("a defaulted NFS HiCache backend without failOpen: only the warning", () => {
    expect(
      create(
        '{"spec":{"runtime":"SGLang","type":"SGLangHiCache","remoteStorage":{"provider":"NFS"},' +
          '"integration":{"engine":"sglang"},"observation":{"firstEventTimeout":"5m0s"}}}',
      ),
    ).toBe('{"accepted":true,"warnings":["' + NFS_WARNING + '"]}');
  });
});

describe("warnings", () => {
  it("NFS HiCache without failOpen: defaulted and warned", () => {
    const out = create('{"spec":{"runtime":"SGLang","type":"SGLangHiCache","remoteStorage":{"provider":"NFS"}}}');
    expect(out.startsWith('{"accepted":true,"mutated_object":')).toBe(true);
    expect(out.endsWith(',"warnings":["' + NFS_WARNING + '"]}')).toBe(true);
  });
  it("malformed: unchanged, the first mistyped member named", () => {
    expect(create('{"spec":{"replicas":"2","integration":"x"}}')).toBe(
      '{"accepted":true,"warnings":["cachebackend-defaulter: not defaulted: spec.integration: must be an object"]}',
    );
  });
  it("an object that is not an object, or none on CREATE", () => {
    const warned = '{"accepted":true,"warnings":["cachebackend-defaulter: not defaulted: object: must be an object"]}';
    expect(create('"cb"')).toBe(warned);
    expect(create("null")).toBe(warned);
    expect(answer("{" + KIND + ',"operation":"CREATE"}')).toBe(warned);
  });
  it("a payload that is not a request", () => {
    const out = evaluate(Uint8Array.wrap(String.UTF8.encode("]"))).toString();
    expect(
      out.startsWith(
        '{"accepted":true,"warnings":["cachebackend-defaulter: not defaulted: request could not be read: payload is not valid JSON',
      ),
    ).toBe(true);
    expect(evaluate(Uint8Array.wrap(String.UTF8.encode('{"request":7}'))).toString()).toBe(
      '{"accepted":true,"warnings":["cachebackend-defaulter: not defaulted: request could not be read: request is not an object"]}',
    );
  });
});

describe("requests left alone", () => {
  it("UPDATE is defaulted like CREATE; the old object is not read", () => {
    expect(
      answer("{" + KIND + ',"operation":"UPDATE","object":{"spec":{"resources":{}}},"oldObject":"not read"}'),
    ).toBe(
      '{"accepted":true,"mutated_object":{"spec":{"resources":{},"integration":{"engine":"vllm","firstEventTimeout":"5m0s"}}}}',
    );
  });
  it("DELETE and CONNECT: nothing", () => {
    expect(create('{"spec":{}}', "DELETE")).toBe('{"accepted":true}');
    expect(create('{"spec":{}}', "CONNECT")).toBe('{"accepted":true}');
  });
  it("another kind: nothing", () => {
    expect(answer('{"kind":{"kind":"Pod"},"operation":"CREATE","object":{"spec":{}}}')).toBe('{"accepted":true}');
  });
});
