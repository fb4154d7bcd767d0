// The cases.yml runner behind tests/policies.test.ts and `cachewarden examples` (docs/test-data.md):
// what a cases.yml may hold and the error for each mistake, the decision and summary shown for
// each case, and the failure line for every unmet expectation.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PolicyModule } from "../tools/host/guest";
import {
  CaseSpec,
  jsonDifference,
  loadCases,
  parseCases,
  policiesWithCases,
  runCase,
  runPolicyCases,
} from "../tools/host/cases";
import { annotatedProbePath, hostCallsWith, podRequest, PROBE_METADATA, replyWith } from "./helpers/host-guests";

const ok = "\n  request: r.json\n  expect: {allowed: true}\n";

describe("cases.yml checks", () => {
  const fails = (text: string, message: string) => assert.throws(() => parseCases(text, "c.yml"), { message }, text);

  test("a YAML list of mappings; invalid YAML gives the parser's first line", () => {
    assert.deepEqual(parseCases("[]", "c.yml"), []);
    fails("a: 1\n", "c.yml: expected a YAML list of cases");
    fails("---\n", "c.yml: expected a YAML list of cases");
    fails(`- name: a${ok}- 3\n`, "c.yml: case 2: must be a mapping");
    fails(`- name: a${ok}- null\n`, "c.yml: case 2: must be a mapping");
    assert.throws(() => parseCases("- [1,\n", "c.yml"), {
      message: "c.yml: invalid YAML: deficient indentation (2:1)",
    });
  });

  test("every documented key is accepted; another key is named", () => {
    const all = parseCases(
      `
- name: every-key
  covers: spec row 1
  description: d
  operation: validate
  request: r.json
  settings: s.json
  session: session.yml
  contextAware: false
  hostCapabilities: [kubernetes/*]
  expect: {allowed: true, mutated: false, object: o.json, code: 200, message: m, messageContains: m, warnings: [], auditAnnotations: {}, annotations: {}}
- name: cluster-and-valid
  operation: validate_settings
  cluster: objects.yml
  expect: {valid: true}
`,
      "c.yml",
    );
    assert.deepEqual(
      all.map((c) => c.name),
      ["every-key", "cluster-and-valid"],
    );
    fails(`- name: a${ok}  bogus: 1\n`, "c.yml: case 1 (a): unknown key `bogus`");
    fails(
      "- name: a\n  request: r.json\n  expect: {allowed: true, bogus: 1}\n",
      "c.yml: case 1 (a): unknown expect key `bogus`",
    );
  });

  test("names are kebab-case and unique; a case without a string name is named by number only", () => {
    for (const name of ["a", "a-1-b", "0"]) assert.equal(parseCases(`- name: "${name}"${ok}`, "c.yml")[0].name, name);
    for (const name of ["A", "a_b", "-a", "a-", "a--b", "a b", ""]) {
      fails(`- name: "${name}"${ok}`, `c.yml: case 1 (${name}): name must be kebab-case`);
    }
    fails(`- name: 3${ok}`, "c.yml: case 1: name must be kebab-case");
    fails(`- request: r.json\n  expect: {allowed: true}\n`, "c.yml: case 1: name must be kebab-case");
    fails(`- name: a${ok}- name: b${ok}- name: a${ok}`, "c.yml: case 3 (a): duplicate name");
  });

  test("what each operation needs", () => {
    fails("- name: a\n  request: r.json\n", "c.yml: case 1 (a): missing expect");
    fails("- name: a\n  request: r.json\n  expect: null\n", "c.yml: case 1 (a): missing expect");
    fails("- name: a\n  request: r.json\n  expect: yes\n", "c.yml: case 1 (a): missing expect");
    fails(`- name: a${ok}  operation: mutate\n`, "c.yml: case 1 (a): operation must be validate or validate_settings");
    fails("- name: a\n  expect: {allowed: true}\n", "c.yml: case 1 (a): a validate case needs request");
    fails("- name: a\n  request: 3\n  expect: {allowed: true}\n", "c.yml: case 1 (a): a validate case needs request");
    fails(
      "- name: a\n  operation: validate\n  expect: {allowed: true}\n",
      "c.yml: case 1 (a): a validate case needs request",
    );
    fails(
      "- name: a\n  request: r.json\n  expect: {valid: true}\n",
      "c.yml: case 1 (a): expect.allowed is required for validate cases",
    );
    fails(
      "- name: a\n  request: r.json\n  expect: {allowed: yes-please}\n",
      "c.yml: case 1 (a): expect.allowed is required for validate cases",
    );
    fails(
      "- name: a\n  operation: validate_settings\n  expect: {allowed: true}\n",
      "c.yml: case 1 (a): expect.valid is required for validate_settings cases",
    );
    assert.equal(
      parseCases("- name: a\n  operation: validate_settings\n  expect: {valid: false}\n", "c.yml").length,
      1,
    );
    fails(`- name: a${ok}  session: s.yml\n  cluster: c.yml\n`, "c.yml: case 1 (a): use session or cluster, not both");
  });
});

