// Would the Kubernetes API server accept this Pod? A mutating policy that emits a Pod the API
// server then rejects has broken the workload, so the tests of every Pod-mutating policy run each
// `mutated_object` through this check (docs/test-data.md#emitted-pods-the-api-server-accepts):
//   - the v1 Pod OpenAPI schema, through `kubernetes-models` (it ships the official schemas as
//     compiled validators, so it works offline from node_modules);
//   - the create-time rules of the API server that a schema cannot express and an injector can
//     break, each named after the Go function of Kubernetes' pkg/apis/core/validation/validation.go
//     (or the apimachinery helper it calls) whose behaviour it follows.
// A violation the incoming Pod already had is not the policy's doing: `introducedViolations`
// reports only what the mutation added or made worse. Violations are compared by an identity
// that survives index shifts (container and volume names, not positions), counted per identity.
import { baselineViolations } from "../../tools/podsecurity/baseline";
import assert from "node:assert/strict";

export interface PodViolation {
  /** the rule, e.g. `unique-volume-names` */
  rule: string;
  /** where in the Pod, e.g. `spec.containers[1].volumeMounts[0].name` */
  path: string;
  message: string;
  /** what makes two violations the same one before and after a mutation */
  identity: string;
  /** for rules measured by size: the size; worse means larger */
  measure?: number;
}

interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
}

type PodModel = new (data: unknown) => { validate(): void };
type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let podModel: PodModel | undefined;

/** Loads the schema validator once (the package is ESM-only, hence the dynamic import); call it from `before`. */
export async function loadPodSchema(): Promise<void> {
  if (podModel) return;
  const mod = (await import("kubernetes-models/v1/Pod")) as unknown as { Pod: PodModel };
  podModel = mod.Pod;
}

// IsDNS1123Label (apimachinery util/validation), used for container and volume names
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
// IsEnvVarName (apimachinery util/validation); clusters with relaxed env-var validation accept more
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
// IsQualifiedName (apimachinery util/validation): optional DNS-1123 subdomain prefix, then a name part
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** TotalAnnotationSizeLimitB of apimachinery's ValidateAnnotations: keys plus values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function isObject(v: unknown): v is Record<string, J> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function qualifiedNameProblem(key: string): string {
  const parts = key.split("/");
  if (parts.length > 2) return "has more than one '/'";
  const name = parts[parts.length - 1];
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME_PART.test(name))
    return "name part must be 1-63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric";
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))
      return "prefix must be a DNS-1123 subdomain";
  }
  return "";
}

function schemaViolations(pod: unknown): PodViolation[] {
  if (!podModel) throw new Error("loadPodSchema() was not awaited before checking a Pod");
  try {
    new podModel(pod).validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: SchemaError[] }).errors;
    if (!Array.isArray(errors)) throw e;
    return errors.map((err) => {
      const path =
        err.instancePath
          .replace(/\/(\d+)(?=\/|$)/g, "[$1]")
          .replace(/^\//, "")
          .replace(/\//g, ".") || "(root)";
      return {
        rule: "pod-schema",
        path,
        message: `${err.keyword}: ${err.message ?? ""}`,
        // positions shift when a policy inserts items, so an array index is no identity
        identity: `pod-schema|${err.keyword}|${err.schemaPath}|${err.instancePath.replace(/\/\d+(?=\/|$)/g, "/*")}`,
      };
    });
  }
}

function containerLists(spec: Record<string, J>): { field: string; items: J[] }[] {
  return ["initContainers", "containers"]
    .filter((f) => Array.isArray(spec[f]))
    .map((f) => ({ field: f, items: spec[f] as J[] }));
}

