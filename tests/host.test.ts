// The policy-server-like Node host: guest lifecycle, response strictness, patches, post-processing,
// host-capability gating, replay sessions and cluster objects (docs/wasm-contract.md).
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PolicyModule, GuestLoadError } from "../tools/host/guest";
import { WarmInstance } from "../tools/host/instance";
import { evaluate, EvaluationOptions, validateSettings } from "../tools/host/evaluate";
import { evaluateWithDeadline } from "../tools/host/evaluate-worker";
import { decodePatch, DELETE_MUTATION_TEXT, TIMEOUT_TEXT } from "../tools/host/response";
import { parseReplaySession } from "../tools/host/replay";
import { parseClusterObjects } from "../tools/host/cluster";
import { capabilityAllowed, HostCapabilities } from "../tools/host/capabilities";
import { deserialize } from "../tools/host/serde";
import { pluralResource, toAdmissionRequest, MANIFEST_REQUEST_UID } from "../tools/host/request";
import { readPolicyMetadata, metadataContextAwareResources } from "../tools/host/metadata";
import { parseCases, runCase } from "../tools/host/cases";
import {
  annotatedProbePath,
  hostCallsWith,
  podRequest,
  probeWasmBytes,
  PROBE_METADATA,
  replyWith,
  watToWasm,
} from "./helpers/host-guests";

let probe: PolicyModule;
before(() => {
  probe = PolicyModule.fromBytes(probeWasmBytes(), "host-probe");
});

function run(
  settings: Record<string, unknown>,
  opts: Omit<EvaluationOptions, "settings"> = {},
  request = podRequest(),
) {
  return evaluate(probe, request as never, { settings, ...opts });
}

/** The probe's message after a `hostcalls` run: one `ok:`/`err:` line per call. */
function hostCallLines(settings: Record<string, unknown>, opts: Omit<EvaluationOptions, "settings"> = {}): string[] {
  const r = run(settings, opts);
  assert.equal(r.response?.allowed, true, JSON.stringify(r.response));
  return (r.response!.status!.message ?? "").split("\n");
}

const CONFIGMAP = { apiVersion: "v1", kind: "ConfigMap" };
const getConfigMap = (name: string, namespace: string | null = "ns", extra: Record<string, unknown> = {}) =>
  [
    "kubewarden",
    "kubernetes",
    "get_resource",
    { api_version: "v1", kind: "ConfigMap", name, namespace, disable_cache: false, ...extra },
  ] as [string, string, string, unknown];

describe("guest lifecycle", () => {
  test("every call gets a fresh instance: state does not persist", () => {
    for (let i = 0; i < 3; i++) assert.equal(run({ probe: "state" }).response?.status?.message, "init=SW calls=1");
  });

  test("_start runs before wapc_init, both before __guest_call (AssemblyScript probe)", () => {
    assert.match(run({ probe: "state" }).response!.status!.message!, /^init=SW /);
  });

  test("_start runs before wapc_init (hand-written WAT)", async () => {
    const bytes = await watToWasm(`(module
      (import "wapc" "__guest_response" (func $resp (param i32 i32)))
      (memory (export "memory") 1)
      (global $n (mut i32) (i32.const 0))
      (func $mark (param $c i32) (i32.store8 (global.get $n) (local.get $c)) (global.set $n (i32.add (global.get $n) (i32.const 1))))
      (func (export "wapc_init") (call $mark (i32.const 87)))
      (func (export "_start") (call $mark (i32.const 83)))
      (func (export "__guest_call") (param i32 i32) (result i32) (call $resp (i32.const 0) (global.get $n)) (i32.const 1)))`);
    const r = PolicyModule.fromBytes(bytes, "order.wat").call("validate", "{}");
    assert.equal(r.ok, true);
    assert.equal(r.response!.toString(), "SW");
  });

  test("a module with an env import fails to load, naming the import", async () => {
    const bytes = await watToWasm(`(module
      (import "env" "abort" (func (param i32 i32 i32 i32)))
      (memory (export "memory") 1)
      (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 0)))`);
    assert.throws(
      () => PolicyModule.fromBytes(bytes, "env.wat"),
      (e: Error) => e instanceof GuestLoadError && /unknown import: env::abort has not been defined/.test(e.message),
    );
  });

  // policy-server links only the nine waPC host functions: any other `wapc` name (a typo, or one a
  // newer waPC adds) and any `wapc` import that is not a function fail at load, not at instantiation.
  for (const [what, line, named] of [
    ["a wapc function outside the nine", '(import "wapc" "__bogus" (func (param i32 i32)))', "wapc::__bogus"],
    ["a wapc global", '(import "wapc" "__console_log" (global i32))', "wapc::__console_log"],
    ["a wapc table", '(import "wapc" "table" (table 1 funcref))', "wapc::table"],
  ]) {
    test(`a module importing ${what} fails to load, naming the import`, async () => {
      const bytes = await watToWasm(`(module
        (import "wapc" "__guest_response" (func (param i32 i32)))
        ${line}
        (memory (export "memory") 1)
        (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 0)))`);
      assert.throws(
        () => PolicyModule.fromBytes(bytes, "bogus.wat"),
        (e: Error) =>
          e instanceof GuestLoadError &&
          e.message ===
            `bogus.wat: unknown import: ${named} has not been defined (only the wapc host functions are provided)`,
      );
    });
  }

  test("every one of the nine wapc host functions may be imported", async () => {
    const names = [
      "__guest_request",
      "__guest_response",
      "__guest_error",
      "__host_call",
      "__host_response_len",
      "__host_response",
      "__host_error_len",
      "__host_error",
      "__console_log",
    ];
    const bytes = await watToWasm(`(module
      ${names.map((n) => `(import "wapc" "${n}" (func))`).join("\n      ")}
      (memory (export "memory") 1)
      (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 0)))`);
    assert.deepEqual(
      WebAssembly.Module.imports(PolicyModule.fromBytes(bytes, "all.wat").module).map((i) => i.name),
      names,
    );
  });

  test("a trap in _start is an initialisation failure, reported as a rejection", async () => {
    const bytes = await watToWasm(`(module
      (memory (export "memory") 1)
      (func (export "_start") unreachable)
      (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 1)))`);
    const m = PolicyModule.fromBytes(bytes, "start-trap.wat");
    const r = validateSettings(m, {});
    assert.equal(r.valid, false);
    assert.match(r.message!, /^Error invoking settings validation callback: Initialization failed: /);
    assert.ok(r.trap);
  });

  test("a trap in __guest_call is a 500 rejection; the trap text replaces __guest_error", () => {
    for (const mode of ["trap", "abort"]) {
      const r = run({ probe: mode });
      assert.deepEqual(r.response, {
        uid: "11111111-2222-3333-4444-555555555555",
        allowed: false,
        status: { message: "internal server error: Guest call failure: wasm trap: unreachable", code: 500 },
        auditAnnotations: null,
        warnings: null,
      });
      assert.equal(r.trap, "wasm trap: unreachable");
    }
  });

  test("a guest error (return 0) carries the guest's text; success without response is an error", () => {
    assert.equal(
      run({ probe: "error", error: "boom" }).response?.status?.message,
      "internal server error: Guest call failure: boom",
    );
    assert.equal(
      run({ probe: "silent" }).response?.status?.message,
      "internal server error: Guest call failure: No error message OR response set for call success",
    );
  });

  test("__console_log and tracing/log reach the log hook", () => {
    const lines: string[] = [];
    run({ probe: "log" }, { log: (l) => lines.push(l) });
    run(hostCallsWith(["kubewarden", "tracing", "log", { level: "info", message: "traced" }]), {
      log: (l) => lines.push(l),
    });
    assert.deepEqual(lines, ["probe log line", '{"level":"info","message":"traced"}']);
  });
});

