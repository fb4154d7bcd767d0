// The settings shared by lmcache-injector and cacheblend-injector
// (docs/policies/lmcache-injector.md#settings, D8): `lookup` (bool, default true) and `engines`
// (inline engines consulted before and instead of any cluster lookup). `validateInjectorSettings`
// lists every problem as `<path>: <detail>`; the readers used during `validate` assume validated
// settings and stay total anyway.
import { i32ToDecimal } from "../util/decimal";
import { JsonValue } from "../json/index";
import { dns1123LabelErrors, dns1123SubdomainErrors, isDns1123Label, isDns1123Subdomain } from "../validate/dns";
import { isBlank } from "../validate/chars";
import { shortenRendered } from "../validate/shorten";
import {
  checkPayloadRepository,
  isUsablePayloadTag,
  isValidCudagraph,
  isValidPullPolicy,
  RepositoryCheck,
} from "./image";
import { gpuVendors, MUST_NOT_CONTAIN_WHITESPACE_DETAIL, PD_ROLE_PREFILLER, UNKNOWN_FIELD_DETAIL } from "../keys/index";
import { EngineInjection, InjectionRead, readEngineInjection, WRONG_TYPE } from "./injection";
import { nixlPortText, readEngineGeneration } from "./generation";
import { ipcModeValues, SETTING_IPC_MODE } from "./ipc";

/** Which injector the settings belong to; the shapes differ only in the engine key, `payloadImage` and `cudagraph`. */
export enum InjectorFlavor {
  /** engine keys are `<name>`; `payloadImage` optional; no `cudagraph` */
  LMCache = 0,
  /** engine keys are `<name>` or `<namespace>/<name>`; `payloadImage` required; `cudagraph` allowed */
  CacheBlend = 1,
}

// @ts-ignore: decorator
@lazy
export const SETTING_LOOKUP = "lookup";
// @ts-ignore: decorator
@lazy
export const SETTING_ENGINES = "engines";
// @ts-ignore: decorator
@lazy
export const ENGINE_KV_TRANSFER_CONFIG = "kvTransferConfig";
// @ts-ignore: decorator
@lazy
export const ENGINE_INJECTION = "injection";
/** cacheblend-injector only: which CacheBlend flag set (docs/policies/cacheblend-injector.md#flags) */
// @ts-ignore: decorator
@lazy
export const SETTING_CACHEBLEND_ARGS = "cacheblendArgs";

// @ts-ignore: decorator
@lazy
export const LOOKUPS_USELESS_MESSAGE =
  "lookups are disabled and settings.engines is empty, so the policy can never inject";
// @ts-ignore: decorator
@lazy
export const PULL_POLICY_ENUM_MESSAGE = 'must be one of "Always", "Never", "IfNotPresent"';
// @ts-ignore: decorator
@lazy
export const CUDAGRAPH_ENUM_MESSAGE = 'must be one of "eager", "piecewise", "full_decode_only"';
// @ts-ignore: decorator
@lazy
export const IMAGE_SPEC_DEFAULT_MESSAGE =
  'must not be the ImageSpec default "lmcache/vllm-openai" (the engine image is not a payload image)';
// @ts-ignore: decorator
@lazy
export const SECRET_NAME_MESSAGE = "must be a valid Secret name (DNS-1123 subdomain)";
// @ts-ignore: decorator
@lazy
export const CONTAINER_NAME_MESSAGE = "must be a valid container name (DNS-1123 label)";

// ---------------------------------------------------------------- validation

/** `must be one of "a", "b"` */
function oneOf(values: string[]): string {
  return 'must be one of "' + values.join('", "') + '"';
}

/** An optional string member whose value must be one of `values`. */
function checkEnumSetting(
  node: JsonValue,
  key: string,
  values: string[],
  errors: SettingsErrors,
  prefix: string = "",
): void {
  const v = node.getPresent(key);
  if (v === null) return;
  const s = v.asString();
  if (!s.ok || !values.includes(s.value)) errors.add(join(prefix, key), oneOf(values));
}

/** The inline engine's current-operator fields (docs/policies/lmcache-injector.md#settings). */
function validateCurrentEngineFields(
  entry: JsonValue,
  path: string,
  flavor: InjectorFlavor,
  errors: SettingsErrors,
): void {
  const flags = flavor == InjectorFlavor.LMCache ? ["hostIPC", "isolatedIPC"] : ["hostIPC"];
  for (let i = 0; i < flags.length; i++) {
    const v = entry.getPresent(flags[i]);
    if (v !== null && !v.isBool()) errors.addAt(path, flags[i], "must be a boolean");
  }
  checkEnumSetting(entry, "gpuVendor", gpuVendors(), errors, path);
  const pd = entry.getPresent("pd");
  if (pd === null) return;
  if (!pd.isObject()) {
    errors.addAt(path, "pd", "must be an object");
    return;
  }
  const port = pd.getPresent("nixlSideChannelPort");
  if (port !== null && nixlPortText(port).length == 0)
    errors.addAt(path, "pd.nixlSideChannelPort", "must be an integer in [1024, 65535]");
}

