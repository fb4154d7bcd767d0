// The hicache-injector planner: docs/policies/hicache-injector.md#evaluation-order, one step per
// table row, in order. It reads the request, the settings and the lookups and returns a Decision;
// it never edits the pod. Every check runs before the first wiring edit is planned, so an Inject
// decision is the whole wiring and a fail-open carries only the provenance strip.
import { DecodedRequest, KubernetesLookups } from "../../../assembly/kubewarden/index";
import { JsonValue } from "../../../assembly/json/index";
import {
  annotationEquals,
  annotationOrEmpty,
  checkAnnotations,
  checkContainerFields,
  checkContainerList,
  checkLabels,
  checkNamedObjectArray,
  containerAt,
  containerNames,
  containerPath,
  findContainerIndex,
  itemName,
  Plan,
  readContainers,
} from "../../../assembly/k8s/index";
import {
  CACHEBACKEND_API_VERSION,
  CACHEBACKEND_KIND,
  DETAIL_POD_HAS_NO_CONTAINERS,
  detailInvalidRequest,
  HICACHE_ENGINE_CONTAINER,
  INJECT_SKIPPED_ANNOTATION,
  INJECT_SKIPPED_VALUE,
  INJECTED_BY_ANNOTATION,
  INJECTED_BY_UID_ANNOTATION,
  REASON_AMBIGUOUS_BACKENDS,
  REASON_ARG_CONFLICT,
  REASON_ENGINE_CONTAINER_NOT_FOUND,
  REASON_INVALID_BACKEND,
  REASON_INVALID_REQUEST,
  REASON_LMCACHE_ARGS_PRESENT,
  REASON_LOOKUP_DENIED,
  REASON_LOOKUP_FAILED,
  SKIP_INJECT_ANNOTATION,
  TYPE_SGLANG_HICACHE,
} from "../../../assembly/keys/index";
import { i32ToDecimal } from "../../../assembly/util/decimal";
import { goLowerEquals, shortenRendered } from "../../../assembly/validate/index";
import { backendProblem, backendRef, readHiCacheBackend } from "./backend";
import { engineArgs, hasLmcacheArgs, lmcacheArgsDetail, overrideArgTokens, planArgs } from "./args";
import { planNfs, plannedEnv, plannedMount, plannedVolume } from "./nfs";
import { OPERATION_CREATE } from "../../../assembly/kubewarden/index";

export enum DecisionKind {
  /** `{"accepted":true}` */
  Pass = 0,
  /** opt-out or strip: apply `plan` (may be empty), no warning */
  Quiet = 1,
  /** apply `plan` (the strip, may be empty), warning + audit annotation */
  FailOpen = 2,
  /** apply `plan` (the whole wiring and the provenance) */
  Inject = 3,
}

export class Decision {
  kind: DecisionKind = DecisionKind.Pass;
  reason: string = "";
  detail: string = "";
  plan: Plan = new Plan();

  static pass(): Decision {
    return new Decision();
  }
  static quiet(plan: Plan): Decision {
    const d = new Decision();
    d.kind = DecisionKind.Quiet;
    d.plan = plan;
    return d;
  }
  static failOpen(reason: string, detail: string, plan: Plan): Decision {
    const d = new Decision();
    d.kind = DecisionKind.FailOpen;
    d.reason = reason;
    d.detail = detail;
    d.plan = plan;
    return d;
  }
}

// ---------------------------------------------------------------- opt-out and provenance

/** #opt-out-truth-table: Go ParseBool's true values opt out, its false values and the off-words
 *  do not, any other non-empty value (untrimmed) does. */
export function skipAnnotationOptsOut(value: string): bool {
  if (value.length == 0) return false;
  // ParseBool's true values opt out like any other value not listed below: no test of their own
  if (value == "0" || value == "f" || value == "F" || value == "FALSE" || value == "false" || value == "False")
    return false;
  if (
    goLowerEquals(value, "no") ||
    goLowerEquals(value, "off") ||
    goLowerEquals(value, "disable") ||
    goLowerEquals(value, "disabled")
  )
    return false;
  return true;
}

function hasNonEmpty(pod: JsonValue, key: string): bool {
  return annotationOrEmpty(pod, key).length > 0;
}

/** The strip of #provenance: all three keys go when any of them has a non-empty value. */
export function stripPlan(pod: JsonValue): Plan {
  const plan = new Plan();
  if (
    hasNonEmpty(pod, INJECTED_BY_ANNOTATION) ||
    hasNonEmpty(pod, INJECTED_BY_UID_ANNOTATION) ||
    hasNonEmpty(pod, INJECT_SKIPPED_ANNOTATION)
  ) {
    plan.removeAnnotation(INJECTED_BY_ANNOTATION, true);
    plan.removeAnnotation(INJECTED_BY_UID_ANNOTATION, true);
    plan.removeAnnotation(INJECT_SKIPPED_ANNOTATION, true);
  }
  return plan;
}

