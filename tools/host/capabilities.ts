// `__host_call` as policy-evaluator answers it (docs/wasm-contract.md#host-capabilities): binding
// check, dispatch on namespace/operation, gating (host-capability allow-list, then
// contextAwareResources), strict payload parsing, then an answer from one of three sources: a replay
// session, a fake cluster (objects from a file) or a live cluster (a kubeconfig's, tools/host/live.ts),
// the last two through one adapter. `tracing/log` is never gated nor recorded and returns an empty body.
//
// The configuration is plain data (structured-cloneable) so an evaluation can run in a Worker.
import type { HostCallHandler } from "./instance";
import type { ContextAwareResource } from "./metadata";
import { CALLBACK_FAILURE, FakeCluster, KubeObject } from "./cluster";
import { LiveCluster, LiveSource } from "./live";
import { CallbackRequest, normalizeRequest, ReplayCursor, ReplayExchange } from "./replay";
import { deserialize, SerdeType } from "./serde";

export interface HostCapabilitiesConfig {
  /** capability patterns (`*`, `kubernetes/*`, `kubernetes/get_resource`); default `["*"]` like kwctl */
  allowedHostCapabilities?: string[];
  /** `(apiVersion, kind)` pairs the policy may read; default `[]` like kwctl without --allow-context-aware */
  contextAwareResources?: ContextAwareResource[];
  /** answers from a kwctl replay session (strict order and equality) */
  replay?: ReplayExchange[];
  /** answers from a list of cluster objects */
  cluster?: KubeObject[];
  /** answers from the cluster of a kubeconfig */
  live?: LiveSource;
}

export interface HostCallRecord {
  namespace: string;
  operation: string;
  payload: string;
  ok: boolean;
  /** response text or error text */
  result: string;
  /** the request as kwctl records it, when the call passed the gates and reached an answer source */
  callback?: CallbackRequest;
}

/** What answers lookups from cluster objects, a file's or a live cluster's: the text, or throws the guest's error. */
interface ClusterAnswers {
  get(apiVersion: string, kind: string, name: string, namespace: string | null, disableCache: boolean): string;
  list(
    apiVersion: string,
    kind: string,
    namespace: string | null,
    labelSelector: string | null,
    fieldSelector: string | null,
  ): string;
  canI?(review: unknown, disableCache: boolean): string;
}

interface OperationSpec {
  /** the serde struct of the payload */
  payload: SerdeType;
  /** checked against contextAwareResources */
  contextAware: boolean;
  /** the replay-session variant for this operation */
  variant: string;
}

const OPTIONAL_STRING = { type: "string" as const, optional: true };
const FIELD_MASKS = { type: { seq: "string" as const }, optional: true };

const KUBERNETES_OPERATIONS: Record<string, OperationSpec> = {
  get_resource: {
    contextAware: true,
    variant: "KubernetesGetResource",
    payload: {
      struct: "GetResourceRequest",
      fields: {
        api_version: { type: "string" },
        kind: { type: "string" },
        name: { type: "string" },
        namespace: OPTIONAL_STRING,
        disable_cache: { type: "bool" },
        field_masks: FIELD_MASKS,
      },
    },
  },
  list_resources_by_namespace: {
    contextAware: true,
    variant: "KubernetesListResourceNamespace",
    payload: {
      struct: "ListResourcesByNamespaceRequest",
      fields: {
        api_version: { type: "string" },
        kind: { type: "string" },
        namespace: { type: "string" },
        label_selector: OPTIONAL_STRING,
        field_selector: OPTIONAL_STRING,
        field_masks: FIELD_MASKS,
      },
    },
  },
  list_resources_all: {
    contextAware: true,
    variant: "KubernetesListResourceAll",
    payload: {
      struct: "ListAllResourcesRequest",
      fields: {
        api_version: { type: "string" },
        kind: { type: "string" },
        label_selector: OPTIONAL_STRING,
        field_selector: OPTIONAL_STRING,
        field_masks: FIELD_MASKS,
      },
    },
  },
  can_i: {
    contextAware: false,
    variant: "KubernetesCanI",
    payload: {
      struct: "CanIRequest",
      fields: { subject_access_review: { type: "value" }, disable_cache: { type: "bool" } },
    },
  },
};

/** `*` matches everything, `ns/*` a whole namespace, anything else exactly. */
export function capabilityAllowed(patterns: readonly string[], path: string): boolean {
  return patterns.some((p) => p === "*" || p === path || (p.endsWith("/*") && path.startsWith(p.slice(0, -1))));
}

export function capabilityDeniedText(path: string): string {
  return `Policy has not been granted access to the '${path}' host capability. The violation has been reported.`;
}

export function contextAwareDeniedText(apiVersion: string, kind: string): string {
  return `Policy has not been granted access to Kubernetes ${apiVersion}/${kind} resources. The violation has been reported.`;
}

/** What a guest reads when kwctl has no cluster to ask (the callback's error, with the runtime's prefix). */
/** How a live lookup's failure that is not the policy's doing starts among an evaluation's warnings. */
export const LIVE_PROBLEM = "live cluster: ";

export const NO_CLUSTER_TEXT = `${CALLBACK_FAILURE}kube::Client was not initialized properly`;

type Answer = { ok: true; response: Buffer } | { ok: false; error: string };
const fail = (error: string): Answer => ({ ok: false, error });
const succeed = (body: string): Answer => ({ ok: true, response: Buffer.from(body, "utf8") });

