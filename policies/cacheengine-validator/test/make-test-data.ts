// Writes policies/cacheengine-validator/test_data/ (kwctl formats + cases.yml, docs/test-data.md).
//   node --import tsx policies/cacheengine-validator/test/make-test-data.ts
//
// Every expected message is written out by hand from docs/policies/cacheengine-validator.md (rule
// details, DNS-1123 texts, rendering), never taken from the policy's output.
import { testDataDir, writeTestData } from "../../../tests/helpers/test-data";
import * as yaml from "js-yaml";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const OUT = testDataDir(__dirname);

const clone = (x: Json): Json => JSON.parse(JSON.stringify(x));
/** A number whose JSON spelling JSON.stringify cannot produce (written verbatim). */
const raw = (t: string): string => `@@RAW:${t}@@`;

const GROUP = "lmcache.lmcache.ai";
const PLURAL: Record<string, string> = {
  LMCacheEngine: "lmcacheengines",
  CacheBlendEngine: "cacheblendengines",
  LMCacheCoordinator: "lmcachecoordinators",
};

function cbBase(): Json {
  return {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "CacheBlendEngine",
    metadata: { name: "cb", namespace: "vllm-ns", labels: { app: "cacheblend" } },
    spec: {
      server: { chunkSize: 256 },
      blend: { checkLayer: 1, recompRatio: 0.15 },
      injection: {
        payloadImage: { repository: "reg/cb-payload", tag: "pinned", pullPolicy: "IfNotPresent" },
        cudagraph: "eager",
      },
    },
  };
}
function lmBase(): Json {
  return {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "LMCacheEngine",
    metadata: { name: "lm", namespace: "vllm-ns", labels: { app: "lmcache" } },
    spec: { l1: { sizeGB: 4 } },
  };
}
function withInjection(obj: Json, injection: Json): Json {
  const o = clone(obj);
  o.spec.injection = injection;
  return o;
}
function cbWith(mut: (spec: Json) => void): Json {
  const o = cbBase();
  mut(o.spec);
  return o;
}
function lmWith(mut: (spec: Json) => void): Json {
  const o = lmBase();
  mut(o.spec);
  return o;
}

function request(op: string, obj: Json, oldObj?: Json, kindOverride?: string): Json {
  const kind = kindOverride || (obj && obj.kind) || (oldObj && oldObj.kind);
  const meta = (obj && obj.metadata) || (oldObj && oldObj.metadata) || {};
  const r: Json = {
    uid: "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
    kind: { group: GROUP, version: "v1alpha1", kind },
    resource: { group: GROUP, version: "v1alpha1", resource: PLURAL[kind] },
    requestKind: { group: GROUP, version: "v1alpha1", kind },
    requestResource: { group: GROUP, version: "v1alpha1", resource: PLURAL[kind] },
    name: typeof meta.name === "string" ? meta.name : undefined,
    namespace: typeof meta.namespace === "string" ? meta.namespace : "vllm-ns",
    operation: op,
    userInfo: { username: "kubernetes-admin", groups: ["kubeadm:cluster-admins", "system:authenticated"] },
  };
  if (obj !== undefined) r.object = obj;
  if (oldObj !== undefined) r.oldObject = oldObj;
  r.dryRun = false;
  r.options = {
    apiVersion: "meta.k8s.io/v1",
    kind: op === "CREATE" ? "CreateOptions" : op === "UPDATE" ? "UpdateOptions" : "DeleteOptions",
  };
  return r;
}

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const FOOTGUN =
  "is the ImageSpec default (the vLLM engine image), not a payload image; set repository to your payload image (payloadImage: {} is defaulted to this value)";
const CB_REQ = "must be specified for CacheBlend injection";
const P = (k: string, n: string): string => `${k}.lmcache.lmcache.ai "${n}" is invalid: `;
const one = (k: string, n: string, e: string): string => P(k, n) + e;
const many = (k: string, n: string, es: string[]): string => P(k, n) + "[" + es.join(", ") + "]";
const LM = (e: string): string => one("LMCacheEngine", "lm", e);
const CB = (e: string): string => one("CacheBlendEngine", "cb", e);
const reject = (message: string): Json => ({ allowed: false, code: 422, message });
const accept: Json = { allowed: true };

const FOOTGUN_IMAGE = { repository: "lmcache/vllm-openai", tag: "latest", pullPolicy: "IfNotPresent" };
const LONG_LABEL = "a".repeat(64);
const LONG_BAD_SUBDOMAIN = "Payload-" + "a".repeat(246); // 254 characters, one upper-case letter

const cases: Json[] = [];
function add(name: string, description: string, req: Json, expect: Json, extra: Json = {}): void {
  cases.push({ name, description, request: `request_${name}.json`, req, expect, ...extra });
}