describe("guest loading and the wapc import functions", () => {
  const guestCall = (body: string, extra = "") => `(module
    (import "wapc" "__guest_response" (func $resp (param i32 i32)))
    (import "wapc" "__guest_error" (func $err (param i32 i32)))
    (import "wapc" "__console_log" (func $log (param i32 i32)))
    ${extra}
    (memory (export "memory") 1)
    (func (export "__guest_call") (param i32 i32) (result i32) ${body}))`;

  test("a module that is not wasm, or lacks __guest_call or memory, fails to load with a message naming it", async () => {
    assert.throws(
      () => PolicyModule.fromBytes(Buffer.from("hello"), "h.wasm"),
      (e: Error) => e instanceof GuestLoadError && e.message.startsWith("h.wasm: not a valid WebAssembly module: "),
    );
    const noCall = await watToWasm(
      '(module (memory (export "memory") 1) (func (export "__guest_calls") (param i32 i32) (result i32) (i32.const 0)))',
    );
    assert.throws(
      () => PolicyModule.fromBytes(noCall, "nc.wat"),
      (e: Error) => e instanceof GuestLoadError && e.message === "nc.wat: missing export __guest_call",
    );
    const callNotFunction = await watToWasm(
      '(module (memory (export "memory") 1) (global (export "__guest_call") i32 (i32.const 0)))',
    );
    assert.throws(
      () => PolicyModule.fromBytes(callNotFunction, "g.wat"),
      (e: Error) => e.message === "g.wat: missing export __guest_call",
    );
    const noMemory = await watToWasm(
      '(module (memory (export "mem") 1) (func (export "__guest_call") (param i32 i32) (result i32) (i32.const 0)))',
    );
    assert.throws(
      () => PolicyModule.fromBytes(noMemory, "nm.wat"),
      (e: Error) => e instanceof GuestLoadError && e.message === "nm.wat: missing export memory",
    );
    const missing = path.join(os.tmpdir(), "cachewarden-no-such-module.wasm");
    assert.throws(
      () => PolicyModule.fromFile(missing),
      (e: Error) =>
        e instanceof GuestLoadError && e.message === `cannot read ${missing}: ENOENT: no such file (check the path)`,
    );
  });

  test("a module whose instantiation traps (a start section) is a trap, with no memory", async () => {
    const bytes = await watToWasm(guestCall("(i32.const 1)", "(func $boom unreachable) (start $boom)"));
    const r = PolicyModule.fromBytes(bytes, "start.wat").call("validate", "{}");
    assert.equal(r.ok, false);
    assert.equal(r.trapped, true);
    assert.match(r.trap!, /^instantiation failed: /);
    assert.equal(r.memoryBytes, 0);
  });

  test("a waPC function name under another module is still an unknown import", async () => {
    const bytes = await watToWasm(guestCall("(i32.const 0)", '(import "env" "__console_log" (func (param i32 i32)))'));
    assert.throws(
      () => PolicyModule.fromBytes(bytes),
      (e: Error) =>
        e instanceof GuestLoadError &&
        e.message ===
          "<module>: unknown import: env::__console_log has not been defined (only the wapc host functions are provided)",
    );
  });

  test("a host call during instantiation (a start section) fails: memory is not exported yet", async () => {
    const bytes = await watToWasm(
      guestCall("(i32.const 1)", "(func $early (call $resp (i32.const 0) (i32.const 1))) (start $early)"),
    );
    const r = PolicyModule.fromBytes(bytes, "early.wat").call("validate", "{}");
    assert.equal(r.trap, "instantiation failed: guest called the host before its memory was exported");
  });

  test("a warm instance is unusable after a trap", () => {
    const warm = new WarmInstance(probe.module);
    const payload = (settings: Record<string, unknown>) => JSON.stringify({ request: podRequest(), settings });
    assert.equal(warm.call("validate", payload({})).ok, true);
    const trap = warm.call("validate", payload({ probe: "trap" }));
    assert.equal(trap.trapped, true);
    const after = warm.call("validate", payload({}));
    assert.deepEqual(
      [after.ok, after.trapped, after.trap],
      [false, true, `instance is unusable after an earlier trap: ${trap.trap}`],
    );
  });

  test("a call reports its wall time and the memory size after it", async () => {
    const bytes = await watToWasm(
      guestCall("(drop (memory.grow (i32.const 2))) (call $resp (i32.const 0) (i32.const 0)) (i32.const 1)"),
    );
    const r = PolicyModule.fromBytes(bytes, "grow.wat").call("validate", "{}");
    assert.equal(r.ok, true);
    assert.equal(r.memoryBytes, 3 * 65536);
    assert.ok(r.elapsedMs! >= 0 && r.elapsedMs! < 60_000, String(r.elapsedMs));
  });

  test("guest buffers must lie inside memory: the bound from both sides, for every import that reads guest memory", async () => {
    const page = 65536;
    const outcome = async (fn: string, ptr: number, len: number) => {
      const call =
        fn === "$resp"
          ? `(call $resp (i32.const ${ptr}) (i32.const ${len})) (i32.const 1)`
          : `(call ${fn} (i32.const ${ptr}) (i32.const ${len})) (call $resp (i32.const 0) (i32.const 2)) (i32.const 1)`;
      const lines: string[] = [];
      const r = PolicyModule.fromBytes(await watToWasm(guestCall(call)), "buf.wat").call("validate", "{}", {
        log: (l) => lines.push(l),
      });
      return r.trapped ? r.trap : `ok ${fn === "$resp" ? r.response!.length : fn === "$log" ? lines[0].length : 0}`;
    };
    for (const fn of ["$resp", "$err", "$log"]) {
      const range = (ptr: number, len: number) => `wasm trap: guest passed an out-of-range buffer (${ptr}+${len})`;
      assert.equal(await outcome(fn, page - 11, 10), fn === "$err" ? "ok 0" : "ok 10", fn);
      assert.equal(await outcome(fn, page - 10, 10), fn === "$err" ? "ok 0" : "ok 10", fn);
      assert.equal(await outcome(fn, page - 9, 10), range(page - 9, 10), fn);
      assert.equal(await outcome(fn, 0, 10 * page), range(0, 10 * page), fn);
      assert.equal(await outcome(fn, -1, 1), range(-1, 1), fn);
      assert.equal(await outcome(fn, 0, -1), range(0, -1), fn);
    }
  });

  test("__guest_error text is the error; a 0 return without it gets the host's text", async () => {
    const withError = await watToWasm(
      guestCall("(call $err (i32.const 0) (i32.const 4)) (i32.const 0)", '(data (i32.const 0) "oops")'),
    );
    assert.deepEqual(PolicyModule.fromBytes(withError, "e.wat").call("validate", "{}").error, "oops");
    const silent = await watToWasm(guestCall("(i32.const 0)"));
    assert.deepEqual(
      PolicyModule.fromBytes(silent, "s.wat").call("validate", "{}").error,
      "No error message set for call failure",
    );
  });

  test("without a host-call handler every host call fails with the host's text", () => {
    const r = probe.call(
      "validate",
      JSON.stringify({
        request: podRequest(),
        settings: hostCallsWith(getConfigMap("x"), ["kubewarden", "tracing", "log", {}]),
      }),
    );
    assert.equal(r.ok, true);
    assert.equal(
      JSON.parse(r.response!.toString()).message,
      "err:host capabilities are not available\nerr:host capabilities are not available",
    );
  });
});

