// `cachewarden bench --quick` runs end to end and writes a report of the documented shape. No
// timing thresholds here: the targets are checked and reported by the benchmark itself.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "../tools/bench/guests";
import { discoverPolicies } from "../tools/bench/policies";
import type { BenchReport } from "../tools/bench/types";
import { buildBaseline } from "../tools/bench/baseline";

let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-bench-test-"));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function isStats(s: unknown): boolean {
  const o = s as Record<string, unknown>;
  return (
    o !== null &&
    typeof o === "object" &&
    ["samples", "medianUs", "p99Us", "meanUs", "minUs", "maxUs"].every(
      (k) => typeof o[k] === "number" && !Number.isNaN(o[k]),
    )
  );
}

test("bench --quick: minimal guest, JSON DOM and one policy; bench.json and bench.md", () => {
  const built = discoverPolicies().targets.map((t) => t.name);
  const policy = built.includes("lmcache-injector") ? "lmcache-injector" : built[0];
  const out = path.join(tmp, "results");
  const args = [
    path.join(ROOT, "bin", "cachewarden.js"),
    "bench",
    "--quick",
    "--out",
    out,
    ...(policy ? [policy] : []),
  ];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stdout + r.stderr);

  const report = JSON.parse(fs.readFileSync(path.join(out, "bench.json"), "utf8")) as BenchReport;
  assert.equal(report.schema, "cachewarden-bench/1");
  assert.equal(report.options.quick, true);
  assert.equal(typeof report.environment.node, "string");
  assert.ok(report.minimalGuest.wasmBytes > 0);
  assert.ok(isStats(report.minimalGuest.startup), "minimal guest start-up stats");
  const u = report.jsonDom.untouched;
  assert.ok(u.payloadBytes > 8000 && u.payloadBytes < 12000, `~10 KB request, got ${u.payloadBytes}`);
  if (!u.error) {
    assert.ok(isStats(u.dom) && isStats(u.js) && isStats(u.domFresh));
    assert.equal(typeof u.ratio, "number");
    assert.equal(typeof u.byteExact, "boolean");
  }
  assert.ok(report.jsonDom.large.payloadBytes >= 1.5 * 1024 * 1024);

  const ids = report.targets.map((t) => t.id);
  for (const id of ["json-dom-10k", "json-dom-large-time", "json-dom-large-memory", "lmcache-injector-warm"]) {
    assert.ok(ids.includes(id), `target ${id} missing (have ${ids.join(", ")})`);
  }
  for (const t of report.targets) {
    assert.equal(typeof t.pass, "boolean");
    assert.equal(typeof t.limit, "number");
    assert.ok(t.measured === null || typeof t.measured === "number");
  }
  assert.equal(
    report.pass,
    report.targets.every((t) => t.pass),
  );

  if (policy) {
    assert.equal(report.policies.length, 1);
    const p = report.policies[0];
    assert.equal(p.name, policy);
    assert.ok(p.error === undefined, p.error);
    assert.ok(
      p.startup && isStats(p.startup.policy) && isStats(p.startup.minimal) && typeof p.startup.ratio === "number",
    );
    assert.ok(ids.includes(`${policy}-startup`));
    assert.ok(
      ids.includes(`${policy}-fresh`) && ids.includes(`${policy}-size`),
      "fresh-vs-minimal and policy.wasm size targets per policy",
    );
    assert.ok((p.module.annotatedWasmBytes ?? p.module.policyWasmBytes ?? 0) > 0);
    assert.equal(p.cases.length, 1, "--quick measures the primary case only");
    const c = p.cases[0];
    assert.equal(c.primary, true);
    assert.equal(c.name, p.primaryCase);
    assert.ok(c.error === undefined, c.error);
    assert.ok(isStats(c.fresh) && isStats(c.warm) && isStats(c.js));
    assert.equal(typeof c.warmOverJs, "number");
    assert.equal(typeof c.freshOverJs, "number");
    // the fresh evaluation is judged against the minimal guest's on the same bytes, with pages counted
    assert.ok(
      c.freshPair &&
        isStats(c.freshPair.policy) &&
        isStats(c.freshPair.minimal) &&
        typeof c.freshPair.ratio === "number",
    );
    assert.ok(c.pages && c.pages.policy > c.pages.minimal && c.pages.minimal >= 1, JSON.stringify(c.pages));
    assert.ok((c.peakMemoryBytes ?? 0) >= 65536);
    assert.equal(c.baseline?.matchesPolicy, true, "the JS baseline produces the policy's answer");
    assert.equal(c.warmMatchesFresh, true, "a warm instance answers like a fresh one");
  }

  const md = fs.readFileSync(path.join(out, "bench.md"), "utf8");
  assert.match(md, /^# cachewarden benchmark/m);
  assert.match(md, /\| Target \| Measured \| Limit \| Result \|/);
  assert.match(md, /\| (PASS|MISS) \|/);
  assert.match(md, /## Fresh evaluation per policy/);
  assert.ok(r.stdout.includes("| Target | Measured | Limit | Result |"), "the table is printed on stdout");
});

test("the JS baseline reads the host responses too, and survives one that is not JSON", () => {
  const payload = Buffer.from(JSON.stringify({ request: { object: { metadata: { name: "p" } } }, settings: {} }));
  const response = { accepted: true, mutated_object: { metadata: { name: "p", labels: { a: "b" } } } };
  const hostResponses = [Buffer.from('{"kind":"ConfigMap"}'), Buffer.from("<html>502 Bad Gateway</html>")];
  const baseline = buildBaseline("lmcache-injector", payload, response, hostResponses);
  assert.equal(baseline.kind, "patch");
  assert.deepEqual(JSON.parse(baseline.run().toString("utf8")), response);
});
