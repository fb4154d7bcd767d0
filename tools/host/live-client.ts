// The live cluster behind `cachewarden run` and `preview --kubeconfig`: @kubernetes/client-node
// reads the kubeconfig (KUBECONFIG, ~/.kube/config or in-cluster, like kwctl's `Config::infer`;
// --kubeconfig and --context on top), runs its auth plugins, TLS and discovery, and builds every
// request; this file only keeps the answers' bytes. A lookup follows policy-evaluator's kube client
// (docs/wasm-contract.md#live-lookups): discovery first (its `Cannot find resource` and `error
// finding resource` texts), kwctl's scope rules, a get answered as the API server returned the
// object, a list as its reflector holds the items (through cluster.ts, the one writer of answers),
// `can_i` as a SubjectAccessReview. Failures also get one line for the user (`problem`).
//
// Asynchronous; the guest's synchronous host calls reach it through tools/host/live.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as K8s from "@kubernetes/client-node";
import {
  cachedMetadata,
  clusterWideText,
  dynamicObjectJson,
  KubeObject,
  listAnswerJson,
  namespacedWithoutNamespaceText,
  notFoundText,
} from "./cluster";
import { parseJsonOrYaml } from "./documents";
import { rustDebugOption, rustDebugString } from "./rust";
import { serdeJson } from "./serde";

/** Where a live cluster is: plain data, so an evaluation in a worker thread gets it too. */
export interface LiveSource {
  /** a kubeconfig file; default: KUBECONFIG, ~/.kube/config, in-cluster (like kubectl and kwctl) */
  kubeconfig?: string;
  /** a context of the kubeconfig; default: its current-context */
  context?: string;
  /** how long an answer is reused (policy-server: 5 s); `preview` keeps them for its whole run */
  cacheSeconds?: number;
  /** how long a guest waits for one answer before the lookup fails (default 60 s) */
  answerTimeoutMs?: number;
}

/** policy-evaluator's cache of lookups: 5 seconds. */
export const DEFAULT_CACHE_SECONDS = 5;

/** An answer for the guest; a failure also has `problem`, one line for the user when it is not the policy's doing. */
export type LiveAnswer = { ok: true; response: string } | { ok: false; error: string; problem?: string };

/** What failed, as the guest reads it (kwctl's text) and as the user reads it (one line). */
export interface LiveFailure {
  error: string;
  problem: string;
  /** `not-served`: the API group/version or kind does not exist (a CRD not installed) */
  cause: "unreachable" | "unauthorized" | "forbidden" | "not-served" | "other";
}

/** Items per page of a list, as kubectl pages (`--chunk-size` 500). */
export const PAGE_SIZE = 500;

const SERVICE_ACCOUNT_TOKEN = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** Why no kubeconfig can be loaded for `source` (null when one can), before any client is made. */
export function kubeconfigProblem(source: LiveSource): string | null {
  if (source.kubeconfig !== undefined)
    return fs.existsSync(source.kubeconfig) ? null : `cannot read kubeconfig ${source.kubeconfig}: no such file`;
  if (process.env.KUBECONFIG) return null;
  if (fs.existsSync(path.join(os.homedir(), ".kube", "config")) || fs.existsSync(SERVICE_ACCOUNT_TOKEN)) return null;
  return "no kubeconfig: give --kubeconfig <file>, set KUBECONFIG, or write ~/.kube/config";
}

// --- kube-rs' error texts --------------------------------------------------------------------------

