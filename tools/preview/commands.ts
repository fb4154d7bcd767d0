// `cachewarden preview <dump...>`: what the policies would do to the objects of a cluster dump
// (tools/preview/run.ts), as a table, markdown or JSON on stdout; progress on stderr.
import { Command, InvalidArgumentError, Option } from "commander";
import { readPodSecurityConfig } from "../podsecurity/namespace";
import { renderJson, renderMarkdown, renderText } from "./report";
import { OUTCOMES, Outcome, preview, PreviewOptions, PreviewReport } from "./run";

export interface PreviewOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

interface PreviewFlags {
  policies?: string;
  modules?: string;
  policyServerNamespace?: string;
  podSecurityConfig?: string;
  output: "table" | "json" | "markdown";
  showPatch?: boolean;
  failOn?: FailOn[];
  workers?: number;
  kubeconfig?: string | true;
  context?: string;
  namespace?: string[];
  saveDump?: string;
}

type FailOn = Outcome | "broken";
const FAIL_ON_VALUES: readonly FailOn[] = [...OUTCOMES, "broken"];

function parseFailOn(value: string): FailOn[] {
  const list = value
    .split(",")
    // `would wire` and `would-wire` name the same outcome
    .map((v) => v.trim().replace(/\s+/g, "-"))
    .filter((v) => v !== "");
  for (const v of list)
    if (!FAIL_ON_VALUES.includes(v as FailOn))
      throw new InvalidArgumentError(`expected a comma list of ${FAIL_ON_VALUES.join(", ")}; got ${JSON.stringify(v)}`);
  return list as FailOn[];
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("must be a non-negative integer");
  return n;
}

/** What `--fail-on` found, e.g. `2 rejected, 1 skipped`; empty when the run passes. */
export function failures(report: PreviewReport, failOn: readonly FailOn[]): string {
  const found: string[] = [];
  for (const what of failOn) {
    const n = what === "broken" ? report.broken.length : report.rows.filter((r) => r.outcome === what).length;
    if (n > 0) found.push(`${n} ${what}`);
  }
  return found.join(", ");
}

/**
 * Why the run checked nothing it was asked to, so a CI gate must fail whatever `--fail-on` says:
 * no policy to evaluate (with how to build them), a policy left out (unbuilt, bad settings, no
 * local module), no object in the dumps.
 */
export function checkedNothing(report: PreviewReport): string[] {
  const out: string[] = [];
  // the build hint only when no policy was even found: one left out says why under "Policy problems"
  if (report.policies.length === 0)
    out.push(
      report.problems.length > 0
        ? "no policy was evaluated"
        : "no policy was evaluated: build them first (`npm run build` or `node bin/cachewarden.js build`), or point --policies at built policies",
    );
  if (report.problems.length > 0)
    out.push(
      `${report.problems.length} ${report.problems.length === 1 ? "policy was" : "policies were"} left out (see "Policy problems")`,
    );
  if (report.objects === 0)
    out.push(report.cluster ? "the cluster holds no object to preview" : "the dumps hold no object to preview");
  return out;
}

function collectNamespaces(value: string, previous: string[] | undefined): string[] {
  return [
    ...(previous ?? []),
    ...value
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n !== ""),
  ];
}

/** Dumps, or the live cluster of --kubeconfig (with --context, --namespace and --save-dump). */
function liveOptions(dumps: string[], flags: PreviewFlags): PreviewOptions["live"] {
  const liveOnly = { "--context": flags.context, "--namespace": flags.namespace, "--save-dump": flags.saveDump };
  if (flags.kubeconfig === undefined) {
    const used = Object.entries(liveOnly).find(([, v]) => v !== undefined);
    if (used) throw new Error(`${used[0]} reads a live cluster: give --kubeconfig too`);
    if (dumps.length === 0) throw new Error("give the dump files to preview, or --kubeconfig to read a live cluster");
    return undefined;
  }
  if (dumps.length > 0) throw new Error("dump files and --kubeconfig cannot be used together");
  return {
    source: {
      ...(flags.kubeconfig !== true ? { kubeconfig: flags.kubeconfig } : {}),
      ...(flags.context !== undefined ? { context: flags.context } : {}),
    },
    ...(flags.namespace !== undefined ? { namespaces: flags.namespace } : {}),
    ...(flags.saveDump !== undefined ? { saveDump: flags.saveDump } : {}),
  };
}

