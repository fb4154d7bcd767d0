import { JsonValue, parseJson, parseJsonString } from "../json/index";
import {
  accept,
  reject,
  mutate,
  settingsValid,
  settingsInvalid,
  bytesToString,
  ValidationResponse,
} from "../kubewarden/response";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

describe("kubewarden response bytes", () => {
  it('accept is exactly {"accepted":true}', () => {
    expect(accept().toString()).toBe('{"accepted":true}');
  });

  it("reject carries message and code, snake_case, in contract order", () => {
    expect(reject("no way", 422).toString()).toBe('{"accepted":false,"message":"no way","code":422}');
    expect(reject("x", 65535).toString()).toBe('{"accepted":false,"message":"x","code":65535}');
    expect(reject("x", 0).toString()).toBe('{"accepted":false,"message":"x","code":0}');
  });

  it("omits every absent optional", () => {
    const r = new ValidationResponse(true);
    expect(r.toString()).toBe('{"accepted":true}');
    expect(r.withMessage("m").toString()).toBe('{"accepted":true,"message":"m"}');
  });

  it("warnings are a string list, audit annotations an ordered string map", () => {
    const r = accept()
      .withWarning("first")
      .withWarning("second")
      .withAuditAnnotation("skip-reason", "lookup-denied")
      .withAuditAnnotation("b", "2")
      .withAuditAnnotation("skip-reason", "lookup-failed");
    expect(r.toString()).toBe(
      '{"accepted":true,"audit_annotations":{"skip-reason":"lookup-failed","b":"2"},"warnings":["first","second"]}',
    );
  });

  it("mutated_object is the whole object with untouched bytes preserved", () => {
    const obj = parse(
      '{"kind":"Pod", "n":1000.0,"big":18446744073709551615,"s":"a\\u00e9\\n\\/","meta":{ "x" : [1, 2] }}',
    );
    obj.set("added", JsonValue.bool(true));
    expect(mutate(obj).toString()).toBe(
      '{"accepted":true,"mutated_object":{"kind":"Pod","n":1000.0,"big":18446744073709551615,"s":"a\\u00e9\\n\\/","meta":{ "x" : [1, 2] },"added":true}}',
    );
  });

  it("full response: message, mutated object, audit annotations, warnings", () => {
    const r = mutate(parse('{"a":1}')).withWarning("w").withAuditAnnotation("k", "v").withMessage("hi");
    expect(r.toString()).toBe(
      '{"accepted":true,"message":"hi","mutated_object":{"a":1},"audit_annotations":{"k":"v"},"warnings":["w"]}',
    );
  });

  it("escapes every string it writes", () => {
    const r = reject('quote " backslash \\ newline \n tab \t ctl \u0001 é 😀 /', 400)
      .withWarning('w"1')
      .withAuditAnnotation("k\\", "v\n");
    expect(r.toString()).toBe(
      '{"accepted":false,"message":"quote \\" backslash \\\\ newline \\n tab \\t ctl \\u0001 é 😀 /","code":400,"audit_annotations":{"k\\\\":"v\\n"},"warnings":["w\\"1"]}',
    );
  });

  it("the bytes parse back as JSON", () => {
    const r = mutate(parse('{"a":"\\u2028"}')).withWarning("x\u0000y");
    expect(parseJsonString(r.toString()).ok).toBe(true);
  });
});

/** `text` as a request the host wrote after `room` free bytes (as readInvocation leaves them) */
function requestWithRoom(text: string, room: i32): Uint8Array {
  const utf8 = String.UTF8.encode(text);
  const buffer = new ArrayBuffer(room + utf8.byteLength);
  memory.copy(changetype<usize>(buffer) + <usize>room, changetype<usize>(utf8), <usize>utf8.byteLength);
  return Uint8Array.wrap(buffer, room, utf8.byteLength);
}

function objectOf(request: Uint8Array): JsonValue {
  const v = parseJson(request).value;
  return v !== null ? v : JsonValue.str("<parse failed>");
}

function writtenOver(out: Uint8Array, request: Uint8Array): bool {
  return changetype<usize>(out.buffer) == changetype<usize>(request.buffer);
}

const POD =
  '{"kind":"Pod","metadata":{"name":"p","annotations":{"a":"1"}},"spec":{"containers":[{"name":"c","args":["--x"]}]}}';
const HEAD = '{"accepted":true,"mutated_object":'; // 34 bytes before the object

