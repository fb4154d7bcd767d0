// The argument plan (docs/policies/hicache-injector.md#arguments): equivalence, rules A1–A8 in
// order, the appended tokens, and the engineOverrides units.
import { parseJsonString } from "../../../../assembly/json/index";
import { equivalentValue, hasLmcacheArgs, overrideArgTokens, planArgs } from "../args";
import { HiCacheBackend, readHiCacheBackend } from "../backend";

const I = "inject SGLang HiCache config: ";

function backend(hiCache: string, nfs: bool = false): HiCacheBackend {
  const remote = nfs
    ? ',"remoteStorage":{"provider":"NFS","ownership":"External","nfs":{"server":"s","path":"/p","mountPath":"/m"}}'
    : "";
  return readHiCacheBackend(parseJsonString('{"runtime":"SGLang"' + remote + ',"hiCache":' + hiCache + "}").value);
}
const RATIO = backend('{"ratio":"2.0"}');
const SIZE = backend('{"sizeGB":64}');

function tokens(args: string[], b: HiCacheBackend): string {
  const p = planArgs(args, b);
  return p.ok ? p.tokens.join(" ") : "CONFLICT " + p.conflict;
}

describe("equivalence", () => {
  it("size: base-10 int64 equality", () => {
    expect(equivalentValue("--hicache-size", "064", "64")).toBe(true);
    expect(equivalentValue("--hicache-size", "+64", "64")).toBe(true);
    expect(equivalentValue("--hicache-size", "64.0", "64")).toBe(false);
    expect(equivalentValue("--hicache-size", " 64", "64")).toBe(false);
    expect(equivalentValue("--hicache-size", "0x40", "64")).toBe(false);
    expect(equivalentValue("--hicache-size", "65", "64")).toBe(false);
    expect(equivalentValue("--hicache-size", "9223372036854775807", "9223372036854775807")).toBe(true);
    expect(equivalentValue("--hicache-size", "9223372036854775808", "9223372036854775808")).toBe(false);
  });
  it("ratio: finite Go float equality", () => {
    expect(equivalentValue("--hicache-ratio", "2", "2.0")).toBe(true);
    expect(equivalentValue("--hicache-ratio", "2e0", "2.0")).toBe(true);
    expect(equivalentValue("--hicache-ratio", "0x1p1", "2.0")).toBe(true);
    expect(equivalentValue("--hicache-ratio", "+2", "2.0")).toBe(true);
    expect(equivalentValue("--hicache-ratio", "2.0000001", "2.0")).toBe(false);
    expect(equivalentValue("--hicache-ratio", "Inf", "Inf")).toBe(false);
  });
  it("others: exact text", () => {
    expect(equivalentValue("--hicache-write-policy", "write_back", "write_back")).toBe(true);
    expect(equivalentValue("--hicache-write-policy", "Write_back", "write_back")).toBe(false);
  });
});

describe("appended tokens", () => {
  it("everything missing: enable, ratio, in order", () => {
    expect(tokens([], RATIO)).toBe("--enable-hierarchical-cache --hicache-ratio 2.0");
    expect(tokens(["--model-path", "m"], SIZE)).toBe("--enable-hierarchical-cache --hicache-size 64");
  });
  it("all optionals and NFS flags in the specified order", () => {
    const b = backend(
      '{"ratio":"1.5","writePolicy":"write_back","ioBackend":"direct","memoryLayout":"page_first","storagePrefetchPolicy":"timeout"}',
      true,
    );
    expect(tokens([], b)).toBe(
      "--enable-hierarchical-cache --hicache-ratio 1.5 --hicache-write-policy write_back --hicache-io-backend direct --hicache-mem-layout page_first --hicache-storage-backend file --hicache-storage-prefetch-policy timeout",
    );
  });
  it("present and equivalent flags are kept; only the rest is appended", () => {
    expect(tokens(["--enable-hierarchical-cache", "--hicache-ratio=2"], RATIO)).toBe("");
    expect(tokens(["--hicache-ratio", "2"], RATIO)).toBe("--enable-hierarchical-cache");
    expect(tokens(["--enable-hierarchical-cache"], RATIO)).toBe("--hicache-ratio 2.0");
  });
  it("a user optional the spec does not set is kept", () => {
    expect(tokens(["--hicache-write-policy", "write_through"], RATIO)).toBe(
      "--enable-hierarchical-cache --hicache-ratio 2.0",
    );
  });
});

