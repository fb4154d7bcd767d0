import {
  FieldErrorList,
  FieldErrorType,
  fieldErrorFromCheck,
  checkNfsServer,
  checkMountPath,
  forbidden,
  internalError,
  introducedErrors,
  invalidBool,
  invalidInt,
  invalidNull,
  invalidRaw,
  invalidString,
  newPath,
  childPath,
  notSupportedRaw,
  notSupportedString,
  qualifiedKind,
  required,
  splitCommaList,
  supportedValuesDetail,
  MAX_REPORTED_ERRORS,
  MAX_COLLECTED_ERRORS,
} from "../validate/index";
import { p } from "./paths";

const P = 'CacheBackend.inferencecache.io "sglang-hicache-l3-nfs" is invalid: ';

describe("field error rendering", () => {
  it("Required", () => {
    expect(required(p("spec.hiCache.storagePrefetchPolicy"), "required when remoteStorage.provider=NFS").render()).toBe(
      "spec.hiCache.storagePrefetchPolicy: Required value: required when remoteStorage.provider=NFS",
    );
  });
  it("Forbidden", () => {
    expect(
      forbidden(
        p("spec.remoteStorage.endpoint"),
        "NFS uses remoteStorage.nfs.server and path instead of an endpoint",
      ).render(),
    ).toBe("spec.remoteStorage.endpoint: Forbidden: NFS uses remoteStorage.nfs.server and path instead of an endpoint");
  });
  it("Invalid string uses %q", () => {
    expect(
      invalidString(
        p("spec.remoteStorage.nfs.server"),
        " 10.0.0.25",
        "must not contain surrounding whitespace",
      ).render(),
    ).toBe('spec.remoteStorage.nfs.server: Invalid value: " 10.0.0.25": must not contain surrounding whitespace');
    expect(invalidString(p("x"), "a\nb", "d").render()).toBe('x: Invalid value: "a\\nb": d');
  });
  it("Invalid raw: numbers, booleans, JSON", () => {
    expect(invalidRaw(p("spec.blend.recompRatio"), "1.5", "must be in (0.0, 1.0]").render()).toBe(
      "spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]",
    );
    expect(
      invalidInt(
        p("spec.server.chunkSize"),
        128,
        "must be 256 for CacheBlend (chunk_size == block_size 64 * 4)",
      ).render(),
    ).toBe("spec.server.chunkSize: Invalid value: 128: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)");
    expect(invalidInt(p("spec.blend.checkLayer"), -1, "must be >= 0").render()).toBe(
      "spec.blend.checkLayer: Invalid value: -1: must be >= 0",
    );
    expect(
      invalidBool(
        p("spec.integration.failOpen"),
        true,
        "must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency",
      ).render(),
    ).toBe(
      "spec.integration.failOpen: Invalid value: true: must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency",
    );
    expect(
      invalidRaw(p("spec.hiCache"), '{"sizeGB":8,"ratio":"2"}', "sizeGB and ratio are mutually exclusive").render(),
    ).toBe('spec.hiCache: Invalid value: {"sizeGB":8,"ratio":"2"}: sizeGB and ratio are mutually exclusive');
  });
  it('Invalid null renders "null"', () => {
    expect(invalidNull(p("spec.x"), "must be a string").render()).toBe(
      'spec.x: Invalid value: "null": must be a string',
    );
  });
  it("NotSupported string", () => {
    expect(
      notSupportedString(p("spec.hiCache.storagePrefetchPolicy"), "forever", [
        "best_effort",
        "wait_complete",
        "timeout",
      ]).render(),
    ).toBe(
      'spec.hiCache.storagePrefetchPolicy: Unsupported value: "forever": supported values: "best_effort", "wait_complete", "timeout"',
    );
    expect(notSupportedString(p("spec.remoteStorage.ownership"), "Managed", ["External"]).render()).toBe(
      'spec.remoteStorage.ownership: Unsupported value: "Managed": supported values: "External"',
    );
  });
  it("NotSupported raw (boolean)", () => {
    expect(notSupportedRaw(p("spec.integration.failOpen"), "false", ["true"]).render()).toBe(
      'spec.integration.failOpen: Unsupported value: false: supported values: "true"',
    );
  });
  it("NotSupported with no supported values", () => {
    expect(notSupportedString(p("f"), "x", []).render()).toBe('f: Unsupported value: "x"');
    expect(supportedValuesDetail([])).toBe("");
  });
  it("Internal error", () => {
    expect(internalError(p("spec"), "boom").render()).toBe("spec: Internal error: boom");
  });
  it("empty detail omits the trailing colon", () => {
    expect(required(p("f"), "").render()).toBe("f: Required value");
    expect(invalidString(p("f"), "v", "").render()).toBe('f: Invalid value: "v"');
  });
  it("value texts for UPDATE comparison", () => {
    expect(invalidString(p("f"), 'a"b', "d").rawValue).toBe('a"b');
    expect(invalidInt(p("f"), 7, "d").rawValue).toBe("7");
    expect(required(p("f"), "d").rawValue).toBe("");
    expect(forbidden(p("f"), "d").rawValue).toBe("");
    expect(notSupportedString(p("f"), "x", ["y"]).rawValue).toBe("x");
    expect(notSupportedString(p("f"), "x", ["y"]).type).toBe(FieldErrorType.NotSupported);
  });
  it("from a single-value check", () => {
    const ok = fieldErrorFromCheck(p("spec.remoteStorage.nfs.server"), "10.0.0.25", checkNfsServer("10.0.0.25"));
    expect(ok === null).toBe(true);
    const r = fieldErrorFromCheck(p("spec.remoteStorage.nfs.server"), "", checkNfsServer(""));
    expect(r !== null).toBe(true);
    if (r !== null)
      expect(r.render()).toBe(
        "spec.remoteStorage.nfs.server: Required value: NFS mount-target hostname or IP address is required",
      );
    const m = fieldErrorFromCheck(p("spec.remoteStorage.nfs.mountPath"), "/dev/shm", checkMountPath("/dev/shm"));
    if (m !== null)
      expect(m.render()).toBe(
        'spec.remoteStorage.nfs.mountPath: Invalid value: "/dev/shm": must not mount remote storage over /proc, /sys or /dev',
      );
    else expect(m !== null).toBe(true);
  });
});

