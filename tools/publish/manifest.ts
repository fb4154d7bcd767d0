// `cachewarden scaffold manifest`: by default the ClusterAdmissionPolicy or AdmissionPolicy deploy/
// would write for the module's policy (registry module reference, failure policy, selectors, policy
// server, contextAwareResources), built from the module's own metadata section and the README it
// embeds as usage, with the given settings, which must pass the policy's validate_settings first.
// Every field can be changed by a flag (docs/publishing.md#enabling-in-a-cluster).
import { validateSettings } from "../host/evaluate";
import { PolicyModule } from "../host/guest";
import { readPolicyMetadata } from "../host/metadata";
import { factsFrom, moduleRef, policyResource, PolicyKind, ResourceOptions } from "./deploy";

export type { PolicyKind };
export const POLICY_KINDS: readonly PolicyKind[] = ["ClusterAdmissionPolicy", "AdmissionPolicy"];

export interface ScaffoldOptions extends Omit<ResourceOptions, "module" | "name" | "settings"> {
  kind: PolicyKind;
  /** where the module was read from, for messages */
  source: string;
  /** `spec.module` as written (default: the registry reference deploy/ uses) */
  moduleRef?: string;
  /** `host[:port]/path` the policy was pushed under (default: its ociUrl) */
  registry?: string;
  settings: Record<string, unknown> | null;
  title?: string;
  warn?: (line: string) => void;
}

const RFC1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function scaffoldManifest(module: PolicyModule, opts: ScaffoldOptions): Record<string, unknown> {
  const metadata = readPolicyMetadata(module.module);
  if (metadata === null)
    throw new Error(`${opts.source}: no io.kubewarden.metadata section; scaffold needs an annotated module`);
  const ann = (metadata.annotations ?? {}) as Record<string, string>;
  const title = ann["io.kubewarden.policy.title"];
  const name = opts.title ?? title;
  if (!name) throw new Error(`${opts.source}: no io.kubewarden.policy.title annotation; pass --title`);
  if (!RFC1123.test(name) || name.length > 253)
    throw new Error(`policy name ${JSON.stringify(name)} is not an RFC 1123 lowercase name`);
  if (opts.kind === "AdmissionPolicy") {
    if (opts.namespace === undefined) throw new Error("an AdmissionPolicy lives in a namespace: pass --namespace <ns>");
    if (!DNS1123_LABEL.test(opts.namespace))
      throw new Error(`namespace ${JSON.stringify(opts.namespace)} is not a DNS-1123 label`);
  }
  const outcome = validateSettings(module, { settings: opts.settings ?? {} });
  if (!outcome.valid) throw new Error(`settings are not valid: ${outcome.message ?? "(no message)"}`);

  const facts = factsFrom(title ?? name, metadata, ann["io.kubewarden.policy.usage"] ?? "", opts.source);
  const contextAware = ((metadata.contextAwareResources ?? []) as unknown[]).length > 0;
  if (contextAware && opts.kind === "ClusterAdmissionPolicy" && opts.contextAware === false)
    opts.warn?.(
      "the policy reads Kubernetes resources (contextAwareResources) but --no-context-aware was given: the list is left empty, so every lookup will be denied",
    );
  if (contextAware && opts.kind === "AdmissionPolicy")
    opts.warn?.("an AdmissionPolicy cannot read Kubernetes resources: put what the policy needs in its settings");
  const { kind, source: _s, moduleRef: ref, registry, title: _t, warn: _w, settings, ...fields } = opts;
  return policyResource(facts, kind, {
    ...fields,
    name,
    module: ref ?? moduleRef(facts, registry),
    settings: settings ?? {},
  });
}
