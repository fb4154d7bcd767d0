import {
  DNS1123_LABEL_MAX_LENGTH_MESSAGE,
  DNS1123_LABEL_PATTERN_MESSAGE,
  DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE,
  DNS1123_SUBDOMAIN_PATTERN_MESSAGE,
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  isDns1123Label,
  isDns1123Subdomain,
  isDns1123SubdomainBytes,
} from "../validate/index";

function repeat(c: string, n: i32): string {
  return c.repeat(n);
}

describe("DNS-1123 message texts", () => {
  it("subdomain pattern text", () => {
    expect(DNS1123_SUBDOMAIN_PATTERN_MESSAGE).toBe(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  });
  it("label pattern text", () => {
    expect(DNS1123_LABEL_PATTERN_MESSAGE).toBe(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  });
  it("length texts", () => {
    expect(DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE).toBe("must be no more than 253 characters");
    expect(DNS1123_LABEL_MAX_LENGTH_MESSAGE).toBe("must be no more than 63 characters");
  });
});

describe("DNS-1123 label", () => {
  it("accepts valid labels", () => {
    const ok = ["a", "0", "vllm", "my-name", "123-abc", "a-b-c", repeat("a", 63)];
    for (let i = 0; i < ok.length; i++) {
      expect(isDns1123Label(ok[i])).toBe(true, ok[i]);
      expect(dns1123LabelErrors(ok[i]).length).toBe(0, ok[i]);
    }
  });
  it("rejects pattern violations with one message", () => {
    const bad = ["", "vLLM", "-a", "a-", "a.b", "a_b", "a b", "é"];
    for (let i = 0; i < bad.length; i++) {
      expect(isDns1123Label(bad[i])).toBe(false, bad[i]);
      expect(dns1123LabelErrors(bad[i])).toStrictEqual([DNS1123_LABEL_PATTERN_MESSAGE], bad[i]);
    }
  });
  it("length bound 63 from both sides: just below, at, just above, far above", () => {
    expect(dns1123LabelErrors(repeat("a", 62))).toStrictEqual(new Array<string>());
    expect(isDns1123Label(repeat("a", 62))).toBe(true);
    expect(dns1123LabelErrors(repeat("a", 63))).toStrictEqual(new Array<string>());
    expect(isDns1123Label(repeat("a", 63))).toBe(true);
    expect(dns1123LabelErrors(repeat("a", 64))).toStrictEqual([DNS1123_LABEL_MAX_LENGTH_MESSAGE]);
    expect(isDns1123Label(repeat("a", 64))).toBe(false);
    expect(dns1123LabelErrors(repeat("a", 1000))).toStrictEqual([DNS1123_LABEL_MAX_LENGTH_MESSAGE]);
    expect(isDns1123Label(repeat("a", 1000))).toBe(false);
  });
  it("64 characters: length message only", () => {
    expect(isDns1123Label(repeat("a", 64))).toBe(false);
    expect(dns1123LabelErrors(repeat("a", 64))).toStrictEqual([DNS1123_LABEL_MAX_LENGTH_MESSAGE]);
  });
  it("too long and bad pattern: both messages, length first", () => {
    expect(dns1123LabelErrors(repeat("A", 64))).toStrictEqual([
      DNS1123_LABEL_MAX_LENGTH_MESSAGE,
      DNS1123_LABEL_PATTERN_MESSAGE,
    ]);
  });
  it("length counts UTF-8 bytes like Go", () => {
    expect(dns1123LabelErrors(repeat("é", 32))).toStrictEqual([
      DNS1123_LABEL_MAX_LENGTH_MESSAGE,
      DNS1123_LABEL_PATTERN_MESSAGE,
    ]);
    expect(dns1123LabelErrors(repeat("é", 31))).toStrictEqual([DNS1123_LABEL_PATTERN_MESSAGE]);
  });
});

describe("DNS-1123 subdomain", () => {
  it("accepts valid subdomains", () => {
    const ok = ["a", "example.com", "payload-pull", "a.b.c", "0.0", "xn--bcher-kva.example", repeat("a", 64) + ".com"];
    for (let i = 0; i < ok.length; i++) {
      expect(isDns1123Subdomain(ok[i])).toBe(true, ok[i]);
      expect(dns1123SubdomainErrors(ok[i]).length).toBe(0, ok[i]);
    }
  });
  it("isDns1123SubdomainBytes agrees with isDns1123Subdomain on the UTF-8 bytes", () => {
    const s253 = repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 63) + "." + repeat("d", 61);
    const texts = [
      "a",
      "example.com",
      "a.b.c",
      "",
      "Payload_Pull",
      ".a",
      "a.",
      "a..b",
      "a-.b",
      "é",
      "aé",
      s253,
      s253 + "e",
      "-a",
    ];
    for (let i = 0; i < texts.length; i++) {
      const bytes = Uint8Array.wrap(String.UTF8.encode(texts[i]));
      expect(isDns1123SubdomainBytes(bytes.dataStart, 0, bytes.length)).toBe(isDns1123Subdomain(texts[i]), texts[i]);
    }
  });
  it("rejects pattern violations with one message", () => {
    const bad = ["", "Payload_Pull", ".a", "a.", "a..b", "a.-b", "a-.b", "a/b", "ns/name", "a b"];
    for (let i = 0; i < bad.length; i++) {
      expect(isDns1123Subdomain(bad[i])).toBe(false, bad[i]);
      expect(dns1123SubdomainErrors(bad[i])).toStrictEqual([DNS1123_SUBDOMAIN_PATTERN_MESSAGE], bad[i]);
    }
  });
  it("length bound 253 from both sides: just below, at, just above, far above", () => {
    const s253 = repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 63) + "." + repeat("d", 61);
    const none = new Array<string>();
    expect(dns1123SubdomainErrors(s253.slice(1))).toStrictEqual(none);
    expect(isDns1123Subdomain(s253.slice(1))).toBe(true);
    expect(dns1123SubdomainErrors(s253)).toStrictEqual(none);
    expect(dns1123SubdomainErrors(s253 + "e")).toStrictEqual([DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE]);
    const far =
      repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 63) + "." + repeat("d", 63) + "." + repeat("e", 500);
    expect(dns1123SubdomainErrors(far)).toStrictEqual([DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE]);
    expect(isDns1123Subdomain(far)).toBe(false);
  });
  it("253 characters accepted, 254 rejected with the length message", () => {
    const s253 = repeat("a", 63) + "." + repeat("b", 63) + "." + repeat("c", 63) + "." + repeat("d", 61);
    expect(s253.length).toBe(253);
    expect(isDns1123Subdomain(s253)).toBe(true);
    const s254 = s253 + "e";
    expect(isDns1123Subdomain(s254)).toBe(false);
    expect(dns1123SubdomainErrors(s254)).toStrictEqual([DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE]);
  });
  it("too long and bad pattern: both messages", () => {
    expect(dns1123SubdomainErrors(repeat("A", 254))).toStrictEqual([
      DNS1123_SUBDOMAIN_MAX_LENGTH_MESSAGE,
      DNS1123_SUBDOMAIN_PATTERN_MESSAGE,
    ]);
  });
});
