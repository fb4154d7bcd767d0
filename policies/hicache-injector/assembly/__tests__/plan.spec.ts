// The planner (docs/policies/hicache-injector.md#evaluation-order) with recorded lookups: the
// opt-out table, selection, the exact lookup made, the NFS plan's equality rules and the edits.
import { JsonValue, parseJsonString } from "../../../../assembly/json/index";
import { decodeValidationPayload, RecordedLookups } from "../../../../assembly/kubewarden/index";
import { HiCacheBackend, readHiCacheBackend } from "../backend";
import { planNfs } from "../nfs";
import {
  Decision,
  DecisionKind,
  engineContainerIndex,
  matchingCandidates,
  planHiCacheInjection,
  readCandidate,
  selects,
  skipAnnotationOptsOut,
} from "../plan";

const LIST = '{"api_version":"inferencecache.io/v1alpha1","kind":"CacheBackend","namespace":"ns"}';
const HC =
  '{"metadata":{"name":"hc","namespace":"ns","uid":"U"},"spec":{"runtime":"SGLang","type":"SGLangHiCache","engineSelector":{"matchLabels":{"app":"sglang"}},"hiCache":{"ratio":"2.0"}}}';
const DENIED =
  "Policy has not been granted access to Kubernetes inferencecache.io/v1alpha1/CacheBackend resources. The violation has been reported.";

function json(text: string): JsonValue {
  return parseJsonString(text).value as JsonValue;
}
function pod(annotations: string = "", args: string = '["--model-path","m"]'): string {
  return (
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":{"app":"sglang"}' +
    (annotations.length > 0 ? ',"annotations":{' + annotations + "}" : "") +
    '},"spec":{"containers":[{"name":"sglang","args":' +
    args +
    "}]}}"
  );
}
function payload(object: string, settings: string = "{}", operation: string = "CREATE"): Uint8Array {
  return Uint8Array.wrap(
    String.UTF8.encode(
      '{"request":{"uid":"u","operation":"' +
        operation +
        '","namespace":"ns","object":' +
        object +
        '},"settings":' +
        settings +
        "}",
    ),
  );
}
function list(items: string): string {
  return '{"apiVersion":"v1","kind":"List","items":[' + items + "]}";
}
function plan(bytes: Uint8Array, lookups: RecordedLookups): Decision {
  return planHiCacheInjection(decodeValidationPayload(bytes), lookups);
}

describe("opt-out truth table", () => {
  it("absent or empty, Go's false values and the off-words do not opt out", () => {
    const no = ["", "0", "f", "F", "FALSE", "false", "False", "no", "NO", "Off", "disable", "DISABLED", "dİsable"];
    for (let i = 0; i < no.length; i++) expect(skipAnnotationOptsOut(no[i])).toBe(false, no[i]);
  });
  it("Go's true values and every other non-empty value opt out, untrimmed", () => {
    const yes = [
      "1",
      "t",
      "T",
      "TRUE",
      "true",
      "True",
      "TrUe",
      "yes",
      "n",
      "please skip",
      "false ",
      " true",
      "nope",
      "offf",
    ];
    for (let i = 0; i < yes.length; i++) expect(skipAnnotationOptsOut(yes[i])).toBe(true, yes[i]);
  });
  it("an opt-out makes no lookup and writes the marker", () => {
    const l = new RecordedLookups();
    const d = plan(payload(pod('"inferencecache.io/skip-inject":"yes","inferencecache.io/injected-by":"ns/x"')), l);
    expect(d.kind).toBe(DecisionKind.Quiet);
    expect(l.calls.length).toBe(0);
    expect(d.plan.describe()).toBe(
      "remove-annotation inferencecache.io/injected-by\nremove-annotation inferencecache.io/injected-by-uid\nset-annotation inferencecache.io/inject-skipped=skip-inject-annotation",
    );
  });
  it("already opted out with an empty provenance value: nothing to do", () => {
    const d = plan(
      payload(
        pod(
          '"inferencecache.io/skip-inject":"true","inferencecache.io/inject-skipped":"skip-inject-annotation","inferencecache.io/injected-by":""',
        ),
      ),
      new RecordedLookups(),
    );
    expect(d.kind).toBe(DecisionKind.Quiet);
    expect(d.plan.length).toBe(0);
  });
});

