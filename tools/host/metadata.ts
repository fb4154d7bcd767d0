// The policy's `io.kubewarden.metadata` custom section, read as policy-server and kwctl read it, and
// the resources its `contextAwareResources` grant.
import { METADATA_SECTION } from "../wasm/wasm";

/** A resource a policy may read from the cluster (`contextAwareResources` of its metadata). */
export interface ContextAwareResource {
  apiVersion: string;
  kind: string;
}

/** The first `io.kubewarden.metadata` section (as wasmparser reads it), or null when unannotated. */
export function readPolicyMetadata(module: WebAssembly.Module): Record<string, unknown> | null {
  const sections = WebAssembly.Module.customSections(module, METADATA_SECTION);
  if (sections.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(sections[0]).toString("utf8")) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`${METADATA_SECTION} section is not valid JSON: ${(e as Error).message}`);
  }
}

/** The metadata's `contextAwareResources` (what kwctl grants with `--allow-context-aware`). */
export function metadataContextAwareResources(metadata: Record<string, unknown> | null): ContextAwareResource[] {
  const list = metadata?.contextAwareResources;
  if (!Array.isArray(list)) return [];
  return list
    .filter((r): r is ContextAwareResource => typeof r?.apiVersion === "string" && typeof r.kind === "string")
    .map((r) => ({ apiVersion: r.apiVersion, kind: r.kind }));
}
