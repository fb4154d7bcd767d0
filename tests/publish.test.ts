// The generated publishing files (policies/*/artifacthub-pkg.yml, deploy/) are current, complete and
// valid, and a policy's version, release tag, pushed tag and package version agree.
import { describe, test } from "node:test";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv from "ajv";
import { Command } from "commander";
import * as yaml from "js-yaml";
import { validateSettings } from "../tools/host/evaluate";
import { PolicyModule } from "../tools/host/guest";
import { readPolicyMetadata } from "../tools/host/metadata";
import { publishPlan } from "../tools/oci/commands";
import { artifacthubFile, parseAuthors, sharedFields } from "../tools/publish/artifacthub";
import { generatedFiles, registerPublish, staleFiles } from "../tools/publish/commands";
import { discoverPolicies } from "../tools/wasm/index";
import { readMetadataYaml } from "../tools/wasm/metadata";

const ROOT = path.resolve(__dirname, "..");
const POLICIES = discoverPolicies(path.join(ROOT, "policies"));
type Obj = Record<string, unknown>;

const ajv = new Ajv({ allErrors: true });
const validatePkg = ajv.compile(
  JSON.parse(fs.readFileSync(path.join(ROOT, "tools", "publish", "artifacthub-pkg.schema.json"), "utf8")) as object,
);
const pkgErrors = (doc: unknown): string => (validatePkg(doc) ? "" : ajv.errorsText(validatePkg.errors));
const loadPkg = (p: string): Obj =>
  yaml.load(fs.readFileSync(path.join(ROOT, "policies", p, "artifacthub-pkg.yml"), "utf8")) as Obj;
const annotationsOf = (p: string): Record<string, string> =>
  readMetadataYaml(path.join(ROOT, "policies", p, "metadata.yml")).annotations as Record<string, string>;

test("the committed generated files are current (rerun `cachewarden generate` after changing a policy)", () => {
  assert.deepEqual(staleFiles(), []);
});

test("every policy under policies/ has an artifacthub-pkg.yml, a deploy/ resource and a push target", () => {
  assert.ok(POLICIES.length >= 2);
  const files = [...generatedFiles().keys()];
  const plan = publishPlan(undefined).map((t) => t.policy);
  const kustomization = yaml.load(fs.readFileSync(path.join(ROOT, "deploy", "base", "kustomization.yaml"), "utf8")) as {
    resources: string[];
  };
  for (const p of POLICIES) {
    assert.ok(fs.existsSync(path.join(ROOT, "policies", p, "artifacthub-pkg.yml")), `${p}: no artifacthub-pkg.yml`);
    assert.ok(files.includes(path.join("deploy", "base", "policies", `${p}.yaml`)), `${p}: not generated into deploy/`);
    assert.ok(kustomization.resources.includes(`policies/${p}.yaml`), `${p}: not in deploy/base/kustomization.yaml`);
    assert.ok(plan.includes(p), `${p}: not pushed by make push`);
  }
});