describe("selection", () => {
  it("non-empty matchLabels, every pair equal", () => {
    const labels = json('{"app":"sglang","tier":"gpu"}');
    expect(selects(json('{"app":"sglang"}'), labels)).toBe(true);
    expect(selects(json('{"app":"sglang","tier":"gpu"}'), labels)).toBe(true);
    expect(selects(json('{"app":"sglang","tier":"cpu"}'), labels)).toBe(false);
    expect(selects(json('{"app":"sglang","zone":"a"}'), labels)).toBe(false);
    expect(selects(json("{}"), labels)).toBe(false);
    expect(selects(null, labels)).toBe(false);
    expect(selects(json('{"app":"sglang"}'), null)).toBe(false);
  });
  it("matches sorted by name", () => {
    const a = readCandidate(
      json('{"metadata":{"name":"b"},"spec":{"engineSelector":{"matchLabels":{"x":"1"}}}}'),
      "ns",
    );
    const b = readCandidate(
      json('{"metadata":{"name":"a"},"spec":{"engineSelector":{"matchLabels":{"x":"1"}}}}'),
      "ns",
    );
    const c = readCandidate(
      json('{"metadata":{"name":"c"},"spec":{"engineSelector":{"matchLabels":{"x":"2"}}}}'),
      "ns",
    );
    const m = matchingCandidates([a!, b!, c!], json('{"x":"1"}'));
    expect(m.length).toBe(2);
    expect(m[0].name).toBe("a");
    expect(m[1].name).toBe("b");
  });
  it("unreadable items", () => {
    expect(readCandidate(json('{"metadata":{}}'), "ns") === null).toBe(true);
    expect(
      readCandidate(json('{"metadata":{"name":"a"},"spec":{"engineSelector":{"matchLabels":{"x":1}}}}'), "ns") === null,
    ).toBe(true);
    expect(readCandidate(json('{"metadata":{"name":"a"},"spec":{"engineSelector":null}}'), "ns") !== null).toBe(true);
  });
});

describe("lookups", () => {
  it("exactly one list call with the specified payload", () => {
    const l = new RecordedLookups().succeed(list(HC));
    const d = plan(payload(pod()), l);
    expect(d.kind).toBe(DecisionKind.Inject);
    expect(l.calls.length).toBe(1);
    expect(l.calls[0].operation).toBe("list_resources_by_namespace");
    expect(l.calls[0].payload).toBe(LIST);
    expect(d.plan.describe()).toBe(
      "append-args containers[0] --enable-hierarchical-cache --hicache-ratio 2.0\nremove-annotation inferencecache.io/inject-skipped\nset-annotation inferencecache.io/injected-by=ns/hc\nset-annotation inferencecache.io/injected-by-uid=U",
    );
  });
  it("denied, failed, unreadable answer", () => {
    let d = plan(payload(pod()), new RecordedLookups().fail(DENIED));
    expect(d.reason).toBe("lookup-denied");
    expect(d.detail).toBe("listing CacheBackends in ns was denied; use settings.backends");
    d = plan(payload(pod()), new RecordedLookups().fail("boom"));
    expect(d.reason).toBe("lookup-failed");
    d = plan(payload(pod()), new RecordedLookups().succeed('{"items":{}}'));
    expect(d.reason).toBe("lookup-failed");
    d = plan(payload(pod()), new RecordedLookups().succeed('{"kind":"List"}'));
    expect(d.kind).toBe(DecisionKind.Quiet);
  });
  it("lookup false: no call, no candidates; backends replace the lookup", () => {
    const l = new RecordedLookups();
    expect(plan(payload(pod(), '{"lookup":false}'), l).kind).toBe(DecisionKind.Quiet);
    const d = plan(payload(pod(), '{"backends":[' + HC.replace('"uid":"U"', '"uid":"V"') + "]}"), l);
    expect(l.calls.length).toBe(0);
    expect(d.kind).toBe(DecisionKind.Inject);
    expect(d.plan.describe().endsWith("injected-by-uid=V")).toBe(true);
  });
});

describe("engine container", () => {
  it("first sglang, else the only one", () => {
    expect(
      engineContainerIndex(json('{"spec":{"containers":[{"name":"a"},{"name":"sglang"},{"name":"sglang"}]}}')),
    ).toBe(1);
    expect(engineContainerIndex(json('{"spec":{"containers":[{"name":"worker"}]}}'))).toBe(0);
    expect(engineContainerIndex(json('{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}'))).toBe(-1);
    expect(engineContainerIndex(json('{"spec":{"containers":[]}}'))).toBe(-1);
  });
  it("no containers: the short detail", () => {
    const d = plan(
      payload('{"metadata":{"namespace":"ns","labels":{"app":"sglang"}},"spec":{"containers":[]}}'),
      new RecordedLookups().succeed(list(HC)),
    );
    expect(d.reason).toBe("engine-container-not-found");
    expect(d.detail).toBe("pod has no containers");
  });
});

