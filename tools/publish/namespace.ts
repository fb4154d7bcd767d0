// `cachewarden namespace <ns> --settings <file> [--out <dir>]`: the per-namespace path. From one
// settings file (policy name → that policy's settings) it writes a self-contained kustomization for
// one namespace: an AdmissionPolicy per policy, with deploy/'s registration (module, failure policy,
// object selector, policy server) and the given settings, each checked first by the policy's own
// validate_settings. Nothing cluster-scoped and no ServiceAccount: the PolicyServer and its RBAC come
// from deploy/ (or a cluster admin), and an AdmissionPolicy cannot look anything up anyway.
import * as fs from "node:fs";
import * as path from "node:path";
import { validateSettings } from "../host/evaluate";
import { PolicyModule } from "../host/guest";
import { toSettings } from "../host/request";
import { isObject, parseJsonOrYaml, readInput } from "../host/documents";
import { discoverPolicies, REPO_ROOT } from "../wasm/index";
import { dumpYaml, moduleRef, policyFacts, policyResource, POLICY_SERVER } from "./deploy";

type Obj = Record<string, unknown>;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface NamespaceOptions {
  /** repository root holding policies/ (their metadata, READMEs and builds) */
  root?: string;
  registry?: string;
  policyServer?: string;
  mode?: "protect" | "monitor";
  /** notes for the user (stderr in the CLI) */
  warn?: (line: string) => void;
}

/** The settings file: a map of policy name → settings, read the way settings files are. */
export function readNamespaceSettings(file: string): Record<string, Obj> {
  const doc = parseJsonOrYaml(readInput(file, "settings"), file);
  if (!isObject(doc))
    throw new Error(`${file}: expected a map of policy name → settings (see deploy/namespace-settings.example.yaml)`);
  if (typeof doc.apiVersion === "string" && typeof doc.kind === "string")
    throw new Error(
      `${file}: this is a ${doc.kind} manifest, not a settings file: write \`<policy>: <its spec.settings>\` (see deploy/namespace-settings.example.yaml)`,
    );
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, toSettings(v, `${file}: ${k}`)]));
}

/**
 * The AdmissionPolicies for one namespace: what the lead's API-server test applies with
 * `--dry-run=server`, and what `namespaceFiles` writes.
 */
export function namespaceObjects(namespace: string, settings: Record<string, Obj>, opts: NamespaceOptions = {}): Obj[] {
  if (!DNS1123_LABEL.test(namespace) || namespace.length > 63)
    throw new Error(`namespace ${JSON.stringify(namespace)} is not a DNS-1123 label`);
  const root = opts.root ?? REPO_ROOT;
  const policiesDir = path.join(root, "policies");
  const known = discoverPolicies(policiesDir);
  const names = Object.keys(settings);
  if (names.length === 0) throw new Error("the settings file names no policy");
  const out: Obj[] = [];
  for (const name of names) {
    if (!known.includes(name)) throw new Error(`${JSON.stringify(name)} is not a policy (known: ${known.join(", ")})`);
    const wasm = path.join(policiesDir, name, "annotated-policy.wasm");
    if (!fs.existsSync(wasm))
      throw new Error(`${name} is not built, so its settings cannot be checked: run \`npm run build\` first`);
    const checked = validateSettings(PolicyModule.fromFile(wasm), { settings: settings[name] });
    if (!checked.valid) throw new Error(`${name}: settings are not valid: ${checked.message ?? "(no message)"}`);
    const facts = policyFacts(policiesDir, name);
    if (((facts.meta.contextAwareResources ?? []) as unknown[]).length > 0 && settings[name].lookup !== false)
      opts.warn?.(
        `${name} looks up cluster resources, which an AdmissionPolicy may not: give what it reads in its settings with lookup: false (see policies/${name}/README.md)`,
      );
    out.push(
      policyResource(facts, "AdmissionPolicy", {
        namespace,
        module: moduleRef(facts, opts.registry),
        policyServer: opts.policyServer ?? POLICY_SERVER,
        ...(opts.mode ? { mode: opts.mode } : {}),
        settings: settings[name],
      }),
    );
  }
  return out;
}

/** The files of the kustomization: `kustomization.yaml` and one `<policy>.yaml` each. */
export function namespaceFiles(namespace: string, objects: Obj[], settingsFile: string): Map<string, string> {
  const header = `# Written by \`cachewarden namespace ${namespace} --settings ${path.basename(settingsFile)}\`: the AdmissionPolicies
# of namespace ${namespace}. Change the settings file and rerun it (or edit these files: they are yours).
`;
  const files = new Map<string, string>();
  const resources: string[] = [];
  for (const o of objects) {
    const file = `${String((o.metadata as Obj).name)}.yaml`;
    files.set(file, header + dumpYaml([o]));
    resources.push(file);
  }
  files.set(
    "kustomization.yaml",
    header + dumpYaml([{ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources }]),
  );
  return files;
}

export function writeNamespace(
  namespace: string,
  settingsFile: string,
  outDir: string,
  opts: NamespaceOptions = {},
): string[] {
  const objects = namespaceObjects(namespace, readNamespaceSettings(settingsFile), opts);
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [file, text] of namespaceFiles(namespace, objects, settingsFile)) {
    fs.writeFileSync(path.join(outDir, file), text);
    written.push(path.join(outDir, file));
  }
  return written;
}
