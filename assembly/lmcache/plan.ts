// The steps both LMCache-operator injectors share (docs/policies/lmcache-injector.md#steps,
// docs/policies/cacheblend-injector.md#steps): the gate, the engine reference, the engine source,
// the lookups, the target container, the payload image, the pull secrets and the type checks, one
// implementation parameterized by the key set and the flavor. `prepareInjection` ends with either a
// Decision (pass or skip) or everything the commit needs; each policy plans its own commit (the
// wiring differs) and stamps it with `stampInjected`. Nothing here edits the pod: a Wire decision is
// the whole wiring and a Skip carries nothing but its reason (all-or-nothing, D2).
import { DecodedRequest, KubernetesLookups, ValidationRequest } from "../kubewarden/index";
import { JsonValue } from "../json/index";
import {
  annotationEquals,
  annotationOrEmpty,
  checkAnnotations,
  checkContainerFields,
  checkPodLists,
  containerAt,
  containerHasFlag,
  containerPath,
  Plan,
} from "../k8s/index";
import {
  detailCommandOverride,
  detailConnectionConfigMissing,
  detailUnknownPdRole,
  devShmHiddenWarning,
  PD_ROLE_ANNOTATION,
  pdRoleIgnoredWarning,
  REASON_UNKNOWN_PD_ROLE,
  detailEngineNotInline,
  detailInvalidEngineReference,
  detailInvalidRequest,
  detailPayloadImageUnset,
  EngineKeys,
  INJECTED_VALUE,
  KV_TRANSFER_CONFIG_FLAG,
  REASON_COMMAND_OVERRIDE,
  REASON_ENGINE_INVALID,
  REASON_CONNECTION_CONFIG_MISSING,
  REASON_ENGINE_NOT_FOUND,
  REASON_INVALID_CONNECTION_CONFIG,
  REASON_INVALID_ENGINE_REFERENCE,
  REASON_INVALID_IMAGE_PULL_SECRETS,
  REASON_INVALID_REQUEST,
  REASON_KV_TRANSFER_CONFIG_PRESENT,
  REASON_LOOKUP_DENIED,
  REASON_LOOKUP_FAILED,
  REASON_PAYLOAD_IMAGE_INVALID,
  REASON_PAYLOAD_IMAGE_UNSET,
  REASON_STAGING_CONFLICT,
  REASON_TARGET_CONTAINER_NOT_FOUND,
} from "../keys/index";
import { checkConnectionText, EngineStep, lookupConnectionConfigMap, lookupEngineCr } from "./engine";
import { EngineInjection } from "./injection";
import { decidePayload, PayloadDecision, PayloadOutcome, stagingConflict } from "./payload";
import { resolveInjectedPullSecrets } from "./pullsecrets";
import { findInlineEngine, InlineEngineRead, lookupsEnabled } from "./settings";
import { resolveTargetContainer, TargetOutcome } from "./target";
import { decideIpcMode, IpcMode, IpcPlan, planIpc } from "./ipc";
import { PdWiring } from "./pd";
import { roleConfigText } from "./settings";
import { isDns1123Label, isDns1123Subdomain } from "../validate/dns";
import { trimGoSpace } from "../validate/chars";
import { OPERATION_CREATE } from "../kubewarden/request";

export enum DecisionKind {
  /** `{"accepted":true}`: nothing to do */
  Pass = 0,
  /** only the skip-reason annotation, a warning and an audit annotation */
  Skip = 1,
  /** apply `plan` (the whole wiring, stamps included) */
  Wire = 2,
}

export class Decision {
  kind: DecisionKind = DecisionKind.Pass;
  reason: string = "";
  detail: string = "";
  plan: Plan = new Plan();
  /** Wire only: the target already passes --kv-transfer-config (stamped and warned) */
  userHasKV: bool = false;
  /** Wire only: the wired container's name */
  container: string = "";
  /** Wire only: success warnings after the kv-transfer-config-present one (/dev/shm, ignored role) */
  warnings: string[] = [];
  /** step 3 found the annotations readable (every value a string), so a skip stamps them without
   *  reading every value again (one may be 1.5 MB of escapes) */
  annotationsChecked: bool = false;