describe("ValidationResponse strictness (serde)", () => {
  const message = (reply: string) => run(replyWith(reply)).response?.status?.message;

  test("code 70000 does not fit u16", () => {
    assert.equal(
      message('{"accepted":true,"code":70000}'),
      "internal server error: invalid response from policy: invalid value: integer `70000`, expected u16 at line 1 column 29",
    );
  });

  test("a non-string warning is rejected", () => {
    assert.equal(
      message('{"accepted":true,"warnings":["ok",1]}'),
      "internal server error: invalid response from policy: invalid type: integer `1`, expected a string at line 1 column 35",
    );
  });

  test("a non-string audit annotation value is rejected", () => {
    assert.match(
      message('{"accepted":true,"audit_annotations":{"k":true}}')!,
      /invalid type: boolean `true`, expected a string/,
    );
  });

  test("missing accepted, wrong types, floats and duplicates are serde errors", () => {
    assert.match(message('{"message":"x"}')!, /missing field `accepted` at line 1 column 15$/);
    assert.match(message('{"accepted":"yes"}')!, /invalid type: string "yes", expected a boolean/);
    assert.match(message('{"accepted":true,"code":422.0}')!, /invalid type: floating point `422.0`, expected u16/);
    assert.match(message('{"accepted":true,"accepted":false}')!, /duplicate field `accepted`/);
    assert.match(message("not json")!, /invalid response from policy: expected value at line 1 column 1/);
    assert.match(message('{"accepted":true} x')!, /trailing characters/);
  });

  test("a camelCase mutatedObject is an unknown key: ignored, no patch", () => {
    const r = run(replyWith({ accepted: true, mutatedObject: { changed: true } })).response!;
    assert.equal(r.allowed, true);
    assert.equal(r.patch, undefined);
    assert.equal(r.patchType, undefined);
  });

  test("unknown keys are ignored and null optionals accepted", () => {
    const r = run(
      replyWith(
        '{"accepted":false,"message":null,"code":null,"warnings":null,"audit_annotations":null,"mutated_object":null,"extra":[1,{"a":2}]}',
      ),
    ).response!;
    assert.deepEqual(r, {
      uid: "11111111-2222-3333-4444-555555555555",
      allowed: false,
      auditAnnotations: null,
      warnings: null,
    });
  });

  test("kwctl key order and null-ness: auditAnnotations/warnings null when empty", () => {
    const r = run(
      replyWith({ accepted: false, message: "no", code: 422, warnings: [], audit_annotations: {} }),
    ).response!;
    assert.equal(
      JSON.stringify(r),
      '{"uid":"11111111-2222-3333-4444-555555555555","allowed":false,"status":{"message":"no","code":422},"auditAnnotations":null,"warnings":null}',
    );
    const w = run(replyWith({ accepted: true, warnings: ["w1"], audit_annotations: { "skip-reason": "x" } })).response!;
    assert.equal(
      JSON.stringify(w),
      '{"uid":"11111111-2222-3333-4444-555555555555","allowed":true,"auditAnnotations":{"skip-reason":"x"},"warnings":["w1"]}',
    );
  });

  test("settings responses are strict too", () => {
    const r = validateSettings(probe, { settings: { settings_probe: "reply", settings_reply: '{"valid":1}' } });
    assert.equal(r.valid, false);
    assert.match(
      r.message!,
      /^Error invoking settings validation callback: invalid response from policy: invalid type: integer `1`, expected a boolean/,
    );
    assert.deepEqual(validateSettings(probe, { settings: { settings_probe: "invalid", message: "engines: bad" } }), {
      valid: false,
      message: "engines: bad",
    });
    assert.equal(
      validateSettings(probe, { settings: { settings_probe: "error" } }).message,
      "Error invoking settings validation callback: Guest call failure: settings exploded",
    );
  });

  test("invalid settings stop the evaluation before validate", () => {
    const r = run({ settings_probe: "invalid", message: "nope", probe: "trap" });
    assert.equal(r.response, undefined);
    assert.deepEqual(r.settings, { valid: false, message: "nope" });
  });
});

describe("mutation → JSONPatch", () => {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", labels: { a: "1" } },
    spec: { containers: [{ name: "c", image: "i" }] },
  };

  test("mutated_object becomes a base64 RFC 6902 patch of request.object", () => {
    const mutated = structuredClone(pod) as typeof pod & { metadata: { annotations?: Record<string, string> } };
    mutated.metadata.annotations = { injected: "yes" };
    mutated.spec.containers[0].image = "j";
    const r = run(replyWith({ accepted: true, mutated_object: mutated }), {}, podRequest(pod));
    assert.equal(r.response?.patchType, "JSONPatch");
    const ops = decodePatch(r.response!.patch!);
    assert.deepEqual(
      new Set(ops.map((o) => `${o.op} ${o.path}`)),
      new Set(["add /metadata/annotations", "replace /spec/containers/0/image"]),
    );
    assert.deepEqual(r.mutatedObject, mutated);
    assert.deepEqual(r.patchOperations, ops);
    assert.deepEqual(Object.keys(r.response!), [
      "uid",
      "allowed",
      "patchType",
      "patch",
      "auditAnnotations",
      "warnings",
    ]);
  });

  test("an unchanged mutated_object produces no patch", () => {
    const r = run(replyWith({ accepted: true, mutated_object: pod }), {}, podRequest(pod));
    assert.equal(r.response?.patch, undefined);
    assert.equal(r.response?.patchType, undefined);
  });

  test("mutating a DELETE (no object) is rejected", () => {
    const del = podRequest(null, { operation: "DELETE", oldObject: pod });
    const r = run(replyWith({ accepted: true, mutated_object: pod }), {}, del);
    assert.deepEqual(r.response?.status, { message: `internal server error: ${DELETE_MUTATION_TEXT}`, code: 500 });
    assert.equal(r.response?.allowed, false);
  });
});

