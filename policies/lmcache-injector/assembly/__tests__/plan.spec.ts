// The planner row by row (docs/policies/lmcache-injector.md#steps) with recorded lookups:
// decisions, reasons, details, the exact lookups made and, for wiring, the planned edits.
import { decodeValidationPayload, RecordedLookups } from "../../../../assembly/kubewarden/index";
import { Decision, DecisionKind, planLmcacheInjection } from "../plan";

const ENGINE =
  '{"api_version":"lmcache.lmcache.ai/v1alpha1","kind":"LMCacheEngine","name":"cb","namespace":"vllm-ns","disable_cache":false}';
const CM = '{"api_version":"v1","kind":"ConfigMap","name":"cb-connection","namespace":"vllm-ns","disable_cache":false}';
const KV = '{\\n  \\"kv_connector\\": \\"LMCacheMPConnector\\"\\n}';
const CM_OK = '{"kind":"ConfigMap","data":{"kv-transfer-config.json":"' + KV + '"}}';
const NOT_FOUND_CR =
  "Callback evaluation failure: Cannot find lmcache.lmcache.ai/v1alpha1/LMCacheEngine named 'cb' inside of namespace 'Some(\"vllm-ns\")'";
const NOT_FOUND_CM =
  "Callback evaluation failure: Cannot find v1/ConfigMap named 'cb-connection' inside of namespace 'Some(\"vllm-ns\")'";
const DENIED =
  "Policy has not been granted access to Kubernetes lmcache.lmcache.ai/v1alpha1/LMCacheEngine resources. The violation has been reported.";
const STAGING_CR =
  '{"spec":{"injection":{"payloadImage":{"repository":"reg/p","tag":"pinned"},"imagePullSecrets":[{"name":"pull"}]}}}';

const BASE_ANN = '"lmcache.ai/lmcache-engine":"cb"';
const BASE_CONTAINERS = '[{"name":"vllm","image":"vllm/vllm-openai:latest","args":["--model","m"]}]';

function pod(annotations: string, containers: string, extraSpec: string = ""): string {
  return (
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-pod","namespace":"vllm-ns","annotations":{' +
    annotations +
    '}},"spec":{' +
    extraSpec +
    '"containers":' +
    containers +
    "}}"
  );
}
function payload(
  object: string,
  settings: string = "{}",
  operation: string = "CREATE",
  namespace: string = '"namespace":"vllm-ns",',
): Uint8Array {
  const text =
    '{"request":{"uid":"u","kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},"operation":"' +
    operation +
    '",' +
    namespace +
    '"userInfo":{},"object":' +
    object +
    '},"settings":' +
    settings +
    "}";
  return Uint8Array.wrap(String.UTF8.encode(text));
}
function plan(bytes: Uint8Array, lookups: RecordedLookups): Decision {
  return planLmcacheInjection(decodeValidationPayload(bytes), lookups);
}
function standard(): RecordedLookups {
  return new RecordedLookups().succeed('{"spec":{}}', "get_resource", ENGINE).succeed(CM_OK, "get_resource", CM);
}
function expectSkip(d: Decision, reason: string, detail: string): void {
  expect(d.kind).toBe(DecisionKind.Skip);
  expect(d.reason).toBe(reason);
  expect(d.detail).toBe(detail);
  expect(d.plan.length).toBe(0);
}

