// A Kubewarden policy as an OCI artifact (docs/publishing.md#the-oci-artifact): config blob `{}` with
// the wasm config media type, one uncompressed wasm layer, manifest annotations from the module's
// metadata. Pulls accept only that layer media type and take the first layer, as policy-server does.
import { readPolicyMetadata } from "../host/metadata";
import {
  formatReference,
  MANIFEST_MEDIA_TYPE,
  OciReference,
  RegistryClient,
  RegistryError,
  RegistryOptions,
  sha256Digest,
} from "./registry";

export const CONFIG_MEDIA_TYPE = "application/vnd.wasm.config.v1+json";
export const LAYER_MEDIA_TYPE = "application/vnd.wasm.content.layer.v1+wasm";
const CONFIG_BLOB = Buffer.from("{}");

/**
 * Manifest annotations from the metadata annotations: multi-line values (the embedded README) are
 * dropped, the rest trimmed, and the policy source doubles as `org.opencontainers.image.source`.
 */
export function manifestAnnotations(metadata: Record<string, unknown> | null): Record<string, string> {
  const raw = (metadata?.annotations ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const key of Object.keys(raw).sort()) {
    const value = raw[key];
    if (typeof value !== "string" || value.includes("\n")) continue;
    out[key] = value.trim();
  }
  const source = out["io.kubewarden.policy.source"];
  if (source !== undefined && out["org.opencontainers.image.source"] === undefined)
    out["org.opencontainers.image.source"] = source;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function metadataOf(wasm: Buffer, source: string): Record<string, unknown> | null {
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(new Uint8Array(wasm));
  } catch (e) {
    throw new RegistryError(`${source}: not a valid WebAssembly module: ${(e as Error).message}`);
  }
  return readPolicyMetadata(module);
}

export interface PushResult {
  immutableRef: string;
  manifestDigest: string;
  uploaded: number;
}

export async function pushPolicy(
  wasm: Buffer,
  ref: OciReference,
  opts: RegistryOptions & { force?: boolean; source?: string; overwrite?: boolean } = {},
): Promise<PushResult> {
  if (ref.digest) throw new RegistryError(`${formatReference(ref)}: push needs a tag, not a digest`);
  const metadata = metadataOf(wasm, opts.source ?? "module");
  if (metadata === null && !opts.force)
    throw new RegistryError(
      `${opts.source ?? "module"} has no io.kubewarden.metadata section; annotate it first (cachewarden annotate) or use --force`,
    );
  const client = new RegistryClient(ref, opts);
  const config = await client.pushBlob(CONFIG_BLOB);
  const layer = await client.pushBlob(wasm);
  const annotations = manifestAnnotations(metadata);
  const manifest = {
    schemaVersion: 2,
    config: { mediaType: CONFIG_MEDIA_TYPE, digest: config.digest, size: config.size },
    layers: [{ mediaType: LAYER_MEDIA_TYPE, digest: layer.digest, size: layer.size }],
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
  const body = Buffer.from(JSON.stringify(manifest));
  const tag = ref.tag ?? "latest";
  // a tag is a release: pushing different content under it would change what clusters pinned to it run
  const existing = await client.tagDigest(tag);
  if (existing !== undefined && existing !== sha256Digest(body) && !opts.overwrite)
    throw new RegistryError(
      `${formatReference(ref)} already holds ${existing}, a different module: raise the version, or pass --overwrite to replace the tag`,
    );
  const manifestDigest = await client.pushManifest(body, tag);
  return {
    immutableRef: formatReference({ registry: ref.registry, repository: ref.repository, digest: manifestDigest }),
    manifestDigest,
    uploaded: Number(config.uploaded) + Number(layer.uploaded),
  };
}

interface ManifestShape {
  mediaType?: string;
  config?: { mediaType?: string };
  layers?: { mediaType?: string; digest?: string; size?: number }[];
}

export async function pullPolicy(
  ref: OciReference,
  opts: RegistryOptions = {},
): Promise<{ wasm: Buffer; manifestDigest: string }> {
  const client = new RegistryClient(ref, opts);
  const reference = ref.digest ?? ref.tag ?? "latest";
  const got = await client.getManifest(reference);
  let manifest: ManifestShape;
  try {
    manifest = JSON.parse(got.body.toString("utf8")) as ManifestShape;
  } catch {
    throw new RegistryError(`${formatReference(ref)}: the manifest is not JSON`);
  }
  const mediaType = manifest.mediaType ?? got.mediaType.split(";")[0];
  if (mediaType && mediaType !== MANIFEST_MEDIA_TYPE && !mediaType.includes("distribution.manifest.v2"))
    throw new RegistryError(`${formatReference(ref)}: an ${mediaType}, not a single policy image manifest`);
  const layer = manifest.layers?.[0];
  if (!layer || layer.mediaType !== LAYER_MEDIA_TYPE || typeof layer.digest !== "string")
    throw new RegistryError(
      `${formatReference(ref)}: not a Kubewarden policy (the first layer is ${layer?.mediaType ?? "missing"}, expected ${LAYER_MEDIA_TYPE})`,
    );
  const wasm = await client.getBlob(layer.digest, layer.size);
  return { wasm, manifestDigest: got.digest };
}