  static pass(): Decision {
    return new Decision();
  }

  static skip(reason: string, detail: string): Decision {
    const d = new Decision();
    d.kind = DecisionKind.Skip;
    d.reason = reason;
    d.detail = detail;
    return d;
  }

  get isSkip(): bool {
    return this.kind == DecisionKind.Skip;
  }
  get isWire(): bool {
    return this.kind == DecisionKind.Wire;
  }
}

function invalidRequest(what: string): Decision {
  return Decision.skip(REASON_INVALID_REQUEST, detailInvalidRequest(what));
}

/** Not-found / denied / failed of a lookup step as a skip (not-found reads `engine-not-found`). */
function lookupSkip(step: EngineStep, detail: string): Decision {
  if (step == EngineStep.Denied) return Decision.skip(REASON_LOOKUP_DENIED, detail);
  if (step == EngineStep.NotFound) return Decision.skip(REASON_ENGINE_NOT_FOUND, detail);
  if (step == EngineStep.EngineInvalid) return Decision.skip(REASON_ENGINE_INVALID, detail);
  return Decision.skip(REASON_LOOKUP_FAILED, detail);
}

/** The flavors `prepareInjection` is specialized for (type arguments only: each policy compiles only
 *  its own flavor's branches, so neither module carries the other's rules). */
export class LMCacheFlavor {}
export class CacheBlendFlavor {}

/** The engine an annotation names: the CR and the ConfigMap are read from `namespace`. */
export class EngineRef {
  constructor(
    public namespace: string,
    public name: string,
  ) {}
}

/**
 * CacheBlend step 7 (D4): `ref` (already trimmed) is `<name>` (in `podNamespace`) or
 * `<namespace>/<name>` split at the first `/`, both parts trimmed. null when the namespace is not
 * a DNS-1123 label or the name not a DNS-1123 subdomain (so `/cb`, `ns/` and `a/b/c` are invalid).
 */
export function parseCacheBlendReference(ref: string, podNamespace: string): EngineRef | null {
  let namespace = podNamespace;
  let name = ref;
  const slash = ref.indexOf("/");
  if (slash >= 0) {
    namespace = trimGoSpace(ref.substring(0, slash));
    name = trimGoSpace(ref.substring(slash + 1));
  }
  if (!isDns1123Label(namespace) || !isDns1123Subdomain(name)) return null;
  return new EngineRef(namespace, name);
}

/** Step 7: LMCache engines are DNS-1123 subdomains in the pod's namespace; CacheBlend's as above. */
function engineReference<F>(engine: string, namespace: string): EngineRef | null {
  if (idof<F>() == idof<CacheBlendFlavor>()) return parseCacheBlendReference(engine, namespace);
  return isDns1123Subdomain(engine) ? new EngineRef(namespace, engine) : null;
}

/** What steps 1–16 prepared for the commit (filled only when `prepareInjection` returns null). */
export class Prepared {
  /** index of the target in spec.containers, and its name */
  target: i32 = -1;
  container: string = "";
  /** the target already passes `--kv-transfer-config` in either form */
  userHasKV: bool = false;
  /** step 3 passed (see Decision.annotationsChecked) */
  annotationsChecked: bool = false;
  injection: EngineInjection = new EngineInjection();
  /** the connection value (ConfigMap text verbatim, or the inline engine's JSON text) */
  kvText: string = "";
  payload: PayloadDecision = new PayloadDecision(PayloadOutcome.NoImage, "", "", "");
  /** resolved pull secrets; empty unless `payload.stages` */
  secrets: string[] = [];
  /** the IPC wiring (docs/policies/lmcache-injector.md#ipc-modes) */
  ipc: IpcPlan = new IpcPlan();
  /** the PD role and NIXL env (docs/policies/lmcache-injector.md#pd-roles) */
  pd: PdWiring = new PdWiring();
  /** success warnings, in their order */
  warnings: string[] = [];
}