/** One per evaluation: holds the replay cursor and records what the policy asked. */
export class HostCapabilities {
  readonly calls: HostCallRecord[] = [];
  readonly logs: string[] = [];
  private readonly allowed: string[];
  private readonly contextAware: ContextAwareResource[];
  private readonly replay?: ReplayCursor;
  private readonly cluster?: ClusterAnswers;
  private readonly live?: LiveCluster;

  /** `log` receives `tracing/log` payloads (they are also kept in `logs`) */
  constructor(
    config: HostCapabilitiesConfig = {},
    private readonly log?: (line: string) => void,
  ) {
    if ([config.replay, config.cluster, config.live].filter((s) => s !== undefined).length > 1)
      throw new Error("host capabilities: use one of a replay session, cluster objects or a live cluster");
    this.allowed = config.allowedHostCapabilities ?? ["*"];
    this.contextAware = config.contextAwareResources ?? [];
    if (config.replay) this.replay = new ReplayCursor(config.replay);
    if (config.cluster) this.cluster = new FakeCluster(config.cluster);
    if (config.live) this.cluster = this.live = new LiveCluster(config.live);
  }

  /** The handler to give `PolicyModule.call`. */
  readonly handler: HostCallHandler = (binding, namespace, operation, payload) => {
    const text = payload.toString("utf8");
    if (binding !== "kubewarden") return fail(`unknown binding: ${binding}`);
    if (namespace === "tracing") return this.trace(operation, text);
    const record: HostCallRecord = { namespace, operation, payload: text, ok: false, result: "" };
    const answer = this.dispatch(namespace, operation, text, record);
    record.ok = answer.ok;
    record.result = answer.ok ? answer.response.toString("utf8") : answer.error;
    this.calls.push(record);
    return answer;
  };

  /** Warnings to show after the evaluation (unused replay exchanges, live lookups that could not be made). */
  warnings(): string[] {
    const w = this.replay?.leftoverWarning();
    return [...(w ? [w] : []), ...(this.live?.problems ?? []).map((p) => `${LIVE_PROBLEM}${p}`)];
  }

  private trace(operation: string, text: string): Answer {
    if (operation !== "log") return fail(`unknown operation: ${operation}`);
    this.logs.push(text);
    this.log?.(text);
    return succeed("");
  }

  private dispatch(namespace: string, operation: string, text: string, record: HostCallRecord): Answer {
    if (namespace !== "kubernetes") return fail(`unknown namespace: ${namespace}`);
    const spec = Object.prototype.hasOwnProperty.call(KUBERNETES_OPERATIONS, operation)
      ? KUBERNETES_OPERATIONS[operation]
      : undefined;
    if (!spec) return fail(`unknown operation: ${operation}`);
    const path = `${namespace}/${operation}`;
    if (!capabilityAllowed(this.allowed, path)) return fail(capabilityDeniedText(path));
    let request: Record<string, unknown>;
    try {
      request = deserialize<Record<string, unknown>>(text, spec.payload);
    } catch (e) {
      return fail((e as Error).message);
    }
    if (spec.contextAware) {
      const apiVersion = String(request.api_version);
      const kind = String(request.kind);
      if (!this.contextAware.some((r) => r.apiVersion === apiVersion && r.kind === kind))
        return fail(contextAwareDeniedText(apiVersion, kind));
    }
    record.callback = toCallbackRequest(spec.variant, request);
    if (this.replay) return this.replay.answer(record.callback);
    if (this.cluster) return this.fromCluster(this.cluster, operation, request);
    return fail(NO_CLUSTER_TEXT);
  }

  private fromCluster(cluster: ClusterAnswers, operation: string, r: Record<string, unknown>): Answer {
    // the payload was read strictly: an optional field is a string or null, never absent
    const s = (v: unknown): string | null => (v === null ? null : String(v));
    const source = this.live ? "live cluster" : "cluster objects";
    if (Array.isArray(r.field_masks) && r.field_masks.length > 0)
      return fail(`${source}: field_masks are not supported by this host`);
    try {
      switch (operation) {
        case "get_resource":
          return succeed(
            cluster.get(
              String(r.api_version),
              String(r.kind),
              String(r.name),
              s(r.namespace),
              r.disable_cache === true,
            ),
          );
        case "list_resources_by_namespace":
          return succeed(
            cluster.list(
              String(r.api_version),
              String(r.kind),
              String(r.namespace),
              s(r.label_selector),
              s(r.field_selector),
            ),
          );
        case "list_resources_all":
          return succeed(
            cluster.list(String(r.api_version), String(r.kind), null, s(r.label_selector), s(r.field_selector)),
          );
        default:
          if (cluster.canI) return succeed(cluster.canI(r.subject_access_review, r.disable_cache === true));
          return fail(`cluster objects cannot answer kubernetes/${operation}; use a replay session`);
      }
    } catch (e) {
      return fail((e as Error).message);
    }
  }
}

/** The live request in the shape kwctl records it (can_i's `subject_access_review` is recorded as `request`). */
function toCallbackRequest(variant: string, payload: Record<string, unknown>): CallbackRequest {
  if (variant === "KubernetesCanI")
    return normalizeRequest(variant, { request: payload.subject_access_review, disable_cache: payload.disable_cache });
  return normalizeRequest(variant, payload);
}
