// What the benchmark and the fuzzer run on: every policy under policies/<name>/ that has been built,
// its metadata (mutating or not, context-aware resources) and the validate cases of its
// test_data/cases.yml (docs/test-data.md), each turned into the exact payload bytes the guest gets
// and the host-capability configuration the e2e runner uses.
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import type { HostCapabilitiesConfig } from "../host/capabilities";
import type { ContextAwareResource } from "../host/metadata";
import { loadClusterObjects } from "../host/cluster";
import { casesFile, loadCases } from "../host/cases";
import { loadReplaySession } from "../host/replay";
import { AdmissionRequest, loadSettings, toAdmissionRequest } from "../host/request";
import { parseJsonOrYaml, readInput } from "../host/documents";
import { parseJsonNodes } from "../host/serde";
import { ROOT } from "./guests";

export interface PolicyTarget {
  name: string;
  dir: string;
  /** the module to evaluate: annotated-policy.wasm when built, else policy.wasm */
  wasm: string;
  policyWasm?: string;
  annotatedWasm?: string;
  /** metadata.yml `mutating` */
  mutating: boolean;
  contextAwareResources: ContextAwareResource[];
}

export interface ValidateCase {
  name: string;
  description: string;
  /** `{"request":…,"settings":…}` exactly as the guest receives it */
  payload: Buffer;
  request: AdmissionRequest;
  settings: Record<string, unknown>;
  /** per-evaluation host-capability configuration (replay session / cluster objects / gating) */
  host: HostCapabilitiesConfig;
  expectMutated?: boolean;
}

export const POLICIES_DIR = path.join(ROOT, "policies");

function readYaml(file: string): unknown {
  return yaml.load(fs.readFileSync(file, "utf8"));
}

/** All policy directories (those with a metadata.yml), sorted by name. */
export function listPolicyNames(): string[] {
  if (!fs.existsSync(POLICIES_DIR)) return [];
  return fs
    .readdirSync(POLICIES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(POLICIES_DIR, d.name, "metadata.yml")))
    .map((d) => d.name)
    .sort();
}

/**
 * The built policies among `names` (default: all). A policy without a module is reported in
 * `unbuilt`; an unknown name throws.
 */
export function discoverPolicies(names: string[] = []): { targets: PolicyTarget[]; unbuilt: string[] } {
  const all = listPolicyNames();
  for (const n of names)
    if (!all.includes(n)) throw new Error(`unknown policy ${n} (known: ${all.join(", ") || "none"})`);
  const targets: PolicyTarget[] = [];
  const unbuilt: string[] = [];
  for (const name of names.length > 0 ? names : all) {
    const dir = path.join(POLICIES_DIR, name);
    const policyWasm = path.join(dir, "policy.wasm");
    const annotatedWasm = path.join(dir, "annotated-policy.wasm");
    const hasPolicy = fs.existsSync(policyWasm);
    const hasAnnotated = fs.existsSync(annotatedWasm);
    if (!hasPolicy && !hasAnnotated) {
      unbuilt.push(name);
      continue;
    }
    const metadata = (readYaml(path.join(dir, "metadata.yml")) ?? {}) as Record<string, unknown>;
    const car = Array.isArray(metadata.contextAwareResources)
      ? (metadata.contextAwareResources as ContextAwareResource[])
      : [];
    targets.push({
      name,
      dir,
      wasm: hasAnnotated ? annotatedWasm : policyWasm,
      policyWasm: hasPolicy ? policyWasm : undefined,
      annotatedWasm: hasAnnotated ? annotatedWasm : undefined,
      mutating: metadata.mutating === true,
      contextAwareResources: car.filter((r) => typeof r?.apiVersion === "string" && typeof r?.kind === "string"),
    });
  }
  return { targets, unbuilt };
}

/** A policy's metadata and cases with an explicit module (e.g. one compiled elsewhere). */
export function policyWithModule(name: string, wasm: string): PolicyTarget {
  const dir = path.join(POLICIES_DIR, name);
  if (!fs.existsSync(path.join(dir, "metadata.yml"))) throw new Error(`unknown policy ${name}`);
  const metadata = (readYaml(path.join(dir, "metadata.yml")) ?? {}) as Record<string, unknown>;
  const car = Array.isArray(metadata.contextAwareResources)
    ? (metadata.contextAwareResources as ContextAwareResource[])
    : [];
  return {
    name,
    dir,
    wasm,
    mutating: metadata.mutating === true,
    contextAwareResources: car.filter((r) => typeof r?.apiVersion === "string" && typeof r?.kind === "string"),
  };
}

