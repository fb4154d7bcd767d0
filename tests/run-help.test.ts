// `cachewarden run --help`: the flags and their descriptions a user reads before the first run
// (kwctl's names, this host's extensions and defaults), pinned as printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Command } from "commander";
import { registerRun } from "../tools/host/commands";

test("run --help lists every flag with its description and default", () => {
  let help = "";
  const program = new Command()
    .name("cachewarden")
    .exitOverride()
    .configureOutput({ writeOut: (t) => (help += t), writeErr: () => undefined })
    .configureHelp({ helpWidth: 200 });
  registerRun(program, { stdout: { write: () => true }, stderr: { write: () => true } });
  assert.throws(() => program.parse(["run", "--help"], { from: "user" }), { code: "commander.helpDisplayed" });
  assert.deepEqual(help.split("\n"), [
    "Usage: cachewarden run [options] <module>",
    "",
    "Evaluate a request against a policy module, like `kwctl run` (AdmissionResponse JSON on stdout)",
    "",
    "Arguments:",
    "  module                                          policy module: a path, file:// or registry:// URI",
    "",
    "Options:",
    "  -r, --request-path <path>                       AdmissionRequest, AdmissionReview or plain manifest (JSON/YAML); - for stdin",
    "  -s, --settings-path <path>                      policy settings (JSON/YAML)",
    "  --settings-json <json>                          policy settings as a JSON object (or null)",
    "  --allow-context-aware                           grant the contextAwareResources listed in the module metadata",
    "  --allowed-host-capabilities <pattern>           allowed host capability pattern (repeatable): *, kubernetes/*, kubernetes/get_resource",
    "  --replay-host-capabilities-interactions <file>  answer host capabilities from a kwctl replay session",
    "  --cluster-objects <file>                        answer Kubernetes lookups from a YAML list / stream of objects (cachewarden extension)",
    "  --kubeconfig <file>                             answer Kubernetes lookups from this kubeconfig's cluster (the default source with --allow-context-aware: KUBECONFIG, then ~/.kube/config)",
    "  --context <name>                                the kubeconfig context to use (default: its current-context)",
    "  --record-host-capabilities-interactions <file>  write the host capability exchanges to a kwctl replay session (for --replay-host-capabilities-interactions)",
    "  --sources-path <file>                           kwctl sources.yaml for registry:// modules (insecure_sources use plain HTTP)",
    '  --mode <mode>                                   policy mode (monitor: also say on stderr what protect mode would do) (choices: "protect", "monitor", default: "protect")',
    "  --show-patch                                    also print the decoded JSON patch operations on stderr (stdout stays kwctl-identical)",
    "  --timeout-seconds <seconds>                     hard per-call deadline, enforced in a worker thread (0 = none; default: 2 s measured, not enforced)",
    "  -h, --help                                      display help for command",

    "",
  ]);
});