describe("aggregation", () => {
  it("no errors", () => {
    const l = new FieldErrorList();
    expect(l.isEmpty()).toBe(true);
    expect(l.aggregateText()).toBe("");
  });
  it("one error", () => {
    const l = new FieldErrorList();
    l.add(invalidString(p("spec.remoteStorage.nfs.server"), "0.0.0.0", "must not be the unspecified address"));
    expect(l.invalidMessage("CacheBackend", "inferencecache.io", "sglang-hicache-l3-nfs")).toBe(
      P + 'spec.remoteStorage.nfs.server: Invalid value: "0.0.0.0": must not be the unspecified address',
    );
  });
  it("several errors in order, bracketed", () => {
    const l = new FieldErrorList();
    l.add(invalidInt(p("spec.blend.checkLayer"), -1, "must be >= 0"));
    l.add(invalidRaw(p("spec.blend.recompRatio"), "1.5", "must be in (0.0, 1.0]"));
    expect(l.invalidMessage("CacheBlendEngine", "lmcache.lmcache.ai", "cb")).toBe(
      'CacheBlendEngine.lmcache.lmcache.ai "cb" is invalid: [spec.blend.checkLayer: Invalid value: -1: must be >= 0, spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]]',
    );
  });
  it("duplicates appear once; a single distinct error is not bracketed", () => {
    const l = new FieldErrorList();
    l.add(invalidString(p("spec.integration.engine"), "", "SGLangHiCache requires integration.engine=sglang"));
    l.add(invalidString(p("spec.integration.engine"), "", "SGLangHiCache requires integration.engine=sglang"));
    expect(l.length).toBe(2);
    expect(l.aggregateText()).toBe(
      'spec.integration.engine: Invalid value: "": SGLangHiCache requires integration.engine=sglang',
    );
    l.add(forbidden(p("spec.autoscaling"), "x"));
    l.add(invalidString(p("spec.integration.engine"), "", "SGLangHiCache requires integration.engine=sglang"));
    expect(l.aggregateText()).toBe(
      '[spec.integration.engine: Invalid value: "": SGLangHiCache requires integration.engine=sglang, spec.autoscaling: Forbidden: x]',
    );
  });
  it("object name is %q-quoted; empty name", () => {
    const l = new FieldErrorList();
    l.add(invalidString(p("object"), "x", "must be a CacheBackend object"));
    expect(l.invalidMessage("CacheBackend", "inferencecache.io", "")).toBe(
      'CacheBackend.inferencecache.io "" is invalid: object: Invalid value: "x": must be a CacheBackend object',
    );
  });
  it("addMaybe, addAll, one violation per message", () => {
    const l = new FieldErrorList();
    l.addMaybe(null);
    l.addMaybe(required(p("a"), "b"));
    const other = new FieldErrorList();
    other.addInvalidStringPerMessage(
      newPath("env").index(0).child("name"),
      "1BAD",
      ["m1", "m2"],
      "invalid env var name: ",
    );
    l.addAll(other);
    expect(l.length).toBe(3);
    expect(l.items[2].render()).toBe('env[0].name: Invalid value: "1BAD": invalid env var name: m2');
  });
  it("qualified kind", () => {
    expect(qualifiedKind("Pod", "")).toBe("Pod");
    expect(qualifiedKind("CacheBackend", "inferencecache.io")).toBe("CacheBackend.inferencecache.io");
  });
});

