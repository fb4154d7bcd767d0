// `cachewarden build`: for every policies/<name>/ (assembly/index.ts + metadata.yml) compile with
// the mandatory asc flags (docs/wasm-contract.md#build-flags), gate policy.wasm, annotate, gate the
// annotated module, then publish both files and a stamp. Incremental: a policy whose inputs hash to
// the stamp's value and whose outputs are intact is skipped. A failed policy never leaves outputs
// that look valid.
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { annotateModule, checkMetadataForAnnotation } from "./annotate";
import { assertGates } from "./gates";
import { mergeDataSegments } from "./segments";
import { attachTexts, textsAscFlags, TEXTS_FILE_ENV } from "./texts";
import { artifacthubWarnings, readMetadataYaml, USAGE_ANNOTATION } from "./metadata";

/** The tool's own checkout (node_modules, tools/); policies may live elsewhere (tests). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** The production runtime (a path asc resolves from the repository root), see ASC_FLAGS. */
export const PRODUCTION_RUNTIME = "assembly/rt/compact";

/**
 * Exactly the production flags; never `--noAssert`, never memory/table imports. The runtime is
 * the project's own bump allocator (assembly/rt/compact.ts: the `stub` allowed alternative with an
 * 8-byte block header), with the whole heap reset after every call (`releaseCallMemory`), which
 * removes its unbounded growth in long-lived instances; see docs/decisions.md for why and what it
 * measured.
 */
export const ASC_FLAGS: readonly string[] = [
  "--runtime",
  PRODUCTION_RUNTIME,
  "--use",
  "RESET_HEAP_AFTER_CALL=1",
  "-O3",
  "--converge",
  "--use",
  "abort=assembly/wapc/index/wapcAbort",
  "--exportStart",
  "_start",
  // string literals out of linear memory (tools/wasm/texts-transform.mjs); the build adds their segment
  ...textsAscFlags(),
  // binaryen's inlining limits, lowered for size (tools/wasm/inlining-transform.mjs)
  "--transform",
  path.join(__dirname, "inlining-transform.mjs"),
  // functions that differ only in constants become one (−0.4 KB, no measurable warm cost)
  "--runPasses",
  "merge-similar-functions",
];

// asc reads ./asconfig.json from its cwd and merges it into the command line. Pointing --config at
// a file of our own keeps the build defined by ASC_FLAGS and that file alone (both are hashed into
// the stamp). The file holds the one option the command line cannot spell: a custom runtime counts
// as the collecting kind, for which asc adds a shadow stack unless the stack size is set, and its
// parser takes `-1` for an option; `stackSize: -1` turns the shadow stack off (asc uses one only
// when the size is positive).
export const PRODUCTION_ASCONFIG = path.join(__dirname, "asconfig.production.json");
const ASC_BIN = path.join(REPO_ROOT, "node_modules", "assemblyscript", "bin", "asc.js");
const STAMP_FILE = ".build-stamp.json";
const POLICY_WASM = "policy.wasm";
const ANNOTATED_WASM = "annotated-policy.wasm";
const STAMP_VERSION = 1;
// Build tooling whose behaviour shapes the outputs: a change re-runs every build.
const TOOL_SOURCES = [
  "tools/wasm/index.ts",
  "tools/wasm/annotate.ts",
  "tools/wasm/gates.ts",
  "tools/wasm/metadata.ts",
  "tools/wasm/wasm.ts",
  "tools/wasm/segments.ts",
  "tools/wasm/texts.ts",
  "tools/wasm/texts-transform.mjs",
  "tools/wasm/texts-dictionary.mjs",
  "tools/wasm/inlining-transform.mjs",
  "tools/wasm/texts-contract.json",
  "tools/wasm/asconfig.production.json",
  "tools/host/guest.ts",
  "tools/host/instance.ts",
];

export interface BuildOptions {
  /** policy folder names; default: every policy under policiesDir */
  policies?: string[];
  /** rebuild even when the stamp says up to date */
  force?: boolean;
  /** one progress line per policy */
  log?: (line: string) => void;
  /** asc cwd and home of the shared `assembly/` library (default: the repository root) */
  rootDir?: string;
  /** where policy folders live (default: `<rootDir>/policies`) */
  policiesDir?: string;
}