describe("Artifact Hub packages", () => {
  test("the suite file and every policy package pass the Artifact Hub schema", () => {
    assert.equal(pkgErrors(yaml.load(fs.readFileSync(path.join(ROOT, "artifacthub-pkg.yml"), "utf8"))), "");
    for (const p of POLICIES) assert.equal(pkgErrors(loadPkg(p)), "", p);
  });

  test("the schema refuses a package without a name, with a bad version or an unknown key", () => {
    const pkg = loadPkg(POLICIES[0]);
    assert.match(pkgErrors({ ...pkg, name: undefined }), /must have required property 'name'/);
    assert.match(pkgErrors({ ...pkg, version: "v1.0" }), /\/version must match pattern/);
    assert.match(pkgErrors({ ...pkg, homepage: "x" }), /must NOT have additional properties/);
  });

  for (const p of POLICIES) {
    test(`${p}: the package carries the metadata the way kwctl scaffold artifacthub writes it`, () => {
      const pkg = loadPkg(p);
      const meta = readMetadataYaml(path.join(ROOT, "policies", p, "metadata.yml"));
      const ann = meta.annotations as Record<string, string>;
      const version = ann["io.kubewarden.policy.version"];
      assert.equal(pkg.name, ann["io.kubewarden.policy.title"]);
      assert.equal(pkg.displayName, ann["io.artifacthub.displayName"]);
      assert.equal(pkg.description, ann["io.kubewarden.policy.description"]);
      assert.deepEqual(pkg.containersImages, [
        { name: "policy", image: `${ann["io.kubewarden.policy.ociUrl"]}:v${version}` },
      ]);
      assert.deepEqual(pkg.maintainers, parseAuthors(ann["io.kubewarden.policy.author"]));
      assert.deepEqual(pkg.provider, { name: "kubewarden" });
      assert.deepEqual((pkg.recommendations as Obj[])[0], {
        url: "https://artifacthub.io/packages/helm/kubewarden/kubewarden-controller",
      });
      for (const k of ann["io.artifacthub.keywords"].split(","))
        assert.ok((pkg.keywords as string[]).includes(k.trim()), k);
      assert.equal(pkg.readme, fs.readFileSync(path.join(ROOT, "policies", p, "README.md"), "utf8"));
      assert.match(String(pkg.install), new RegExp(`kwctl pull ${ann["io.kubewarden.policy.ociUrl"]}:v${version}`));
      const a = pkg.annotations as Record<string, string>;
      assert.equal(a["kubewarden/mutation"], String(meta.mutating));
      assert.deepEqual(yaml.load(a["kubewarden/rules"]), meta.rules);
      const car = (meta.contextAwareResources ?? []) as unknown[];
      if (car.length > 0) assert.deepEqual(yaml.load(a["kubewarden/contextAwareResources"]), car);
      else assert.equal(a["kubewarden/contextAwareResources"], undefined);
      assert.equal(a["kubewarden/resources"], ann["io.artifacthub.resources"]);
      assert.equal(
        a["kubewarden/questions-ui"],
        fs.readFileSync(path.join(ROOT, "policies", p, "questions-ui.yml"), "utf8"),
      );
      assert.equal(a["kubewarden/contextAware"], undefined, "the obsolete key is not written");
    });
  }

  test("createdAt is kept while the package is unchanged and renewed when it changes", () => {
    const dir = path.join(ROOT, "policies", POLICIES[0]);
    const committed = fs.readFileSync(path.join(dir, "artifacthub-pkg.yml"), "utf8");
    const later = new Date("2031-01-02T03:04:05Z");
    assert.equal(artifacthubFile(dir, sharedFields(ROOT), committed, later), committed);
    const changed = artifacthubFile(dir, { ...sharedFields(ROOT), keywords: ["extra"] }, committed, later);
    assert.equal((yaml.load(changed) as Obj).createdAt, "2031-01-02T03:04:05Z");
  });

  test("`cachewarden scaffold artifacthub <policy>` prints the committed package", async () => {
    let stdout = "";
    const program = new Command().exitOverride();
    registerPublish(program, { write: (t: string) => (stdout += t) });
    await program.parseAsync(["node", "cachewarden", "scaffold", "artifacthub", POLICIES[0]]);
    assert.equal(stdout, fs.readFileSync(path.join(ROOT, "policies", POLICIES[0], "artifacthub-pkg.yml"), "utf8"));
    await assert.rejects(program.parseAsync(["node", "cachewarden", "scaffold", "artifacthub", "nope"]), {
      message: "policies/nope/metadata.yml not found",
    });
  });

  test("authors: a list of `Name <mail>`; a malformed entry is named", () => {
    assert.deepEqual(parseAuthors("A B <a@x.io>, c@y.io"), [
      { name: "A B", email: "a@x.io" },
      { name: "", email: "c@y.io" },
    ]);
    assert.throws(() => parseAuthors("A B <not-mail>"), {
      message: 'io.kubewarden.policy.author: "A B <not-mail>" is not "Name <email>"',
    });
  });
});

