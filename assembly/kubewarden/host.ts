// Kubewarden host capabilities (docs/wasm-contract.md#host-capabilities): Kubernetes lookups
// through one seam and `tracing/log`. Payload key order is fixed
// (docs/wasm-contract.md#lookup-payloads) so recorded replay sessions compare equal; host errors
// are classified in one place (docs/wasm-contract.md#host-errors). `field_masks` is never sent.
import { hostCall, HostCallResult } from "../wapc/index";
import { failure, success } from "../util/result";
import { ByteSink, JsonValue, parseJson } from "../json/index";

// @ts-ignore: decorator
@lazy
export const BINDING_KUBEWARDEN = "kubewarden";
// @ts-ignore: decorator
@lazy
export const NAMESPACE_KUBERNETES = "kubernetes";
// @ts-ignore: decorator
@lazy
export const NAMESPACE_TRACING = "tracing";
// @ts-ignore: decorator
@lazy
export const OP_GET_RESOURCE = "get_resource";
// @ts-ignore: decorator
@lazy
export const OP_LIST_RESOURCES_BY_NAMESPACE = "list_resources_by_namespace";
// @ts-ignore: decorator
@lazy
export const OP_LIST_RESOURCES_ALL = "list_resources_all";
// @ts-ignore: decorator
@lazy
export const OP_LOG = "log";

export enum LookupStatus {
  Found = 0,
  NotFound = 1,
  Denied = 2,
  Failed = 3,
}

/** The outcome of one lookup: `value` is the parsed object iff `status == Found`; `error` is the
 *  host's text (or why a success was unreadable) otherwise. */
export class LookupResult {
  constructor(
    public status: LookupStatus,
    public value: JsonValue | null,
    public error: string,
  ) {}
  get found(): bool {
    return this.status == LookupStatus.Found;
  }
  get notFound(): bool {
    return this.status == LookupStatus.NotFound;
  }
  get denied(): bool {
    return this.status == LookupStatus.Denied;
  }
  get failed(): bool {
    return this.status == LookupStatus.Failed;
  }
}

/** The classification: denied, then (get_resource only) not found, else failed. */
export function classifyHostError(operation: string, text: string): LookupStatus {
  if (text.includes("has not been granted access")) return LookupStatus.Denied;
  if (operation == OP_GET_RESOURCE && isNotFoundText(text)) return LookupStatus.NotFound;
  return LookupStatus.Failed;
}

/** `Cannot find ` followed later by ` named '` (the unknown-kind text lacks the second part). */
function isNotFoundText(text: string): bool {
  const at = text.indexOf("Cannot find ");
  if (at < 0) return false;
  return text.indexOf(" named '", at + 12) >= 0;
}

/** Turns a raw host exchange into a LookupResult; a success must be a JSON object. */
export function classifyHostCall(operation: string, result: HostCallResult): LookupResult {
  if (!result.ok) return new LookupResult(classifyHostError(operation, result.error), null, result.error);
  const parsed = parseJson(result.value);
  const value = parsed.value;
  if (value === null)
    return new LookupResult(LookupStatus.Failed, null, "host response is not valid JSON: " + parsed.error);
  if (!value.isObject()) return new LookupResult(LookupStatus.Failed, null, "host response is not a JSON object");
  return new LookupResult(LookupStatus.Found, value, "");
}

// ---- payloads (exact key order) ----

/** `{"api_version","kind","name","namespace"(null when ""),"disable_cache"}` */
export function getResourcePayload(
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string,
  disableCache: bool,
): Uint8Array {
  const sink = new ByteSink(256); // room for the worst-case reservations of the writes below: no regrowth
  writeApiVersionKind(sink, apiVersion, kind);
  writeKey(sink, "name");
  sink.writeJsonString(name);
  writeKey(sink, "namespace");
  writeStringOrNull(sink, namespace);
  writeKey(sink, "disable_cache");
  sink.writeUtf8(disableCache ? "true" : "false");
  sink.writeByte(0x7d);
  return sink.bytes();
}

