// Reading an LMCache-operator engine from the cluster (docs/policies/lmcache-injector.md#step-9 to
// #step-11): the engine CR for `spec.injection`, then the `<name>-connection` ConfigMap and its
// `kv-transfer-config.json` value with the D3 checks. Every function returns what happened and the
// normative detail text; the planners attach the reason codes.
import { isJsonObjectText, JsonValue } from "../json/index";
import { KubernetesLookups, LookupResult, LookupStatus } from "../kubewarden/host";
import { DNS1123_SUBDOMAIN_MAX_LENGTH } from "../validate/dns";
import { utf8Length } from "../validate/chars";
import {
  CONNECTION_CONFIGMAP_DATA_KEY,
  CONNECTION_CONFIGMAP_SUFFIX,
  detailConfigMapNotFound,
  detailConnectionConfigMissing,
  detailEngineInvalid,
  detailEngineNotFound,
  detailInvalidConnectionConfig,
  detailLookupDenied,
  detailLookupFailed,
  LMCACHE_ENGINE_API_VERSION,
} from "../keys/index";
import { EngineInjection, readEngineCrInjection } from "./injection";

// @ts-ignore: decorator
@lazy
export const CONFIGMAP_API_VERSION = "v1";
// @ts-ignore: decorator
@lazy
export const CONFIGMAP_KIND = "ConfigMap";
/** Lookups go through the host's cache, as the Go webhook reads through informer caches. */
export const LOOKUP_DISABLE_CACHE = false;

/** What a lookup step concluded. */
export enum EngineStep {
  /** continue with the result */
  Ok = 0,
  /** the object does not exist (LMCacheEngine: connection-only; otherwise `engine-not-found`) */
  NotFound = 1,
  /** `lookup-denied` */
  Denied = 2,
  /** `lookup-failed` (host error or an unreadable answer) */
  Failed = 3,
  /** `connection-config-missing` */
  ConfigMissing = 4,
  /** `invalid-connection-config` */
  ConfigInvalid = 5,
  /** `engine-invalid`: the engine CR was read, a field has the wrong JSON type */
  EngineInvalid = 6,
}

export function connectionConfigMapName(engineName: string): string {
  return engineName + CONNECTION_CONFIGMAP_SUFFIX;
}

/** X4: a ConfigMap name longer than a DNS-1123 subdomain cannot exist, so no lookup is made. */
export function connectionConfigMapCanExist(engineName: string): bool {
  // the UTF-8 length of the concatenation, without building it
  return utf8Length(engineName) + utf8Length(CONNECTION_CONFIGMAP_SUFFIX) <= DNS1123_SUBDOMAIN_MAX_LENGTH;
}

function stepForStatus(status: LookupStatus): EngineStep {
  if (status == LookupStatus.NotFound) return EngineStep.NotFound;
  if (status == LookupStatus.Denied) return EngineStep.Denied;
  return EngineStep.Failed;
}

/** The engine CR lookup: `injection` is its `spec.injection` when found (empty otherwise). */
export class EngineCrResult {
  constructor(
    public step: EngineStep,
    public injection: EngineInjection,
    public detail: string,
  ) {}
}

/**
 * `get_resource <kind> <name>` in `namespace`. An answer that is not a JSON object is unreadable
 * (Failed); a CR whose `spec.injection` has wrong JSON types was read but is malformed
 * (EngineInvalid, the detail naming the field); the NotFound detail names the CR.
 */
export function lookupEngineCr(
  lookups: KubernetesLookups,
  kind: string,
  namespace: string,
  name: string,
): EngineCrResult {
  const result: LookupResult = lookups.getResource(
    LMCACHE_ENGINE_API_VERSION,
    kind,
    name,
    namespace,
    LOOKUP_DISABLE_CACHE,
  );
  const value = result.value;
  if (result.status != LookupStatus.Found || value === null) {
    const step = stepForStatus(result.status);
    return new EngineCrResult(step, new EngineInjection(), lookupDetail(step, kind, namespace, name));
  }
  if (!value.isObject())
    return new EngineCrResult(EngineStep.Failed, new EngineInjection(), detailLookupFailed(kind, namespace, name));
  const read = readEngineCrInjection(value);
  if (!read.ok) {
    const detail = detailEngineInvalid(kind, namespace, name, read.error);
    return new EngineCrResult(EngineStep.EngineInvalid, new EngineInjection(), detail);
  }
  return new EngineCrResult(EngineStep.Ok, read.value, "");
}