/** Collects `<path>: <detail>` texts in a fixed order (per object: unknown fields first, then the
 *  known fields in the order of docs/policies/lmcache-injector.md#settings-messages). */
class SettingsErrors {
  items: string[] = [];
  add(path: string, detail: string): void {
    this.items.push(path + ": " + detail);
  }
  /** `<path>.<field>: <detail>` (one call where each caller would join the path) */
  addAt(path: string, field: string, detail: string): void {
    this.add(path + "." + field, detail);
  }
}

function join(prefix: string, key: string): string {
  // a key is echoed: shortened past 1 KiB like every echoed value
  const shown = shortenRendered(key);
  return prefix.length == 0 ? shown : prefix + "." + shown;
}

function reportUnknownFields(node: JsonValue, allowed: string[], prefix: string, errors: SettingsErrors): void {
  const n = node.size();
  for (let i = 0; i < n; i++) {
    const key = node.keyAt(i);
    if (!allowed.includes(key)) errors.add(join(prefix, key), UNKNOWN_FIELD_DETAIL);
  }
}

/** Every problem with `settings`, in a stable order; empty when valid. */
export function validateInjectorSettings(settings: JsonValue, flavor: InjectorFlavor): string[] {
  const errors = new SettingsErrors();
  if (!settings.isObject()) {
    errors.add("settings", "must be an object");
    return errors.items;
  }
  const topLevel = [SETTING_LOOKUP, SETTING_ENGINES, SETTING_IPC_MODE];
  if (flavor == InjectorFlavor.CacheBlend) topLevel.push(SETTING_CACHEBLEND_ARGS);
  reportUnknownFields(settings, topLevel, "", errors);

  let lookupDisabled = false;
  const lookup = settings.getPresent(SETTING_LOOKUP);
  if (lookup !== null) {
    const b = lookup.asBool();
    if (!b.ok) errors.add(SETTING_LOOKUP, "must be a boolean");
    else lookupDisabled = !b.value;
  }
  checkEnumSetting(settings, SETTING_IPC_MODE, ipcModeValues(flavor == InjectorFlavor.CacheBlend), errors);
  if (flavor == InjectorFlavor.CacheBlend)
    checkEnumSetting(settings, SETTING_CACHEBLEND_ARGS, ["auto", "current", "legacy"], errors);

  let noEngines = true;
  const engines = settings.getPresent(SETTING_ENGINES);
  if (engines !== null) {
    if (!engines.isObject()) {
      errors.add(SETTING_ENGINES, "must be an object");
      noEngines = false; // reported above; "empty" would be a second, misleading error
    } else {
      const n = engines.size();
      if (n > 0) noEngines = false;
      for (let i = 0; i < n; i++) validateEngineEntry(engines.keyAt(i), engines.at(i), flavor, errors);
    }
  }

  if (lookupDisabled && noEngines) errors.add(SETTING_LOOKUP, LOOKUPS_USELESS_MESSAGE);
  return errors.items;
}

function validateEngineKey(key: string, path: string, flavor: InjectorFlavor, errors: SettingsErrors): void {
  if (flavor == InjectorFlavor.LMCache) {
    const problems = dns1123SubdomainErrors(key);
    for (let i = 0; i < problems.length; i++) errors.add(path, "invalid engine name: " + problems[i]);
    return;
  }
  const ref = splitEngineKey(key);
  if (ref.hasNamespace) {
    const nsProblems = dns1123LabelErrors(ref.namespace);
    for (let i = 0; i < nsProblems.length; i++)
      errors.add(path, "invalid engine reference: namespace: " + nsProblems[i]);
  }
  const nameProblems = dns1123SubdomainErrors(ref.name);
  for (let i = 0; i < nameProblems.length; i++) errors.add(path, "invalid engine reference: name: " + nameProblems[i]);
}

/** A CacheBlend settings key split at the first `/` (no trimming: keys are used verbatim; a second
 *  `/` stays in `name`, which then fails the subdomain check). */
export class EngineKey {
  constructor(
    public hasNamespace: bool,
    public namespace: string,
    public name: string,
  ) {}
}

