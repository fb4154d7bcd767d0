import { JsonValue } from "../json/index";
import { bytesToString } from "../kubewarden/response";
import { validateSettingsWith } from "../kubewarden/settings";

function bytes(text: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(text));
}

// a policy whose only rule: every member is a problem; a non-object is one problem
function everyKey(settings: JsonValue): string[] {
  const out = new Array<string>();
  if (!settings.isObject()) {
    out.push("not an object: " + settings.kindName());
    return out;
  }
  for (let i = 0; i < settings.size(); i++) out.push(settings.keyAt(i) + ": unknown field");
  return out;
}

function answer(text: string): string {
  return bytesToString(validateSettingsWith(bytes(text), everyKey));
}

function keys(n: i32): string {
  const parts = new Array<string>();
  for (let i = 0; i < n; i++) parts.push('"k' + i.toString() + '":1');
  return "{" + parts.join(",") + "}";
}

describe("validateSettingsWith", () => {
  it("no problems is valid; null is valid without asking the policy", () => {
    expect(answer("{}")).toBe('{"valid":true}');
    expect(answer("null")).toBe('{"valid":true}');
    expect(answer(" null ")).toBe('{"valid":true}');
  });
  it("problems are joined with '; ' in the policy's order", () => {
    expect(answer('{"b":1,"a":2}')).toBe('{"valid":false,"message":"b: unknown field; a: unknown field"}');
    expect(answer("[1]")).toBe('{"valid":false,"message":"not an object: array"}');
    expect(answer('"x"')).toBe('{"valid":false,"message":"not an object: string"}');
  });
  it("one wording for a payload that is not JSON", () => {
    expect(answer("{").startsWith('{"valid":false,"message":"settings are not valid JSON: ')).toBe(true);
    expect(answer("").startsWith('{"valid":false,"message":"settings are not valid JSON: ')).toBe(true);
  });
  it("lists at most 100 problems, then counts the rest", () => {
    const hundred = answer(keys(100));
    expect(hundred.endsWith('k99: unknown field"}')).toBe(true);
    expect(hundred.includes("more")).toBe(false);
    const more = answer(keys(101));
    expect(more.endsWith('k99: unknown field; and 1 more"}')).toBe(true);
  });
});
