// policies/<name>/artifacthub-pkg.yml from metadata.yml, questions-ui.yml and README.md, with the
// fields `kwctl scaffold artifacthub` writes, merged with the suite's shared fields from the
// top-level artifacthub-pkg.yml (docs/publishing.md#artifact-hub). createdAt is kept from the
// committed file while nothing else changes, so regenerating an unchanged policy is a no-op.
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { readMetadataYaml } from "../wasm/metadata";

type Obj = Record<string, unknown>;

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const CONTROLLER_PACKAGE = "https://artifacthub.io/packages/helm/kubewarden/kubewarden-controller";

/** `Name <mail>, Name2 <mail2>` (RFC 5322 address list, the common forms) into Artifact Hub maintainers. */
export function parseAuthors(value: string): { name: string; email: string }[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((entry) => {
      const m = /^(.*?)\s*<([^<>\s]+@[^<>\s]+)>$/.exec(entry) ?? /^()([^<>\s]+@[^<>\s]+)$/.exec(entry);
      if (!m) throw new Error(`io.kubewarden.policy.author: ${JSON.stringify(entry)} is not "Name <email>"`);
      return { name: m[1].replace(/^"|"$/g, ""), email: m[2] };
    });
}

function installText(image: string): string {
  return [
    "Fetch the policy with [kwctl](https://docs.kubewarden.io/howtos/install-kwctl) (or `cachewarden pull`):",
    "```console",
    `kwctl pull ${image}`,
    "```",
    "Then scaffold a policy resource from it and adjust the selectors and settings:",
    "```console",
    `kwctl scaffold manifest -t ClusterAdmissionPolicy registry://${image}`,
    "```",
    "",
  ].join("\n");
}

const dumpYaml = (v: unknown): string => yaml.dump(v, { lineWidth: -1, noRefs: true });

export interface ArtifacthubInput {
  policyDir: string;
  /** the suite's shared fields (the top-level artifacthub-pkg.yml) */
  shared: Obj;
  /** the createdAt to use; the generator keeps the committed one when nothing else changed */
  createdAt: string;
}

/** The package object, in kwctl's field order. Throws one-line errors naming the missing annotation. */
export function artifacthubPackage({ policyDir, shared, createdAt }: ArtifacthubInput): Obj {
  const policy = path.basename(policyDir);
  const meta = readMetadataYaml(path.join(policyDir, "metadata.yml"), `policies/${policy}/metadata.yml`);
  const ann = (meta.annotations ?? {}) as Record<string, string>;
  const need = (key: string): string => {
    const v = ann[key];
    if (typeof v !== "string" || v.trim() === "")
      throw new Error(`policies/${policy}/metadata.yml: annotation ${key} is required for Artifact Hub`);
    return v.trim();
  };
  const version = need("io.kubewarden.policy.version");
  if (!SEMVER.test(version)) throw new Error(`policies/${policy}/metadata.yml: version ${version} is not semver`);
  const image = `${need("io.kubewarden.policy.ociUrl")}:v${version}`;

  const keywords = [
    ...(ann["io.artifacthub.keywords"] ?? "").split(",").map((k) => k.trim()),
    ...((shared.keywords as string[] | undefined) ?? []),
  ].filter((k, i, all) => k !== "" && all.indexOf(k) === i);

  const links: { name: string; url: string }[] = [];
  const source = ann["io.kubewarden.policy.source"];
  if (source) {
    if (/^https:\/\/github\.com\//.test(source)) {
      // a monorepo releases each policy under `<policy>/v<version>` (docs/publishing.md#versions-and-tags)
      const tag = ann["com.github.release.tag"] ?? `${policy}/v${version}`;
      links.push({
        name: "policy",
        url: `${source.replace(/\/+$/, "")}/releases/download/${encodeURIComponent(tag)}/policy.wasm`,
      });
    }
    links.push({ name: "source", url: source });
  }
  for (const l of (shared.links as { name: string; url: string }[] | undefined) ?? [])
    if (!links.some((x) => x.url === l.url)) links.push(l);

  const annotations: Record<string, string> = { "kubewarden/mutation": String(meta.mutating === true) };
  const contextAware = (meta.contextAwareResources ?? []) as unknown[];
  if (contextAware.length > 0) annotations["kubewarden/contextAwareResources"] = dumpYaml(contextAware);
  if (ann["io.kubewarden.hidden-ui"] !== undefined)
    annotations["kubewarden/hidden-ui"] = ann["io.kubewarden.hidden-ui"];
  const questionsFile = path.join(policyDir, "questions-ui.yml");
  if (fs.existsSync(questionsFile)) {
    const questions = fs.readFileSync(questionsFile, "utf8");
    if (questions.trim() === "") throw new Error(`policies/${policy}/questions-ui.yml is empty`);
    annotations["kubewarden/questions-ui"] = questions;
  }
  if (ann["io.artifacthub.resources"] !== undefined)
    annotations["kubewarden/resources"] = ann["io.artifacthub.resources"];
  annotations["kubewarden/rules"] = dumpYaml(meta.rules ?? []);

  const readmeFile = path.join(policyDir, "README.md");
  const pkg: Obj = {
    version,
    name: need("io.kubewarden.policy.title"),
    displayName: need("io.artifacthub.displayName"),
    createdAt,
    description: need("io.kubewarden.policy.description"),
    license: ann["io.kubewarden.policy.license"] ?? shared.license,
    homeURL: ann["io.kubewarden.policy.url"] ?? shared.homeURL,
    containersImages: [{ name: "policy", image }],
    keywords,
    links,
    readme: fs.existsSync(readmeFile) ? fs.readFileSync(readmeFile, "utf8") : undefined,
    install: installText(image),
    maintainers: ann["io.kubewarden.policy.author"]
      ? parseAuthors(ann["io.kubewarden.policy.author"])
      : shared.maintainers,
    provider: shared.provider ?? { name: "kubewarden" },
    recommendations: [
      { url: CONTROLLER_PACKAGE },
      ...((shared.recommendations as { url: string }[] | undefined) ?? []).filter((r) => r.url !== CONTROLLER_PACKAGE),
    ],
    annotations: Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  for (const k of Object.keys(pkg))
    if (pkg[k] === undefined || (Array.isArray(pkg[k]) && !(pkg[k] as []).length)) delete pkg[k];
  return pkg;
}

export const GENERATED_HEADER =
  "# Generated by `cachewarden generate` from metadata.yml, questions-ui.yml, README.md and the\n# top-level artifacthub-pkg.yml. Do not edit: change those and regenerate.\n";

/** The file text; `previous` (the committed text) lends its createdAt when the rest is unchanged. */
export function artifacthubFile(policyDir: string, shared: Obj, previous: string | undefined, now: Date): string {
  const render = (createdAt: string) =>
    GENERATED_HEADER + dumpYaml(artifacthubPackage({ policyDir, shared, createdAt }));
  if (previous !== undefined) {
    const old = (yaml.load(previous) as Obj | null)?.createdAt;
    if (typeof old === "string") {
      const kept = render(old);
      if (kept === previous) return kept;
    }
  }
  return render(now.toISOString().replace(/\.\d{3}Z$/, "Z"));
}

/** The suite file's fields a policy package inherits. */
export function sharedFields(rootDir: string): Obj {
  const file = path.join(rootDir, "artifacthub-pkg.yml");
  const doc = yaml.load(fs.readFileSync(file, "utf8")) as Obj;
  const pick = ["license", "homeURL", "keywords", "links", "maintainers", "provider", "recommendations"];
  return Object.fromEntries(pick.filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]));
}
