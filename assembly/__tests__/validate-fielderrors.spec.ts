import {
  FieldErrorList, FieldErrorType, child, fieldErrorFromCheck, checkNfsServer, checkMountPath, forbidden, index,
  internalError, introducedErrors, invalidBool, invalidInt, invalidNull, invalidRaw, invalidString, key,
  notSupportedRaw, notSupportedString, qualifiedKind, required, splitCommaList, supportedValuesDetail,
  MAX_REPORTED_ERRORS, MAX_COLLECTED_ERRORS,
} from "../validate/index";

const P = "CacheBackend.inferencecache.io \"sglang-hicache-l3-nfs\" is invalid: ";

describe("field error rendering (cachebackend-validator §3.1)", () => {
  it("Required", () => {
    expect(required("spec.hiCache.storagePrefetchPolicy", "required when remoteStorage.provider=NFS").render())
      .toBe("spec.hiCache.storagePrefetchPolicy: Required value: required when remoteStorage.provider=NFS");
  });
  it("Forbidden", () => {
    expect(forbidden("spec.remoteStorage.endpoint", "NFS uses remoteStorage.nfs.server and path instead of an endpoint").render())
      .toBe("spec.remoteStorage.endpoint: Forbidden: NFS uses remoteStorage.nfs.server and path instead of an endpoint");
  });
  it("Invalid string uses %q", () => {
    expect(invalidString("spec.remoteStorage.nfs.server", " 10.0.0.25", "must not contain surrounding whitespace").render())
      .toBe("spec.remoteStorage.nfs.server: Invalid value: \" 10.0.0.25\": must not contain surrounding whitespace");
    expect(invalidString("x", "a\nb", "d").render()).toBe("x: Invalid value: \"a\\nb\": d");
  });
  it("Invalid raw: numbers, booleans, JSON", () => {
    expect(invalidRaw("spec.blend.recompRatio", "1.5", "must be in (0.0, 1.0]").render())
      .toBe("spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]");
    expect(invalidInt("spec.server.chunkSize", 128, "must be 256 for CacheBlend (chunk_size == block_size 64 * 4)").render())
      .toBe("spec.server.chunkSize: Invalid value: 128: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)");
    expect(invalidInt("spec.blend.checkLayer", -1, "must be >= 0").render()).toBe("spec.blend.checkLayer: Invalid value: -1: must be >= 0");
    expect(invalidBool("spec.integration.failOpen", true, "must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency").render())
      .toBe("spec.integration.failOpen: Invalid value: true: must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency");
    expect(invalidRaw("spec.hiCache", "{\"sizeGB\":8,\"ratio\":\"2\"}", "sizeGB and ratio are mutually exclusive").render())
      .toBe("spec.hiCache: Invalid value: {\"sizeGB\":8,\"ratio\":\"2\"}: sizeGB and ratio are mutually exclusive");
  });
  it("Invalid null renders \"null\"", () => {
    expect(invalidNull("spec.x", "must be a string").render()).toBe("spec.x: Invalid value: \"null\": must be a string");
  });
  it("NotSupported string", () => {
    expect(notSupportedString("spec.hiCache.storagePrefetchPolicy", "forever", ["best_effort", "wait_complete", "timeout"]).render())
      .toBe("spec.hiCache.storagePrefetchPolicy: Unsupported value: \"forever\": supported values: \"best_effort\", \"wait_complete\", \"timeout\"");
    expect(notSupportedString("spec.remoteStorage.ownership", "Managed", ["External"]).render())
      .toBe("spec.remoteStorage.ownership: Unsupported value: \"Managed\": supported values: \"External\"");
  });
  it("NotSupported raw (boolean)", () => {
    expect(notSupportedRaw("spec.integration.failOpen", "false", ["true"]).render())
      .toBe("spec.integration.failOpen: Unsupported value: false: supported values: \"true\"");
  });
  it("NotSupported with no supported values", () => {
    expect(notSupportedString("f", "x", []).render()).toBe("f: Unsupported value: \"x\"");
    expect(supportedValuesDetail([])).toBe("");
  });
  it("Internal error", () => {
    expect(internalError("spec", "boom").render()).toBe("spec: Internal error: boom");
  });
  it("empty detail omits the trailing colon", () => {
    expect(required("f", "").render()).toBe("f: Required value");
    expect(invalidString("f", "v", "").render()).toBe("f: Invalid value: \"v\"");
  });
  it("value texts for UPDATE comparison", () => {
    expect(invalidString("f", "a\"b", "d").rawValue).toBe("a\"b");
    expect(invalidInt("f", 7, "d").rawValue).toBe("7");
    expect(required("f", "d").rawValue).toBe("");
    expect(forbidden("f", "d").rawValue).toBe("");
    expect(notSupportedString("f", "x", ["y"]).rawValue).toBe("x");
    expect(notSupportedString("f", "x", ["y"]).type).toBe(FieldErrorType.NotSupported);
  });
  it("from a single-value check", () => {
    const ok = fieldErrorFromCheck("spec.remoteStorage.nfs.server", "10.0.0.25", checkNfsServer("10.0.0.25"));
    expect(ok === null).toBe(true);
    const r = fieldErrorFromCheck("spec.remoteStorage.nfs.server", "", checkNfsServer(""));
    expect(r !== null).toBe(true);
    if (r !== null) expect(r.render()).toBe("spec.remoteStorage.nfs.server: Required value: NFS mount-target hostname or IP address is required");
    const m = fieldErrorFromCheck("spec.remoteStorage.nfs.mountPath", "/dev/shm", checkMountPath("/dev/shm"));
    if (m !== null) expect(m.render()).toBe("spec.remoteStorage.nfs.mountPath: Invalid value: \"/dev/shm\": must not mount remote storage over /proc, /sys or /dev");
    else expect(m !== null).toBe(true);
  });
});