// ---- acceptance cases ----
add("cb-base", "CacheBlend base object, CREATE", request("CREATE", cbBase()), accept);
add("lm-base", "LMCache base object without injection, CREATE", request("CREATE", lmBase()), accept);
add(
  "lm-defaulted-footgun-repository",
  "LMCache payloadImage: {} as stored after CRD defaulting (rule 7)",
  request("CREATE", withInjection(lmBase(), { payloadImage: clone(FOOTGUN_IMAGE) })),
  reject(LM(`spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": ${FOOTGUN}`)),
);
add(
  "cb-defaulted-footgun-repository",
  "CacheBlend with the defaulted lmcache/vllm-openai repository (rule 7)",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.payloadImage = clone(FOOTGUN_IMAGE);
    }),
  ),
  reject(CB(`spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": ${FOOTGUN}`)),
);
add(
  "lm-empty-repository",
  'LMCache repository "" (rule 6)',
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "" } })),
  reject(LM("spec.injection.payloadImage.repository: Required value: must be a non-empty string")),
);
add(
  "lm-blank-repository",
  "LMCache repository of spaces counts as unset (rule 6)",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "  " } })),
  reject(LM("spec.injection.payloadImage.repository: Required value: must be a non-empty string")),
);
add(
  "lm-digest-repository",
  "LMCache repository with @sha256: digest is accepted",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p@sha256:abc" } })),
  accept,
);
add(
  "lm-repository-with-space",
  "LMCache repository containing a space (rule 8)",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p latest" } })),
  reject(LM('spec.injection.payloadImage.repository: Invalid value: "reg/p latest": must not contain whitespace')),
);
add(
  "cb-missing-injection",
  "CacheBlend without spec.injection (rule 4)",
  request(
    "CREATE",
    cbWith((s) => {
      delete s.injection;
    }),
  ),
  reject(CB(`spec.injection: Required value: ${CB_REQ}`)),
);
add(
  "cb-missing-payload-image",
  "CacheBlend injection without payloadImage (rule 5)",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection = { cudagraph: "eager" };
    }),
  ),
  reject(CB(`spec.injection.payloadImage: Required value: ${CB_REQ}`)),
);
add(
  "cb-chunk-size-128",
  "CacheBlend server.chunkSize 128 (rule 1)",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = 128;
    }),
  ),
  reject(CB("spec.server.chunkSize: Invalid value: 128: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)")),
);
add(
  "cb-recomp-ratio-zero",
  "CacheBlend blend.recompRatio 0 is outside (0, 1] (rule 3)",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.recompRatio = 0;
    }),
  ),
  reject(CB("spec.blend.recompRatio: Invalid value: 0: must be in (0.0, 1.0]")),
);
add(
  "cb-recomp-ratio-one",
  "CacheBlend blend.recompRatio 1 is the closed upper bound",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.recompRatio = 1;
    }),
  ),
  accept,
);
add(
  "cb-recomp-ratio-and-check-layer",
  "two violations, reported in rule order (rules 2 and 3)",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.recompRatio = 1.5;
      s.blend.checkLayer = -1;
    }),
  ),
  reject(
    many("CacheBlendEngine", "cb", [
      "spec.blend.checkLayer: Invalid value: -1: must be >= 0",
      "spec.blend.recompRatio: Invalid value: 1.5: must be in (0.0, 1.0]",
    ]),
  ),
);
add(
  "cb-cudagraph-full",
  "CacheBlend cudagraph outside the enum (rule 13)",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.cudagraph = "full";
    }),
  ),
  reject(
    CB(
      'spec.injection.cudagraph: Unsupported value: "full": supported values: "eager", "piecewise", "full_decode_only"',
    ),
  ),
);
add(
  "cb-cudagraph-full-decode-only",
  "CacheBlend cudagraph full_decode_only is accepted",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.cudagraph = "full_decode_only";
    }),
  ),
  accept,
);
add(
  "lm-pull-policy-sometimes",
  "LMCache pullPolicy outside the enum (rule 9)",
  request(
    "CREATE",
    withInjection(lmBase(), { payloadImage: { repository: "reg/p", tag: "v1", pullPolicy: "Sometimes" } }),
  ),
  reject(
    LM(
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "IfNotPresent"',
    ),
  ),
);
add(
  "lm-pull-secret-not-dns1123",
  "LMCache imagePullSecrets name with upper case and underscore (rule 11)",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: [{ name: "Payload_Pull" }] })),
  reject(LM(`spec.injection.imagePullSecrets[0].name: Invalid value: "Payload_Pull": ${SUBDOMAIN}`)),
);
add(
  "lm-pull-secret-empty-name",
  'LMCache imagePullSecrets name "" (rule 10)',
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: [{ name: "" }] })),
  reject(LM("spec.injection.imagePullSecrets[0].name: Required value: must be a non-empty Secret name")),
);
add(
  "lm-target-container-not-dns1123",
  "LMCache targetContainer vLLM is not a DNS-1123 label (rule 12)",
  request("CREATE", withInjection(lmBase(), { targetContainer: "vLLM" })),
  reject(LM(`spec.injection.targetContainer: Invalid value: "vLLM": ${LABEL}`)),
);
add(
  "lm-target-container-empty",
  'LMCache targetContainer "" means the first container',
  request("CREATE", withInjection(lmBase(), { targetContainer: "" })),
  accept,
);
add(
  "lm-target-container-64-chars",
  "LMCache targetContainer of 64 characters (rule 12, length)",
  request("CREATE", withInjection(lmBase(), { targetContainer: LONG_LABEL })),
  reject(LM(`spec.injection.targetContainer: Invalid value: "${LONG_LABEL}": must be no more than 63 characters`)),
);
add(
  "lm-pull-secrets-without-payload-image",
  "LMCache imagePullSecrets without payloadImage is accepted",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: [{ name: "payload-pull" }] })),
  accept,
);
{
  const old = withInjection(lmBase(), { payloadImage: clone(FOOTGUN_IMAGE) });
  const neu = clone(old);
  neu.metadata.labels.team = "inference";
  add(
    "update-preexisting-footgun",
    "UPDATE keeps a pre-existing default repository, only a label changes",
    request("UPDATE", neu, old),
    accept,
  );
}
{
  const old = withInjection(lmBase(), { payloadImage: { repository: "reg/p", tag: "v1", pullPolicy: "IfNotPresent" } });
  const neu = clone(old);
  neu.spec.injection.payloadImage.repository = "lmcache/vllm-openai";
  add(
    "update-introduces-footgun",
    "UPDATE changes repository from reg/p to lmcache/vllm-openai",
    request("UPDATE", neu, old),
    reject(LM(`spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": ${FOOTGUN}`)),
  );
}
{
  const old = cbWith((s) => {
    s.server.chunkSize = 128;
  });
  const neu = cbWith((s) => {
    s.server.chunkSize = 64;
  });
  add(
    "update-chunk-size-changed",
    "UPDATE changes a bad chunkSize 128 into another bad value 64",
    request("UPDATE", neu, old),
    reject(
      CB("spec.server.chunkSize: Invalid value: 64: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)"),
    ),
  );
}
add(
  "lm-injection-is-string",
  "LMCache spec.injection is a string (malformed, never a trap)",
  request(
    "CREATE",
    lmWith((s) => {
      s.injection = "x";
    }),
  ),
  reject(LM('spec.injection: Invalid value: "x": must be an object')),
);
add(
  "cb-injection-is-string",
  "CacheBlend spec.injection is a string: type error instead of rules 4/5",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection = "x";
    }),
  ),
  reject(CB('spec.injection: Invalid value: "x": must be an object')),
);
add(
  "cb-recomp-ratio-string",
  'CacheBlend blend.recompRatio is the string "0.5"',
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.recompRatio = "0.5";
    }),
  ),
  reject(CB('spec.blend.recompRatio: Invalid value: "0.5": must be a number')),
);
add(
  "other-kind",
  "a kind this policy does not know (misconfigured rules) is accepted",
  request("CREATE", {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "LMCacheCoordinator",
    metadata: { name: "coord", namespace: "vllm-ns" },
    spec: { injection: "x" },
  }),
  accept,
);
cases.push({
  name: "settings-unknown-key",
  description: "any settings key is unknown",
  operation: "validate_settings",
  settings: "settings_unknown-key.json",
  settingsBody: { strict: true },
  expect: { valid: false, message: "strict: unknown field" },
});

