// The CacheBlend-specific planning (docs/policies/cacheblend-injector.md#steps): the engine
// reference with its bounds, the inline-key order, the required CacheBlendEngine read before the
// ConfigMap, payload-image-unset, the cudagraph rule and the planned flag edits, with recorded
// lookups (the exact lookups made are checked too).
import { decodeValidationPayload, RecordedLookups } from "../../../../assembly/kubewarden/index";
import { parseCacheBlendReference } from "../../../../assembly/lmcache/index";
import { CudagraphAction, cudagraphAction, Decision, DecisionKind, planCacheblendInjection } from "../plan";

function lookup(kind: string, name: string, ns: string): string {
  const api = kind == "ConfigMap" ? "v1" : "lmcache.lmcache.ai/v1alpha1";
  return (
    '{"api_version":"' +
    api +
    '","kind":"' +
    kind +
    '","name":"' +
    name +
    '","namespace":"' +
    ns +
    '","disable_cache":false}'
  );
}
const CR = lookup("CacheBlendEngine", "cb", "vllm-ns");
const CM = lookup("ConfigMap", "cb-connection", "vllm-ns");
const STAGING_CR = '{"spec":{"injection":{"payloadImage":{"repository":"reg/cb-payload","tag":"pinned"}}}}';
const CM_OK = '{"kind":"ConfigMap","data":{"kv-transfer-config.json":"{\\"kv_connector\\":\\"CBKVConnector\\"}"}}';
const NOT_FOUND =
  "Callback evaluation failure: Cannot find lmcache.lmcache.ai/v1alpha1/CacheBlendEngine named 'cb' inside of namespace 'Some(\"vllm-ns\")'";

function pod(annotations: string, args: string = '["--model","m"]'): string {
  return (
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-pod","namespace":"vllm-ns","annotations":{' +
    annotations +
    '}},"spec":{"containers":[{"name":"vllm","args":' +
    args +
    "}]}}"
  );
}
function engine(ref: string): string {
  return '"lmcache.ai/cacheblend-engine":"' + ref + '"';
}
function payload(object: string, settings: string = "{}"): Uint8Array {
  const text =
    '{"request":{"uid":"u","kind":{"group":"","version":"v1","kind":"Pod"},"operation":"CREATE","namespace":"vllm-ns","userInfo":{},"object":' +
    object +
    '},"settings":' +
    settings +
    "}";
  return Uint8Array.wrap(String.UTF8.encode(text));
}
function plan(bytes: Uint8Array, lookups: RecordedLookups): Decision {
  return planCacheblendInjection(decodeValidationPayload(bytes), lookups);
}
function standard(cr: string = STAGING_CR): RecordedLookups {
  return new RecordedLookups().succeed(cr, "get_resource", CR).succeed(CM_OK, "get_resource", CM);
}
function expectSkip(d: Decision, reason: string, detail: string): void {
  expect(d.kind).toBe(DecisionKind.Skip);
  expect(d.reason).toBe(reason);
  expect(d.detail).toBe(detail);
  expect(d.plan.length).toBe(0);
}
function repeat(s: string, n: i32): string {
  let out = "";
  for (let i = 0; i < n; i++) out += s;
  return out;
}

describe("step 7: the engine reference", () => {
  it("<name> is in the pod's namespace; <ns>/<name> names another, both parts trimmed", () => {
    const bare = parseCacheBlendReference("cb", "vllm-ns");
    expect(bare !== null && bare.namespace == "vllm-ns" && bare.name == "cb").toBe(true);
    const qualified = parseCacheBlendReference("other-ns / cb", "vllm-ns");
    expect(qualified !== null && qualified.namespace == "other-ns" && qualified.name == "cb").toBe(true);
  });
  it("an empty part, a second slash or upper case is invalid", () => {
    expect(parseCacheBlendReference("/cb", "vllm-ns") === null).toBe(true);
    expect(parseCacheBlendReference("other-ns/", "vllm-ns") === null).toBe(true);
    expect(parseCacheBlendReference("a/b/c", "vllm-ns") === null).toBe(true);
    expect(parseCacheBlendReference("CB", "vllm-ns") === null).toBe(true);
    expect(parseCacheBlendReference("Other/cb", "vllm-ns") === null).toBe(true);
  });
  it("the namespace is a DNS-1123 label: 63 characters pass, 64 do not", () => {
    expect(parseCacheBlendReference(repeat("n", 63) + "/cb", "vllm-ns") !== null).toBe(true);
    expect(parseCacheBlendReference(repeat("n", 64) + "/cb", "vllm-ns") === null).toBe(true);
    // a dot makes it a subdomain, not a label
    expect(parseCacheBlendReference("a.b/cb", "vllm-ns") === null).toBe(true);
  });
  it("the name is a DNS-1123 subdomain: 253 characters pass, 254 do not; dots are fine", () => {
    expect(parseCacheBlendReference("ns/" + repeat("c", 253), "vllm-ns") !== null).toBe(true);
    expect(parseCacheBlendReference("ns/" + repeat("c", 254), "vllm-ns") === null).toBe(true);
    expect(parseCacheBlendReference("ns/cb.blend", "vllm-ns") !== null).toBe(true);
  });
  it("an invalid reference skips without a lookup, quoting the raw annotation", () => {
    const l = new RecordedLookups();
    expectSkip(
      plan(payload(pod(engine(" a/b/c "))), l),
      "invalid-engine-reference",
      '" a/b/c " is not a valid engine reference',
    );
    expect(l.calls.length).toBe(0);
  });
});