describe("aggregation (§3.2)", () => {
  it("no errors", () => {
    const l = new FieldErrorList();
    expect(l.isEmpty()).toBe(true);
    expect(l.aggregateText()).toBe("");
  });
  it("one error", () => {
    const l = new FieldErrorList();
    l.add(invalidString("spec.remoteStorage.nfs.server", "0.0.0.0", "must not be the unspecified address"));
    expect(l.invalidMessage("CacheBackend", "inferencecache.io", "sglang-hicache-l3-nfs"))
      .toBe(P + "spec.remoteStorage.nfs.server: Invalid value: \"0.0.0.0\": must not be the unspecified address");
  });
  it("several errors in order, bracketed", () => {
    const l = new FieldErrorList();
    l.add(invalidInt("spec.blend.checkLayer", -1, "must be >= 0"));
    l.add(invalidRaw("spec.blend.recompRatio", "1.5", "must be in (0.0, 1.0]"));
    expect(l.invalidMessage("CacheBlendEngine", "lmcache.lmcache.ai", "cb")).toBe(
      "CacheBlendEngine.lmcache.lmcache.ai \"cb\" is invalid: [spec.blend.checkLayer: Invalid value: -1: must be >= 0, spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]]");
  });
  it("duplicates appear once; a single distinct error is not bracketed", () => {
    const l = new FieldErrorList();
    l.add(invalidString("spec.integration.engine", "", "SGLangHiCache requires integration.engine=sglang"));
    l.add(invalidString("spec.integration.engine", "", "SGLangHiCache requires integration.engine=sglang"));
    expect(l.length).toBe(2);
    expect(l.aggregateText()).toBe("spec.integration.engine: Invalid value: \"\": SGLangHiCache requires integration.engine=sglang");
    l.add(forbidden("spec.autoscaling", "x"));
    l.add(invalidString("spec.integration.engine", "", "SGLangHiCache requires integration.engine=sglang"));
    expect(l.aggregateText()).toBe("[spec.integration.engine: Invalid value: \"\": SGLangHiCache requires integration.engine=sglang, spec.autoscaling: Forbidden: x]");
  });
  it("object name is %q-quoted; empty name", () => {
    const l = new FieldErrorList();
    l.add(invalidString("object", "x", "must be a CacheBackend object"));
    expect(l.invalidMessage("CacheBackend", "inferencecache.io", "")).toBe(
      "CacheBackend.inferencecache.io \"\" is invalid: object: Invalid value: \"x\": must be a CacheBackend object");
  });
  it("addMaybe, addAll, one violation per message", () => {
    const l = new FieldErrorList();
    l.addMaybe(null);
    l.addMaybe(required("a", "b"));
    const other = new FieldErrorList();
    other.addInvalidStringPerMessage("env[0].name", "1BAD", ["m1", "m2"], "invalid env var name: ");
    l.addAll(other);
    expect(l.length).toBe(3);
    expect(l.items[2].render()).toBe("env[0].name: Invalid value: \"1BAD\": invalid env var name: m2");
  });
  it("qualified kind", () => {
    expect(qualifiedKind("Pod", "")).toBe("Pod");
    expect(qualifiedKind("CacheBackend", "inferencecache.io")).toBe("CacheBackend.inferencecache.io");
  });
});