/** The opt-out of #opt-out: marker set, provenance removed; nothing when already in that state. */
export function optOutPlan(pod: JsonValue): Plan {
  const plan = new Plan();
  if (
    annotationEquals(pod, INJECT_SKIPPED_ANNOTATION, INJECT_SKIPPED_VALUE) &&
    !hasNonEmpty(pod, INJECTED_BY_ANNOTATION) &&
    !hasNonEmpty(pod, INJECTED_BY_UID_ANNOTATION)
  )
    return plan;
  plan.removeAnnotation(INJECTED_BY_ANNOTATION);
  plan.removeAnnotation(INJECTED_BY_UID_ANNOTATION);
  plan.setAnnotation(INJECT_SKIPPED_ANNOTATION, INJECT_SKIPPED_VALUE);
  return plan;
}

// ---------------------------------------------------------------- candidates

/** One CacheBackend a pod may match. */
export class Candidate {
  constructor(
    public namespace: string,
    public name: string,
    /** null: no uid (inline backend without one) */
    public uid: string | null,
    public matchLabels: JsonValue | null,
    public spec: JsonValue | null,
  ) {}
  get isHiCache(): bool {
    const spec = this.spec;
    return spec !== null && spec.isObject() && spec.stringEquals("type", TYPE_SGLANG_HICACHE);
  }
  get ref(): string {
    return shortenRendered(this.namespace) + "/" + shortenRendered(this.name);
  }
}

/** The candidates, or why there are none to choose from. */
export class Candidates {
  list: Candidate[] = new Array<Candidate>(0);
  reason: string = "";
  detail: string = "";
  get ok(): bool {
    return this.reason.length == 0;
  }
  static failed(reason: string, detail: string): Candidates {
    const c = new Candidates();
    c.reason = reason;
    c.detail = detail;
    return c;
  }
}

/** An object of string values (or absent/null → null with ok). */
function stringMapOk(map: JsonValue | null): bool {
  if (map === null) return true;
  if (!map.isObject()) return false;
  for (let i = 0; i < map.size(); i++) {
    const v = map.at(i);
    if (v === null || !v.isDecodableString()) return false;
  }
  return true;
}

/** Reads one backend object `{metadata: {name, namespace?, uid?}, spec}`; null when unusable. */
export function readCandidate(item: JsonValue | null, podNamespace: string): Candidate | null {
  if (item === null || !item.isObject()) return null;
  const metadata = item.getPresent("metadata");
  if (metadata === null || !metadata.isObject()) return null;
  const name = metadata.stringOrNull("name");
  if (name === null) return null;
  const ns = metadata.stringOrNull("namespace");
  const uid = metadata.stringOrNull("uid");
  const spec = item.getPresent("spec");
  let matchLabels: JsonValue | null = null;
  if (spec !== null) {
    if (!spec.isObject()) return null;
    const selector = spec.getPresent("engineSelector");
    if (selector !== null) {
      if (!selector.isObject()) return null;
      matchLabels = selector.getPresent("matchLabels");
      if (!stringMapOk(matchLabels)) return null;
    }
  }
  return new Candidate(ns !== null && ns.length > 0 ? ns : podNamespace, name, uid, matchLabels, spec);
}

/** the detail of a failed CacheBackend listing (built only when it is reported) */
function listingFailed(namespace: string): string {
  return "listing CacheBackends in " + shortenRendered(namespace) + " failed";
}

/** Step 6: inline backends, else the list lookup, else none. */
export function collectCandidates(settings: JsonValue, lookups: KubernetesLookups, namespace: string): Candidates {
  const out = new Candidates();
  const inline = settings.getPresent("backends");
  let items: JsonValue | null = null;
  if (inline !== null) {
    if (!inline.isArray())
      return Candidates.failed(REASON_INVALID_REQUEST, detailInvalidRequest("settings.backends is not a list"));
    items = inline;
  } else {
    if (settings.memberIsBool("lookup", false)) return out;
    const result = lookups.listResourcesByNamespace(CACHEBACKEND_API_VERSION, CACHEBACKEND_KIND, namespace, "", "");
    if (result.denied)
      return Candidates.failed(
        REASON_LOOKUP_DENIED,
        "listing CacheBackends in " + shortenRendered(namespace) + " was denied; use settings.backends",
      );
    const list = result.value;
    if (!result.found || list === null) return Candidates.failed(REASON_LOOKUP_FAILED, listingFailed(namespace));
    items = list.getPresent("items");
    if (items === null) return out;
    if (!items.isArray()) return Candidates.failed(REASON_LOOKUP_FAILED, listingFailed(namespace));
  }
  for (let i = 0; i < items.size(); i++) {
    const c = readCandidate(items.at(i), namespace);
    if (c === null) {
      if (inline !== null)
        return Candidates.failed(
          REASON_INVALID_REQUEST,
          detailInvalidRequest("settings.backends[" + i32ToDecimal(i) + "] is not a CacheBackend"),
        );
      return Candidates.failed(REASON_LOOKUP_FAILED, listingFailed(namespace));
    }
    // inline backends are namespace-less: they belong to the pod's namespace
    if (inline !== null) c.namespace = namespace;
    out.list.push(c);
  }
  return out;
}

