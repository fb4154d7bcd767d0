// cachebackend-defaulter then cachebackend-validator, the order Kubewarden runs them in (mutating
// policies first), on every CacheBackend of the suite
// (docs/policies/cachebackend-defaulter.md#agreement):
//   - for every cachebackend-validator case, the validator's decision on the defaulted object is the
//     one inference-cache's Go webhooks (defaulter, then validator) give: the case's own expectation,
//     except where the Go defaulter's engine changes a printed value (GO_PIPELINE below), with the
//     defaulter's warnings first. An UPDATE's oldObject is defaulted too: the stored object went
//     through the defaulter when it was written;
//   - the NFS failOpen warning comes exactly for the backends the validator rejects for a
//     defaulted failOpen (NFS, failOpen absent in the request), of those the defaulter can read;
//   - a backend the defaulter leaves unchanged as malformed is one the validator rejects;
//   - for every other CacheBackend of the suite, defaulting does not change whether the validator
//     admits it (a runtime outside the CRD's enum aside, see RUNTIME_OUTSIDE_ENUM).
// The suite's real API server, with the CacheBackend CRD, is sent every defaulted object
// to it too (tests/helpers/defaulted-backends.ts, defaultedCacheBackends()).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { evaluate } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { AdmissionRequest, requestFromManifest } from "../tools/host/request";
import {
  BackendCase,
  cacheBackendCases,
  DEFAULTER_WASM,
  defaultedCacheBackends,
  injectorCacheBackends,
  named,
  ROOT,
  runDefaulter,
  suiteCacheBackends,
  VALIDATOR_WASM,
  DEFAULT_NAMESPACE,
} from "./helpers/defaulted-backends";
import { kubeServer, vendoredCRDs } from "./helpers/apiserver";

type J = Record<string, unknown>;
const isObject = (v: unknown): v is J => typeof v === "object" && v !== null && !Array.isArray(v);

const NFS_WARNING =
  "cachebackend-defaulter: spec.integration.failOpen defaults to true, which NFS HiCache rejects; set spec.integration.failOpen: false to accept that the NFS mount is a startup dependency";
const NOT_DEFAULTED = "cachebackend-defaulter: not defaulted: ";
/** The validator's rejection of a defaulted failOpen on NFS (its rule 19). */
const FAIL_OPEN_NFS =
  "spec.integration.failOpen: Invalid value: true: must be false with remoteStorage.provider=NFS because the inline NFS volume is a Pod startup dependency";
const PAIRS =
  "supported pairs in this build: sglang/LMCache, sglang/SGLangHiCache, vllm/External, vllm/LMCache, vllm/Mooncake";

/**
 * The Go webhooks' messages where they differ from the validator case's own expectation: the Go
 * defaulter writes `integration.engine` (here `vllm`), and the Go validator prints that field's
 * value, `""` before (written out by hand from the Go webhook's code).
 */
const GO_PIPELINE: Record<string, string> = {
  "nfs-vllm-runtime":
    'CacheBackend.inferencecache.io "sglang-hicache-l3-nfs" is invalid: [spec.integration.engine: Invalid value: "vllm": SGLangHiCache requires integration.engine=sglang, ' +
    `spec.integration.engine: Invalid value: "vllm": no runtime adapter supports the (engine="vllm", backend="SGLangHiCache") pair; ${PAIRS}]`,
  "aibrix-no-adapter": `CacheBackend.inferencecache.io "aibrix" is invalid: spec.integration.engine: Invalid value: "vllm": no runtime adapter supports the (engine="vllm", backend="AIBrix") pair; ${PAIRS}`,
};

/**
 * A runtime the CRD's enum refuses (anything but VLLM and SGLang, case aside): the defaulter, as
 * the Go one, writes it lower-cased into `integration.engine`, which then conflicts with it (the
 * validator's rule 1). The schema refuses such a backend before either webhook runs.
 */
