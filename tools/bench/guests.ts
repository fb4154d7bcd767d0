// Compiles the small test-only AssemblyScript guests under tests/guests/<name>/ (the minimal waPC
// guest, the JSON-DOM bench probe, the deliberately broken fuzz target) with the production flags
// (docs/wasm-contract.md#build-flags), so what the benchmark and the fuzz tests measure is built
// like a policy. Output is cached under build/guests/ (git-ignored), keyed by a hash of every input
// that can change the module: the guest's sources, assembly/**, asconfig.json, the compiler version
// and the flags. Built wasm is never written into the source tree.
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { ASC_FLAGS } from "../wasm/index";

export const ROOT = path.resolve(__dirname, "..", "..");

/** The production flags (the policy build's own), minus entry and output. */
export const PRODUCTION_FLAGS: readonly string[] = ASC_FLAGS;

function listFiles(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "__tests__") listFiles(p, out);
    } else if (e.isFile() && e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}

function compilerVersion(): string {
  try {
    return (
      JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "assemblyscript", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "unknown";
  }
}

/** Content hash of everything that determines the guest's wasm. */
function inputsHash(guestDir: string): string {
  const h = crypto.createHash("sha256");
  h.update(compilerVersion()).update("\0").update(PRODUCTION_FLAGS.join(" ")).update("\0");
  const files = [
    ...listFiles(guestDir),
    ...listFiles(path.join(ROOT, "assembly")),
    path.join(ROOT, "asconfig.json"),
    path.join(ROOT, "tools", "wasm", "asconfig.production.json"),
    ...[
      "compile-guest.ts",
      "segments.ts",
      "texts.ts",
      "texts-transform.mjs",
      "texts-dictionary.mjs",
      "texts-contract.json",
    ].map((f) => path.join(ROOT, "tools", "wasm", f)),
  ];
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    h.update(path.relative(ROOT, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  }
  return h.digest("hex").slice(0, 16);
}

/**
 * Builds tests/guests/<name>/index.ts (if not cached) and returns the wasm path.
 * Throws with the compiler's output when the build fails.
 */
export function compileTestGuest(name: string, opts: { log?: (line: string) => void } = {}): string {
  const guestDir = path.join(ROOT, "tests", "guests", name);
  const entry = path.join(guestDir, "index.ts");
  if (!fs.existsSync(entry)) throw new Error(`no test guest ${name} (${path.relative(ROOT, entry)} is missing)`);
  const outDir = path.join(ROOT, "build", "guests", name);
  const out = path.join(outDir, `${inputsHash(guestDir)}.wasm`);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(outDir, { recursive: true });
  opts.log?.(`compiling test guest ${name} (production flags)`);
  const tmp = `${out}.${process.pid}.tmp`;
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "tools", "wasm", "compile-guest.ts"), path.relative(ROOT, entry), tmp],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0 || !fs.existsSync(tmp)) {
    fs.rmSync(tmp, { force: true });
    throw new Error(`asc failed for test guest ${name}:\n${(r.stdout ?? "") + (r.stderr ?? "")}`.trimEnd());
  }
  // Rename makes the cache entry appear atomically, so concurrent test processes never read half a file.
  fs.renameSync(tmp, out);
  for (const old of fs.readdirSync(outDir))
    if (old.endsWith(".wasm") && path.join(outDir, old) !== out) fs.rmSync(path.join(outDir, old), { force: true });
  return out;
}
