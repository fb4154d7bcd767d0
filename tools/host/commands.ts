// `cachewarden run`: kwctl run without kwctl (docs/wasm-contract.md#kwctl-run). validate_settings,
// then validate, then the AdmissionResponse JSON on stdout; exit 0 for accept and reject alike.
import * as fs from "node:fs";
import { Command, Option } from "commander";
import { HostCapabilitiesConfig } from "./capabilities";
import { ContextAwareResource } from "./metadata";
import { loadClusterObjects } from "./cluster";
import { evaluate, EvaluationOptions, EvaluationResult } from "./evaluate";
import { evaluateWithDeadline } from "./evaluate-worker";
import { PolicyModule } from "./guest";
import { loadReplaySession, replaySessionYaml } from "./replay";
import { kubeconfigProblem, LiveSource } from "./live-client";
import { loadAdmissionRequest, loadSettings, parseSettingsJson } from "./request";
import { metadataContextAwareResources, readPolicyMetadata } from "./metadata";
import type { PolicyMode } from "./response";
import { pullToBuffer } from "../oci/commands";
import { fileErrorText } from "../file-errors";

interface RunFlags {
  requestPath: string;
  settingsPath?: string;
  settingsJson?: string;
  allowContextAware?: boolean;
  allowedHostCapabilities: string[];
  replayHostCapabilitiesInteractions?: string;
  clusterObjects?: string;
  kubeconfig?: string;
  context?: string;
  recordHostCapabilitiesInteractions?: string;
  mode: PolicyMode;
  showPatch?: boolean;
  timeoutSeconds?: number;
  sourcesPath?: string;
}

/** kwctl accepts `registry://` and `file://` URIs and plain paths; https sources need kwctl itself. */
async function loadModule(uri: string, flags: RunFlags): Promise<PolicyModule> {
  if (uri.startsWith("registry://")) return PolicyModule.fromBytes(await pullToBuffer(uri, flags), uri);
  if (uri.startsWith("file://")) return PolicyModule.fromFile(uri.slice("file://".length));
  if (/^https?:\/\//.test(uri))
    throw new Error(`${uri}: only registry:// and local modules (a path or file://) can be run without kwctl`);
  return PolicyModule.fromFile(uri);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`--timeout-seconds: expected a non-negative number, got ${JSON.stringify(value)}`);
  return n;
}

function settingsFrom(flags: RunFlags): Record<string, unknown> {
  if (flags.settingsPath !== undefined && flags.settingsJson !== undefined)
    throw new Error("--settings-path and --settings-json cannot be used together");
  if (flags.settingsPath !== undefined) return loadSettings(flags.settingsPath);
  if (flags.settingsJson !== undefined) return parseSettingsJson(flags.settingsJson);
  return {};
}

/** Which flags cannot go together: one answer source, and a session is not recorded while replayed. */
function checkSources(flags: RunFlags): void {
  const exclusive = (a: string | undefined, b: string | undefined, names: string): void => {
    if (a !== undefined && b !== undefined) throw new Error(`${names} cannot be used together`);
  };
  exclusive(
    flags.replayHostCapabilitiesInteractions,
    flags.clusterObjects,
    "--replay-host-capabilities-interactions and --cluster-objects",
  );
  const kube = flags.kubeconfig ?? flags.context;
  exclusive(
    flags.replayHostCapabilitiesInteractions,
    kube,
    "--replay-host-capabilities-interactions and --kubeconfig/--context",
  );
  exclusive(flags.clusterObjects, kube, "--cluster-objects and --kubeconfig/--context");
  exclusive(
    flags.recordHostCapabilitiesInteractions,
    flags.replayHostCapabilitiesInteractions,
    "--record-host-capabilities-interactions and --replay-host-capabilities-interactions",
  );
  if (kube !== undefined && !flags.allowContextAware)
    throw new Error(
      "--kubeconfig and --context need --allow-context-aware: without it no Kubernetes resource may be read",
    );
}

/**
 * Like kwctl: no Kubernetes resource is readable unless --allow-context-aware grants the metadata's
 * list; lookups are answered by a session, a file of objects, or else the kubeconfig's cluster
 * (made only when something is granted, as kwctl builds its kube client).
 */
function capabilitiesFrom(flags: RunFlags, module: PolicyModule, out: RunOutput): HostCapabilitiesConfig {
  checkSources(flags);
  const contextAwareResources: ContextAwareResource[] = flags.allowContextAware
    ? metadataContextAwareResources(readPolicyMetadata(module.module))
    : [];
  let live: LiveSource | undefined;
  if (flags.allowContextAware && !flags.clusterObjects && !flags.replayHostCapabilitiesInteractions) {
    const source: LiveSource = {
      ...(flags.kubeconfig !== undefined ? { kubeconfig: flags.kubeconfig } : {}),
      ...(flags.context !== undefined ? { context: flags.context } : {}),
    };
    const problem = kubeconfigProblem(source);
    // an explicit --kubeconfig that cannot be read stops the run (LiveCluster says why)
    if (problem !== null && flags.kubeconfig === undefined)
      out.stderr.write(
        `warning: --allow-context-aware grants lookups, but there is no lookup source: every lookup fails (${problem}; or give --cluster-objects <file> or --replay-host-capabilities-interactions <session>)\n`,
      );
    else if (contextAwareResources.length > 0) live = source;
  }
  return {
    allowedHostCapabilities: flags.allowedHostCapabilities,
    contextAwareResources,
    ...(flags.replayHostCapabilitiesInteractions
      ? { replay: loadReplaySession(flags.replayHostCapabilitiesInteractions) }
      : {}),
    ...(flags.clusterObjects ? { cluster: loadClusterObjects(flags.clusterObjects) } : {}),
    ...(live ? { live } : {}),
  };
}

