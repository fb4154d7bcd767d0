// `cachewarden generate` (every generated publishing file: policies/*/artifacthub-pkg.yml and deploy/)
// and `cachewarden scaffold manifest|artifacthub`, like kwctl's scaffold commands.
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import * as yaml from "js-yaml";
import { PolicyModule } from "../host/guest";
import { loadSettings, parseSettingsJson } from "../host/request";
import { pullToBuffer } from "../oci/commands";
import { discoverPolicies, REPO_ROOT } from "../wasm/index";
import { readMetadataYaml } from "../wasm/metadata";
import { artifacthubFile, sharedFields } from "./artifacthub";
import { BASE, deployFiles, DeployOptions, staleDeployFiles } from "./deploy";
import { PolicyKind, POLICY_KINDS, scaffoldManifest } from "./manifest";
import { writeNamespace } from "./namespace";

/** The Markdown files that show a policy's module reference: policy READMEs, docs/, README.md. */
function markdownFiles(rootDir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(rootDir, rel);
    if (!fs.existsSync(abs)) return;
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(child);
      else if (entry.isFile() && entry.name.endsWith(".md")) out.push(child);
    }
  };
  walk("policies");
  walk("docs");
  if (fs.existsSync(path.join(rootDir, "README.md"))) out.push("README.md");
  return out.sort();
}

/**
 * Markdown files whose examples name a policy module at another version than its metadata's
 * (`<ociUrl>:v0.1.0` after a bump to 0.2.0), with the text they should have: a version bump
 * reaches every README example on regeneration, and the staleness test notices one left behind.
 */
export function versionReferenceFixes(rootDir = REPO_ROOT): Map<string, string> {
  const policiesDir = path.join(rootDir, "policies");
  const refs = discoverPolicies(policiesDir).map((p) => {
    const ann = (readMetadataYaml(path.join(policiesDir, p, "metadata.yml")).annotations ?? {}) as Record<
      string,
      string
    >;
    return { oci: ann["io.kubewarden.policy.ociUrl"], version: ann["io.kubewarden.policy.version"] };
  });
  const out = new Map<string, string>();
  for (const rel of markdownFiles(rootDir)) {
    const text = fs.readFileSync(path.join(rootDir, rel), "utf8");
    let fixed = text;
    for (const { oci, version } of refs) {
      if (!oci || !version) continue;
      const escaped = oci.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      fixed = fixed.replace(new RegExp(`${escaped}:v\\d+\\.\\d+\\.\\d+(?![\\w.-])`, "g"), `${oci}:v${version}`);
    }
    if (fixed !== text) out.set(rel, fixed);
  }
  return out;
}

/** Every generated file, relative to the repository root → the text it should have. */
export function generatedFiles(rootDir = REPO_ROOT, now = new Date()): Map<string, string> {
  const out = new Map<string, string>(versionReferenceFixes(rootDir));
  const shared = sharedFields(rootDir);
  for (const policy of discoverPolicies(path.join(rootDir, "policies"))) {
    const rel = path.join("policies", policy, "artifacthub-pkg.yml");
    const file = path.join(rootDir, rel);
    const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    out.set(rel, artifacthubFile(path.dirname(file), shared, previous, now));
  }
  for (const [rel, text] of deployFiles(rootDir)) out.set(path.join("deploy", rel), text);
  return out;
}

/** Files that differ from what generation gives, plus generated deploy files of removed policies. */
export function staleFiles(rootDir = REPO_ROOT): string[] {
  const files = generatedFiles(rootDir);
  const stale = [...files]
    .filter(
      ([rel, text]) =>
        !fs.existsSync(path.join(rootDir, rel)) || fs.readFileSync(path.join(rootDir, rel), "utf8") !== text,
    )
    .map(([rel]) => rel);
  const deployOnly = new Map([...files].filter(([r]) => r.startsWith("deploy/")).map(([r, t]) => [r.slice(7), t]));
  return [...stale, ...staleDeployFiles(path.join(rootDir, "deploy"), deployOnly).map((r) => path.join("deploy", r))];
}

function writeGenerated(rootDir: string, print: (s: string) => void): void {
  // README examples first: the Artifact Hub packages embed the READMEs
  for (const [rel, text] of versionReferenceFixes(rootDir)) {
    fs.writeFileSync(path.join(rootDir, rel), text);
    print(`wrote ${rel}`);
  }
  const files = generatedFiles(rootDir);
  const deployOnly = new Map([...files].filter(([r]) => r.startsWith("deploy/")).map(([r, t]) => [r.slice(7), t]));
  for (const rel of staleDeployFiles(path.join(rootDir, "deploy"), deployOnly)) {
    fs.rmSync(path.join(rootDir, "deploy", rel));
    print(`removed deploy/${rel}`);
  }
  for (const [rel, text] of files) {
    const file = path.join(rootDir, rel);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    print(`wrote ${rel}`);
  }
}

