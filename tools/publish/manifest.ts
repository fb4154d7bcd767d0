// `cachewarden scaffold manifest`, like kwctl's: a ClusterAdmissionPolicy or AdmissionPolicy built from
// the module's metadata section (rules, mutating, backgroundAudit, contextAwareResources, title,
// severity and category) with the given settings, which must pass the policy's validate_settings.
import { validateSettings } from "../host/evaluate";
import { PolicyModule } from "../host/guest";
import { readPolicyMetadata } from "../host/metadata";

export type PolicyKind = "ClusterAdmissionPolicy" | "AdmissionPolicy";
export const POLICY_KINDS: readonly PolicyKind[] = ["ClusterAdmissionPolicy", "AdmissionPolicy"];

export interface ScaffoldOptions {
  kind: PolicyKind;
  /** the `spec.module` written, as the user gave it */
  moduleUri: string;
  settings: Record<string, unknown> | null;
  title?: string;
  allowContextAware?: boolean;
  warn?: (line: string) => void;
}

const RFC1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function scaffoldManifest(module: PolicyModule, opts: ScaffoldOptions): Record<string, unknown> {
  const metadata = readPolicyMetadata(module.module);
  if (metadata === null)
    throw new Error(`${opts.moduleUri}: no io.kubewarden.metadata section; scaffold needs an annotated module`);
  const ann = (metadata.annotations ?? {}) as Record<string, string>;
  const name = opts.title ?? ann["io.kubewarden.policy.title"];
  if (!name) throw new Error(`${opts.moduleUri}: no io.kubewarden.policy.title annotation; pass --title`);
  if (!RFC1123.test(name) || name.length > 253)
    throw new Error(`policy name ${JSON.stringify(name)} is not an RFC 1123 lowercase name`);
  const outcome = validateSettings(module, { settings: opts.settings ?? {} });
  if (!outcome.valid) throw new Error(`settings are not valid: ${outcome.message ?? "(no message)"}`);

  const annotations: Record<string, string> = {};
  for (const key of ["io.kubewarden.policy.severity", "io.kubewarden.policy.category"])
    if (ann[key] !== undefined) annotations[key] = ann[key];
  const spec: Record<string, unknown> = {
    module: opts.moduleUri,
    settings: opts.settings ?? {},
    rules: metadata.rules ?? [],
    mutating: metadata.mutating === true,
  };
  if (metadata.backgroundAudit === false) spec.backgroundAudit = false;
  const contextAware = (metadata.contextAwareResources ?? []) as unknown[];
  if (opts.kind === "ClusterAdmissionPolicy") {
    if (opts.allowContextAware) spec.contextAwareResources = contextAware;
    else if (contextAware.length > 0) {
      spec.contextAwareResources = [];
      opts.warn?.(
        "the policy reads Kubernetes resources (contextAwareResources) but --allow-context-aware was not given: the list is left empty, so every lookup will be denied",
      );
    }
  } else if (contextAware.length > 0) {
    opts.warn?.("an AdmissionPolicy cannot read Kubernetes resources: put what the policy needs in its settings");
  }
  return {
    apiVersion: "policies.kubewarden.io/v1",
    kind: opts.kind,
    metadata: { name, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
    spec,
  };
}