export interface BuildResult {
  name: string;
  ok: boolean;
  error?: string;
  skipped?: boolean;
  sizes?: { policy: number; annotated: number };
}

interface Stamp {
  version: number;
  inputs: string;
  ascVersion: string;
  outputs: { policy: string; annotated: string };
  sizes: { policy: number; annotated: number };
}

interface PolicyPaths {
  name: string;
  dir: string;
  entry: string;
  metadata: string;
  readme: string;
  policyWasm: string;
  annotatedWasm: string;
  stamp: string;
}

class BuildFailure extends Error {}

function policyPaths(policiesDir: string, name: string): PolicyPaths {
  const dir = path.join(policiesDir, name);
  return {
    name,
    dir,
    entry: path.join(dir, "assembly", "index.ts"),
    metadata: path.join(dir, "metadata.yml"),
    readme: path.join(dir, "README.md"),
    policyWasm: path.join(dir, POLICY_WASM),
    annotatedWasm: path.join(dir, ANNOTATED_WASM),
    stamp: path.join(dir, STAMP_FILE),
  };
}

function isPolicyDir(policiesDir: string, name: string): boolean {
  const p = policyPaths(policiesDir, name);
  return fs.existsSync(p.entry) && fs.existsSync(p.metadata);
}

/** Folder names under policiesDir that hold a policy, sorted for a stable order. */
export function discoverPolicies(policiesDir: string): string[] {
  if (!fs.existsSync(policiesDir)) return [];
  return fs
    .readdirSync(policiesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && isPolicyDir(policiesDir, d.name))
    .map((d) => d.name)
    .sort();
}

export function ascVersion(): string {
  return (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", "assemblyscript", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

function sha256(data: string | Uint8Array): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** Files below `dir`, skipping unit-test folders (as-pect specs never reach a policy module). */
function listSourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== "__tests__" && e.name !== "node_modules") out.push(...listSourceFiles(p));
    else if (e.isFile() && !e.name.endsWith(".spec.json")) out.push(p);
  }
  return out;
}

/**
 * One hash over everything that can change the outputs: the policy's own sources, all of the shared
 * `assembly/**` (any of it may be imported), metadata.yml, README.md, the asc version and flags, and
 * the build tooling itself. Paths are hashed relative to their base so a moved tree is still equal.
 */
function inputsHash(rootDir: string, p: PolicyPaths): string {
  const entries: string[] = [];
  const add = (label: string, file: string): void => {
    entries.push(`${label}\0${fs.existsSync(file) ? sha256(fs.readFileSync(file)) : "absent"}`);
  };
  for (const f of listSourceFiles(path.join(p.dir, "assembly"))) add(`policy:${path.relative(p.dir, f)}`, f);
  for (const f of listSourceFiles(path.join(rootDir, "assembly"))) add(`shared:${path.relative(rootDir, f)}`, f);
  add("policy:metadata.yml", p.metadata);
  add("policy:README.md", p.readme);
  for (const f of TOOL_SOURCES) add(`tool:${f}`, path.join(REPO_ROOT, f));
  entries.sort();
  entries.push(`asc\0${ascVersion()}`, `flags\0${ASC_FLAGS.join(" ")}`, `stamp\0${STAMP_VERSION}`);
  return sha256(entries.join("\n"));
}

function readStamp(file: string): Stamp | null {
  try {
    const s = JSON.parse(fs.readFileSync(file, "utf8")) as Stamp;
    return s.version === STAMP_VERSION ? s : null;
  } catch {
    return null;
  }
}

/** Up to date = same inputs and both outputs still exactly what that build produced. */
function upToDate(p: PolicyPaths, hash: string): Stamp | null {
  const stamp = readStamp(p.stamp);
  if (!stamp || stamp.inputs !== hash) return null;
  for (const [file, digest] of [
    [p.policyWasm, stamp.outputs.policy],
    [p.annotatedWasm, stamp.outputs.annotated],
  ]) {
    if (!fs.existsSync(file) || sha256(fs.readFileSync(file)) !== digest) return null;
  }
  return stamp;
}

function removeOutputs(p: PolicyPaths): void {
  for (const f of [p.policyWasm, p.annotatedWasm, p.stamp]) fs.rmSync(f, { force: true });
}