describe("UPDATE introduced-errors filter (§3.3)", () => {
  it("pre-existing violation is not introduced", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidString("spec.endpoint", "10.0.0.1:80", "d"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidString("spec.endpoint", "10.0.0.1:80", "d"));
    expect(introducedErrors(newErrs, oldErrs).isEmpty()).toBe(true);
  });
  it("changed value on the same field is introduced", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidInt("spec.server.chunkSize", 128, "must be 256"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidInt("spec.server.chunkSize", 64, "must be 256"));
    const d = introducedErrors(newErrs, oldErrs);
    expect(d.length).toBe(1);
    expect(d.items[0].render()).toBe("spec.server.chunkSize: Invalid value: 64: must be 256");
  });
  it("new violation next to old ones: only the new one stays, in order", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(forbidden("spec.a", "x"));
    const newErrs = new FieldErrorList();
    newErrs.add(required("spec.b", "y"));
    newErrs.add(forbidden("spec.a", "x"));
    newErrs.add(invalidString("spec.c", "/", "z"));
    const d = introducedErrors(newErrs, oldErrs);
    expect(d.length).toBe(2);
    expect(d.items[0].field).toBe("spec.b");
    expect(d.items[1].field).toBe("spec.c");
  });
  it("type, field and detail are part of the tuple", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(forbidden("spec.a", "x"));
    const newErrs = new FieldErrorList();
    newErrs.add(required("spec.a", "x"));
    newErrs.add(forbidden("spec.b", "x"));
    newErrs.add(forbidden("spec.a", "x2"));
    expect(introducedErrors(newErrs, oldErrs).length).toBe(3);
  });
  it("string and number with the same text compare equal by value text", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidString("spec.x", "8", "d"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidRaw("spec.x", "8", "d"));
    expect(introducedErrors(newErrs, oldErrs).length).toBe(0);
  });
  it("no old errors: all introduced", () => {
    const newErrs = new FieldErrorList();
    newErrs.add(required("a", "b"));
    expect(introducedErrors(newErrs, new FieldErrorList()).length).toBe(1);
  });
});

describe("field path helpers", () => {
  it("child, index, key", () => {
    expect(child("spec", "hiCache")).toBe("spec.hiCache");
    expect(child("", "spec")).toBe("spec");
    expect(index("spec.integration.engineOverrides.args", 3)).toBe("spec.integration.engineOverrides.args[3]");
    expect(key("spec.backendConfig", "model")).toBe("spec.backendConfig[model]");
    expect(key(child("metadata", "annotations"), "inferencecache.io/lmcache-kernel-check"))
      .toBe("metadata.annotations[inferencecache.io/lmcache-kernel-check]");
    expect(child(index("env", 0), "name")).toBe("env[0].name");
  });
});

