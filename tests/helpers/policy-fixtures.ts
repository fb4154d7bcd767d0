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
import {
  AdmissionRequest,
  loadAdmissionRequest,
  loadSettings,
  metadataContextAwareResources,
  readPolicyMetadata,
} from "../../tools/host/request";

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