describe("post-processing (admission_response_handler)", () => {
  const pod = { metadata: { name: "p" } };
  const mutate = replyWith({
    accepted: true,
    warnings: ["w"],
    mutated_object: { metadata: { name: "p", labels: { x: "y" } } },
  });

  test("monitor mode accepts, drops patch and status, keeps warnings and audit annotations", () => {
    const r = run(
      replyWith({ accepted: false, message: "no", code: 403, warnings: ["w"], audit_annotations: { k: "v" } }),
      { mode: "monitor" },
    );
    assert.deepEqual(r.response, {
      uid: "11111111-2222-3333-4444-555555555555",
      allowed: true,
      auditAnnotations: { k: "v" },
      warnings: ["w"],
    });
    const m = run(mutate, { mode: "monitor" }, podRequest(pod)).response!;
    assert.equal(m.patch, undefined);
    assert.deepEqual(m.warnings, ["w"]);
  });

  test("protect mode with mutation not allowed turns a patch into a rejection", () => {
    const r = run(
      mutate,
      { allowedToMutate: false, policyId: "clusterwide-lmcache-injector" },
      podRequest(pod),
    ).response!;
    assert.equal(r.allowed, false);
    assert.equal(r.patch, undefined);
    assert.equal(
      r.status?.message,
      "Request rejected by policy clusterwide-lmcache-injector. The policy attempted to mutate the request, but it is currently configured to not allow mutations.",
    );
    assert.deepEqual(r.warnings, ["w"]);
    // no patch, no rejection
    assert.equal(run({}, { allowedToMutate: false }).response?.allowed, true);
  });

  test("a custom message replaces a rejection's message; the original becomes a cause", () => {
    const r = run(replyWith({ accepted: false, message: "original", code: 422 }), {
      customMessage: "custom",
    }).response!;
    assert.deepEqual(r.status, { message: "custom", code: 422, details: { causes: [{ message: "original" }] } });
    assert.equal(run({}, { customMessage: "custom" }).response?.status, undefined);
  });
});