describe("JSON differences", () => {
  test("the first difference with its JSON Pointer, or nothing", () => {
    assert.equal(jsonDifference({ a: [1, { b: null }] }, { a: [1, { b: null }] }), undefined);
    assert.equal(jsonDifference(1, "1"), '/: expected 1, got "1"');
    assert.equal(jsonDifference(1, {}), "/: expected 1, got {}");
    assert.equal(jsonDifference(null, {}), "/: expected null, got {}");
    assert.equal(jsonDifference({}, null), "/: expected {}, got null");
    assert.equal(jsonDifference([], {}), "/: expected [], got {}");
    assert.equal(jsonDifference({ a: 1 }, { a: 1, b: 2 }), "/b: expected (absent), got 2");
    assert.equal(jsonDifference({ a: 1, b: 2 }, { a: 1 }), "/b: expected 2, got (absent)");
    assert.equal(jsonDifference([1, 2], [1]), "/: expected 2 items, got 1");
    assert.equal(jsonDifference({ x: [1, 2] }, { x: [1, 3] }), "/x/1: expected 2, got 3");
    assert.equal(jsonDifference({ "a/b~c": { "~": 1 } }, { "a/b~c": { "~": 2 } }), "/a~1b~0c/~0: expected 1, got 2");
    assert.equal(jsonDifference({ a: 1, b: 1 }, { a: 2, b: 2 }), "/a: expected 1, got 2");
  });
});