describe("rows 1–6: gate", () => {
  it("1: payload not JSON / no request → invalid-request", () => {
    const d = plan(Uint8Array.wrap(String.UTF8.encode("{not json")), new RecordedLookups());
    expect(d.reason).toBe("invalid-request");
    expect(d.detail.startsWith("request could not be read: payload is not valid JSON")).toBe(true);
    expect(plan(Uint8Array.wrap(String.UTF8.encode('{"settings":{}}')), new RecordedLookups()).detail).toBe(
      "request could not be read: payload has no request",
    );
  });
  it("2: UPDATE and DELETE pass", () => {
    expect(plan(payload(pod(BASE_ANN, BASE_CONTAINERS), "{}", "UPDATE"), new RecordedLookups()).kind).toBe(
      DecisionKind.Pass,
    );
    expect(plan(payload("null", "{}", "DELETE"), new RecordedLookups()).kind).toBe(DecisionKind.Pass);
  });
  it("3: not stampable objects", () => {
    expectSkip(
      plan(payload('"x"'), new RecordedLookups()),
      "invalid-request",
      "request could not be read: object is not a JSON object",
    );
    expectSkip(
      plan(payload('{"metadata":[]}'), new RecordedLookups()),
      "invalid-request",
      "request could not be read: metadata is not an object",
    );
    expectSkip(
      plan(payload('{"metadata":{"annotations":"a=b"}}'), new RecordedLookups()),
      "invalid-request",
      "request could not be read: metadata.annotations is not an object",
    );
  });
  it('4: injected "true" passes, "True" does not', () => {
    const l = new RecordedLookups();
    expect(
      plan(
        payload(
          pod(
            BASE_ANN + ',"lmcache.ai/lmcache-injected":"true","lmcache.ai/lmcache-skip-reason":"engine-not-found"',
            BASE_CONTAINERS,
          ),
        ),
        l,
      ).kind,
    ).toBe(DecisionKind.Pass);
    expect(l.calls.length).toBe(0);
    expect(
      plan(payload(pod(BASE_ANN + ',"lmcache.ai/lmcache-injected":"True"', BASE_CONTAINERS)), standard()).kind,
    ).toBe(DecisionKind.Wire);
  });
  it("5: no or blank engine annotation passes", () => {
    expect(plan(payload(pod("", BASE_CONTAINERS)), new RecordedLookups()).kind).toBe(DecisionKind.Pass);
    expect(plan(payload(pod('"lmcache.ai/lmcache-engine":" \\t "', BASE_CONTAINERS)), new RecordedLookups()).kind).toBe(
      DecisionKind.Pass,
    );
  });
  it("6: namespace from the request, else the pod, else invalid-request", () => {
    expect(plan(payload(pod(BASE_ANN, BASE_CONTAINERS), "{}", "CREATE", ""), standard()).kind).toBe(DecisionKind.Wire);
    const noNs = '{"metadata":{"annotations":{' + BASE_ANN + '}},"spec":{"containers":' + BASE_CONTAINERS + "}}";
    expectSkip(
      plan(payload(noNs, "{}", "CREATE", ""), new RecordedLookups()),
      "invalid-request",
      "request could not be read: namespace is missing",
    );
  });
});

