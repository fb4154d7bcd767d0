import { resolveInjectedPullSecrets } from "../lmcache/pullsecrets";

describe("resolveInjectedPullSecrets (D5)", () => {
  it("blank annotation: the engine list as is, unvalidated, without empty names", () => {
    const r = resolveInjectedPullSecrets(["", "Engine_Secret", ""], "  ");
    expect(r.ok).toBe(true);
    expect(r.names.join("|")).toBe("Engine_Secret");
    expect(resolveInjectedPullSecrets([""], "").names.length).toBe(0);
    expect(resolveInjectedPullSecrets([" "], "").names.join("|")).toBe(" ");
    expect(resolveInjectedPullSecrets(["a"], "").names.join("|")).toBe("a");
  });
  it("a non-blank annotation replaces the engine list", () => {
    expect(resolveInjectedPullSecrets(["engine"], "override-a,override-b").names.join("|")).toBe(
      "override-a|override-b",
    );
    expect(resolveInjectedPullSecrets(["engine"], " override-a , override-b ").names.join("|")).toBe(
      "override-a|override-b",
    );
    expect(resolveInjectedPullSecrets(["engine"], "a, a, b").names.join("|")).toBe("a|a|b");
  });
  it('" , " replaces the engine list with nothing', () => {
    const r = resolveInjectedPullSecrets(["engine"], " , ");
    expect(r.ok).toBe(true);
    expect(r.names.length).toBe(0);
  });
  it("the first invalid name is reported", () => {
    const r = resolveInjectedPullSecrets([], "good, Bad_Name, also.Bad");
    expect(r.ok).toBe(false);
    expect(r.invalidName).toBe("Bad_Name");
  });
});