/** Removes insignificant whitespace outside strings; number text and escapes stay byte-exact. */
export function compactJsonText(text: string): string {
  let out = "";
  let inString = false;
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      out += text.slice(runStart, i);
      runStart = i + 1;
    }
  }
  return out + text.slice(runStart);
}

/**
 * The request's JSON text as the guest should see it. A bare AdmissionRequest (or an AdmissionReview's
 * `request`) in a JSON file keeps its own text, compacted like serde's output, so number spellings
 * and escapes the case depends on survive; anything else (YAML, a manifest) is re-serialized.
 */
function requestText(raw: string, request: AdmissionRequest): string {
  try {
    const root = parseJsonNodes(raw);
    if (root.kind === "object") {
      const kind = root.entries.find((e) => e.key === "kind");
      const hasNull = (n: typeof root) => n.kind === "object" && n.entries.some((e) => e.value.kind === "null");
      let node = root;
      if (kind && kind.value.kind === "string" && kind.value.value === "AdmissionReview") {
        const inner = root.entries.filter((e) => e.key === "request").pop();
        if (inner && inner.value.kind === "object") node = inner.value;
      }
      const isRequest =
        node.kind === "object" &&
        node.entries.some((e) => e.key === "uid") &&
        node.entries.some((e) => e.key === "operation");
      // null optionals are dropped by kwctl (serde omits them): only then must the text be rebuilt
      if (isRequest && !hasNull(node)) return compactJsonText(raw.slice(node.start, node.end));
    }
  } catch {
    /* YAML or not JSON: fall through */
  }
  return JSON.stringify(request);
}

function settingsText(raw: string | undefined, settings: Record<string, unknown>): string {
  if (raw !== undefined) {
    try {
      const node = parseJsonNodes(raw);
      if (node.kind === "object") return compactJsonText(raw.slice(node.start, node.end));
    } catch {
      /* YAML: fall through */
    }
  }
  return JSON.stringify(settings);
}

/**
 * The `validate` cases of a policy's test_data/cases.yml, read with the e2e runner's strict parser
 * (tools/host/cases.ts), so the benchmark and the fuzzer accept exactly what the tests accept.
 */
export function loadValidateCases(target: PolicyTarget): ValidateCase[] {
  const dataDir = path.join(target.dir, "test_data");
  if (!fs.existsSync(casesFile(target.dir))) return [];
  const out: ValidateCase[] = [];
  for (const c of loadCases(target.dir)) {
    if ((c.operation ?? "validate") !== "validate" || c.request === undefined) continue;
    const requestFile = path.join(dataDir, c.request);
    const rawRequest = readInput(requestFile, "request");
    const request = toAdmissionRequest(parseJsonOrYaml(rawRequest, requestFile), requestFile);
    let settings: Record<string, unknown> = {};
    let rawSettings: string | undefined;
    if (c.settings !== undefined) {
      const settingsFile = path.join(dataDir, c.settings);
      settings = loadSettings(settingsFile);
      rawSettings = readInput(settingsFile, "settings");
    }
    const host: HostCapabilitiesConfig = {
      allowedHostCapabilities: c.hostCapabilities ?? ["*"],
      contextAwareResources: c.contextAware === false ? [] : target.contextAwareResources,
    };
    if (c.session !== undefined) host.replay = loadReplaySession(path.join(dataDir, c.session));
    if (c.cluster !== undefined) host.cluster = loadClusterObjects(path.join(dataDir, c.cluster));
    const payload = Buffer.from(
      `{"request":${requestText(rawRequest, request)},"settings":${settingsText(rawSettings, settings)}}`,
      "utf8",
    );
    out.push({
      name: c.name,
      description: c.description ?? "",
      payload,
      request,
      settings,
      host,
      expectMutated: c.expect.mutated,
    });
  }
  return out;
}
