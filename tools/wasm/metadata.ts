// Policy metadata (docs/wasm-contract.md#metadata): the metadata.yml schema (checked with ajv),
// kwctl's `Metadata::validate` rules plus the title rule (#metadata-rules, procedural), and the
// canonical compact JSON kwctl writes into the `io.kubewarden.metadata` section
// (#metadata-section). The same checks run on metadata.yml before annotation and on the section
// payload of an annotated module.
import * as fs from "node:fs";
import Ajv, { ErrorObject } from "ajv";
import * as yaml from "js-yaml";
import { fileErrorText } from "../file-errors";

export class MetadataError extends Error {}

export const OPERATIONS = ["CREATE", "UPDATE", "DELETE", "CONNECT", "*"] as const;
export const EXECUTION_MODES = ["kubewarden-wapc", "opa", "gatekeeper", "wasi"] as const;
export const POLICY_TYPES = ["kubernetes", "raw"] as const;
export const USAGE_ANNOTATION = "io.kubewarden.policy.usage";
export const TITLE_ANNOTATION = "io.kubewarden.policy.title";

export interface Rule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  operations: string[];
}
export interface ContextAwareResource {
  apiVersion: string;
  kind: string;
}

/** The metadata as serialized into the custom section, keys in kwctl's order. */
export interface CanonicalMetadata {
  protocolVersion: "v1" | "Unknown";
  rules: Rule[];
  annotations?: Record<string, string>;
  mutating: boolean;
  backgroundAudit: boolean;
  executionMode: string;
  policyType: string;
  contextAwareResources: ContextAwareResource[];
  hostCapabilities?: string[];
  minimumKubewardenVersion?: string;
}

// semver.org's regex: kwctl parses minimumKubewardenVersion with the `semver` crate (X.Y.Z[-pre][+build]).
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
// RFC 1123 subdomain, as Kubernetes validates object names (the title becomes the CR name).
const RFC1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const stringList = { type: "array", items: { type: "string" } } as const;

/**
 * JSON Schema of metadata.yml (docs/wasm-contract.md#metadatayml). Types and enums only; the
 * semantic rules are procedural so their messages can say exactly what is wrong. Unknown keys are
 * allowed because kwctl (serde without deny_unknown_fields) ignores them. `null` is accepted where
 * kwctl has an `Option` (null deserializes to None).
 */