function writeSession(file: string, text: string): void {
  try {
    fs.writeFileSync(file, text);
  } catch (e) {
    throw new Error(`cannot write replay session ${file}: ${fileErrorText(e)}`);
  }
}

/** What a monitor-mode policy would have done in protect mode: `monitor: would wire (3 patch operations)`. */
export function monitorSummary(protect: EvaluationResult): string {
  const r = protect.response;
  if (!r) return "monitor: the settings are not valid";
  if (!r.allowed) return `monitor: would reject: ${r.status?.message ?? "(no message)"}`;
  const ops = protect.patchOperations ?? [];
  const skip = r.auditAnnotations?.["skip-reason"];
  const lines =
    ops.length > 0
      ? [
          `monitor: would wire (${ops.length} patch operation${ops.length === 1 ? "" : "s"}):`,
          ...ops.map((op) => `  ${JSON.stringify(op)}`),
        ]
      : ["monitor: would accept unchanged"];
  if (skip !== undefined)
    lines[0] = `monitor: would skip (${skip})${ops.length > 0 ? ` and patch (${ops.length} operation${ops.length === 1 ? "" : "s"}):` : ""}`;
  return lines.join("\n");
}

/** Where `run` writes; tests pass their own sinks to run the command in-process. */
export interface RunOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

async function runPolicy(moduleUri: string, flags: RunFlags, out: RunOutput): Promise<void> {
  const module = await loadModule(moduleUri, flags);
  const request = loadAdmissionRequest(flags.requestPath);
  const opts: EvaluationOptions = {
    settings: settingsFrom(flags),
    capabilities: capabilitiesFrom(flags, module, out),
    mode: flags.mode,
    allowedToMutate: true, // kwctl: protect mode, mutation allowed
    log: (line) => out.stderr.write(`policy log: ${line}\n`),
  };
  let result: EvaluationResult;
  if (flags.timeoutSeconds !== undefined && flags.timeoutSeconds > 0) {
    result = await evaluateWithDeadline(module, request, opts, flags.timeoutSeconds * 1000);
  } else {
    result = evaluate(module, request, { ...opts, timeBudgetMs: flags.timeoutSeconds === 0 ? null : undefined });
  }
  for (const w of result.hostWarnings) out.stderr.write(`warning: ${w}\n`);
  if (flags.recordHostCapabilitiesInteractions !== undefined)
    writeSession(flags.recordHostCapabilitiesInteractions, replaySessionYaml(result.hostCalls));
  if (!result.response) throw new Error(`Provided settings are not valid: ${result.settings.message ?? ""}`);
  out.stdout.write(JSON.stringify(result.response) + "\n");
  // policy-server in monitor mode logs what the policy decided and applies none of it; say it here
  if (flags.mode === "monitor") {
    const asProtect = evaluate(module, request, { ...opts, mode: "protect", timeBudgetMs: null });
    out.stderr.write(`${monitorSummary(asProtect)}\n`);
  }
  if (flags.showPatch && result.patchOperations) {
    out.stderr.write(
      `patch operations:\n${result.patchOperations.map((op) => `  ${JSON.stringify(op)}`).join("\n")}\n`,
    );
  }
}

export function registerRun(program: Command, out: RunOutput = process): void {
  program
    .command("run")
    .description("Evaluate a request against a policy module, like `kwctl run` (AdmissionResponse JSON on stdout)")
    .argument("<module>", "policy module: a path, file:// or registry:// URI")
    .requiredOption(
      "-r, --request-path <path>",
      "AdmissionRequest, AdmissionReview or plain manifest (JSON/YAML); - for stdin",
    )
    .option("-s, --settings-path <path>", "policy settings (JSON/YAML)")
    .option("--settings-json <json>", "policy settings as a JSON object (or null)")
    .option("--allow-context-aware", "grant the contextAwareResources listed in the module metadata")
    .option(
      "--allowed-host-capabilities <pattern>",
      "allowed host capability pattern (repeatable): *, kubernetes/*, kubernetes/get_resource",
      collect,
    )
    .option("--replay-host-capabilities-interactions <file>", "answer host capabilities from a kwctl replay session")
    .option(
      "--cluster-objects <file>",
      "answer Kubernetes lookups from a YAML list / stream of objects (cachewarden extension)",
    )
    .option(
      "--kubeconfig <file>",
      "answer Kubernetes lookups from this kubeconfig's cluster (the default source with --allow-context-aware: KUBECONFIG, then ~/.kube/config)",
    )
    .option("--context <name>", "the kubeconfig context to use (default: its current-context)")
    .option(
      "--record-host-capabilities-interactions <file>",
      "write the host capability exchanges to a kwctl replay session (for --replay-host-capabilities-interactions)",
    )
    .option("--sources-path <file>", "kwctl sources.yaml for registry:// modules (insecure_sources use plain HTTP)")
    .addOption(
      new Option("--mode <mode>", "policy mode (monitor: also say on stderr what protect mode would do)")
        .choices(["protect", "monitor"])
        .default("protect"),
    )
    .option("--show-patch", "also print the decoded JSON patch operations on stderr (stdout stays kwctl-identical)")
    .option(
      "--timeout-seconds <seconds>",
      "hard per-call deadline, enforced in a worker thread (0 = none; default: 2 s measured, not enforced)",
      parseTimeout,
    )
    .action(async (moduleUri: string, flags: RunFlags) => {
      await runPolicy(moduleUri, { ...flags, allowedHostCapabilities: flags.allowedHostCapabilities ?? ["*"] }, out);
    });
}
