// kwctl replay sessions as `--replay-host-capabilities-interactions` reads them: what a session
// file may hold and the error naming the exchange, how each recorded request is read (absent
// Option keys are null, field_masks a sorted set), and what each call answers: the recorded
// response, kwctl's mismatch text with Rust's Debug of both requests, or the exhausted-list text.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { rustDebugOption, rustDebugString } from "../tools/host/rust";
import {
  CallbackRequest,
  describeRequest,
  loadReplaySession,
  normalizeRequest,
  parseRecordedRequest,
  parseReplaySession,
  ReplayCursor,
} from "../tools/host/replay";

const exchange = (request: string, response = "{type: Success, payload: '{}'}") =>
  `- type: Exchange\n  request: ${JSON.stringify(request)}\n  response: ${response}\n`;

describe("session files", () => {
  test("an empty file is an empty session; a session is a list; invalid YAML gives the parser's first line", () => {
    assert.deepEqual(parseReplaySession("---\n"), []);
    assert.deepEqual(parseReplaySession("~\n", "s.yml"), []);
    assert.throws(() => parseReplaySession("a: 1\n", "s.yml"), {
      message: "s.yml: a replay session must be a YAML list of exchanges",
    });
    assert.throws(() => parseReplaySession("just text"), {
      message: "<session>: a replay session must be a YAML list of exchanges",
    });
    assert.throws(() => parseReplaySession("- [1,\n", "s.yml"), {
      message: "s.yml: invalid YAML: deficient indentation (2:1)",
    });
  });

  test("each exchange is checked; the error names its number and the problem", () => {
    const good = exchange("!KubernetesGetResource {}");
    const problems: [string, string][] = [
      ["- type: Other\n  request: '!KubernetesGetResource {}'\n", "type must be Exchange"],
      ["- null\n", "type must be Exchange"],
      ["- type: Exchange\n  request: {a: 1}\n", "request must be a YAML string"],
      [
        exchange("api_version: v1"),
        "request is not a tagged callback request (expected e.g. `!KubernetesGetResource`)",
      ],
      [
        exchange("!KubernetesGetResource {}", "{type: Success}"),
        "response must be `{type: Success, payload: <string>}` or `{type: Error, message: <string>}`",
      ],
      [exchange("!KubernetesGetResource {}", "{type: Success, payload: 1}"), "response must be"],
      [exchange("!KubernetesGetResource {}", "{type: Error, payload: x}"), "response must be"],
      [exchange("!KubernetesGetResource {}", "{type: Error, message: 1}"), "response must be"],
      [exchange("!KubernetesGetResource {}", "{type: Failure, message: x}"), "response must be"],
      [exchange("!KubernetesGetResource {}", "null"), "response must be"],
    ];
    for (const [bad, problem] of problems) {
      assert.throws(
        () => parseReplaySession(good + bad, "s.yml"),
        (e: Error) => e.message.startsWith(`s.yml: exchange 2: ${problem}`) && !e.message.includes("\n"),
        bad,
      );
    }
    // an unknown variant is a YAML error (unknown tag), on one line
    assert.throws(
      () => parseReplaySession(exchange("!KubernetesNope\na: 1\n"), "s.yml"),
      (e: Error) => /^s\.yml: exchange 1: .*!KubernetesNope/.test(e.message) && !e.message.includes("\n"),
    );
  });

  test("responses: Success keeps its payload text, Error its message", () => {
    const session = parseReplaySession(
      exchange("!KubernetesGetResource {}", "{type: Success, payload: '{\"a\":1.0}'}") +
        exchange("!KubernetesGetResource {}", "{type: Error, message: gone}"),
    );
    assert.deepEqual(
      session.map((e) => e.response),
      [
        { type: "Success", payload: '{"a":1.0}' },
        { type: "Error", message: "gone" },
      ],
    );
  });

  test("loading a file: its exchanges, or the file and the error code", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-replay-"));
    try {
      const file = path.join(dir, "s.yml");
      fs.writeFileSync(file, "a: 1\n");
      assert.throws(() => loadReplaySession(file), {
        message: `${file}: a replay session must be a YAML list of exchanges`,
      });
      fs.writeFileSync(file, exchange("!KubernetesListResourceAll {api_version: v1, kind: Pod}"));
      assert.equal(loadReplaySession(file)[0].request.variant, "KubernetesListResourceAll");
      const missing = path.join(dir, "missing.yml");
      assert.throws(() => loadReplaySession(missing), {
        message: `cannot read replay session ${missing}: ENOENT: no such file (check the path)`,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("recorded requests", () => {
  test("every variant: its fields in serde order, absent ones null, unknown keys dropped", () => {
    assert.deepEqual(parseRecordedRequest("!KubernetesGetResource\napi_version: v1\nkind: Pod\nextra: 1\n"), {
      variant: "KubernetesGetResource",
      fields: { api_version: "v1", kind: "Pod", name: null, namespace: null, disable_cache: null, field_masks: null },
    });
    assert.deepEqual(parseRecordedRequest("!KubernetesListResourceNamespace {namespace: ns, label_selector: a=b}"), {
      variant: "KubernetesListResourceNamespace",
      fields: {
        api_version: null,
        kind: null,
        namespace: "ns",
        label_selector: "a=b",
        field_selector: null,
        field_masks: null,
      },
    });
    assert.deepEqual(parseRecordedRequest("!KubernetesListResourceAll {field_selector: x=y}"), {
      variant: "KubernetesListResourceAll",
      fields: { api_version: null, kind: null, label_selector: null, field_selector: "x=y", field_masks: null },
    });
    assert.deepEqual(parseRecordedRequest("!KubernetesCanI {request: {user: u}, disable_cache: true}"), {
      variant: "KubernetesCanI",
      fields: { request: { user: "u" }, disable_cache: true },
    });
  });

  test("field_masks is a set of strings in byte order; a duplicate key is a YAML error", () => {
    assert.deepEqual(
      parseRecordedRequest("!KubernetesGetResource {field_masks: [spec, Data, metadata.name, 1]}").fields.field_masks,
      ["1", "Data", "metadata.name", "spec"],
    );
    assert.equal(normalizeRequest("KubernetesGetResource", { field_masks: "spec" }).fields.field_masks, "spec");
    assert.throws(() => parseRecordedRequest("!KubernetesGetResource\nkind: A\nkind: B\n"), /duplicated mapping key/);
    assert.throws(() => normalizeRequest("KubernetesNope", {}), {
      message: "unknown callback request variant KubernetesNope",
    });
  });
});

describe("answers", () => {
  const get = (fields: Record<string, unknown>): CallbackRequest =>
    normalizeRequest("KubernetesGetResource", {
      api_version: "v1",
      kind: "ConfigMap",
      name: "a",
      namespace: "ns",
      disable_cache: false,
      ...fields,
    });
  const canI = (request: unknown): CallbackRequest =>
    normalizeRequest("KubernetesCanI", { request, disable_cache: true });
  const cursor = (...requests: CallbackRequest[]) =>
    new ReplayCursor(
      requests.map((request, i) => ({ request, response: { type: "Success", payload: `answer ${i + 1}` } })),
    );
  const answer = (c: ReplayCursor, live: CallbackRequest) => {
    const a = c.answer(live);
    return a.ok ? `ok:${a.response.toString("utf8")}` : `err:${a.error}`;
  };
  const mismatch = (c: ReplayCursor, live: CallbackRequest) =>
    answer(c, live).startsWith("err:Callback evaluation failure: Replay error: unexpected request.");

  test("a matching request gets the recorded payload; Error responses come back with the callback prefix", () => {
    const c = new ReplayCursor([
      { request: get({}), response: { type: "Success", payload: '{"é":1}' } },
      { request: get({}), response: { type: "Error", message: "gone" } },
    ]);
    assert.equal(answer(c, get({})), 'ok:{"é":1}');
    assert.equal(answer(c, get({})), "err:Callback evaluation failure: gone");
    assert.equal(answer(c, get({})), "err:Callback evaluation failure: the list of recorded responses is empty");
  });

  test("requests are compared field by field, nested values included", () => {
    assert.equal(
      mismatch(
        cursor(get({})),
        normalizeRequest("KubernetesListResourceAll", { api_version: "v1", kind: "ConfigMap" }),
      ),
      true,
    );
    assert.equal(mismatch(cursor(get({})), get({ name: "b" })), true);
    assert.equal(mismatch(cursor(get({ field_masks: ["a", "b"] })), get({ field_masks: ["b", "a"] })), false);
    assert.equal(mismatch(cursor(get({ field_masks: ["a", "b"] })), get({ field_masks: ["a"] })), true);
    assert.equal(mismatch(cursor(get({ field_masks: ["a"] })), get({ field_masks: null })), true);
    assert.equal(mismatch(cursor(get({ field_masks: null })), get({ field_masks: ["a"] })), true);
    const review = { user: "u", groups: ["g"], resource_attributes: { verb: "get", namespace: "ns" } };
    assert.equal(mismatch(cursor(canI(review)), canI(structuredClone(review))), false);
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, user: "v" })), true);
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, extra: null })), true);
    assert.equal(mismatch(cursor(canI({ ...review, extra: null })), canI(review)), true);
    assert.equal(
      mismatch(cursor(canI(review)), canI({ ...review, resource_attributes: { verb: "get", namespace: "other" } })),
      true,
    );
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, groups: { 0: "g" } })), true);
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, groups: null })), true);
    assert.equal(mismatch(cursor(canI({ ...review, groups: null })), canI(review)), true);
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, groups: "g" })), true);
    assert.equal(mismatch(cursor(canI({ ...review, groups: "g" })), canI({ ...review, groups: { 0: "g" } })), true);
    assert.equal(mismatch(cursor(canI({ ...review, groups: { 0: "g" } })), canI({ ...review, groups: "g" })), true);
    assert.equal(mismatch(cursor(canI(review)), canI({ ...review, resource_attributes: null })), true);
    assert.equal(mismatch(cursor(canI({ ...review, resource_attributes: null })), canI(review)), true);
    assert.equal(mismatch(cursor(canI(review)), canI({ user: "u", groups: ["g"], other: 1 })), true);
  });

  test("the mismatch text prints both requests with Rust's Debug of each field", () => {
    const c = cursor(
      normalizeRequest("KubernetesListResourceNamespace", {
        api_version: "v1",
        kind: "Pod",
        namespace: 'a"b',
        label_selector: "x",
      }),
    );
    assert.equal(
      answer(
        c,
        normalizeRequest("KubernetesListResourceAll", {
          api_version: "v1",
          kind: "Pod",
          field_selector: "a=b",
          field_masks: ["b", "a"],
        }),
      ),
      "err:Callback evaluation failure: Replay error: unexpected request. Was expecting " +
        'KubernetesListResourceNamespace { api_version: "v1", kind: "Pod", namespace: Some("a\\"b"), label_selector: Some("x"), field_selector: None, field_masks: None }, ' +
        'got KubernetesListResourceAll { api_version: "v1", kind: "Pod", label_selector: None, field_selector: Some("a=b"), field_masks: Some({"a", "b"}) } instead',
    );
    assert.equal(
      describeRequest(canI({ user: "u", n: 1 })),
      'KubernetesCanI { request: {"user":"u","n":1}, disable_cache: true }',
    );
    assert.equal(
      describeRequest(normalizeRequest("KubernetesGetResource", { kind: 3, disable_cache: false, field_masks: [] })),
      "KubernetesGetResource { api_version: None, kind: 3, name: None, namespace: None, disable_cache: false, field_masks: Some({}) }",
    );
  });

  test("every call consumes an exchange; only the unused ones are counted in the warning", () => {
    const c = cursor(get({}), get({}), get({}));
    assert.equal(c.leftoverWarning(), "replay session: 3 recorded exchange(s) were not used by the policy");
    assert.equal(mismatch(c, get({ name: "x" })), true);
    assert.equal(answer(c, get({})), "ok:answer 2");
    assert.equal(c.leftoverWarning(), "replay session: 1 recorded exchange(s) were not used by the policy");
    assert.equal(answer(c, get({})), "ok:answer 3");
    assert.equal(c.leftoverWarning(), undefined);
    assert.equal(answer(c, get({})), "err:Callback evaluation failure: the list of recorded responses is empty");
    assert.equal(c.leftoverWarning(), undefined);
  });
});

// the replay mismatch and the lookup not-found texts embed Rust's `{:?}` of a string (tools/host/rust.ts)
describe("Rust's Debug of a string", () => {
  test("quote, backslash, \\n \\r \\t and \\0 escaped; other controls and DEL as \\u{…}; the rest as it is", () => {
    assert.equal(
      rustDebugString("a\"b\\c\nd\re\tf\0g\u0001h\u001fi\u007fj k'é😀"),
      '"a\\"b\\\\c\\nd\\re\\tf\\0g\\u{1}h\\u{1f}i\\u{7f}j k\'é😀"',
    );
    assert.equal(rustDebugOption(null), "None");
    assert.equal(rustDebugOption("n\ts"), 'Some("n\\ts")');
  });
});