export async function runPreview(dumps: string[], flags: PreviewFlags, out: PreviewOutput): Promise<number> {
  const live = liveOptions(dumps, flags);
  const report = await preview(dumps, {
    policies: flags.policies,
    modules: flags.modules,
    policyServerNamespace: flags.policyServerNamespace,
    ...(flags.podSecurityConfig !== undefined ? { podSecurity: readPodSecurityConfig(flags.podSecurityConfig) } : {}),
    workers: flags.workers,
    progress: (line) => out.stderr.write(`${line}\n`),
    ...(live ? { live } : {}),
  });
  const render = { table: renderText, json: renderJson, markdown: renderMarkdown }[flags.output];
  out.stdout.write(render(report, { showPatch: flags.showPatch }));
  const nothing = checkedNothing(report);
  for (const line of nothing) out.stderr.write(`cachewarden: preview failed: ${line}\n`);
  const failed = failures(report, flags.failOn ?? []);
  if (failed !== "") out.stderr.write(`cachewarden: preview failed (--fail-on): ${failed}\n`);
  return nothing.length > 0 || failed !== "" ? 1 : 0;
}

export function registerPreview(program: Command, out: PreviewOutput = process): void {
  program
    .command("preview")
    .description(
      "What the policies would do to the objects of a cluster: a dump (kubectl get … -o yaml), offline, or a live cluster (--kubeconfig)",
    )
    .argument("[dumps...]", "kubectl get -o yaml|json output: a List, multi-document YAML or JSON (- for stdin)")
    .option(
      "--kubeconfig [file]",
      "read a live cluster instead of dumps, and answer lookups from it (no file: KUBECONFIG, then ~/.kube/config)",
    )
    .option("--context <name>", "with --kubeconfig: the context to use (default: its current-context)")
    .option(
      "-n, --namespace <names>",
      "with --kubeconfig: only these namespaces (comma list, repeatable; default: all)",
      collectNamespaces,
    )
    .option("--save-dump <file>", "with --kubeconfig: write what was read, for `preview <file>` offline")
    .option(
      "--policies <path>",
      "built policies (a policies folder or one policy), a kustomization (rendered with kubectl kustomize), or rendered ClusterAdmissionPolicy / AdmissionPolicy YAML (default: this repository's built policies)",
    )
    .option("--modules <dir>", "where spec.module references are looked up as <dir>/<name>/annotated-policy.wasm")
    .option(
      "--pod-security-config <file>",
      "the API server's PodSecurity admission configuration (its --admission-control-config-file, or the PodSecurityConfiguration): defaults for namespaces without labels, exempt namespaces and runtime classes",
    )
    .option(
      "--policy-server-namespace <ns>",
      "where Kubewarden runs, which cluster-wide policies skip as its controller makes them (default kubewarden; Rancher: cattle-kubewarden-system)",
    )
    .addOption(
      new Option("-o, --output <format>", "output format").choices(["table", "json", "markdown"]).default("table"),
    )
    .option("--show-patch", "print each object's JSON Patch operations")
    .option(
      "--fail-on <outcomes>",
      `exit 1 when any row has one of these outcomes (${FAIL_ON_VALUES.join(",")})`,
      parseFailOn,
    )
    .option(
      "--workers <n>",
      "worker threads (0: evaluate on the main thread; default: the CPU count for large dumps)",
      parseWorkers,
    )
    .action(async (dumps: string[], flags: PreviewFlags) => {
      const code = await runPreview(dumps, flags, out);
      if (code !== 0) process.exitCode = code;
    });
}