interface ApiStatus {
  status?: string;
  code?: number;
  message?: string;
  reason?: string;
  metadata?: { continue?: string; remainingItemCount?: number; resourceVersion?: string; selfLink?: string };
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

const str = (v: string | undefined): string => rustDebugString(v ?? "");
const opt = (v: string | number | undefined): string =>
  v === undefined ? "None" : typeof v === "number" ? `Some(${v})` : rustDebugOption(v);

/** kube-rs' `Error::Api` text: `ApiError: <message>: <reason> (<Debug of the Status>)`. */
export function kubeApiErrorText(s: ApiStatus): string {
  const meta = s.metadata
    ? `Some(ListMeta { continue_: ${opt(s.metadata.continue)}, remaining_item_count: ${opt(s.metadata.remainingItemCount)}, resource_version: ${opt(s.metadata.resourceVersion)}, self_link: ${opt(s.metadata.selfLink)} })`
    : "None";
  const d = s.details;
  const details = d
    ? `Some(StatusDetails { name: ${str(d.name)}, group: ${str(d.group)}, kind: ${str(d.kind)}, uid: ${str(d.uid)}, causes: [${(d.causes ?? []).map((c) => `StatusCause { reason: ${str(c.reason)}, message: ${str(c.message)}, field: ${str(c.field)} }`).join(", ")}], retry_after_seconds: ${d.retryAfterSeconds ?? 0} })`
    : "None";
  const debug = `Status { status: ${s.status ? `Some(${s.status})` : "None"}, code: ${s.code ?? 0}, message: ${str(s.message)}, metadata: ${meta}, reason: ${str(s.reason)}, details: ${details} }`;
  return `ApiError: ${s.message ?? ""}: ${s.reason ?? ""} (${debug})`;
}

/** The Status of an error body; a body that is not one is kept as kube-rs keeps it. */
function statusOf(code: number, body: unknown): ApiStatus {
  let parsed: unknown = body;
  if (typeof body === "string")
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
  if (parsed !== null && typeof parsed === "object" && (parsed as { kind?: unknown }).kind === "Status")
    return parsed as ApiStatus;
  return {
    status: "Failure",
    code,
    message: typeof body === "string" ? body : "",
    reason: "Failed to parse error data",
  };
}

// --- the client -------------------------------------------------------------------------------------

type RawResponse = { code: number; text: string };
type Resource = { plural: string; namespaced: boolean };

let clientNode: Promise<typeof K8s> | undefined;
/** client-node is ESM and large: loaded when a live cluster is first used. */
const loadClientNode = (): Promise<typeof K8s> => (clientNode ??= import("@kubernetes/client-node"));

export class LiveClient {
  private readonly resources = new Map<string, Promise<Resource | LiveFailure>>();
  private readonly cache = new Map<string, { at: number; answer: Promise<LiveAnswer> }>();
  private cacheMs = DEFAULT_CACHE_SECONDS * 1000;