// asc reports this when the entry never imports the waPC glue, so `--use abort=…` names nothing.
const ABORT_NOT_FOUND_HINT = "the policy entry must import assembly/wapc/index so the abort handler exists";

/** The first diagnostic of asc's output, with its location when it has one, as one line. */
export function summarizeAscOutput(output: string): string {
  const lines = stripAnsi(output).split(/\r?\n/);
  const i = lines.findIndex((l) => /^(ERROR|FAILURE)\b/.test(l.trim()));
  if (i < 0)
    return (
      lines
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(-1)[0] ?? "no output"
    );
  // A diagnostic's code frame runs until the next blank line; a location further down belongs to another one.
  const end = lines.findIndex((l, j) => j > i && l.trim() === "");
  const location = lines
    .slice(i + 1, end < 0 ? undefined : end)
    .map((l) => l.match(/└─ in (.+)$/)?.[1])
    .find(Boolean);
  const hint = /AS111: Element '[^']*wapcAbort' not found/.test(lines[i]) ? ` (${ABORT_NOT_FOUND_HINT})` : "";
  return lines[i].trim() + (location ? ` (at ${location})` : "") + hint;
}

// asc colors its output when it believes a terminal or a CI system is watching (CI=true).
// eslint-disable-next-line no-control-regex -- terminal color codes
const ANSI_ESCAPES = /\x1b\[[0-9;]*m/g;
function stripAnsi(text: string): string {
  return text.replace(ANSI_ESCAPES, "");
}

/** Runs the asc CLI with cwd rootDir; resolves with its exit code and combined output. */
function runAsc(rootDir: string, args: string[], textsFile: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ASC_BIN, ...args], {
      cwd: rootDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", [TEXTS_FILE_ENV]: textsFile },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString("utf8");
    });
    child.on("error", (e) => resolve({ code: -1, output: `cannot run asc: ${e.message}` }));
    child.on("close", (code) => resolve({ code: code ?? -1, output: stripAnsi(output) }));
  });
}

/** asc, then the data segments merged and the texts segment attached (tools/wasm/texts.ts) */
async function compile(rootDir: string, p: PolicyPaths, outFile: string, log: (line: string) => void): Promise<Buffer> {
  const entry = path.relative(rootDir, p.entry).split(path.sep).join("/");
  const textsFile = `${outFile}.texts`;
  const r = await runAsc(rootDir, [entry, "-o", outFile, ...ASC_FLAGS, "--config", PRODUCTION_ASCONFIG], textsFile);
  if (r.code !== 0 || !fs.existsSync(outFile) || !fs.existsSync(textsFile)) {
    for (const line of r.output.trimEnd().split(/\r?\n/)) if (line.trim()) log(`  ${p.name} | ${line}`);
    throw new BuildFailure(`asc failed: ${summarizeAscOutput(r.output)}`);
  }
  // One data segment instead of hundreds: instantiation (once per request) copies each one.
  const merged = mergeDataSegments(fs.readFileSync(outFile)).bytes;
  try {
    return Buffer.from(await attachTexts(merged, fs.readFileSync(textsFile)));
  } catch (e) {
    throw new BuildFailure(`attaching the texts segment failed: ${(e as Error).message}`);
  }
}

function readReadme(p: PolicyPaths): string {
  if (!fs.existsSync(p.readme)) throw new BuildFailure(`README.md is missing (its text becomes ${USAGE_ANNOTATION})`);
  return fs.readFileSync(p.readme, "utf8");
}