export const METADATA_SCHEMA = {
  type: "object",
  required: ["rules", "mutating"],
  properties: {
    protocolVersion: { enum: ["v1", "Unknown", null] },
    rules: {
      type: "array",
      items: {
        type: "object",
        required: ["apiGroups", "apiVersions", "resources", "operations"],
        properties: {
          apiGroups: stringList,
          apiVersions: stringList,
          resources: stringList,
          operations: { type: "array", items: { enum: [...OPERATIONS] } },
        },
      },
    },
    annotations: { type: ["object", "null"], additionalProperties: { type: "string" } },
    mutating: { type: "boolean" },
    backgroundAudit: { type: "boolean" },
    executionMode: { enum: [...EXECUTION_MODES] },
    policyType: { enum: [...POLICY_TYPES] },
    contextAwareResources: {
      type: "array",
      items: {
        type: "object",
        required: ["apiVersion", "kind"],
        properties: { apiVersion: { type: "string" }, kind: { type: "string" } },
      },
    },
    hostCapabilities: { type: ["array", "null"], items: { type: "string" } },
    minimumKubewardenVersion: { type: ["string", "null"], pattern: SEMVER.source },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateSchema = ajv.compile(METADATA_SCHEMA);

/** `/rules/0/apiGroups` → `rules[0].apiGroups` (the way people read YAML paths). */
export function jsonPointerToPath(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  }
  return out;
}

function describeSchemaError(e: ErrorObject): string {
  const at = jsonPointerToPath(e.instancePath);
  const join = (key: string): string => (at === "" ? key : `${at}.${key}`);
  if (e.keyword === "required") return `${join(String(e.params.missingProperty))}: required key is missing`;
  if (e.keyword === "enum")
    return `${at}: must be one of ${(e.params.allowedValues as unknown[])
      .filter((v) => v !== null)
      .map((v) => JSON.stringify(v))
      .join(", ")}`;
  if (e.keyword === "pattern" && at === "minimumKubewardenVersion") return `${at}: must be a semantic version X.Y.Z`;
  return `${at === "" ? "(document)" : at}: ${e.message ?? e.keyword}`;
}

/** A key people put under `annotations` by mistake (the upstream docs page indents it there). */
function misplacedAnnotationProblems(doc: Record<string, unknown>): string[] {
  const ann = doc.annotations;
  if (ann && typeof ann === "object" && !Array.isArray(ann) && "hostCapabilities" in ann) {
    return [
      "annotations.hostCapabilities: hostCapabilities is a top-level key, not an annotation (annotations is a string map)",
    ];
  }
  return [];
}

function schemaProblems(doc: unknown): string[] {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return ["(document): must be a mapping"];
  const misplaced = misplacedAnnotationProblems(doc as Record<string, unknown>);
  if (validateSchema(doc)) return misplaced;
  const problems = (validateSchema.errors ?? [])
    .filter((e) => !(misplaced.length > 0 && e.instancePath.startsWith("/annotations/hostCapabilities")))
    .map(describeSchemaError);
  return [...misplaced, ...new Set(problems)];
}

/** `*` may only appear alone (kwctl `validate_asterisk_usage`). */
function asteriskProblem(values: string[]): string | null {
  return values.includes("*") && values.length > 1
    ? `'*' must be alone (found ${values.map((v) => JSON.stringify(v)).join(", ")})`
    : null;
}

/**
 * Resources rules: kwctl's transposition of Kubernetes' `validateResources`, made order-independent
 * (Kubernetes and kwctl only catch `x/y` listed *after* `x/*`; the contract says `x/*` excludes
 * `x/y` regardless of order).
 */
export function resourcesProblems(resources: string[]): string[] {
  const problems: string[] = [];
  if (resources.some((r) => r === "")) problems.push("empty resource is not allowed");
  const pairs = resources
    .filter((r) => r.includes("/"))
    .map((r) => {
      const i = r.indexOf("/");
      return { text: r, res: r.slice(0, i), sub: r.slice(i + 1) };
    });
  const wildcardSubOf = new Set(pairs.filter((p) => p.sub === "*").map((p) => p.res));
  const wildcardResOf = new Set(pairs.filter((p) => p.res === "*").map((p) => p.sub));
  for (const p of pairs) {
    if (p.sub !== "*" && wildcardSubOf.has(p.res))
      problems.push(`if '${p.res}/*' is present, must not specify ${p.text}`);
    if (p.res !== "*" && wildcardResOf.has(p.sub))
      problems.push(`if '*/${p.sub}' is present, must not specify ${p.text}`);
  }
  if (resources.includes("*/*") && resources.length > 1)
    problems.push("if '*/*' is present, must not specify other resources");
  const plain = resources.filter((r) => r !== "" && !r.includes("/") && r !== "*");
  if (resources.includes("*") && plain.length > 0)
    problems.push(
      `if '*' is present, must not specify other resources without subresources (found ${plain.join(", ")})`,
    );
  return problems;
}

function ruleProblems(rule: Rule, at: string): string[] {
  const problems: string[] = [];
  for (const key of ["apiGroups", "apiVersions", "resources", "operations"] as const) {
    if (rule[key].length === 0) problems.push(`${at}.${key}: must not be empty`);
  }
  for (const key of ["apiGroups", "apiVersions", "operations"] as const) {
    const p = asteriskProblem(rule[key]);
    if (p) problems.push(`${at}.${key}: ${p}`);
  }
  for (const p of resourcesProblems(rule.resources)) problems.push(`${at}.resources: ${p}`);
  return problems;
}

/** docs/wasm-contract.md#metadata-rules; assumes the document already passed the schema. */
function semanticProblems(doc: Record<string, unknown>, requireProtocolVersion: boolean): string[] {
  const problems: string[] = [];
  const mode = (doc.executionMode as string | undefined) ?? "kubewarden-wapc";
  if (requireProtocolVersion && (doc.protocolVersion === undefined || doc.protocolVersion === null))
    problems.push("protocolVersion: required key is missing");
  if (mode === "kubewarden-wapc" && doc.protocolVersion === "Unknown")
    problems.push('protocolVersion: "Unknown" is not valid for executionMode kubewarden-wapc');
  (doc.rules as Rule[]).forEach((rule, i) => problems.push(...ruleProblems(rule, `rules[${i}]`)));
  ((doc.contextAwareResources as ContextAwareResource[] | undefined) ?? []).forEach((r, i) => {
    if (r.apiVersion === "") problems.push(`contextAwareResources[${i}].apiVersion: must not be empty`);
    if (r.kind === "") problems.push(`contextAwareResources[${i}].kind: must not be empty`);
  });
  const title = (doc.annotations as Record<string, string> | null | undefined)?.[TITLE_ANNOTATION];
  if (title !== undefined && (title.length > 253 || !RFC1123_SUBDOMAIN.test(title))) {
    problems.push(
      `annotations.${TITLE_ANNOTATION}: ${JSON.stringify(title)} is not an RFC 1123 lowercase name (a-z, 0-9, '-', '.'; starts and ends alphanumeric)`,
    );
  }
  return problems;
}

export interface ValidateOptions {
  /** metadata.yml may omit protocolVersion (the annotator sets it); a section payload may not */
  requireProtocolVersion: boolean;
}

/** All problems of a metadata document, each as `path: reason`; empty when valid. */
export function metadataProblems(doc: unknown, opts: ValidateOptions): string[] {
  const structural = schemaProblems(doc);
  if (structural.length > 0) return structural;
  return semanticProblems(doc as Record<string, unknown>, opts.requireProtocolVersion);
}

/** Throws one `MetadataError` naming the file and every offending key. */
export function assertValidMetadata(doc: unknown, file: string, opts: ValidateOptions): void {
  const problems = metadataProblems(doc, opts);
  if (problems.length > 0) throw new MetadataError(`${file}: ${problems.join("; ")}`);
}

/** Reads metadata.yml; errors name the file (as `label`) and, for YAML syntax, the line. */
export function readMetadataYaml(file: string, label = file): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new MetadataError(`${label}: cannot read (${fileErrorText(e)})`);
  }
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new MetadataError(`${label}: invalid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc))
    throw new MetadataError(`${label}: (document): must be a mapping`);
  return doc as Record<string, unknown>;
}

/** Rust's `Ord` for `String` is byte order; JS `<` is UTF-16 order. They differ above U+FFFF, so compare bytes. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** kwctl stores contextAwareResources in a BTreeSet: sorted by apiVersion then kind, duplicates dropped. */
export function sortContextAwareResources(list: ContextAwareResource[]): ContextAwareResource[] {
  const sorted = list
    .map((r) => ({ apiVersion: r.apiVersion, kind: r.kind }))
    .sort((a, b) => compareBytes(a.apiVersion, b.apiVersion) || compareBytes(a.kind, b.kind));
  return sorted.filter(
    (r, i) =>
      i === 0 ||
      compareBytes(r.apiVersion, sorted[i - 1].apiVersion) !== 0 ||
      compareBytes(r.kind, sorted[i - 1].kind) !== 0,
  );
}

/** BTreeMap / BTreeSet<String> order. */
function sortedStrings(list: string[]): string[] {
  return [...new Set(list)].sort(compareBytes);
}

function sortedAnnotations(ann: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(ann).sort(compareBytes)) out[k] = ann[k];
  return out;
}

/**
 * The metadata exactly as kwctl serializes its `Metadata` struct: field order of the struct,
 * defaults applied (backgroundAudit true, kubewarden-wapc, kubernetes, []), Option fields omitted
 * when unset, unknown keys dropped, rule members in `Rule` field order.
 */
export function canonicalMetadata(doc: Record<string, unknown>): CanonicalMetadata {
  const rules = (doc.rules as Rule[]).map((r) => ({
    apiGroups: [...r.apiGroups],
    apiVersions: [...r.apiVersions],
    resources: [...r.resources],
    operations: [...r.operations],
  }));
  const out: CanonicalMetadata = {
    protocolVersion: doc.protocolVersion as "v1" | "Unknown",
    rules,
    annotations: undefined,
    mutating: doc.mutating as boolean,
    backgroundAudit: (doc.backgroundAudit as boolean | undefined) ?? true,
    executionMode: (doc.executionMode as string | undefined) ?? "kubewarden-wapc",
    policyType: (doc.policyType as string | undefined) ?? "kubernetes",
    contextAwareResources: sortContextAwareResources(
      (doc.contextAwareResources as ContextAwareResource[] | undefined) ?? [],
    ),
  };
  const ann = doc.annotations as Record<string, string> | null | undefined;
  if (ann) out.annotations = sortedAnnotations(ann);
  else delete out.annotations;
  const caps = doc.hostCapabilities as string[] | null | undefined;
  if (caps) out.hostCapabilities = sortedStrings(caps);
  const minVersion = doc.minimumKubewardenVersion as string | null | undefined;
  if (minVersion) out.minimumKubewardenVersion = minVersion;
  return out;
}

/** Compact JSON (no spaces), as serde_json::to_vec writes it. */
export function serializeMetadata(meta: CanonicalMetadata): string {
  return JSON.stringify(meta);
}

/**
 * What `kwctl scaffold artifacthub` will need (docs/wasm-contract.md#artifact-hub). Not an
 * annotation error — kwctl annotate accepts metadata without them — so the build reports these as
 * warnings, before release time.
 */
export function artifacthubWarnings(doc: Record<string, unknown>): string[] {
  const ann = (doc.annotations as Record<string, string> | null | undefined) ?? {};
  const warnings: string[] = [];
  const required: [string, string][] = [
    ["io.kubewarden.policy.version", "version"],
    [TITLE_ANNOTATION, "name"],
    ["io.artifacthub.displayName", "displayName"],
    ["io.kubewarden.policy.description", "description"],
    ["io.kubewarden.policy.ociUrl", "containersImages"],
  ];
  for (const [key, field] of required)
    if (!ann[key]) warnings.push(`annotations.${key} is missing (artifacthub ${field})`);
  const version = ann["io.kubewarden.policy.version"];
  if (version && !SEMVER.test(version))
    warnings.push(`annotations.io.kubewarden.policy.version: ${JSON.stringify(version)} is not semver`);
  const keywords = ann["io.artifacthub.keywords"];
  if (keywords !== undefined && keywords.split(",").some((k) => k.trim() === ""))
    warnings.push("annotations.io.artifacthub.keywords: empty keyword in the comma-separated list");
  const url = ann["io.kubewarden.policy.url"];
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url))
    warnings.push(`annotations.io.kubewarden.policy.url: ${JSON.stringify(url)} is not a URL`);
  return warnings;
}
