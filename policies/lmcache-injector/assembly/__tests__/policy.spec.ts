// The responses (docs/policies/lmcache-injector.md#responses) of `evaluate` (decode → plan →
// applyEdits → response) with recorded lookups.
import { RecordedLookups } from "../../../../assembly/kubewarden/index";
import { evaluate } from "../policy";

const CM_OK = '{"data":{"kv-transfer-config.json":"{\\"kv_connector\\":\\"X\\"}"}}';
const NOT_FOUND_CM =
  "Callback evaluation failure: Cannot find v1/ConfigMap named 'cb-connection' inside of namespace 'Some(\"vllm-ns\")'";

function run(object: string, lookups: RecordedLookups): string {
  const text =
    '{"request":{"uid":"u","operation":"CREATE","namespace":"vllm-ns","object":' + object + '},"settings":{}}';
  return evaluate(Uint8Array.wrap(String.UTF8.encode(text)), lookups).toString();
}
const POD_HEAD = '{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"cb"';

describe("responses", () => {
  it("pass", () => {
    expect(run('{"metadata":{}}', new RecordedLookups())).toBe('{"accepted":true}');
  });
  it("skip: only the annotation, one warning, one audit annotation; untouched bytes kept", () => {
    const out = run(
      POD_HEAD + '}},"spec":{"x": 1.50, "containers":[{"name":"vllm"}]}}',
      new RecordedLookups().succeed("{}").fail(NOT_FOUND_CM),
    );
    expect(out).toBe(
      '{"accepted":true,"mutated_object":{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"cb","lmcache.ai/lmcache-skip-reason":"engine-not-found"}},"spec":{"x": 1.50, "containers":[{"name":"vllm"}]}},' +
        '"audit_annotations":{"skip-reason":"engine-not-found"},"warnings":["lmcache-injector: injection skipped (engine-not-found): ConfigMap vllm-ns/cb-connection not found"]}',
    );
  });
  it("skip without annotations: the map is created", () => {
    const out = run('{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"CB"}}}', new RecordedLookups());
    expect(out.includes('"lmcache.ai/lmcache-skip-reason":"invalid-engine-reference"')).toBe(true);
  });
  it("not stampable → no mutated_object", () => {
    expect(run('{"metadata":{"annotations":{"a":1}}}', new RecordedLookups())).toBe(
      '{"accepted":true,"audit_annotations":{"skip-reason":"invalid-request"},"warnings":["lmcache-injector: injection skipped (invalid-request): request could not be read: metadata.annotations[a] is not a string"]}',
    );
  });
  it("payload not JSON: warning only", () => {
    const out = evaluate(Uint8Array.wrap(String.UTF8.encode("]")), new RecordedLookups()).toString();
    expect(
      out.startsWith(
        '{"accepted":true,"audit_annotations":{"skip-reason":"invalid-request"},"warnings":["lmcache-injector: injection skipped (invalid-request): request could not be read: payload is not valid JSON',
      ),
    ).toBe(true);
  });
  it("inject: the whole object; stale skip reason removed; no warning", () => {
    const out = run(
      POD_HEAD +
        ',"lmcache.ai/lmcache-skip-reason":"engine-not-found"}},"spec":{"containers":[{"name":"vllm","args":["--model","m"]}]}}',
      new RecordedLookups().succeed("{}").succeed(CM_OK),
    );
    expect(out).toBe(
      '{"accepted":true,"mutated_object":{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"cb","lmcache.ai/lmcache-injected":"true"}},' +
        '"spec":{"containers":[{"name":"vllm","args":["--model","m","--kv-transfer-config","{\\"kv_connector\\":\\"X\\"}"],"env":[{"name":"PYTHONHASHSEED","value":"0"}]}],"hostIPC":true}}}',
    );
  });
  it("inject with a user --kv-transfer-config: warning, no audit annotation", () => {
    const out = run(
      POD_HEAD + '}},"spec":{"containers":[{"name":"vllm","args":["--kv-transfer-config","{}"]}]}}',
      new RecordedLookups().succeed("{}").succeed(CM_OK),
    );
    expect(out.includes('"lmcache.ai/lmcache-skip-reason":"kv-transfer-config-present"')).toBe(true);
    expect(out.includes('"audit_annotations"')).toBe(false);
    expect(
      out.endsWith(
        ',"warnings":["lmcache-injector: kv-transfer-config-present: container \\"vllm\\" already sets --kv-transfer-config; the engine connection config was not injected"]}',
      ),
    ).toBe(true);
  });
});

// Bounded output (issue 20): a value echoed in a skip warning keeps at most 1 KiB.
function skipWarningFor(engineRef: string): string {
  const out = run(
    '{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"' + engineRef + '"}}}',
    new RecordedLookups(),
  );
  const at = out.indexOf(',"warnings":["');
  return at < 0 ? out : out.substring(at + 14, out.length - 3);
}

function containerSkipFor(name: string): string {
  const out = run(
    POD_HEAD + ',"lmcache.ai/lmcache-container":"' + name + '"}},"spec":{"containers":[{"name":"vllm"}]}}',
    new RecordedLookups().succeed("{}").succeed(CM_OK),
  );
  const at = out.indexOf(',"warnings":["');
  return at < 0 ? out : out.substring(at + 14, out.length - 3);
}

describe("bounded skip warnings", () => {
  it("an engine reference of 1,024 bytes is echoed whole", () => {
    expect(skipWarningFor("A".repeat(1024))).toBe(
      'lmcache-injector: injection skipped (invalid-engine-reference): \\"' +
        "A".repeat(1024) +
        '\\" is not a valid engine reference',
    );
  });
  it("1,025 bytes: the start is kept and the rest counted", () => {
    expect(skipWarningFor("A".repeat(1025))).toBe(
      'lmcache-injector: injection skipped (invalid-engine-reference): \\"' +
        "A".repeat(1024) +
        '... (1 more bytes)\\" is not a valid engine reference',
    );
  });
  it("a missing container's name is shortened on both sides of 1 KiB", () => {
    expect(containerSkipFor("c".repeat(1024))).toBe(
      'lmcache-injector: injection skipped (target-container-not-found): no container named \\"' +
        "c".repeat(1024) +
        '\\"',
    );
    expect(containerSkipFor("c".repeat(3000))).toBe(
      'lmcache-injector: injection skipped (target-container-not-found): no container named \\"' +
        "c".repeat(1024) +
        '... (1976 more bytes)\\"',
    );
  });
});
