// Every policy's committed test_data/ is what its generator (policies/<name>/test/make-test-data.ts)
// writes today: a case edited by hand, or a generator changed without regenerating, fails here
// naming the files that differ.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TEST_DATA_OUT_ENV } from "./helpers/test-data";
import { ROOT } from "./helpers/host-guests";

const generators = fs
  .readdirSync(path.join(ROOT, "policies"))
  .sort()
  .map((name) => ({ name, generator: path.join(ROOT, "policies", name, "test", "make-test-data.ts") }))
  .filter((p) => fs.existsSync(p.generator));

/** file → bytes of a test_data folder */
function read(dir: string): Map<string, Buffer> {
  return new Map(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f))]),
  );
}

test("every policy has a test data generator", () => {
  assert.equal(generators.length, 6, generators.map((g) => g.name).join(", "));
});

for (const { name, generator } of generators)
  test(`${name}: test_data/ is what its generator writes`, () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), `cachewarden-testdata-${name}-`));
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", generator], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, [TEST_DATA_OUT_ENV]: out },
      });
      assert.equal(r.status, 0, r.stderr);
      const fresh = read(out);
      const committed = read(path.join(ROOT, "policies", name, "test_data"));
      const differ = [...new Set([...fresh.keys(), ...committed.keys()])].filter(
        (f) => !fresh.get(f)?.equals(committed.get(f) ?? Buffer.alloc(0)) || !committed.has(f),
      );
      assert.deepEqual(differ, [], `regenerate: node --import tsx ${path.relative(ROOT, generator)}`);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