export function splitEngineKey(key: string): EngineKey {
  const slash = key.indexOf("/");
  if (slash < 0) return new EngineKey(false, "", key);
  return new EngineKey(true, key.substring(0, slash), key.substring(slash + 1));
}

/** `<path>.<field>: must be a JSON object` when member `field` of `entry` is set to something else */
function checkObjectIfPresent(entry: JsonValue, path: string, field: string, errors: SettingsErrors): void {
  const v = entry.getPresent(field);
  if (v !== null && !v.isObject()) errors.addAt(path, field, "must be a JSON object");
}

function validateEngineEntry(
  key: string,
  entry: JsonValue | null,
  flavor: InjectorFlavor,
  errors: SettingsErrors,
): void {
  const path = SETTING_ENGINES + "[" + shortenRendered(key) + "]";
  validateEngineKey(key, path, flavor, errors);
  if (entry === null || !entry.isObject()) {
    errors.add(path, "must be an object");
    return;
  }
  const known = [
    ENGINE_KV_TRANSFER_CONFIG,
    ENGINE_INJECTION,
    "hostIPC",
    "gpuVendor",
    "pd",
    ROLE_CONFIG_PREFILLER,
    ROLE_CONFIG_DECODER,
  ];
  if (flavor == InjectorFlavor.LMCache) known.push("isolatedIPC");
  reportUnknownFields(entry, known, path, errors);

  const kv = entry.getPresent(ENGINE_KV_TRANSFER_CONFIG);
  if (kv === null) errors.addAt(path, ENGINE_KV_TRANSFER_CONFIG, "required");
  else if (!kv.isObject()) errors.addAt(path, ENGINE_KV_TRANSFER_CONFIG, "must be a JSON object");
  checkObjectIfPresent(entry, path, ROLE_CONFIG_PREFILLER, errors);
  checkObjectIfPresent(entry, path, ROLE_CONFIG_DECODER, errors);
  validateCurrentEngineFields(entry, path, flavor, errors);

  const injectionPath = path + "." + ENGINE_INJECTION;
  const injection = entry.getPresent(ENGINE_INJECTION);
  if (injection === null) {
    if (flavor == InjectorFlavor.CacheBlend)
      errors.addAt(injectionPath, "payloadImage", "required for CacheBlend injection");
    return;
  }
  if (!injection.isObject()) {
    errors.add(injectionPath, "must be an object");
    return;
  }
  validateInjection(injection, injectionPath, flavor, errors);
}

function validateInjection(injection: JsonValue, path: string, flavor: InjectorFlavor, errors: SettingsErrors): void {
  const allowed = ["payloadImage", "imagePullSecrets", "targetContainer"];
  if (flavor == InjectorFlavor.CacheBlend) allowed.push("cudagraph");
  reportUnknownFields(injection, allowed, path, errors);

  const image = injection.getPresent("payloadImage");
  if (image === null) {
    if (flavor == InjectorFlavor.CacheBlend) errors.addAt(path, "payloadImage", "required for CacheBlend injection");
  } else if (!image.isObject()) {
    errors.addAt(path, "payloadImage", "must be an object");
  } else {
    validatePayloadImage(image, path + ".payloadImage", errors);
  }

  const secrets = injection.getPresent("imagePullSecrets");
  if (secrets !== null) validatePullSecrets(secrets, path + ".imagePullSecrets", errors);

  const target = injection.getPresent("targetContainer");
  if (target !== null) {
    const t = target.asString();
    // "" means "the first container", as on the CRD
    // (docs/policies/cacheengine-validator.md#rule-12)
    if (!t.ok || (t.value.length > 0 && !isDns1123Label(t.value)))
      errors.addAt(path, "targetContainer", CONTAINER_NAME_MESSAGE);
  }

  if (flavor == InjectorFlavor.CacheBlend) {
    const cudagraph = injection.getPresent("cudagraph");
    if (cudagraph !== null) {
      const c = cudagraph.asString();
      if (!c.ok || !isValidCudagraph(c.value)) errors.addAt(path, "cudagraph", CUDAGRAPH_ENUM_MESSAGE);
    }
  }
}