describe("UPDATE introduced-errors filter", () => {
  it("pre-existing violation is not introduced", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidString(p("spec.endpoint"), "10.0.0.1:80", "d"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidString(p("spec.endpoint"), "10.0.0.1:80", "d"));
    expect(introducedErrors(newErrs, oldErrs).isEmpty()).toBe(true);
  });
  it("changed value on the same field is introduced", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidInt(p("spec.server.chunkSize"), 128, "must be 256"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidInt(p("spec.server.chunkSize"), 64, "must be 256"));
    const d = introducedErrors(newErrs, oldErrs);
    expect(d.length).toBe(1);
    expect(d.items[0].render()).toBe("spec.server.chunkSize: Invalid value: 64: must be 256");
  });
  it("new violation next to old ones: only the new one stays, in order", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(forbidden(p("spec.a"), "x"));
    const newErrs = new FieldErrorList();
    newErrs.add(required(p("spec.b"), "y"));
    newErrs.add(forbidden(p("spec.a"), "x"));
    newErrs.add(invalidString(p("spec.c"), "/", "z"));
    const d = introducedErrors(newErrs, oldErrs);
    expect(d.length).toBe(2);
    expect(d.items[0].field).toBe("spec.b");
    expect(d.items[1].field).toBe("spec.c");
  });
  it("type, field and detail are part of the tuple", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(forbidden(p("spec.a"), "x"));
    const newErrs = new FieldErrorList();
    newErrs.add(required(p("spec.a"), "x"));
    newErrs.add(forbidden(p("spec.b"), "x"));
    newErrs.add(forbidden(p("spec.a"), "x2"));
    expect(introducedErrors(newErrs, oldErrs).length).toBe(3);
  });
  it("string and number with the same text compare equal by value text", () => {
    const oldErrs = new FieldErrorList();
    oldErrs.add(invalidString(p("spec.x"), "8", "d"));
    const newErrs = new FieldErrorList();
    newErrs.add(invalidRaw(p("spec.x"), "8", "d"));
    expect(introducedErrors(newErrs, oldErrs).length).toBe(0);
  });
  it("no old errors: all introduced", () => {
    const newErrs = new FieldErrorList();
    newErrs.add(required(p("a"), "b"));
    expect(introducedErrors(newErrs, new FieldErrorList()).length).toBe(1);
  });
  it("through the table: tuples that differ only in where one part ends, and repeated tuples", () => {
    const oldErrs = new FieldErrorList();
    const newErrs = new FieldErrorList();
    for (let i = 0; i < 100; i++) {
      oldErrs.add(invalidString(p("spec.a"), "b" + i.toString(), "c"));
      oldErrs.add(invalidString(p("spec.a"), "b" + i.toString(), "c"));
    }
    for (let i = 0; i < 100; i++) {
      newErrs.add(invalidString(p("spec.a"), "b" + i.toString(), "c"));
      // the same units as an old tuple, split differently between value and detail
      newErrs.add(invalidString(p("spec.a"), "b" + i.toString() + "c", ""));
      newErrs.add(invalidString(p("spec.a"), "b" + i.toString(), "c"));
    }
    const d = introducedErrors(newErrs, oldErrs);
    expect(d.length).toBe(100);
    for (let i = 0; i < 100; i++) expect(d.items[i].rawValue).toBe("b" + i.toString() + "c");
  });
  it("gives the same answer compared pairwise (old x new <= 4,096) and through tuple keys (above)", () => {
    // 64 x 64 is compared in place, 64 x 65 through the key set; both keep exactly the changed,
    // retyped and added errors, in order
    const sizes: i32[] = [64, 65];
    for (let k = 0; k < sizes.length; k++) {
      const oldErrs = new FieldErrorList();
      for (let i = 0; i < 64; i++) oldErrs.add(invalidInt(p("spec.f" + i.toString()), 1, "d"));
      const newErrs = new FieldErrorList();
      for (let i = 0; i < sizes[k]; i++) {
        if (i == 3) newErrs.add(invalidInt(p("spec.f3"), 2, "d"));
        else if (i == 5) newErrs.add(invalidInt(p("spec.f5"), 1, "other"));
        else if (i == 7) newErrs.add(required(p("spec.f7"), "d"));
        else newErrs.add(invalidInt(p("spec.f" + i.toString()), 1, "d"));
      }
      const d = introducedErrors(newErrs, oldErrs);
      expect(d.length).toBe(sizes[k] == 64 ? 3 : 4);
      expect(d.items[0].render()).toBe("spec.f3: Invalid value: 2: d");
      expect(d.items[1].render()).toBe("spec.f5: Invalid value: 1: other");
      expect(d.items[2].field).toBe("spec.f7");
      if (sizes[k] == 65) expect(d.items[3].field).toBe("spec.f64");
    }
  });
});