describe("host capabilities: gating", () => {
  test("binding must be kubewarden; unknown namespace and operation are errors", () => {
    assert.deepEqual(
      hostCallLines(
        hostCallsWith(
          ["other", "kubernetes", "get_resource", "{}"],
          ["kubewarden", "oci", "x", "{}"],
          ["kubewarden", "kubernetes", "list_all_resources", "{}"],
        ),
      ),
      ["err:unknown binding: other", "err:unknown namespace: oci", "err:unknown operation: list_all_resources"],
    );
  });

  test("capability allow-list: exact denial text; checked before the payload is parsed", () => {
    const opts = {
      capabilities: {
        allowedHostCapabilities: ["kubernetes/list_resources_by_namespace"],
        contextAwareResources: [CONFIGMAP],
        cluster: [],
      },
    };
    assert.deepEqual(
      hostCallLines(hostCallsWith(getConfigMap("x"), ["kubewarden", "kubernetes", "get_resource", "not json"]), opts),
      [
        "err:Policy has not been granted access to the 'kubernetes/get_resource' host capability. The violation has been reported.",
        "err:Policy has not been granted access to the 'kubernetes/get_resource' host capability. The violation has been reported.",
      ],
    );
  });

  test("allow-list patterns: *, kubernetes/*, exact path; [] denies everything", () => {
    assert.equal(capabilityAllowed(["*"], "kubernetes/get_resource"), true);
    assert.equal(capabilityAllowed(["kubernetes/*"], "kubernetes/get_resource"), true);
    assert.equal(capabilityAllowed(["oci/*"], "kubernetes/get_resource"), false);
    assert.equal(capabilityAllowed(["kubernetes/get_resource"], "kubernetes/get_resource"), true);
    assert.equal(capabilityAllowed(["kubernetes/get"], "kubernetes/get_resource"), false);
    assert.equal(capabilityAllowed([], "kubernetes/get_resource"), false);
  });

  test("contextAwareResources: exact (apiVersion, kind) match with the exact denial text; empty list (AdmissionPolicy) denies all", () => {
    const deployment = [
      "kubewarden",
      "kubernetes",
      "get_resource",
      { api_version: "apps/v1", kind: "Deployment", name: "d", namespace: "ns", disable_cache: false },
    ] as [string, string, string, unknown];
    const granted = {
      capabilities: {
        contextAwareResources: [CONFIGMAP],
        cluster: [{ ...CONFIGMAP, metadata: { name: "x", namespace: "ns" } }],
      },
    };
    assert.deepEqual(hostCallLines(hostCallsWith(deployment, getConfigMap("x")), granted), [
      "err:Policy has not been granted access to Kubernetes apps/v1/Deployment resources. The violation has been reported.",
      'ok:{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"ns"}}',
    ]);
    const list = [
      "kubewarden",
      "kubernetes",
      "list_resources_by_namespace",
      { api_version: "v1", kind: "ConfigMap", namespace: "ns" },
    ] as [string, string, string, unknown];
    assert.deepEqual(
      hostCallLines(hostCallsWith(getConfigMap("x"), list), {
        capabilities: { contextAwareResources: [], cluster: [] },
      }),
      [
        "err:Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.",
        "err:Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.",
      ],
    );
  });

  test("contextAwareResources: a grant of the same kind in another version or another group is no grant", () => {
    const engine = (apiVersion: string) =>
      [
        "kubewarden",
        "kubernetes",
        "get_resource",
        { api_version: apiVersion, kind: "LMCacheEngine", name: "cb", namespace: "ns", disable_cache: false },
      ] as [string, string, string, unknown];
    const list = (apiVersion: string) =>
      ["kubewarden", "kubernetes", "list_resources_all", { api_version: apiVersion, kind: "LMCacheEngine" }] as [
        string,
        string,
        string,
        unknown,
      ];
    const object = {
      apiVersion: "lmcache.lmcache.ai/v1alpha1",
      kind: "LMCacheEngine",
      metadata: { name: "cb", namespace: "ns" },
    };
    const denied = (apiVersion: string) =>
      `err:Policy has not been granted access to Kubernetes ${apiVersion}/LMCacheEngine resources. The violation has been reported.`;
    for (const grant of ["lmcache.lmcache.ai/v1beta1", "other.lmcache.ai/v1alpha1", "v1alpha1"]) {
      const opts = {
        capabilities: { contextAwareResources: [{ apiVersion: grant, kind: "LMCacheEngine" }], cluster: [object] },
      };
      assert.deepEqual(
        hostCallLines(hostCallsWith(engine("lmcache.lmcache.ai/v1alpha1"), list("lmcache.lmcache.ai/v1alpha1")), opts),
        [denied("lmcache.lmcache.ai/v1alpha1"), denied("lmcache.lmcache.ai/v1alpha1")],
        grant,
      );
    }
    // the exact grant answers (the other side of the same check)
    const exact = {
      capabilities: {
        contextAwareResources: [{ apiVersion: "lmcache.lmcache.ai/v1alpha1", kind: "LMCacheEngine" }],
        cluster: [object],
      },
    };
    assert.deepEqual(hostCallLines(hostCallsWith(engine("lmcache.lmcache.ai/v1alpha1")), exact), [
      `ok:${JSON.stringify(object)}`,
    ]);
  });

  test("contextAwareResources: a grant of another kind in the same apiVersion is no grant either", () => {
    const secret = [
      "kubewarden",
      "kubernetes",
      "get_resource",
      { api_version: "v1", kind: "Secret", name: "x", namespace: "ns", disable_cache: false },
    ] as [string, string, string, unknown];
    const opts = {
      capabilities: {
        contextAwareResources: [CONFIGMAP],
        cluster: [{ apiVersion: "v1", kind: "Secret", metadata: { name: "x", namespace: "ns" } }],
      },
    };
    assert.deepEqual(hostCallLines(hostCallsWith(secret), opts), [
      "err:Policy has not been granted access to Kubernetes v1/Secret resources. The violation has been reported.",
    ]);
  });

  test("a `ns/*` pattern covers exactly that namespace", () => {
    assert.equal(capabilityAllowed(["kubernetes/*"], "kubernetesx/get_resource"), false);
    assert.equal(capabilityAllowed(["kubernetes/*"], "kubernetes"), false);
    assert.equal(capabilityAllowed(["kubernetes/*"], "kubernetes/"), true);
  });

  test("each payload is parsed as its own serde struct (named in the error)", () => {
    const opts = { capabilities: { contextAwareResources: [CONFIGMAP], cluster: [] } };
    const calls = ["get_resource", "list_resources_by_namespace", "list_resources_all", "can_i"].map(
      (op) => ["kubewarden", "kubernetes", op, "1"] as [string, string, string, unknown],
    );
    assert.deepEqual(
      hostCallLines(hostCallsWith(...calls), opts),
      ["GetResourceRequest", "ListResourcesByNamespaceRequest", "ListAllResourcesRequest", "CanIRequest"].map(
        (name) => `err:invalid type: integer \`1\`, expected struct ${name} at line 1 column 1`,
      ),
    );
  });

  test("tracing has only `log`; its payloads are kept in order", () => {
    const h = new HostCapabilities();
    assert.deepEqual(h.handler("kubewarden", "tracing", "warn", Buffer.from("{}")), {
      ok: false,
      error: "unknown operation: warn",
    });
    assert.deepEqual(h.logs, []);
    h.handler("kubewarden", "tracing", "log", Buffer.from("a"));
    h.handler("kubewarden", "tracing", "log", Buffer.from("b"));
    assert.deepEqual(h.logs, ["a", "b"]);
  });

  test("tracing/log is never gated, returns an empty body and is not recorded", () => {
    const r = run(hostCallsWith(["kubewarden", "tracing", "log", { level: "info", message: "hi" }]), {
      capabilities: { allowedHostCapabilities: [] },
    });
    assert.equal(r.response?.status?.message, "ok:");
    assert.deepEqual(r.hostCalls, []);
  });

  test("payloads are parsed strictly: disable_cache is a required bool", () => {
    const opts = { capabilities: { contextAwareResources: [CONFIGMAP], cluster: [] } };
    const noCache = [
      "kubewarden",
      "kubernetes",
      "get_resource",
      '{"api_version":"v1","kind":"ConfigMap","name":"x","namespace":"ns"}',
    ] as [string, string, string, unknown];
    const badCache = [
      "kubewarden",
      "kubernetes",
      "get_resource",
      '{"api_version":"v1","kind":"ConfigMap","name":"x","namespace":"ns","disable_cache":"no"}',
    ] as [string, string, string, unknown];
    assert.deepEqual(hostCallLines(hostCallsWith(noCache, badCache), opts), [
      "err:missing field `disable_cache` at line 1 column 67",
      'err:invalid type: string "no", expected a boolean at line 1 column 87',
    ]);
  });

  test("without a replay session or cluster objects there is no kube client (kwctl's text, with the callback prefix)", () => {
    assert.deepEqual(
      hostCallLines(hostCallsWith(getConfigMap("x")), { capabilities: { contextAwareResources: [CONFIGMAP] } }),
      ["err:Callback evaluation failure: kube::Client was not initialized properly"],
    );
  });
});