describe("comma-separated name lists", () => {
  it("trim, split, drop empty", () => {
    expect(splitCommaList("override-a, override-b")).toStrictEqual(["override-a", "override-b"]);
    expect(splitCommaList(" , ")).toStrictEqual(new Array<string>());
    expect(splitCommaList("")).toStrictEqual(new Array<string>());
    expect(splitCommaList(",a,,\u00a0b\t,")).toStrictEqual(["a", "b"]);
    expect(splitCommaList("single")).toStrictEqual(["single"]);
    expect(splitCommaList("a b, c")).toStrictEqual(["a b", "c"]);
  });
});

describe("FieldErrorList cap", () => {
  it("renders at most MAX_REPORTED_ERRORS distinct errors and counts the rest", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < 250; i++) list.add(required(index("spec.items", i) + ".name", "must be set"));
    const text = list.aggregateText();
    expect(text.startsWith("[spec.items[0].name: Required value: must be set, ")).toBe(true);
    expect(text.includes("spec.items[99].name: Required value: must be set, and 150 more]")).toBe(true);
    expect(text.includes("spec.items[100].name")).toBe(false);
  });
  it("keeps every error when there are exactly MAX_REPORTED_ERRORS", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < MAX_REPORTED_ERRORS; i++) list.add(required(index("a", i), "x"));
    expect(list.aggregateText().endsWith("a[99]: Required value: x]")).toBe(true);
  });
  it("bound MAX_REPORTED_ERRORS from both sides: just below, at, just above, far above", () => {
    const rendered = (n: i32): string => {
      const list = new FieldErrorList();
      for (let i = 0; i < n; i++) list.add(required(index("a", i), "x"));
      return list.aggregateText();
    };
    expect(rendered(MAX_REPORTED_ERRORS - 1).endsWith("a[98]: Required value: x]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS).endsWith("a[99]: Required value: x]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS + 1).endsWith("a[99]: Required value: x, and 1 more]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS * 5).endsWith("a[99]: Required value: x, and 400 more]")).toBe(true);
  });
  it("counts every violation after the last shown one, without rendering them", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < 101; i++) list.add(required(index("a", i), "x"));
    list.add(required(index("a", 0), "x"));
    expect(list.aggregateText().endsWith("a[99]: Required value: x, and 2 more]")).toBe(true);
  });
});

describe("FieldErrorList collection limit", () => {
  it("keeps MAX_COLLECTED_ERRORS violations and counts the rest", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 5; i++) list.add(required(index("a", i), "x"));
    expect(list.items.length).toBe(MAX_COLLECTED_ERRORS);
    expect(list.omitted).toBe(5);
    expect(list.length).toBe(MAX_COLLECTED_ERRORS + 5);
    expect(list.full).toBe(true);
    expect(list.aggregateText().endsWith("a[99]: Required value: x, and " + (MAX_COLLECTED_ERRORS + 5 - 100).toString() + " more]")).toBe(true);
  });
  it("bound MAX_COLLECTED_ERRORS from both sides: just below, at, just above, far above", () => {
    for (let k = 0; k < 4; k++) {
      const n = k == 0 ? MAX_COLLECTED_ERRORS - 1 : k == 1 ? MAX_COLLECTED_ERRORS : k == 2 ? MAX_COLLECTED_ERRORS + 1 : MAX_COLLECTED_ERRORS * 3;
      const list = new FieldErrorList();
      for (let i = 0; i < n; i++) list.add(required(index("a", i), "x"));
      expect(list.items.length).toBe(min(n, MAX_COLLECTED_ERRORS));
      expect(list.omitted).toBe(max(0, n - MAX_COLLECTED_ERRORS));
      expect(list.length).toBe(n);
      expect(list.full).toBe(n >= MAX_COLLECTED_ERRORS);
    }
  });
  it("an UPDATE with more uncollected violations than before counts the difference as introduced", () => {
    const oldList = new FieldErrorList();
    const newList = new FieldErrorList();
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 1; i++) oldList.add(required(index("a", i), "x"));
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 3; i++) newList.add(required(index("a", i), "x"));
    const introduced = introducedErrors(newList, oldList);
    expect(introduced.items.length).toBe(0);
    expect(introduced.omitted).toBe(2);
    expect(introduced.isEmpty()).toBe(false);
  });
});
