import {
  NFS_SERVER_INVALID_DETAIL,
  NFS_SERVER_REQUIRED_DETAIL,
  NFS_SERVER_UNSPECIFIED_DETAIL,
  NFS_SERVER_WHITESPACE_DETAIL,
  checkNfsServer,
  isGoIp,
  parseGoIp,
} from "../validate/index";

function accepted(v: string): void {
  const r = checkNfsServer(v);
  expect(r.ok).toBe(true, v);
  expect(r.detail).toBe("", v);
}
function invalid(v: string, detail: string): void {
  const r = checkNfsServer(v);
  expect(r.ok).toBe(false, v);
  expect(r.required).toBe(false, v);
  expect(r.detail).toBe(detail, v);
}

describe("NFS server: accepted IPs", () => {
  it("10.0.0.25", () => {
    accepted("10.0.0.25");
  });
  it("2001:db8::25", () => {
    accepted("2001:db8::25");
  });
  it("2001:DB8::25", () => {
    accepted("2001:DB8::25");
  });
  it("::1", () => {
    accepted("::1");
  });
  it("::ffff:10.0.0.1", () => {
    accepted("::ffff:10.0.0.1");
  });
  it("192.0.2.10 (sample)", () => {
    accepted("192.0.2.10");
  });
});

describe("NFS server: accepted hostnames", () => {
  it("nfs.example.com", () => {
    accepted("nfs.example.com");
  });
  it("nfs-server", () => {
    accepted("nfs-server");
  });
  it("xn--bcher-kva.example", () => {
    accepted("xn--bcher-kva.example");
  });
  it("63-character label", () => {
    accepted("a".repeat(63) + ".com");
  });
  it("digits with a letter", () => {
    accepted("1.2.3.4a");
  });
});

describe("NFS server: unspecified (V1)", () => {
  it("0.0.0.0", () => {
    invalid("0.0.0.0", NFS_SERVER_UNSPECIFIED_DETAIL);
  });
  it("::", () => {
    invalid("::", NFS_SERVER_UNSPECIFIED_DETAIL);
  });
  it("::ffff:0.0.0.0", () => {
    invalid("::ffff:0.0.0.0", NFS_SERVER_UNSPECIFIED_DETAIL);
  });
  it("0:0:0:0:0:0:0:0", () => {
    invalid("0:0:0:0:0:0:0:0", NFS_SERVER_UNSPECIFIED_DETAIL);
  });
  it("::0.0.0.0 and 0::0", () => {
    invalid("::0.0.0.0", NFS_SERVER_UNSPECIFIED_DETAIL);
    invalid("0::0", NFS_SERVER_UNSPECIFIED_DETAIL);
  });
});

describe("NFS server: numeric non-IPs (V1)", () => {
  it("999.1.1.1", () => {
    invalid("999.1.1.1", NFS_SERVER_INVALID_DETAIL);
  });
  it("1.2.3", () => {
    invalid("1.2.3", NFS_SERVER_INVALID_DETAIL);
  });
  it("010.0.0.1", () => {
    invalid("010.0.0.1", NFS_SERVER_INVALID_DETAIL);
  });
  it("1234", () => {
    invalid("1234", NFS_SERVER_INVALID_DETAIL);
  });
  it("1.2.3.4.5", () => {
    invalid("1.2.3.4.5", NFS_SERVER_INVALID_DETAIL);
  });
});

describe("NFS server: other rejections", () => {
  it("64-character label (V1)", () => {
    invalid("a".repeat(64) + ".com", NFS_SERVER_INVALID_DETAIL);
  });
  it("[2001:db8::25]", () => {
    invalid("[2001:db8::25]", NFS_SERVER_INVALID_DETAIL);
  });
  it("fe80::1%eth0", () => {
    invalid("fe80::1%eth0", NFS_SERVER_INVALID_DETAIL);
  });
  it("NFS.example.com", () => {
    invalid("NFS.example.com", NFS_SERVER_INVALID_DETAIL);
  });
  it("nfs.example.com.", () => {
    invalid("nfs.example.com.", NFS_SERVER_INVALID_DETAIL);
  });
  it("nfs.example.com:2049", () => {
    invalid("nfs.example.com:2049", NFS_SERVER_INVALID_DETAIL);
  });
  it("nfs://10.0.0.25", () => {
    invalid("nfs://10.0.0.25", NFS_SERVER_INVALID_DETAIL);
  });
  it("host?query", () => {
    invalid("host?query", NFS_SERVER_INVALID_DETAIL);
  });
  it("@", () => {
    invalid("@", NFS_SERVER_INVALID_DETAIL);
  });
  it("-option", () => {
    invalid("-option", NFS_SERVER_INVALID_DETAIL);
  });
  it("nfs_server", () => {
    invalid("nfs_server", NFS_SERVER_INVALID_DETAIL);
  });
  it("a..b", () => {
    invalid("a..b", NFS_SERVER_INVALID_DETAIL);
  });
  it("inner space", () => {
    invalid("nfs server", NFS_SERVER_INVALID_DETAIL);
  });
  it("254-character name", () => {
    invalid(("a".repeat(62) + ".").repeat(4) + "ab", NFS_SERVER_INVALID_DETAIL);
  });
});