function runtimeOutsideEnum(object: J): boolean {
  const spec = isObject(object.spec) ? object.spec : {};
  return typeof spec.runtime === "string" && spec.runtime !== "" && !/^(vllm|sglang)$/i.test(spec.runtime);
}

interface Verdict {
  allowed: boolean;
  code?: number;
  message: string;
  warnings: string[];
}

function validatorVerdict(validator: PolicyModule, request: AdmissionRequest): Verdict {
  const r = evaluate(validator, request, { timeBudgetMs: null, allowedToMutate: false });
  assert.equal(r.trap, undefined, `cachebackend-validator trapped: ${r.trap}`);
  assert.ok(r.response, `cachebackend-validator gave no response: ${r.settings.message}`);
  return {
    allowed: r.response.allowed,
    code: r.response.status?.code,
    message: r.response.status?.message ?? "",
    warnings: r.response.warnings ?? [],
  };
}

/** The request with its object (and oldObject, as a stored object) defaulted, and the defaulter's warnings. */
function defaulted(
  defaulter: PolicyModule,
  request: AdmissionRequest,
): { request: AdmissionRequest; warnings: string[] } {
  const d = runDefaulter(defaulter, request);
  const out: AdmissionRequest = { ...request };
  if (d.patched) out.object = d.object as AdmissionRequest["object"];
  if (isObject(request.oldObject)) {
    const old = runDefaulter(defaulter, requestFromManifest(request.oldObject as J));
    if (old.patched) out.oldObject = old.object as AdmissionRequest["oldObject"];
  }
  return { request: out, warnings: d.warnings };
}

/** Whether the request's object names `integration.failOpen` (present and not null). */
function hasFailOpen(object: unknown): boolean {
  const spec = isObject(object) && isObject(object.spec) ? object.spec : {};
  return isObject(spec.integration) && spec.integration.failOpen !== undefined && spec.integration.failOpen !== null;
}

/** The cross-checks every defaulted backend must pass; returns the problems. */
function crossChecks(validator: PolicyModule, original: unknown, object: unknown, warnings: string[]): string[] {
  const problems: string[] = [];
  if (!isObject(object)) return problems;
  const asCreate = validatorVerdict(validator, requestFromManifest(named(object)));
  if (warnings.some((w) => w.startsWith(NOT_DEFAULTED))) {
    // malformed: refused for its types (the NFS warning is not given: whether the validator still
    // reaches its failOpen rule depends on which field is unreadable)
    if (asCreate.allowed)
      problems.push(`left unchanged as malformed (${warnings.join("; ")}) but admitted by the validator`);
    return problems;
  }
  const failOpenRejected = asCreate.message.includes(FAIL_OPEN_NFS);
  const warned = warnings.includes(NFS_WARNING);
  if (warned !== (failOpenRejected && !hasFailOpen(original)))
    problems.push(
      `NFS failOpen warning ${warned ? "given" : "missing"}, validator ${failOpenRejected ? "rejects" : "does not reject"} the defaulted failOpen: ${asCreate.message}`,
    );
  return problems;
}

const missing = [DEFAULTER_WASM, VALIDATOR_WASM].filter((f) => !fs.existsSync(f));
const notBuilt = missing.length > 0 ? `${missing.map((f) => path.relative(ROOT, f)).join(", ")} not built` : false;