describe("conflicts A1–A8", () => {
  it("A1/A2: the boolean flag", () => {
    expect(tokens(["--enable-hierarchical-cache="], RATIO)).toBe(
      "CONFLICT " + I + "--enable-hierarchical-cache is a boolean flag and must not carry a value",
    );
    expect(tokens(["--enable-hierarchical-cache", "--enable-hierarchical-cache"], RATIO)).toBe(
      "CONFLICT " + I + "--enable-hierarchical-cache is duplicated",
    );
  });
  it("A3: optional flags duplicated or malformed even when the spec does not set them", () => {
    expect(tokens(["--hicache-mem-layout", "a", "--hicache-mem-layout=a"], RATIO)).toBe(
      "CONFLICT " + I + "--hicache-mem-layout is duplicated or malformed",
    );
    expect(tokens(["--hicache-storage-prefetch-policy"], RATIO)).toBe(
      "CONFLICT " + I + "--hicache-storage-prefetch-policy is duplicated or malformed",
    );
    expect(tokens(["--hicache-io-backend", "--x"], RATIO)).toBe(
      "CONFLICT " + I + "--hicache-io-backend is duplicated or malformed",
    );
    // a single-dash next token is a value
    expect(tokens(["--hicache-io-backend", "-x"], RATIO)).toBe("--enable-hierarchical-cache --hicache-ratio 2.0");
  });
  it("A4/A5: size and ratio exclude each other", () => {
    expect(tokens(["--hicache-ratio"], SIZE)).toBe("CONFLICT " + I + "--hicache-ratio is malformed");
    expect(tokens(["--hicache-ratio=1"], SIZE)).toBe(
      "CONFLICT " + I + "existing --hicache-ratio conflicts with spec.hiCache.sizeGB",
    );
    expect(tokens(["--hicache-size="], RATIO)).toBe("CONFLICT " + I + "--hicache-size is malformed");
    expect(tokens(["--hicache-size", "-1"], RATIO)).toBe(
      "CONFLICT " + I + "existing --hicache-size conflicts with spec.hiCache.ratio",
    );
  });
  it("A6: NFS flags need NFS", () => {
    expect(tokens(["--hicache-storage-prefetch-policy=timeout"], RATIO)).toBe(
      "CONFLICT " + I + "existing --hicache-storage-prefetch-policy requires remoteStorage.provider=NFS",
    );
    const b = backend('{"ratio":"2","storagePrefetchPolicy":"timeout"}', true);
    expect(tokens(["--hicache-storage-backend", "file"], b)).toBe(
      "--enable-hierarchical-cache --hicache-ratio 2 --hicache-storage-prefetch-policy timeout",
    );
    expect(tokens(["--hicache-storage-backend", "mooncake"], b)).toBe(
      "CONFLICT " + I + 'existing --hicache-storage-backend="mooncake" conflicts with desired value "file"',
    );
  });
  it("A7/A8: the desired flag duplicated, malformed or different", () => {
    expect(tokens(["--hicache-ratio", "2", "--hicache-ratio", "2"], RATIO)).toBe(
      "CONFLICT " + I + "--hicache-ratio is duplicated or malformed",
    );
    expect(tokens(["--hicache-size", "64.0"], SIZE)).toBe(
      "CONFLICT " + I + 'existing --hicache-size="64.0" conflicts with desired value "64"',
    );
  });
  it("LMCache flags in either form", () => {
    expect(hasLmcacheArgs(["--enable-lmcache"])).toBe(true);
    expect(hasLmcacheArgs(["--lmcache-config-file=/x"])).toBe(true);
    expect(hasLmcacheArgs(["--enable-lmcache-extra", "--lmcache-config-filex"])).toBe(false);
  });
});

describe("engineOverrides args", () => {
  it("two-token units, one-token units, positional entries", () => {
    expect(overrideArgTokens([], ["--page-size", "64", "--x=1", "--flag", "--y", "pos"]).join(" ")).toBe(
      "--page-size 64 --x=1 --flag --y pos",
    );
  });
  it("a unit whose flag the user passes is dropped whole; positional entries always stay", () => {
    expect(overrideArgTokens(["--page-size=8", "--y"], ["--page-size", "64", "--y", "pos", "lone"]).join(" ")).toBe(
      "lone",
    );
    expect(overrideArgTokens(["--model-path", "m"], ["--model-path", "other"]).length).toBe(0);
    expect(overrideArgTokens(["m"], ["m"]).join(" ")).toBe("m");
    // a single-dash entry is a flag of its own, not the value of the one before
    expect(overrideArgTokens(["--flag"], ["--flag", "-1"]).join(" ")).toBe("-1");
  });
});