/** Steps 1–16 of both injectors for one decoded `validate` payload: the Decision that ends the
 *  evaluation (pass or skip), or null with `out` filled for the commit. */
export function prepareInjection<F>(
  decoded: DecodedRequest,
  lookups: KubernetesLookups,
  keys: EngineKeys,
  out: Prepared,
): Decision | null {
  const end = prepareSteps<F>(decoded, lookups, keys, out);
  if (end !== null) end.annotationsChecked = out.annotationsChecked;
  return end;
}

function prepareSteps<F>(
  decoded: DecodedRequest,
  lookups: KubernetesLookups,
  keys: EngineKeys,
  out: Prepared,
): Decision | null {
  // 1. the payload and `request` could be read
  const request = decoded.request;
  if (request === null) return invalidRequest(decoded.error);

  // 2. only Pod CREATE with an object (X1)
  const pod = request.object;
  if (pod === null || request.operation != OPERATION_CREATE) return Decision.pass();

  // 3. object, metadata and annotations have the shapes the skip annotation needs
  const shape = checkAnnotations(pod);
  if (shape.length > 0) return invalidRequest(shape);
  out.annotationsChecked = true;

  // 4. injected guard: exactly "true"
  if (annotationEquals(pod, keys.injectedAnnotation, INJECTED_VALUE)) return Decision.pass();

  // 5. opt-in: the trimmed engine annotation
  const rawEngine = annotationText(pod, keys.engineAnnotation);
  const engine = trimGoSpace(rawEngine);
  if (engine.length == 0) return Decision.pass();

  // 6. namespace from the request, else from the pod
  const namespace = request.namespaceOrObjectNamespace();
  if (namespace.length == 0) return invalidRequest("namespace is missing");

  // 7. the engine reference (D4)
  const ref = engineReference<F>(engine, namespace);
  if (ref === null) {
    return Decision.skip(REASON_INVALID_ENGINE_REFERENCE, detailInvalidEngineReference(rawEngine));
  }

  // 8–11. engine source, engine CR, connection ConfigMap, connection value (PD role inside 11)
  out.pd.role = trimGoSpace(annotationText(pod, PD_ROLE_ANNOTATION));
  const end = resolveEngine<F>(request, lookups, keys, namespace, ref, rawEngine, out);
  if (end !== null) return end;
  const injection = out.injection;

  // 12. target container
  const target = resolveTargetContainer(pod, annotationText(pod, keys.containerAnnotation), injection);
  if (target.outcome == TargetOutcome.Malformed) return invalidRequest(target.detail);
  if (target.outcome == TargetOutcome.NotFound) return Decision.skip(REASON_TARGET_CONTAINER_NOT_FOUND, target.detail);
  const container = containerAt(pod, target.index);
  if (container === null) return invalidRequest(containerPath(target.index) + " is not an object");

  // 13. a non-empty `command` cannot be extended with args
  const command = container.getPresent("command");
  if (command !== null) {
    if (!command.isArray()) return invalidRequest(containerPath(target.index) + ".command is not an array");
    if (command.size() > 0) return Decision.skip(REASON_COMMAND_OVERRIDE, detailCommandOverride(target.name));
  }

  // 14. payload image: no image → connection-only (LMCache) or payload-image-unset (CacheBlend)
  // a CacheBlend decoder runs a bare NixlConnector: no plugin, so no image rules (docs/policies/cacheblend-injector.md#pd-roles)
  const cbDecoder = idof<F>() == idof<CacheBlendFlavor>() && out.pd.isDecoder;
  const payload = cbDecoder ? out.payload : decidePayload(injection.payloadImage);
  if (payload.outcome == PayloadOutcome.Invalid) return Decision.skip(REASON_PAYLOAD_IMAGE_INVALID, payload.detail);
  if (idof<F>() == idof<CacheBlendFlavor>() && !payload.stages && !cbDecoder) {
    return Decision.skip(REASON_PAYLOAD_IMAGE_UNSET, detailPayloadImageUnset(keys.engineKind, ref.namespace, ref.name));
  }
  out.payload = payload;

  // 15. pull secrets (D5): LMCache only when staging; CacheBlend always, and it always stages here
  if (payload.stages) {
    const resolvedSecrets = resolveInjectedPullSecrets(
      injection.imagePullSecrets,
      annotationText(pod, keys.pullSecretsAnnotation),
      keys.pullSecretsAnnotation,
    );
    if (!resolvedSecrets.ok) return Decision.skip(REASON_INVALID_IMAGE_PULL_SECRETS, resolvedSecrets.detail);
    out.secrets = resolvedSecrets.names;
  }

  // 16. every field the commit reads or extends has its JSON type
  // checked without a path first (pure, so the second run with the path gives the same detail)
  if (checkContainerFields(container, "").length > 0) {
    return invalidRequest(checkContainerFields(container, containerPath(target.index)));
  }
  if (payload.stages) {
    const listsShape = checkPodLists(pod);
    if (listsShape.length > 0) return invalidRequest(listsShape);
    // the staging volume's name and path must be free for it (all or nothing: skip, change nothing)
    const conflict = stagingConflict(pod, target.index, target.name, keys);
    if (conflict.length > 0) return Decision.skip(REASON_STAGING_CONFLICT, conflict);
  }
  // read in place: 50,000 args are not decoded to look for one flag (checkContainerFields has made
  // them an array of strings)
  const hasKV = containerHasFlag(container, KV_TRANSFER_CONFIG_FLAG, true);
  const mode = cbDecoder
    ? IpcMode.None
    : decideIpcMode(request.settings, injection.generation, out.kvText, idof<F>() == idof<CacheBlendFlavor>());
  const ipcShape = planIpc(pod, container, containerPath(target.index), mode, out.ipc);
  if (ipcShape.length > 0) return invalidRequest(ipcShape);
  if (out.ipc.hiddenHostShm) out.warnings.push(devShmHiddenWarning(keys.policyName, target.name));
  if (out.pd.ignored) out.warnings.push(pdRoleIgnoredWarning(keys.policyName, out.pd.role, ref.namespace, ref.name));

  out.target = target.index;
  out.container = target.name;
  out.userHasKV = hasKV > 0;
  return null;
}

