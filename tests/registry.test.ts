// Publishing against a real registry: Debian's docker-registry on a loopback port, read back with an
// independent client (skopeo) and over plain HTTP, pulled with the CLI and evaluated. Both are
// installed by .ci/install-registry-tools (which .ci/run calls before npm test).
import { after, before, describe, test } from "node:test";
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPolicyCases, loadCases } from "../tools/host/cases";
import { publishPlan } from "../tools/oci/commands";
import { CONFIG_MEDIA_TYPE, LAYER_MEDIA_TYPE, pushPolicy } from "../tools/oci/policy";
import { parseReference, schemeFor, sha256Digest } from "../tools/oci/registry";
import { readMetadataYaml } from "../tools/wasm/metadata";
import { haveCommand, RunningRegistry, startRegistry } from "./helpers/registry";

const ROOT = path.resolve(__dirname, "..");
const CLI = path.join(ROOT, "bin", "cachewarden.js");
const HTPASSWD = path.join(ROOT, "tests", "fixtures", "registry", "htpasswd");
const MISSING = ["docker-registry", "skopeo"].filter((c) => !haveCommand(c));
const INSTALL_HINT = `${MISSING.join(" and ")} not installed: run .ci/install-registry-tools`;

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    cwd: ROOT,
    env: { ...process.env, DOCKER_CONFIG: path.join(os.tmpdir(), "cachewarden-no-docker-config"), ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI's error contract: exactly one `cachewarden: …` line, no stack trace, exit 1. */
function assertOneLineError(r: ReturnType<typeof cli>, pattern: RegExp): void {
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern);
}

function dockerConfig(host: string, username: string, password: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-docker-"));
  const auth = Buffer.from(`${username}:${password}`).toString("base64");
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ auths: { [host]: { auth } } }));
  return dir;
}

test("docker-registry and skopeo are installed for the registry tests", () => {
  assert.deepEqual(MISSING, [], INSTALL_HINT);
});

const plan = publishPlan(undefined);
const built = plan.every((t) => fs.existsSync(t.module));
const skip = MISSING.length > 0 ? INSTALL_HINT : !built && "run `cachewarden build` first";