describe("toBytesOver: a response written over its request", () => {
  it("is written over the request when every copy lies ahead of the output, bytes as toBytes gives", () => {
    const request = requestWithRoom(POD, 64);
    const pod = objectOf(request);
    const args = pod.get("spec")!.get("containers")!.at(0)!.get("args")!;
    args.push(JsonValue.str("--kv-transfer-config={}"));
    const response = mutate(pod);
    const expected = response.toString();
    const out = response.toBytesOver(request);
    expect(bytesToString(out)).toBe(expected);
    expect(writtenOver(out, request)).toBe(true);
  });

  it("an untouched object is copied onto itself (the envelope and closing brace fit in the room)", () => {
    const request = requestWithRoom(POD, HEAD.length + 1);
    const response = mutate(objectOf(request));
    const expected = response.toString();
    const out = response.toBytesOver(request);
    expect(bytesToString(out)).toBe(expected);
    expect(writtenOver(out, request)).toBe(true);
    expect(out.byteOffset).toBe(0);
  });

  it("room for the envelope and the edits: exactly enough is written over, one byte less is not", () => {
    // bytes added at the end: the output must fit in room + request
    const added = '"zzzzzzzzzz"';
    const need = HEAD.length + 1 + 7 + added.length; // head, closing brace, `,"add":`, the value
    const enough = requestWithRoom(POD, need);
    const a = objectOf(enough);
    a.set("add", JsonValue.str("zzzzzzzzzz"));
    const ra = mutate(a);
    const expectedA = ra.toString();
    const outA = ra.toBytesOver(enough);
    expect(bytesToString(outA)).toBe(expectedA);
    expect(writtenOver(outA, enough)).toBe(true);

    const short = requestWithRoom(POD, need - 1);
    const b = objectOf(short);
    b.set("add", JsonValue.str("zzzzzzzzzz"));
    const rb = mutate(b);
    const expectedB = rb.toString();
    const outB = rb.toBytesOver(short);
    expect(bytesToString(outB)).toBe(expectedB);
    expect(writtenOver(outB, short)).toBe(false);
  });

  it("bytes added before a copy need room ahead of it: a longer first value in a roomless request is not written over", () => {
    const request = requestWithRoom('{"a":"x","b":"' + "y".repeat(200) + '"}', 0);
    const obj = objectOf(request);
    obj.set("a", JsonValue.str("x".repeat(100)));
    const response = mutate(obj);
    const expected = response.toString();
    const out = response.toBytesOver(request);
    expect(bytesToString(out)).toBe(expected);
    expect(writtenOver(out, request)).toBe(false);
  });

  it("a value moved after its source's place is written from its source, not over it", () => {
    // 64 bytes of room: less than the output, which would reach the moved value's source first
    const request = requestWithRoom(POD, 64);
    const pod = objectOf(request);
    const metadata = pod.get("metadata")!;
    pod.remove("metadata");
    pod.set("moved", metadata); // adopted: its bytes are still the request's, read last
    const response = mutate(pod);
    const expected = response.toString();
    const out = response.toBytesOver(request);
    expect(bytesToString(out)).toBe(expected);
    expect(writtenOver(out, request)).toBe(false);
  });

  it("with room for the whole output before the request, a moved value is still read before it is overwritten", () => {
    const request = requestWithRoom(POD, 1024);
    const pod = objectOf(request);
    const metadata = pod.get("metadata")!;
    pod.remove("metadata");
    pod.set("moved", metadata);
    const response = mutate(pod);
    const expected = response.toString();
    const out = response.toBytesOver(request);
    expect(bytesToString(out)).toBe(expected);
    expect(writtenOver(out, request)).toBe(true);
  });

  it("a response without a mutated object is built as toBytes builds it", () => {
    const request = requestWithRoom(POD, 64);
    const out = reject("no", 400).toBytesOver(request);
    expect(bytesToString(out)).toBe('{"accepted":false,"message":"no","code":400}');
    expect(writtenOver(out, request)).toBe(false);
    expect(bytesToString(Uint8Array.wrap(request.buffer, 64, request.length))).toBe(POD);
  });
});

describe("settings responses", () => {
  it("valid", () => {
    expect(bytesToString(settingsValid())).toBe('{"valid":true}');
  });
  it("invalid with an escaped message", () => {
    expect(bytesToString(settingsInvalid('lookups: unknown field; engines[a"b]: must be an object'))).toBe(
      '{"valid":false,"message":"lookups: unknown field; engines[a\\"b]: must be an object"}',
    );
  });
});