/** `{"api_version","kind","namespace"(null when ""),"label_selector"?,"field_selector"?}` */
export function listByNamespacePayload(
  apiVersion: string,
  kind: string,
  namespace: string,
  labelSelector: string,
  fieldSelector: string,
): Uint8Array {
  const sink = new ByteSink(128);
  writeApiVersionKind(sink, apiVersion, kind);
  writeKey(sink, "namespace");
  writeStringOrNull(sink, namespace);
  writeSelectors(sink, labelSelector, fieldSelector);
  sink.writeByte(0x7d);
  return sink.bytes();
}

/** `{"api_version","kind","label_selector"?,"field_selector"?}` */
export function listAllPayload(
  apiVersion: string,
  kind: string,
  labelSelector: string,
  fieldSelector: string,
): Uint8Array {
  const sink = new ByteSink(128);
  writeApiVersionKind(sink, apiVersion, kind);
  writeSelectors(sink, labelSelector, fieldSelector);
  sink.writeByte(0x7d);
  return sink.bytes();
}

function writeApiVersionKind(sink: ByteSink, apiVersion: string, kind: string): void {
  sink.writeUtf8('{"api_version":');
  sink.writeJsonString(apiVersion);
  writeKey(sink, "kind");
  sink.writeJsonString(kind);
}

function writeSelectors(sink: ByteSink, labelSelector: string, fieldSelector: string): void {
  if (labelSelector.length > 0) {
    writeKey(sink, "label_selector");
    sink.writeJsonString(labelSelector);
  }
  if (fieldSelector.length > 0) {
    writeKey(sink, "field_selector");
    sink.writeJsonString(fieldSelector);
  }
}

/** `,"<key>":` — keys here are fixed ASCII identifiers. */
function writeKey(sink: ByteSink, key: string): void {
  // `,"<key>":` written piecewise (no concatenated string)
  sink.writeByte(0x2c);
  sink.writeByte(0x22);
  sink.writeUtf8(key);
  sink.writeByte(0x22);
  sink.writeByte(0x3a);
}

function writeStringOrNull(sink: ByteSink, text: string): void {
  if (text.length == 0) sink.writeUtf8("null");
  else sink.writeJsonString(text);
}

// ---- the seam ----

/**
 * Kubernetes lookups. Subclasses supply `exchange` (one raw host call); payload building and
 * classification are shared, so tests with recorded answers exercise the same code as the module.
 */
export abstract class KubernetesLookups {
  /** One host call `kubewarden/kubernetes/<operation>` with `payload`. */
  abstract exchange(operation: string, payload: Uint8Array): HostCallResult;

  /** `namespace` "" means cluster-scoped (sent as null). */
  getResource(apiVersion: string, kind: string, name: string, namespace: string, disableCache: bool): LookupResult {
    const payload = getResourcePayload(apiVersion, kind, name, namespace, disableCache);
    return classifyHostCall(OP_GET_RESOURCE, this.exchange(OP_GET_RESOURCE, payload));
  }

  /** Selectors "" are omitted. The result is a Kubernetes List object. */
  listResourcesByNamespace(
    apiVersion: string,
    kind: string,
    namespace: string,
    labelSelector: string,
    fieldSelector: string,
  ): LookupResult {
    const payload = listByNamespacePayload(apiVersion, kind, namespace, labelSelector, fieldSelector);
    return classifyHostCall(OP_LIST_RESOURCES_BY_NAMESPACE, this.exchange(OP_LIST_RESOURCES_BY_NAMESPACE, payload));
  }

  listResourcesAll(apiVersion: string, kind: string, labelSelector: string, fieldSelector: string): LookupResult {
    const payload = listAllPayload(apiVersion, kind, labelSelector, fieldSelector);
    return classifyHostCall(OP_LIST_RESOURCES_ALL, this.exchange(OP_LIST_RESOURCES_ALL, payload));
  }
}

