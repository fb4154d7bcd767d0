// `node --import tsx tools/wasm/compile-guest.ts <entry.ts> <out.wasm>` (cwd: the repository root):
// one module built exactly as a policy's policy.wasm is (asc with the production flags, merged data
// segments, the texts segment), for the test-only guests the benchmark and the fuzz tests use.
// A separate process because the texts step is asynchronous and its callers are not.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ASC_FLAGS, PRODUCTION_ASCONFIG, REPO_ROOT } from "./index";
import { mergeDataSegments } from "./segments";
import { attachTexts, TEXTS_FILE_ENV } from "./texts";

async function main(): Promise<void> {
  const [entry, out] = process.argv.slice(2);
  if (!entry || !out) throw new Error("usage: compile-guest.ts <entry.ts> <out.wasm>");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-guest-"));
  try {
    const raw = path.join(scratch, "raw.wasm");
    const texts = path.join(scratch, "raw.wasm.texts");
    const asc = path.join(REPO_ROOT, "node_modules", "assemblyscript", "bin", "asc.js");
    const r = spawnSync(process.execPath, [asc, entry, "-o", raw, ...ASC_FLAGS, "--config", PRODUCTION_ASCONFIG], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, [TEXTS_FILE_ENV]: texts },
    });
    if (r.status !== 0 || !fs.existsSync(raw))
      throw new Error(`asc failed:\n${(r.stdout ?? "") + (r.stderr ?? "")}`.trimEnd());
    const merged = mergeDataSegments(fs.readFileSync(raw)).bytes;
    fs.writeFileSync(out, await attachTexts(merged, fs.readFileSync(texts)));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
});