/** Non-empty matchLabels whose every pair the pod labels carry with an equal value. */
export function selects(matchLabels: JsonValue | null, labels: JsonValue | null): bool {
  if (matchLabels === null || !matchLabels.isObject() || matchLabels.size() == 0) return false;
  if (labels === null || !labels.isObject()) return false;
  for (let i = 0; i < matchLabels.size(); i++) {
    const want = matchLabels.at(i);
    const wantText = want !== null ? want.stringValue() : null;
    if (wantText === null || !labels.stringEquals(matchLabels.keyAt(i), wantText)) return false;
  }
  return true;
}

/** The matching candidates sorted by name (byte order for the ASCII names Kubernetes allows). */
export function matchingCandidates(candidates: Candidate[], labels: JsonValue | null): Candidate[] {
  const out = new Array<Candidate>(0);
  for (let i = 0; i < candidates.length; i++) if (selects(candidates[i].matchLabels, labels)) out.push(candidates[i]);
  // insertion sort: stable, and lists are short
  for (let i = 1; i < out.length; i++) {
    const c = out[i];
    let j = i - 1;
    while (j >= 0 && out[j].name > c.name) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = c;
  }
  return out;
}

// ---------------------------------------------------------------- engine container

/** #engine-container: the first `sglang`, else the only container; -1 when neither. */
export function engineContainerIndex(pod: JsonValue): i32 {
  const named = findContainerIndex(pod, HICACHE_ENGINE_CONTAINER);
  if (named >= 0) return named;
  return readContainers(pod).length == 1 ? 0 : -1;
}

/** The engine-container-not-found detail: the names as Go prints a []string, and why no guess. */
export function engineContainerNotFoundDetail(pod: JsonValue): string {
  const names = containerNames(pod);
  if (names.length == 0) return DETAIL_POD_HAS_NO_CONTAINERS;
  const shown = new Array<string>(0);
  for (let i = 0; i < names.length; i++) shown.push(shortenRendered(names[i]));
  return (
    "pod has " +
    i32ToDecimal(names.length) +
    " containers [" +
    shown.join(" ") +
    '] but none is named "' +
    HICACHE_ENGINE_CONTAINER +
    '"; with several containers the policy does not guess which one runs SGLang'
  );
}

// ---------------------------------------------------------------- the steps

function invalidRequest(what: string, plan: Plan): Decision {
  return Decision.failOpen(REASON_INVALID_REQUEST, detailInvalidRequest(what), plan);
}

function labelsOf(pod: JsonValue): JsonValue | null {
  const metadata = pod.getPresent("metadata");
  if (metadata === null || !metadata.isObject()) return null;
  return metadata.getPresent("labels");
}

function envNames(container: JsonValue): string[] {
  const out = new Array<string>(0);
  const env = container.getPresent("env");
  if (env === null || !env.isArray()) return out;
  for (let i = 0; i < env.size(); i++) {
    const name = itemName(env.at(i));
    if (name !== null) out.push(name);
  }
  return out;
}