/** The real host (`__host_call`). */
export class WapcLookups extends KubernetesLookups {
  exchange(operation: string, payload: Uint8Array): HostCallResult {
    return hostCall(BINDING_KUBEWARDEN, NAMESPACE_KUBERNETES, operation, payload);
  }
}

/** One call a RecordedLookups saw. */
export class RecordedCall {
  constructor(
    public operation: string,
    public payload: string,
  ) {}
}

/** One recorded answer; `expectOperation`/`expectPayload` "" match anything. */
export class RecordedAnswer {
  constructor(
    public ok: bool,
    public text: string,
    public expectOperation: string,
    public expectPayload: string,
  ) {}
}

/**
 * Recorded answers for unit tests, consumed in order like a kwctl replay session. A call that does
 * not match its expected request, or comes after the answers ran out, gets a host error
 * (`Replay error: …`), i.e. a Failed lookup. `calls` records every request made.
 */
export class RecordedLookups extends KubernetesLookups {
  answers: RecordedAnswer[] = [];
  calls: RecordedCall[] = [];
  private next: i32 = 0;

  /** Answer the next call with `responseText` as the success payload. */
  succeed(responseText: string, expectOperation: string = "", expectPayload: string = ""): RecordedLookups {
    this.answers.push(new RecordedAnswer(true, responseText, expectOperation, expectPayload));
    return this;
  }

  /** Answer the next call with a host error carrying `message`. */
  fail(message: string, expectOperation: string = "", expectPayload: string = ""): RecordedLookups {
    this.answers.push(new RecordedAnswer(false, message, expectOperation, expectPayload));
    return this;
  }

  get remaining(): i32 {
    return this.answers.length - this.next;
  }

  exchange(operation: string, payload: Uint8Array): HostCallResult {
    const payloadText = String.UTF8.decodeUnsafe(payload.dataStart, <usize>payload.length);
    this.calls.push(new RecordedCall(operation, payloadText));
    if (this.next >= this.answers.length) return hostError("Replay error: no recorded answer left");
    const answer = this.answers[this.next];
    this.next++;
    if (answer.expectOperation.length > 0 && answer.expectOperation != operation) {
      return hostError("Replay error: unexpected request " + operation);
    }
    if (answer.expectPayload.length > 0 && answer.expectPayload != payloadText) {
      return hostError("Replay error: unexpected request " + payloadText);
    }
    if (!answer.ok) return hostError(answer.text);
    return success<Uint8Array>(Uint8Array.wrap(String.UTF8.encode(answer.text)));
  }
}

function hostError(text: string): HostCallResult {
  return failure<Uint8Array>(new Uint8Array(0), text);
}

// ---- tracing/log ----

export enum LogLevel {
  Trace = 0,
  Debug = 1,
  Info = 2,
  Warning = 3,
  Error = 4,
}

export function logLevelName(level: LogLevel): string {
  switch (level) {
    case LogLevel.Trace:
      return "trace";
    case LogLevel.Debug:
      return "debug";
    case LogLevel.Info:
      return "info";
    case LogLevel.Warning:
      return "warning";
    default:
      return "error";
  }
}

/** `{"level":"…","message":"…"}` */
export function logPayload(level: LogLevel, message: string): Uint8Array {
  const sink = new ByteSink(64 + message.length);
  sink.writeUtf8('{"level":');
  sink.writeJsonString(logLevelName(level));
  writeKey(sink, "message");
  sink.writeJsonString(message);
  sink.writeByte(0x7d);
  return sink.bytes();
}

/** Diagnostics through `kubewarden/tracing/log`; failures are ignored (behavior never depends on it). */
export function log(level: LogLevel, message: string): void {
  hostCall(BINDING_KUBEWARDEN, NAMESPACE_TRACING, OP_LOG, logPayload(level, message));
}
