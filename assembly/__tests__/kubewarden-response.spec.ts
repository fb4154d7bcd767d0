import { JsonValue, parseJsonString } from "../json/index";
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
