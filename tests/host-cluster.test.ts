// The fake cluster behind `--cluster-objects`: what the objects file may hold, the answers a guest's
// get_resource / list_resources_* receive (scope, selectors, bytes) and the error texts
// (tools/host/README.md, docs/wasm-contract.md#host-errors).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  dynamicObjectJson,
  FakeCluster,
  fieldSelectorMatcher,
  labelSelectorMatcher,
  loadClusterObjects,
  parseClusterObjects,
  type KubeObject,
} from "../tools/host/cluster";

const names = (listAnswer: string) =>
  (JSON.parse(listAnswer) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);

describe("cluster objects file", () => {
  test("documents, top-level sequences and `*List` objects are flattened; empty documents are skipped", () => {
    const objects = parseClusterObjects(
      `
---
---
apiVersion: v1
kind: List
items:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
  - {apiVersion: v1, kind: ConfigMapList, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}]}
---
- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
- null
`,
      "c.yml",
    );
    assert.deepEqual(
      objects.map((o) => o.metadata!.name),
      ["a", "b", "c"],
    );
  });

  test("a `*List` kind whose items is not a list is an object like any other", () => {
    const objects = parseClusterObjects("{apiVersion: v1, kind: WidgetList, metadata: {name: w}, items: 3}\n", "c.yml");
    assert.deepEqual(objects, [{ apiVersion: "v1", kind: "WidgetList", metadata: { name: "w" }, items: 3 }]);
    // a kind merely containing "List" is not flattened either
    assert.throws(
      () =>
        parseClusterObjects(
          "{kind: ListWidget, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]}\n",
          "c.yml",
        ),
      /^Error: c\.yml: object 1 needs apiVersion, kind and metadata\.name$/,
    );
  });

  test("the error names the file and counts the objects already read", () => {
    assert.throws(
      () =>
        parseClusterObjects(
          "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {}}\n",
          "c.yml",
        ),
      /^Error: c\.yml: object 2 needs apiVersion, kind and metadata\.name$/,
    );
    for (const bad of [
      "{kind: ConfigMap, metadata: {name: a}}",
      "{apiVersion: v1, metadata: {name: a}}",
      "{apiVersion: v1, kind: ConfigMap}",
      "{apiVersion: 1, kind: ConfigMap, metadata: {name: a}}",
      "{apiVersion: v1, kind: 1, metadata: {name: a}}",
      "{apiVersion: v1, kind: ConfigMap, metadata: {name: 1}}",
    ]) {
      assert.throws(() => parseClusterObjects(bad, "c.yml"), /^Error: c\.yml: object 1 needs apiVersion/, bad);
    }
  });

  test("scalars are refused; invalid YAML gives the parser's first line", () => {
    assert.throws(() => parseClusterObjects("- 42\n", "c.yml"), /^Error: c\.yml: cluster objects must be mappings$/);
    assert.throws(
      () => parseClusterObjects("just text\n", "c.yml"),
      /^Error: c\.yml: cluster objects must be mappings$/,
    );
    assert.throws(() => parseClusterObjects("a: [1,\n", "c.yml"), {
      message: "c.yml: invalid YAML: deficient indentation (2:1)",
    });
    assert.throws(() => parseClusterObjects("a: [1,\n"), /^Error: <cluster>: invalid YAML: /);
  });

  test("loading a file: its objects, or the file and the error code", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cluster-"));
    try {
      const file = path.join(dir, "objects.yml");
      fs.writeFileSync(file, "{apiVersion: v1, kind: ConfigMap, metadata: {}}\n");
      assert.throws(() => loadClusterObjects(file), new RegExp(`^Error: ${file}: object 1 needs`));
      fs.writeFileSync(file, "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n");
      assert.deepEqual(loadClusterObjects(file), [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }]);
      const missing = path.join(dir, "missing.yml");
      assert.throws(() => loadClusterObjects(missing), {
        message: `cannot read cluster objects ${missing}: ENOENT: no such file (check the path)`,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("label selectors", () => {
  const labelled = (labels?: Record<string, string>): KubeObject => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: labels ? { name: "x", labels } : { name: "x" },
  });
  const fast = labelled({ tier: "fast", zone: "a" });
  const slow = labelled({ tier: "slow" });
  const bare = labelled();
  const matches = (selector: string | null) => [fast, slow, bare].map(labelSelectorMatcher(selector));

  test("no selector, or only blanks, matches everything", () => {
    assert.deepEqual(matches(null), [true, true, true]);
    assert.deepEqual(matches(""), [true, true, true]);
    assert.deepEqual(matches("  "), [true, true, true]);
  });

  test("equality: =, == and != (an object without the label differs)", () => {
    assert.deepEqual(matches("tier=fast"), [true, false, false]);
    assert.deepEqual(matches("tier == fast"), [true, false, false]);
    assert.deepEqual(matches("tier!=fast"), [false, true, true]);
    assert.deepEqual(matches("tier="), [false, false, false]);
  });

  test("set-based: in and notin (notin matches an object without the label)", () => {
    assert.deepEqual(matches("tier in (fast, slow)"), [true, true, false]);
    assert.deepEqual(matches("tier in (slow)"), [false, true, false]);
    assert.deepEqual(matches("tier notin (fast)"), [false, true, true]);
    assert.deepEqual(matches("tier notin ( fast , slow )"), [false, false, true]);
    assert.deepEqual(matches("tier  in  (slow)"), [false, true, false]); // any run of whitespace
    assert.deepEqual(matches("tier  in\t(slow)"), [false, true, false]);
  });

  test("existence: key and !key", () => {
    assert.deepEqual(matches("zone"), [true, false, false]);
    assert.deepEqual(matches("!zone"), [false, true, true]);
  });

  test("requirements are ANDed; commas inside ( ) belong to the set; empty terms are ignored", () => {
    assert.deepEqual(matches("tier in (fast,slow),!zone"), [false, true, false]);
    assert.deepEqual(matches("tier notin (slow,x), zone=a"), [true, false, false]);
    assert.deepEqual(matches(" tier=slow , "), [false, true, false]);
    assert.deepEqual(matches(",tier,"), [true, true, false]);
  });

  test("an invalid requirement is a callback failure naming it", () => {
    for (const bad of [
      "tier in fast",
      "x tier in (fast)",
      "=fast",
      "tier = fast slow",
      "tier in (a) x",
      "!tier=a",
      "a b",
      "tier notin(a)",
    ]) {
      assert.throws(
        () => labelSelectorMatcher(`zone, ${bad}`),
        { message: `Callback evaluation failure: invalid label selector: ${JSON.stringify(bad)}` },
        bad,
      );
    }
  });
});

describe("field selectors", () => {
  const a: KubeObject = { apiVersion: "v1", kind: "Pod", metadata: { name: "a", namespace: "ns" }, spec: { n: 3 } };
  const b: KubeObject = { apiVersion: "v1", kind: "Pod", metadata: { name: "b" }, spec: { n: null } };
  const matches = (selector: string | null) => [a, b].map(fieldSelectorMatcher(selector));

  test("no selector, or only blanks, matches everything", () => {
    assert.deepEqual(matches(null), [true, true]);
    assert.deepEqual(matches(" "), [true, true]);
  });

  test("=, == and != on dotted paths; numbers compare as text; a missing or null field equals nothing", () => {
    assert.deepEqual(matches("metadata.name=a"), [true, false]);
    assert.deepEqual(matches("metadata.name == b"), [false, true]);
    assert.deepEqual(matches("metadata.namespace!=ns"), [false, true]);
    assert.deepEqual(matches("spec.n=3"), [true, false]);
    assert.deepEqual(matches("spec.n="), [false, false]);
    assert.deepEqual(matches("spec.n!=3"), [false, true]);
    assert.deepEqual(matches("spec.n.deeper=3"), [false, false]);
    // a missing or null field is no text at all, not "undefined" or "null"
    assert.deepEqual(matches("spec.n=null"), [false, false]);
    assert.deepEqual(matches("spec.missing=undefined"), [false, false]);
    assert.deepEqual(matches("spec.n!=null"), [true, true]);
    assert.deepEqual(matches("metadata.name=a,spec.n=3"), [true, false]);
    assert.deepEqual(matches("metadata.name=b,spec.n=3"), [false, false]);
  });

  test("an invalid requirement is a callback failure naming it", () => {
    for (const bad of ["metadata.name", "=a", "x metadata.name=a", "metadata.name in (a)", "a = b c"]) {
      assert.throws(
        () => fieldSelectorMatcher(`metadata.name=a,${bad}`),
        { message: `Callback evaluation failure: invalid field selector: ${JSON.stringify(bad)}` },
        bad,
      );
    }
  });
});

describe("the fake API", () => {
  // every kind the API server serves cluster-scoped, so a namespaced list of it is refused even
  // when the objects file holds none of it
  const CLUSTER_SCOPED = [
    "Namespace",
    "Node",
    "PersistentVolume",
    "ClusterRole",
    "ClusterRoleBinding",
    "StorageClass",
    "CustomResourceDefinition",
    "PriorityClass",
    "RuntimeClass",
    "IngressClass",
    "CSIDriver",
    "CSINode",
    "VolumeAttachment",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "APIService",
    "CertificateSigningRequest",
    "ClusterAdmissionPolicy",
    "ClusterAdmissionPolicyGroup",
    "PolicyServer",
  ];

  test("well-known cluster-scoped kinds without objects: a namespaced list is refused, a get needs no namespace", () => {
    const empty = new FakeCluster([]);
    for (const kind of CLUSTER_SCOPED) {
      assert.throws(
        () => empty.list("v1", kind, "ns", null, null),
        {
          message: `Callback evaluation failure: resource v1/${kind} is cluster wide. Cannot search for it inside of a namespace`,
        },
        kind,
      );
      assert.throws(
        () => empty.get("v1", kind, "n", null),
        { message: `Callback evaluation failure: Cannot find v1/${kind} named 'n' inside of namespace 'None'` },
        kind,
      );
    }
    // any other kind without objects is namespaced
    assert.equal(
      empty.list("v1", "Pod", "ns", null, null),
      '{"apiVersion":"v1","kind":"PodList","metadata":{},"items":[]}',
    );
    assert.throws(() => empty.get("v1", "Pod", "n", null), {
      message: "Callback evaluation failure: Resource v1/Pod is namespaced, but no namespace was provided",
    });
  });

  test("scope comes from the objects of that apiVersion and kind: any namespaced object makes the kind namespaced", () => {
    const cluster = new FakeCluster(
      parseClusterObjects(`
- {apiVersion: example.io/v1, kind: Widget, metadata: {name: global}}
- {apiVersion: example.io/v1, kind: Widget, metadata: {name: local, namespace: ns}}
- {apiVersion: example.io/v2, kind: Widget, metadata: {name: global}}
- {apiVersion: example.io/v1, kind: Node, metadata: {name: n, namespace: ns}}
`),
    );
    assert.equal(cluster.namespaced("example.io/v1", "Widget"), true);
    assert.equal(cluster.namespaced("example.io/v2", "Widget"), false);
    // a well-known cluster kind name with namespaced objects follows the objects
    assert.equal(cluster.namespaced("example.io/v1", "Node"), true);
    assert.equal(cluster.namespaced("v1", "Node"), false);
    // the namespaced kind: the object is found in its namespace only
    assert.match(cluster.get("example.io/v1", "Widget", "local", "ns"), /"name":"local"/);
    assert.throws(() => cluster.get("example.io/v1", "Widget", "global", "ns"), {
      message:
        "Callback evaluation failure: Cannot find example.io/v1/Widget named 'global' inside of namespace 'Some(\"ns\")'",
    });
    // the cluster-scoped kind: fetched by name, the namespace ignored; listing all is allowed
    assert.match(cluster.get("example.io/v2", "Widget", "global", "elsewhere"), /"name":"global"/);
    assert.match(cluster.get("example.io/v2", "Widget", "global", null), /"name":"global"/);
    assert.deepEqual(names(cluster.list("example.io/v2", "Widget", null, null, null)), ["global"]);
    assert.deepEqual(names(cluster.list("example.io/v1", "Widget", null, null, null)), ["global", "local"]);
    assert.deepEqual(names(cluster.list("example.io/v1", "Widget", "ns", null, null)), ["local"]);
  });

  test("list filters by label and field selector together", () => {
    const cluster = new FakeCluster(
      parseClusterObjects(`
- {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: ns, labels: {app: x}}}
- {apiVersion: v1, kind: Pod, metadata: {name: b, namespace: ns, labels: {app: x}}}
- {apiVersion: v1, kind: Pod, metadata: {name: c, namespace: ns, labels: {app: y}}}
`),
    );
    assert.deepEqual(names(cluster.list("v1", "Pod", "ns", "app=x", null)), ["a", "b"]);
    assert.deepEqual(names(cluster.list("v1", "Pod", "ns", null, "metadata.name!=a")), ["b", "c"]);
    assert.deepEqual(names(cluster.list("v1", "Pod", "ns", "app=x", "metadata.name!=a")), ["b"]);
  });

  test("a DynamicObject's bytes: only ObjectMeta's fields, nulls dropped, the other keys in byte order", () => {
    const meta = {
      annotations: { a: "1" },
      creationTimestamp: "t",
      deletionGracePeriodSeconds: 30,
      deletionTimestamp: "d",
      finalizers: ["f"],
      generateName: "g-",
      generation: 2,
      labels: { l: "v" },
      managedFields: [],
      name: "n",
      namespace: "ns",
      ownerReferences: [],
      resourceVersion: "7",
      selfLink: "/s",
      uid: "u",
    };
    const obj: KubeObject = {
      kind: "Widget",
      metadata: { ...meta, status: "dropped", clusterName: null } as never,
      apiVersion: "example.io/v1",
      zeta: 1,
      Zeta: 2,
      é: 3,
      alpha: null,
    };
    assert.equal(
      dynamicObjectJson(obj),
      `{"apiVersion":"example.io/v1","kind":"Widget","metadata":${JSON.stringify(meta)},"Zeta":2,"alpha":null,"zeta":1,"é":3}`,
    );
    assert.equal(
      dynamicObjectJson({
        apiVersion: "v1",
        kind: "X",
        metadata: { name: "n", labels: null, uid: undefined } as never,
      }),
      '{"apiVersion":"v1","kind":"X","metadata":{"name":"n"}}',
    );
  });

  test("a number read from YAML keeps its text at the top level, as nested ones do", () => {
    const [obj] = parseClusterObjects(
      "apiVersion: v1\nkind: X\nmetadata: {name: n, generation: 2}\nsize: 256.0\ncount: 3\nspec: {size: 256.0}\n",
    );
    assert.equal(
      dynamicObjectJson(obj),
      '{"apiVersion":"v1","kind":"X","metadata":{"generation":2,"name":"n"},"count":3,"size":256.0,"spec":{"size":256.0}}',
    );
  });
});