describe("steps 8–10: engine source and lookups", () => {
  it("the CacheBlendEngine is read before the ConfigMap, both from the engine's namespace", () => {
    const l = new RecordedLookups().succeed(STAGING_CR).succeed(CM_OK);
    expect(plan(payload(pod(engine("other-ns/cb"))), l).kind).toBe(DecisionKind.Wire);
    expect(l.calls.length).toBe(2);
    expect(l.calls[0].payload).toBe(lookup("CacheBlendEngine", "cb", "other-ns"));
    expect(l.calls[1].payload).toBe(lookup("ConfigMap", "cb-connection", "other-ns"));
  });
  it("a missing CacheBlendEngine is engine-not-found and the ConfigMap is not read", () => {
    const l = new RecordedLookups().fail(NOT_FOUND);
    expectSkip(plan(payload(pod(engine("cb"))), l), "engine-not-found", "CacheBlendEngine vllm-ns/cb not found");
    expect(l.calls.length).toBe(1);
  });
  it("inline: <ns>/<name> first, then <name> for the pod's own namespace only", () => {
    const both =
      '{"lookup":false,"engines":{"cb":{"kvTransferConfig":{"k":"bare"},"injection":{"payloadImage":{"repository":"r"}}},' +
      '"vllm-ns/cb":{"kvTransferConfig":{"k":"qualified"},"injection":{"payloadImage":{"repository":"r"}}}}}';
    const l = new RecordedLookups();
    const d = plan(payload(pod(engine("cb")), both), l);
    expect(l.calls.length).toBe(0);
    expect(d.plan.describe().includes('apply-arg containers[0] --kv-transfer-config {"k":"qualified"}')).toBe(true);

    const bareOnly =
      '{"lookup":false,"engines":{"cb":{"kvTransferConfig":{"k":"bare"},"injection":{"payloadImage":{"repository":"r"}}}}}';
    const own = plan(payload(pod(engine("vllm-ns/cb")), bareOnly), new RecordedLookups());
    expect(own.plan.describe().includes('apply-arg containers[0] --kv-transfer-config {"k":"bare"}')).toBe(true);
    expectSkip(
      plan(payload(pod(engine("other-ns/cb")), bareOnly), new RecordedLookups()),
      "engine-not-found",
      "engine other-ns/cb is not in settings.engines and lookups are disabled",
    );
  });
});

describe("step 14: a payload image is required", () => {
  it("no injection, no payloadImage, or a blank repository: payload-image-unset", () => {
    const unset = "CacheBlendEngine vllm-ns/cb has no injection.payloadImage.repository";
    expectSkip(plan(payload(pod(engine("cb"))), standard('{"spec":{}}')), "payload-image-unset", unset);
    expectSkip(
      plan(payload(pod(engine("cb"))), standard('{"spec":{"injection":{"targetContainer":"vllm"}}}')),
      "payload-image-unset",
      unset,
    );
    expectSkip(
      plan(payload(pod(engine("cb"))), standard('{"spec":{"injection":{"payloadImage":{"repository":" "}}}}')),
      "payload-image-unset",
      unset,
    );
  });
  it("a one-character repository is enough", () => {
    const d = plan(payload(pod(engine("cb"))), standard('{"spec":{"injection":{"payloadImage":{"repository":"r"}}}}'));
    expect(d.kind).toBe(DecisionKind.Wire);
  });
  it("the ImageSpec default is payload-image-invalid", () => {
    expectSkip(
      plan(
        payload(pod(engine("cb"))),
        standard('{"spec":{"injection":{"payloadImage":{"repository":"lmcache/vllm-openai"}}}}'),
      ),
      "payload-image-invalid",
      "payloadImage.repository is the ImageSpec default lmcache/vllm-openai",
    );
  });
});

