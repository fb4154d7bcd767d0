// The one writer of a policy's test_data/ for every policies/<name>/test/make-test-data.ts: case
// names unique, the folder emptied and rewritten (a case dropped from a generator leaves no file
// behind). CACHEWARDEN_TEST_DATA_OUT sends the output elsewhere, so tests/test-data.test.ts can
// regenerate every policy's cases and hold them equal, byte for byte, to the committed ones.
import * as fs from "node:fs";
import * as path from "node:path";

export const TEST_DATA_OUT_ENV = "CACHEWARDEN_TEST_DATA_OUT";

/** Where the generator in `generatorDir` (policies/<name>/test) writes: its policy's test_data/. */
export function testDataDir(generatorDir: string): string {
  return process.env[TEST_DATA_OUT_ENV] ?? path.resolve(generatorDir, "..", "test_data");
}

/** Writes `files` and cases.yml into `out`, which holds nothing else afterwards. */
export function writeTestData(
  out: string,
  caseNames: readonly string[],
  files: ReadonlyMap<string, string>,
  casesYml: string,
): void {
  const seen = new Set<string>();
  for (const name of caseNames) {
    if (seen.has(name)) throw new Error(`duplicate case ${name}`);
    seen.add(name);
  }
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(out)) fs.rmSync(path.join(out, f));
  for (const [f, text] of files) fs.writeFileSync(path.join(out, f), text);
  fs.writeFileSync(path.join(out, "cases.yml"), casesYml);
  console.log(`${caseNames.length} cases, ${files.size + 1} files in ${path.relative(process.cwd(), out)}`);
}