describe("cachebackend-defaulter then cachebackend-validator", { skip: notBuilt }, () => {
  let modules: { defaulter: PolicyModule; validator: PolicyModule } | undefined;
  const load = (): { defaulter: PolicyModule; validator: PolicyModule } =>
    (modules ??= {
      defaulter: PolicyModule.fromFile(DEFAULTER_WASM),
      validator: PolicyModule.fromFile(VALIDATOR_WASM),
    });
  const validatorCases: BackendCase[] = notBuilt ? [] : cacheBackendCases("cachebackend-validator");

  test("the validator's cases include the NFS backend without failOpen, a malformed one and an UPDATE", () => {
    const names = validatorCases.map((b) => b.c.name);
    for (const needed of [
      "nfs-fail-open-omitted",
      "size-gb-string",
      "first-event-timeouts-not-durations",
      ...Object.keys(GO_PIPELINE),
    ])
      assert.ok(names.includes(needed), `no validator case ${needed}`);
    assert.ok(validatorCases.some((b) => b.request.operation === "UPDATE"));
  });

  test("the NFS backend without failOpen: rejected by the validator, after the defaulter's warning", () => {
    const { defaulter, validator } = load();
    const b = validatorCases.find((x) => x.c.name === "nfs-fail-open-omitted")!;
    const d = defaulted(defaulter, b.request);
    const v = validatorVerdict(validator, d.request);
    assert.equal(v.allowed, false);
    assert.equal(v.message, `CacheBackend.inferencecache.io "sglang-hicache-l3-nfs" is invalid: ${FAIL_OPEN_NFS}`);
    assert.deepEqual([...d.warnings, ...v.warnings], [NFS_WARNING]);
  });

  for (const b of validatorCases) {
    test(`cachebackend-validator ${b.c.name}: the Go webhooks' decision`, () => {
      const { defaulter, validator } = load();
      const d = defaulted(defaulter, b.request);
      const v = validatorVerdict(validator, d.request);
      const expect = b.c.expect;
      assert.equal(v.allowed, expect.allowed, `${v.message}`);
      if (expect.code !== undefined) assert.equal(v.code, expect.code);
      const message = GO_PIPELINE[b.c.name] ?? expect.message;
      if (message !== undefined) assert.equal(v.message, message);
      if (expect.messageContains !== undefined) assert.ok(v.message.includes(expect.messageContains), v.message);
      // the warnings the API server returns: the mutating policy's first
      if (expect.warnings !== undefined)
        assert.deepEqual([...d.warnings, ...v.warnings], [...d.warnings, ...expect.warnings]);
      assert.deepEqual(crossChecks(validator, b.request.object, d.request.object, d.warnings), []);
    });
  }

  test("every other CacheBackend of the suite: defaulting does not change the validator's verdict", () => {
    const { defaulter, validator } = load();
    const others = [
      ...cacheBackendCases("cachebackend-defaulter").flatMap((b) =>
        isObject(b.request.object)
          ? [{ source: `cachebackend-defaulter ${b.c.name}`, object: b.request.object as J }]
          : [],
      ),
      ...injectorCacheBackends(),
    ];
    assert.ok(others.length >= 100, `only ${others.length} backends`);
    let changed = 0;
    const problems: string[] = [];
    for (const { source, object } of others) {
      const before = named(object);
      const d = runDefaulter(defaulter, requestFromManifest(before));
      if (d.patched) changed++;
      const was = validatorVerdict(validator, requestFromManifest(before));
      const now = validatorVerdict(validator, requestFromManifest(named(d.object as J)));
      if (was.allowed !== now.allowed && !runtimeOutsideEnum(before))
        problems.push(
          `${source}: ${was.allowed ? "admitted" : "rejected"} before, ${now.allowed ? "admitted" : "rejected"} after: ${now.message}`,
        );
      for (const p of crossChecks(validator, before, d.object, d.warnings)) problems.push(`${source}: ${p}`);
    }
    assert.deepEqual(problems, []);
    assert.ok(changed >= 50, `only ${changed} backends were defaulted`);
  });

  test("the exception is real: a runtime outside the enum, defaulted, conflicts with its engine", () => {
    const { defaulter, validator } = load();
    const before = named({ metadata: { name: "triton" }, spec: { runtime: "Triton" } });
    assert.ok(runtimeOutsideEnum(before));
    const d = runDefaulter(defaulter, requestFromManifest(before));
    const v = validatorVerdict(validator, requestFromManifest(named(d.object as J)));
    assert.equal(v.allowed, false);
    assert.match(v.message, /spec\.integration\.engine: Invalid value: "triton": conflicts with spec\.runtime/);
  });
});

