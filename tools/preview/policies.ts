// The policies a preview evaluates, with what policy-server would run them with: rules, selectors,
// settings, mode, `mutating` and the Kubernetes resources they may read. Two sources:
// - built policies (`policies/<name>/annotated-policy.wasm`): treated like a ClusterAdmissionPolicy
//   made from the module's metadata (its rules, `mutating`, `contextAwareResources`) with `{}` settings;
// - rendered Kubewarden resources (ClusterAdmissionPolicy / AdmissionPolicy), from YAML files or a
//   kustomization rendered with `kubectl kustomize`. Their `module` is resolved to a local build by
//   the policy's name, since a preview runs offline and cannot pull from a registry
//   (docs/decisions.md, "cachewarden preview").
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ContextAwareResource } from "../host/metadata";
import { isObject } from "../host/documents";
import { PolicyModule } from "../host/guest";
import { metadataContextAwareResources, readPolicyMetadata } from "../host/metadata";
import type { PolicyMode } from "../host/response";
import { KUBEWARDEN_NAMESPACE } from "../publish/deploy";
import { parseDump } from "./dump";
import { fileErrorText } from "../file-errors";

export interface PolicyRule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  operations: string[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type PolicyOrigin = "built" | "ClusterAdmissionPolicy" | "AdmissionPolicy";

export interface PreviewPolicy {
  /** the name reports show: the policy's name, `<namespace>/<name>` for an AdmissionPolicy */
  name: string;
  /** policy-server's id (`clusterwide-<name>`, `namespaced-<namespace>-<name>`) */
  id: string;
  origin: PolicyOrigin;
  /** an AdmissionPolicy's namespace: it sees only that namespace's objects */
  namespace?: string;
  /** the local module evaluated */
  modulePath: string;
  /** `spec.module` as written (the module path for a built policy) */
  moduleRef: string;
  rules: PolicyRule[];
  mutating: boolean;
  mode: PolicyMode;
  /** spec.message: replaces rejection messages */
  message?: string;
  settings: Record<string, unknown>;
  contextAwareResources: ContextAwareResource[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /** where the policy came from (file and document, or directory) */
  source: string;
}

export interface PolicyProblem {
  source: string;
  reason: string;
}

export interface LoadedPolicies {
  policies: PreviewPolicy[];
  problems: PolicyProblem[];
  /** what was read: `built policies in <dir>`, `<file>`, `kubectl kustomize <dir>` */
  from: string;
}

/** The repository's policies/ folder: where built policies live. */
export const DEFAULT_POLICIES_DIR = path.resolve(__dirname, "..", "..", "policies");

const MODULE_FILE = "annotated-policy.wasm";
const KUSTOMIZATION_FILES = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function readRules(v: unknown): PolicyRule[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((r) => ({
    apiGroups: strings(r.apiGroups),
    apiVersions: strings(r.apiVersions),
    resources: strings(r.resources),
    operations: strings(r.operations),
  }));
}

function readSelector(v: unknown): LabelSelector | undefined {
  if (!isObject(v)) return undefined;
  const out: LabelSelector = {};
  if (isObject(v.matchLabels))
    out.matchLabels = Object.fromEntries(Object.entries(v.matchLabels).map(([k, val]) => [k, String(val)]));
  if (Array.isArray(v.matchExpressions))
    out.matchExpressions = v.matchExpressions.filter(isObject).map((e) => ({
      key: String(e.key),
      operator: String(e.operator),
      ...(Array.isArray(e.values) ? { values: e.values.map(String) } : {}),
    }));
  return out;
}

// --- built policies -------------------------------------------------------------------------------

/** One built policy directory as a cluster-wide policy with the module's metadata and `{}` settings. */
function builtPolicy(dir: string): PreviewPolicy | PolicyProblem {
  const name = path.basename(dir);
  const modulePath = path.join(dir, MODULE_FILE);
  if (!fs.existsSync(modulePath))
    return { source: dir, reason: `${name} is not built (run \`cachewarden build ${name}\`)` };
  let metadata: Record<string, unknown> | null;
  try {
    metadata = readPolicyMetadata(PolicyModule.fromFile(modulePath).module);
  } catch (e) {
    return { source: modulePath, reason: (e as Error).message };
  }
  if (metadata === null) return { source: modulePath, reason: "the module has no io.kubewarden.metadata section" };
  return {
    name,
    id: `clusterwide-${name}`,
    origin: "built",
    modulePath,
    moduleRef: shown(modulePath),
    rules: readRules(metadata.rules),
    mutating: metadata.mutating === true,
    mode: "protect",
    settings: {},
    contextAwareResources: metadataContextAwareResources(metadata),
    source: dir,
  };
}

function loadBuilt(dirs: string[], from: string): LoadedPolicies {
  const out: LoadedPolicies = { policies: [], problems: [], from };
  for (const dir of dirs) {
    const p = builtPolicy(dir);
    if ("reason" in p) out.problems.push(p);
    else out.policies.push(p);
  }
  return out;
}

// --- rendered Kubewarden resources ----------------------------------------------------------------

/**
 * The local build a `spec.module` stands for: an existing path (plain or `file://`), else the
 * policy name taken from the reference (`ghcr.io/x/policies/<name>:<tag>`, `<name>.wasm`,
 * `…/<name>/annotated-policy.wasm`) looked up as `<modulesDir>/<name>/annotated-policy.wasm`.
 */
export function resolveModule(ref: string, modulesDir: string, baseDir: string): { path: string } | { reason: string } {
  const plain = ref.replace(/^file:\/\//, "");
  if (!/^[a-z]+:\/\//.test(plain)) {
    for (const candidate of [path.resolve(baseDir, plain), path.resolve(plain)])
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return { path: candidate };
  }
  const segments = plain
    .replace(/^[a-z]+:\/\//, "")
    .split("/")
    .filter((s) => s !== "");
  let last = (segments.pop() ?? "").replace(/@sha256:.*$/, "").replace(/:[^:]*$/, "");
  if (last === MODULE_FILE || last === "policy.wasm") last = segments.pop() ?? "";
  const name = last.replace(/\.wasm$/, "");
  const candidate = path.join(modulesDir, name, MODULE_FILE);
  if (name !== "" && fs.existsSync(candidate)) return { path: candidate };
  return {
    reason: `module ${ref}: no local build of ${JSON.stringify(name)} in ${shown(modulesDir)} (a preview runs offline and does not pull from registries; build the policy or pass --modules)`,
  };
}

/** Where rendered policies are read: their modules, and the namespace Kubewarden runs in. */
interface RenderContext {
  modulesDir: string;
  /** the directory relative module paths are resolved from */
  baseDir: string;
  /** the controller's deployments namespace (`--deployments-namespace`), excluded from cluster-wide policies */
  kubewardenNamespace: string;
}

/**
 * The namespaceSelector the Kubewarden controller writes for a ClusterAdmissionPolicy: unless
 * `allowInsideAdmissionControllerNamespace`, the namespace it runs in is excluded and only the
 * `matchExpressions` of the policy's selector are kept (its `matchLabels` are dropped).
 */
function clusterNamespaceSelector(
  spec: Record<string, unknown>,
  kubewardenNamespace: string,
): LabelSelector | undefined {
  const selector = readSelector(spec.namespaceSelector);
  if (spec.allowInsideAdmissionControllerNamespace === true) return selector;
  return {
    matchExpressions: [
      ...(selector?.matchExpressions ?? []),
      { key: "kubernetes.io/metadata.name", operator: "NotIn", values: [kubewardenNamespace] },
    ],
  };
}

const POLICY_GROUP_KINDS = new Set(["ClusterAdmissionPolicyGroup", "AdmissionPolicyGroup"]);

function renderedPolicy(
  obj: Record<string, unknown>,
  source: string,
  at: RenderContext,
): PreviewPolicy | PolicyProblem {
  const kind = obj.kind as PolicyOrigin;
  const metadata = obj.metadata as { name: string; namespace?: string };
  const spec = obj.spec;
  if (!isObject(spec)) return { source, reason: `${kind} ${metadata.name} has no spec` };
  if (typeof spec.module !== "string" || spec.module === "")
    return { source, reason: `${kind} ${metadata.name}: spec.module is missing` };
  const namespaced = kind === "AdmissionPolicy";
  if (namespaced && typeof metadata.namespace !== "string")
    return { source, reason: `AdmissionPolicy ${metadata.name} has no metadata.namespace` };
  if (spec.settings !== undefined && spec.settings !== null && !isObject(spec.settings))
    return { source, reason: `${kind} ${metadata.name}: spec.settings is not an object` };
  const module = resolveModule(spec.module, at.modulesDir, at.baseDir);
  if ("reason" in module) return { source, reason: module.reason };
  return {
    name: namespaced ? `${metadata.namespace}/${metadata.name}` : metadata.name,
    id: namespaced ? `namespaced-${metadata.namespace}-${metadata.name}` : `clusterwide-${metadata.name}`,
    origin: kind,
    ...(namespaced ? { namespace: metadata.namespace } : {}),
    modulePath: module.path,
    moduleRef: spec.module,
    rules: readRules(spec.rules),
    mutating: spec.mutating === true,
    mode: spec.mode === "monitor" ? "monitor" : "protect",
    ...(typeof spec.message === "string" ? { message: spec.message } : {}),
    settings: isObject(spec.settings) ? spec.settings : {},
    // an AdmissionPolicy cannot be granted any Kubernetes resource
    contextAwareResources: namespaced ? [] : metadataContextAwareResources(spec),
    ...(namespaced ? {} : { namespaceSelector: clusterNamespaceSelector(spec, at.kubewardenNamespace) }),
    objectSelector: readSelector(spec.objectSelector),
    source,
  };
}

/** The Kubewarden policies in rendered YAML; other kinds (PolicyServer, RBAC, …) are ignored. */
function policiesFromRendered(text: string, file: string, at: RenderContext): LoadedPolicies {
  const dump = parseDump(text, file);
  const out: LoadedPolicies = { policies: [], problems: [...dump.broken], from: file };
  for (const { object, source } of dump.objects) {
    if (!String(object.apiVersion).startsWith("policies.kubewarden.io/")) continue;
    if (POLICY_GROUP_KINDS.has(String(object.kind))) {
      out.problems.push({ source, reason: `${object.kind} ${object.metadata?.name}: policy groups are not previewed` });
      continue;
    }
    if (object.kind !== "ClusterAdmissionPolicy" && object.kind !== "AdmissionPolicy") continue;
    const p = renderedPolicy(object, source, at);
    if ("reason" in p) out.problems.push(p);
    else out.policies.push(p);
  }
  return out;
}

function kustomize(dir: string): string {
  const r = spawnSync("kubectl", ["kustomize", dir], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error)
    throw new Error(
      (r.error as NodeJS.ErrnoException).code === "ENOENT"
        ? `kubectl kustomize ${dir}: kubectl is not installed (it renders kustomizations; install kubectl or pass rendered YAML)`
        : `kubectl kustomize ${dir}: ${fileErrorText(r.error)}`,
    );
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir} failed: ${r.stderr.trim().split("\n")[0]}`);
  return r.stdout;
}

/** A path as reports show it: relative to the working directory when inside it. */
export function shown(p: string): string {
  const rel = path.relative(process.cwd(), path.resolve(p));
  return rel === "" ? "." : rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
}

function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Policies from `where` (default: the built policies of the repository):
 * a kustomization directory (rendered with `kubectl kustomize`), a policy directory or a folder of
 * them (built modules), a YAML/JSON file or a folder of them (rendered Kubewarden resources).
 */
export function loadPolicies(
  where: string | undefined,
  modulesDir = DEFAULT_POLICIES_DIR,
  kubewardenNamespace = KUBEWARDEN_NAMESPACE,
): LoadedPolicies {
  const loaded = readPolicies(where, modulesDir, kubewardenNamespace);
  // one order whatever the source (kustomize reorders resources): cluster-wide first, then by name
  const rank = (p: PreviewPolicy): string => `${p.origin === "AdmissionPolicy" ? 1 : 0} ${p.name}`;
  loaded.policies.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  return loaded;
}

function readPolicies(where: string | undefined, modulesDir: string, kubewardenNamespace: string): LoadedPolicies {
  const target = where ?? modulesDir;
  const at = (baseDir: string): RenderContext => ({ modulesDir, baseDir, kubewardenNamespace });
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (e) {
    throw new Error(`cannot read policies ${target}: ${fileErrorText(e)}`);
  }
  if (stat.isFile()) {
    return policiesFromRendered(fs.readFileSync(target, "utf8"), target, at(path.dirname(target)));
  }
  if (KUSTOMIZATION_FILES.some((f) => fs.existsSync(path.join(target, f)))) {
    const from = `kubectl kustomize ${shown(target)}`;
    return { ...policiesFromRendered(kustomize(target), from, at(target)), from };
  }
  if (fs.existsSync(path.join(target, "metadata.yml"))) return loadBuilt([target], `built policy ${shown(target)}`);
  const policyDirs = fs
    .readdirSync(target)
    .sort()
    .map((d) => path.join(target, d))
    .filter((d) => fs.statSync(d).isDirectory() && fs.existsSync(path.join(d, "metadata.yml")));
  if (policyDirs.length > 0) return loadBuilt(policyDirs, `built policies in ${shown(target)}`);
  const out: LoadedPolicies = { policies: [], problems: [], from: target };
  for (const file of yamlFiles(target)) {
    const loaded = policiesFromRendered(fs.readFileSync(file, "utf8"), file, at(target));
    out.policies.push(...loaded.policies);
    out.problems.push(...loaded.problems);
  }
  return out;
}
