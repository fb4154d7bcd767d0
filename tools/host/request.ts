// Inputs of an evaluation, read the way kwctl reads them: a request file (bare AdmissionRequest,
// AdmissionReview, or — our extension — a plain manifest wrapped into a CREATE request), settings
// files, and the policy's `io.kubewarden.metadata` custom section.
import * as fs from "node:fs";
import * as yaml from "js-yaml";
import type { ContextAwareResource } from "./capabilities";

export type AdmissionRequest = Record<string, unknown> & { uid: string; operation: string; object?: unknown };

/** The UID given to requests built from a plain manifest (deterministic, so outputs are stable). */
export const MANIFEST_REQUEST_UID = "00000000-0000-0000-0000-000000000000";

const REQUIRED_REQUEST_KEYS = ["uid", "kind", "resource", "operation", "userInfo"] as const;

/** Reads a file (or stdin for `-`) as UTF-8. */
export function readInput(file: string, what: string): string {
  try {
    return fs.readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (e) {
    throw new Error(`cannot read ${what} ${file === "-" ? "from stdin" : file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** JSON first (the common case, and exact for big numbers' text), then YAML. */
export function parseJsonOrYaml(text: string, source: string): unknown {
  try { return JSON.parse(text); } catch { /* not JSON: try YAML */ }
  try {
    return yaml.load(text);
  } catch (e) {
    throw new Error(`${source}: neither JSON nor YAML: ${(e as Error).message.split("\n")[0]}`);
  }
}

/** Lowercase plural of a Kind with the simple English rules the API server's RESTMapper guesses. */
export function pluralResource(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return lower.slice(0, -1) + "ies";
  if (/(s|x|z|ch|sh)$/.test(lower)) return lower + "es";
  return lower + "s";
}

function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? { group: "", version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A CREATE request for a manifest, as the API server would send it (no userInfo). */
export function requestFromManifest(manifest: Record<string, unknown>): AdmissionRequest {
  const apiVersion = String(manifest.apiVersion);
  const kind = String(manifest.kind);
  const { group, version } = groupVersion(apiVersion);
  const metadata = (manifest.metadata ?? {}) as Record<string, unknown>;
  const request: AdmissionRequest = {
    uid: MANIFEST_REQUEST_UID,
    kind: { group, version, kind },
    resource: { group, version, resource: pluralResource(kind) },
    operation: "CREATE",
    userInfo: {},
  };
  if (typeof metadata.name === "string") request.name = metadata.name;
  if (typeof metadata.namespace === "string") request.namespace = metadata.namespace;
  request.object = manifest;
  return request;
}

/**
 * Turns parsed input into an AdmissionRequest: unwraps an AdmissionReview, wraps a manifest, and
 * rejects a request missing kwctl's required keys. `null` optionals are dropped (serde omits them).
 */
export function toAdmissionRequest(doc: unknown, source: string): AdmissionRequest {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error(`cannot build AdmissionRequest object from ${source}: expected a JSON/YAML object`);
  }
  let d = doc as Record<string, unknown>;
  if (d.kind === "AdmissionReview") {
    if (d.request === null || typeof d.request !== "object") throw new Error(`cannot build AdmissionRequest object from ${source}: the AdmissionReview has no request`);
    d = d.request as Record<string, unknown>;
  } else if (!("uid" in d) && !("operation" in d) && typeof d.apiVersion === "string" && typeof d.kind === "string") {
    return requestFromManifest(d);
  }
  const missing = REQUIRED_REQUEST_KEYS.find((k) => d[k] === undefined || d[k] === null);
  if (missing) throw new Error(`cannot build AdmissionRequest object from ${source}: missing field \`${missing}\``);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) if (v !== null) out[k] = v;
  return out as AdmissionRequest;
}

export function loadAdmissionRequest(file: string): AdmissionRequest {
  const source = file === "-" ? "stdin" : file;
  return toAdmissionRequest(parseJsonOrYaml(readInput(file, "request"), source), source);
}

/** Settings must be an object; `null` (or an empty file) means `{}`, as for a CR without settings. */
export function toSettings(doc: unknown, source: string): Record<string, unknown> {
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== "object" || Array.isArray(doc)) throw new Error(`${source}: settings must be an object or null`);
  return doc as Record<string, unknown>;
}

export function loadSettings(file: string): Record<string, unknown> {
  return toSettings(parseJsonOrYaml(readInput(file, "settings"), file), file);
}

export function parseSettingsJson(text: string): Record<string, unknown> {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch (e) { throw new Error(`--settings-json: invalid JSON: ${(e as Error).message}`); }
  return toSettings(doc, "--settings-json");
}

// --- policy metadata ------------------------------------------------------------------------------

export const METADATA_SECTION = "io.kubewarden.metadata";

/** The first `io.kubewarden.metadata` section (as wasmparser reads it), or null when unannotated. */
export function readPolicyMetadata(module: WebAssembly.Module): Record<string, unknown> | null {
  const sections = WebAssembly.Module.customSections(module, METADATA_SECTION);
  if (sections.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(sections[0]).toString("utf8")) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`${METADATA_SECTION} section is not valid JSON: ${(e as Error).message}`);
  }
}

/** The metadata's `contextAwareResources` (what kwctl grants with `--allow-context-aware`). */
export function metadataContextAwareResources(metadata: Record<string, unknown> | null): ContextAwareResource[] {
  const list = metadata?.contextAwareResources;
  if (!Array.isArray(list)) return [];
  return list
    .filter((r): r is ContextAwareResource => typeof r?.apiVersion === "string" && typeof r?.kind === "string")
    .map((r) => ({ apiVersion: r.apiVersion, kind: r.kind }));
}
