// The page budget (issue 8): on a fresh instance every 4 KiB page an evaluation writes for the
// first time is a page fault, so pages per evaluation are held like a size budget. The numbers are
// the ones `npm run bench` last recorded (tools/bench/page-budget.json); a change that spreads
// memory again fails here, without any timing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HostCapabilities } from "../tools/host/capabilities";
import { PolicyModule } from "../tools/host/guest";
import { compileTestGuest } from "../tools/bench/guests";
import { activeDataRanges, countPagesWritten, PAGE_BYTES } from "../tools/bench/pages";
import { BYTES_MARGIN, PAGE_MARGIN, readPageBudget } from "../tools/bench/page-budget";
import { discoverPolicies, loadValidateCases } from "../tools/bench/policies";

const budget = readPageBudget();
const built = discoverPolicies().targets;

test("every built policy has a recorded page budget", () => {
  assert.ok(built.length > 0, "no policy is built");
  for (const t of built)
    assert.ok(budget[t.name], `${t.name} has no entry in tools/bench/page-budget.json (run npm run bench)`);
});

for (const t of built) {
  const entry = budget[t.name];
  if (!entry) continue;
  test(`${t.name}: a fresh evaluation of ${entry.case} writes at most ${entry.pages} + ${PAGE_MARGIN} pages and ${entry.bytes} + ${BYTES_MARGIN} bytes`, () => {
    const c = loadValidateCases(t).find((k) => k.name === entry.case);
    assert.ok(c, `case ${entry.case} is not among ${t.name}'s validate cases`);
    const module = PolicyModule.fromFile(t.wasm);
    const count = countPagesWritten(module.module, module.bytes, c.payload, new HostCapabilities(c.host).handler);
    assert.equal(count.result.ok, true, count.result.error ?? count.result.trap);
    // counting must not change what the policy answers
    const plain = module.call("validate", c.payload, { hostCall: new HostCapabilities(c.host).handler });
    assert.equal(count.result.response?.toString("utf8"), plain.response?.toString("utf8"));
    assert.ok(
      count.written <= entry.pages + PAGE_MARGIN,
      `${count.written} pages written (${JSON.stringify(count.byRegion)}), budget ${entry.pages} + ${PAGE_MARGIN}`,
    );
    assert.ok(entry.bytes !== undefined, `no bytes recorded for ${t.name} (run npm run bench)`);
    assert.ok(
      count.bytesWritten <= entry.bytes + BYTES_MARGIN,
      `${count.bytesWritten} bytes written, budget ${entry.bytes} + ${BYTES_MARGIN}`,
    );
  });
}

// Instantiation copies the active data segments into memory: every 4 KiB page they span is written
// (faulted) on every fresh instance, before `validate` runs. One page is what the minimal guest and
// every policy need; a standard-library call that links tables (`String#toLowerCase`'s Unicode case
// maps, `toString(radix)`'s digit tables) spreads them over several (cachebackend-validator's were
// 10.6 KB and made its start-up 1.5x the minimal guest's).
for (const t of built) {
  test(`${t.name}: the static data instantiation copies fits in one 4 KiB page`, () => {
    const module = PolicyModule.fromFile(t.wasm);
    const ranges = activeDataRanges(module.bytes);
    const pages = new Set<number>();
    for (const [from, to] of ranges)
      for (let p = Math.floor(from / PAGE_BYTES); p <= Math.floor((to - 1) / PAGE_BYTES); p++) pages.add(p);
    const bytes = ranges.reduce((n, [from, to]) => n + to - from, 0);
    assert.ok(pages.size <= 1, `${bytes} bytes of active data over ${pages.size} pages (${[...pages].join(", ")})`);
  });
}

test("the page counter sees the request copy, and never changes the answer", () => {
  const minimal = PolicyModule.fromFile(compileTestGuest("minimal"));
  const small = countPagesWritten(minimal.module, minimal.bytes, Buffer.from("{}"));
  // a 40 KiB request: the host's copy writes ten fresh pages
  const large = countPagesWritten(minimal.module, minimal.bytes, Buffer.alloc(40 * 1024, " "));
  assert.equal(small.result.ok, true);
  assert.equal(small.result.response?.toString(), '{"accepted":true}');
  assert.ok(
    large.written - small.written >= (40 * 1024) / PAGE_BYTES - 1,
    `small ${small.written}, 40 KiB request ${large.written}`,
  );
  // every byte of the larger request, less the two of "{}"
  assert.ok(
    large.bytesWritten - small.bytesWritten >= 40 * 1024 - 2,
    `bytes: ${small.bytesWritten}, ${large.bytesWritten}`,
  );
  assert.ok(small.written <= 4, `the minimal guest writes ${small.written} pages for "{}"`);
});
