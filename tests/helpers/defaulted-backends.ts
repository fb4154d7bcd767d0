// Every CacheBackend the suite holds, and each one run through cachebackend-defaulter: the objects
// of cachebackend-validator's cases (object and oldObject), of cachebackend-defaulter's cases and
// of hicache-injector's test_data (cluster objects and inline settings backends).
//
// FOR THE SUITE'S REAL API SERVER (issue 32): `defaultedCacheBackends()` is the list to send. For
// each entry, create `before` and `after` with dry-run against the CacheBackend CRD: wherever the
// server admits `before`, it must admit `after` too, after its own schema defaulting (the defaulter
// must never make a backend the schema refuses). tests/defaulter-agreement.test.ts holds the
// skipped test that does it.
import * as fs from "node:fs";
import * as path from "node:path";
import { CaseSpec, loadCases } from "../../tools/host/cases";
import { loadClusterObjects } from "../../tools/host/cluster";
import { evaluate } from "../../tools/host/evaluate";
import { PolicyModule } from "../../tools/host/guest";
import { AdmissionRequest, loadAdmissionRequest, loadSettings, requestFromManifest } from "../../tools/host/request";
import { serdeJson } from "../../tools/host/serde";

export const ROOT = path.resolve(__dirname, "..", "..");
export const POLICIES = path.join(ROOT, "policies");
export const DEFAULTER_WASM = path.join(POLICIES, "cachebackend-defaulter", "annotated-policy.wasm");
export const VALIDATOR_WASM = path.join(POLICIES, "cachebackend-validator", "annotated-policy.wasm");

type J = Record<string, unknown>;
const isObject = (v: unknown): v is J => typeof v === "object" && v !== null && !Array.isArray(v);

/** A validate case of a policy whose request is a CacheBackend, with that request. */
export interface BackendCase {
  policy: string;
  c: CaseSpec;
  request: AdmissionRequest;
}

/** The validate cases of `policy` whose request is about a CacheBackend. */
export function cacheBackendCases(policy: string): BackendCase[] {
  const dir = path.join(POLICIES, policy);
  return loadCases(dir)
    .filter((c) => (c.operation ?? "validate") === "validate" && c.request !== undefined)
    .map((c) => ({ policy, c, request: loadAdmissionRequest(path.join(dir, "test_data", c.request!)) }))
    .filter((b) => (b.request.kind as { kind?: string } | undefined)?.kind === "CacheBackend");
}

/** A CacheBackend of the suite, named by where it comes from. */
export interface SuiteBackend {
  source: string;
  object: J;
}

/** hicache-injector's CacheBackends: its cluster objects and its inline settings backends. */
export function injectorCacheBackends(): SuiteBackend[] {
  const data = path.join(POLICIES, "hicache-injector", "test_data");
  const out: SuiteBackend[] = [];
  for (const file of fs.readdirSync(data).sort()) {
    const full = path.join(data, file);
    if (file.startsWith("cluster_")) {
      for (const obj of loadClusterObjects(full))
        if (obj.kind === "CacheBackend")
          out.push({ source: `hicache-injector ${file} ${String(obj.metadata?.name)}`, object: obj as J });
    } else if (file.startsWith("settings_")) {
      const backends = loadSettings(full).backends;
      if (!Array.isArray(backends)) continue;
      backends.forEach((b, i) => {
        if (isObject(b)) out.push({ source: `hicache-injector ${file} backends[${i}]`, object: b });
      });
    }
  }
  return out;
}

/** Every distinct CacheBackend object of the three policies' test_data, in a stable order. */
export function suiteCacheBackends(): SuiteBackend[] {
  const seen = new Set<string>();
  const out: SuiteBackend[] = [];
  const add = (b: SuiteBackend): void => {
    const text = serdeJson(b.object);
    if (seen.has(text)) return;
    seen.add(text);
    out.push(b);
  };
  for (const policy of ["cachebackend-validator", "cachebackend-defaulter"])
    for (const { c, request } of cacheBackendCases(policy))
      for (const key of ["object", "oldObject"]) {
        const object = (request as J)[key];
        if (isObject(object)) add({ source: `${policy} ${c.name}.${key}`, object });
      }
  for (const b of injectorCacheBackends()) add(b);
  return out;
}

/** What the defaulter did with one request: the object after it (the same when unpatched). */
export interface Defaulted {
  object: unknown;
  patched: boolean;
  warnings: string[];
}

/** One evaluation of cachebackend-defaulter, as policy-server runs it (fresh instance, mutating). */
export function runDefaulter(defaulter: PolicyModule, request: AdmissionRequest): Defaulted {
  const r = evaluate(defaulter, request, { timeBudgetMs: null, allowedToMutate: true });
  if (r.trap !== undefined) throw new Error(`cachebackend-defaulter trapped: ${r.trap}`);
  if (!r.response) throw new Error(`cachebackend-defaulter gave no response: ${r.settings.message}`);
  if (!r.response.allowed) throw new Error(`cachebackend-defaulter rejected: ${JSON.stringify(r.response.status)}`);
  const patched = (r.patchOperations?.length ?? 0) > 0;
  return { object: patched ? r.mutatedObject : request.object, patched, warnings: r.response.warnings ?? [] };
}

/** A CacheBackend before and after the defaulter (CREATE). */
export interface DefaultedBackend {
  source: string;
  before: J;
  after: J;
  warnings: string[];
}

/**
 * THE LIST FOR THE REAL API SERVER: every CacheBackend of the suite (`suiteCacheBackends`) with
 * `metadata.name` and `namespace` made valid, and the object cachebackend-defaulter makes of it on
 * CREATE. Objects the defaulter leaves unchanged are included (`before` equals `after`).
 */
export function defaultedCacheBackends(defaulter = PolicyModule.fromFile(DEFAULTER_WASM)): DefaultedBackend[] {
  return suiteCacheBackends().map(({ source, object }) => {
    const before = named(object);
    const d = runDefaulter(defaulter, requestFromManifest(before));
    return { source, before, after: d.object as J, warnings: d.warnings };
  });
}

/** The namespace a fixture without one is given. */
export const DEFAULT_NAMESPACE = "inference";
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * A fixture as a complete CacheBackend: apiVersion and kind set, a DNS name (a lookup answer needs
 * a string name, and settings check names), a string namespace, no uid of another type. Only the
 * top level and metadata are copied: the spec stays the parsed object, so its numbers keep their
 * text (`64.0` stays `64.0`).
 */
export function named(raw: J): J {
  const metadata: J = isObject(raw.metadata) ? { ...raw.metadata } : {};
  if (typeof metadata.name !== "string" || !DNS_SUBDOMAIN.test(metadata.name)) metadata.name = "backend";
  if (typeof metadata.namespace !== "string" || metadata.namespace === "") metadata.namespace = DEFAULT_NAMESPACE;
  if (metadata.uid !== undefined && typeof metadata.uid !== "string") delete metadata.uid;
  return { ...raw, apiVersion: "inferencecache.io/v1alpha1", kind: "CacheBackend", metadata };
}
