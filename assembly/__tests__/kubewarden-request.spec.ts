import { JsonValue, parseJsonString } from "../json/index";
import { decodeValidationPayload, ValidationRequest } from "../kubewarden/request";

function payload(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

function decodeOk(text: string): ValidationRequest {
  const d = decodeValidationPayload(payload(text));
  const r = d.request;
  if (r === null) {
    const dummy = parseJsonString("{}").value;
    return new ValidationRequest(dummy !== null ? dummy : JsonValue.object(), JsonValue.object());
  }
  return r;
}

const FULL =
  '{"settings":{"lookup":false},"request":{"uid":"u-1","kind":{"group":"","version":"v1","kind":"Pod"},' +
  '"resource":{"group":"","version":"v1","resource":"pods"},"subResource":"status","operation":"CREATE",' +
  '"userInfo":{"username":"alice"},"name":"p","namespace":"ns","dryRun":true,' +
  '"object":{"metadata":{"namespace":"objns"}},"oldObject":{"a":1}}}';

describe("decodeValidationPayload", () => {
  it("reads every field of the camelCase request", () => {
    const d = decodeValidationPayload(payload(FULL));
    expect(d.ok).toBe(true);
    expect(d.error).toBe("");
    const r = decodeOk(FULL);
    expect(r.uid).toBe("u-1");
    expect(r.operation).toBe("CREATE");
    expect(r.namespace).toBe("ns");
    expect(r.name).toBe("p");
    expect(r.kind.group).toBe("");
    expect(r.kind.version).toBe("v1");
    expect(r.kind.kind).toBe("Pod");
    expect(r.resource.resource).toBe("pods");
    expect(r.subResource).toBe("status");
    expect(r.dryRun).toBe(true);
    expect(r.object !== null).toBe(true);
    expect(r.oldObject !== null).toBe(true);
    expect(r.settings.toString()).toBe('{"lookup":false}');
    expect(r.request.readString("uid").value).toBe("u-1");
    expect(r.namespaceOrObjectNamespace()).toBe("ns");
  });

  it("DELETE has no object; optionals default", () => {
    const r = decodeOk('{"request":{"uid":"x","operation":"DELETE","kind":{"group":"","version":"v1","kind":"Pod"}}}');
    expect(r.object === null).toBe(true);
    expect(r.oldObject === null).toBe(true);
    expect(r.namespace).toBe("");
    expect(r.dryRun).toBe(false);
    expect(r.subResource).toBe("");
    expect(r.settings.isObject()).toBe(true);
    expect(r.settings.size()).toBe(0);
  });

  it("object: null counts as absent; settings: null becomes {}", () => {
    const r = decodeOk('{"request":{"object":null},"settings":null}');
    expect(r.object === null).toBe(true);
    expect(r.settings.isObject()).toBe(true);
  });

  it("keeps a non-object object for the planner to judge", () => {
    const r = decodeOk('{"request":{"operation":"CREATE","object":"oops"}}');
    const o = r.object;
    expect(o !== null && o.isString()).toBe(true);
  });

  it("falls back to object.metadata.namespace", () => {
    const r = decodeOk('{"request":{"object":{"metadata":{"namespace":"objns"}}}}');
    expect(r.namespaceOrObjectNamespace()).toBe("objns");
    const none = decodeOk('{"request":{"object":{"metadata":{"namespace":7}}}}');
    expect(none.namespaceOrObjectNamespace()).toBe("");
  });

  it("wrong-typed scalars read as empty, never trap", () => {
    const r = decodeOk('{"request":{"uid":1,"operation":["CREATE"],"namespace":null,"kind":"Pod","dryRun":"yes"}}');
    expect(r.uid).toBe("");
    expect(r.operation).toBe("");
    expect(r.namespace).toBe("");
    expect(r.kind.kind).toBe("");
    expect(r.dryRun).toBe(false);
  });

  it("the live object is the request's node", () => {
    const r = decodeOk('{"request":{"object":{"a":1}}}');
    const o = r.object;
    if (o !== null) o.set("b", JsonValue.int(2));
    expect(r.request.toString()).toBe('{"object":{"a":1,"b":2}}');
  });
});

describe("decodeValidationPayload errors", () => {
  it("not JSON", () => {
    const d = decodeValidationPayload(payload("{not json"));
    expect(d.ok).toBe(false);
    expect(d.error.startsWith("payload is not valid JSON")).toBe(true);
  });
  it("empty payload", () => {
    expect(decodeValidationPayload(new Uint8Array(0)).ok).toBe(false);
  });
  it("invalid UTF-8", () => {
    const bytes = new Uint8Array(3);
    bytes[0] = 0x22;
    bytes[1] = 0xff;
    bytes[2] = 0x22;
    expect(decodeValidationPayload(bytes).ok).toBe(false);
  });
  it("not an object", () => {
    expect(decodeValidationPayload(payload("[1]")).error).toBe("payload is not a JSON object");
  });
  it("missing request", () => {
    expect(decodeValidationPayload(payload('{"settings":{}}')).error).toBe("payload has no request");
  });
  it("request not an object", () => {
    expect(decodeValidationPayload(payload('{"request":null}')).error).toBe("request is not an object");
    expect(decodeValidationPayload(payload('{"request":"x"}')).error).toBe("request is not an object");
  });
  it("settings not an object", () => {
    expect(decodeValidationPayload(payload('{"request":{},"settings":[]}')).error).toBe("settings is not an object");
    expect(decodeValidationPayload(payload('{"request":{},"settings":1}')).error).toBe("settings is not an object");
  });
});
