// `cachewarden preview` at scale: a generated 10,000-object dump (tools/preview/sample-dump.ts)
// previewed with the built policies on worker threads within the 60 s the issue sets for this
// 2-core machine; the time is printed as a test diagnostic (and `cachewarden bench --preview`
// reports it). The totals show every object was evaluated by every policy that applies to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PREVIEW_LIMIT_SECONDS, runPreviewBench } from "../tools/bench/preview";

test("a 10,000-object dump is previewed within a minute", async (t) => {
  const r = await runPreviewBench(10000);
  t.diagnostic(
    `preview of ${r.objects} objects (${r.evaluations} evaluations, ${r.workers} workers): ${r.seconds.toFixed(1)} s`,
  );
  assert.equal(r.objects, 10000);
  // per namespace of 50 objects: 1 engine, 1 ConfigMap, 4 Deployments, 44 pods (a third each wired,
  // engine missing, not opted in); 200 namespaces. Every built policy runs: the engine goes to
  // cacheengine-validator, each pod and pod template to the three pod injectors.
  assert.equal(r.evaluations, 200 * (1 + 3 * (4 + 44)));
  // no namespace has Pod Security labels and no policy is in monitor mode: those outcomes stay 0
  const totals = (n: Partial<Record<string, number>>) => ({
    wired: 0,
    "would-wire": 0,
    skipped: 0,
    rejected: 0,
    "would-reject": 0,
    refused: 0,
    untouched: 0,
    defaulted: 0,
    "would-default": 0,
    ...n,
  });
  assert.deepEqual(r.totals, {
    "cachebackend-defaulter": totals({}),
    "cachebackend-validator": totals({}),
    "cacheblend-injector": totals({ untouched: 200 * 48 }),
    "cacheengine-validator": totals({ untouched: 200 }),
    "hicache-injector": totals({ untouched: 200 * 48 }),
    "lmcache-injector": totals({ wired: 200 * (4 + 15), skipped: 200 * 15, untouched: 200 * 14 }),
  });
  assert.ok(r.seconds <= PREVIEW_LIMIT_SECONDS, `${r.seconds.toFixed(1)} s > ${PREVIEW_LIMIT_SECONDS} s`);
});