/** a defaulted autoscaling floor above its ceiling: `minReplicas` > `maxReplicas`, both numbers */
function floorAboveCeiling(o: Record<string, unknown>): boolean {
  const a = (o.spec as { autoscaling?: { minReplicas?: unknown; maxReplicas?: unknown } } | undefined)?.autoscaling;
  return typeof a?.minReplicas === "number" && typeof a.maxReplicas === "number" && a.minReplicas > a.maxReplicas;
}

describe("every defaulted CacheBackend and the real API server", () => {
  const load = (): PolicyModule => PolicyModule.fromFile(DEFAULTER_WASM);
  test(
    "the CacheBackend CRD admits every defaulted object whose input it and the validator admit, after its own defaulting",
    { skip: notBuilt },
    async () => {
      const kube = await kubeServer();
      kube.installCRDs(vendoredCRDs("inference-cache"));
      const list = defaultedCacheBackends(load());
      const namespaceOf = (o: Record<string, unknown>): string =>
        String((o.metadata as { namespace?: unknown } | undefined)?.namespace ?? DEFAULT_NAMESPACE);
      kube.ensureNamespaces(list.map((b) => namespaceOf(b.before)));
      const answers = kube.batch(
        list.flatMap((b) =>
          [b.before, b.after].map((object) => ({
            verb: "create" as const,
            namespace: namespaceOf(object),
            dryRun: true,
            object,
          })),
        ),
      );
      // the whole chain upstream runs: defaulter, validator, then the CRD. An input the CRD admits
      // but the validator refuses (replicas above maxReplicas, say) is refused whatever the
      // defaulter wrote, so only inputs both admit must stay admitted once defaulted.
      const validator = PolicyModule.fromFile(VALIDATOR_WASM);
      let admitted = 0;
      let floorRefusals = 0;
      list.forEach((b, i) => {
        const [before, after] = [answers[2 * i], answers[2 * i + 1]];
        if (!before.ok || !validatorVerdict(validator, requestFromManifest(b.after)).allowed) return;
        admitted++;
        if (floorAboveCeiling(b.after)) {
          // as upstream: the floor defaults to replicas even above maxReplicas, and the CRD's CEL
          // rule then refuses the write (docs/decisions.md#cachebackend-defaulter)
          assert.match(
            after.status?.message ?? "",
            /spec\.autoscaling: Invalid value: minReplicas must not exceed maxReplicas/,
            b.source,
          );
          floorRefusals++;
          return;
        }
        assert.ok(
          after.ok,
          `${b.source}: the server admits the input but not the defaulted object: ${after.status?.message ?? after.error}`,
        );
      });
      assert.ok(admitted >= 90, `the server and the validator admitted only ${admitted} of the ${list.length} inputs`);
      assert.ok(floorRefusals >= 1, "a case with replicas above maxReplicas shows the upstream refusal");
    },
  );

  test("the list for it holds every CacheBackend of the suite, defaulted", { skip: notBuilt }, () => {
    const list = defaultedCacheBackends(load());
    assert.equal(list.length, suiteCacheBackends().length);
    assert.ok(list.length >= 200, `only ${list.length} backends`);
    for (const source of ["cachebackend-validator ", "cachebackend-defaulter ", "hicache-injector "])
      assert.ok(
        list.some((b) => b.source.startsWith(source)),
        `none from ${source}`,
      );
    const changed = list.filter((b) => JSON.stringify(b.before) !== JSON.stringify(b.after));
    assert.ok(changed.length >= 100, `only ${changed.length} defaulted`);
    for (const b of changed) assert.equal(b.after.kind, "CacheBackend", b.source);
  });
});