describe("field paths", () => {
  it("child, index, key render as Kubernetes prints them", () => {
    expect(newPath("spec").child("hiCache").toString()).toBe("spec.hiCache");
    expect(newPath("spec").toString()).toBe("spec");
    expect(childPath(null, "spec").toString()).toBe("spec");
    expect(childPath(newPath("spec"), "x").toString()).toBe("spec.x");
    expect(newPath("spec").child("integration").child("engineOverrides").child("args").index(3).toString()).toBe(
      "spec.integration.engineOverrides.args[3]",
    );
    expect(newPath("spec").child("backendConfig").key("model").toString()).toBe("spec.backendConfig[model]");
    expect(newPath("metadata").child("annotations").key("inferencecache.io/lmcache-kernel-check").toString()).toBe(
      "metadata.annotations[inferencecache.io/lmcache-kernel-check]",
    );
    expect(newPath("env").index(0).child("name").toString()).toBe("env[0].name");
    expect(newPath("a").index(-1).index(2147483647).key("").toString()).toBe("a[-1][2147483647][]");
  });
  it("a path is a value: children share their parent and leave it unchanged", () => {
    const spec = newPath("spec");
    const a = spec.child("a");
    const b = spec.child("b").index(0);
    expect(a.toString()).toBe("spec.a");
    expect(b.toString()).toBe("spec.b[0]");
    expect(spec.toString()).toBe("spec");
  });
  it("addInvalidStringPerMessage renders the path for each message, nothing for none", () => {
    const l = new FieldErrorList();
    l.addInvalidStringPerMessage(newPath("x").index(1), "v", []);
    expect(l.isEmpty()).toBe(true);
    l.addInvalidStringPerMessage(newPath("x").index(1), "v", ["m1", "m2"], "p: ");
    expect(l.distinctMessages()).toStrictEqual(['x[1]: Invalid value: "v": p: m1', 'x[1]: Invalid value: "v": p: m2']);
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
    for (let i = 0; i < 250; i++)
      list.add(required(newPath("spec").child("items").index(i).child("name"), "must be set"));
    const text = list.aggregateText();
    expect(text.startsWith("[spec.items[0].name: Required value: must be set, ")).toBe(true);
    expect(text.includes("spec.items[99].name: Required value: must be set, and 150 more]")).toBe(true);
    expect(text.includes("spec.items[100].name")).toBe(false);
  });
  it("keeps every error when there are exactly MAX_REPORTED_ERRORS", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < MAX_REPORTED_ERRORS; i++) list.add(required(newPath("a").index(i), "x"));
    expect(list.aggregateText().endsWith("a[99]: Required value: x]")).toBe(true);
  });
  it("bound MAX_REPORTED_ERRORS from both sides: just below, at, just above, far above", () => {
    const rendered = (n: i32): string => {
      const list = new FieldErrorList();
      for (let i = 0; i < n; i++) list.add(required(newPath("a").index(i), "x"));
      return list.aggregateText();
    };
    expect(rendered(MAX_REPORTED_ERRORS - 1).endsWith("a[98]: Required value: x]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS).endsWith("a[99]: Required value: x]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS + 1).endsWith("a[99]: Required value: x, and 1 more]")).toBe(true);
    expect(rendered(MAX_REPORTED_ERRORS * 5).endsWith("a[99]: Required value: x, and 400 more]")).toBe(true);
  });
  it("counts every violation after the last shown one, without rendering them", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < 101; i++) list.add(required(newPath("a").index(i), "x"));
    list.add(required(newPath("a").index(0), "x"));
    expect(list.aggregateText().endsWith("a[99]: Required value: x, and 2 more]")).toBe(true);
  });
});

