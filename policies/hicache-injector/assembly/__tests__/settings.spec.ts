// validate_settings (docs/policies/hicache-injector.md#settings): one message per bad field.
import { parseJsonString } from "../../../../assembly/json/index";
import { settingsProblems } from "../settings";

function problems(text: string): string {
  return settingsProblems(parseJsonString(text).value!).join("; ");
}
const SPEC =
  '{"runtime":"SGLang","type":"SGLangHiCache","engineSelector":{"matchLabels":{"app":"sglang"}},"hiCache":{"ratio":"2.0"}}';

function env(entries: string): string {
  return problems(
    '{"backends":[{"metadata":{"name":"a"},"spec":' +
      SPEC.replace('"hiCache"', '"integration":{"engineOverrides":{"env":' + entries + '}},"hiCache"') +
      "}]}",
  );
}

describe("settings", () => {
  it("valid: empty, lookup alone, backends with and without lookup, null counts as absent", () => {
    expect(problems("{}")).toBe("");
    expect(problems('{"lookup":true}')).toBe("");
    expect(problems('{"lookup":null}')).toBe("");
    expect(problems('{"lookup":false,"backends":[]}')).toBe("");
    expect(problems('{"backends":[{"metadata":{"name":"a.b-c","uid":"U"},"spec":' + SPEC + "}]}")).toBe("");
  });
  it("lookup false without backends can never inject", () => {
    expect(problems('{"lookup":false}')).toBe(
      "lookup: lookups are disabled and settings.backends is absent, so the policy can never inject",
    );
    expect(problems('{"lookup":false,"backends":null}')).toBe(
      "lookup: lookups are disabled and settings.backends is absent, so the policy can never inject",
    );
  });
  it("name: DNS-1123 subdomain, at most 253 characters", () => {
    const ok = "a".repeat(63) + "." + "b".repeat(63) + "." + "c".repeat(63) + "." + "d".repeat(61);
    expect(ok.length).toBe(253);
    expect(problems('{"backends":[{"metadata":{"name":"' + ok + '"},"spec":' + SPEC + "}]}")).toBe("");
    expect(problems('{"backends":[{"metadata":{"name":"' + ok + 'e"},"spec":' + SPEC + "}]}")).toBe(
      "backends[0].metadata.name: must be a valid CacheBackend name (DNS-1123 subdomain)",
    );
    expect(problems('{"backends":[{"metadata":{"name":"A"},"spec":' + SPEC + "}]}")).toBe(
      "backends[0].metadata.name: must be a valid CacheBackend name (DNS-1123 subdomain)",
    );
  });
  it("inline backends must be SGLangHiCache and pass the boundary checks", () => {
    expect(problems('{"backends":[{"metadata":{"name":"a"},"spec":{"type":"LMCache"}}]}')).toBe(
      "backends[0].spec.type: only SGLangHiCache backends can be defined inline",
    );
    expect(problems('{"backends":[{"metadata":{"name":"a"},"spec":' + SPEC.replace('"2.0"', '"0"') + "}]}")).toBe(
      "backends[0].spec: resolve SGLang HiCache config: ratio must be a finite number greater than zero",
    );
    expect(problems('{"backends":[{"metadata":{"name":"a"},"spec":[]}]}')).toBe("backends[0].spec: must be an object");
  });
  it("env override shapes", () => {
    expect(env('[{"name":"FOO","value":"","valueFrom":{"fieldRef":{}}}]')).toBe("");
    expect(
      env('[{"name":"1FOO"}]').startsWith(
        "backends[0].spec.integration.engineOverrides.env[0]: invalid env var name: ",
      ),
    ).toBe(true);
    expect(env('[{"name":"FOO","valueFrom":{}}]')).toBe(
      "backends[0].spec.integration.engineOverrides.env[0]: valueFrom must select exactly one source (e.g. fieldRef, resourceFieldRef, configMapKeyRef, or secretKeyRef)",
    );
    expect(env('[{"name":"FOO","valueFrom":{"fieldRef":{},"secretKeyRef":{}}}]')).toBe(
      "backends[0].spec.integration.engineOverrides.env[0]: valueFrom must select exactly one source — multiple set",
    );
  });
});
