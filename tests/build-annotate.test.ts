// The annotator (docs/wasm-contract.md#annotator): section byte layout, kwctl's canonical key order
// and defaults, usage from README, refusal of annotated modules, metadata.yml validation messages,
// and an annotated module that behaves exactly like the original.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import * as yaml from "js-yaml";
import { annotateFiles, annotateModule, AnnotateError } from "../tools/wasm/annotate";
import { artifacthubWarnings, MetadataError, metadataProblems, resourcesProblems } from "../tools/wasm/metadata";
import { PolicyModule } from "../tools/host/guest";
import { listSections, METADATA_SECTION } from "../tools/wasm/wasm";
import { guestWasm } from "./guests/build-gates/guests";

const RULE = { apiGroups: [""], apiVersions: ["v1"], resources: ["pods"], operations: ["CREATE"] };

let good: Buffer;
let tmp: string;

before(async () => {
  good = await guestWasm("good", {});
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-annotate-test-"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function annotate(metadata: Record<string, unknown>, usage?: string, wasm: Buffer = good) {
  return annotateModule({ wasm, wasmLabel: "policy.wasm", metadata, metadataLabel: "metadata.yml", usage });
}

/** The metadata.yml problems for a YAML text, as the annotator reports them. */
function yamlFailure(text: string): string {
  try {
    annotate(yaml.load(text) as Record<string, unknown>);
  } catch (e) {
    assert.ok(e instanceof MetadataError, `expected MetadataError, got ${String(e)}`);
    return e.message;
  }
  assert.fail("annotation unexpectedly succeeded");
}

describe("annotator: section", () => {
  test("byte layout: id 0, LEB128 size, name length 22, name, compact JSON; original bytes untouched", () => {
    const { bytes, json } = annotate({ rules: [RULE], mutating: false });
    assert.ok(bytes.subarray(0, good.length).equals(good), "the module is only appended to");
    const tail = bytes.subarray(good.length);
    const payload = Buffer.from(json, "utf8");
    assert.equal(tail[0], 0x00);
    // size = 1 (name length byte) + 22 + payload; the fixture payload needs a 2-byte LEB128
    const size = 1 + 22 + payload.length;
    assert.ok(size >= 128 && size < 16384);
    assert.deepEqual([...tail.subarray(1, 3)], [(size & 0x7f) | 0x80, size >> 7]);
    assert.equal(tail[3], 22);
    assert.equal(tail.subarray(4, 26).toString("utf8"), METADATA_SECTION);
    assert.ok(tail.subarray(26).equals(payload));
    assert.equal(tail.length, 3 + size);
    const decoded = WebAssembly.Module.customSections(new WebAssembly.Module(new Uint8Array(bytes)), METADATA_SECTION);
    assert.equal(decoded.length, 1);
    assert.ok(Buffer.from(decoded[0]).equals(payload));
    assert.equal(listSections(bytes).at(-1)?.name, METADATA_SECTION);
  });

  test("canonical key order and defaults (kwctl's Metadata struct order)", () => {
    const { json } = annotate({
      minimumKubewardenVersion: "1.17.0",
      hostCapabilities: ["kubernetes/list_resources_by_namespace", "kubernetes/get_resource"],
      contextAwareResources: [{ kind: "ConfigMap", apiVersion: "v1" }],
      mutating: true,
      annotations: { "io.kubewarden.policy.version": "0.1.0", "io.kubewarden.policy.title": "demo" },
      rules: [{ operations: ["CREATE"], resources: ["pods"], apiVersions: ["v1"], apiGroups: [""] }],
      someLegacyKey: true,
      contextAware: true,
    });
    assert.equal(
      json,
      '{"protocolVersion":"v1","rules":[{"apiGroups":[""],"apiVersions":["v1"],"resources":["pods"],"operations":["CREATE"]}],' +
        '"annotations":{"io.kubewarden.policy.title":"demo","io.kubewarden.policy.version":"0.1.0"},' +
        '"mutating":true,"backgroundAudit":true,"executionMode":"kubewarden-wapc","policyType":"kubernetes",' +
        '"contextAwareResources":[{"apiVersion":"v1","kind":"ConfigMap"}],' +
        '"hostCapabilities":["kubernetes/get_resource","kubernetes/list_resources_by_namespace"],' +
        '"minimumKubewardenVersion":"1.17.0"}',
    );
  });

  test("minimal metadata gets every default and no optional key", () => {
    assert.equal(
      annotate({ rules: [], mutating: false }).json,
      '{"protocolVersion":"v1","rules":[],"mutating":false,"backgroundAudit":true,"executionMode":"kubewarden-wapc","policyType":"kubernetes","contextAwareResources":[]}',
    );
  });

  test("explicit values override the defaults", () => {
    const m = annotate({ rules: [], mutating: true, backgroundAudit: false, policyType: "raw" }).metadata;
    assert.equal(m.backgroundAudit, false);
    assert.equal(m.policyType, "raw");
  });

  test("contextAwareResources sorted by apiVersion then kind, duplicates dropped (BTreeSet)", () => {
    const m = annotate({
      rules: [RULE],
      mutating: true,
      contextAwareResources: [
        { apiVersion: "v1", kind: "Secret" },
        { apiVersion: "lmcache.lmcache.ai/v1alpha1", kind: "LMCacheEngine" },
        { apiVersion: "v1", kind: "ConfigMap" },
        { apiVersion: "lmcache.lmcache.ai/v1alpha1", kind: "CacheBlendEngine" },
        { apiVersion: "v1", kind: "ConfigMap" },
      ],
    }).metadata;
    assert.deepEqual(m.contextAwareResources, [
      { apiVersion: "lmcache.lmcache.ai/v1alpha1", kind: "CacheBlendEngine" },
      { apiVersion: "lmcache.lmcache.ai/v1alpha1", kind: "LMCacheEngine" },
      { apiVersion: "v1", kind: "ConfigMap" },
      { apiVersion: "v1", kind: "Secret" },
    ]);
  });

  test("usage comes from the README, replacing any usage in metadata.yml", () => {
    const readme = '# Policy\n\nSettings:\n\n```yaml\nkey: "value"\n```\n';
    const m = annotate(
      { rules: [RULE], mutating: false, annotations: { "io.kubewarden.policy.usage": "old" } },
      readme,
    ).metadata;
    assert.equal(m.annotations?.["io.kubewarden.policy.usage"], readme);
  });

  test("protocolVersion in metadata.yml is overwritten by the module's own answer", () => {
    assert.equal(annotate({ rules: [], mutating: false, protocolVersion: "Unknown" }).metadata.protocolVersion, "v1");
  });

  test("refuses a module that already has the section", () => {
    const once = annotate({ rules: [RULE], mutating: false }).bytes;
    assert.throws(
      () => annotate({ rules: [RULE], mutating: false }, undefined, once),
      (e: unknown) =>
        e instanceof AnnotateError &&
        e.message ===
          `policy.wasm: already carries 1 ${METADATA_SECTION} section(s); annotate the unannotated policy.wasm`,
    );
  });

  test('refuses a module whose protocol_version is not "v1"', async () => {
    const v2 = await guestWasm("v2", { protocolVersion: '"v2"' });
    assert.throws(
      () => annotate({ rules: [], mutating: false }, undefined, v2),
      (e: unknown) =>
        e instanceof AnnotateError &&
        e.message === 'policy.wasm: protocol_version returned `"v2"` (4 bytes), expected exactly `"v1"` (4 bytes)',
    );
  });

  test("refuses a module that cannot link (names the import)", async () => {
    const env = await guestWasm("env", { extraImports: '(import "env" "abort" (func (param i32 i32 i32 i32)))' });
    assert.throws(() => annotate({ rules: [], mutating: false }, undefined, env), /env::abort/);
  });

  for (const [what, line, named] of [
    ["a wapc function outside the nine", '(import "wapc" "__bogus" (func (param i32 i32)))', "wapc::__bogus"],
    ["a wapc global", '(import "wapc" "__console_log" (global i32))', "wapc::__console_log"],
  ]) {
    test(`refuses a module importing ${what} before calling it (names the import)`, async () => {
      const bogus = await guestWasm("bogus", { extraImports: line });
      assert.throws(
        () => annotate({ rules: [], mutating: false }, undefined, bogus),
        (e: unknown) =>
          e instanceof AnnotateError &&
          e.message ===
            `policy.wasm: unknown import: ${named} has not been defined (only the wapc host functions are provided)`,
      );
    });
  }

  test("refuses another executionMode", () => {
    assert.match(
      yamlFailure("rules: []\nmutating: false\nexecutionMode: opa\n"),
      /^metadata\.yml: executionMode: "opa" is not supported/,
    );
  });

  test("the annotated module behaves identically", () => {
    const annotated = annotate({ rules: [RULE], mutating: false }).bytes;
    const a = PolicyModule.fromBytes(good, "original");
    const b = PolicyModule.fromBytes(annotated, "annotated");
    for (const [op, payload] of [
      ["protocol_version", ""],
      ["validate_settings", "{}"],
      ["validate", '{"request":{}}'],
      ["nope", ""],
    ]) {
      // Compare what the host observes; timing and memory fields are not behaviour.
      const observed = (r: ReturnType<PolicyModule["call"]>) => ({
        ok: r.ok,
        response: r.response?.toString("utf8"),
        error: r.error,
        trapped: r.trapped,
        trap: r.trap,
      });
      assert.deepEqual(observed(b.call(op, payload)), observed(a.call(op, payload)), op);
    }
  });

  test("annotateFiles reads metadata.yml + README and writes the module; errors name the file", () => {
    const wasmPath = path.join(tmp, "policy.wasm");
    const metaPath = path.join(tmp, "metadata.yml");
    const readmePath = path.join(tmp, "README.md");
    const outPath = path.join(tmp, "annotated-policy.wasm");
    fs.writeFileSync(wasmPath, good);
    fs.writeFileSync(
      metaPath,
      "rules:\n  - apiGroups: ['']\n    apiVersions: [v1]\n    resources: [pods]\n    operations: [CREATE]\nmutating: false\n",
    );
    fs.writeFileSync(readmePath, "# usage\n");
    const r = annotateFiles({ wasmPath, metadataPath: metaPath, usagePath: readmePath, outPath });
    assert.ok(fs.readFileSync(outPath).equals(r.bytes));
    assert.equal(r.metadata.annotations?.["io.kubewarden.policy.usage"], "# usage\n");
    fs.writeFileSync(metaPath, "rules: [\n");
    assert.throws(
      () => annotateFiles({ wasmPath, metadataPath: metaPath, outPath }),
      (e: unknown) => (e as Error).message.startsWith(`${metaPath}: invalid YAML:`),
    );
    assert.throws(
      () => annotateFiles({ wasmPath: path.join(tmp, "missing.wasm"), metadataPath: metaPath, outPath }),
      /missing\.wasm: cannot read module \(ENOENT: no such file \(check the path\)\)/,
    );
  });
});

describe("annotator: metadata.yml validation (schema + kwctl's rules)", () => {
  const rules = "rules:\n  - apiGroups: ['']\n    apiVersions: [v1]\n    resources: [pods]\n    operations: [CREATE]\n";

  test("missing rules", () => {
    assert.equal(yamlFailure("mutating: false\n"), "metadata.yml: rules: required key is missing");
  });

  test("missing mutating", () => {
    assert.equal(yamlFailure(rules), "metadata.yml: mutating: required key is missing");
  });

  test("wrong types name the key path", () => {
    assert.equal(
      yamlFailure(`${rules}mutating: "no"\nbackgroundAudit: 1\n`),
      "metadata.yml: mutating: must be boolean; backgroundAudit: must be boolean",
    );
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: ['']\n    apiVersions: [v1]\n    resources: [pods]\n    operations: [CREAT]\nmutating: false\n",
      ),
      'metadata.yml: rules[0].operations[0]: must be one of "CREATE", "UPDATE", "DELETE", "CONNECT", "*"',
    );
    assert.equal(
      yamlFailure(`${rules}mutating: false\nannotations:\n  io.kubewarden.policy.version: 1.0\n`),
      "metadata.yml: annotations.io.kubewarden.policy.version: must be string",
    );
  });

  test("'*' mixed with other operations", () => {
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: ['']\n    apiVersions: [v1]\n    resources: [pods]\n    operations: ['*', CREATE]\nmutating: false\n",
      ),
      `metadata.yml: rules[0].operations: '*' must be alone (found "*", "CREATE")`,
    );
  });

  test("'*' mixed in apiGroups / apiVersions", () => {
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: ['*', apps]\n    apiVersions: [v1, '*']\n    resources: [pods]\n    operations: [CREATE]\nmutating: false\n",
      ),
      `metadata.yml: rules[0].apiGroups: '*' must be alone (found "*", "apps"); rules[0].apiVersions: '*' must be alone (found "v1", "*")`,
    );
  });

  test("'*/*' not alone", () => {
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: ['']\n    apiVersions: [v1]\n    resources: ['*/*', pods]\n    operations: [CREATE]\nmutating: false\n",
      ),
      "metadata.yml: rules[0].resources: if '*/*' is present, must not specify other resources",
    );
  });

  test("empty apiGroups (and every other empty rule list)", () => {
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: []\n    apiVersions: [v1]\n    resources: [pods]\n    operations: [CREATE]\nmutating: false\n",
      ),
      "metadata.yml: rules[0].apiGroups: must not be empty",
    );
    assert.equal(
      yamlFailure(
        "rules:\n  - apiGroups: ['']\n    apiVersions: []\n    resources: []\n    operations: []\nmutating: false\n",
      ),
      "metadata.yml: rules[0].apiVersions: must not be empty; rules[0].resources: must not be empty; rules[0].operations: must not be empty",
    );
  });

  test("bad title", () => {
    assert.equal(
      yamlFailure(`${rules}mutating: false\nannotations:\n  io.kubewarden.policy.title: LMCache_Injector\n`),
      "metadata.yml: annotations.io.kubewarden.policy.title: \"LMCache_Injector\" is not an RFC 1123 lowercase name (a-z, 0-9, '-', '.'; starts and ends alphanumeric)",
    );
  });

  test("hostCapabilities under annotations", () => {
    assert.equal(
      yamlFailure(
        `${rules}mutating: false\nannotations:\n  io.kubewarden.policy.title: demo\n  hostCapabilities:\n    - kubernetes/get_resource\n`,
      ),
      "metadata.yml: annotations.hostCapabilities: hostCapabilities is a top-level key, not an annotation (annotations is a string map)",
    );
  });

  test("contextAwareResources entries need a non-empty apiVersion and kind", () => {
    assert.equal(
      yamlFailure(
        `${rules}mutating: true\ncontextAwareResources:\n  - apiVersion: ''\n    kind: ConfigMap\n  - apiVersion: v1\n`,
      ),
      "metadata.yml: contextAwareResources[1].kind: required key is missing",
    );
    assert.equal(
      yamlFailure(`${rules}mutating: true\ncontextAwareResources:\n  - apiVersion: ''\n    kind: ConfigMap\n`),
      "metadata.yml: contextAwareResources[0].apiVersion: must not be empty",
    );
  });

  test("minimumKubewardenVersion must be semver", () => {
    assert.equal(
      yamlFailure(`${rules}mutating: false\nminimumKubewardenVersion: "1.17"\n`),
      "metadata.yml: minimumKubewardenVersion: must be a semantic version X.Y.Z",
    );
  });

  test("resources rules (Kubernetes validateResources, order-independent)", () => {
    assert.deepEqual(resourcesProblems(["pods", "pods/status"]), []);
    assert.deepEqual(resourcesProblems(["*", "a/b", "a/*", "*/b"]), [
      "if 'a/*' is present, must not specify a/b",
      "if '*/b' is present, must not specify a/b",
    ]);
    assert.deepEqual(resourcesProblems(["a/*", "a"]), []);
    assert.deepEqual(resourcesProblems(["a/x", "a/*"]), ["if 'a/*' is present, must not specify a/x"]);
    assert.deepEqual(resourcesProblems(["*/a", "x/a"]), ["if '*/a' is present, must not specify x/a"]);
    assert.deepEqual(resourcesProblems(["*", "a"]), [
      "if '*' is present, must not specify other resources without subresources (found a)",
    ]);
    assert.deepEqual(resourcesProblems(["pods", ""]), ["empty resource is not allowed"]);
  });

  test("artifacthub fields are warnings, not errors", () => {
    assert.deepEqual(artifacthubWarnings({ rules: [], mutating: false }), [
      "annotations.io.kubewarden.policy.version is missing (artifacthub version)",
      "annotations.io.kubewarden.policy.title is missing (artifacthub name)",
      "annotations.io.artifacthub.displayName is missing (artifacthub displayName)",
      "annotations.io.kubewarden.policy.description is missing (artifacthub description)",
      "annotations.io.kubewarden.policy.ociUrl is missing (artifacthub containersImages)",
    ]);
    const annotations = {
      "io.kubewarden.policy.version": "v0.1",
      "io.kubewarden.policy.title": "demo",
      "io.artifacthub.displayName": "Demo",
      "io.kubewarden.policy.description": "d",
      "io.kubewarden.policy.ociUrl": "ghcr.io/x/demo",
      "io.artifacthub.keywords": "a, ,b",
      "io.kubewarden.policy.url": "github.com/x",
    };
    assert.deepEqual(artifacthubWarnings({ annotations }), [
      'annotations.io.kubewarden.policy.version: "v0.1" is not semver',
      "annotations.io.artifacthub.keywords: empty keyword in the comma-separated list",
      'annotations.io.kubewarden.policy.url: "github.com/x" is not a URL',
    ]);
    assert.deepEqual(
      annotate({ rules: [], mutating: false, annotations }).metadata.annotations?.["io.kubewarden.policy.url"],
      "github.com/x",
    );
  });

  test("the cachewarden policies' rules are valid", () => {
    const injector = {
      protocolVersion: "v1",
      rules: [RULE],
      mutating: true,
      backgroundAudit: false,
      contextAwareResources: [{ apiVersion: "v1", kind: "ConfigMap" }],
      hostCapabilities: ["kubernetes/get_resource"],
    };
    const validator = {
      protocolVersion: "v1",
      rules: [
        {
          apiGroups: ["lmcache.lmcache.ai"],
          apiVersions: ["v1alpha1"],
          resources: ["lmcacheengines", "cacheblendengines"],
          operations: ["CREATE", "UPDATE"],
        },
      ],
      mutating: false,
    };
    assert.deepEqual(metadataProblems(injector, { requireProtocolVersion: true }), []);
    assert.deepEqual(metadataProblems(validator, { requireProtocolVersion: true }), []);
  });
});