describe("versions and tags agree", () => {
  for (const target of publishPlan("registry.example:5000/cw")) {
    test(`${target.policy}: metadata version, git tag, pushed tag, package and module agree`, () => {
      const ann = annotationsOf(target.policy);
      const version = ann["io.kubewarden.policy.version"];
      assert.match(version, /^\d+\.\d+\.\d+$/);
      assert.equal(target.gitTag, `${target.policy}/v${version}`);
      assert.equal(target.uri, `registry://registry.example:5000/cw/${target.policy}:v${version}`);
      if (ann["com.github.release.tag"] !== undefined) assert.equal(ann["com.github.release.tag"], target.gitTag);
      const pkg = loadPkg(target.policy);
      assert.equal(pkg.version, version);
      const policyLink = (pkg.links as { name: string; url: string }[]).find((l) => l.name === "policy");
      assert.ok(policyLink?.url.includes(`/releases/download/${encodeURIComponent(target.gitTag)}/policy.wasm`));
      if (fs.existsSync(target.module)) {
        const embedded = readPolicyMetadata(PolicyModule.fromFile(target.module).module)?.annotations as Obj;
        assert.equal(
          embedded["io.kubewarden.policy.version"],
          version,
          "annotated-policy.wasm is older than metadata.yml",
        );
      }
    });
  }
});