/** The API-server rules a schema cannot express that a Pod-mutating policy can break. */
function podRuleViolations(pod: unknown): PodViolation[] {
  const out: PodViolation[] = [];
  const add = (rule: string, path: string, message: string, identity: string, measure?: number): void => {
    out.push({ rule, path, message, identity: `${rule}|${identity}`, ...(measure === undefined ? {} : { measure }) });
  };
  if (!isObject(pod)) return out;
  const meta = pod.metadata;
  // ValidateObjectMeta -> apimachinery ValidateAnnotations: qualified keys (checked lower-cased)
  // and a total size of keys plus values
  if (isObject(meta) && isObject(meta.annotations)) {
    let total = 0;
    for (const [k, v] of Object.entries(meta.annotations)) {
      total += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
      const problem = qualifiedNameProblem(k.toLowerCase());
      if (problem) add("annotation-key", `metadata.annotations[${JSON.stringify(k)}]`, problem, k);
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT)
      add(
        "annotation-total-size",
        "metadata.annotations",
        `${total} bytes of keys and values, more than ${TOTAL_ANNOTATION_SIZE_LIMIT}`,
        "",
        total,
      );
  }
  const spec = isObject(pod) ? pod.spec : undefined;
  if (!isObject(spec)) return out;

  // ValidateVolumes: each volume name is a DNS-1123 label, unique in the Pod
  const volumeNames = new Set<string>();
  if (Array.isArray(spec.volumes))
    spec.volumes.forEach((v: J, i: number) => {
      const name = isObject(v) ? v.name : undefined;
      if (typeof name !== "string") return;
      const path = `spec.volumes[${i}].name`;
      if (!DNS1123_LABEL.test(name) || name.length > 63)
        add("volume-name", path, `${JSON.stringify(name)} is not a DNS-1123 label`, name);
      if (volumeNames.has(name)) add("unique-volume-names", path, `duplicate volume ${JSON.stringify(name)}`, name);
      volumeNames.add(name);
    });

  // validateContainers (among containers) and validateInitContainers (init containers against
  // each other and against containers): container names are DNS-1123 labels, unique in the Pod
  const containerNames = new Set<string>();
  for (const { field, items } of containerLists(spec))
    items.forEach((c: J, i: number) => {
      const name = isObject(c) ? c.name : undefined;
      if (typeof name !== "string") return;
      const path = `spec.${field}[${i}].name`;
      if (!DNS1123_LABEL.test(name) || name.length > 63)
        add("container-name", path, `${JSON.stringify(name)} is not a DNS-1123 label`, name);
      if (containerNames.has(name))
        add("unique-container-names", path, `duplicate container ${JSON.stringify(name)}`, name);
      containerNames.add(name);
    });

  for (const { field, items } of containerLists(spec))
    items.forEach((c: J, i: number) => {
      if (!isObject(c)) return;
      const who = typeof c.name === "string" ? c.name : `${field}[${i}]`;
      const at = `spec.${field}[${i}]`;
      // ValidateVolumeMounts: each mount names a volume of the Pod, each mountPath once per container
      if (Array.isArray(c.volumeMounts)) {
        const mountPaths = new Set<string>();
        c.volumeMounts.forEach((m: J, j: number) => {
          if (!isObject(m)) return;
          if (typeof m.name === "string" && !volumeNames.has(m.name))
            add(
              "volume-mount-names-a-volume",
              `${at}.volumeMounts[${j}].name`,
              `no volume named ${JSON.stringify(m.name)}`,
              `${who}|${m.name}`,
            );
          if (typeof m.mountPath === "string") {
            if (mountPaths.has(m.mountPath))
              add(
                "unique-mount-path",
                `${at}.volumeMounts[${j}].mountPath`,
                `${JSON.stringify(m.mountPath)} is mounted twice in container ${JSON.stringify(who)}`,
                `${who}|${m.mountPath}`,
              );
            mountPaths.add(m.mountPath);
          }
        });
      }
      // ValidateEnv: every env name is present and passes IsEnvVarName
      if (Array.isArray(c.env))
        c.env.forEach((e: J, j: number) => {
          if (!isObject(e) || typeof e.name !== "string") return;
          if (!ENV_VAR_NAME.test(e.name))
            add(
              "env-name",
              `${at}.env[${j}].name`,
              `${JSON.stringify(e.name)} is not a valid environment variable name`,
              `${who}|${e.name}`,
            );
        });
    });
  return out;
}

/** Every violation of `pod` (schema first, then the API-server rules). */
export function podViolations(pod: unknown): PodViolation[] {
  return [...schemaViolations(pod), ...podRuleViolations(pod)];
}

/**
 * The violations of `after` that `before` did not have, or had less of: per identity, the ones
 * past the incoming count, and a measured rule whose measure grew.
 */
export function introducedViolations(before: unknown, after: unknown): PodViolation[] {
  const had = new Map<string, PodViolation[]>();
  for (const v of podViolations(before)) had.set(v.identity, [...(had.get(v.identity) ?? []), v]);
  const seen = new Map<string, number>();
  const out: PodViolation[] = [];
  for (const v of podViolations(after)) {
    const n = (seen.get(v.identity) ?? 0) + 1;
    seen.set(v.identity, n);
    const prior = had.get(v.identity) ?? [];
    if (n > prior.length) out.push(v);
    else if (v.measure !== undefined && v.measure > (prior[n - 1].measure ?? 0)) out.push(v);
  }
  return out;
}

export function formatViolations(violations: PodViolation[]): string {
  return violations.map((v) => `${v.rule} at ${v.path}: ${v.message}`).join("\n");
}

/** The Pod Security Standards `baseline` violations of `after` that `before` did not have: what the
 *  mutation added that a namespace enforcing `baseline` refuses (`spec.hostIPC`, a hostPath volume,
 *  …). Not an API-server rejection, so reported rather than failed: a policy's README says which
 *  level its wired pods need, and its tests hold it to that. */
export function addedBaselineViolations(before: unknown, after: unknown): string[] {
  const had = baselineViolations(before);
  const out: string[] = [];
  for (const v of baselineViolations(after)) {
    const i = had.indexOf(v);
    if (i >= 0) had.splice(i, 1);
    else out.push(v);
  }
  return out;
}

/** Fails with each rule and path when the mutation turned `before` into a Pod the API server
 *  rejects; returns the Pod Security `baseline` violations the mutation added (see above). */
export function assertAcceptedPod(before: unknown, after: unknown, label: string): string[] {
  const found = introducedViolations(before, after);
  assert.equal(
    found.length,
    0,
    `${label}: the emitted Pod would be rejected by the API server:\n${formatViolations(found)}`,
  );
  return addedBaselineViolations(before, after);
}