describe("cudagraph", () => {
  it("only the exact piecewise and full_decode_only change the action", () => {
    expect(cudagraphAction("eager")).toBe(CudagraphAction.EnforceEager);
    expect(cudagraphAction("")).toBe(CudagraphAction.EnforceEager);
    expect(cudagraphAction("full")).toBe(CudagraphAction.EnforceEager);
    expect(cudagraphAction("Piecewise")).toBe(CudagraphAction.EnforceEager);
    expect(cudagraphAction("piecewise")).toBe(CudagraphAction.Nothing);
    expect(cudagraphAction("full_decode_only")).toBe(CudagraphAction.FullDecodeOnly);
    expect(cudagraphAction("full_decode_only ")).toBe(CudagraphAction.EnforceEager);
  });
});

describe("step 17: the planned wiring", () => {
  it("hostIPC, staging, the flag set in order, secrets, stamps; no PYTHONHASHSEED", () => {
    const d = plan(payload(pod(engine("cb"))), standard());
    expect(d.kind).toBe(DecisionKind.Wire);
    expect(d.userHasKV).toBe(false);
    expect(d.container).toBe("vllm");
    expect(d.plan.describe()).toBe(
      [
        "set spec.hostIPC true",
        'append-if-absent spec.volumes {"name":"cb-plugin","emptyDir":{}}',
        'append-if-absent spec.initContainers {"name":"cb-plugin-stage","image":"reg/cb-payload:pinned","env":[{"name":"SHARED_DIR","value":"/cb-plugin"}],"volumeMounts":[{"name":"cb-plugin","mountPath":"/cb-plugin"}],"imagePullPolicy":"IfNotPresent"}',
        'append-if-absent containers[0].volumeMounts {"name":"cb-plugin","mountPath":"/cb-plugin","readOnly":true}',
        "env-prepend-path containers[0] PYTHONPATH /cb-plugin",
        "apply-arg containers[0] --attention-backend CUSTOM",
        'apply-arg containers[0] --kv-transfer-config {"kv_connector":"CBKVConnector"}',
        "apply-bare-flag containers[0] --no-enable-chunked-prefill",
        "apply-arg containers[0] --block-size 64",
        "apply-arg containers[0] --pipeline-parallel-size 1",
        "apply-bare-flag containers[0] --no-async-scheduling",
        "apply-bare-flag containers[0] --enforce-eager",
        "merge-pull-secrets ",
        "set-annotation lmcache.ai/cacheblend-injected=true",
        "remove-annotation lmcache.ai/cacheblend-skip-reason",
      ].join("\n"),
    );
  });
  it("user kv config (either form): no kv edit, kv-transfer-config-present", () => {
    const d = plan(payload(pod(engine("cb"), '["--kv-transfer-config={}"]')), standard());
    expect(d.userHasKV).toBe(true);
    const text = d.plan.describe();
    expect(text.includes("--kv-transfer-config")).toBe(false);
    expect(text.includes("set-annotation lmcache.ai/cacheblend-skip-reason=kv-transfer-config-present")).toBe(true);
    // a look-alike flag is not the user's kv config
    expect(plan(payload(pod(engine("cb"), '["--kv-transfer-configs"]')), standard()).userHasKV).toBe(false);
  });
  it("piecewise plans nothing for cudagraph; full_decode_only plans --compilation-config", () => {
    const piecewise = plan(
      payload(pod(engine("cb"))),
      standard('{"spec":{"injection":{"payloadImage":{"repository":"r"},"cudagraph":"piecewise"}}}'),
    ).plan.describe();
    expect(piecewise.includes("--enforce-eager")).toBe(false);
    expect(piecewise.includes("--compilation-config")).toBe(false);
    const full = plan(
      payload(pod(engine("cb"))),
      standard('{"spec":{"injection":{"payloadImage":{"repository":"r"},"cudagraph":"full_decode_only"}}}'),
    ).plan.describe();
    expect(full.includes("--enforce-eager")).toBe(false);
    expect(full.includes('apply-arg containers[0] --compilation-config {"cudagraph_mode":"FULL_DECODE_ONLY"}')).toBe(
      true,
    );
  });
});
