// The lmcache-injector planner: docs/policies/lmcache-injector.md#steps, one step per table row, in
// order, with the reason code at the step that produces it. It reads the request and the lookups
// and returns a Decision; it never edits the pod. Every check runs before the first edit is
// planned, so a Wire decision is the whole wiring and a Skip carries nothing but its reason
// (all-or-nothing, D2).
import { DecodedRequest, KubernetesLookups, ValidationRequest } from "../../../assembly/kubewarden/index";
import { JsonValue } from "../../../assembly/json/index";
import {
  checkAnnotations,
  checkContainerFields,
  checkPodLists,
  annotationEquals,
  annotationOrEmpty,
  containerHasFlag,
  containerAt,
  containerPath,
  Plan,
} from "../../../assembly/k8s/index";
import {
  detailCommandOverride,
  detailEngineNotInline,
  detailInvalidEngineReference,
  detailInvalidPullSecret,
  detailInvalidRequest,
  EngineKeys,
  INJECTED_VALUE,
  KV_TRANSFER_CONFIG_FLAG,
  lmcacheKeys,
  PYTHONHASHSEED_ENV,
  PYTHONHASHSEED_VALUE,
  REASON_COMMAND_OVERRIDE,
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
  REASON_TARGET_CONTAINER_NOT_FOUND,
} from "../../../assembly/keys/index";
import {
  addStagingEdits,
  checkConnectionText,
  decidePayload,
  EngineInjection,
  EngineStep,
  findInlineEngine,
  lookupConnectionConfigMap,
  lookupEngineCr,
  lookupsEnabled,
  PayloadOutcome,
  resolveInjectedPullSecrets,
  resolveTargetContainer,
  TargetOutcome,
} from "../../../assembly/lmcache/index";
import { isDns1123Subdomain } from "../../../assembly/validate/dns";
import { trimGoSpace } from "../../../assembly/validate/chars";

// @ts-ignore: decorator
@lazy
export const OPERATION_CREATE = "CREATE";

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
  return Decision.skip(REASON_LOOKUP_FAILED, detail);
}

/** The engine as steps 8–11 resolved it. */
class ResolvedEngine {
  constructor(
    public injection: EngineInjection,
    public kvText: string,
  ) {}
}

/** The steps for one decoded `validate` payload. */
export function planLmcacheInjection(decoded: DecodedRequest, lookups: KubernetesLookups): Decision {
  const keys = lmcacheKeys();

  // 1. the payload and `request` could be read
  const request = decoded.request;
  if (request === null) return invalidRequest(decoded.error);

  // 2. only Pod CREATE with an object (X1)
  const pod = request.object;
  if (pod === null || request.operation != OPERATION_CREATE) return Decision.pass();

  // 3. object, metadata and annotations have the shapes the skip annotation needs
  const shape = checkAnnotations(pod);
  if (shape.length > 0) return invalidRequest(shape);

  // 4. injected guard: exactly "true"
  if (annotationEquals(pod, keys.injectedAnnotation, INJECTED_VALUE)) return Decision.pass();

  // 5. opt-in: the trimmed engine annotation
  const rawEngine = annotationText(pod, keys.engineAnnotation);
  const engine = trimGoSpace(rawEngine);
  if (engine.length == 0) return Decision.pass();

  // 6. namespace from the request, else from the pod
  const namespace = request.namespaceOrObjectNamespace();
  if (namespace.length == 0) return invalidRequest("namespace is missing");

  // 7. the engine name is a DNS-1123 subdomain (D4)
  if (!isDns1123Subdomain(engine)) {
    return Decision.skip(REASON_INVALID_ENGINE_REFERENCE, detailInvalidEngineReference(rawEngine));
  }

  // 8–11. engine source, engine CR, connection ConfigMap, connection value
  const resolved = resolveEngine(request, lookups, keys, namespace, engine, rawEngine);
  const resolvedEngine = resolved.engine;
  if (resolvedEngine === null) {
    const skip = resolved.skip;
    return skip !== null ? skip : Decision.pass(); // skip is set whenever engine is null
  }
  const injection = resolvedEngine.injection;

  // 12. target container
  const target = resolveTargetContainer(pod, annotationText(pod, keys.containerAnnotation), injection);
  if (target.outcome == TargetOutcome.Malformed) return invalidRequest(target.detail);
  if (target.outcome == TargetOutcome.NotFound) return Decision.skip(REASON_TARGET_CONTAINER_NOT_FOUND, target.detail);
  const container = containerAt(pod, target.index);
  if (container === null) return invalidRequest(containerPath(target.index) + " is not an object");
  // the container path is built only for a detail

  // 13. a non-empty `command` cannot be extended with args
  const command = container.getPresent("command");
  if (command !== null) {
    if (!command.isArray()) return invalidRequest(containerPath(target.index) + ".command is not an array");
    if (command.size() > 0) return Decision.skip(REASON_COMMAND_OVERRIDE, detailCommandOverride(target.name));
  }

  // 14. payload image: no image → connection-only
  const payload = decidePayload(injection.payloadImage);
  if (payload.outcome == PayloadOutcome.Invalid) return Decision.skip(REASON_PAYLOAD_IMAGE_INVALID, payload.detail);

  // 15. pull secrets, only when staging (D5)
  let secrets: string[] = [];
  if (payload.stages) {
    const resolvedSecrets = resolveInjectedPullSecrets(
      injection.imagePullSecrets,
      annotationText(pod, keys.pullSecretsAnnotation),
    );
    if (!resolvedSecrets.ok) {
      return Decision.skip(REASON_INVALID_IMAGE_PULL_SECRETS, detailInvalidPullSecret(resolvedSecrets.invalidName));
    }
    secrets = resolvedSecrets.names;
  }

  // 16. every field the commit reads or extends has its JSON type
  // checked without a path first (pure, so the second run with the path gives the same detail)
  if (checkContainerFields(container, "").length > 0) {
    return invalidRequest(checkContainerFields(container, containerPath(target.index)));
  }
  if (payload.stages) {
    const listsShape = checkPodLists(pod);
    if (listsShape.length > 0) return invalidRequest(listsShape);
  }
  const userHasKV = containerHasFlag(container, KV_TRANSFER_CONFIG_FLAG);
  if (userHasKV < 0) return invalidRequest(containerPath(target.index) + ".args is not an array of strings");

  // 17. commit: wiring, then staging and secrets, then stamps
  const decision = new Decision();
  decision.kind = DecisionKind.Wire;
  decision.container = target.name;
  decision.userHasKV = userHasKV > 0;
  const plan = decision.plan;
  plan.setHostIPC();
  if (!decision.userHasKV) plan.appendArgs(target.index, [KV_TRANSFER_CONFIG_FLAG, resolvedEngine.kvText]);
  plan.envSetIfAbsent(target.index, PYTHONHASHSEED_ENV, PYTHONHASHSEED_VALUE);
  if (payload.stages) {
    addStagingEdits(plan, target.index, keys, payload);
    plan.mergePullSecrets(secrets);
  }
  plan.setAnnotation(keys.injectedAnnotation, INJECTED_VALUE);
  if (decision.userHasKV) plan.setAnnotation(keys.skipReasonAnnotation, REASON_KV_TRANSFER_CONFIG_PRESENT);
  else plan.removeAnnotation(keys.skipReasonAnnotation); // D10
  return decision;
}