// ---- rule rows and edges ----
add(
  "cb-chunk-size-256-and-defaults-absent",
  "CacheBlend with server and blend absent (CRD defaults not applied) is accepted",
  request(
    "CREATE",
    cbWith((s) => {
      delete s.server;
      delete s.blend;
    }),
  ),
  accept,
);
add(
  "cb-check-layer-zero",
  "rule 2 boundary: checkLayer 0 is accepted",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.checkLayer = 0;
    }),
  ),
  accept,
);
add(
  "cb-recomp-ratio-just-above-one",
  "rule 3: 1.0000001 is above 1",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.recompRatio = raw("1.0000001");
    }),
  ),
  reject(CB("spec.blend.recompRatio: Invalid value: 1.0000001: must be in (0.0, 1.0]")),
);
add(
  "cb-repository-absent",
  "rule 6: CacheBlend payloadImage without repository",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.payloadImage = { tag: "pinned", pullPolicy: "Always" };
    }),
  ),
  reject(CB("spec.injection.payloadImage.repository: Required value: must be a non-empty string")),
);
add(
  "lm-repository-with-tab",
  "rule 8: a control character is whitespace too; value in Go %q form",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p\tv1" } })),
  reject(LM('spec.injection.payloadImage.repository: Invalid value: "reg/p\\tv1": must not contain whitespace')),
);
add(
  "lm-repository-leading-space",
  "rule 8: surrounding whitespace is rejected (not trimmed)",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: " reg/p" } })),
  reject(LM('spec.injection.payloadImage.repository: Invalid value: " reg/p": must not contain whitespace')),
);
add(
  "lm-tag-with-whitespace",
  "rule 8b (decision): a tag with whitespace is rejected, since the injectors would skip it as payload-image-invalid",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p", tag: "v1 latest" } })),
  reject(LM('spec.injection.payloadImage.tag: Invalid value: "v1 latest": must not contain whitespace')),
);
add(
  "lm-repository-with-tag",
  "rule 8c (decision): a tag in the repository's last path segment, which the injectors would make reg/p:v1:latest",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p:v1" } })),
  reject(
    LM(
      "spec.injection.payloadImage.repository: Invalid value: \"reg/p:v1\": must not contain a tag (a ':' after its last '/'); set the tag in tag",
    ),
  ),
);
add(
  "cb-repository-with-tag-no-slash",
  "rule 8c on CacheBlend: a one-segment repository with a tag",
  request("CREATE", withInjection(cbBase(), { payloadImage: { repository: "p:v1", tag: "v2" } })),
  reject(
    CB(
      "spec.injection.payloadImage.repository: Invalid value: \"p:v1\": must not contain a tag (a ':' after its last '/'); set the tag in tag",
    ),
  ),
);
add(
  "lm-repository-with-registry-port",
  "rule 8c's other side: a ':' before the last '/' is a registry port, accepted",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg:5000/p", tag: "v1" } })),
  accept,
);
add(
  "lm-footgun-with-digest-tag",
  "rule 7 is exact: lmcache/vllm-openai@sha256:… is some other image reference",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "lmcache/vllm-openai@sha256:abc" } })),
  accept,
);
add(
  "cb-pull-policy-sometimes",
  "rule 9 on CacheBlend",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.payloadImage.pullPolicy = "Sometimes";
    }),
  ),
  reject(
    CB(
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "IfNotPresent"',
    ),
  ),
);
add(
  "lm-pull-policy-empty",
  "rule 9: an empty pullPolicy is present and outside the enum",
  request("CREATE", withInjection(lmBase(), { payloadImage: { repository: "reg/p", pullPolicy: "" } })),
  reject(
    LM(
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "": supported values: "Always", "Never", "IfNotPresent"',
    ),
  ),
);
add(
  "lm-pull-secret-name-absent",
  "rule 10: imagePullSecrets item without name",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: [{ name: "ok" }, {}] })),
  reject(LM("spec.injection.imagePullSecrets[1].name: Required value: must be a non-empty Secret name")),
);
add(
  "lm-pull-secret-too-long-and-bad",
  "rule 11: one violation per DNS-1123 message (length, then pattern)",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: [{ name: LONG_BAD_SUBDOMAIN }] })),
  reject(
    many("LMCacheEngine", "lm", [
      `spec.injection.imagePullSecrets[0].name: Invalid value: "${LONG_BAD_SUBDOMAIN}": must be no more than 253 characters`,
      `spec.injection.imagePullSecrets[0].name: Invalid value: "${LONG_BAD_SUBDOMAIN}": ${SUBDOMAIN}`,
    ]),
  ),
);
add(
  "cb-target-container-not-dns1123",
  "rule 12 on CacheBlend",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.targetContainer = "vllm_main";
    }),
  ),
  reject(CB(`spec.injection.targetContainer: Invalid value: "vllm_main": ${LABEL}`)),
);
add(
  "lm-cudagraph-not-checked",
  "rule 13 is CacheBlend only: LMCacheEngine has no cudagraph field",
  request("CREATE", withInjection(lmBase(), { cudagraph: "full", payloadImage: { repository: "reg/p" } })),
  accept,
);
add(
  "lm-server-blend-not-checked",
  "rules 1–3 are CacheBlend only",
  request(
    "CREATE",
    lmWith((s) => {
      s.server = { chunkSize: 128, port: 8000 };
      s.blend = { recompRatio: 7 };
    }),
  ),
  accept,
);
add(
  "cb-unchecked-fields",
  "fields outside the checked table are not checked (eviction.policy, engine image secrets, E2-era injection fields)",
  request(
    "CREATE",
    cbWith((s) => {
      s.eviction = { policy: "??" };
      s.imagePullSecrets = [{ name: "Not_A_Secret" }];
      s.injection.blockSize = "x";
      s.injection.attentionBackend = 7;
      s.injection.env = "y";
    }),
  ),
  accept,
);
add(
  "cb-all-rules",
  "every rule row that can fire together, in evaluation order",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = 512;
      s.blend.checkLayer = -2;
      s.blend.recompRatio = 2;
      s.injection.payloadImage = { repository: "lmcache/vllm-openai", tag: "latest", pullPolicy: "Sometimes" };
      s.injection.imagePullSecrets = [{ name: "" }, { name: "Bad" }];
      s.injection.targetContainer = "-vllm";
      s.injection.cudagraph = "graph";
    }),
  ),
  reject(
    many("CacheBlendEngine", "cb", [
      "spec.server.chunkSize: Invalid value: 512: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)",
      "spec.blend.checkLayer: Invalid value: -2: must be >= 0",
      "spec.blend.recompRatio: Invalid value: 2: must be in (0.0, 1.0]",
      `spec.injection.payloadImage.repository: Invalid value: "lmcache/vllm-openai": ${FOOTGUN}`,
      'spec.injection.payloadImage.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "IfNotPresent"',
      "spec.injection.imagePullSecrets[0].name: Required value: must be a non-empty Secret name",
      `spec.injection.imagePullSecrets[1].name: Invalid value: "Bad": ${SUBDOMAIN}`,
      `spec.injection.targetContainer: Invalid value: "-vllm": ${LABEL}`,
      'spec.injection.cudagraph: Unsupported value: "graph": supported values: "eager", "piecewise", "full_decode_only"',
    ]),
  ),
);
add(
  "cb-spec-absent",
  "CacheBlend without spec: injection is required",
  request("CREATE", {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "CacheBlendEngine",
    metadata: { name: "cb", namespace: "vllm-ns" },
  }),
  reject(CB(`spec.injection: Required value: ${CB_REQ}`)),
);
add(
  "cb-injection-null",
  "null is absent: CacheBlend injection null is Required (rule 4)",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection = null;
    }),
  ),
  reject(CB(`spec.injection: Required value: ${CB_REQ}`)),
);
add(
  "lm-payload-image-null",
  "null is absent: LMCache payloadImage null means no staging",
  request("CREATE", withInjection(lmBase(), { payloadImage: null, targetContainer: "vllm" })),
  accept,
);
add(
  "delete",
  "DELETE (not in the rules) is accepted",
  request("DELETE", undefined, withInjection(lmBase(), { payloadImage: clone(FOOTGUN_IMAGE) })),
  accept,
);
{
  const neu = cbWith((s) => {
    s.server.chunkSize = 128;
  });
  add(
    "update-without-old-object",
    "UPDATE whose oldObject is missing: every violation counts as introduced",
    request("UPDATE", neu, undefined),
    reject(
      CB("spec.server.chunkSize: Invalid value: 128: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)"),
    ),
  );
}
{
  const old = cbWith((s) => {
    s.server.chunkSize = 128;
  });
  const neu = cbWith((s) => {
    s.server.chunkSize = 128;
    s.injection.cudagraph = "full";
  });
  add(
    "update-keeps-old-adds-new",
    "UPDATE rejects only the introduced violation, not the pre-existing chunkSize",
    request("UPDATE", neu, old),
    reject(
      CB(
        'spec.injection.cudagraph: Unsupported value: "full": supported values: "eager", "piecewise", "full_decode_only"',
      ),
    ),
  );
}
{
  const old = cbWith((s) => {
    s.blend.recompRatio = 0;
  });
  add(
    "update-fixes-violation",
    "UPDATE that repairs a violation is accepted",
    request("UPDATE", cbBase(), old),
    accept,
  );
}
// ---- rules 14–36: the operator controller's checks and the IPC / PD schema constraints ----
const POSITIVE = "must be greater than 0";
const UNIT = "must be in (0.0, 1.0]";
const PORT = "must be in [1024, 65535]";
add(
  "lm-operator-fields-valid",
  "LMCache with every field of rules 14-36 set and valid (resp backend, aesgcm serde, coordinator ref)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { policy: "LRU", triggerWatermark: 0.8, evictionRatio: 0.2 };
      s.server = { port: 5555 };
      s.l2Backend = {
        resp: { host: "redis.vllm-ns.svc", port: 6379, authSecretRef: { name: "redis-auth" } },
        serde: { aesgcm: { masterKeySecretRef: { name: "kv-master-key" } } },
      };
      s.coordinator = { ref: { name: "coord" }, heartbeatInterval: 10, l2EventFlushInterval: 5 };
      s.gpuVendor = "nvidia";
      s.hostIPC = false;
      s.isolatedIPC = true;
      s.pd = { nixlSideChannelPort: 5600, nixlLoadFailurePolicy: "fail" };
    }),
  ),
  accept,
);
add(
  "cb-operator-fields-valid",
  "CacheBlend with every field of rules 14-36 set and valid (raw backend, coordinator url)",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.port = 5555;
      s.blend.partialBucket = 4;
      s.l1 = { sizeGB: 8 };
      s.eviction = { triggerWatermark: 1, evictionRatio: 0.1 };
      s.l2Backend = { raw: { type: "fs", config: { path: "/mnt/kv" } } };
      s.coordinator = { ref: {}, url: "http://coord.vllm-ns.svc:9000" };
      s.gpuVendor = "amd";
      s.hostIPC = true;
      s.pd = { nixlSideChannelPort: 5558, nixlLoadFailurePolicy: "ignore" };
    }),
  ),
  accept,
);
add(
  "lm-eviction-policy-noop",
  "eviction.policy noop is not checked (the operator's sources disagree)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { policy: "noop", triggerWatermark: 0.8, evictionRatio: 0.2 };
    }),
  ),
  accept,
);
add(
  "lm-l1-size-zero",
  "l1.sizeGB 0 (rule 14)",
  request(
    "CREATE",
    lmWith((s) => {
      s.l1.sizeGB = 0;
    }),
  ),
  reject(LM(`spec.l1.sizeGB: Invalid value: 0: ${POSITIVE}`)),
);
add(
  "lm-trigger-watermark-zero",
  "eviction.triggerWatermark 0 (rule 15, open lower end)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { triggerWatermark: 0 };
    }),
  ),
  reject(LM(`spec.eviction.triggerWatermark: Invalid value: 0: ${UNIT}`)),
);
add(
  "lm-trigger-watermark-just-inside",
  "eviction.triggerWatermark 0.01 is accepted (rule 15)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { triggerWatermark: 0.01 };
    }),
  ),
  accept,
);
add(
  "lm-trigger-watermark-one",
  "eviction.triggerWatermark 1.0 is accepted (rule 15, closed upper end)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { triggerWatermark: raw("1.0") };
    }),
  ),
  accept,
);
add(
  "lm-trigger-watermark-above-one",
  "eviction.triggerWatermark 1.1 (rule 15)",
  request(
    "CREATE",
    lmWith((s) => {
      s.eviction = { triggerWatermark: 1.1 };
    }),
  ),
  reject(LM(`spec.eviction.triggerWatermark: Invalid value: 1.1: ${UNIT}`)),
);
add(
  "cb-eviction-ratio-above-one",
  "CacheBlend eviction.evictionRatio 1.5 (rule 16)",
  request(
    "CREATE",
    cbWith((s) => {
      s.eviction = { evictionRatio: 1.5 };
    }),
  ),
  reject(CB(`spec.eviction.evictionRatio: Invalid value: 1.5: ${UNIT}`)),
);
add(
  "lm-server-port-80",
  "server.port 80 (rule 17)",
  request(
    "CREATE",
    lmWith((s) => {
      s.server = { port: 80 };
    }),
  ),
  reject(LM(`spec.server.port: Invalid value: 80: ${PORT}`)),
);
add(
  "cb-server-port-65536",
  "CacheBlend server.port 65536 (rule 17)",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.port = 65536;
    }),
  ),
  reject(CB(`spec.server.port: Invalid value: 65536: ${PORT}`)),
);
add(
  "cb-partial-bucket-zero",
  "CacheBlend blend.partialBucket 0 (rule 18)",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.partialBucket = 0;
    }),
  ),
  reject(CB("spec.blend.partialBucket: Invalid value: 0: must be >= 1")),
);
add(
  "lm-l2-backend-empty",
  "l2Backend: {} (rule 19)",
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = {};
    }),
  ),
  reject(LM("spec.l2Backend: Required value: exactly one of resp or raw must be set")),
);
add(
  "lm-l2-backend-resp-and-raw",
  "a valid resp and a valid raw give rule 20 alone",
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = { resp: { host: "r", port: 6379 }, raw: { type: "fs" } };
    }),
  ),
  reject(LM('spec.l2Backend: Invalid value: "": exactly one of resp or raw must be set, got multiple')),
);
add(
  "lm-resp-host-empty-port-zero",
  'resp: {host: "", port: 0} gives rules 21 and 22 in one message',
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = { resp: { host: "", port: 0 } };
    }),
  ),
  reject(
    many("LMCacheEngine", "lm", [
      "spec.l2Backend.resp.host: Required value: must be a non-empty string",
      "spec.l2Backend.resp.port: Invalid value: 0: must be in [1, 65535]",
    ]),
  ),
);
add(
  "cb-resp-port-absent",
  "CacheBlend resp without port: absent counts as 0 (rule 22)",
  request(
    "CREATE",
    cbWith((s) => {
      s.l2Backend = { resp: { host: "r" } };
    }),
  ),
  reject(CB("spec.l2Backend.resp.port: Invalid value: 0: must be in [1, 65535]")),
);
add(
  "lm-resp-auth-secret-ref-without-name",
  "resp.authSecretRef: {} (rule 23)",
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = { resp: { host: "r", port: 6379, authSecretRef: {} } };
    }),
  ),
  reject(LM("spec.l2Backend.resp.authSecretRef.name: Required value: must be non-empty")),
);
add(
  "cb-resp-auth-secret-ref-name-empty",
  'CacheBlend resp.authSecretRef.name "" (rule 23)',
  request(
    "CREATE",
    cbWith((s) => {
      s.l2Backend = { resp: { host: "r", port: 6379, authSecretRef: { name: "" } } };
    }),
  ),
  reject(CB("spec.l2Backend.resp.authSecretRef.name: Required value: must be non-empty")),
);
add(
  "lm-raw-type-empty",
  'raw.type "" (rule 24)',
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = { raw: { type: "" } };
    }),
  ),
  reject(LM("spec.l2Backend.raw.type: Required value: must be a non-empty string")),
);
add(
  "lm-serde-without-type",
  "serde: {} with a valid resp (rule 25)",
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = { resp: { host: "r", port: 6379 }, serde: {} };
    }),
  ),
  reject(LM("spec.l2Backend.serde: Required value: exactly one serde type must be set")),
);
add(
  "cb-aesgcm-master-key-name-empty",
  'CacheBlend serde.aesgcm.masterKeySecretRef.name "" (rule 26)',
  request(
    "CREATE",
    cbWith((s) => {
      s.l2Backend = { raw: { type: "fs" }, serde: { aesgcm: { masterKeySecretRef: { name: "" } } } };
    }),
  ),
  reject(CB("spec.l2Backend.serde.aesgcm.masterKeySecretRef.name: Required value: must be non-empty")),
);
add(
  "lm-serde-with-raw-serde-config",
  "a valid aesgcm serde with a raw adapter whose config sets serde (rule 27)",
  request(
    "CREATE",
    lmWith((s) => {
      s.l2Backend = {
        raw: { type: "fs", config: { serde: { type: "fp8" } } },
        serde: { aesgcm: { masterKeySecretRef: { name: "kv-master-key" } } },
      };
    }),
  ),
  reject(
    LM(
      "spec.l2Backend.serde: Invalid value: \"\": cannot be combined with a raw adapter that sets a 'serde' config key",
    ),
  ),
);
add(
  "lm-coordinator-ref-and-url",
  'coordinator: {ref: {name: c}, url: "http://c"} (rule 28)',
  request(
    "CREATE",
    lmWith((s) => {
      s.coordinator = { ref: { name: "c" }, url: "http://c" };
    }),
  ),
  reject(LM('spec.coordinator: Invalid value: "": exactly one of ref or url must be set, got both')),
);
add(
  "lm-coordinator-empty",
  "coordinator: {} (rule 29)",
  request(
    "CREATE",
    lmWith((s) => {
      s.coordinator = {};
    }),
  ),
  reject(LM("spec.coordinator: Required value: exactly one of ref or url must be set")),
);
add(
  "lm-coordinator-heartbeat-zero",
  "coordinator.heartbeatInterval 0 (rule 30)",
  request(
    "CREATE",
    lmWith((s) => {
      s.coordinator = { url: "http://c", heartbeatInterval: 0 };
    }),
  ),
  reject(LM(`spec.coordinator.heartbeatInterval: Invalid value: 0: ${POSITIVE}`)),
);
add(
  "cb-coordinator-flush-interval-negative",
  "CacheBlend coordinator.l2EventFlushInterval -1 (rule 31)",
  request(
    "CREATE",
    cbWith((s) => {
      s.coordinator = { ref: { name: "c" }, l2EventFlushInterval: -1 };
    }),
  ),
  reject(CB(`spec.coordinator.l2EventFlushInterval: Invalid value: -1: ${POSITIVE}`)),
);
add(
  "lm-gpu-vendor-intel",
  "gpuVendor intel (rule 32)",
  request(
    "CREATE",
    lmWith((s) => {
      s.gpuVendor = "intel";
    }),
  ),
  reject(LM('spec.gpuVendor: Unsupported value: "intel": supported values: "nvidia", "amd"')),
);
add(
  "cb-gpu-vendor-not-a-string",
  "CacheBlend gpuVendor true is the type error, not rule 32",
  request(
    "CREATE",
    cbWith((s) => {
      s.gpuVendor = true;
    }),
  ),
  reject(CB("spec.gpuVendor: Invalid value: true: must be a string")),
);
add(
  "cb-host-ipc-string",
  'CacheBlend hostIPC "true" (rule 33)',
  request(
    "CREATE",
    cbWith((s) => {
      s.hostIPC = "true";
    }),
  ),
  reject(CB('spec.hostIPC: Invalid value: "true": must be a boolean')),
);
add(
  "lm-isolated-ipc-number",
  "isolatedIPC 1 (rule 34)",
  request(
    "CREATE",
    lmWith((s) => {
      s.isolatedIPC = 1;
    }),
  ),
  reject(LM("spec.isolatedIPC: Invalid value: 1: must be a boolean")),
);
add(
  "cb-isolated-ipc-not-checked",
  "CacheBlend isolatedIPC is not checked (rule 34 is LMCache only)",
  request(
    "CREATE",
    cbWith((s) => {
      s.isolatedIPC = "yes";
    }),
  ),
  accept,
);
add(
  "lm-pd-nixl-port-80",
  "pd: {nixlSideChannelPort: 80} (rule 35)",
  request(
    "CREATE",
    lmWith((s) => {
      s.pd = { nixlSideChannelPort: 80 };
    }),
  ),
  reject(LM(`spec.pd.nixlSideChannelPort: Invalid value: 80: ${PORT}`)),
);
add(
  "lm-pd-nixl-port-float-form",
  "pd.nixlSideChannelPort 5600.0 is the integer 5600 (rule 35)",
  request(
    "CREATE",
    lmWith((s) => {
      s.pd = { nixlSideChannelPort: raw("5600.0") };
    }),
  ),
  accept,
);
add(
  "cb-pd-nixl-load-failure-policy-retry",
  "CacheBlend pd.nixlLoadFailurePolicy retry (rule 36)",
  request(
    "CREATE",
    cbWith((s) => {
      s.pd = { nixlLoadFailurePolicy: "retry" };
    }),
  ),
  reject(CB('spec.pd.nixlLoadFailurePolicy: Unsupported value: "retry": supported values: "fail", "ignore"')),
);
add(
  "lm-four-operator-violations",
  "l1.sizeGB, triggerWatermark, evictionRatio 0 and server.port 80: four violations in rule order",
  request(
    "CREATE",
    lmWith((s) => {
      s.server = { port: 80 };
      s.eviction = { evictionRatio: 0, triggerWatermark: 0 };
      s.l1.sizeGB = 0;
    }),
  ),
  reject(
    many("LMCacheEngine", "lm", [
      `spec.l1.sizeGB: Invalid value: 0: ${POSITIVE}`,
      `spec.eviction.triggerWatermark: Invalid value: 0: ${UNIT}`,
      `spec.eviction.evictionRatio: Invalid value: 0: ${UNIT}`,
      `spec.server.port: Invalid value: 80: ${PORT}`,
    ]),
  ),
);
add(
  "lm-operator-fields-wrong-types",
  "wrong JSON types on the paths of rules 14-36 are field errors, in rule order",
  request(
    "CREATE",
    lmWith((s) => {
      s.pd = { nixlSideChannelPort: "5558", nixlLoadFailurePolicy: 1 };
      s.hostIPC = "false";
      s.gpuVendor = ["nvidia"];
      s.coordinator = { url: 8080 };
      s.l2Backend = { resp: "redis" };
      s.server = { port: 5555.5 };
      s.eviction = { triggerWatermark: "0.8" };
      s.l1.sizeGB = "4";
    }),
  ),
  reject(
    many("LMCacheEngine", "lm", [
      'spec.l1.sizeGB: Invalid value: "4": must be a number',
      'spec.eviction.triggerWatermark: Invalid value: "0.8": must be a number',
      "spec.server.port: Invalid value: 5555.5: must be an integer",
      'spec.l2Backend.resp: Invalid value: "redis": must be an object',
      "spec.coordinator.url: Invalid value: 8080: must be a string",
      'spec.gpuVendor: Invalid value: ["nvidia"]: must be a string',
      'spec.hostIPC: Invalid value: "false": must be a boolean',
      'spec.pd.nixlSideChannelPort: Invalid value: "5558": must be an integer',
      "spec.pd.nixlLoadFailurePolicy: Invalid value: 1: must be a string",
    ]),
  ),
);
{
  const old = lmWith((s) => {
    s.server = { port: 80 };
  });
  const neu = lmWith((s) => {
    s.server = { port: 80 };
  });
  neu.metadata.labels.team = "inference";
  add(
    "update-preexisting-server-port",
    "UPDATE of an engine stored with server.port 80, only a label changes",
    request("UPDATE", neu, old),
    accept,
  );
}
{
  const old = lmWith((s) => {
    s.server = { port: 5555 };
  });
  const neu = lmWith((s) => {
    s.server = { port: 80 };
  });
  add(
    "update-introduces-server-port",
    "UPDATE changing server.port from 5555 to 80",
    request("UPDATE", neu, old),
    reject(LM(`spec.server.port: Invalid value: 80: ${PORT}`)),
  );
}
// ---- malformed input (V3): wrong JSON types on checked paths never trap ----
add(
  "lm-spec-is-array",
  "spec is an array",
  request("CREATE", {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "LMCacheEngine",
    metadata: { name: "lm", namespace: "vllm-ns" },
    spec: ["x", 1],
  }),
  reject(LM('spec: Invalid value: ["x",1]: must be an object')),
);
add(
  "cb-spec-is-array",
  "CacheBlend spec is an array: one violation, the rules that need spec are skipped",
  request("CREATE", {
    apiVersion: "lmcache.lmcache.ai/v1alpha1",
    kind: "CacheBlendEngine",
    metadata: { name: "cb", namespace: "vllm-ns" },
    spec: [],
  }),
  reject(CB("spec: Invalid value: []: must be an object")),
);
add(
  "cb-chunk-size-string",
  "chunkSize as a string",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = "256";
    }),
  ),
  reject(CB('spec.server.chunkSize: Invalid value: "256": must be an integer')),
);
add(
  "cb-chunk-size-fraction",
  "chunkSize with a fraction is not an integer",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = 256.5;
    }),
  ),
  reject(CB("spec.server.chunkSize: Invalid value: 256.5: must be an integer")),
);
// an integral number written as a float or with an exponent is that integer (#malformed-input; the API server
// admits it for a schema `integer`), and reaches the policy with its spelling (tools/host/README.md)
add(
  "cb-chunk-size-float-form",
  "chunkSize 256.0 is the integer 256",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = raw("256.0");
    }),
  ),
  accept,
);
add(
  "cb-chunk-size-exponent-form",
  "chunkSize 2.56e2 is the integer 256",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = raw("2.56e2");
    }),
  ),
  accept,
);
add(
  "cb-chunk-size-128-float-form",
  "chunkSize 128.0 is the integer 128 (rule 1, value shown as written)",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = raw("128.0");
    }),
  ),
  reject(
    CB("spec.server.chunkSize: Invalid value: 128.0: must be 256 for CacheBlend (chunk_size == block_size 64 * 4)"),
  ),
);
add(
  "cb-chunk-size-beyond-int32",
  "chunkSize outside int32 (would wrap to 256 if truncated)",
  request(
    "CREATE",
    cbWith((s) => {
      s.server.chunkSize = 4294967552;
    }),
  ),
  reject(CB("spec.server.chunkSize: Invalid value: 4294967552: must be a 32-bit integer")),
);
add(
  "cb-server-is-string",
  "spec.server of the wrong type",
  request(
    "CREATE",
    cbWith((s) => {
      s.server = "256";
    }),
  ),
  reject(CB('spec.server: Invalid value: "256": must be an object')),
);
add(
  "cb-blend-is-list",
  "spec.blend of the wrong type is reported once although two rules read it",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend = [1];
    }),
  ),
  reject(CB("spec.blend: Invalid value: [1]: must be an object")),
);
add(
  "cb-check-layer-bool",
  "checkLayer as a boolean",
  request(
    "CREATE",
    cbWith((s) => {
      s.blend.checkLayer = true;
    }),
  ),
  reject(CB("spec.blend.checkLayer: Invalid value: true: must be an integer")),
);
add(
  "cb-payload-image-is-string",
  "payloadImage as a string: type error instead of rule 5",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.payloadImage = "reg/cb-payload:pinned";
    }),
  ),
  reject(CB('spec.injection.payloadImage: Invalid value: "reg/cb-payload:pinned": must be an object')),
);
add(
  "lm-image-fields-wrong-types",
  "repository, tag and pullPolicy of wrong types, in field order",
  request(
    "CREATE",
    withInjection(lmBase(), { payloadImage: { repository: 42, tag: 1.5, pullPolicy: { always: true } } }),
  ),
  reject(
    many("LMCacheEngine", "lm", [
      "spec.injection.payloadImage.repository: Invalid value: 42: must be a string",
      "spec.injection.payloadImage.tag: Invalid value: 1.5: must be a string",
      'spec.injection.payloadImage.pullPolicy: Invalid value: {"always":true}: must be a string',
    ]),
  ),
);
add(
  "lm-pull-secrets-wrong-types",
  "imagePullSecrets not a list / items not objects / name not a string",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: ["payload-pull", { name: 5 }, null] })),
  reject(
    many("LMCacheEngine", "lm", [
      'spec.injection.imagePullSecrets[0]: Invalid value: "payload-pull": must be an object',
      "spec.injection.imagePullSecrets[1].name: Invalid value: 5: must be a string",
      "spec.injection.imagePullSecrets[2].name: Required value: must be a non-empty Secret name",
    ]),
  ),
);
add(
  "lm-pull-secrets-not-a-list",
  "imagePullSecrets as an object",
  request("CREATE", withInjection(lmBase(), { imagePullSecrets: { name: "payload-pull" } })),
  reject(LM('spec.injection.imagePullSecrets: Invalid value: {"name":"payload-pull"}: must be a list')),
);
add(
  "cb-target-container-and-cudagraph-wrong-types",
  "targetContainer and cudagraph of wrong types",
  request(
    "CREATE",
    cbWith((s) => {
      s.injection.targetContainer = false;
      s.injection.cudagraph = 3;
    }),
  ),
  reject(
    many("CacheBlendEngine", "cb", [
      "spec.injection.targetContainer: Invalid value: false: must be a string",
      "spec.injection.cudagraph: Invalid value: 3: must be a string",
    ]),
  ),
);
add(
  "lm-object-not-an-object",
  "the object itself is not a JSON object",
  (() => {
    const r = request("CREATE", lmBase());
    r.object = "lm";
    return r;
  })(),
  reject(
    'LMCacheEngine.lmcache.lmcache.ai "" is invalid: object: Invalid value: "string": must be a LMCacheEngine object',
  ),
);
add(
  "cb-create-without-object",
  "a CREATE without object is rejected naming the missing object",
  (() => {
    const r = request("CREATE", cbBase());
    delete r.object;
    return r;
  })(),
  reject(
    'CacheBlendEngine.lmcache.lmcache.ai "" is invalid: object: Invalid value: "null": must be a CacheBlendEngine object',
  ),
);
cases.push({
  name: "settings-empty",
  description: "empty settings are valid",
  operation: "validate_settings",
  settings: "settings_empty.json",
  settingsBody: {},
  expect: { valid: true },
});

