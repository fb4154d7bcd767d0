// The Node.js promise of README.md and package.json `engines` is true of what `npm ci` installs:
// every package in package-lock.json allows every Node version the promise admits (else `npm ci`
// warns EBADENGINE on a machine the README says is fine), and the README states the same range.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as semver from "semver";

const ROOT = path.resolve(__dirname, "..");
const read = (f: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(ROOT, f), "utf8"));
const promise = (read("package.json").engines as { node: string }).node;

test("README.md states package.json's Node.js range", () => {
  assert.ok(semver.validRange(promise), `engines.node ${promise} is a semver range`);
  assert.ok(fs.readFileSync(path.join(ROOT, "README.md"), "utf8").includes(`Node.js \`${promise}\``));
});

test("every locked package's engines.node allows every Node.js version the promise admits", () => {
  const packages = read("package-lock.json").packages as Record<string, { version?: string; engines?: unknown }>;
  const narrower: string[] = [];
  let checked = 0;
  for (const [where, p] of Object.entries(packages)) {
    const node = (p.engines as { node?: unknown } | undefined)?.node;
    if (where === "" || typeof node !== "string") continue;
    checked++;
    if (!semver.subset(promise, node)) narrower.push(`${where}@${p.version}: engines.node ${node}`);
  }
  assert.ok(checked > 100, `only ${checked} packages state engines.node`);
  assert.deepEqual(narrower, [], `packages that refuse part of ${promise}`);
});

test("the Node.js running the suite is one the promise admits", () => {
  assert.ok(semver.satisfies(process.version, promise), `${process.version} is outside ${promise}`);
});