function lookupDetail(step: EngineStep, kind: string, namespace: string, name: string): string {
  if (step == EngineStep.NotFound) return detailEngineNotFound(kind, namespace, name);
  if (step == EngineStep.Denied) return detailLookupDenied(kind, namespace, name);
  return detailLookupFailed(kind, namespace, name);
}

/** The connection lookup: `kvText` is the data value verbatim when `step == Ok`. */
export class ConnectionResult {
  constructor(
    public step: EngineStep,
    public kvText: string,
    public detail: string,
  ) {}
}

/**
 * X4 guard, `get_resource ConfigMap <name>-connection`, then the `kv-transfer-config.json` value
 * (absent, not a string or "" → ConfigMissing). The value is not checked here: see
 * `checkConnectionText`, which inline engines share.
 */
export function lookupConnectionConfigMap(
  lookups: KubernetesLookups,
  namespace: string,
  engineName: string,
  key: string = CONNECTION_CONFIGMAP_DATA_KEY,
): ConnectionResult {
  const cmName = connectionConfigMapName(engineName);
  if (!connectionConfigMapCanExist(engineName)) {
    return new ConnectionResult(EngineStep.NotFound, "", detailConfigMapNotFound(namespace, engineName));
  }
  const result = lookups.getResource(CONFIGMAP_API_VERSION, CONFIGMAP_KIND, cmName, namespace, LOOKUP_DISABLE_CACHE);
  const cm = result.value;
  if (result.status != LookupStatus.Found || cm === null) {
    const step = stepForStatus(result.status);
    const detail =
      step == EngineStep.NotFound
        ? detailConfigMapNotFound(namespace, engineName)
        : lookupDetail(step, CONFIGMAP_KIND, namespace, cmName);
    return new ConnectionResult(step, "", detail);
  }
  return readConnectionValue(cm, namespace, engineName, key);
}

/** `data["kv-transfer-config.json"]` of a found ConfigMap; `data` of another kind than an object
 *  is an unreadable answer (Failed). */
export function readConnectionValue(
  cm: JsonValue,
  namespace: string,
  engineName: string,
  key: string = CONNECTION_CONFIGMAP_DATA_KEY,
): ConnectionResult {
  // details are built only for the outcome that carries them
  const data = cm.get("data");
  if (data === null || data.isNull()) return configMissing(namespace, engineName, key);
  if (!data.isObject()) {
    return new ConnectionResult(
      EngineStep.Failed,
      "",
      detailLookupFailed(CONFIGMAP_KIND, namespace, connectionConfigMapName(engineName)),
    );
  }
  const value = data.stringOrNull(key);
  if (value === null || value.length == 0) return configMissing(namespace, engineName, key);
  return new ConnectionResult(EngineStep.Ok, value, "");
}

function configMissing(namespace: string, engineName: string, key: string): ConnectionResult {
  return new ConnectionResult(EngineStep.ConfigMissing, "", detailConnectionConfigMissing(namespace, engineName, key));
}

/** D3: the text must be JSON whose top-level value is an object; Ok or ConfigInvalid. */
export function checkConnectionText(
  kvText: string,
  namespace: string,
  engineName: string,
  key: string = CONNECTION_CONFIGMAP_DATA_KEY,
): ConnectionResult {
  // validated without building its DOM
  if (!isJsonObjectText(kvText)) {
    return new ConnectionResult(
      EngineStep.ConfigInvalid,
      "",
      detailInvalidConnectionConfig(namespace, engineName, key),
    );
  }
  return new ConnectionResult(EngineStep.Ok, kvText, "");
}