describe("running cases", () => {
  let dir: string;
  let probe: PolicyModule;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cases-"));
    probe = PolicyModule.fromFile(annotatedProbePath(PROBE_METADATA));
    const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns" } };
    const write = (name: string, value: unknown) =>
      fs.writeFileSync(path.join(dir, name), typeof value === "string" ? value : JSON.stringify(value));
    write("r.json", podRequest(pod));
    write("accept.json", replyWith({ accepted: true, message: "fine" }));
    write("reject.json", replyWith({ accepted: false, message: "no pods", code: 403 }));
    write("reject-bare.json", replyWith({ accepted: false }));
    write("trap.json", { probe: "trap" });
    const annotated = (annotations: Record<string, string>, labels?: Record<string, string>) => ({
      ...pod,
      metadata: { ...pod.metadata, annotations, ...(labels ? { labels } : {}) },
    });
    write("mutate-skip.json", replyWith({ accepted: true, mutated_object: annotated({ "x.io/skip-reason": "r1" }) }));
    write(
      "mutate-many.json",
      replyWith({ accepted: true, mutated_object: annotated({ a: "1" }, { l1: "1", l2: "2", l3: "3", l4: "4" }) }),
    );
    const four = { ...pod, metadata: { ...pod.metadata, name: "q" }, spec: {}, status: {}, extra: 1 };
    write("mutate-five.json", replyWith({ accepted: true, mutated_object: { ...four, more: 2 } }));
    write(
      "mutate-four.json",
      replyWith({
        accepted: true,
        mutated_object: { ...pod, metadata: { ...pod.metadata, name: "q" }, spec: {}, status: {}, extra: 1 },
      }),
    );
    write(
      "audit-skip.json",
      replyWith({
        accepted: true,
        audit_annotations: { "x.io/other": "o", "x.io/skip-reason": "r2" },
        warnings: ["w1"],
      }),
    );
    write("settings-invalid.json", { settings_probe: "invalid", message: "ratio is wrong" });
    write("settings-trap.json", { settings_probe: "reply", settings_reply: "{" });
    write(
      "expected.yml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns, annotations: {x.io/skip-reason: r1}}\n",
    );
    write(
      "lookups.json",
      hostCallsWith([
        "kubewarden",
        "kubernetes",
        "get_resource",
        { api_version: "v1", kind: "ConfigMap", name: "cm", namespace: "ns", disable_cache: false },
      ]),
    );
    write("objects.yml", "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: ns}}\n");
    write(
      "session.yml",
      "- type: Exchange\n  request: '!KubernetesGetResource {api_version: v1, kind: ConfigMap, name: cm, namespace: ns, disable_cache: false}'\n  response: {type: Success, payload: 'recorded'}\n" +
        "- type: Exchange\n  request: '!KubernetesGetResource {}'\n  response: {type: Success, payload: ''}\n",
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const one = (yml: string): CaseSpec => parseCases(yml, "c.yml")[0];
  const run = (yml: string) => runCase("fixture", probe, one(yml), dir);
  const brief = (yml: string) => {
    const r = run(yml);
    return { ok: r.ok, failures: r.failures, decision: r.decision, summary: r.summary, notes: r.notes };
  };

  test("decision and summary: accepted (its message), rejected (code and message), mutated (the first four ops)", () => {
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: accept.json\n  expect: {allowed: true, message: fine}\n"),
      {
        ok: true,
        failures: [],
        decision: "accepted",
        summary: "fine",
        notes: [],
      },
    );
    assert.deepEqual(
      brief(
        "- name: a\n  description: why\n  request: r.json\n  settings: reject.json\n  expect: {allowed: false, code: 403, message: no pods}\n",
      ),
      { ok: true, failures: [], decision: "rejected", summary: "403 no pods", notes: [] },
    );
    assert.equal(
      run("- name: a\n  description: why\n  request: r.json\n  expect: {allowed: true}\n").description,
      "why",
    );
    assert.equal(run(`- name: a${ok}`).description, "");
    assert.equal(
      run("- name: a\n  request: r.json\n  settings: reject-bare.json\n  expect: {allowed: false}\n").summary,
      "",
    );
    assert.equal(run(`- name: a${ok}`).summary, "");
    // a code the case does not expect is not checked
    assert.deepEqual(
      run("- name: a\n  request: r.json\n  settings: reject.json\n  expect: {allowed: false}\n").failures,
      [],
    );
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: mutate-four.json\n  expect: {allowed: true, mutated: true}\n"),
      {
        ok: true,
        failures: [],
        decision: "mutated",
        summary: "replace /metadata/name, add /spec, add /status, add /extra",
        notes: [],
      },
    );
    assert.equal(
      run("- name: a\n  request: r.json\n  settings: mutate-five.json\n  expect: {allowed: true}\n").summary,
      "replace /metadata/name, add /spec, add /status, add /extra, … (5 ops)",
    );
  });

  test("a skip reason is shown from the audit annotations or the object's annotations", () => {
    // other annotations are no skip reason
    assert.equal(
      run("- name: a\n  request: r.json\n  settings: mutate-many.json\n  expect: {allowed: true}\n").summary,
      "add /metadata/annotations, add /metadata/labels",
    );
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: audit-skip.json\n  expect: {allowed: true, warnings: [w1]}\n"),
      {
        ok: true,
        failures: [],
        decision: "accepted",
        summary: "skip: r2",
        notes: [],
      },
    );
    assert.equal(
      run("- name: a\n  request: r.json\n  settings: mutate-skip.json\n  expect: {allowed: true}\n").summary,
      "add /metadata/annotations [skip: r1]",
    );
  });

  test("every unmet expectation is one failure line; met ones add none", () => {
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: mutate-skip.json\n  expect: {allowed: true, mutated: true, object: expected.yml, " +
          "messageContains: '', annotations: {x.io/skip-reason: r1, absent: null}, warnings: [], auditAnnotations: {}}\n",
      ).failures,
      [],
    );
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: accept.json\n  expect: {allowed: true, mutated: true, object: expected.yml, messageContains: nope}\n",
      ).failures,
      [
        "mutated: expected true, got false",
        'object (expected.yml) differs at /metadata/annotations: expected {"x.io/skip-reason":"r1"}, got (absent)',
        'message: expected to contain "nope", got "fine"',
      ],
    );
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: reject.json\n  expect: {allowed: true, code: 400, messageContains: pods, warnings: [w], auditAnnotations: {}}\n",
      ).failures,
      [
        "allowed: expected true, got false (no pods)",
        "code: expected 400, got 403",
        "warnings differ at /: expected 1 items, got 0",
      ],
    );
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: reject-bare.json\n  expect: {allowed: true, messageContains: r}\n",
      ).failures,
      ["allowed: expected true, got false", 'message: expected to contain "r", got null'],
    );
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: audit-skip.json\n  expect: {allowed: true, mutated: false, auditAnnotations: {x.io/other: o}, message: fine}\n",
      ).failures,
      [
        'message: expected "fine", got null',
        'auditAnnotations differ at /x.io~1skip-reason: expected (absent), got "r2"',
      ],
    );
    assert.deepEqual(
      brief(
        "- name: a\n  request: r.json\n  settings: accept.json\n  expect: {allowed: true, annotations: {a: null}}\n",
      ).failures,
      [],
    );
  });

  test("a trap is a failure of its own, besides the 500 rejection", () => {
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: trap.json\n  expect: {allowed: false, code: 500}\n"),
      {
        ok: false,
        failures: ["the policy trapped: wasm trap: unreachable"],
        decision: "rejected",
        summary: "500 internal server error: Guest call failure: wasm trap: unreachable",
        notes: [],
      },
    );
  });

  test("validate_settings cases: valid or not, with the message", () => {
    assert.deepEqual(brief("- name: a\n  operation: validate_settings\n  expect: {valid: true}\n"), {
      ok: true,
      failures: [],
      decision: "settings valid",
      summary: "",
      notes: [],
    });
    assert.deepEqual(
      brief(
        "- name: a\n  operation: validate_settings\n  settings: settings-invalid.json\n  expect: {valid: false, message: ratio is wrong}\n",
      ),
      { ok: true, failures: [], decision: "settings invalid", summary: "ratio is wrong", notes: [] },
    );
    assert.deepEqual(
      brief(
        "- name: a\n  operation: validate_settings\n  settings: settings-invalid.json\n  expect: {valid: true, messageContains: ratio}\n",
      ),
      {
        ok: false,
        failures: ["valid: expected true, got false (ratio is wrong)"],
        decision: "settings invalid",
        summary: "ratio is wrong",
        notes: [],
      },
    );
    assert.deepEqual(brief("- name: a\n  operation: validate_settings\n  expect: {valid: false}\n").failures, [
      "valid: expected false, got true",
    ]);
    const bad = brief(
      "- name: a\n  operation: validate_settings\n  settings: settings-trap.json\n  expect: {valid: false}\n",
    );
    assert.equal(bad.decision, "settings invalid");
    assert.deepEqual(bad.failures, []);
  });

  test("a trap in validate_settings is a failure of its own, in both kinds of case", () => {
    const trapping = Object.create(probe) as PolicyModule;
    trapping.call = (operation, payload, opts) =>
      operation === "validate_settings"
        ? { ok: false, trapped: true, trap: "wasm trap: unreachable", memoryBytes: 0 }
        : probe.call(operation, payload, opts);
    const settingsCase = runCase(
      "fixture",
      trapping,
      one("- name: a\n  operation: validate_settings\n  expect: {valid: false}\n"),
      dir,
    );
    assert.deepEqual(settingsCase.failures, ["the policy trapped: wasm trap: unreachable"]);
    assert.equal(
      settingsCase.summary,
      "Error invoking settings validation callback: Guest call failure: wasm trap: unreachable",
    );
    const validateCase = runCase("fixture", trapping, one(`- name: a${ok}`), dir);
    assert.deepEqual(validateCase.failures, [
      "settings are not valid: Error invoking settings validation callback: Guest call failure: wasm trap: unreachable (trap)",
    ]);
  });

  test("a validate case whose settings are invalid fails before validate", () => {
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: settings-invalid.json\n  expect: {allowed: true}\n"),
      {
        ok: false,
        failures: ["settings are not valid: ratio is wrong"],
        decision: "settings invalid",
        summary: "ratio is wrong",
        notes: [],
      },
    );
  });

  test("host capabilities: the metadata's grants unless contextAware is false, the case's allow-list, a session or cluster objects", () => {
    const lookup = (extra: string) =>
      run(`- name: a\n  request: r.json\n  settings: lookups.json\n${extra}  expect: {allowed: true}\n`);
    const message = (extra: string) => lookup(extra).evaluation!.response!.status!.message;
    assert.equal(
      message("  cluster: objects.yml\n"),
      'ok:{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"ns"}}',
    );
    assert.match(message("  cluster: objects.yml\n  contextAware: false\n")!, /^err:.*v1\/ConfigMap/);
    assert.equal(message("  cluster: objects.yml\n  contextAware: true\n")!.startsWith("ok:"), true);
    assert.match(message("  cluster: objects.yml\n  hostCapabilities: [oci/*]\n")!, /^err:.*host capability/);
    assert.equal(
      message("  cluster: objects.yml\n  hostCapabilities: [kubernetes/get_resource]\n")!.startsWith("ok:"),
      true,
    );
    const replayed = lookup("  session: session.yml\n");
    assert.equal(replayed.evaluation!.response!.status!.message, "ok:recorded");
    assert.deepEqual(replayed.notes, ["replay session: 1 recorded exchange(s) were not used by the policy"]);
    assert.equal(message(""), "err:Callback evaluation failure: kube::Client was not initialized properly");
  });

  test("the case's missing files fail the case with one line", () => {
    for (const [key, what] of [
      ["settings", "settings"],
      ["session", "replay session"],
      ["cluster", "cluster objects"],
    ]) {
      assert.deepEqual(brief(`- name: a\n  request: r.json\n  ${key}: nope.yml\n  expect: {allowed: true}\n`), {
        ok: false,
        failures: [`cannot read ${what} ${path.join(dir, "nope.yml")}: ENOENT: no such file (check the path)`],
        decision: "error",
        summary: `cannot read ${what} ${path.join(dir, "nope.yml")}: ENOENT: no such file (check the path)`,
        notes: [],
      });
    }
    assert.deepEqual(
      brief("- name: a\n  request: r.json\n  settings: accept.json\n  expect: {allowed: true, object: nope.yml}\n")
        .failures,
      [`cannot read expected object ${path.join(dir, "nope.yml")}: ENOENT: no such file (check the path)`],
    );
  });

  test("a policy folder: its cases, the selected ones only, or the error that stopped them all", () => {
    const policies = path.join(dir, "policies");
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    };
    write(path.join(policies, "b-policy", "test_data", "cases.yml"), `- name: one${ok}- name: two${ok}`);
    fs.copyFileSync(path.join(dir, "r.json"), path.join(policies, "b-policy", "test_data", "r.json"));
    fs.copyFileSync(annotatedProbePath(PROBE_METADATA), path.join(policies, "b-policy", "annotated-policy.wasm"));
    write(path.join(policies, "a-policy", "test_data", "cases.yml"), "a: 1\n");
    write(path.join(policies, "no-cases", "test_data", "other.yml"), "");
    write(path.join(policies, "file-only"), "");
    assert.deepEqual(policiesWithCases(policies), ["a-policy", "b-policy"]);
    assert.deepEqual(policiesWithCases(path.join(dir, "absent")), []);
    assert.deepEqual(
      loadCases(path.join(policies, "b-policy")).map((c) => c.name),
      ["one", "two"],
    );

    const all = runPolicyCases(path.join(policies, "b-policy"));
    assert.deepEqual(
      [all.policy, all.error, all.results.map((r) => `${r.policy}/${r.name}:${r.ok}`)],
      ["b-policy", undefined, ["b-policy/one:true", "b-policy/two:true"]],
    );
    assert.deepEqual(
      runPolicyCases(path.join(policies, "b-policy"), { only: ["two"] }).results.map((r) => r.name),
      ["two"],
    );
    const casesFile = path.join(policies, "a-policy", "test_data", "cases.yml");
    assert.deepEqual(runPolicyCases(path.join(policies, "a-policy")), {
      policy: "a-policy",
      error: `${casesFile}: expected a YAML list of cases`,
      results: [],
    });
    assert.deepEqual(runPolicyCases(path.join(policies, "no-cases")), {
      policy: "no-cases",
      error: `cannot read cases ${path.join(policies, "no-cases", "test_data", "cases.yml")}: ENOENT: no such file (check the path)`,
      results: [],
    });
    const other = path.join(dir, "elsewhere.wasm");
    const r = runPolicyCases(path.join(policies, "b-policy"), { modulePath: other });
    assert.equal(r.results.length, 0);
    assert.match(r.error!, /elsewhere\.wasm/);
    assert.doesNotMatch(r.error!, /\n/);
  });
});