  private constructor(
    private readonly api: K8s.KubernetesObjectApi & {
      resourceOf(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined>;
      resourcesOf(apiVersion: string): K8s.V1APIResource[];
    },
    /** the context used, for messages */
    readonly context: string,
    readonly server: string,
  ) {}

  /** Loads the kubeconfig and picks the context; throws one line when either is unusable. */
  static async connect(source: LiveSource): Promise<LiveClient> {
    const problem = kubeconfigProblem(source);
    if (problem) throw new Error(problem);
    const k8s = await loadClientNode();
    const kc = new k8s.KubeConfig();
    try {
      if (source.kubeconfig !== undefined) kc.loadFromFile(source.kubeconfig);
      else kc.loadFromDefault();
    } catch (e) {
      throw new Error(`cannot load kubeconfig ${source.kubeconfig ?? "(default)"}: ${oneLine((e as Error).message)}`);
    }
    if (source.context !== undefined) {
      if (!kc.getContextObject(source.context))
        throw new Error(`kubeconfig has no context ${JSON.stringify(source.context)}`);
      kc.setCurrentContext(source.context);
    }
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error(`kubeconfig context ${JSON.stringify(kc.getCurrentContext())} names no cluster`);
    // client-node builds every request (discovery, paths, auth, TLS); only the answers' bytes are
    // kept here, since its models would drop unknown fields and number text
    class RawObjectApi extends k8s.KubernetesObjectApi {
      resourceOf(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined> {
        return this.resource(apiVersion, kind);
      }
      /** the group version's resources, once `resourceOf` has read them */
      resourcesOf(apiVersion: string): K8s.V1APIResource[] {
        return this.apiVersionResourceCache[apiVersion]?.resources ?? [];
      }
      protected async processResponse<T extends K8s.KubernetesObject>(
        response: K8s.ResponseContext,
        type?: string,
      ): Promise<T> {
        if (type !== undefined) return super.processResponse(response, type); // discovery
        const raw: RawResponse = { code: response.httpStatusCode, text: await response.body.text() };
        return raw as unknown as T;
      }
    }
    const client = new LiveClient(kc.makeApiClient(RawObjectApi), kc.getCurrentContext(), cluster.server);
    if (source.cacheSeconds !== undefined) client.cacheMs = source.cacheSeconds * 1000;
    return client;
  }

  /** One line for a request that did not get an HTTP answer, or got an error status. */
  private failure(e: unknown, what: string): LiveFailure {
    const ex = e as { code?: unknown; body?: unknown; message?: string };
    if (typeof ex.code === "number") return this.statusFailure(ex.code, ex.body, what);
    // no HTTP answer at all (refused, unresolvable, TLS): kube-rs' client says only this
    const reason = oneLine(String(ex.message ?? e).replace(/^Failed to fetch resource metadata for [^:]*: /, ""));
    return {
      error: "ServiceError: client error (Connect)",
      problem: `cannot reach the cluster of context ${JSON.stringify(this.context)} at ${this.server}: ${reason.replace(/^request to \S+ failed, reason: /, "")}`,
      cause: "unreachable",
    };
  }

  private statusFailure(code: number, body: unknown, what: string): LiveFailure {
    const status = statusOf(code, body);
    const error = kubeApiErrorText(status);
    const message = oneLine(status.message ?? "");
    if (code === 401)
      return {
        error,
        problem: `the cluster of context ${JSON.stringify(this.context)} refused its credentials (401 Unauthorized): they are expired or not valid`,
        cause: "unauthorized",
      };
    if (code === 403 && message.includes('User "system:anonymous"'))
      return {
        error,
        problem: `context ${JSON.stringify(this.context)} sends no credentials the cluster accepts (it answers as system:anonymous): ${message}`,
        cause: "unauthorized",
      };
    if (code === 403) return { error, problem: `${what}: forbidden: ${message}`, cause: "forbidden" };
    return { error, problem: `${what}: ${code} ${message}`, cause: "other" };
  }

  /** Discovery of a kind, once per kind, with policy-evaluator's texts for what fails. */
  resource(apiVersion: string, kind: string): Promise<Resource | LiveFailure> {
    const key = `${apiVersion} ${kind}`;
    let found = this.resources.get(key);
    if (!found) {
      found = this.discover(apiVersion, kind);
      this.resources.set(key, found);
    }
    return found;
  }

  private async discover(apiVersion: string, kind: string): Promise<Resource | LiveFailure> {
    const notServed = (error: string): LiveFailure => ({
      error,
      problem: `${kind} (${apiVersion}): the cluster does not serve it${apiVersion.includes(".") ? " (no CustomResourceDefinition for it is installed)" : ""}`,
      cause: "not-served",
    });
    let r: K8s.V1APIResource | undefined;
    try {
      r = await this.api.resourceOf(apiVersion, kind);
    } catch (e) {
      const f = this.failure(e, `discovery of ${apiVersion}`);
      // the core group's discovery error is returned as is; a group's is wrapped
      const error = apiVersion === "v1" ? f.error : `error finding resource ${apiVersion} / ${kind}: ${f.error}`;
      if ((e as { code?: unknown }).code === 404) return notServed(error);
      return { ...f, error };
    }
    if (!r) return notServed(`Cannot find resource ${apiVersion}/${kind}`);
    return { plural: r.name, namespaced: r.namespaced };
  }

  /** The kind of a resource (`pods` → `Pod`) of a served group version; a failure when the version is not served. */
  async kindOf(apiVersion: string, plural: string): Promise<string | null | LiveFailure> {
    const r = await this.resource(apiVersion, "");
    if ("cause" in r && r.cause !== "not-served") return r;
    if ("cause" in r && !/^Cannot find resource/.test(r.error)) return r;
    return this.api.resourcesOf(apiVersion).find((x) => x.name === plural)?.kind ?? null;
  }

  /** A cached answer (policy-server caches gets for 5 s and keeps its list reflectors); `fresh` skips the cache. */
  private cached(key: string, fresh: boolean, answer: () => Promise<LiveAnswer>): Promise<LiveAnswer> {
    if (fresh || this.cacheMs <= 0) return answer();
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < this.cacheMs) return hit.answer;
    const entry = { at: now, answer: answer() };
    this.cache.set(key, entry);
    return entry.answer;
  }

  /** `kubernetes/get_resource`. */
  getResource(
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | null,
    disableCache: boolean,
  ): Promise<LiveAnswer> {
    return this.cached(`get ${apiVersion} ${kind} ${namespace} ${name}`, disableCache, async () => {
      const r = await this.resource(apiVersion, kind);
      if ("cause" in r) return { ok: false, error: r.error, problem: r.problem };
      if (r.namespaced && namespace === null)
        return { ok: false, error: namespacedWithoutNamespaceText(apiVersion, kind) };
      let raw: RawResponse;
      try {
        const spec = { apiVersion, kind, metadata: { name, ...(r.namespaced ? { namespace: namespace! } : {}) } };
        raw = (await this.api.read(spec)) as unknown as RawResponse;
      } catch (e) {
        const f = this.failure(e, `get ${kind} ${name}`);
        return { ok: false, error: f.error, problem: f.problem };
      }
      if (raw.code === 404) return { ok: false, error: notFoundText(apiVersion, kind, name, namespace) };
      if (raw.code >= 300) {
        const f = this.statusFailure(raw.code, raw.text, `get ${kind} ${where(namespace)}/${name}`);
        return { ok: false, error: f.error, problem: f.problem };
      }
      return { ok: true, response: dynamicObjectJson(parseJsonOrYaml(raw.text, "the API server") as KubeObject) };
    });
  }

  /** `kubernetes/list_resources_by_namespace` (a namespace) and `list_resources_all` (null). */
  listResources(
    apiVersion: string,
    kind: string,
    namespace: string | null,
    labelSelector: string | null,
    fieldSelector: string | null,
  ): Promise<LiveAnswer> {
    const key = `list ${apiVersion} ${kind} ${namespace} ${labelSelector} ${fieldSelector}`;
    return this.cached(key, false, async () => {
      const r = await this.resource(apiVersion, kind);
      if ("cause" in r) return { ok: false, error: r.error, problem: r.problem };
      if (namespace !== null && !r.namespaced) return { ok: false, error: clusterWideText(apiVersion, kind) };
      const listed = await this.list(apiVersion, kind, namespace, labelSelector, fieldSelector);
      if ("cause" in listed) return { ok: false, error: listed.error, problem: listed.problem };
      // the reflector's copy of each item (managedFields emptied, kubectl's annotation dropped)
      const items = listed.items.map((o) => dynamicObjectJson(o, cachedMetadata(o)));
      return { ok: true, response: listAnswerJson(apiVersion, kind, items) };
    });
  }

  /**
   * Every object of a kind, page by page (`limit` and `continue`, as client-go's pager and kube-rs'
   * watcher read), each as the API server wrote it (number text kept). For `preview` and lookups.
   */
  async list(
    apiVersion: string,
    kind: string,
    namespace: string | null,
    labelSelector: string | null = null,
    fieldSelector: string | null = null,
  ): Promise<{ items: KubeObject[] } | LiveFailure> {
    const items: KubeObject[] = [];
    let next: string | undefined;
    const what = `list ${kind} ${namespace === null ? "in all namespaces" : `in namespace ${namespace}`}`;
    do {
      let raw: RawResponse;
      try {
        const ns = namespace ?? undefined;
        const ls = labelSelector ?? undefined;
        const fs = fieldSelector ?? undefined;
        const page = await this.api.list(
          apiVersion,
          kind,
          ns,
          undefined,
          undefined,
          undefined,
          fs,
          ls,
          PAGE_SIZE,
          next,
        );
        raw = page as unknown as RawResponse;
      } catch (e) {
        return this.failure(e, what);
      }
      if (raw.code >= 300) return this.statusFailure(raw.code, raw.text, what);
      const page = parseJsonOrYaml(raw.text, "the API server") as {
        items?: KubeObject[];
        metadata?: { continue?: string };
      };
      items.push(...(page.items ?? []));
      next = page.metadata?.continue || undefined;
    } while (next !== undefined);
    return { items };
  }

  /** `kubernetes/can_i`: the review as a SubjectAccessReview; the answer is its status. */
  canI(review: unknown, disableCache: boolean): Promise<LiveAnswer> {
    return this.cached(`can_i ${serdeJson(review)}`, disableCache, async () => {
      const spec = subjectAccessReviewSpec(review);
      if (typeof spec === "string") return { ok: false, error: spec };
      let raw: RawResponse;
      try {
        const sar = { apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", metadata: {}, spec };
        raw = (await this.api.create(sar as K8s.KubernetesObject)) as unknown as RawResponse;
      } catch (e) {
        const f = this.failure(e, "create SubjectAccessReview");
        return { ok: false, error: f.error, problem: f.problem };
      }
      if (raw.code >= 300) {
        const f = this.statusFailure(raw.code, raw.text, "create SubjectAccessReview");
        return { ok: false, error: f.error, problem: f.problem };
      }
      const status = (parseJsonOrYaml(raw.text, "the API server") as { status?: Record<string, unknown> }).status;
      if (!status) return { ok: false, error: "SubjectAccessReview did not return a response" };
      // k8s-openapi's SubjectAccessReviewStatus: its four fields, absent ones left out
      const { allowed, denied, evaluationError, reason } = status;
      return { ok: true, response: serdeJson({ allowed: allowed ?? false, denied, evaluationError, reason }) };
    });
  }
}

function where(namespace: string | null): string {
  return namespace ?? "(cluster)";
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * The SDK's review (`user`, `groups`, `resource_attributes`) as the SubjectAccessReviewSpec
 * policy-evaluator sends; a review it could not read is the serde message.
 */
export function subjectAccessReviewSpec(review: unknown): Record<string, unknown> | string {
  const r = review as Record<string, unknown> | null;
  if (r === null || typeof r !== "object" || Array.isArray(r))
    return "invalid type: expected struct SubjectAccessReview";
  const attrs = r.resource_attributes as Record<string, unknown> | null | undefined;
  if (typeof r.user !== "string") return "missing field `user`";
  if (attrs === null || typeof attrs !== "object") return "missing field `resource_attributes`";
  if (typeof attrs.resource !== "string") return "missing field `resource`";
  if (typeof attrs.verb !== "string") return "missing field `verb`";
  const keep = (v: unknown): unknown => (v === null ? undefined : v);
  return {
    user: r.user,
    ...(Array.isArray(r.groups) ? { groups: r.groups } : {}),
    resourceAttributes: {
      namespace: keep(attrs.namespace),
      verb: attrs.verb,
      group: keep(attrs.group),
      resource: attrs.resource,
      subresource: keep(attrs.subresource),
      name: keep(attrs.name),
      version: keep(attrs.version),
    },
  };
}
