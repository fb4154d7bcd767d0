import { failure, success } from "../util/result";
import {
  classifyHostError,
  classifyHostCall,
  LookupStatus,
  RecordedLookups,
  WapcLookups,
  getResourcePayload,
  listByNamespacePayload,
  listAllPayload,
  logPayload,
  log,
  LogLevel,
  OP_GET_RESOURCE,
  OP_LIST_RESOURCES_BY_NAMESPACE,
  OP_LIST_RESOURCES_ALL,
} from "../kubewarden/host";
import { bytesToString } from "../kubewarden/response";

function bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

const DENIED_CAPABILITY =
  "Policy has not been granted access to the 'kubernetes/get_resource' host capability. The violation has been reported.";
const DENIED_KIND =
  "Policy has not been granted access to Kubernetes lmcache.lmcache.ai/v1alpha1/LMCacheEngine resources. The violation has been reported.";
const NOT_FOUND =
  "Callback evaluation failure: Cannot find v1/ConfigMap named 'cb-connection' inside of namespace 'Some(\"vllm-ns\")'";
const NOT_FOUND_CLUSTER = "Callback evaluation failure: Cannot find v1/Namespace named 'x' inside of namespace 'None'";
const UNKNOWN_KIND = "Callback evaluation failure: Cannot find resource lmcache.lmcache.ai/v1alpha1/LMCacheEngine";
const NAMESPACED = "Callback evaluation failure: Resource v1/ConfigMap is namespaced, but no namespace was provided";

describe("classifyHostError", () => {
  it("denied: capability and contextAwareResources texts", () => {
    expect(classifyHostError(OP_GET_RESOURCE, DENIED_CAPABILITY)).toBe(LookupStatus.Denied);
    expect(classifyHostError(OP_GET_RESOURCE, DENIED_KIND)).toBe(LookupStatus.Denied);
    expect(classifyHostError(OP_LIST_RESOURCES_BY_NAMESPACE, DENIED_KIND)).toBe(LookupStatus.Denied);
  });
  it("not found for get_resource with Debug-formatted namespace", () => {
    expect(classifyHostError(OP_GET_RESOURCE, NOT_FOUND)).toBe(LookupStatus.NotFound);
    expect(classifyHostError(OP_GET_RESOURCE, NOT_FOUND_CLUSTER)).toBe(LookupStatus.NotFound);
    expect(
      classifyHostError(
        OP_GET_RESOURCE,
        "Cannot find lmcache.lmcache.ai/v1alpha1/LMCacheEngine named 'missing' inside of namespace 'Some(\"vllm-ns\")'",
      ),
    ).toBe(LookupStatus.NotFound);
  });
  it("not found only for get_resource", () => {
    expect(classifyHostError(OP_LIST_RESOURCES_BY_NAMESPACE, NOT_FOUND)).toBe(LookupStatus.Failed);
    expect(classifyHostError(OP_LIST_RESOURCES_ALL, NOT_FOUND)).toBe(LookupStatus.Failed);
  });
  it("` named '` must follow `Cannot find `", () => {
    expect(classifyHostError(OP_GET_RESOURCE, "x named 'a' then Cannot find y")).toBe(LookupStatus.Failed);
  });
  it("denied wins over not found", () => {
    expect(classifyHostError(OP_GET_RESOURCE, "has not been granted access; Cannot find v1/X named 'a'")).toBe(
      LookupStatus.Denied,
    );
  });
  it("everything else fails", () => {
    expect(classifyHostError(OP_GET_RESOURCE, UNKNOWN_KIND)).toBe(LookupStatus.Failed);
    expect(classifyHostError(OP_GET_RESOURCE, NAMESPACED)).toBe(LookupStatus.Failed);
    expect(classifyHostError(OP_GET_RESOURCE, "unknown operation: get_resources")).toBe(LookupStatus.Failed);
    expect(classifyHostError(OP_GET_RESOURCE, "kube::Client was not initialized properly")).toBe(LookupStatus.Failed);
    expect(classifyHostError(OP_GET_RESOURCE, "")).toBe(LookupStatus.Failed);
  });
});

describe("classifyHostCall", () => {
  it("found: a JSON object", () => {
    const r = classifyHostCall(OP_GET_RESOURCE, success<Uint8Array>(bytes('{"kind":"ConfigMap"}')));
    expect(r.status).toBe(LookupStatus.Found);
    expect(r.found).toBe(true);
    const v = r.value;
    expect(v !== null && v.readString("kind").value == "ConfigMap").toBe(true);
  });
  it("a success that is not JSON or not an object is failed", () => {
    expect(classifyHostCall(OP_GET_RESOURCE, success<Uint8Array>(bytes("not json"))).status).toBe(LookupStatus.Failed);
    expect(classifyHostCall(OP_GET_RESOURCE, success<Uint8Array>(bytes("[]"))).status).toBe(LookupStatus.Failed);
    expect(classifyHostCall(OP_GET_RESOURCE, success<Uint8Array>(new Uint8Array(0))).status).toBe(LookupStatus.Failed);
    expect(classifyHostCall(OP_GET_RESOURCE, success<Uint8Array>(bytes("null"))).value === null).toBe(true);
  });
  it("errors keep the host text", () => {
    const r = classifyHostCall(OP_GET_RESOURCE, failure<Uint8Array>(new Uint8Array(0), NOT_FOUND));
    expect(r.notFound).toBe(true);
    expect(r.error).toBe(NOT_FOUND);
  });
});