describe("NFS server: whitespace and required", () => {
  it("leading space", () => {
    invalid(" 10.0.0.25", NFS_SERVER_WHITESPACE_DETAIL);
  });
  it("trailing newline", () => {
    invalid("10.0.0.25\n", NFS_SERVER_WHITESPACE_DETAIL);
  });
  it("Unicode whitespace (U+00A0, U+3000, U+0085)", () => {
    invalid("\u00a010.0.0.25", NFS_SERVER_WHITESPACE_DETAIL);
    invalid("nfs\u3000", NFS_SERVER_WHITESPACE_DETAIL);
    invalid("\u0085nfs", NFS_SERVER_WHITESPACE_DETAIL);
  });
  it("blank and empty are Required", () => {
    const vals = ["   ", "", "\t\n"];
    for (let i = 0; i < vals.length; i++) {
      const r = checkNfsServer(vals[i]);
      expect(r.ok).toBe(false);
      expect(r.required).toBe(true);
      expect(r.detail).toBe(NFS_SERVER_REQUIRED_DETAIL);
    }
  });
});

describe("Go net.ParseIP", () => {
  it("IPv4 bytes in mapped form", () => {
    const ip = parseGoIp("10.0.0.25");
    expect(ip.ok).toBe(true);
    expect(ip.isV4Literal).toBe(true);
    expect(ip.bytes[10]).toBe(0xff);
    expect(ip.bytes[15]).toBe(25);
  });
  it("accepts IPv6 forms", () => {
    const ok = [
      "::",
      "::1",
      "1::",
      "1::2",
      "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:1.2.3.4",
      "::1.2.3.4",
      "1::1.2.3.4",
      "FFFF::abcd",
      "0000:0:00:000:0:0:0:1",
      "::ffff:255.255.255.255",
      "1:2:3:4:5:6:7::",
      "::2:3:4:5:6:7:8",
    ];
    for (let i = 0; i < ok.length; i++) expect(isGoIp(ok[i])).toBe(true, ok[i]);
  });
  it("rejects malformed IPv6", () => {
    const bad = [
      ":",
      ":::",
      "1:::2",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7",
      "12345::1",
      "1::2:",
      ":1::2",
      "g::1",
      "1:2:3:4:5:6:7:8::",
      "::1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7:1.2.3.4",
      "1:2:3:4:5:1.2.3.4",
      "::01.2.3.4",
      "::1.2.3",
      "::1.2.3.4:5",
      "fe80::1%",
      "fe80::1%eth0",
      "[::1]",
      "::ffff:256.0.0.1",
      "1.2.3.4::",
    ];
    for (let i = 0; i < bad.length; i++) expect(isGoIp(bad[i])).toBe(false, bad[i]);
  });
  it("rejects malformed IPv4", () => {
    const bad = [
      "",
      "1",
      "1.2.3",
      "1.2.3.4.5",
      "256.1.1.1",
      "01.1.1.1",
      "1.1.1.00",
      ".1.2.3",
      "1.2.3.",
      "1..2.3",
      "1.2.3.4 ",
      "1.2.3.-4",
      "%1",
      "1.2.3.4/8",
      "１.2.3.4",
    ];
    for (let i = 0; i < bad.length; i++) expect(isGoIp(bad[i])).toBe(false, bad[i]);
  });
  it("0 octets are fine without leading zeros", () => {
    expect(isGoIp("0.10.100.255")).toBe(true);
  });
  it("unspecified detection", () => {
    expect(parseGoIp("0.0.0.0").isUnspecified()).toBe(true);
    expect(parseGoIp("::").isUnspecified()).toBe(true);
    expect(parseGoIp("::ffff:0.0.0.0").isUnspecified()).toBe(true);
    expect(parseGoIp("::0.0.0.1").isUnspecified()).toBe(false);
    expect(parseGoIp("::ffff:0.0.0.1").isUnspecified()).toBe(false);
    expect(parseGoIp("0:0:0:0:0:fffe::").isUnspecified()).toBe(false);
    expect(parseGoIp("bogus").isUnspecified()).toBe(false);
  });
});

describe("NFS server (docs/shared-rules.md#nfs-server): bounds, each from both sides (just below, at, just above, far above)", () => {
  it("a hostname label of at most 63 characters", () => {
    accepted("a".repeat(62) + ".com");
    accepted("a".repeat(63) + ".com");
    invalid("a".repeat(64) + ".com", NFS_SERVER_INVALID_DETAIL);
    invalid("a".repeat(1000) + ".com", NFS_SERVER_INVALID_DETAIL);
  });
  it("an IPv4 octet of at most 255", () => {
    accepted("10.0.0.254");
    accepted("10.0.0.255");
    invalid("10.0.0.256", NFS_SERVER_INVALID_DETAIL);
    invalid("10.0.0.9999", NFS_SERVER_INVALID_DETAIL);
  });
});