/** Steps 8–11: fills `out.injection` and `out.kvText`, or returns the skip that ended the search. */
function resolveEngine<F>(
  request: ValidationRequest,
  lookups: KubernetesLookups,
  keys: EngineKeys,
  podNamespace: string,
  ref: EngineRef,
  rawEngine: string,
  out: Prepared,
): Decision | null {
  const settings = request.settings;
  const namespace = ref.namespace;
  const name = ref.name;

  // 8. an inline engine is used instead of any lookup; without one, lookups must be on.
  // CacheBlend tries `<ns>/<name>` first, then `<name>` only for the pod's own namespace.
  let inline: InlineEngineRead;
  if (idof<F>() == idof<CacheBlendFlavor>()) {
    inline = findInlineEngine(settings, namespace + "/" + name);
    if (inline.ok && !inline.found && namespace == podNamespace) inline = findInlineEngine(settings, name);
  } else {
    inline = findInlineEngine(settings, name);
  }
  const inlineEngine = inline.engine;
  if (!inline.ok) return invalidRequest(inline.error);
  if (inlineEngine !== null) {
    out.injection = inlineEngine.injection;
    const pd = activatePd(out);
    if (pd.unknown) return unknownRole(pd);
    out.kvText =
      pd.role.length > 0 && pd.active ? roleConfigText(inlineEngine, pd.role) : inlineEngine.kvTransferConfig;
    if (out.kvText.length == 0) {
      return Decision.skip(
        REASON_CONNECTION_CONFIG_MISSING,
        detailConnectionConfigMissing(namespace, name, pd.connectionKey),
      );
    }
  } else {
    if (!lookupsEnabled(settings)) return Decision.skip(REASON_ENGINE_NOT_FOUND, detailEngineNotInline(rawEngine));

    // 9. the engine CR, read first: an LMCacheEngine is optional (not found → connection-only),
    // a CacheBlendEngine is required
    const cr = lookupEngineCr(lookups, keys.engineKind, namespace, name);
    if (cr.step == EngineStep.Ok) out.injection = cr.injection;
    else if (cr.step != EngineStep.NotFound || idof<F>() == idof<CacheBlendFlavor>())
      return lookupSkip(cr.step, cr.detail);

    // 10. the connection ConfigMap is the real gate (X4: a name that cannot exist is not looked up)
    const pd = activatePd(out);
    const cm = lookupConnectionConfigMap(lookups, namespace, name, pd.connectionKey);
    // 11. an unknown role of an engine with spec.pd, once the ConfigMap is known to exist
    if (pd.unknown && (cm.step == EngineStep.Ok || cm.step == EngineStep.ConfigMissing)) return unknownRole(pd);
    if (cm.step == EngineStep.ConfigMissing) {
      // 11. (first half) key absent, not a string or ""
      return Decision.skip(REASON_CONNECTION_CONFIG_MISSING, cm.detail);
    }
    if (cm.step != EngineStep.Ok) return lookupSkip(cm.step, cm.detail);
    out.kvText = cm.kvText;
  }

  // 11. the value must be a JSON object (D3), checked even if the pod brings its own flag
  const checked = checkConnectionText(out.kvText, namespace, name, out.pd.connectionKey);
  if (checked.step != EngineStep.Ok) return Decision.skip(REASON_INVALID_CONNECTION_CONFIG, checked.detail);
  return null;
}