/** Compile → gate → annotate → gate, all in a scratch dir; returns both modules. */
async function produce(
  rootDir: string,
  p: PolicyPaths,
  log: (line: string) => void,
): Promise<{ policy: Buffer; annotated: Buffer }> {
  // Annotation inputs are read first so a YAML or README problem fails before a 3-second compile.
  const metadataLabel = path.relative(rootDir, p.metadata);
  const metadata = readMetadataYaml(p.metadata, metadataLabel);
  checkMetadataForAnnotation(metadata, metadataLabel);
  for (const w of artifacthubWarnings(metadata)) log(`  ${p.name} | warning: ${metadataLabel}: ${w}`);
  const usage = readReadme(p);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `cachewarden-build-${p.name}-`));
  try {
    const policy = await compile(rootDir, p, path.join(scratch, POLICY_WASM), log);
    assertGates(policy, POLICY_WASM, { metadata: "absent" });
    const { bytes: annotated } = annotateModule({
      wasm: policy,
      wasmLabel: POLICY_WASM,
      metadata,
      metadataLabel,
      usage,
    });
    assertGates(annotated, ANNOTATED_WASM, { metadata: "required" });
    return { policy, annotated };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Outputs first, stamp last: a stamp only ever describes files that are fully written. */
function publish(p: PolicyPaths, hash: string, policy: Buffer, annotated: Buffer): Stamp {
  fs.writeFileSync(p.policyWasm, policy);
  fs.writeFileSync(p.annotatedWasm, annotated);
  const stamp: Stamp = {
    version: STAMP_VERSION,
    inputs: hash,
    ascVersion: ascVersion(),
    outputs: { policy: sha256(policy), annotated: sha256(annotated) },
    sizes: { policy: policy.length, annotated: annotated.length },
  };
  fs.writeFileSync(p.stamp, JSON.stringify(stamp, null, 2) + "\n");
  return stamp;
}

function formatSizes(s: { policy: number; annotated: number }): string {
  return `${POLICY_WASM} ${s.policy} B, ${ANNOTATED_WASM} ${s.annotated} B`;
}

async function buildOne(
  rootDir: string,
  p: PolicyPaths,
  force: boolean,
  log: (line: string) => void,
): Promise<BuildResult> {
  const started = Date.now();
  try {
    const hash = inputsHash(rootDir, p);
    const fresh = force ? null : upToDate(p, hash);
    if (fresh) {
      log(`${p.name}: up to date (${formatSizes(fresh.sizes)})`);
      return { name: p.name, ok: true, skipped: true, sizes: fresh.sizes };
    }
    removeOutputs(p); // from here until publish, nothing in the folder claims to be a valid build
    const { policy, annotated } = await produce(rootDir, p, log);
    const stamp = publish(p, hash, policy, annotated);
    log(`${p.name}: ok (${formatSizes(stamp.sizes)}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return { name: p.name, ok: true, sizes: stamp.sizes };
  } catch (e) {
    removeOutputs(p);
    const reason = (e as Error).message.split("\n")[0];
    log(`${p.name}: FAILED ${reason}`);
    return { name: p.name, ok: false, error: `${p.name}: ${reason}` };
  }
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the input order. */
async function mapPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The stamp hash of one policy's current inputs (what decides "up to date"). */
export function policyInputsHash(opts: Pick<BuildOptions, "rootDir" | "policiesDir">, name: string): string {
  const { rootDir, policiesDir } = resolveDirs(opts);
  return inputsHash(rootDir, policyPaths(policiesDir, name));
}

function resolveDirs(opts: Pick<BuildOptions, "rootDir" | "policiesDir">): { rootDir: string; policiesDir: string } {
  const rootDir = path.resolve(opts.rootDir ?? REPO_ROOT);
  return { rootDir, policiesDir: path.resolve(opts.policiesDir ?? path.join(rootDir, "policies")) };
}

/** Accepts `lmcache-injector`, `policies/lmcache-injector/` or a path to it (shell completion). */
function policyName(arg: string): string {
  return arg.includes("/") ? path.basename(arg.replace(/\/+$/, "")) : arg;
}

export async function buildPolicies(opts: BuildOptions = {}): Promise<BuildResult[]> {
  const { rootDir, policiesDir } = resolveDirs(opts);
  const log = opts.log ?? (() => undefined);
  const names = opts.policies && opts.policies.length > 0 ? opts.policies : discoverPolicies(policiesDir);
  // asc is mostly single-threaded; two at a time uses a typical CI runner without thrashing it.
  const limit = Math.max(1, Math.min(2, os.availableParallelism()));
  return mapPool(names.map(policyName), limit, async (name): Promise<BuildResult> => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || !isPolicyDir(policiesDir, name)) {
      const error = `${name}: no such policy (expected ${path.relative(rootDir, path.join(policiesDir, name)) || name}/assembly/index.ts and metadata.yml)`;
      log(`${name}: FAILED no such policy`);
      return { name, ok: false, error };
    }
    return buildOne(rootDir, policyPaths(policiesDir, name), opts.force ?? false, log);
  });
}
