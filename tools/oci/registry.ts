// A small client of the OCI distribution API, enough to push and pull a Kubewarden policy: blob
// existence checks (HEAD), monolithic blob upload (POST then PUT ?digest=), manifest PUT and GET,
// blob GET with digest verification. Authentication follows the registry's 401 challenge: Basic, or
// a Bearer token fetched from the realm it names, with credentials from the Docker config file.
// Every failure is a RegistryError whose message is one line fit for the CLI.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as yaml from "js-yaml";

export class RegistryError extends Error {}

export interface OciReference {
  /** host or host:port, as written by the user */
  registry: string;
  repository: string;
  tag?: string;
  digest?: string;
}

const REFERENCE =
  /^([^/]+)\/([a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$/;

/**
 * `registry://host[:port]/repo[:tag][@sha256:…]` (the scheme is optional); the tag defaults to
 * `latest` for a pull, as kwctl's. A push must name its tag (`requireTag`): a release pushed to
 * `latest` by accident is a release nobody can pin.
 */
export function parseReference(uri: string, opts: { requireTag?: boolean } = {}): OciReference {
  const rest = uri.startsWith("registry://") ? uri.slice("registry://".length) : uri;
  const m = REFERENCE.exec(rest);
  if (!m) throw new RegistryError(`${uri}: not a registry reference (expected registry://host[:port]/repository:tag)`);
  const [, registry, repository, tag, digest] = m;
  if (opts.requireTag && tag === undefined && digest === undefined)
    throw new RegistryError(`${uri}: no tag; a push needs one (e.g. :v0.1.0), latest is not assumed`);
  return { registry, repository, ...(digest ? { digest } : { tag: tag ?? "latest" }) };
}

export function formatReference(ref: OciReference): string {
  const suffix = ref.digest ? `@${ref.digest}` : `:${ref.tag ?? "latest"}`;
  return `registry://${ref.registry}/${ref.repository}${suffix}`;
}

export const sha256Digest = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export interface Credentials {
  username: string;
  password: string;
}

/** Where the Docker config lives: `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`. */
export function dockerConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.DOCKER_CONFIG ?? path.join(os.homedir(), ".docker");
  return path.join(dir, "config.json");
}

interface DockerConfig {
  auths?: Record<string, { auth?: string; username?: string; password?: string }>;
  credsStore?: string;
  credHelpers?: Record<string, string>;
}

/**
 * Credentials from a Docker credential helper (`docker-credential-<name> get`, the registry on
 * stdin, `{"Username","Secret"}` on stdout), as docker and kwctl run it; undefined when the helper
 * has none for the registry.
 */
export function helperCredentials(helper: string, registry: string, configFile: string): Credentials | undefined {
  const program = `docker-credential-${helper}`;
  const r = spawnSync(program, ["get"], { input: registry, encoding: "utf8", timeout: 30_000 });
  if (r.error)
    throw new RegistryError(
      `${configFile} names the credential helper ${helper}, but ${program} cannot be run: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}`,
    );
  if (r.status !== 0) {
    const said = `${r.stdout}${r.stderr}`.trim();
    if (/credentials not found/i.test(said)) return undefined;
    throw new RegistryError(`${program} get failed for ${registry}: ${said.split("\n")[0] || `exit ${r.status}`}`);
  }
  let out: { Username?: unknown; Secret?: unknown };
  try {
    out = JSON.parse(r.stdout) as typeof out;
  } catch {
    throw new RegistryError(`${program} get answered for ${registry} with something that is not JSON`);
  }
  if (typeof out.Username !== "string" || typeof out.Secret !== "string")
    throw new RegistryError(`${program} get answered for ${registry} without Username and Secret`);
  return { username: out.Username, password: out.Secret };
}

/**
 * Credentials for a registry host from the Docker config, in docker's order: the registry's
 * `credHelpers` entry, else the `credsStore` helper, then the `auths` entry (keys may carry a scheme
 * or a path, as `docker login` writes them).
 */
export function credentialsFor(registry: string, configFile = dockerConfigPath()): Credentials | undefined {
  if (!fs.existsSync(configFile)) return undefined;
  let config: DockerConfig;
  try {
    config = JSON.parse(fs.readFileSync(configFile, "utf8")) as typeof config;
  } catch (e) {
    throw new RegistryError(`${configFile}: not valid JSON: ${(e as Error).message}`);
  }
  const helper = config.credHelpers?.[registry] ?? config.credsStore;
  if (helper) {
    const found = helperCredentials(helper, registry, configFile);
    if (found) return found;
  }
  for (const [key, entry] of Object.entries(config.auths ?? {})) {
    const host = key.replace(/^[a-z]+:\/\//, "").replace(/\/.*$/, "");
    if (host !== registry) continue;
    if (entry.auth) {
      const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon < 0)
        throw new RegistryError(`${configFile}: the auth entry for ${registry} is not base64 of user:password`);
      return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    }
    if (entry.username !== undefined && entry.password !== undefined)
      return { username: entry.username, password: entry.password };
  }
  return undefined;
}

/** kwctl's sources file (`insecure_sources: [host[:port], …]`); other keys are ignored here. */
export function loadInsecureSources(file: string): string[] {
  let doc: unknown;
  try {
    doc = yaml.load(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new RegistryError(`${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const list = (doc as { insecure_sources?: unknown } | null)?.insecure_sources ?? [];
  if (!Array.isArray(list) || list.some((h) => typeof h !== "string"))
    throw new RegistryError(`${file}: insecure_sources must be a list of host[:port] strings`);
  return list as string[];
}

/** The default sources file kwctl reads, when it exists. */
export function defaultSourcesPath(): string | undefined {
  const base = process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), ".config");
  const file = path.join(base, "kubewarden", "sources.yaml");
  return fs.existsSync(file) ? file : undefined;
}

/** Plain HTTP only for loopback registries and the listed insecure sources; HTTPS for everything else. */
export function schemeFor(registry: string, insecureSources: readonly string[]): "http" | "https" {
  const host = registry.replace(/:\d+$/, "");
  if (host === "localhost" || host === "127.0.0.1" || host === "[::1]") return "http";
  return insecureSources.includes(registry) || insecureSources.includes(host) ? "http" : "https";
}

export interface RegistryOptions {
  insecureSources?: readonly string[];
  /** explicit credentials; otherwise the Docker config is read */
  credentials?: Credentials | null;
  dockerConfig?: string;
  timeoutMs?: number;
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

function parseChallenge(header: string | null): Challenge | undefined {
  if (!header) return undefined;
  const m = /^(\w+)\s*(.*)$/.exec(header.trim());
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (const p of m[2].matchAll(/(\w+)="([^"]*)"/g)) params[p[1].toLowerCase()] = p[2];
  return { scheme: m[1].toLowerCase(), params };
}

/** The first message of an OCI error body (`{"errors":[{"code","message"}]}`), else the status text. */
async function errorDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
    const e = body.errors?.[0];
    if (e) return [e.code, e.message].filter(Boolean).join(": ");
  } catch {
    // not JSON: fall through to the raw text
  }
  const line = text.trim().split("\n")[0];
  return line || res.statusText || "no details";
}

function networkMessage(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return (err as Error).message ?? String(err);
}

/** A TLS handshake with a server that speaks plain HTTP fails with one of these. */
const PLAIN_HTTP_SIGNS = /EPROTO|ERR_SSL_WRONG_VERSION_NUMBER|wrong version number|packet length too long|ECONNRESET/;

/**
 * Why a registry could not be reached, on one line; a TLS failure (what a plain-HTTP registry gives
 * an HTTPS client) names the fix: list it as insecure, as kwctl asks.
 */
function unreachable(registry: string, base: string, err: unknown): string {
  const message = networkMessage(err);
  const head = `registry ${registry} is unreachable at ${base}: `;
  if (!base.startsWith("https:") || !PLAIN_HTTP_SIGNS.test(message)) return head + message.split("\n")[0];
  const code = (err as { cause?: { code?: string } }).cause?.code ?? "TLS error";
  return `${head}${code} (the TLS handshake failed); if ${registry} serves plain HTTP, list it under insecure_sources in a kwctl sources.yaml and pass --sources-path <file>`;
}

export const MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";
const DOCKER_MANIFEST_MEDIA_TYPE = "application/vnd.docker.distribution.manifest.v2+json";

export class RegistryClient {
  readonly base: string;
  private readonly credentials: Credentials | undefined;
  private authorization: string | undefined;

  constructor(
    readonly ref: OciReference,
    private readonly opts: RegistryOptions = {},
  ) {
    this.base = `${schemeFor(ref.registry, opts.insecureSources ?? [])}://${ref.registry}`;
    this.credentials =
      opts.credentials === null ? undefined : (opts.credentials ?? credentialsFor(ref.registry, opts.dockerConfig));
  }

  /** A request that answers the registry's auth challenge once; a second 401 means refused credentials. */
  private async send(method: string, url: string, init: { headers?: Record<string, string>; body?: Buffer } = {}) {
    const attempt = async (): Promise<Response> => {
      const headers: Record<string, string> = { ...init.headers };
      if (this.authorization) headers.authorization = this.authorization;
      try {
        return await fetch(url, {
          method,
          headers,
          body: init.body ? new Uint8Array(init.body) : undefined,
          redirect: "follow",
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
        });
      } catch (e) {
        if ((e as Error).name === "TimeoutError")
          throw new RegistryError(`registry ${this.ref.registry} did not answer ${method} within the timeout`);
        throw new RegistryError(unreachable(this.ref.registry, this.base, e));
      }
    };
    let res = await attempt();
    if (res.status !== 401) return res;
    const challenge = parseChallenge(res.headers.get("www-authenticate"));
    const detail = await errorDetail(res);
    if (!this.credentials && challenge?.scheme !== "bearer")
      throw new RegistryError(
        `registry ${this.ref.registry} requires authentication (HTTP 401: ${detail}) and the Docker config has no credentials for it`,
      );
    const hadAuthorization = this.authorization !== undefined;
    this.authorization = await this.authorize(challenge);
    if (hadAuthorization && challenge?.scheme === "basic") throw this.refused(detail);
    res = await attempt();
    if (res.status === 401) throw this.refused(await errorDetail(res));
    return res;
  }

  private refused(detail: string): RegistryError {
    return new RegistryError(
      `registry ${this.ref.registry} refused the credentials for ${this.ref.repository} (HTTP 401: ${detail})`,
    );
  }

  private basic(): string {
    const c = this.credentials!;
    return `Basic ${Buffer.from(`${c.username}:${c.password}`).toString("base64")}`;
  }

  private async authorize(challenge: Challenge | undefined): Promise<string> {
    if (!challenge || challenge.scheme === "basic") return this.basic();
    if (challenge.scheme !== "bearer" || !challenge.params.realm)
      throw new RegistryError(
        `registry ${this.ref.registry} asks for an unsupported authentication: ${challenge.scheme}`,
      );
    const url = new URL(challenge.params.realm);
    if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
    url.searchParams.set("scope", challenge.params.scope ?? `repository:${this.ref.repository}:pull,push`);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: this.credentials ? { authorization: this.basic() } : {},
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (e) {
      throw new RegistryError(`token service ${url.origin} is unreachable: ${networkMessage(e)}`);
    }
    if (res.status === 401 || res.status === 403) throw this.refused(await errorDetail(res));
    if (!res.ok)
      throw new RegistryError(`token service ${url.origin} answered HTTP ${res.status}: ${await errorDetail(res)}`);
    const body = (await res.json().catch(() => ({}))) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new RegistryError(`token service ${url.origin} returned no token`);
    return `Bearer ${token}`;
  }

  private url(kind: "blobs" | "manifests", reference: string): string {
    return `${this.base}/v2/${this.ref.repository}/${kind}/${reference}`;
  }

  async hasBlob(digest: string): Promise<boolean> {
    const res = await this.send("HEAD", this.url("blobs", digest));
    if (res.status === 200) return true;
    if (res.status === 404) return false;
    throw new RegistryError(`registry ${this.ref.registry} answered HTTP ${res.status} to a check of blob ${digest}`);
  }

  /** Monolithic upload: open a session, then PUT the whole blob with its digest. Skips existing blobs. */
  async pushBlob(bytes: Buffer): Promise<{ digest: string; size: number; uploaded: boolean }> {
    const digest = sha256Digest(bytes);
    if (await this.hasBlob(digest)) return { digest, size: bytes.length, uploaded: false };
    const start = await this.send("POST", `${this.base}/v2/${this.ref.repository}/blobs/uploads/`);
    if (start.status !== 202) throw await this.rejected(`the upload of blob ${digest}`, start);
    const location = start.headers.get("location");
    if (!location) throw new RegistryError(`registry ${this.ref.registry} opened an upload without a Location`);
    const target = new URL(location, this.base);
    target.searchParams.set("digest", digest);
    const put = await this.send("PUT", target.toString(), {
      headers: { "content-type": "application/octet-stream", "content-length": String(bytes.length) },
      body: bytes,
    });
    if (put.status !== 201) throw await this.rejected(`the upload of blob ${digest}`, put);
    return { digest, size: bytes.length, uploaded: true };
  }

  async pushManifest(body: Buffer, reference: string): Promise<string> {
    const digest = sha256Digest(body);
    const res = await this.send("PUT", this.url("manifests", reference), {
      headers: { "content-type": MANIFEST_MEDIA_TYPE },
      body,
    });
    if (res.status !== 201) throw await this.rejected(`the manifest ${reference}`, res);
    const echoed = res.headers.get("docker-content-digest");
    if (echoed && echoed !== digest)
      throw new RegistryError(`registry ${this.ref.registry} stored the manifest as ${echoed}, expected ${digest}`);
    return digest;
  }

  /** The digest a tag points at now, or undefined when the registry has no such tag. */
  async tagDigest(tag: string): Promise<string | undefined> {
    const res = await this.send("HEAD", this.url("manifests", tag), {
      headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${DOCKER_MANIFEST_MEDIA_TYPE}` },
    });
    if (res.status === 404) return undefined;
    const digest = res.headers.get("docker-content-digest");
    if (res.ok && digest) return digest;
    if (res.ok) return (await this.getManifest(tag)).digest;
    throw new RegistryError(`registry ${this.ref.registry} answered HTTP ${res.status} to a check of tag ${tag}`);
  }

  async getManifest(reference: string): Promise<{ body: Buffer; digest: string; mediaType: string }> {
    const res = await this.send("GET", this.url("manifests", reference), {
      headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${DOCKER_MANIFEST_MEDIA_TYPE}` },
    });
    if (res.status === 404)
      throw new RegistryError(`${formatReference(this.ref)}: not found in registry ${this.ref.registry}`);
    if (!res.ok) throw await this.rejected(`the manifest ${reference}`, res, "fetch");
    const body = Buffer.from(await res.arrayBuffer());
    const digest = sha256Digest(body);
    if (reference.startsWith("sha256:") && digest !== reference)
      throw new RegistryError(`manifest ${reference} arrived with digest ${digest}`);
    return { body, digest, mediaType: res.headers.get("content-type") ?? "" };
  }

  async getBlob(digest: string, size?: number): Promise<Buffer> {
    const res = await this.send("GET", this.url("blobs", digest));
    if (!res.ok) throw await this.rejected(`blob ${digest}`, res, "fetch");
    const bytes = Buffer.from(await res.arrayBuffer());
    if (sha256Digest(bytes) !== digest) throw new RegistryError(`blob ${digest} arrived with a different digest`);
    if (size !== undefined && bytes.length !== size)
      throw new RegistryError(`blob ${digest} is ${bytes.length} bytes, the manifest says ${size}`);
    return bytes;
  }

  private async rejected(what: string, res: Response, verb = "accept"): Promise<RegistryError> {
    const how = verb === "accept" ? "rejected" : "could not serve";
    return new RegistryError(
      `registry ${this.ref.registry} ${how} ${what} for ${this.ref.repository} (HTTP ${res.status}: ${await errorDetail(res)})`,
    );
  }
}
