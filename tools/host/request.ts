// Inputs of an evaluation, read the way kwctl reads them: a request file (bare AdmissionRequest,
// AdmissionReview, or — our extension — a plain manifest wrapped into a CREATE request) and
// settings files. The documents themselves are read by documents.ts, the module's metadata by
// metadata.ts.
import { checkNumbers, parseJsonOrYaml, readInput } from "./documents";
import { JsonNode, parseJsonNodes, valueFromNode } from "./serde";

export type AdmissionRequest = Record<string, unknown> & { uid: string; operation: string; object?: unknown };

/** The UID given to requests built from a plain manifest (deterministic, so outputs are stable). */
export const MANIFEST_REQUEST_UID = "00000000-0000-0000-0000-000000000000";

const REQUIRED_REQUEST_KEYS = ["uid", "kind", "resource", "operation", "userInfo"] as const;

/** Lowercase plural of a Kind with the simple English rules the API server's RESTMapper guesses. */
export function pluralResource(kind: string): string {
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return lower.slice(0, -1) + "ies";
  if (/(s|x|z|ch|sh)$/.test(lower)) return lower + "es";
  return lower + "s";
}

function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  return slash < 0
    ? { group: "", version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
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
    if (d.request === null || typeof d.request !== "object")
      throw new Error(`cannot build AdmissionRequest object from ${source}: the AdmissionReview has no request`);
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
  const d = doc as Record<string, unknown>;
  // a whole policy resource given as settings: the settings are inside it
  if (typeof d.apiVersion === "string" && typeof d.kind === "string" && d.spec !== null && typeof d.spec === "object")
    throw new Error(
      `${source}: this is a ${d.kind} manifest, not settings: pass its spec.settings (e.g. \`yq .spec.settings ${source}\` into a file)`,
    );
  return d;
}

export function loadSettings(file: string): Record<string, unknown> {
  return toSettings(parseJsonOrYaml(readInput(file, "settings"), file), file);
}

export function parseSettingsJson(text: string): Record<string, unknown> {
  let node: JsonNode;
  try {
    node = parseJsonNodes(text);
  } catch (e) {
    throw new Error(`--settings-json: invalid JSON: ${(e as Error).message}`);
  }
  checkNumbers(node, "--settings-json");
  return toSettings(valueFromNode(node), "--settings-json");
}

// policy-evaluator's AdmissionRequest is a struct: unknown keys are dropped on reading, `None`
// fields are skipped on writing, and kind / resource / userInfo are structs of their own.
const GVK = ["group", "version", "kind"];
const GVR = ["group", "version", "resource"];
const USER_INFO = ["extra", "groups", "uid", "username"];
const REQUEST_FIELDS: [string, string[] | null][] = [
  ["uid", null],
  ["kind", GVK],
  ["resource", GVR],
  ["subResource", null],
  ["requestKind", GVK],
  ["requestResource", GVR],
  ["requestSubResource", null],
  ["name", null],
  ["namespace", null],
  ["operation", null],
  ["userInfo", USER_INFO],
  ["object", null],
  ["oldObject", null],
  ["dryRun", null],
  ["options", null],
];

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The request as the guest receives it: policy-evaluator's struct fields only (write with `serdeJson`). */
export function requestForGuest(request: AdmissionRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, fields] of REQUEST_FIELDS) {
    const v = request[key];
    if (!present(v)) continue;
    if (fields && typeof v === "object" && !Array.isArray(v)) {
      const struct: Record<string, unknown> = {};
      for (const f of fields)
        if (present((v as Record<string, unknown>)[f])) struct[f] = (v as Record<string, unknown>)[f];
      out[key] = struct;
    } else out[key] = v;
  }
  return out;
}