function nfsBackend(): HiCacheBackend {
  return readHiCacheBackend(
    json(
      '{"runtime":"SGLang","remoteStorage":{"provider":"NFS","ownership":"External","nfs":{"server":"s","path":"/p","mountPath":"/m"}},"hiCache":{"ratio":"2"}}',
    ),
  );
}
function nfsOf(container: string, spec: string = "{}"): string {
  const p = planNfs(json(container), json(spec), nfsBackend());
  if (!p.ok) return p.reason;
  const parts = new Array<string>(0);
  if (p.appendEnv) parts.push("env");
  if (p.appendMount) parts.push("mount");
  if (p.appendVolume) parts.push("volume");
  return parts.join(" ");
}
describe("NFS plan", () => {
  it("nothing present: all three", () => {
    expect(nfsOf('{"name":"sglang"}')).toBe("env mount volume");
  });
  it("env: equal kept (null valueFrom), a different value, valueFrom or a duplicate conflict", () => {
    expect(nfsOf('{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/m","valueFrom":null}]}')).toBe(
      "mount volume",
    );
    expect(nfsOf('{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/m/"}]}')).toBe("env-conflict");
    expect(nfsOf('{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR"}]}')).toBe("env-conflict");
    expect(
      nfsOf(
        '{"env":[{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/m"},{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/m"}]}',
      ),
    ).toBe("env-conflict");
  });
  it("volume: nfs only, same server and path, readOnly false; another name is not considered", () => {
    expect(
      nfsOf(
        "{}",
        '{"volumes":[{"name":"inferencecache-hicache-l3","nfs":{"server":"s","path":"/p","readOnly":false},"emptyDir":null,"extra":1}]}',
      ),
    ).toBe("env mount");
    expect(
      nfsOf(
        "{}",
        '{"volumes":[{"name":"inferencecache-hicache-l3","nfs":{"server":"s","path":"/p","readOnly":true}}]}',
      ),
    ).toBe("volume-conflict");
    expect(nfsOf("{}", '{"volumes":[{"name":"inferencecache-hicache-l3","nfs":{"server":"t","path":"/p"}}]}')).toBe(
      "volume-conflict",
    );
    expect(nfsOf("{}", '{"volumes":[{"name":"other","nfs":{"server":"s","path":"/p"}}]}')).toBe("env mount volume");
  });
  it("mount: by name or by path; empty subPath allowed, readOnly true or a propagation is not", () => {
    expect(
      nfsOf('{"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/m","subPath":"","readOnly":false}]}'),
    ).toBe("env volume");
    expect(nfsOf('{"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/m","readOnly":true}]}')).toBe(
      "mount-conflict",
    );
    expect(
      nfsOf('{"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/m","mountPropagation":"None"}]}'),
    ).toBe("mount-conflict");
    expect(nfsOf('{"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/m","subPath":"a"}]}')).toBe(
      "mount-conflict",
    );
    expect(nfsOf('{"volumeMounts":[{"name":"data","mountPath":"/m"}]}')).toBe("mount-conflict");
    expect(nfsOf('{"volumeMounts":[{"name":"data","mountPath":"/m2"}]}')).toBe("env mount volume");
  });
  it("mount, env, volume: found among others; a mount with both the name and the path counts once", () => {
    const twice = planNfs(
      json('{"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/m"},{"name":"data","mountPath":"/m"}]}'),
      json("{}"),
      nfsBackend(),
    );
    expect(twice.detail.endsWith('volume mount "inferencecache-hicache-l3" is duplicated')).toBe(true, twice.detail);
    expect(
      nfsOf(
        '{"volumeMounts":[{"name":"a","mountPath":"/x"},{"name":"inferencecache-hicache-l3","mountPath":"/m"},{"name":"b","mountPath":"/y"}]}',
      ),
    ).toBe("env volume");
    expect(
      nfsOf('{"env":[{"name":"A"},{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/m"},{"name":"B"}]}'),
    ).toBe("mount volume");
  });
});
