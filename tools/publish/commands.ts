// `cachewarden generate` (every generated publishing file: policies/*/artifacthub-pkg.yml and deploy/)
// and `cachewarden scaffold manifest|artifacthub`, like kwctl's scaffold commands.
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, Option } from "commander";
import * as yaml from "js-yaml";
import { PolicyModule } from "../host/guest";
import { loadSettings, parseSettingsJson } from "../host/request";
import { pullToBuffer } from "../oci/commands";
import { discoverPolicies, REPO_ROOT } from "../wasm/index";
import { artifacthubFile, sharedFields } from "./artifacthub";
import { deployFiles, staleDeployFiles } from "./deploy";
import { PolicyKind, POLICY_KINDS, scaffoldManifest } from "./manifest";

/** Every generated file, relative to the repository root → the text it should have. */
export function generatedFiles(rootDir = REPO_ROOT, now = new Date()): Map<string, string> {
  const out = new Map<string, string>();
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
    .action((flags: { check?: boolean; root?: string }) => {
      const root = flags.root ? path.resolve(flags.root) : REPO_ROOT;
      if (!flags.check) return writeGenerated(root, print);
      const stale = staleFiles(root);
      if (stale.length > 0) throw new Error(`stale generated files (run cachewarden generate): ${stale.join(", ")}`);
      print("generated files are up to date");
    });

  const scaffold = program.command("scaffold").description("write manifests and package files, like kwctl scaffold");
  scaffold
    .command("manifest")
    .description("a ClusterAdmissionPolicy or AdmissionPolicy for an annotated module (settings checked first)")
    .argument("<module>", "a path, file:// or registry:// URI")
    .addOption(
      new Option("-t, --type <kind>", "policy resource kind")
        .choices([...POLICY_KINDS])
        .default("ClusterAdmissionPolicy"),
    )
    .option("-s, --settings-path <file>", "policy settings (JSON/YAML)")
    .option("--settings-json <json>", "policy settings as a JSON object")
    .option("--title <name>", "metadata.name (default: io.kubewarden.policy.title)")
    .option("--allow-context-aware", "keep the metadata's contextAwareResources (ClusterAdmissionPolicy)")
    .option("--sources-path <file>", "kwctl sources.yaml for registry:// modules")
    .action(
      async (
        uri: string,
        flags: {
          type: PolicyKind;
          settingsPath?: string;
          settingsJson?: string;
          title?: string;
          allowContextAware?: boolean;
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
          moduleUri: /^[a-z]+:\/\//.test(uri) ? uri : `file://${path.resolve(uri)}`,
          settings,
          title: flags.title,
          allowContextAware: flags.allowContextAware,
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