function validatePayloadImage(image: JsonValue, path: string, errors: SettingsErrors): void {
  reportUnknownFields(image, ["repository", "tag", "pullPolicy"], path, errors);

  const repository = image.readString("repository");
  if (!repository.ok || isBlank(repository.value)) {
    errors.addAt(path, "repository", "must be a non-empty string");
  } else {
    const check = checkPayloadRepository(repository.value);
    if (check == RepositoryCheck.ImageSpecDefault) errors.addAt(path, "repository", IMAGE_SPEC_DEFAULT_MESSAGE);
    else if (check == RepositoryCheck.Whitespace) errors.addAt(path, "repository", MUST_NOT_CONTAIN_WHITESPACE_DETAIL);
  }

  const tag = image.readString("tag");
  if (tag.invalid) errors.addAt(path, "tag", "must be a string");
  else if (tag.ok && !isUsablePayloadTag(tag.value)) errors.addAt(path, "tag", MUST_NOT_CONTAIN_WHITESPACE_DETAIL);

  const pullPolicy = image.readString("pullPolicy");
  // "" means the default (IfNotPresent), as staging reads it
  if (pullPolicy.invalid || (pullPolicy.ok && pullPolicy.value.length > 0 && !isValidPullPolicy(pullPolicy.value))) {
    errors.addAt(path, "pullPolicy", PULL_POLICY_ENUM_MESSAGE);
  }
}

function validatePullSecrets(secrets: JsonValue, path: string, errors: SettingsErrors): void {
  if (!secrets.isArray()) {
    errors.add(path, "must be a list of {name} objects");
    return;
  }
  const n = secrets.size();
  for (let i = 0; i < n; i++) {
    const itemPath = path + "[" + i32ToDecimal(i) + "]";
    const item = secrets.at(i);
    if (item === null || !item.isObject()) {
      errors.addAt(itemPath, "name", SECRET_NAME_MESSAGE);
      continue;
    }
    reportUnknownFields(item, ["name"], itemPath, errors);
    const name = item.readString("name");
    if (!name.ok || !isDns1123Subdomain(name.value)) errors.addAt(itemPath, "name", SECRET_NAME_MESSAGE);
  }
}

// ---------------------------------------------------------------- reading (during validate)

/** `settings.lookup`; true unless it is exactly `false`. */
export function lookupsEnabled(settings: JsonValue): bool {
  // only a boolean false turns lookups off
  return !settings.memberIsBool(SETTING_LOOKUP, false);
}

/** An engine defined in settings: the exact JSON text of its `kvTransferConfig` (as it appears in
 *  the payload) and its injection. */
export class InlineEngine {
  constructor(
    public key: string,
    public kvTransferConfig: string,
    public injection: EngineInjection,
    /** the entry, for a PD role's connection config (`roleConfigText`) */
    public entry: JsonValue,
  ) {}
}

/** The inline fields standing for the prefiller's and the decoder's ConfigMap keys. */
// @ts-ignore: decorator
@lazy
const ROLE_CONFIG_PREFILLER = "kvTransferConfigPrefiller";
// @ts-ignore: decorator
@lazy
const ROLE_CONFIG_DECODER = "kvTransferConfigDecoder";

/** A role's connection config of an inline engine as JSON text; "" when absent. */
export function roleConfigText(engine: InlineEngine, role: string): string {
  const field = role == PD_ROLE_PREFILLER ? ROLE_CONFIG_PREFILLER : ROLE_CONFIG_DECODER;
  const v = engine.entry.getPresent(field);
  return v === null ? "" : v.rawText();
}

/** The outcome of looking up an inline engine: `engine` null when the key is not defined;
 *  `error` set when the entry exists but is malformed (only possible with unvalidated settings). */
export class InlineEngineRead {
  constructor(
    public engine: InlineEngine | null,
    public error: string,
  ) {}
  get found(): bool {
    return this.engine !== null;
  }
  get ok(): bool {
    return this.error.length == 0;
  }
}

/** `settings.engines[key]` (the last occurrence when a key is repeated). */
export function findInlineEngine(settings: JsonValue, key: string): InlineEngineRead {
  const engines = settings.get(SETTING_ENGINES);
  if (engines === null || !engines.isObject()) return new InlineEngineRead(null, "");
  const entry = engines.get(key);
  if (entry === null) return new InlineEngineRead(null, "");
  const path = "settings." + SETTING_ENGINES + "[" + key + "]";
  if (!entry.isObject()) return new InlineEngineRead(null, path + WRONG_TYPE);
  const kv = entry.get(ENGINE_KV_TRANSFER_CONFIG);
  if (kv === null) return new InlineEngineRead(null, path + "." + ENGINE_KV_TRANSFER_CONFIG + WRONG_TYPE);
  const injection: InjectionRead = readEngineInjection(entry.get(ENGINE_INJECTION), path + "." + ENGINE_INJECTION);
  if (!injection.ok) return new InlineEngineRead(null, injection.error);
  const generation = readEngineGeneration(entry);
  if (generation.pdMalformed) return new InlineEngineRead(null, path + ".pd" + WRONG_TYPE);
  injection.value.generation = generation;
  return new InlineEngineRead(new InlineEngine(key, kv.rawText(), injection.value, entry), "");
}
