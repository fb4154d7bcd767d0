// The annotator (docs/wasm-contract.md#annotator, mirrors `kwctl annotate`): metadata.yml +
// README.md + the module's own protocol_version → exactly one `io.kubewarden.metadata` custom
// section appended to the module. Appending keeps every other byte of the module unchanged, so the
// annotated module behaves identically; policy-server reads protocolVersion from this section and
// refuses a module without it.
import * as fs from "node:fs";
import { PolicyModule } from "../host/guest";
import { showBytes } from "./gates";
import {
  assertValidMetadata,
  canonicalMetadata,
  CanonicalMetadata,
  MetadataError,
  readMetadataYaml,
  serializeMetadata,
  USAGE_ANNOTATION,
} from "./metadata";
import { encodeCustomSection, METADATA_SECTION } from "./wasm";
import { fileErrorText } from "../file-errors";

export class AnnotateError extends Error {}

export interface AnnotateInput {
  /** the unannotated module */
  wasm: Uint8Array;
  /** names the module in messages */
  wasmLabel: string;
  /** parsed metadata.yml */
  metadata: Record<string, unknown>;
  /** names metadata.yml in messages */
  metadataLabel: string;
  /** README text that becomes io.kubewarden.policy.usage (kwctl `-u`); omitted → annotation untouched */
  usage?: string;
}

export interface AnnotateResult {
  bytes: Buffer;
  metadata: CanonicalMetadata;
  /** the exact section payload */
  json: string;
}

function refuseAnnotatedModule(mod: WebAssembly.Module, label: string): void {
  const count = WebAssembly.Module.customSections(mod, METADATA_SECTION).length;
  if (count > 0)
    throw new AnnotateError(
      `${label}: already carries ${count} ${METADATA_SECTION} section(s); annotate the unannotated policy.wasm`,
    );
}

/** kwctl annotate calls the guest's protocol_version; only the exact 4 bytes `"v1"` are accepted. */
export function detectProtocolVersion(wasm: Uint8Array, label: string): "v1" {
  let mod: PolicyModule;
  try {
    mod = PolicyModule.fromBytes(wasm, label);
  } catch (e) {
    throw new AnnotateError((e as Error).message);
  }
  const r = mod.call("protocol_version", new Uint8Array(0));
  if (r.trapped) throw new AnnotateError(`${label}: protocol_version trapped: ${r.trap}`);
  if (!r.ok || !r.response) throw new AnnotateError(`${label}: protocol_version failed: ${r.error ?? "no response"}`);
  if (!r.response.equals(Buffer.from('"v1"'))) {
    throw new AnnotateError(
      `${label}: protocol_version returned ${showBytes(r.response)}, expected exactly \`"v1"\` (4 bytes)`,
    );
  }
  return "v1";
}

/** The metadata.yml document with the values the annotator owns filled in (protocolVersion, usage). */
function completeMetadata(input: AnnotateInput, protocolVersion: "v1"): Record<string, unknown> {
  const doc: Record<string, unknown> = { ...input.metadata, protocolVersion };
  if (input.usage !== undefined) {
    const ann = (input.metadata.annotations as Record<string, string> | null | undefined) ?? {};
    doc.annotations = { ...ann, [USAGE_ANNOTATION]: input.usage };
  }
  return doc;
}

/** Only waPC guests are built here; another executionMode would make policy-server run it wrongly. */
function requireWapcMode(doc: Record<string, unknown>, label: string): void {
  const mode = doc.executionMode;
  if (mode !== undefined && mode !== "kubewarden-wapc") {
    throw new MetadataError(
      `${label}: executionMode: ${JSON.stringify(mode)} is not supported; cachewarden modules are kubewarden-wapc`,
    );
  }
}

/**
 * Checks metadata.yml as the annotator will use it, without a module: the build calls this before
 * compiling so a metadata mistake costs no compile. protocolVersion is left out: like kwctl, the
 * module's own answer overwrites it.
 */
export function checkMetadataForAnnotation(metadata: Record<string, unknown>, label: string): void {
  const { protocolVersion: _overwritten, ...declared } = metadata;
  assertValidMetadata(declared, label, { requireProtocolVersion: false });
  requireWapcMode(metadata, label);
}

/** Annotates a module in memory. Throws AnnotateError / MetadataError with one-line messages. */
export function annotateModule(input: AnnotateInput): AnnotateResult {
  let mod: WebAssembly.Module;
  try {
    mod = new WebAssembly.Module(new Uint8Array(input.wasm));
  } catch (e) {
    throw new AnnotateError(`${input.wasmLabel}: not a valid WebAssembly module: ${(e as Error).message}`);
  }
  refuseAnnotatedModule(mod, input.wasmLabel);
  // The yml is checked before the guest runs, so a metadata mistake is reported as such.
  checkMetadataForAnnotation(input.metadata, input.metadataLabel);
  const doc = completeMetadata(input, detectProtocolVersion(input.wasm, input.wasmLabel));
  assertValidMetadata(doc, input.metadataLabel, { requireProtocolVersion: true });
  const metadata = canonicalMetadata(doc);
  const json = serializeMetadata(metadata);
  const bytes = Buffer.concat([
    Buffer.from(input.wasm),
    encodeCustomSection(METADATA_SECTION, Buffer.from(json, "utf8")),
  ]);
  return { bytes, metadata, json };
}

function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new AnnotateError(`${file}: cannot read ${what} (${fileErrorText(e)})`);
  }
}

function readBytes(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new AnnotateError(`${file}: cannot read module (${fileErrorText(e)})`);
  }
}

export interface AnnotateFilesOptions {
  wasmPath: string;
  metadataPath: string;
  usagePath?: string;
  outPath: string;
}

/** `cachewarden annotate`: files in, annotated file out (written only when everything passed). */
export function annotateFiles(opts: AnnotateFilesOptions): AnnotateResult {
  const result = annotateModule({
    wasm: readBytes(opts.wasmPath),
    wasmLabel: opts.wasmPath,
    metadata: readMetadataYaml(opts.metadataPath),
    metadataLabel: opts.metadataPath,
    usage: opts.usagePath !== undefined ? readText(opts.usagePath, "usage file") : undefined,
  });
  fs.writeFileSync(opts.outPath, result.bytes);
  return result;
}