test("a policy added under policies/ joins artifacthub, deploy/ and make push on regeneration", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-gen-"));
  try {
    fs.copyFileSync(path.join(ROOT, "artifacthub-pkg.yml"), path.join(tmp, "artifacthub-pkg.yml"));
    fs.mkdirSync(path.join(tmp, "deploy", "base"), { recursive: true });
    for (const p of [...POLICIES, "zz-new-injector"]) {
      const from = path.join(ROOT, "policies", p === "zz-new-injector" ? POLICIES[POLICIES.length - 1] : p);
      const to = path.join(tmp, "policies", p);
      fs.mkdirSync(path.join(to, "assembly"), { recursive: true });
      for (const f of ["metadata.yml", "README.md", "questions-ui.yml", "assembly/index.ts"])
        fs.copyFileSync(path.join(from, f), path.join(to, f));
    }
    const metaFile = path.join(tmp, "policies", "zz-new-injector", "metadata.yml");
    fs.writeFileSync(
      metaFile,
      fs.readFileSync(metaFile, "utf8").replace(/lmcache-injector|cacheengine-validator/g, "zz-new-injector"),
    );
    const files = generatedFiles(tmp);
    assert.ok(files.has(path.join("policies", "zz-new-injector", "artifacthub-pkg.yml")));
    assert.ok(files.has(path.join("deploy", "base", "policies", "zz-new-injector.yaml")));
    assert.match(files.get(path.join("deploy", "base", "kustomization.yaml"))!, /- policies\/zz-new-injector\.yaml/);
    assert.ok(publishPlan(undefined, tmp).some((t) => t.policy === "zz-new-injector"));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// The settings form of Artifact Hub / Rancher (questions-ui.yml) asks for every setting a policy's
// README documents, and nothing else; each choice an enum question offers is a valid setting.
const readmeSettings = (p: string): string[] => {
  const readme = fs.readFileSync(path.join(ROOT, "policies", p, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Settings")) ?? "";
  return [...section.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]);
};
interface Question {
  variable: string;
  type: string;
  default?: unknown;
  options?: string[];
}
const questionsOf = (p: string): Question[] =>
  (yaml.load(fs.readFileSync(path.join(ROOT, "policies", p, "questions-ui.yml"), "utf8")) as { questions?: Question[] })
    .questions ?? [];

describe("questions-ui.yml asks for the settings the README documents", () => {
  for (const p of POLICIES) {
    test(p, () => {
      assert.deepEqual(
        questionsOf(p)
          .map((q) => q.variable)
          .sort(),
        readmeSettings(p).sort(),
      );
    });
    const enums = questionsOf(p).filter((q) => q.type === "enum");
    if (enums.length === 0) continue;
    test(`${p}: every choice of an enum question is a valid setting, and its default is one of them`, (t) => {
      const wasm = path.join(ROOT, "policies", p, "annotated-policy.wasm");
      if (!fs.existsSync(wasm)) return t.skip("not built (run `cachewarden build`)");
      const module = PolicyModule.fromFile(wasm);
      for (const q of enums) {
        assert.ok(q.options && q.options.includes(String(q.default)), `${q.variable}: default ${String(q.default)}`);
        for (const option of q.options) {
          assert.deepEqual(
            validateSettings(module, { settings: { [q.variable]: option } }),
            { valid: true },
            `${q.variable}: ${option}`,
          );
        }
        // and the form's choices are not looser than the policy: another value is refused
        assert.equal(validateSettings(module, { settings: { [q.variable]: "not-a-choice" } }).valid, false, q.variable);
      }
    });
  }
});

test("a version bump reaches every README example: a left-behind reference is stale and generate fixes it", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-bump-"));
  try {
    fs.copyFileSync(path.join(ROOT, "artifacthub-pkg.yml"), path.join(tmp, "artifacthub-pkg.yml"));
    fs.cpSync(path.join(ROOT, "deploy"), path.join(tmp, "deploy"), { recursive: true });
    fs.cpSync(path.join(ROOT, "docs"), path.join(tmp, "docs"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "README.md"), path.join(tmp, "README.md"));
    for (const p of POLICIES) {
      const to = path.join(tmp, "policies", p);
      fs.mkdirSync(path.join(to, "assembly"), { recursive: true });
      for (const f of ["metadata.yml", "README.md", "questions-ui.yml", "assembly/index.ts", "artifacthub-pkg.yml"])
        fs.copyFileSync(path.join(ROOT, "policies", p, f), path.join(to, f));
    }
    assert.deepEqual(staleFiles(tmp), []);
    const p = POLICIES.find((name) =>
      fs.readFileSync(path.join(ROOT, "policies", name, "README.md"), "utf8").includes(":v"),
    )!;
    const metaFile = path.join(tmp, "policies", p, "metadata.yml");
    const version = annotationsOf(p)["io.kubewarden.policy.version"];
    fs.writeFileSync(
      metaFile,
      fs
        .readFileSync(metaFile, "utf8")
        .replace(`io.kubewarden.policy.version: ${version}`, "io.kubewarden.policy.version: 9.8.7"),
    );
    const stale = staleFiles(tmp);
    assert.ok(stale.includes(path.join("policies", p, "README.md")), stale.join(", "));
    const oci = annotationsOf(p)["io.kubewarden.policy.ociUrl"];
    const fixed = generatedFiles(tmp).get(path.join("policies", p, "README.md"))!;
    assert.ok(fixed.includes(`${oci}:v9.8.7`));
    assert.ok(!fixed.includes(`${oci}:v${version}`));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test("make push and npm run push pass SOURCES_PATH and OVERWRITE; publish --registry says deploy/ points elsewhere", () => {
  const make = spawnSync("make", ["-n", "push", "REGISTRY=r.example/p", "SOURCES_PATH=/tmp/s.yaml", "OVERWRITE=1"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(make.status, 0, make.stderr);
  assert.match(make.stdout, /publish --registry r\.example\/p --sources-path \/tmp\/s\.yaml --overwrite$/m);
  // `npm run push` (the README's other spelling) passes the same three
  const script = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Obj }).scripts
    .push as string;
  const npmPush = spawnSync("sh", ["-c", script.replace(/node bin\/cachewarden\.js/g, "echo")], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REGISTRY: "r.example/p", SOURCES_PATH: "/tmp/s.yaml", OVERWRITE: "1" },
  });
  assert.match(npmPush.stdout, /^publish --registry r\.example\/p --sources-path \/tmp\/s\.yaml --overwrite$/m);
  const pub = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin", "cachewarden.js"), "publish", "--dry-run", "--registry", "r.example/p"],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  assert.equal(pub.status, 0, pub.stderr);
  assert.equal(
    pub.stderr,
    "note: deploy/ references each policy's ociUrl, not r.example/p; for a cluster pulling from there write your own tree: node bin/cachewarden.js generate --out my-deploy --registry r.example/p\n",
  );
});
