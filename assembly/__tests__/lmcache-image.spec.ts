import {
  RepositoryCheck,
  checkPayloadRepository,
  isValidPullPolicy,
  effectivePullPolicy,
  payloadImageRef,
  isValidCudagraph,
  isUsablePayloadTag,
} from "../lmcache/image";
import { PAYLOAD_FOOTGUN_REPOSITORY } from "../keys/index";

describe("checkPayloadRepository", () => {
  it("treats empty and whitespace-only repositories as unset (Go TrimSpace)", () => {
    expect(checkPayloadRepository("")).toBe(RepositoryCheck.Unset);
    expect(checkPayloadRepository("  ")).toBe(RepositoryCheck.Unset);
    expect(checkPayloadRepository("\t\n\r\v\f")).toBe(RepositoryCheck.Unset);
    expect(checkPayloadRepository("\u00a0\u3000\u2028")).toBe(RepositoryCheck.Unset);
  });
  it("recognizes exactly the ImageSpec default repository", () => {
    expect(PAYLOAD_FOOTGUN_REPOSITORY).toBe("lmcache/vllm-openai");
    expect(checkPayloadRepository("lmcache/vllm-openai")).toBe(RepositoryCheck.ImageSpecDefault);
  });
  it("a tag after the last '/' is refused; a registry port or a digest is not a tag", () => {
    expect(checkPayloadRepository("reg/p:v1")).toBe(RepositoryCheck.TagInRepository);
    expect(checkPayloadRepository("p:v1")).toBe(RepositoryCheck.TagInRepository);
    expect(checkPayloadRepository("reg:5000/p:v1")).toBe(RepositoryCheck.TagInRepository);
    expect(checkPayloadRepository("reg:5000/p")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("reg:5000/team/p")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("reg/p")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("reg/p@sha256:abc")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("reg/p:v1@sha256:abc")).toBe(RepositoryCheck.Ok);
  });
  it("does not treat near-misses of the default as the default", () => {
    expect(checkPayloadRepository("lmcache/vllm-openai-payload")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("docker.io/lmcache/vllm-openai")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("lmcache/vllm-openai@sha256:abc")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("LMCache/vllm-openai")).toBe(RepositoryCheck.Ok);
  });
  it("reports surrounding or embedded whitespace and control characters", () => {
    expect(checkPayloadRepository(" lmcache/vllm-openai")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p latest")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p\tv1")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p\u0000")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p\u007f")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p\u0085")).toBe(RepositoryCheck.Whitespace);
    expect(checkPayloadRepository("reg/p\u00a0")).toBe(RepositoryCheck.Whitespace);
  });
  it("accepts ordinary and digest repositories", () => {
    expect(checkPayloadRepository("reg/cb-payload")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("registry.example:5000/team/payload")).toBe(RepositoryCheck.Ok);
    expect(checkPayloadRepository("reg/p@sha256:abc")).toBe(RepositoryCheck.Ok);
  });
});

describe("isUsablePayloadTag", () => {
  it("accepts empty and ordinary tags, rejects whitespace and control characters", () => {
    expect(isUsablePayloadTag("")).toBe(true);
    expect(isUsablePayloadTag("v1.2.3")).toBe(true);
    expect(isUsablePayloadTag("v1 ")).toBe(false);
    expect(isUsablePayloadTag("v\n1")).toBe(false);
  });
});

describe("pull policy", () => {
  it("accepts exactly the three Kubernetes pull policies", () => {
    expect(isValidPullPolicy("Always")).toBe(true);
    expect(isValidPullPolicy("Never")).toBe(true);
    expect(isValidPullPolicy("IfNotPresent")).toBe(true);
    expect(isValidPullPolicy("")).toBe(false);
    expect(isValidPullPolicy("always")).toBe(false);
    expect(isValidPullPolicy("Sometimes")).toBe(false);
    expect(isValidPullPolicy("IfNotPresent ")).toBe(false);
  });
  it("defaults only the empty pull policy", () => {
    expect(effectivePullPolicy("")).toBe("IfNotPresent");
    expect(effectivePullPolicy("Always")).toBe("Always");
    expect(effectivePullPolicy("Sometimes")).toBe("Sometimes");
  });
});

describe("payloadImageRef", () => {
  it("appends the tag, or latest when the tag is empty", () => {
    expect(payloadImageRef("reg/cb-payload", "pinned")).toBe("reg/cb-payload:pinned");
    expect(payloadImageRef("reg/cb-payload", "")).toBe("reg/cb-payload:latest");
  });
  it("uses a digest repository as is (D6)", () => {
    expect(payloadImageRef("reg/p@sha256:abc", "")).toBe("reg/p@sha256:abc");
    expect(payloadImageRef("reg/p@sha256:abc", "v1")).toBe("reg/p@sha256:abc");
  });
  it("keeps an embedded tag as upstream does (repo:tag:latest is out of scope)", () => {
    expect(payloadImageRef("reg/p:v1", "")).toBe("reg/p:v1:latest");
  });
});

describe("cudagraph", () => {
  it("accepts exactly eager, piecewise and full_decode_only", () => {
    expect(isValidCudagraph("eager")).toBe(true);
    expect(isValidCudagraph("piecewise")).toBe(true);
    expect(isValidCudagraph("full_decode_only")).toBe(true);
    expect(isValidCudagraph("full")).toBe(false);
    expect(isValidCudagraph("")).toBe(false);
    expect(isValidCudagraph("Eager")).toBe(false);
  });
});