describe("host capabilities: replay sessions", () => {
  const session = parseReplaySession(
    `
- type: Exchange
  request: |
    !KubernetesGetResource
    api_version: v1
    kind: ConfigMap
    name: first
    namespace: ns
    disable_cache: false
  response:
    type: Success
    payload: '{"kind":"ConfigMap","metadata":{"name":"first"}}'
- type: Exchange
  request: |
    !KubernetesGetResource
    api_version: v1
    kind: ConfigMap
    name: second
    namespace: ns
    disable_cache: false
    field_masks: null
  response:
    type: Error
    message: "Cannot find v1/ConfigMap named 'second' inside of namespace 'Some(\\"ns\\")'"
- type: Exchange
  request: |
    !KubernetesListResourceNamespace
    api_version: inferencecache.io/v1alpha1
    kind: CacheBackend
    namespace: ns
  response:
    type: Success
    payload: '{"items":[]}'
`,
    "inline",
  );
  const opts = {
    capabilities: {
      contextAwareResources: [CONFIGMAP, { apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend" }],
      replay: session,
    },
  };
  const listBackends = [
    "kubewarden",
    "kubernetes",
    "list_resources_by_namespace",
    { api_version: "inferencecache.io/v1alpha1", kind: "CacheBackend", namespace: "ns" },
  ] as [string, string, string, unknown];

  test("exchanges replay in order; absent Option keys equal null; Error responses reach the guest with kwctl's prefix", () => {
    const r = run(hostCallsWith(getConfigMap("first"), getConfigMap("second"), listBackends), opts);
    assert.deepEqual(r.response!.status!.message!.split("\n"), [
      'ok:{"kind":"ConfigMap","metadata":{"name":"first"}}',
      "err:Callback evaluation failure: Cannot find v1/ConfigMap named 'second' inside of namespace 'Some(\"ns\")'",
      'ok:{"items":[]}',
    ]);
    assert.deepEqual(r.hostWarnings, []);
    assert.equal(r.hostCalls.length, 3);
  });

  const debugGet = (name: string, namespace = 'Some("ns")', extra = "disable_cache: false, field_masks: None") =>
    `KubernetesGetResource { api_version: "v1", kind: "ConfigMap", name: "${name}", namespace: ${namespace}, ${extra} }`;
  const mismatch = (expected: string, got: string) =>
    `err:Callback evaluation failure: Replay error: unexpected request. Was expecting ${expected}, got ${got} instead`;

  test("an out-of-order request is kwctl's replay error, and the mismatched exchange is consumed", () => {
    const lines = hostCallLines(hostCallsWith(getConfigMap("second"), getConfigMap("second"), listBackends), opts);
    assert.deepEqual(lines, [
      mismatch(debugGet("first"), debugGet("second")),
      // the second call meets exchange 2: the first one was used up by the mismatch
      "err:Callback evaluation failure: Cannot find v1/ConfigMap named 'second' inside of namespace 'Some(\"ns\")'",
      'ok:{"items":[]}',
    ]);
  });

  test("a request that differs in any field (even disable_cache or field_masks) is a mismatch", () => {
    const first = (extra: Record<string, unknown>, namespace: string | null = "ns") =>
      hostCallLines(hostCallsWith(getConfigMap("first", namespace, extra)), opts)[0];
    assert.equal(
      first({ disable_cache: true }),
      mismatch(debugGet("first"), debugGet("first", 'Some("ns")', "disable_cache: true, field_masks: None")),
    );
    assert.equal(
      first({ field_masks: ["metadata.name", "data"] }),
      mismatch(
        debugGet("first"),
        debugGet("first", 'Some("ns")', 'disable_cache: false, field_masks: Some({"data", "metadata.name"})'),
      ),
    );
    assert.equal(first({}, null), mismatch(debugGet("first"), debugGet("first", "None")));
    assert.equal(first({}), 'ok:{"kind":"ConfigMap","metadata":{"name":"first"}}');
  });

  test("leftover exchanges only warn; an exhausted session is kwctl's empty-list error", () => {
    const r = run(hostCallsWith(getConfigMap("first")), opts);
    assert.deepEqual(r.hostWarnings, ["replay session: 2 recorded exchange(s) were not used by the policy"]);
    const empty = hostCallLines(hostCallsWith(getConfigMap("first")), {
      capabilities: { contextAwareResources: [CONFIGMAP], replay: [] },
    });
    assert.deepEqual(empty, ["err:Callback evaluation failure: the list of recorded responses is empty"]);
    const past = hostCallLines(
      hostCallsWith(getConfigMap("first"), getConfigMap("second"), listBackends, listBackends),
      opts,
    );
    assert.equal(past[3], "err:Callback evaluation failure: the list of recorded responses is empty");
  });

  test("gated calls never reach the session", () => {
    const r = run(hostCallsWith(getConfigMap("first")), {
      capabilities: { ...opts.capabilities, allowedHostCapabilities: [] },
    });
    assert.match(r.response!.status!.message!, /host capability/);
    assert.deepEqual(r.hostWarnings, ["replay session: 3 recorded exchange(s) were not used by the policy"]);
  });

  test("malformed sessions are rejected with the exchange number", () => {
    assert.throws(
      () =>
        parseReplaySession(
          "- type: Exchange\n  request: '!Nope\n    a: 1'\n  response: {type: Success, payload: ''}\n",
          "s.yml",
        ),
      /s\.yml: exchange 1:/,
    );
    assert.throws(
      () =>
        parseReplaySession(
          "- type: Exchange\n  request: '!KubernetesGetResource {}'\n  response: {type: Success}\n",
          "s.yml",
        ),
      /exchange 1: response must be/,
    );
    assert.throws(() => parseReplaySession("a: 1", "s.yml"), /must be a YAML list/);
  });
});

describe("host capabilities: cluster objects", () => {
  const cluster = parseClusterObjects(
    `
apiVersion: v1
kind: ConfigMap
metadata: {name: cb, namespace: ns, managedFields: [{manager: kubectl}], unknownMetaKey: x}
data: {k: v, ratio: "1"}
spec: {replicas: 2.0, big: 2.56e2, count: 3}
---
- apiVersion: inferencecache.io/v1alpha1
  kind: CacheBackend
  metadata: {name: a, namespace: ns, labels: {tier: fast}, managedFields: [{manager: kubectl}], annotations: {kubectl.kubernetes.io/last-applied-configuration: "{}", note: kept}}
- apiVersion: inferencecache.io/v1alpha1
  kind: CacheBackend
  metadata: {name: b, namespace: ns, labels: {tier: slow}}
- apiVersion: inferencecache.io/v1alpha1
  kind: CacheBackend
  metadata: {name: c, namespace: other}
- apiVersion: v1
  kind: Namespace
  metadata: {name: ns}
`,
    "inline",
  );
  const opts = {
    capabilities: {
      contextAwareResources: [
        CONFIGMAP,
        { apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend" },
        { apiVersion: "v1", kind: "Namespace" },
      ],
      cluster,
    },
  };
  const list = (extra: Record<string, unknown> = {}) =>
    [
      "kubewarden",
      "kubernetes",
      "list_resources_by_namespace",
      { api_version: "inferencecache.io/v1alpha1", kind: "CacheBackend", namespace: "ns", ...extra },
    ] as [string, string, string, unknown];

  const getNamespace = (namespace: string | null, name = "ns") =>
    [
      "kubewarden",
      "kubernetes",
      "get_resource",
      { api_version: "v1", kind: "Namespace", name, namespace, disable_cache: true },
    ] as [string, string, string, unknown];

  test("get_resource answers a DynamicObject's bytes: apiVersion, kind, metadata (managedFields kept), the rest sorted, floats kept", () => {
    assert.deepEqual(hostCallLines(hostCallsWith(getConfigMap("cb"), getNamespace(null)), opts), [
      'ok:{"apiVersion":"v1","kind":"ConfigMap","metadata":{"managedFields":[{"manager":"kubectl"}],"name":"cb","namespace":"ns"},' +
        '"data":{"k":"v","ratio":"1"},"spec":{"big":256.0,"count":3,"replicas":2.0}}',
      'ok:{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns"}}',
    ]);
  });

  test("scope: a cluster-scoped kind ignores the namespace asked for; a namespaced kind needs one", () => {
    assert.deepEqual(
      hostCallLines(
        hostCallsWith(getNamespace("anything"), getNamespace("anything", "missing"), getConfigMap("cb", null)),
        opts,
      ),
      [
        'ok:{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns"}}',
        "err:Callback evaluation failure: Cannot find v1/Namespace named 'missing' inside of namespace 'Some(\"anything\")'",
        "err:Callback evaluation failure: Resource v1/ConfigMap is namespaced, but no namespace was provided",
      ],
    );
    const listNamespaces = [
      "kubewarden",
      "kubernetes",
      "list_resources_by_namespace",
      { api_version: "v1", kind: "Namespace", namespace: "ns" },
    ] as [string, string, string, unknown];
    assert.deepEqual(hostCallLines(hostCallsWith(listNamespaces), opts), [
      "err:Callback evaluation failure: resource v1/Namespace is cluster wide. Cannot search for it inside of a namespace",
    ]);
  });

  test('not found: the host\'s text with Some("ns") or None', () => {
    const noObjects = {
      capabilities: { contextAwareResources: [{ apiVersion: "v1", kind: "Node" }, CONFIGMAP], cluster },
    };
    const node = [
      "kubewarden",
      "kubernetes",
      "get_resource",
      { api_version: "v1", kind: "Node", name: "n1", namespace: null, disable_cache: false },
    ] as [string, string, string, unknown];
    assert.deepEqual(
      hostCallLines(hostCallsWith(getConfigMap("missing"), getConfigMap("cb", "elsewhere"), node), noObjects),
      [
        "err:Callback evaluation failure: Cannot find v1/ConfigMap named 'missing' inside of namespace 'Some(\"ns\")'",
        "err:Callback evaluation failure: Cannot find v1/ConfigMap named 'cb' inside of namespace 'Some(\"elsewhere\")'",
        "err:Callback evaluation failure: Cannot find v1/Node named 'n1' inside of namespace 'None'",
      ],
    );
  });

  test("list_resources_by_namespace returns a Kubernetes List filtered by namespace and label selector", () => {
    const lines = hostCallLines(
      hostCallsWith(
        list(),
        list({ label_selector: "tier=fast" }),
        list({ label_selector: "tier!=fast" }),
        list({ label_selector: "tier in (fast,slow),!missing" }),
      ),
      opts,
    );
    const names = (line: string) =>
      (JSON.parse(line.slice(3)) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
    // reflector-cached items: managedFields emptied, annotations present, last-applied dropped
    assert.equal(
      lines[0],
      'ok:{"apiVersion":"inferencecache.io/v1alpha1","kind":"CacheBackendList","metadata":{},"items":[' +
        '{"apiVersion":"inferencecache.io/v1alpha1","kind":"CacheBackend","metadata":{"annotations":{"note":"kept"},"labels":{"tier":"fast"},"managedFields":[],"name":"a","namespace":"ns"}},' +
        '{"apiVersion":"inferencecache.io/v1alpha1","kind":"CacheBackend","metadata":{"annotations":{},"labels":{"tier":"slow"},"managedFields":[],"name":"b","namespace":"ns"}}]}',
    );
    assert.deepEqual(names(lines[1]), ["a"]);
    assert.deepEqual(names(lines[2]), ["b"]);
    assert.deepEqual(names(lines[3]), ["a", "b"]);
  });

  test("list_resources_all spans namespaces", () => {
    const all = [
      "kubewarden",
      "kubernetes",
      "list_resources_all",
      { api_version: "inferencecache.io/v1alpha1", kind: "CacheBackend" },
    ] as [string, string, string, unknown];
    const line = hostCallLines(hostCallsWith(all), opts)[0];
    assert.deepEqual((JSON.parse(line.slice(3)) as { items: unknown[] }).items.length, 3);
  });

  test("field_masks: an empty list is no mask; a non-empty one is refused", () => {
    assert.deepEqual(
      hostCallLines(
        hostCallsWith(
          getConfigMap("cb", "ns", { field_masks: [] }),
          getConfigMap("cb", "ns", { field_masks: ["data"] }),
        ),
        opts,
      ),
      [
        // the whole object, as get_resource answers without a mask (managedFields kept, number text kept)
        'ok:{"apiVersion":"v1","kind":"ConfigMap","metadata":{"managedFields":[{"manager":"kubectl"}],"name":"cb","namespace":"ns"},"data":{"k":"v","ratio":"1"},"spec":{"big":256.0,"count":3,"replicas":2.0}}',
        "err:cluster objects: field_masks are not supported by this host",
      ],
    );
  });

  test("can_i needs a replay session; a session answers it with the review recorded as `request`", () => {
    const review = {
      user: "alice",
      groups: null,
      resource_attributes: {
        group: null,
        name: null,
        namespace: "ns",
        resource: "pods",
        subresource: null,
        verb: "get",
        version: null,
      },
    };
    const canI = ["kubewarden", "kubernetes", "can_i", { subject_access_review: review, disable_cache: true }] as [
      string,
      string,
      string,
      unknown,
    ];
    assert.deepEqual(hostCallLines(hostCallsWith(canI), opts), [
      "err:cluster objects cannot answer kubernetes/can_i; use a replay session",
    ]);
    const session = parseReplaySession(
      `
- type: Exchange
  request: |
    !KubernetesCanI
    request: ${JSON.stringify(review)}
    disable_cache: true
  response:
    type: Success
    payload: '{"allowed":true}'
`,
      "s.yml",
    );
    assert.deepEqual(hostCallLines(hostCallsWith(canI), { capabilities: { replay: session } }), [
      'ok:{"allowed":true}',
    ]);
  });

  test("a replay session, cluster objects and a live cluster cannot be combined", () => {
    for (const config of [
      { replay: [], cluster: [] },
      { replay: [], live: {} },
      { cluster: [], live: {} },
    ])
      assert.throws(
        () => new HostCapabilities(config),
        /^Error: host capabilities: use one of a replay session, cluster objects or a live cluster$/,
      );
  });

  test("objects need apiVersion, kind and metadata.name", () => {
    assert.throws(
      () => parseClusterObjects("- kind: ConfigMap\n", "c.yml"),
      /c\.yml: object 1 needs apiVersion, kind and metadata.name/,
    );
  });
});

describe("time budget", () => {
  test("the synchronous path reports a call that went over budget as policy-server's interruption", () => {
    const r = run({ probe: "state" }, { timeBudgetMs: 1e-9 });
    assert.equal(r.response, undefined);
    assert.equal(r.settings.message, `Error invoking settings validation callback: ${TIMEOUT_TEXT}`);
  });

  test("evaluateWithDeadline terminates a runaway guest", async () => {
    const started = Date.now();
    const r = await evaluateWithDeadline(probe, podRequest() as never, { settings: { probe: "loop" } }, 300);
    assert.deepEqual(r.response?.status, { message: TIMEOUT_TEXT, code: 500 });
    assert.equal(r.response?.allowed, false);
    assert.ok(Date.now() - started < 10_000);
    const ok = await evaluateWithDeadline(probe, podRequest() as never, { settings: { probe: "state" } }, 5000);
    assert.equal(ok.response?.status?.message, "init=SW calls=1");
  });
});

describe("inputs", () => {
  test("serde positions and messages", () => {
    assert.throws(() => deserialize('{"a":1,\n"b":[1,}', "value"), /expected value at line 2 column 8/);
    assert.throws(() => deserialize('"abc', "string"), /EOF while parsing a string/);
    assert.throws(() => deserialize("[1,2]", "bool"), /invalid type: sequence, expected a boolean at line 1 column 1/);
    assert.equal(deserialize("65535", "u16"), 65535);
    assert.throws(() => deserialize("-1", "u16"), /invalid value: integer `-1`, expected u16/);
  });

  test("AdmissionReview is unwrapped; nulls are dropped", () => {
    const req = toAdmissionRequest(
      { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { ...podRequest(), oldObject: null } },
      "r.json",
    );
    assert.equal(req.uid, "11111111-2222-3333-4444-555555555555");
    assert.equal("oldObject" in req, false);
  });

  test("a plain manifest is wrapped into a CREATE request", () => {
    const req = toAdmissionRequest(
      { apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend", metadata: { name: "b", namespace: "team" } },
      "m.yml",
    );
    assert.deepEqual(req, {
      uid: MANIFEST_REQUEST_UID,
      kind: { group: "inferencecache.io", version: "v1alpha1", kind: "CacheBackend" },
      resource: { group: "inferencecache.io", version: "v1alpha1", resource: "cachebackends" },
      operation: "CREATE",
      userInfo: {},
      name: "b",
      namespace: "team",
      object: {
        apiVersion: "inferencecache.io/v1alpha1",
        kind: "CacheBackend",
        metadata: { name: "b", namespace: "team" },
      },
    });
    assert.deepEqual(["Pod", "Policy", "Ingress", "Gateway", "LMCacheEngine"].map(pluralResource), [
      "pods",
      "policies",
      "ingresses",
      "gateways",
      "lmcacheengines",
    ]);
  });

  test("a bare request missing a required key is kwctl's one-line error", () => {
    const { userInfo: _u, ...noUser } = podRequest();
    assert.throws(
      () => toAdmissionRequest(noUser, "r.json"),
      /^Error: cannot build AdmissionRequest object from r\.json: missing field `userInfo`$/,
    );
  });

  test("metadata contextAwareResources come from the io.kubewarden.metadata section", () => {
    const m = PolicyModule.fromFile(annotatedProbePath(PROBE_METADATA));
    assert.deepEqual(metadataContextAwareResources(readPolicyMetadata(m.module)), PROBE_METADATA.contextAwareResources);
    assert.equal(readPolicyMetadata(probe.module), null);
  });
});

describe("cases runner", () => {
  test("every unmet expectation is reported precisely", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cases-"));
    fs.writeFileSync(path.join(dir, "request.json"), JSON.stringify(podRequest({ metadata: { name: "p" } })));
    fs.writeFileSync(
      path.join(dir, "settings.json"),
      JSON.stringify(
        replyWith({
          accepted: true,
          warnings: ["w"],
          mutated_object: { metadata: { name: "p", annotations: { a: "1" } } },
        }),
      ),
    );
    fs.writeFileSync(
      path.join(dir, "expected.json"),
      JSON.stringify({ metadata: { name: "p", annotations: { a: "2" } } }),
    );
    const [c] = parseCases(
      `
- name: wrong-everything
  request: request.json
  settings: settings.json
  expect: {allowed: false, mutated: false, object: expected.json, code: 400, message: "x", warnings: [], auditAnnotations: {k: v}, annotations: {a: null, b: "2"}}
`,
      "cases.yml",
    );
    const r = runCase("fixture", probe, c, dir);
    assert.equal(r.ok, false);
    assert.deepEqual(r.failures, [
      "allowed: expected false, got true",
      "mutated: expected false, got true (add /metadata/annotations)",
      'object (expected.json) differs at /metadata/annotations/a: expected "2", got "1"',
      "code: expected 400, got none",
      'message: expected "x", got null',
      "warnings differ at /: expected 0 items, got 1",
      'auditAnnotations differ at /k: expected "v", got (absent)',
      'annotation a: expected absent, got "1"',
      'annotation b: expected "2", got null',
    ]);
    assert.equal(r.decision, "mutated");
  });

  test("cases run like a ClusterAdmissionPolicy built from the metadata: mutating false rejects a patch", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cases-"));
    fs.writeFileSync(path.join(dir, "request.json"), JSON.stringify(podRequest({ metadata: { name: "p" } })));
    fs.writeFileSync(
      path.join(dir, "settings.json"),
      JSON.stringify(replyWith({ accepted: true, mutated_object: { metadata: { name: "q" } } })),
    );
    const [c] = parseCases(
      "- name: mutates\n  request: request.json\n  settings: settings.json\n  expect: {allowed: true, mutated: true}\n",
      "cases.yml",
    );
    const validator = PolicyModule.fromFile(annotatedProbePath({ ...PROBE_METADATA, mutating: false }));
    const r = runCase("probe-validator", validator, c, dir);
    assert.deepEqual(r.failures, [
      "allowed: expected true, got false (Request rejected by policy clusterwide-probe-validator. The policy attempted to mutate the request, but it is currently configured to not allow mutations.)",
      "mutated: expected true, got false",
    ]);
    assert.equal(runCase("probe", PolicyModule.fromFile(annotatedProbePath(PROBE_METADATA)), c, dir).ok, true);
  });

  test("cases.yml is checked strictly", () => {
    assert.throws(
      () => parseCases("- name: a\n  request: r.json\n  expect: {allowed: true}\n  bogus: 1\n", "c.yml"),
      /c\.yml: case 1 \(a\): unknown key `bogus`/,
    );
    assert.throws(
      () =>
        parseCases(
          "- name: a\n  request: r.json\n  expect: {allowed: true}\n- name: a\n  request: r.json\n  expect: {allowed: true}\n",
          "c.yml",
        ),
      /duplicate name/,
    );
    assert.throws(() => parseCases("- name: a\n  expect: {allowed: true}\n", "c.yml"), /needs request/);
    assert.throws(
      () => parseCases("- name: a\n  operation: validate_settings\n  expect: {allowed: true}\n", "c.yml"),
      /expect.valid is required/,
    );
  });

  test("a missing input file fails the case with one line instead of throwing", () => {
    const [c] = parseCases("- name: a\n  request: nope.json\n  expect: {allowed: true}\n", "c.yml");
    const r = runCase("fixture", probe, c, os.tmpdir());
    assert.equal(r.ok, false);
    assert.match(r.failures[0], /^cannot read request .*nope\.json: ENOENT: no such file \(check the path\)$/);
  });
});
