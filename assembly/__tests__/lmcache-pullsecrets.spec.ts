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
    expect(r.detail).toBe('"Bad_Name" is not a valid Secret name');
  });
  it("an annotation over Kubernetes' 262144 bytes for all annotations is not read; at the limit it is", () => {
    const key = "lmcache.ai/lmcache-image-pull-secrets";
    // names of 9 characters and a comma: "s00000000,s00000001,…"
    let list = "";
    for (let i = 0; list.length + key.length < 262144 - 10; i++)
      list += (list.length > 0 ? "," : "") + "s" + i.toString().padStart(8, "0");
    list = list + ",".repeat(262144 - key.length - list.length);
    expect(key.length + list.length).toBe(262144);
    const atLimit = resolveInjectedPullSecrets([], list, key);
    expect(atLimit.ok).toBe(true);
    expect(atLimit.names.length).toBeGreaterThan(20000);
    const over = resolveInjectedPullSecrets([], list + "s", key);
    expect(over.ok).toBe(false);
    expect(over.names.length).toBe(0);
    expect(over.detail).toBe(
      "annotation lmcache.ai/lmcache-image-pull-secrets is over Kubernetes' 262144-byte limit for all of a pod's annotations",
    );
  });
});