describe("rows 7–11: engine", () => {
  it("7: not a DNS-1123 subdomain, no lookup", () => {
    const l = new RecordedLookups();
    expectSkip(
      plan(payload(pod('"lmcache.ai/lmcache-engine":"vllm-ns/cb"', BASE_CONTAINERS)), l),
      "invalid-engine-reference",
      '"vllm-ns/cb" is not a valid engine reference',
    );
    expectSkip(
      plan(payload(pod('"lmcache.ai/lmcache-engine":"CB"', BASE_CONTAINERS)), l),
      "invalid-engine-reference",
      '"CB" is not a valid engine reference',
    );
    expect(l.calls.length).toBe(0);
  });
  it("8: inline engine, no lookup, settings text verbatim", () => {
    const l = new RecordedLookups();
    const d = plan(
      payload(
        pod(BASE_ANN, BASE_CONTAINERS),
        '{"lookup":false,"engines":{"cb":{"kvTransferConfig":{"kv_connector": "X"}}}}',
      ),
      l,
    );
    expect(d.kind).toBe(DecisionKind.Wire);
    expect(l.calls.length).toBe(0);
    expect(d.plan.describe().includes('append-args containers[0] --kv-transfer-config {"kv_connector": "X"}')).toBe(
      true,
    );
  });
  it("8: lookups off and not inline → engine-not-found", () => {
    const l = new RecordedLookups();
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS), '{"lookup":false,"engines":{"other":{"kvTransferConfig":{}}}}'), l),
      "engine-not-found",
      "engine cb is not in settings.engines and lookups are disabled",
    );
    expect(l.calls.length).toBe(0);
  });
  it("9: engine CR first, then the ConfigMap, with the exact payloads", () => {
    const l = standard();
    expect(plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), l).kind).toBe(DecisionKind.Wire);
    expect(l.calls.length).toBe(2);
    expect(l.calls[0].payload).toBe(ENGINE);
    expect(l.calls[1].payload).toBe(CM);
    expect(l.remaining).toBe(0);
  });
  it("9: CR not found → connection-only; denied and failed skip before the ConfigMap", () => {
    const nf = plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().fail(NOT_FOUND_CR).succeed(CM_OK));
    expect(nf.kind).toBe(DecisionKind.Wire);
    const denied = new RecordedLookups().fail(DENIED);
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), denied),
      "lookup-denied",
      "lookup of LMCacheEngine vllm-ns/cb was denied; use settings.engines",
    );
    expect(denied.calls.length).toBe(1);
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().fail("boom")),
      "lookup-failed",
      "lookup of LMCacheEngine vllm-ns/cb failed",
    );
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().succeed("[]")),
      "lookup-failed",
      "lookup of LMCacheEngine vllm-ns/cb failed",
    );
  });
  it("10: ConfigMap not found / failed", () => {
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().succeed("{}").fail(NOT_FOUND_CM)),
      "engine-not-found",
      "ConfigMap vllm-ns/cb-connection not found",
    );
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().succeed("{}").fail("boom")),
      "lookup-failed",
      "lookup of ConfigMap vllm-ns/cb-connection failed",
    );
  });
  it("11: missing and invalid connection values", () => {
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().succeed("{}").succeed('{"data":{}}')),
      "connection-config-missing",
      "ConfigMap vllm-ns/cb-connection has no kv-transfer-config.json value",
    );
    expectSkip(
      plan(
        payload(pod(BASE_ANN, BASE_CONTAINERS)),
        new RecordedLookups().succeed("{}").succeed('{"data":{"kv-transfer-config.json":"[1,2]"}}'),
      ),
      "invalid-connection-config",
      "kv-transfer-config.json of vllm-ns/cb-connection is not a JSON object",
    );
  });
});

describe("rows 12–16: pod", () => {
  it("12: target container", () => {
    expectSkip(plan(payload(pod(BASE_ANN, "[]")), standard()), "target-container-not-found", "pod has no containers");
    expectSkip(
      plan(payload(pod(BASE_ANN + ',"lmcache.ai/lmcache-container":"does-not-exist"', BASE_CONTAINERS)), standard()),
      "target-container-not-found",
      'no container named "does-not-exist"',
    );
    expectSkip(
      plan(payload(pod(BASE_ANN, "{}")), standard()),
      "invalid-request",
      "request could not be read: spec.containers is not an array",
    );
  });
  it("13: command", () => {
    expectSkip(
      plan(payload(pod(BASE_ANN, '[{"name":"vllm","command":["vllm","serve"]}]')), standard()),
      "command-override",
      'container "vllm" sets command; only args can be extended',
    );
    expect(plan(payload(pod(BASE_ANN, '[{"name":"vllm","command":[]}]')), standard()).kind).toBe(DecisionKind.Wire);
    expectSkip(
      plan(payload(pod(BASE_ANN, '[{"name":"vllm","command":"vllm"}]')), standard()),
      "invalid-request",
      "request could not be read: spec.containers[0].command is not an array",
    );
  });
  it("14: payload image", () => {
    const footgun = '{"spec":{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai","tag":"latest"}}}}';
    expectSkip(
      plan(payload(pod(BASE_ANN, BASE_CONTAINERS)), new RecordedLookups().succeed(footgun).succeed(CM_OK)),
      "payload-image-invalid",
      "payloadImage.repository is the ImageSpec default lmcache/vllm-openai",
    );
  });
  it("15: pull-secret override only matters when staging", () => {
    const ann = BASE_ANN + ',"lmcache.ai/lmcache-image-pull-secrets":"good, Bad_Name"';
    expectSkip(
      plan(payload(pod(ann, BASE_CONTAINERS)), new RecordedLookups().succeed(STAGING_CR).succeed(CM_OK)),
      "invalid-image-pull-secrets",
      '"Bad_Name" is not a valid Secret name',
    );
    expect(plan(payload(pod(ann, BASE_CONTAINERS)), standard()).kind).toBe(DecisionKind.Wire);
  });
  it("16: wrong types of fields the commit touches", () => {
    expectSkip(
      plan(payload(pod(BASE_ANN, '[{"name":"vllm","args":["--port",8000]}]')), standard()),
      "invalid-request",
      "request could not be read: spec.containers[0].args[1] is not a string",
    );
    expectSkip(
      plan(payload(pod(BASE_ANN, '[{"name":"vllm","env":[{"value":"1"}]}]')), standard()),
      "invalid-request",
      "request could not be read: spec.containers[0].env[0].name is not a string",
    );
    expectSkip(
      plan(
        payload(pod(BASE_ANN, BASE_CONTAINERS, '"volumes":{},')),
        new RecordedLookups().succeed(STAGING_CR).succeed(CM_OK),
      ),
      "invalid-request",
      "request could not be read: spec.volumes is not an array",
    );
    // not staging: spec.volumes is not read
    expect(plan(payload(pod(BASE_ANN, BASE_CONTAINERS, '"volumes":{},')), standard()).kind).toBe(DecisionKind.Wire);
  });
  it("row order: command-override before a type error in args", () => {
    expect(plan(payload(pod(BASE_ANN, '[{"name":"vllm","command":["x"],"args":[1]}]')), standard()).reason).toBe(
      "command-override",
    );
  });
});

