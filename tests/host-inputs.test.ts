// The inputs of an evaluation as `cachewarden run` and cases.yml read them (tools/host/README.md):
// request files (AdmissionRequest, AdmissionReview, plain manifest), settings files and
// --settings-json, the request bytes a guest receives, and the policy's metadata section.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  loadAdmissionRequest,
  loadSettings,
  parseSettingsJson,
  pluralResource,
  requestForGuest,
  toAdmissionRequest,
  toSettings,
  MANIFEST_REQUEST_UID,
} from "../tools/host/request";
import { metadataContextAwareResources, readPolicyMetadata } from "../tools/host/metadata";
import { parseJsonOrYaml } from "../tools/host/documents";
import { serdeJson } from "../tools/host/serde";

const bare = {
  uid: "u",
  kind: { group: "", version: "v1", kind: "Pod" },
  resource: { group: "", version: "v1", resource: "pods" },
  operation: "CREATE",
  userInfo: { username: "alice" },
};

/** The bytes a guest receives for a document read from `text`. */
const bytes = (text: string) => serdeJson(parseJsonOrYaml(text, "in.yml"));

function withDir(body: (dir: string) => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-inputs-"));
  try {
    body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("documents", () => {
  test("YAML scalars: floats stay floats, integers integers, non-finite floats are null", () => {
    assert.equal(
      bytes("a: 1.5\nb: 256.0\nc: 7\nd: .inf\ne: -.inf\nf: .nan\ng: true\nh: text\ni: ~\nj: [1, 2.0]\nk: {x: 0.1}\n"),
      '{"a":1.5,"b":256.0,"c":7,"d":null,"e":null,"f":null,"g":true,"h":"text","i":null,"j":[1,2.0],"k":{"x":0.1}}',
    );
    // an integer beyond 2^53 is written as the f64 it becomes
    assert.equal(bytes("a: 123456789012345678901\n"), '{"a":1.2345678901234568e+20}');
    assert.equal(bytes("a: 9007199254740991\n"), '{"a":9007199254740991}');
    assert.equal(bytes("a: 1e3\n"), '{"a":1000.0}');
  });

  test("JSON is read first, number texts kept; text that is neither names the source and the parser's first line", () => {
    assert.equal(bytes('{"a": 1.50, "b": 1e2}'), '{"a":1.5,"b":100.0}');
    // JSON keeps an integer beyond 2^53 exactly and lets a repeated key win; YAML would not
    assert.equal(bytes('{"a": 12345678901234567890, "b": 1, "b": 2}'), '{"a":12345678901234567890,"b":2}');
    assert.throws(() => parseJsonOrYaml("a: [1,\n", "r.yml"), {
      message: "r.yml: neither JSON nor YAML: deficient indentation (2:1)",
    });
  });

  test("a number serde_json cannot hold is refused, however deep", () => {
    for (const text of ['{"a":[{"b":1e400}]}', "[[-1e400]]"]) {
      assert.throws(() => parseJsonOrYaml(text, "r.json"), /^Error: r\.json: number out of range: -?1e400$/, text);
    }
  });
});

describe("requests", () => {
  test("a bare AdmissionRequest: every required key, in kwctl's order; null is missing; other nulls dropped", () => {
    assert.deepEqual(toAdmissionRequest({ ...bare, name: null, dryRun: false }, "r.json"), { ...bare, dryRun: false });
    for (const key of ["uid", "kind", "resource", "operation", "userInfo"]) {
      for (const value of [undefined, null]) {
        const req: Record<string, unknown> = { ...bare, [key]: value };
        if (value === undefined) delete req[key];
        assert.throws(() => toAdmissionRequest(req, "r.json"), {
          message: `cannot build AdmissionRequest object from r.json: missing field \`${key}\``,
        });
      }
    }
    // the first missing key in that order is named
    assert.throws(() => toAdmissionRequest({ userInfo: {}, operation: "CREATE" }, "r.json"), {
      message: "cannot build AdmissionRequest object from r.json: missing field `uid`",
    });
  });

  test("an AdmissionReview without a request object, or a document that is not an object, is refused", () => {
    for (const request of [undefined, null, "text", 3]) {
      assert.throws(
        () => toAdmissionRequest({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request }, "r.json"),
        { message: "cannot build AdmissionRequest object from r.json: the AdmissionReview has no request" },
      );
    }
    for (const doc of [null, "text", 3, [bare]]) {
      assert.throws(() => toAdmissionRequest(doc, "r.json"), {
        message: "cannot build AdmissionRequest object from r.json: expected a JSON/YAML object",
      });
    }
  });

  test("a manifest is a document with a string apiVersion and kind and neither uid nor operation", () => {
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: 3, namespace: null } };
    assert.deepEqual(toAdmissionRequest(pod, "m.yml"), {
      uid: MANIFEST_REQUEST_UID,
      kind: { group: "", version: "v1", kind: "Pod" },
      resource: { group: "", version: "v1", resource: "pods" },
      operation: "CREATE",
      userInfo: {},
      object: pod,
    });
    assert.deepEqual(toAdmissionRequest({ apiVersion: "a/b/c", kind: "Box" }, "m.yml").kind, {
      group: "a",
      version: "b/c",
      kind: "Box",
    });
    assert.equal(toAdmissionRequest({ apiVersion: "v1", kind: "Pod" }, "m.yml").operation, "CREATE");
    // an empty group before the slash is the core group
    assert.deepEqual(toAdmissionRequest({ apiVersion: "/v1", kind: "Pod" }, "m.yml").kind, {
      group: "",
      version: "v1",
      kind: "Pod",
    });
    // a uid or an operation makes it a request, which then lacks keys
    for (const extra of [{ uid: "u" }, { operation: "CREATE" }, { apiVersion: 1 }, { kind: 1 }]) {
      assert.throws(() => toAdmissionRequest({ apiVersion: "v1", kind: "Pod", ...extra }, "m.yml"), /missing field/);
    }
  });

  test("resource names: the API server's simple plural guesses", () => {
    assert.deepEqual(
      [
        "Policy",
        "Day",
        "Key",
        "Dryer",
        "Box",
        "Quiz",
        "Match",
        "Wish",
        "Status",
        "Shell",
        "Cache",
        "Switch",
        "Pod",
      ].map(pluralResource),
      [
        "policies",
        "days",
        "keys",
        "dryers",
        "boxes",
        "quizes",
        "matches",
        "wishes",
        "statuses",
        "shells",
        "caches",
        "switches",
        "pods",
      ],
    );
  });

  test("files: a request file, stdin's name in errors, a missing file's error code", () => {
    withDir((dir) => {
      const file = path.join(dir, "r.yml");
      fs.writeFileSync(file, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n");
      const req = loadAdmissionRequest(file);
      assert.deepEqual([req.name, req.namespace, req.uid], ["p", "ns", MANIFEST_REQUEST_UID]);
      assert.equal(MANIFEST_REQUEST_UID, "00000000-0000-0000-0000-000000000000"); // the uid of a request built from a manifest
      fs.writeFileSync(file, "[]\n");
      assert.throws(() => loadAdmissionRequest(file), {
        message: `cannot build AdmissionRequest object from ${file}: expected a JSON/YAML object`,
      });
      const missing = path.join(dir, "missing.json");
      assert.throws(() => loadAdmissionRequest(missing), {
        message: `cannot read request ${missing}: ENOENT: no such file (check the path)`,
      });
      assert.throws(() => loadSettings(missing), {
        message: `cannot read settings ${missing}: ENOENT: no such file (check the path)`,
      });
      const manifest = path.join(dir, "policy.yaml");
      fs.writeFileSync(
        manifest,
        "apiVersion: policies.kubewarden.io/v1\nkind: ClusterAdmissionPolicy\nmetadata: {name: x}\nspec: {settings: {lookup: true}}\n",
      );
      assert.throws(() => loadSettings(manifest), {
        message: `${manifest}: this is a ClusterAdmissionPolicy manifest, not settings: pass its spec.settings (e.g. \`yq .spec.settings ${manifest}\` into a file)`,
      });
      // settings that merely have a key named like a manifest field are settings
      fs.writeFileSync(manifest, "kind: fast\nspec: {}\n");
      assert.deepEqual(loadSettings(manifest), { kind: "fast", spec: {} });
      assert.throws(() => loadAdmissionRequest(dir), {
        message: `cannot read request ${dir}: EISDIR: is a directory (give a file)`,
      });
    });
  });

  test("the request a guest receives holds policy-evaluator's struct fields only, without nulls", () => {
    const request = {
      ...bare,
      kind: { group: "", version: "v1", kind: "Pod", extra: 1 },
      resource: { group: "", version: "v1", resource: "pods", subresource: "x" },
      subResource: "status",
      requestKind: { group: "g", version: "v", kind: "K", other: true },
      requestResource: { group: "g", version: "v", resource: "ks", x: 1 },
      requestSubResource: "scale",
      name: "p",
      namespace: "ns",
      userInfo: { username: "alice", uid: "1", groups: ["g"], extra: { a: ["b"] }, unknown: 1, more: null },
      object: { a: 1 },
      oldObject: null,
      dryRun: false,
      options: { x: 1 },
      unknownTopLevel: 1,
    };
    assert.equal(
      serdeJson(requestForGuest(request as never)),
      '{"dryRun":false,"kind":{"group":"","kind":"Pod","version":"v1"},"name":"p","namespace":"ns","object":{"a":1},' +
        '"operation":"CREATE","options":{"x":1},"requestKind":{"group":"g","kind":"K","version":"v"},' +
        '"requestResource":{"group":"g","resource":"ks","version":"v"},"requestSubResource":"scale",' +
        '"resource":{"group":"","resource":"pods","version":"v1"},"subResource":"status","uid":"u",' +
        '"userInfo":{"extra":{"a":["b"]},"groups":["g"],"uid":"1","username":"alice"}}',
    );
    // a struct field that is not an object is passed on as it is; null members of a struct are dropped
    assert.deepEqual(requestForGuest({ ...bare, kind: "Pod", userInfo: { username: null } } as never), {
      ...bare,
      kind: "Pod",
      userInfo: {},
    });
    assert.deepEqual(requestForGuest({ ...bare, resource: ["a"] } as never).resource, ["a"]);
  });
});

describe("settings", () => {
  test("an object, or null for {}; anything else is refused naming the source", () => {
    assert.deepEqual(toSettings(null, "s.yml"), {});
    assert.deepEqual(toSettings(undefined, "s.yml"), {});
    assert.deepEqual(toSettings({ a: 1 }, "s.yml"), { a: 1 });
    for (const doc of [[], "text", 1, true]) {
      assert.throws(() => toSettings(doc, "s.yml"), { message: "s.yml: settings must be an object or null" });
    }
    withDir((dir) => {
      const file = path.join(dir, "s.yml");
      fs.writeFileSync(file, "~\n");
      assert.deepEqual(loadSettings(file), {});
      fs.writeFileSync(file, "ratio: 1.0\n");
      assert.equal(serdeJson(loadSettings(file)), '{"ratio":1.0}');
      fs.writeFileSync(file, "- a\n");
      assert.throws(() => loadSettings(file), { message: `${file}: settings must be an object or null` });
    });
  });

  test("--settings-json: JSON only, numbers checked, an object or null", () => {
    assert.equal(serdeJson(parseSettingsJson('{"ratio":1.0,"n":2}')), '{"n":2,"ratio":1.0}');
    assert.deepEqual(parseSettingsJson("null"), {});
    assert.throws(
      () => parseSettingsJson("ratio: 1"),
      /^Error: --settings-json: invalid JSON: expected value at line 1 column 1$/,
    );
    assert.throws(() => parseSettingsJson('{"a":[1e400]}'), {
      message: "--settings-json: number out of range: 1e400",
    });
    assert.throws(() => parseSettingsJson("[1]"), { message: "--settings-json: settings must be an object or null" });
  });
});

describe("policy metadata", () => {
  /** A module with only custom sections named io.kubewarden.metadata holding these texts. */
  const moduleWith = (...texts: string[]) => {
    const parts = [Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])];
    for (const text of texts) {
      const name = Buffer.from("io.kubewarden.metadata");
      const body = Buffer.concat([Buffer.from([name.length]), name, Buffer.from(text)]);
      assert.ok(body.length < 128);
      parts.push(Buffer.from([0, body.length]), body);
    }
    return new WebAssembly.Module(Buffer.concat(parts));
  };

  test("the first section is read; one that is not JSON is an error naming the section", () => {
    assert.deepEqual(readPolicyMetadata(moduleWith('{"mutating":true}', '{"mutating":false}')), { mutating: true });
    assert.equal(readPolicyMetadata(moduleWith()), null);
    assert.throws(
      () => readPolicyMetadata(moduleWith("{mutating")),
      /^Error: io\.kubewarden\.metadata section is not valid JSON: /,
    );
  });

  test("contextAwareResources: entries with a string apiVersion and kind, other keys dropped", () => {
    assert.deepEqual(
      metadataContextAwareResources({
        contextAwareResources: [
          { apiVersion: "v1", kind: "ConfigMap", extra: 1 },
          { apiVersion: "v1" },
          { kind: "Pod" },
          { apiVersion: 1, kind: "Pod" },
          { apiVersion: "v1", kind: 2 },
          null,
          "v1/Pod",
        ],
      }),
      [{ apiVersion: "v1", kind: "ConfigMap" }],
    );
    assert.deepEqual(metadataContextAwareResources({ contextAwareResources: { apiVersion: "v1", kind: "Pod" } }), []);
    assert.deepEqual(metadataContextAwareResources({}), []);
    assert.deepEqual(metadataContextAwareResources(null), []);
  });
});