export function planHiCacheInjection(decoded: DecodedRequest, lookups: KubernetesLookups): Decision {
  // 1. the payload and `request` could be read
  const request = decoded.request;
  if (request === null) return invalidRequest(decoded.error, new Plan());

  // 2. only Pod CREATE with an object
  const pod = request.object;
  if (pod === null || request.operation != OPERATION_CREATE) return Decision.pass();

  // 3. object, metadata, annotations and labels have their shapes
  let shape = checkAnnotations(pod);
  if (shape.length == 0) shape = checkLabels(pod);
  if (shape.length > 0) return invalidRequest(shape, new Plan());

  // 4. opt-out, before any lookup
  if (skipAnnotationOptsOut(annotationOrEmpty(pod, SKIP_INJECT_ANNOTATION))) return Decision.quiet(optOutPlan(pod));

  // 5. namespace
  const namespace = request.namespaceOrObjectNamespace();
  if (namespace.length == 0) return invalidRequest("namespace is missing", stripPlan(pod));

  // 6. candidates
  const candidates = collectCandidates(request.settings, lookups, namespace);
  if (!candidates.ok) return Decision.failOpen(candidates.reason, candidates.detail, stripPlan(pod));

  // 7. matching
  const matches = matchingCandidates(candidates.list, labelsOf(pod));
  if (matches.length == 0) return Decision.quiet(stripPlan(pod));
  let hiCacheMatches = 0;
  for (let i = 0; i < matches.length; i++) if (matches[i].isHiCache) hiCacheMatches++;
  if (matches.length > 1 && hiCacheMatches > 0) {
    const refs = new Array<string>(0);
    for (let i = 0; i < matches.length; i++) refs.push(matches[i].ref);
    return Decision.failOpen(
      REASON_AMBIGUOUS_BACKENDS,
      "pod labels match CacheBackends " + refs.join(", "),
      stripPlan(pod),
    );
  }
  if (hiCacheMatches == 0) return Decision.pass(); // H1: another component owns the pod

  // 8, 9. the one HiCache backend, re-checked at the boundary
  const chosen = matches[0];
  const backend = readHiCacheBackend(chosen.spec);
  const problem = backendProblem(backend);
  if (problem.length > 0)
    return Decision.failOpen(
      REASON_INVALID_BACKEND,
      backendRef(chosen.namespace, chosen.name) + ": " + problem,
      stripPlan(pod),
    );

  // 10. engine container (and, step 14, the pod fields the wiring reads)
  const listShape = checkContainerList(pod);
  if (listShape.length > 0) return invalidRequest(listShape, stripPlan(pod));
  const index = engineContainerIndex(pod);
  if (index < 0)
    return Decision.failOpen(REASON_ENGINE_CONTAINER_NOT_FOUND, engineContainerNotFoundDetail(pod), stripPlan(pod));
  const container = containerAt(pod, index);
  if (container === null) return invalidRequest(containerPath(index) + " is not an object", stripPlan(pod));
  if (checkContainerFields(container, "").length > 0)
    return invalidRequest(checkContainerFields(container, containerPath(index)), stripPlan(pod));
  const args = engineArgs(container, backend);
  if (args === null) return invalidRequest(containerPath(index) + ".args is not an array of strings", stripPlan(pod));

  // 11. SGLang's LMCache integration is not combined with HiCache
  if (hasLmcacheArgs(args)) return Decision.failOpen(REASON_LMCACHE_ARGS_PRESENT, lmcacheArgsDetail(), stripPlan(pod));

  // 12. arguments
  const argPlan = planArgs(args, backend);
  if (!argPlan.ok) return Decision.failOpen(REASON_ARG_CONFLICT, argPlan.conflict, stripPlan(pod));

  // 13. NFS env, volume and mount
  const spec = pod.getPresent("spec");
  const plan = new Plan();
  if (argPlan.tokens.length > 0) plan.appendArgs(index, argPlan.tokens);
  if (backend.isNfs) {
    if (spec !== null) {
      const volumesShape = checkNamedObjectArray(spec, "volumes", "spec");
      if (volumesShape.length > 0) return invalidRequest(volumesShape, stripPlan(pod));
    }
    const nfs = planNfs(container, spec, backend);
    if (!nfs.ok) return Decision.failOpen(nfs.reason, nfs.detail, stripPlan(pod));
    if (nfs.appendEnv) plan.appendToContainerList(index, "env", plannedEnv(backend));
    if (nfs.appendMount) plan.appendToContainerList(index, "volumeMounts", plannedMount(backend));
    if (nfs.appendVolume) plan.appendToPodList("volumes", plannedVolume(backend));
  }

  // 15. engineOverrides (non-reserved entries), then provenance
  const overrideTokens = overrideArgTokens(args, backend.overrideArgs);
  if (overrideTokens.length > 0) plan.appendArgs(index, overrideTokens);
  const userEnv = backend.overrideEnv.length > 0 ? envNames(container) : new Array<string>(0);
  for (let i = 0; i < backend.overrideEnv.length; i++) {
    if (userEnv.indexOf(backend.overrideEnvNames[i]) >= 0) continue;
    plan.appendToContainerList(index, "env", backend.overrideEnv[i]);
  }
  plan.removeAnnotation(INJECT_SKIPPED_ANNOTATION);
  plan.setAnnotation(INJECTED_BY_ANNOTATION, chosen.namespace + "/" + chosen.name);
  const uid = chosen.uid;
  if (uid !== null) plan.setAnnotation(INJECTED_BY_UID_ANNOTATION, uid);
  else plan.removeAnnotation(INJECTED_BY_UID_ANNOTATION);

  const decision = new Decision();
  decision.kind = DecisionKind.Inject;
  decision.plan = plan;
  return decision;
}
