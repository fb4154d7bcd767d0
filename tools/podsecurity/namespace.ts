// Which Pod Security levels the API server applies to a pod in a namespace: the namespace's
// `pod-security.kubernetes.io/<mode>[-version]` labels over the cluster's defaults, and the
// exemptions, from the PodSecurity admission configuration the API server runs with (its
// `--admission-control-config-file`). As k8s.io/pod-security-admission reads them (api.PolicyToEvaluate,
// admission.exemptNamespace / exemptRuntimeClass); the suite's real API server, started with such a
// configuration, is the oracle (tests/pod-security-config.test.ts).
import * as path from "node:path";
import * as yaml from "js-yaml";
import { isObject, readInput } from "../host/documents";
import { Level, LEVELS, PolicyVersion } from "./levels";

export const POD_SECURITY_LABEL = "pod-security.kubernetes.io/";

/** The modes a preview reports: `enforce` refuses, `warn` notes (`audit` only writes audit logs). */
type Mode = "enforce" | "warn";

export interface NamespacePodSecurity {
  mode: Mode;
  level: Level;
  version: PolicyVersion;
}

/** A PodSecurityConfiguration as the admission plugin holds it after defaulting. */
export interface PodSecurityConfig {
  defaults: Record<Mode, { level: Level; version: PolicyVersion }>;
  exemptions: { namespaces: string[]; runtimeClasses: string[]; usernames: string[] };
}

/** The API server's configuration when it is given none: every mode `privileged:latest`, nothing exempt. */
export const DEFAULT_POD_SECURITY: PodSecurityConfig = {
  defaults: {
    enforce: { level: "privileged", version: "latest" },
    warn: { level: "privileged", version: "latest" },
  },
  exemptions: { namespaces: [], runtimeClasses: [], usernames: [] },
};

const isLevel = (v: string): v is Level => (LEVELS as readonly string[]).includes(v);

/** `v1.29` → {1, 29}; `latest` → latest; anything else is not a version (null). */
function readVersion(value: string): PolicyVersion | null {
  if (value === "latest") return "latest";
  const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(value);
  return m ? { major: 1, minor: Number(m[1]) } : null;
}

/** A version label's value; one upstream cannot parse is read as `latest`, as upstream does. */
export function parseVersion(value: string | undefined): PolicyVersion {
  return readVersion(value ?? "") ?? "latest";
}

/**
 * The levels that apply to a pod in a namespace with these labels, `privileged` ones left out.
 * A label overrides the default of its mode, a version label the default version; an unknown
 * `enforce` level fails closed (`restricted`), an unknown `warn` level fails open (`privileged`).
 * (Upstream also raises `warn` to an explicitly stricter `enforce`; that cannot change an answer,
 * since a pod the enforce level allows passes the same checks at warn.)
 */
export function namespacePodSecurity(
  labels: Record<string, string>,
  config: PodSecurityConfig = DEFAULT_POD_SECURITY,
): NamespacePodSecurity[] {
  const out: NamespacePodSecurity[] = [];
  for (const mode of ["enforce", "warn"] as const) {
    const value = labels[`${POD_SECURITY_LABEL}${mode}`];
    const version = labels[`${POD_SECURITY_LABEL}${mode}-version`];
    const level =
      value === undefined
        ? config.defaults[mode].level
        : isLevel(value)
          ? value
          : mode === "enforce"
            ? "restricted"
            : "privileged";
    if (level === "privileged") continue;
    out.push({ mode, level, version: version === undefined ? config.defaults[mode].version : parseVersion(version) });
  }
  return out;
}

/** Whether Pod Security lets the pod through unchecked: its namespace or runtime class is exempt. */
export function exemptFromPodSecurity(config: PodSecurityConfig, namespace: string, pod: unknown): boolean {
  if (config.exemptions.namespaces.includes(namespace)) return true;
  const runtimeClass = (pod as { spec?: { runtimeClassName?: unknown } } | null)?.spec?.runtimeClassName;
  return (
    typeof runtimeClass === "string" && runtimeClass !== "" && config.exemptions.runtimeClasses.includes(runtimeClass)
  );
}

// --- the configuration file ------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const CONFIG_GROUP = "pod-security.admission.config.k8s.io/";

/**
 * Reads the PodSecurity configuration an API server is given: an AdmissionConfiguration (its
 * `PodSecurity` plugin's inline `configuration`, or the file its `path` names, relative to it) or a
 * PodSecurityConfiguration. Throws one line naming the file and field, where the API server would
 * refuse to start.
 */
export function readPodSecurityConfig(file: string): PodSecurityConfig {
  const text = readInput(file, "Pod Security configuration");
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new Error(`Pod Security configuration ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const fail = (what: string): never => {
    throw new Error(`Pod Security configuration ${file}: ${what}`);
  };
  if (!isObject(doc)) return fail("not a YAML object");
  if (doc.kind === "AdmissionConfiguration") {
    const plugin = (Array.isArray(doc.plugins) ? doc.plugins : []).find((p) => isObject(p) && p.name === "PodSecurity");
    if (!isObject(plugin)) return fail("its plugins have no PodSecurity entry");
    if (isObject(plugin.configuration)) return podSecurityConfiguration(plugin.configuration, fail);
    if (typeof plugin.path === "string") return readPodSecurityConfig(path.resolve(path.dirname(file), plugin.path));
    return fail("the PodSecurity plugin has neither configuration nor path");
  }
  return podSecurityConfiguration(doc, fail);
}

function podSecurityConfiguration(doc: Obj, fail: (what: string) => never): PodSecurityConfig {
  if (doc.kind !== "PodSecurityConfiguration" || !String(doc.apiVersion).startsWith(CONFIG_GROUP))
    return fail(
      `expected kind PodSecurityConfiguration (apiVersion ${CONFIG_GROUP}v1) or AdmissionConfiguration, got ${String(doc.kind)}`,
    );
  const defaults = isObject(doc.defaults) ? doc.defaults : {};
  const text = (key: string, fallback: string): string => {
    const v = defaults[key] ?? fallback;
    return typeof v === "string" ? v : fail(`defaults.${key}: ${JSON.stringify(v)} is not a string (quote it)`);
  };
  const mode = (m: Mode) => {
    const level = text(m, "privileged");
    const version = text(`${m}-version`, "latest");
    if (!isLevel(level)) fail(`defaults.${m}: "${level}" must be one of privileged, baseline, restricted`);
    const parsed = readVersion(version);
    if (parsed === null) fail(`defaults.${m}-version: "${version}" must be "latest" or "v1.x"`);
    return { level: level as Level, version: parsed as PolicyVersion };
  };
  const exemptions = isObject(doc.exemptions) ? doc.exemptions : {};
  const names = (key: string): string[] => {
    const v = exemptions[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return fail(`exemptions.${key}: a list of names`);
    return v as string[];
  };
  return {
    defaults: { enforce: mode("enforce"), warn: mode("warn") },
    exemptions: {
      namespaces: names("namespaces"),
      runtimeClasses: names("runtimeClasses"),
      usernames: names("usernames"),
    },
  };
}