/** Steps 8–11: either the engine (injection + kv text) or the skip that ended the search. */
class EngineResolution {
  /** `skip` is null exactly when `engine` is set (no unused Decision is built for a found engine) */
  constructor(
    public engine: ResolvedEngine | null,
    public skip: Decision | null,
  ) {}
  static found(injection: EngineInjection, kvText: string): EngineResolution {
    return new EngineResolution(new ResolvedEngine(injection, kvText), null);
  }
  static skipped(skip: Decision): EngineResolution {
    return new EngineResolution(null, skip);
  }
}

function resolveEngine(
  request: ValidationRequest,
  lookups: KubernetesLookups,
  keys: EngineKeys,
  namespace: string,
  engine: string,
  rawEngine: string,
): EngineResolution {
  const settings = request.settings;
  let injection = new EngineInjection();
  let kvText = "";

  // 8. an inline engine is used instead of any lookup; without one, lookups must be on
  const inline = findInlineEngine(settings, engine);
  const inlineEngine = inline.engine;
  if (!inline.ok) return EngineResolution.skipped(invalidRequest(inline.error));
  if (inlineEngine !== null) {
    injection = inlineEngine.injection;
    kvText = inlineEngine.kvTransferConfig;
  } else {
    if (!lookupsEnabled(settings)) {
      return EngineResolution.skipped(Decision.skip(REASON_ENGINE_NOT_FOUND, detailEngineNotInline(rawEngine)));
    }

    // 9. LMCacheEngine (optional): not found → connection-only
    const cr = lookupEngineCr(lookups, keys.engineKind, namespace, engine);
    if (cr.step == EngineStep.Ok) injection = cr.injection;
    else if (cr.step != EngineStep.NotFound) return EngineResolution.skipped(lookupSkip(cr.step, cr.detail));

    // 10. the connection ConfigMap is the real gate (X4: a name that cannot exist is not looked up)
    const cm = lookupConnectionConfigMap(lookups, namespace, engine);
    if (cm.step == EngineStep.ConfigMissing) {
      // 11. (first half) key absent, not a string or ""
      return EngineResolution.skipped(Decision.skip(REASON_CONNECTION_CONFIG_MISSING, cm.detail));
    }
    if (cm.step != EngineStep.Ok) return EngineResolution.skipped(lookupSkip(cm.step, cm.detail));
    kvText = cm.kvText;
  }

  // 11. the value must be a JSON object (D3), checked even if the pod brings its own flag
  const checked = checkConnectionText(kvText, namespace, engine);
  if (checked.step != EngineStep.Ok)
    return EngineResolution.skipped(Decision.skip(REASON_INVALID_CONNECTION_CONFIG, checked.detail));
  return EngineResolution.found(injection, kvText);
}

/** An annotation's value, "" when absent (step 3 guaranteed every value is a string). */
function annotationText(pod: JsonValue, key: string): string {
  return annotationOrEmpty(pod, key);
}