describe("lookup payload bytes (fixed key order)", () => {
  it("get_resource", () => {
    expect(bytesToString(getResourcePayload("v1", "ConfigMap", "cb-connection", "vllm-ns", false))).toBe(
      '{"api_version":"v1","kind":"ConfigMap","name":"cb-connection","namespace":"vllm-ns","disable_cache":false}',
    );
  });
  it("get_resource cluster-scoped sends namespace null; disable_cache true", () => {
    expect(bytesToString(getResourcePayload("v1", "Namespace", "ns", "", true))).toBe(
      '{"api_version":"v1","kind":"Namespace","name":"ns","namespace":null,"disable_cache":true}',
    );
  });
  it("list_resources_by_namespace without selectors", () => {
    expect(bytesToString(listByNamespacePayload("inferencecache.io/v1alpha1", "CacheBackend", "team-a", "", ""))).toBe(
      '{"api_version":"inferencecache.io/v1alpha1","kind":"CacheBackend","namespace":"team-a"}',
    );
  });
  it("list_resources_by_namespace with selectors", () => {
    expect(bytesToString(listByNamespacePayload("v1", "Pod", "ns", "app=a", "status.phase=Running"))).toBe(
      '{"api_version":"v1","kind":"Pod","namespace":"ns","label_selector":"app=a","field_selector":"status.phase=Running"}',
    );
    expect(bytesToString(listByNamespacePayload("v1", "Pod", "ns", "", "f=1"))).toBe(
      '{"api_version":"v1","kind":"Pod","namespace":"ns","field_selector":"f=1"}',
    );
  });
  it("list_resources_all", () => {
    expect(bytesToString(listAllPayload("v1", "Namespace", "", ""))).toBe('{"api_version":"v1","kind":"Namespace"}');
    expect(bytesToString(listAllPayload("v1", "Namespace", 'a="b"', ""))).toBe(
      '{"api_version":"v1","kind":"Namespace","label_selector":"a=\\"b\\""}',
    );
  });
  it("log", () => {
    expect(bytesToString(logPayload(LogLevel.Debug, 'hello "x"'))).toBe('{"level":"debug","message":"hello \\"x\\""}');
    expect(bytesToString(logPayload(LogLevel.Warning, ""))).toBe('{"level":"warning","message":""}');
    log(LogLevel.Info, "ignored when the host refuses");
  });
});

describe("RecordedLookups", () => {
  it("records operations and payloads, answers in order", () => {
    const lookups = new RecordedLookups().succeed('{"kind":"LMCacheEngine","spec":{}}').fail(NOT_FOUND);
    const engine = lookups.getResource("lmcache.lmcache.ai/v1alpha1", "LMCacheEngine", "cb", "vllm-ns", false);
    expect(engine.status).toBe(LookupStatus.Found);
    const cm = lookups.getResource("v1", "ConfigMap", "cb-connection", "vllm-ns", false);
    expect(cm.status).toBe(LookupStatus.NotFound);
    expect(lookups.calls.length).toBe(2);
    expect(lookups.calls[0].operation).toBe("get_resource");
    expect(lookups.calls[0].payload).toBe(
      '{"api_version":"lmcache.lmcache.ai/v1alpha1","kind":"LMCacheEngine","name":"cb","namespace":"vllm-ns","disable_cache":false}',
    );
    expect(lookups.calls[1].payload).toBe(
      '{"api_version":"v1","kind":"ConfigMap","name":"cb-connection","namespace":"vllm-ns","disable_cache":false}',
    );
    expect(lookups.remaining).toBe(0);
  });
  it("list operations use their own names", () => {
    const lookups = new RecordedLookups().succeed('{"items":[]}').succeed('{"items":[]}');
    expect(lookups.listResourcesByNamespace("inferencecache.io/v1alpha1", "CacheBackend", "ns", "", "").found).toBe(
      true,
    );
    expect(lookups.listResourcesAll("v1", "Namespace", "", "").found).toBe(true);
    expect(lookups.calls[0].operation).toBe("list_resources_by_namespace");
    expect(lookups.calls[1].operation).toBe("list_resources_all");
  });
  it("denied list", () => {
    const lookups = new RecordedLookups().fail(DENIED_KIND);
    expect(lookups.listResourcesByNamespace("inferencecache.io/v1alpha1", "CacheBackend", "ns", "", "").denied).toBe(
      true,
    );
  });
  it("a not-found text on a list is failed", () => {
    const lookups = new RecordedLookups().fail(NOT_FOUND);
    expect(lookups.listResourcesByNamespace("v1", "ConfigMap", "ns", "", "").failed).toBe(true);
  });
  it("a mismatched expected request or an exhausted queue fails the lookup", () => {
    const lookups = new RecordedLookups().succeed("{}", "get_resource", '{"api_version":"v1"}');
    const r = lookups.getResource("v1", "ConfigMap", "x", "ns", false);
    expect(r.failed).toBe(true);
    expect(r.error.startsWith("Replay error: unexpected request")).toBe(true);
    expect(lookups.getResource("v1", "ConfigMap", "x", "ns", false).failed).toBe(true);
  });
  it("a matching expected request is answered", () => {
    const expected = '{"api_version":"v1","kind":"ConfigMap","name":"x","namespace":"ns","disable_cache":false}';
    const lookups = new RecordedLookups().succeed('{"data":{}}', "get_resource", expected);
    expect(lookups.getResource("v1", "ConfigMap", "x", "ns", false).found).toBe(true);
  });
  it("an unreadable success is failed", () => {
    const lookups = new RecordedLookups().succeed("[1,2]");
    expect(lookups.getResource("v1", "ConfigMap", "x", "ns", false).failed).toBe(true);
  });
});

describe("WapcLookups", () => {
  it("a host refusal (stub returns 0 with no text) is a failed lookup, not a trap", () => {
    const r = new WapcLookups().getResource("v1", "ConfigMap", "x", "ns", false);
    expect(r.status).toBe(LookupStatus.Failed);
    expect(r.value === null).toBe(true);
  });
});
