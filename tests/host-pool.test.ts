// The worker pool behind `cachewarden preview` (tools/host/evaluate-pool.ts): every job answered in
// job order, on the calling thread or across threads; each job gets its own policy's options,
// grants and cluster answers; a module or cluster that cannot load fails the run with its error.
// The worker side is also driven in-process with a stand-in port (code inside a worker thread is
// invisible to coverage).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { guestPayloads } from "../tools/host/evaluate";
import {
  evaluateMany,
  FromWorker,
  PoolJob,
  PoolPolicy,
  PoolResult,
  runPoolWorker,
  ToWorker,
} from "../tools/host/evaluate-pool";
import { hostCallsWith, podRequest, probeWasmBytes, replyWith } from "./helpers/host-guests";

const request = podRequest() as never;
const job = (settings: Record<string, unknown>, policy = 0): PoolJob => ({
  policy,
  request,
  payload: guestPayloads(request, settings).validate,
});
const probe = (options: PoolPolicy["options"] = {}, extra: Partial<PoolPolicy> = {}): PoolPolicy => ({
  moduleBytes: probeWasmBytes(),
  source: "host-probe",
  options,
  ...extra,
});
const messages = (results: PoolResult[]) => results.map((r) => r.response.status?.message);
const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => job(replyWith({ accepted: false, message: `job ${i}` })));

const CONFIGMAP_GRANT = { capabilities: { contextAwareResources: [{ apiVersion: "v1", kind: "ConfigMap" }] } };
const getConfigMap = hostCallsWith([
  "kubewarden",
  "kubernetes",
  "get_resource",
  { api_version: "v1", kind: "ConfigMap", name: "x", namespace: "ns", disable_cache: false },
]);
// written as text: the number's `256.0` must reach the guest as written, from a worker too
const CLUSTER = '[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"ns"},"spec":{"n":256.0}}]';
const ANSWER = 'ok:{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"ns"},"spec":{"n":256.0}}';

describe("evaluateMany", () => {
  for (const workers of [0, 2]) {
    const where = workers === 0 ? "on the calling thread" : "across 2 threads";
    test(`${where}: results in job order, progress after each chunk`, async () => {
      const jobs = numbered(40);
      const progress: string[] = [];
      const results = await evaluateMany([probe()], jobs, {
        workers,
        chunkSize: 10, // equal chunks: the running total is the same in any order of completion
        onProgress: (done, total) => progress.push(`${done}/${total}`),
      });
      assert.deepEqual(
        messages(results),
        jobs.map((_, i) => `job ${i}`),
      );
      assert.deepEqual(progress, ["10/40", "20/40", "30/40", "40/40"]);
    });

    test(`${where}: each job gets its own policy's options, grants and cluster`, async () => {
      const policies = [
        probe(),
        probe({ mode: "monitor" }),
        probe(CONFIGMAP_GRANT, { clusterJson: CLUSTER }),
        probe(CONFIGMAP_GRANT),
        probe({}, { clusterJson: CLUSTER }),
      ];
      const jobs = [
        job(replyWith({ accepted: false, message: "no" }), 0),
        job(replyWith({ accepted: false, message: "no" }), 1),
        job(getConfigMap, 2),
        job(getConfigMap, 3),
        job(getConfigMap, 4),
        ...numbered(12), // enough jobs for two threads
      ];
      const results = await evaluateMany(policies, jobs, { workers });
      assert.deepEqual(
        results.slice(0, 5).map((r) => [r.response.allowed, r.response.status?.message]),
        [
          [false, "no"],
          [true, undefined],
          [true, ANSWER],
          [true, "err:Callback evaluation failure: kube::Client was not initialized properly"],
          [
            true,
            "err:Policy has not been granted access to Kubernetes v1/ConfigMap resources. The violation has been reported.",
          ],
        ],
      );
    });

    test(`${where}: a patch and a trap are kept, and only when there is one`, async () => {
      const mutated = { ...(podRequest().object as object), spec: { x: 1 } };
      const jobs = [
        job(replyWith({ accepted: true, mutated_object: mutated })),
        job({ probe: "trap" }),
        ...numbered(16),
      ];
      const [patched, trapped, plain] = await evaluateMany([probe()], jobs, { workers });
      assert.deepEqual(patched.patchOperations, [{ op: "add", path: "/spec", value: { x: 1 } }]);
      assert.equal(trapped.trap, "wasm trap: unreachable");
      assert.equal(
        trapped.response.status?.message,
        "internal server error: Guest call failure: wasm trap: unreachable",
      );
      assert.deepEqual(Object.keys(plain).sort(), ["response"]);
    });

    test(`${where}: a module or a cluster that cannot load fails the run with its error`, async () => {
      await assert.rejects(
        evaluateMany([probe({}, { moduleBytes: Buffer.from("not wasm") })], numbered(20), { workers }),
        { message: /^host-probe: not a valid WebAssembly module: / },
      );
      await assert.rejects(evaluateMany([probe({}, { clusterJson: "[" })], numbered(20), { workers }), {
        message: /^host-probe: neither JSON nor YAML: /,
      });
    });
  }

  test("no jobs: no results and no progress; the default chunk is 64 jobs", async () => {
    const progress: number[] = [];
    assert.deepEqual(await evaluateMany([probe()], [], { onProgress: (done) => progress.push(done) }), []);
    await evaluateMany([probe()], numbered(70), { workers: 0, onProgress: (done) => progress.push(done) });
    assert.deepEqual(progress, [64, 70]);
  });
});

describe("the worker side", () => {
  const port = () => {
    const posted: FromWorker[] = [];
    const p = Object.assign(new EventEmitter(), { postMessage: (m: FromWorker) => posted.push(m) });
    return { posted, send: (m: ToWorker) => p.emit("message", m), port: p };
  };

  test("answers each chunk with its number, until terminated", () => {
    const w = port();
    runPoolWorker([probe()], w.port);
    w.send({ chunk: 3, jobs: numbered(2) });
    w.send({ chunk: 0, jobs: numbered(1) });
    assert.deepEqual(
      w.posted.map((m) => ("chunk" in m ? [m.chunk, messages(m.results)] : m)),
      [
        [3, ["job 0", "job 1"]],
        [0, ["job 0"]],
      ],
    );
  });

  test("a module that cannot load is reported once, and no chunk is read", () => {
    const w = port();
    runPoolWorker([probe({}, { moduleBytes: Buffer.from("not wasm") })], w.port);
    assert.equal(w.posted.length, 1);
    assert.match((w.posted[0] as { error: string }).error, /^host-probe: not a valid WebAssembly module: /);
    assert.equal(w.port.listenerCount("message"), 0);
  });

  test("a chunk that fails is reported as an error, and the next chunk is still answered", () => {
    const w = port();
    runPoolWorker([probe()], w.port);
    w.send({ chunk: 0, jobs: [job({}, 7)] });
    w.send({ chunk: 1, jobs: numbered(1) });
    assert.equal(w.posted.length, 2);
    assert.ok("error" in w.posted[0]);
    assert.deepEqual(w.posted[1], { chunk: 1, results: (w.posted[1] as { results: PoolResult[] }).results });
    assert.deepEqual(messages((w.posted[1] as { results: PoolResult[] }).results), ["job 0"]);
  });
});
