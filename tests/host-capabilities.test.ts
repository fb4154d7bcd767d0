// Kubernetes lookups answered through the host-call handler (tools/host/capabilities.ts): every
// list operation hands its selectors to the fake cluster, and each operation is matched against
// the replay session's exchange of its own variant.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { HostCapabilities, HostCapabilitiesConfig } from "../tools/host/capabilities";
import { parseClusterObjects } from "../tools/host/cluster";
import { parseReplaySession } from "../tools/host/replay";

const POD = { apiVersion: "v1", kind: "Pod" };

function call(config: HostCapabilitiesConfig, operation: string, payload: Record<string, unknown>): string {
  const answer = new HostCapabilities({ contextAwareResources: [POD], ...config }).handler(
    "kubewarden",
    "kubernetes",
    operation,
    Buffer.from(JSON.stringify(payload)),
  );
  return answer.ok ? `ok:${answer.response.toString("utf8")}` : `err:${answer.error}`;
}

const names = (line: string) =>
  (JSON.parse(line.slice(3)) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);

describe("cluster objects: selectors reach the lookup", () => {
  const cluster = parseClusterObjects(`
- {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: one, labels: {app: x}}}
- {apiVersion: v1, kind: Pod, metadata: {name: b, namespace: two, labels: {app: x}}}
- {apiVersion: v1, kind: Pod, metadata: {name: c, namespace: two, labels: {app: y}}}
`);
  const all = (extra: Record<string, unknown>) =>
    names(call({ cluster }, "list_resources_all", { api_version: "v1", kind: "Pod", ...extra }));
  const inTwo = (extra: Record<string, unknown>) =>
    names(
      call({ cluster }, "list_resources_by_namespace", { api_version: "v1", kind: "Pod", namespace: "two", ...extra }),
    );

  test("list_resources_all: every namespace, then the label and field selectors", () => {
    assert.deepEqual(all({}), ["a", "b", "c"]);
    assert.deepEqual(all({ label_selector: "app=x" }), ["a", "b"]);
    assert.deepEqual(all({ field_selector: "metadata.namespace=two" }), ["b", "c"]);
    assert.deepEqual(all({ label_selector: "app=x", field_selector: "metadata.namespace=two" }), ["b"]);
    assert.deepEqual(all({ label_selector: null, field_selector: null }), ["a", "b", "c"]);
  });

  test("list_resources_by_namespace: the namespace, then the label and field selectors", () => {
    assert.deepEqual(inTwo({}), ["b", "c"]);
    assert.deepEqual(inTwo({ label_selector: "app=y" }), ["c"]);
    assert.deepEqual(inTwo({ field_selector: "metadata.name!=b" }), ["c"]);
  });

  test("an invalid selector is the guest's callback error", () => {
    assert.equal(
      call({ cluster }, "list_resources_all", { api_version: "v1", kind: "Pod", label_selector: "app in x" }),
      'err:Callback evaluation failure: invalid label selector: "app in x"',
    );
  });
});

describe("replay: each operation meets its own variant", () => {
  const exchange = (request: string) =>
    `- type: Exchange\n  request: ${JSON.stringify(request)}\n  response: {type: Success, payload: 'recorded'}\n`;

  test("list_resources_all is KubernetesListResourceAll, list_resources_by_namespace KubernetesListResourceNamespace", () => {
    const replay = parseReplaySession(
      exchange("!KubernetesListResourceAll {api_version: v1, kind: Pod, label_selector: app=x}") +
        exchange("!KubernetesListResourceNamespace {api_version: v1, kind: Pod, namespace: ns}"),
    );
    const host = new HostCapabilities({ contextAwareResources: [POD], replay });
    const answer = (operation: string, payload: Record<string, unknown>) => {
      const a = host.handler("kubewarden", "kubernetes", operation, Buffer.from(JSON.stringify(payload)));
      return a.ok ? `ok:${a.response.toString("utf8")}` : `err:${a.error}`;
    };
    assert.equal(
      answer("list_resources_all", { api_version: "v1", kind: "Pod", label_selector: "app=x" }),
      "ok:recorded",
    );
    assert.equal(
      answer("list_resources_by_namespace", { api_version: "v1", kind: "Pod", namespace: "ns" }),
      "ok:recorded",
    );
    assert.deepEqual(host.warnings(), []);
  });
});