describe("FieldErrorList collection limit", () => {
  it("keeps MAX_COLLECTED_ERRORS violations and counts the rest", () => {
    const list = new FieldErrorList();
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 5; i++) list.add(required(newPath("a").index(i), "x"));
    expect(list.items.length).toBe(MAX_COLLECTED_ERRORS);
    expect(list.omitted).toBe(5);
    expect(list.length).toBe(MAX_COLLECTED_ERRORS + 5);
    expect(list.full).toBe(true);
    expect(
      list
        .aggregateText()
        .endsWith("a[99]: Required value: x, and " + (MAX_COLLECTED_ERRORS + 5 - 100).toString() + " more]"),
    ).toBe(true);
  });
  it("bound MAX_COLLECTED_ERRORS from both sides: just below, at, just above, far above", () => {
    for (let k = 0; k < 4; k++) {
      const n =
        k == 0
          ? MAX_COLLECTED_ERRORS - 1
          : k == 1
            ? MAX_COLLECTED_ERRORS
            : k == 2
              ? MAX_COLLECTED_ERRORS + 1
              : MAX_COLLECTED_ERRORS * 3;
      const list = new FieldErrorList();
      for (let i = 0; i < n; i++) list.add(required(newPath("a").index(i), "x"));
      expect(list.items.length).toBe(min(n, MAX_COLLECTED_ERRORS));
      expect(list.omitted).toBe(max(0, n - MAX_COLLECTED_ERRORS));
      expect(list.length).toBe(n);
      expect(list.full).toBe(n >= MAX_COLLECTED_ERRORS);
    }
  });
  it("an UPDATE with more uncollected violations than before counts the difference as introduced", () => {
    const oldList = new FieldErrorList();
    const newList = new FieldErrorList();
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 1; i++) oldList.add(required(newPath("a").index(i), "x"));
    for (let i = 0; i < MAX_COLLECTED_ERRORS + 3; i++) newList.add(required(newPath("a").index(i), "x"));
    const introduced = introducedErrors(newList, oldList);
    expect(introduced.items.length).toBe(0);
    expect(introduced.omitted).toBe(2);
    expect(introduced.isEmpty()).toBe(false);
  });
});
