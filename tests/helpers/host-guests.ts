// Test guests for the Node host: the AssemblyScript host-probe (compiled with asc at test time) and
// hand-written WAT modules (compiled with wabt) for modules that break the rules. Compiled guests
// are cached in os.tmpdir() keyed by a hash of their sources and flags, so only the first run pays
// for asc.
import { spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
const PROBE_ENTRY = path.join(ROOT, "tests", "guests", "host-probe", "index.ts");
const ASC = path.join(ROOT, "node_modules", ".bin", "asc");
const ASC_FLAGS = [
  "--runtime",
  "stub",
  "-O1",
  "--use",
  "abort=assembly/wapc/index/wapcAbort",
  "--exportStart",
  "_start",
];

function cachePath(key: string, ext: string): string {
  const dir = path.join(os.tmpdir(), "cachewarden-host-tests");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${key}.${ext}`);
}

function hashOf(parts: (string | Buffer)[]): string {
  const h = crypto.createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex").slice(0, 24);
}

/** Writes via a temp file + rename so parallel test files never read a half-written module. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

/** The compiled host-probe guest (path to a cached .wasm). */
export function probeWasmPath(): string {
  const sources = [PROBE_ENTRY, path.join(ROOT, "assembly", "wapc", "index.ts"), path.join(ROOT, "asconfig.json")].map(
    (f) => fs.readFileSync(f),
  );
  const out = cachePath(`host-probe-${hashOf([...sources, ASC_FLAGS.join(" ")])}`, "wasm");
  if (fs.existsSync(out)) return out;
  const tmpOut = `${out}.${process.pid}.build.wasm`;
  const r = spawnSync(ASC, [path.relative(ROOT, PROBE_ENTRY), "-o", tmpOut, ...ASC_FLAGS], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`asc failed for host-probe: ${r.stderr || r.stdout}`);
  fs.renameSync(tmpOut, out);
  return out;
}

export function probeWasmBytes(): Buffer {
  return fs.readFileSync(probeWasmPath());
}

function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Appends a custom section (docs/wasm-contract.md#metadata-section). */
export function withCustomSection(bytes: Uint8Array, name: string, payload: string): Buffer {
  const nameBytes = Buffer.from(name, "utf8");
  const body = Buffer.concat([Buffer.from(leb128(nameBytes.length)), nameBytes, Buffer.from(payload, "utf8")]);
  return Buffer.concat([Buffer.from(bytes), Buffer.from([0, ...leb128(body.length)]), body]);
}

/** The probe annotated with metadata, written to a cached file (for the CLI and the cases runner). */
export function annotatedProbePath(metadata: Record<string, unknown>): string {
  const payload = JSON.stringify(metadata);
  const bytes = withCustomSection(probeWasmBytes(), "io.kubewarden.metadata", payload);
  const out = cachePath(`host-probe-annotated-${hashOf([bytes])}`, "wasm");
  if (!fs.existsSync(out)) writeAtomically(out, bytes);
  return out;
}

/** Compiles WAT text with wabt (cached by text). */
export async function watToWasm(wat: string): Promise<Buffer> {
  const out = cachePath(`wat-${hashOf([wat])}`, "wasm");
  if (fs.existsSync(out)) return fs.readFileSync(out);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loadWabt = require("wabt") as () => Promise<{
    parseWat(name: string, text: string): { toBinary(o: object): { buffer: Uint8Array }; destroy(): void };
  }>;
  const wabt = await loadWabt();
  const mod = wabt.parseWat("guest.wat", wat);
  const bytes = Buffer.from(mod.toBinary({}).buffer);
  mod.destroy();
  writeAtomically(out, bytes);
  return bytes;
}

/** Metadata the fixture policy and the CLI tests give the probe. */
export const PROBE_METADATA = {
  protocolVersion: "v1",
  rules: [],
  mutating: true,
  backgroundAudit: false,
  executionMode: "kubewarden-wapc",
  policyType: "kubernetes",
  contextAwareResources: [
    { apiVersion: "v1", kind: "ConfigMap" },
    { apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend" },
  ],
};

/** A minimal AdmissionRequest around `object` (CREATE of a Pod); `null` = no object (DELETE). */
export function podRequest(
  object: unknown | null = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns" } },
  extra: Record<string, unknown> = {},
): Record<string, unknown> & { uid: string; operation: string } {
  return {
    uid: "11111111-2222-3333-4444-555555555555",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    operation: "CREATE",
    userInfo: { username: "alice" },
    namespace: "ns",
    ...(object === null ? {} : { object }),
    ...extra,
  };
}

/** Settings that make the probe answer `validate` with `reply` verbatim. */
export function replyWith(reply: unknown): Record<string, unknown> {
  return { probe: "reply", reply: typeof reply === "string" ? reply : JSON.stringify(reply) };
}

/** Settings that make the probe perform host calls (`binding|namespace|operation|payload` per line). */
export function hostCallsWith(...calls: [string, string, string, unknown][]): Record<string, unknown> {
  return {
    probe: "hostcalls",
    calls: calls.map(([b, n, o, p]) => `${b}|${n}|${o}|${typeof p === "string" ? p : JSON.stringify(p)}`).join("\n"),
  };
}