describe("push, read back, pull and run every policy", { skip }, () => {
  let registry: RunningRegistry;
  const pushed = new Map<string, { uri: string; immutable: string }>();
  before(async () => {
    registry = await startRegistry();
  });
  after(async () => {
    await registry?.stop();
  });

  test("`cachewarden publish` pushes every policy with the tag v<version> and prints its immutable ref", () => {
    const r = cli(["publish", "--registry", `${registry.host}/cachewarden`]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, plan.length);
    for (const [i, target] of publishPlan(`${registry.host}/cachewarden`).entries()) {
      const [policy, uri, immutable] = lines[i].split(" ");
      assert.equal(policy, target.policy);
      assert.equal(uri, `registry://${registry.host}/cachewarden/${target.policy}:v${target.version}`);
      assert.match(
        immutable,
        new RegExp(`^registry://${registry.host}/cachewarden/${target.policy}@sha256:[0-9a-f]{64}$`),
      );
      pushed.set(policy, { uri, immutable });
    }
  });

  for (const target of plan) {
    test(`${target.policy}: skopeo and plain HTTP read back the kwctl artifact byte for byte`, async () => {
      const { uri, immutable } = pushed.get(target.policy)!;
      const ref = parseReference(uri);
      const s = spawnSync(
        "skopeo",
        ["inspect", "--raw", "--tls-verify=false", `docker://${ref.registry}/${ref.repository}:${ref.tag}`],
        { encoding: "utf8" },
      );
      assert.equal(s.status, 0, s.stderr);
      assert.equal(sha256Digest(Buffer.from(s.stdout)), immutable.split("@")[1], "manifest digest");
      const manifest = JSON.parse(s.stdout) as {
        schemaVersion: number;
        mediaType?: string;
        config: { mediaType: string; digest: string; size: number };
        layers: { mediaType: string; digest: string; size: number }[];
        annotations: Record<string, string>;
      };
      const wasm = fs.readFileSync(target.module);
      assert.equal(manifest.schemaVersion, 2);
      assert.equal(manifest.mediaType, undefined);
      assert.deepEqual(manifest.config, {
        mediaType: CONFIG_MEDIA_TYPE,
        digest: sha256Digest(Buffer.from("{}")),
        size: 2,
      });
      assert.deepEqual(manifest.layers, [
        { mediaType: LAYER_MEDIA_TYPE, digest: sha256Digest(wasm), size: wasm.length },
      ]);
      const ann = (readMetadataYaml(path.join(ROOT, "policies", target.policy, "metadata.yml")).annotations ??
        {}) as Record<string, string>;
      assert.equal(manifest.annotations["io.kubewarden.policy.version"], target.version);
      assert.equal(manifest.annotations["io.kubewarden.policy.title"], ann["io.kubewarden.policy.title"]);
      assert.equal(manifest.annotations["org.opencontainers.image.source"], ann["io.kubewarden.policy.source"]);
      assert.equal(manifest.annotations["io.kubewarden.policy.usage"], undefined, "multi-line usage is dropped");
      const blob = async (digest: string) =>
        Buffer.from(await (await fetch(`http://${ref.registry}/v2/${ref.repository}/blobs/${digest}`)).arrayBuffer());
      assert.equal((await blob(manifest.config.digest)).toString(), "{}");
      assert.ok((await blob(manifest.layers[0].digest)).equals(wasm), "layer bytes differ from annotated-policy.wasm");
    });

    test(`${target.policy}: pulled by tag and by digest, it passes its bundled cases; run registry:// answers like the file`, () => {
      const { uri, immutable } = pushed.get(target.policy)!;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-pull-"));
      try {
        const out = path.join(dir, "policy.wasm");
        const r = cli(["pull", immutable, "-o", out]);
        assert.equal(r.status, 0, r.stderr);
        assert.ok(fs.readFileSync(out).equals(fs.readFileSync(target.module)));
        const policyDir = path.join(ROOT, "policies", target.policy);
        const run = runPolicyCases(policyDir, { modulePath: out });
        assert.equal(run.error, undefined);
        assert.deepEqual(
          run.results.filter((c) => !c.ok).map((c) => c.name),
          [],
        );
        const first = loadCases(policyDir)[0];
        const data = (f: string) => path.join(policyDir, "test_data", f);
        const args = [
          "-r",
          data(first.request ?? ""),
          ...(first.settings ? ["-s", data(first.settings)] : []),
          ...(first.session
            ? ["--allow-context-aware", "--replay-host-capabilities-interactions", data(first.session)]
            : []),
        ];
        const fromRegistry = cli(["run", uri, ...args]);
        const fromFile = cli(["run", target.module, ...args]);
        assert.equal(fromRegistry.status, 0, fromRegistry.stderr);
        assert.equal(fromRegistry.stdout, fromFile.stdout);
        assert.equal(JSON.parse(fromRegistry.stdout).allowed, first.expect.allowed);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test("a second push uploads no blob (HEAD finds both) and names the same manifest", async () => {
    const target = plan[0];
    const { immutable } = pushed.get(target.policy)!;
    const again = await pushPolicy(fs.readFileSync(target.module), parseReference(pushed.get(target.policy)!.uri));
    assert.equal(again.uploaded, 0);
    assert.equal(again.immutableRef, immutable);
    const fresh = await pushPolicy(fs.readFileSync(target.module), parseReference(`${registry.host}/other/repo:v1`));
    assert.equal(fresh.uploaded, 2);
  });

  test("push -o json prints kwctl's immutable_ref object; pulling a missing tag is one line", () => {
    const target = plan[0];
    const r = cli(["push", target.module, `registry://${registry.host}/json/p:v1`, "-o", "json"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`^\\{"immutable_ref":"registry://${registry.host}/json/p@sha256:[0-9a-f]{64}"\\}\\n$`),
    );
    assertOneLineError(
      cli(["pull", `registry://${registry.host}/json/p:v2`, "-o", path.join(os.tmpdir(), "never.wasm")]),
      new RegExp(`^cachewarden: registry://${registry.host}/json/p:v2: not found in registry ${registry.host}$`),
    );
  });

  test("an unannotated module is refused unless --force", () => {
    const raw = path.join(ROOT, "policies", plan[0].policy, "policy.wasm");
    assertOneLineError(
      cli(["push", raw, `registry://${registry.host}/raw/p:v1`]),
      /has no io\.kubewarden\.metadata section; annotate it first \(cachewarden annotate\) or use --force$/,
    );
    assert.equal(cli(["push", raw, `registry://${registry.host}/raw/p:v1`, "--force"]).status, 0);
  });
});

describe("registry failures are one clear line and a non-zero exit", { skip }, () => {
  const module = plan[0]?.module ?? "";

  test("unreachable registry", async () => {
    const reg = await startRegistry();
    await reg.stop(); // the port is now closed
    assertOneLineError(
      cli(["push", module, `registry://${reg.host}/a/b:v1`]),
      new RegExp(`^cachewarden: registry ${reg.host} is unreachable at http://${reg.host}: ECONNREFUSED`),
    );
  });

  test("authentication: no credentials, a wrong password, then the right one", async () => {
    const reg = await startRegistry({ htpasswd: HTPASSWD });
    try {
      const uri = `registry://${reg.host}/auth/p:v1`;
      assertOneLineError(
        cli(["push", module, uri]),
        new RegExp(
          `^cachewarden: registry ${reg.host} requires authentication \\(HTTP 401: .*\\) and the Docker config has no credentials for it$`,
        ),
      );
      assertOneLineError(
        cli(["push", module, uri], { DOCKER_CONFIG: dockerConfig(reg.host, "cachewarden", "wrong-pass") }),
        new RegExp(`^cachewarden: registry ${reg.host} refused the credentials for auth/p \\(HTTP 401: .*\\)$`),
      );
      const good = dockerConfig(reg.host, "cachewarden", "registry-pass");
      const ok = cli(["push", module, uri], { DOCKER_CONFIG: good });
      assert.equal(ok.status, 0, ok.stderr);
      const pulled = cli(["pull", uri, "-o", path.join(good, "p.wasm")], { DOCKER_CONFIG: good });
      assert.equal(pulled.status, 0, pulled.stderr);
    } finally {
      await reg.stop();
    }
  });

  test("a registry that rejects the upload (read-only storage)", async () => {
    const reg = await startRegistry({ readonly: true });
    try {
      assertOneLineError(
        cli(["push", module, `registry://${reg.host}/ro/p:v1`]),
        new RegExp(
          `^cachewarden: registry ${reg.host} rejected the upload of blob sha256:[0-9a-f]{64} for ro/p \\(HTTP 405: .*\\)$`,
        ),
      );
    } finally {
      await reg.stop();
    }
  });

  test("a non-loopback host is HTTPS unless sources.yaml lists it as insecure", async () => {
    const reg = await startRegistry({ address: "127.0.0.2" });
    try {
      const uri = `registry://${reg.host}/src/p:v1`;
      assertOneLineError(
        cli(["push", module, uri]),
        new RegExp(
          `^cachewarden: registry ${reg.host} is unreachable at https://${reg.host}: .*; if ${reg.host.replace(/\./g, "\\.")} serves plain HTTP, list it under insecure_sources in a kwctl sources\\.yaml and pass --sources-path <file>$`,
        ),
      );
      const sources = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-sources-")), "sources.yaml");
      fs.writeFileSync(sources, `insecure_sources:\n  - "${reg.host}"\n`);
      const ok = cli(["push", module, uri, "--sources-path", sources]);
      assert.equal(ok.status, 0, ok.stderr);
    } finally {
      await reg.stop();
    }
  });
});

describe("publishing traps", { skip }, () => {
  const [first, second] = plan;

  test("a tag that holds a different module is not replaced unless --overwrite; the same module is a no-op", async () => {
    const reg = await startRegistry();
    try {
      const uri = `registry://${reg.host}/traps/p:v1`;
      assert.equal(cli(["push", first.module, uri]).status, 0);
      assert.equal(cli(["push", first.module, uri]).status, 0, "the same module again is fine");
      assertOneLineError(
        cli(["push", second.module, uri]),
        new RegExp(
          `^cachewarden: ${uri.replace(/\./g, "\\.")} already holds sha256:[0-9a-f]{64}, a different module: raise the version, or pass --overwrite to replace the tag$`,
        ),
      );
      const replaced = cli(["push", second.module, uri, "--overwrite"]);
      assert.equal(replaced.status, 0, replaced.stderr);
      const pulled = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-ow-")), "p.wasm");
      assert.equal(cli(["pull", uri, "-o", pulled]).status, 0);
      assert.deepEqual(fs.readFileSync(pulled), fs.readFileSync(second.module));
    } finally {
      await reg.stop();
    }
  });

  test("a push names its tag: no silent latest", () => {
    assertOneLineError(
      cli(["push", first.module, "registry://127.0.0.1:1/traps/p"]),
      /^cachewarden: registry:\/\/127\.0\.0\.1:1\/traps\/p: no tag; a push needs one \(e\.g\. :v0\.1\.0\), latest is not assumed$/,
    );
  });

  test("credential helpers: credHelpers for the registry, else credsStore, as docker and kwctl use them", async () => {
    const reg = await startRegistry({ htpasswd: HTPASSWD });
    try {
      const bin = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-helpers-"));
      const calls = path.join(bin, "calls.log");
      const helper = (name: string, secret: string) => {
        const file = path.join(bin, `docker-credential-${name}`);
        fs.writeFileSync(
          file,
          `#!/bin/sh\nread server\necho "${name} $1 $server" >> ${calls}\n` +
            `if [ "$server" != "${reg.host}" ]; then echo "credentials not found in native keychain"; exit 1; fi\n` +
            `printf '{"ServerURL":"%s","Username":"cachewarden","Secret":"${secret}"}' "$server"\n`,
        );
        fs.chmodSync(file, 0o755);
      };
      helper("good", "registry-pass");
      helper("store", "wrong-pass");
      const config = (doc: object) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-docker-"));
        fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify(doc));
        return { DOCKER_CONFIG: dir, PATH: `${bin}:${process.env.PATH}` };
      };
      const uri = `registry://${reg.host}/helpers/p:v1`;
      const store = cli(["push", first.module, uri], config({ auths: { [reg.host]: {} }, credsStore: "good" }));
      assert.equal(store.status, 0, store.stderr);
      // credHelpers for this registry wins over credsStore
      const both = cli(
        ["push", first.module, uri],
        config({ credsStore: "store", credHelpers: { [reg.host]: "good" } }),
      );
      assert.equal(both.status, 0, both.stderr);
      assert.deepEqual(fs.readFileSync(calls, "utf8").trim().split("\n"), [
        `good get ${reg.host}`,
        `good get ${reg.host}`,
      ]);
      assertOneLineError(
        cli(["push", first.module, uri], config({ credsStore: "store" })),
        new RegExp(`^cachewarden: registry ${reg.host} refused the credentials for helpers/p \\(HTTP 401: .*\\)$`),
      );
      assertOneLineError(
        cli(["push", first.module, uri], config({ credsStore: "absent" })),
        /names the credential helper absent, but docker-credential-absent cannot be run: ENOENT$/,
      );
    } finally {
      await reg.stop();
    }
  });
});

test("scheme: plain HTTP only for loopback names and listed insecure sources", () => {
  assert.equal(schemeFor("localhost:5000", []), "http");
  assert.equal(schemeFor("127.0.0.1", []), "http");
  assert.equal(schemeFor("127.0.0.2:5000", []), "https");
  assert.equal(schemeFor("registry.lan:5000", ["registry.lan:5000"]), "http");
  assert.equal(schemeFor("registry.lan:5001", ["registry.lan:5000"]), "https");
  assert.equal(schemeFor("ghcr.io", []), "https");
});

test("references: tag defaults to latest, digests kept, malformed ones named", () => {
  assert.deepEqual(parseReference("registry://ghcr.io/a/b"), { registry: "ghcr.io", repository: "a/b", tag: "latest" });
  assert.deepEqual(parseReference("localhost:5000/a:v1"), { registry: "localhost:5000", repository: "a", tag: "v1" });
  const digest = `sha256:${"a".repeat(64)}`;
  assert.deepEqual(parseReference(`registry://h/a@${digest}`), { registry: "h", repository: "a", digest });
  assert.throws(() => parseReference("registry://ghcr.io/Upper/case:v1"), {
    message: /^registry:\/\/ghcr.io\/Upper\/case:v1: not a registry reference/,
  });
});