// which anchors of docs/policies/cacheengine-validator.md each case covers
const COVERS: Record<string, string> = {
  "cb-base": "#rules (1-13, none fire)",
  "lm-base": "#rules (6-12, none fire)",
  "lm-defaulted-footgun-repository": "#rule-7",
  "cb-defaulted-footgun-repository": "#rule-7",
  "lm-empty-repository": "#rule-6",
  "lm-blank-repository": "#rule-6",
  "lm-digest-repository": "#rule-6, #rule-7, #rule-8",
  "lm-repository-with-space": "#rule-8",
  "cb-missing-injection": "#rule-4",
  "cb-missing-payload-image": "#rule-5",
  "cb-chunk-size-128": "#rule-1",
  "cb-recomp-ratio-zero": "#rule-3",
  "cb-recomp-ratio-one": "#rule-3",
  "cb-recomp-ratio-and-check-layer": "#rule-2, #rule-3, #aggregation",
  "cb-cudagraph-full": "#rule-13",
  "cb-cudagraph-full-decode-only": "#rule-13",
  "lm-pull-policy-sometimes": "#rule-9",
  "lm-pull-secret-not-dns1123": "#rule-11",
  "lm-pull-secret-empty-name": "#rule-10",
  "lm-target-container-not-dns1123": "#rule-12",
  "lm-target-container-empty": "#rule-12",
  "lm-target-container-64-chars": "#rule-12",
  "lm-pull-secrets-without-payload-image": "#rule-6, #rule-10, #rule-11",
  "update-preexisting-footgun": "#update",
  "update-introduces-footgun": "#update, #rule-7",
  "update-chunk-size-changed": "#update, #rule-1",
  "lm-injection-is-string": "#malformed-input",
  "cb-injection-is-string": "#malformed-input, #rule-4, #rule-5",
  "cb-recomp-ratio-string": "#malformed-input, #rule-3",
  "other-kind": "#kinds",
  "settings-unknown-key": "#settings",
  "cb-chunk-size-256-and-defaults-absent": "#rule-1, #rule-2, #rule-3",
  "cb-check-layer-zero": "#rule-2",
  "cb-recomp-ratio-just-above-one": "#rule-3",
  "cb-repository-absent": "#rule-6",
  "lm-repository-with-tab": "#rule-8",
  "lm-repository-leading-space": "#rule-8",
  "lm-footgun-with-digest-tag": "#rule-7",
  "lm-repository-with-tag": "#rule-8c, #agreement",
  "cb-repository-with-tag-no-slash": "#rule-8c, #agreement",
  "lm-repository-with-registry-port": "#rule-8c",
  "lm-tag-with-whitespace": "#rule-8b, #agreement",
  "cb-pull-policy-sometimes": "#rule-9",
  "lm-pull-policy-empty": "#rule-9",
  "lm-pull-secret-name-absent": "#rule-10",
  "lm-pull-secret-too-long-and-bad": "#rule-11",
  "cb-target-container-not-dns1123": "#rule-12",
  "lm-cudagraph-not-checked": "#rule-13",
  "lm-server-blend-not-checked": "#rule-1, #rule-2, #rule-3",
  "cb-unchecked-fields": "#not-checked",
  "cb-all-rules": "#rules (1-13, all fire), #aggregation",
  "cb-spec-absent": "#rule-4",
  "cb-injection-null": "#rule-4",
  "lm-payload-image-null": "#rule-6, #rule-7, #rule-8, #rule-9",
  delete: "#kinds",
  "update-without-old-object": "#update",
  "update-keeps-old-adds-new": "#update",
  "update-fixes-violation": "#update",
  "lm-operator-fields-valid": "#rules (14-36, none fire)",
  "cb-operator-fields-valid": "#rules (14-36, none fire)",
  "lm-eviction-policy-noop": "#not-checked",
  "lm-l1-size-zero": "#rule-14",
  "lm-trigger-watermark-zero": "#rule-15",
  "lm-trigger-watermark-just-inside": "#rule-15",
  "lm-trigger-watermark-one": "#rule-15",
  "lm-trigger-watermark-above-one": "#rule-15",
  "cb-eviction-ratio-above-one": "#rule-16",
  "lm-server-port-80": "#rule-17",
  "cb-server-port-65536": "#rule-17",
  "cb-partial-bucket-zero": "#rule-18",
  "lm-l2-backend-empty": "#rule-19",
  "lm-l2-backend-resp-and-raw": "#rule-20",
  "lm-resp-host-empty-port-zero": "#rule-21, #rule-22, #aggregation",
  "cb-resp-port-absent": "#rule-22",
  "lm-resp-auth-secret-ref-without-name": "#rule-23",
  "cb-resp-auth-secret-ref-name-empty": "#rule-23",
  "lm-raw-type-empty": "#rule-24",
  "lm-serde-without-type": "#rule-25",
  "cb-aesgcm-master-key-name-empty": "#rule-26",
  "lm-serde-with-raw-serde-config": "#rule-27",
  "lm-coordinator-ref-and-url": "#rule-28",
  "lm-coordinator-empty": "#rule-29",
  "lm-coordinator-heartbeat-zero": "#rule-30",
  "cb-coordinator-flush-interval-negative": "#rule-31",
  "lm-gpu-vendor-intel": "#rule-32",
  "cb-gpu-vendor-not-a-string": "#rule-32, #malformed-input",
  "cb-host-ipc-string": "#rule-33",
  "lm-isolated-ipc-number": "#rule-34",
  "cb-isolated-ipc-not-checked": "#rule-34",
  "lm-pd-nixl-port-80": "#rule-35",
  "lm-pd-nixl-port-float-form": "#rule-35, #malformed-input",
  "cb-pd-nixl-load-failure-policy-retry": "#rule-36",
  "lm-four-operator-violations": "#rule-14, #rule-15, #rule-16, #rule-17, #aggregation",
  "lm-operator-fields-wrong-types": "#malformed-input",
  "update-preexisting-server-port": "#update, #rule-17",
  "update-introduces-server-port": "#update, #rule-17",
  "lm-spec-is-array": "#malformed-input",
  "cb-spec-is-array": "#malformed-input",
  "cb-chunk-size-string": "#malformed-input, #rule-1",
  "cb-chunk-size-fraction": "#malformed-input, #rule-1",
  "cb-chunk-size-beyond-int32": "#malformed-input, #rule-1",
  "cb-chunk-size-float-form": "#malformed-input, #rule-1",
  "cb-chunk-size-exponent-form": "#malformed-input, #rule-1",
  "cb-chunk-size-128-float-form": "#malformed-input, #rule-1",
  "cb-server-is-string": "#malformed-input",
  "cb-blend-is-list": "#malformed-input",
  "cb-check-layer-bool": "#malformed-input, #rule-2",
  "cb-payload-image-is-string": "#malformed-input, #rule-5",
  "lm-image-fields-wrong-types": "#malformed-input",
  "lm-pull-secrets-wrong-types": "#malformed-input, #rule-10",
  "lm-pull-secrets-not-a-list": "#malformed-input",
  "cb-target-container-and-cudagraph-wrong-types": "#malformed-input",
  "lm-object-not-an-object": "#malformed-input",
  "cb-create-without-object": "#malformed-input",
  "settings-empty": "#settings",
};
for (const c of cases) {
  if (COVERS[c.name]) c.covers = [COVERS[c.name]];
}
const missingCovers = cases.filter((c) => !COVERS[c.name]).map((c) => c.name);
if (missingCovers.length) throw new Error(`no covers: ${missingCovers.join(", ")}`);
// ---- write ----
const fix = (s: string): string => s.replace(/"@@RAW:([^@]*)@@"/g, "$1");
const files = new Map<string, string>();
const index: Json[] = [];
for (const c of cases) {
  const entry: Json = { name: c.name, description: c.description };
  const covers = [...(c.covers || [])];
  if (covers.length) entry.covers = covers.join(", ");
  if (c.operation) entry.operation = c.operation;
  if (c.request) {
    entry.request = c.request;
    files.set(c.request, fix(JSON.stringify(c.req, null, 2)) + "\n");
  }
  if (c.settings) {
    entry.settings = c.settings;
    files.set(c.settings, JSON.stringify(c.settingsBody) + "\n");
  }
  if (c.expect.allowed !== undefined) entry.expect = { ...c.expect, warnings: [] };
  else entry.expect = c.expect;
  index.push(entry);
}
const header =
  "# cacheengine-validator e2e cases (format: docs/test-data.md). `covers` names the rows of\n" +
  "# docs/policies/cacheengine-validator.md: #rule-N, #update, #malformed-input and so on.\n" +
  "# Numbers reach the policy as written (256.0, 2.56e2), as policy-server delivers them; 1e400 cannot\n" +
  "# be delivered at all (serde_json rejects it), so it is unit-tested in assembly/__tests__/rules.spec.ts.\n";
writeTestData(
  OUT,
  index.map((e) => e.name),
  files,
  header + yaml.dump(index, { lineWidth: -1 }),
);
