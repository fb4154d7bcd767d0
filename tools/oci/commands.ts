// `cachewarden push` and `pull`, like kwctl's: push prints the immutable reference (JSON with -o json),
// pull writes the policy module to a file. Errors are RegistryErrors: one line, exit 1 (tools/cli.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { Command, Option } from "commander";
import { discoverPolicies, REPO_ROOT } from "../wasm/index";
import { readMetadataYaml } from "../wasm/metadata";
import { pullPolicy, pushPolicy } from "./policy";
import { defaultSourcesPath, loadInsecureSources, parseReference, RegistryError, RegistryOptions } from "./registry";
import { fileErrorText } from "../file-errors";

export interface SourceFlags {
  sourcesPath?: string;
}

/** Registry options from `--sources-path` (kwctl's sources.yaml), else kwctl's default sources file. */
export function registryOptions(flags: SourceFlags): RegistryOptions {
  const file = flags.sourcesPath ?? defaultSourcesPath();
  return { insecureSources: file ? loadInsecureSources(file) : [] };
}

export async function pullToBuffer(uri: string, flags: SourceFlags): Promise<Buffer> {
  return (await pullPolicy(parseReference(uri), registryOptions(flags))).wasm;
}

export interface PublishTarget {
  policy: string;
  version: string;
  module: string;
  /** registry://<prefix>/<policy>:v<version> */
  uri: string;
  /** the monorepo release tag `<policy>/v<version>` */
  gitTag: string;
}

/**
 * What `make push` publishes: every policies/<name>/ with its metadata version as tag `v<version>`,
 * under `<prefix>/<name>` when a prefix is given, else under the metadata's ociUrl.
 */
export function publishPlan(prefix: string | undefined, root = REPO_ROOT): PublishTarget[] {
  const policiesDir = path.join(root, "policies");
  return discoverPolicies(policiesDir).map((policy) => {
    const dir = path.join(policiesDir, policy);
    const meta = readMetadataYaml(path.join(dir, "metadata.yml"), `policies/${policy}/metadata.yml`);
    const ann = (meta.annotations ?? {}) as Record<string, string>;
    const version = ann["io.kubewarden.policy.version"];
    if (!version) throw new RegistryError(`policies/${policy}/metadata.yml: io.kubewarden.policy.version is missing`);
    const repository = prefix
      ? `${prefix.replace(/^registry:\/\//, "").replace(/\/+$/, "")}/${policy}`
      : ann["io.kubewarden.policy.ociUrl"];
    if (!repository)
      throw new RegistryError(
        `policies/${policy}/metadata.yml: io.kubewarden.policy.ociUrl is missing and no registry was given`,
      );
    return {
      policy,
      version,
      module: path.join(dir, "annotated-policy.wasm"),
      uri: `registry://${repository}:v${version}`,
      gitTag: `${policy}/v${version}`,
    };
  });
}

function ociUrlOf(policy: string, root = REPO_ROOT): string | undefined {
  const meta = readMetadataYaml(path.join(root, "policies", policy, "metadata.yml"), `policies/${policy}/metadata.yml`);
  return ((meta.annotations ?? {}) as Record<string, string>)["io.kubewarden.policy.ociUrl"];
}

function readModule(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new RegistryError(`${file}: ${fileErrorText(e)}`);
  }
}

export function registerOci(program: Command, out: { write(text: string): unknown } = process.stdout): void {
  program
    .command("push")
    .description("publish an annotated policy module to an OCI registry (like kwctl push)")
    .argument("<module>", "the annotated .wasm")
    .argument("<uri>", "registry://host[:port]/repository:tag")
    .option("-f, --force", "push a module without io.kubewarden.metadata")
    .option("--overwrite", "replace a tag that already holds a different module")
    .option("--sources-path <file>", "kwctl sources.yaml; insecure_sources are reached over plain HTTP")
    .addOption(new Option("-o, --output <format>", "output format").choices(["text", "json"]).default("text"))
    .action(
      async (
        file: string,
        uri: string,
        flags: SourceFlags & { force?: boolean; overwrite?: boolean; output: string },
      ) => {
        const ref = parseReference(uri, { requireTag: true });
        const result = await pushPolicy(readModule(file), ref, {
          ...registryOptions(flags),
          force: flags.force,
          overwrite: flags.overwrite,
          source: file,
        });
        out.write(
          flags.output === "json"
            ? `${JSON.stringify({ immutable_ref: result.immutableRef })}\n`
            : `${result.immutableRef}\n`,
        );
      },
    );

  program
    .command("publish")
    .description(
      "push every policies/<name>/annotated-policy.wasm with the tag v<version> from its metadata (make push)",
    )
    .option("--registry <prefix>", "host[:port]/path the policies go under (default: each metadata ociUrl)")
    .option("--dry-run", "print what would be pushed")
    .option("--sources-path <file>", "kwctl sources.yaml; insecure_sources are reached over plain HTTP")
    .option("--overwrite", "replace tags that already hold a different module")
    .action(async (flags: SourceFlags & { registry?: string; dryRun?: boolean; overwrite?: boolean }) => {
      const plan = publishPlan(flags.registry || undefined);
      for (const target of plan) {
        if (flags.dryRun) {
          out.write(`${target.policy} ${target.uri} (release tag ${target.gitTag})\n`);
          continue;
        }
        const result = await pushPolicy(readModule(target.module), parseReference(target.uri), {
          ...registryOptions(flags),
          source: path.relative(process.cwd(), target.module),
          overwrite: flags.overwrite,
        });
        out.write(`${target.policy} ${target.uri} ${result.immutableRef}\n`);
      }
      if (flags.registry && plan.some((t) => !t.uri.startsWith(`registry://${ociUrlOf(t.policy)}:`)))
        process.stderr.write(
          `note: deploy/ references each policy's ociUrl, not ${flags.registry}; for a cluster pulling from there write your own tree: node bin/cachewarden.js generate --out my-deploy --registry ${flags.registry}\n`,
        );
    });

  program
    .command("pull")
    .description("fetch a policy module from an OCI registry")
    .argument("<uri>", "registry://host[:port]/repository:tag or …@sha256:<digest>")
    .requiredOption("-o, --output-path <file>", "where to write the module")
    .option("--sources-path <file>", "kwctl sources.yaml; insecure_sources are reached over plain HTTP")
    .action(async (uri: string, flags: SourceFlags & { outputPath: string }) => {
      const { wasm, manifestDigest } = await pullPolicy(parseReference(uri), registryOptions(flags));
      fs.writeFileSync(flags.outputPath, wasm);
      out.write(`${flags.outputPath}: ${wasm.length} bytes (manifest ${manifestDigest})\n`);
    });
}
