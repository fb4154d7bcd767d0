// The validate cases of one built policy as fixtures for property runs (each injector's
// test/properties.test.ts): every case's request, settings and host answers, read the way the
// cases runner reads them, and one evaluation of any request with a fixture's settings and host.
import * as fs from "node:fs";
import * as path from "node:path";
import { CaseSpec, loadCases } from "../../tools/host/cases";
import { HostCapabilitiesConfig } from "../../tools/host/capabilities";
import { loadClusterObjects } from "../../tools/host/cluster";
import { evaluate, EvaluationResult } from "../../tools/host/evaluate";
import { PolicyModule } from "../../tools/host/guest";
import { loadReplaySession } from "../../tools/host/replay";
import { AdmissionRequest, loadAdmissionRequest, loadSettings } from "../../tools/host/request";
import { metadataContextAwareResources, readPolicyMetadata } from "../../tools/host/metadata";

export interface Fixture {
  c: CaseSpec;
  request: AdmissionRequest;
  settings: Record<string, unknown>;
  /** a fresh session cursor per evaluation: a replay is consumed as it is answered */
  capabilities: () => HostCapabilitiesConfig;
}

/** The built (annotated) module of the policy in `policyDir`, or a clear error to build it first. */
export function loadBuiltModule(policyDir: string): PolicyModule {
  const modulePath = path.join(policyDir, "annotated-policy.wasm");
  if (!fs.existsSync(modulePath))
    throw new Error(
      `${modulePath} is missing: run \`node bin/cachewarden.js build ${path.basename(policyDir)}\` first`,
    );
  return PolicyModule.fromFile(modulePath);
}

/** Every validate case of the policy in `policyDir`, granted what the module's metadata grants. */
export function caseFixtures(module: PolicyModule, policyDir: string): Fixture[] {
  const testData = path.join(policyDir, "test_data");
  const resources = metadataContextAwareResources(readPolicyMetadata(module.module));
  return loadCases(policyDir)
    .filter((c) => (c.operation ?? "validate") === "validate")
    .map((c) => ({
      c,
      request: loadAdmissionRequest(path.join(testData, c.request!)),
      settings: c.settings ? loadSettings(path.join(testData, c.settings)) : {},
      capabilities: (): HostCapabilitiesConfig => ({
        allowedHostCapabilities: c.hostCapabilities ?? ["*"],
        contextAwareResources: c.contextAware === false ? [] : resources,
        ...(c.session ? { replay: loadReplaySession(path.join(testData, c.session)) } : {}),
        ...(c.cluster ? { cluster: loadClusterObjects(path.join(testData, c.cluster)) } : {}),
      }),
    }));
}

/** One evaluation of `request` with the fixture's settings and host, as a ClusterAdmissionPolicy. */
export function evaluateFixture(module: PolicyModule, f: Fixture, request: AdmissionRequest): EvaluationResult {
  return evaluate(module, request, {
    settings: f.settings,
    capabilities: f.capabilities(),
    timeBudgetMs: null,
    allowedToMutate: true,
    policyId: `clusterwide-${path.basename(path.dirname(module.source))}`,
  });
}

/** A seeded pseudo-random `n → [0, n)`, the same sequence on every run. */
export function seededRandom(seed: number): (n: number) => number {
  return (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
}

const REPLACEMENTS: unknown[] = [null, 0, 1.5, "", "x", true, [], {}, [1], { name: 1 }, ["a", 2]];

/** Six damaged copies of `object`: at a random path (of the first 400, at most 8 deep) a value of
 *  another JSON type, or a deleted member; each with the path it changed. */
export function damagedVariants(object: unknown, rand: (n: number) => number): { object: unknown; path: string }[] {
  if (object === undefined || object === null || typeof object !== "object") return [];
  type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
  const paths: (string | number)[][] = [];
  const walk = (v: J, p: (string | number)[]): void => {
    if (paths.length > 400 || p.length > 8) return;
    paths.push(p);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
    else if (v && typeof v === "object") for (const k of Object.keys(v)) walk(v[k], [...p, k]);
  };
  walk(object, []);
  const out: { object: unknown; path: string }[] = [];
  for (let n = 0; n < 6; n++) {
    const p = paths[rand(paths.length)];
    if (p.length === 0) continue;
    const copy = JSON.parse(JSON.stringify(object)) as J;
    let parent = copy;
    for (const k of p.slice(0, -1)) parent = parent[k];
    const last = p[p.length - 1];
    if (rand(3) === 0 && !Array.isArray(parent)) delete parent[last];
    else parent[last] = JSON.parse(JSON.stringify(REPLACEMENTS[rand(REPLACEMENTS.length)]));
    out.push({ object: copy, path: p.join(".") });
  }
  return out;
}

/** One evaluation of a policy's recorded case: `test_data/request_<name>.json` answered from
 *  `test_data/session_<name>.yml` (kwctl's replay session), with `settings`, as a
 *  ClusterAdmissionPolicy with the grants of the module's metadata. */
export function evaluateRecorded(
  module: PolicyModule,
  policyDir: string,
  name: string,
  settings: Record<string, unknown> = {},
): { request: AdmissionRequest; result: EvaluationResult } {
  const data = (f: string): string => path.join(policyDir, "test_data", f);
  const request = loadAdmissionRequest(data(`request_${name}.json`));
  const result = evaluate(module, request, {
    settings,
    timeBudgetMs: null,
    allowedToMutate: true,
    capabilities: {
      contextAwareResources: metadataContextAwareResources(readPolicyMetadata(module.module)),
      replay: loadReplaySession(data(`session_${name}.yml`)),
    },
  });
  return { request, result };
}