describe("row 17: the planned wiring", () => {
  it("connection-only", () => {
    const d = plan(
      payload(pod(BASE_ANN + ',"lmcache.ai/lmcache-skip-reason":"engine-not-found"', BASE_CONTAINERS)),
      standard(),
    );
    expect(d.kind).toBe(DecisionKind.Wire);
    expect(d.userHasKV).toBe(false);
    expect(d.container).toBe("vllm");
    expect(d.plan.describe()).toBe(
      [
        "set spec.hostIPC true",
        'append-args containers[0] --kv-transfer-config {\n  "kv_connector": "LMCacheMPConnector"\n}',
        "env-set-if-absent containers[0] PYTHONHASHSEED=0",
        "set-annotation lmcache.ai/lmcache-injected=true",
        "remove-annotation lmcache.ai/lmcache-skip-reason",
      ].join("\n"),
    );
  });
  it("user --kv-transfer-config= with staging into the second container", () => {
    const ann = BASE_ANN + ',"lmcache.ai/lmcache-container":"vllm","lmcache.ai/lmcache-image-pull-secrets":"a, a, b"';
    const containers = '[{"name":"sidecar"},{"name":"vllm","args":["--kv-transfer-config="]}]';
    const d = plan(payload(pod(ann, containers)), new RecordedLookups().succeed(STAGING_CR).succeed(CM_OK));
    expect(d.kind).toBe(DecisionKind.Wire);
    expect(d.userHasKV).toBe(true);
    expect(d.plan.describe()).toBe(
      [
        "set spec.hostIPC true",
        "env-set-if-absent containers[1] PYTHONHASHSEED=0",
        'append-if-absent spec.volumes {"name":"lmcache-payload","emptyDir":{}}',
        'append-if-absent spec.initContainers {"name":"lmcache-payload-stage","image":"reg/p:pinned","env":[{"name":"SHARED_DIR","value":"/lmcache-payload"}],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload"}],"imagePullPolicy":"IfNotPresent"}',
        'append-if-absent containers[1].volumeMounts {"name":"lmcache-payload","mountPath":"/lmcache-payload","readOnly":true}',
        "env-prepend-path containers[1] PYTHONPATH /lmcache-payload",
        "merge-pull-secrets a,a,b",
        "set-annotation lmcache.ai/lmcache-injected=true",
        "set-annotation lmcache.ai/lmcache-skip-reason=kv-transfer-config-present",
      ].join("\n"),
    );
  });
});