/** A whole deploy tree for the given options (the hand-written PolicyServer copied in): `kubectl apply -k <out>`. */
export function writeDeployTree(root: string, out: string, opts: DeployOptions, print: (s: string) => void): void {
  const files = deployFiles(root, opts);
  files.set(
    path.join(BASE, "policy-server.yaml"),
    fs.readFileSync(path.join(root, "deploy", BASE, "policy-server.yaml"), "utf8"),
  );
  for (const [rel, text] of files) {
    const file = path.join(out, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  print(`wrote ${files.size} files to ${out}: kubectl apply -k ${out}`);
}

/** `none` removes a selector; anything else must be a JSON object (a metav1.LabelSelector). */
function parseSelector(value: string): Record<string, unknown> | null {
  if (value === "none") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    throw new InvalidArgumentError(`not JSON: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new InvalidArgumentError("expected a JSON object (matchLabels / matchExpressions) or none");
  return parsed as Record<string, unknown>;
}

async function loadModule(uri: string, sourcesPath?: string): Promise<PolicyModule> {
  if (uri.startsWith("registry://")) return PolicyModule.fromBytes(await pullToBuffer(uri, { sourcesPath }), uri);
  return PolicyModule.fromFile(uri.startsWith("file://") ? uri.slice(7) : uri);
}

export function registerPublish(program: Command, out: { write(text: string): unknown } = process.stdout): void {
  const print = (s: string) => out.write(`${s}\n`);
  program
    .command("generate")
    .description("regenerate policies/*/artifacthub-pkg.yml and deploy/ from policies/*/ (run after adding a policy)")
    .option("--check", "only list stale generated files; exit 1 when there are any")
    .option("--root <dir>", "repository root (default: this checkout)")
    .option("--out <dir>", "write a deploy tree of your own there (with the options below) instead of deploy/")
    .option("--registry <prefix>", "host[:port]/path the policies were pushed under (make push REGISTRY=…)")
    .option(
      "--policy-server-namespace <ns>",
      "where Kubewarden runs (default kubewarden; Rancher: cattle-kubewarden-system)",
    )
    .option(
      "--lookup-namespaces <list>",
      "least privilege: Roles in these comma-separated namespaces instead of a ClusterRole; lookup policies act only there",
      (v: string) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== ""),
    )
    .action((flags: DeployOptions & { check?: boolean; root?: string; out?: string }) => {
      const root = flags.root ? path.resolve(flags.root) : REPO_ROOT;
      const opts: DeployOptions = {
        ...(flags.registry ? { registry: flags.registry } : {}),
        ...(flags.policyServerNamespace ? { policyServerNamespace: flags.policyServerNamespace } : {}),
        ...(flags.lookupNamespaces ? { lookupNamespaces: flags.lookupNamespaces } : {}),
      };
      if (flags.out !== undefined) return writeDeployTree(root, path.resolve(flags.out), opts, print);
      if (Object.keys(opts).length > 0)
        throw new Error(
          "--registry, --policy-server-namespace and --lookup-namespaces write a deploy tree of your own: add --out <dir> (deploy/ keeps the published defaults)",
        );
      if (!flags.check) return writeGenerated(root, print);
      const stale = staleFiles(root);
      if (stale.length > 0) throw new Error(`stale generated files (run cachewarden generate): ${stale.join(", ")}`);
      print("generated files are up to date");
    });

  program
    .command("namespace")
    .description(
      "write a self-contained kustomization of AdmissionPolicies for one namespace from a settings file (policy → settings)",
    )
    .argument("<namespace>", "the namespace the policies act in")
    .requiredOption("-s, --settings <file>", "policy name → its settings (deploy/namespace-settings.example.yaml)")
    .option("--out <dir>", "where to write it (default: ./cachewarden-<namespace>)")
    .option("--registry <prefix>", "host[:port]/path the policies were pushed under (default: each ociUrl)")
    .option("--policy-server <name>", "the PolicyServer the policies run on", "cachewarden")
    .addOption(new Option("--mode <mode>", "policy mode").choices(["protect", "monitor"]))
    .action(
      (
        namespace: string,
        flags: {
          settings: string;
          out?: string;
          registry?: string;
          policyServer: string;
          mode?: "protect" | "monitor";
        },
      ) => {
        const out = path.resolve(flags.out ?? `cachewarden-${namespace}`);
        const written = writeNamespace(namespace, flags.settings, out, {
          registry: flags.registry,
          policyServer: flags.policyServer,
          mode: flags.mode,
          warn: (line) => process.stderr.write(`warning: ${line}\n`),
        });
        for (const f of written) print(`wrote ${f}`);
        print(`apply with: kubectl apply -k ${out}`);
      },
    );

  const scaffold = program.command("scaffold").description("write manifests and package files, like kwctl scaffold");
  scaffold
    .command("manifest")
    .description(
      "the ClusterAdmissionPolicy or AdmissionPolicy deploy/ writes for an annotated module (settings checked first); flags change each field",
    )
    .argument("<module>", "a path, file:// or registry:// URI")
    .addOption(
      new Option("-t, --type <kind>", "policy resource kind")
        .choices([...POLICY_KINDS])
        .default("ClusterAdmissionPolicy"),
    )
    .option("-n, --namespace <ns>", "the AdmissionPolicy's namespace (required for -t AdmissionPolicy)")
    .option("-s, --settings-path <file>", "policy settings (JSON/YAML)")
    .option("--settings-json <json>", "policy settings as a JSON object")
    .option("--title <name>", "metadata.name (default: io.kubewarden.policy.title)")
    .option("--module-ref <uri>", "spec.module as written (default: registry://<ociUrl>:v<version>, as deploy/)")
    .option("--registry <prefix>", "host[:port]/path the policy was pushed under (default: its ociUrl)")
    .option("--policy-server <name>", "spec.policyServer", "cachewarden")
    .addOption(
      new Option("--failure-policy <policy>", "spec.failurePolicy (default: deploy/'s)").choices(["Fail", "Ignore"]),
    )
    .addOption(new Option("--mode <mode>", "spec.mode (default: protect)").choices(["protect", "monitor"]))
    .option("--object-selector <json>", "spec.objectSelector as JSON, or none (default: the README's)", parseSelector)
    .option(
      "--namespace-selector <json>",
      "spec.namespaceSelector as JSON, or none (default: the README's)",
      parseSelector,
    )
    .option("--no-context-aware", "leave contextAwareResources empty (default: the metadata's, as deploy/)")
    .option("--allow-context-aware", "kwctl's flag; granting the metadata's contextAwareResources is the default here")
    .option("--sources-path <file>", "kwctl sources.yaml for registry:// modules")
    .action(
      async (
        uri: string,
        flags: {
          type: PolicyKind;
          namespace?: string;
          settingsPath?: string;
          settingsJson?: string;
          title?: string;
          moduleRef?: string;
          registry?: string;
          policyServer: string;
          failurePolicy?: "Fail" | "Ignore";
          mode?: "protect" | "monitor";
          objectSelector?: Record<string, unknown> | null;
          namespaceSelector?: Record<string, unknown> | null;
          contextAware: boolean;
          sourcesPath?: string;
        },
      ) => {
        if (flags.settingsPath !== undefined && flags.settingsJson !== undefined)
          throw new Error("--settings-path and --settings-json cannot be used together");
        const settings =
          flags.settingsPath !== undefined
            ? loadSettings(flags.settingsPath)
            : flags.settingsJson !== undefined
              ? parseSettingsJson(flags.settingsJson)
              : {};
        const module = await loadModule(uri, flags.sourcesPath);
        const manifest = scaffoldManifest(module, {
          kind: flags.type,
          source: uri,
          settings,
          title: flags.title,
          namespace: flags.namespace,
          moduleRef: flags.moduleRef,
          registry: flags.registry,
          policyServer: flags.policyServer,
          failurePolicy: flags.failurePolicy,
          mode: flags.mode,
          objectSelector: flags.objectSelector,
          namespaceSelector: flags.namespaceSelector,
          contextAware: flags.contextAware,
          warn: (line) => process.stderr.write(`warning: ${line}\n`),
        });
        out.write(yaml.dump(manifest, { lineWidth: -1, noRefs: true }));
      },
    );

  scaffold
    .command("artifacthub")
    .description("print a policy's artifacthub-pkg.yml (what `cachewarden generate` writes)")
    .argument("<policy>", "policy folder name under policies/")
    .action((policy: string) => {
      const dir = path.join(REPO_ROOT, "policies", policy);
      if (!fs.existsSync(path.join(dir, "metadata.yml"))) throw new Error(`policies/${policy}/metadata.yml not found`);
      const file = path.join(dir, "artifacthub-pkg.yml");
      const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
      out.write(artifacthubFile(dir, sharedFields(REPO_ROOT), previous, new Date()));
    });
}