/** The PD wiring of the engine just read: active only for an engine with `spec.pd`. */
function activatePd(out: Prepared): PdWiring {
  const pd = out.pd;
  const generation = out.injection.generation;
  pd.active = generation.hasPd;
  pd.nixlPort = generation.nixlPort;
  return pd;
}

function unknownRole(pd: PdWiring): Decision {
  return Decision.skip(REASON_UNKNOWN_PD_ROLE, detailUnknownPdRole(pd.role));
}

/** A Wire decision for a prepared injection, with its empty plan for the policy's commit. */
export function wireDecision(prepared: Prepared): Decision {
  const decision = new Decision();
  decision.kind = DecisionKind.Wire;
  decision.container = prepared.container;
  decision.userHasKV = prepared.userHasKV;
  decision.warnings = prepared.warnings;
  decision.annotationsChecked = prepared.annotationsChecked;
  return decision;
}

/** Stamping (docs/policies/lmcache-injector.md#stamping): the injected guard, and
 *  `kv-transfer-config-present` next to it or the stale reason removed (D10). */
export function stampInjected(decision: Decision, keys: EngineKeys): void {
  const plan = decision.plan;
  plan.setAnnotation(keys.injectedAnnotation, INJECTED_VALUE);
  if (decision.userHasKV) plan.setAnnotation(keys.skipReasonAnnotation, REASON_KV_TRANSFER_CONFIG_PRESENT);
  else plan.removeAnnotation(keys.skipReasonAnnotation); // D10
}

/** An annotation's value, "" when absent (step 3 guaranteed every value is a string). */
function annotationText(pod: JsonValue, key: string): string {
  return annotationOrEmpty(pod, key);
}
