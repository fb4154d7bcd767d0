// One CacheBackend read from the JSON DOM (docs/policies/cachebackend-validator.md#fields), with the
// effective values the rules use (#effective-values). Every field of the API is type-checked here,
// once: a member of the wrong JSON type becomes a field error (#malformed-input) and reads as
// Invalid, so the rules that need it skip it. Pure: an object in, a Backend and its type errors out.
import { JsonValue, Read, ReadState } from "../../../assembly/json/index";
import {
  FieldErrorList,
  Path,
  newPath,
  readObjectAt,
  readListAt,
  readStringAt,
  readInt32At,
  readBoolAt,
  readStringMapAt,
  invalidJsonValue,
  presentAt,
  MUST_BE_OBJECT,
  MUST_BE_STRING,
} from "../../../assembly/validate/index";
import { KERNEL_CHECK_ANNOTATION } from "../../../assembly/keys/index";
import { Quantity, readQuantityAt, readQuantityValue } from "../../../assembly/validate/quantity";

// ---- names of the API (docs/policies/cachebackend-validator.md#fields) ----
// @ts-ignore: decorator
@lazy
export const RUNTIME_VLLM = "VLLM";
// @ts-ignore: decorator
@lazy
export const RUNTIME_SGLANG = "SGLang";
// @ts-ignore: decorator
@lazy
export const TYPE_LMCACHE = "LMCache";
// @ts-ignore: decorator
@lazy
export const TYPE_HICACHE = "SGLangHiCache";
// @ts-ignore: decorator
@lazy
export const TYPE_MOONCAKE = "Mooncake";
// @ts-ignore: decorator
@lazy
export const TYPE_EXTERNAL = "External";
// @ts-ignore: decorator
@lazy
export const PROVIDER_REDIS = "Redis";
// @ts-ignore: decorator
@lazy
export const PROVIDER_LMCACHE_SERVER = "LMCacheServer";
// @ts-ignore: decorator
@lazy
export const PROVIDER_MOONCAKE = "Mooncake";
// @ts-ignore: decorator
@lazy
export const PROVIDER_NFS = "NFS";
// @ts-ignore: decorator
@lazy
export const OWNERSHIP_MANAGED = "Managed";
// @ts-ignore: decorator
@lazy
export const OWNERSHIP_EXTERNAL = "External";
// @ts-ignore: decorator
@lazy
export const MODE_OFFLOAD = "Offload";
// @ts-ignore: decorator
@lazy
export const MODE_EVENTS_ONLY = "EventsOnly";
// @ts-ignore: decorator
@lazy
export const ROLE_READ_WRITE = "ReadWrite";

/** A provider block of `spec.remoteStorage` (`redis`, `lmCacheServer`, `mooncake`). */
export class ProviderBlock {
  constructor(
    public key: string,
    public provider: string,
    public node: JsonValue | null,
    /** `command` (lmCacheServer, mooncake), items read as strings */
    public command: StringItems,
    public resources: ResourceBlock | null,
  ) {}
  get present(): bool {
    return this.node !== null;
  }
}

/** One `integration.engineOverrides.env[i]` entry. */
export class EnvEntry {
  constructor(
    /** the item is an object (else it was reported and is skipped) */
    public readable: bool,
    public name: Read<string>,
    public value: Read<string>,
    public valueFrom: Read<JsonValue | null>,
  ) {}
}

/** A list of strings: each item, with wrong-typed items reported and marked. */
export class StringItems {
  constructor(
    public present: bool,
    public items: string[],
    public bad: bool[],
  ) {}
}

/** A `resources` block (`spec.resources` or a provider's): requests, limits and claims. */
export class ResourceBlock {
  constructor(
    public path: Path,
    /** `spec.resources` or `spec.remoteStorage.<block>.resources`, as the details name it */
    public label: string,
    public requestNames: string[],
    public requests: (Quantity | null)[],
    public limitNames: string[],
    public limits: (Quantity | null)[],
    public claims: JsonValue | null,
  ) {}
}

export class Backend {
  name: string = "";
  namespace: string = "";
  /** a field the rules depend on (runtime, type, engine, mode, remoteStorage identity, …) could
   *  not be read: only the rules that need none of them run */
  unreadable: bool = false;

  kernelCheck: Read<string> = new Read<string>(ReadState.Absent, "");

  runtime: string = "";
  type: string = "";
  lmCache: JsonValue | null = null;
  hostMemoryCapacity: Quantity | null = null;

  remoteStorage: JsonValue | null = null;
  provider: string = "";
  ownership: string = "";
  rsEndpoint: string = "";
  blocks: ProviderBlock[] = [];
  nfs: JsonValue | null = null;
  nfsServer: Read<string> = new Read<string>(ReadState.Absent, "");
  nfsPath: Read<string> = new Read<string>(ReadState.Absent, "");
  nfsMountPath: Read<string> = new Read<string>(ReadState.Absent, "");

  modelID: string = "";
  replicas: Read<i32> = new Read<i32>(ReadState.Absent, 0);
  autoscaling: JsonValue | null = null;
  minReplicas: Read<i32> = new Read<i32>(ReadState.Absent, 0);

  engine: string = "";
  engineRead: Read<string> = new Read<string>(ReadState.Absent, "");
  mode: string = "";
  role: string = "";
  failOpen: Read<bool> = new Read<bool>(ReadState.Absent, false);
  engineHostNetwork: Read<bool> = new Read<bool>(ReadState.Absent, false);
  overrides: JsonValue | null = null;
  args: StringItems = new StringItems(false, [], []);
  suppressArgs: StringItems = new StringItems(false, [], []);
  env: EnvEntry[] = [];
  suppressEnv: StringItems = new StringItems(false, [], []);

  matchLabelsCount: i32 = 0;

  hiCache: JsonValue | null = null;
  sizeGB: Read<i32> = new Read<i32>(ReadState.Absent, 0);
  ratio: Read<string> = new Read<string>(ReadState.Absent, "");
  writePolicy: Read<string> = new Read<string>(ReadState.Absent, "");
  ioBackend: Read<string> = new Read<string>(ReadState.Absent, "");
  memoryLayout: Read<string> = new Read<string>(ReadState.Absent, "");
  prefetchPolicy: Read<string> = new Read<string>(ReadState.Absent, "");

  /** `backendConfig` keys in sorted order and the `model` value */
  backendConfigKeys: string[] = [];
  backendConfigModel: string = "";
  resources: ResourceBlock | null = null;
  resourcesPresent: bool = false;
  endpoint: string = "";
  allowCrossNamespace: bool = false;

  // ---- effective values (docs/policies/cachebackend-validator.md#effective-values) ----

  /** canonical ⇔ runtime set, or lmCache or remoteStorage present */
  get canonical(): bool {
    return this.runtime.length > 0 || this.lmCache !== null || this.remoteStorage !== null;
  }

  /** effective runtime: runtime, else integration.engine, normalized; else VLLM */
  get effectiveRuntime(): string {
    if (this.runtime.length > 0) return normalizeRuntime(this.runtime);
    if (this.engine.length > 0) return normalizeRuntime(this.engine);
    return RUNTIME_VLLM;
  }

  /** runtime ID: the effective runtime lower-cased */
  get runtimeId(): string {
    return lowerAscii(this.effectiveRuntime);
  }

  /** "", Mooncake, External → LMCache; otherwise the type */
  get effectiveType(): string {
    const t = this.type;
    if (t.length == 0 || t == TYPE_MOONCAKE || t == TYPE_EXTERNAL) return TYPE_LMCACHE;
    return t;
  }

  /** effective remote storage exists (declared, or synthesized for a legacy backend) */
  get hasEffectiveStorage(): bool {
    return this.effectiveProvider.length > 0 || this.remoteStorage !== null;
  }

  /** effective provider ("" when none): declared, or synthesized from the legacy shape */
  get effectiveProvider(): string {
    if (this.remoteStorage !== null) return this.provider;
    if (this.canonical) return "";
    const t = this.type;
    if (t == TYPE_EXTERNAL) return PROVIDER_LMCACHE_SERVER;
    if (t == TYPE_MOONCAKE) return PROVIDER_MOONCAKE;
    if (t.length == 0 || t == TYPE_LMCACHE) {
      return this.runtimeId == "sglang" ? PROVIDER_REDIS : PROVIDER_LMCACHE_SERVER;
    }
    return "";
  }

  get effectiveOwnership(): string {
    if (this.remoteStorage !== null) return this.ownership;
    if (this.canonical) return "";
    if (this.type == TYPE_EXTERNAL) return OWNERSHIP_EXTERNAL;
    return this.effectiveProvider.length > 0 ? OWNERSHIP_MANAGED : "";
  }

  /** failOpen, absent → true */
  get effectiveFailOpen(): bool {
    return this.failOpen.ok ? this.failOpen.value : true;
  }

  /** mode, absent or "" → Offload */
  get effectiveMode(): string {
    return this.mode.length > 0 ? this.mode : MODE_OFFLOAD;
  }

  get eventsOnly(): bool {
    return this.effectiveMode == MODE_EVENTS_ONLY;
  }

  /** NFS for the HiCache rules: remoteStorage present with provider NFS (ownership aside) */
  /** `spec.lmCache.hostMemory.capacity` */
  get hostMemoryPath(): Path {
    return newPath("spec").child("lmCache").child("hostMemory").child("capacity");
  }

  get nfsStorage(): bool {
    return this.remoteStorage !== null && this.provider == PROVIDER_NFS;
  }
}

/** `vllm` → `VLLM`, `sglang` → `SGLang` (case-insensitively), other strings as written. */
export function normalizeRuntime(s: string): string {
  const lower = lowerAscii(s);
  if (lower == "vllm") return RUNTIME_VLLM;
  if (lower == "sglang") return RUNTIME_SGLANG;
  return s;
}

/** Go `strings.ToLower` (runtime names are compared lower-cased). */
export function lowerAscii(s: string): string {
  return s.toLowerCase();
}

/** A read that marks the backend unreadable when the member has the wrong type. */
function core(b: Backend, r: Read<string>): string {
  if (r.invalid) b.unreadable = true;
  return r.ok ? r.value : "";
}

function coreObject(b: Backend, r: Read<JsonValue | null>): JsonValue | null {
  if (r.invalid) b.unreadable = true;
  return r.value;
}

function stringValue(r: Read<string>): string {
  return r.ok ? r.value : "";
}

/** The items of a list of strings; a wrong-typed item is reported at `<list>[i]`. */
function readStringItems(parent: JsonValue | null, key: string, at: Path, errs: FieldErrorList): StringItems {
  const list = readListAt(parent, key, at, errs).value;
  if (list === null) return new StringItems(false, [], []);
  const n = list.size();
  const items = new Array<string>(n);
  const bad = new Array<bool>(n);
  const listPath = at.child(key);
  for (let i = 0; i < n; i++) {
    items[i] = "";
    bad[i] = false;
    // a string item is decoded in place; a node only for one that is not
    const s = list.itemStringValue(i);
    if (s !== null) {
      items[i] = s;
      continue;
    }
    const item = list.at(i);
    if (item === null || item.isNull()) continue; // decodes to ""
    bad[i] = true;
    errs.add(invalidJsonValue(listPath.index(i), item, MUST_BE_STRING));
  }
  return new StringItems(true, items, bad);
}

/** Reads `object` (a JSON object) into a Backend; type errors go to `errs`. `requestNamespace`
 *  stands in for an absent `metadata.namespace`. */
export function readBackend(object: JsonValue, requestNamespace: string, errs: FieldErrorList): Backend {
  const b = new Backend();
  const metadata = readObjectAt(object, "metadata", null, errs);
  const meta = metadata.value;
  const metaPath = newPath("metadata");
  b.name = stringValue(readStringAt(meta, "name", metaPath, errs));
  const ns = readStringAt(meta, "namespace", metaPath, errs);
  b.namespace = ns.ok && ns.value.length > 0 ? ns.value : requestNamespace;
  const annotations = readStringMapAt(meta, "annotations", metaPath, errs).value;
  if (annotations !== null) {
    const v = annotations.getPresent(KERNEL_CHECK_ANNOTATION);
    if (v !== null) b.kernelCheck = v.asString();
  }

  const specRead = readObjectAt(object, "spec", null, errs);
  if (specRead.invalid) b.unreadable = true;
  const spec = specRead.value;
  const specPath = newPath("spec");

  b.runtime = core(b, readStringAt(spec, "runtime", specPath, errs));
  b.type = core(b, readStringAt(spec, "type", specPath, errs));

  // lmCache
  b.lmCache = coreObject(b, readObjectAt(spec, "lmCache", specPath, errs));
  const lmPath = specPath.child("lmCache");
  readInt32At(b.lmCache, "chunkSizeTokens", lmPath, errs);
  readStringAt(b.lmCache, "workerImage", lmPath, errs);
  readInt32At(b.lmCache, "workerPort", lmPath, errs);
  readStringAt(b.lmCache, "remoteSerde", lmPath, errs);
  const hostMemory = readObjectAt(b.lmCache, "hostMemory", lmPath, errs).value;
  b.hostMemoryCapacity = readQuantityAt(hostMemory, "capacity", lmPath.child("hostMemory"), errs).value;

  // remoteStorage
  b.remoteStorage = coreObject(b, readObjectAt(spec, "remoteStorage", specPath, errs));
  const rs = b.remoteStorage;
  const rsPath = specPath.child("remoteStorage");
  b.provider = core(b, readStringAt(rs, "provider", rsPath, errs));
  b.ownership = core(b, readStringAt(rs, "ownership", rsPath, errs));
  b.rsEndpoint = stringValue(readStringAt(rs, "endpoint", rsPath, errs));
  b.blocks = [
    readProviderBlock(b, rs, "redis", PROVIDER_REDIS, false, rsPath, errs),
    readProviderBlock(b, rs, "lmCacheServer", PROVIDER_LMCACHE_SERVER, true, rsPath, errs),
    readProviderBlock(b, rs, "mooncake", PROVIDER_MOONCAKE, true, rsPath, errs),
  ];
  b.nfs = coreObject(b, readObjectAt(rs, "nfs", rsPath, errs));
  const nfsPath = rsPath.child("nfs");
  b.nfsServer = readStringAt(b.nfs, "server", nfsPath, errs);
  b.nfsPath = readStringAt(b.nfs, "path", nfsPath, errs);
  b.nfsMountPath = readStringAt(b.nfs, "mountPath", nfsPath, errs);

  // observation, workload shape
  const observation = readObjectAt(spec, "observation", specPath, errs).value;
  const obsPath = specPath.child("observation");
  b.modelID = stringValue(readStringAt(observation, "modelID", obsPath, errs));
  readStringAt(observation, "firstEventTimeout", obsPath, errs);
  readStringAt(spec, "deploymentKind", specPath, errs);
  b.replicas = readInt32At(spec, "replicas", specPath, errs);
  b.autoscaling = coreObject(b, readObjectAt(spec, "autoscaling", specPath, errs));
  const asPath = specPath.child("autoscaling");
  b.minReplicas = readInt32At(b.autoscaling, "minReplicas", asPath, errs);
  readInt32At(b.autoscaling, "maxReplicas", asPath, errs);
  readInt32At(b.autoscaling, "targetCPUUtilizationPercent", asPath, errs);

  // integration
  const integration = coreObject(b, readObjectAt(spec, "integration", specPath, errs));
  const intPath = specPath.child("integration");
  b.engineRead = readStringAt(integration, "engine", intPath, errs);
  b.engine = core(b, b.engineRead);
  b.mode = core(b, readStringAt(integration, "mode", intPath, errs));
  b.role = core(b, readStringAt(integration, "role", intPath, errs));
  readStringAt(integration, "firstEventTimeout", intPath, errs);
  b.failOpen = readBoolAt(integration, "failOpen", intPath, errs);
  b.engineHostNetwork = readBoolAt(integration, "engineHostNetwork", intPath, errs);
  b.overrides = readObjectAt(integration, "engineOverrides", intPath, errs).value;
  const ovPath = intPath.child("engineOverrides");
  b.args = readStringItems(b.overrides, "args", ovPath, errs);
  b.suppressArgs = readStringItems(b.overrides, "suppressArgs", ovPath, errs);
  b.env = readEnv(b.overrides, ovPath, errs);
  b.suppressEnv = readStringItems(b.overrides, "suppressEnv", ovPath, errs);

  // engineSelector
  const selector = readObjectAt(spec, "engineSelector", specPath, errs);
  if (selector.invalid) b.unreadable = true;
  const labels = readStringMapAt(selector.value, "matchLabels", specPath.child("engineSelector"), errs);
  if (labels.invalid) b.unreadable = true;
  if (labels.value !== null) b.matchLabelsCount = labels.value!.size();

  // hiCache
  b.hiCache = coreObject(b, readObjectAt(spec, "hiCache", specPath, errs));
  const hcPath = specPath.child("hiCache");
  b.sizeGB = readInt32At(b.hiCache, "sizeGB", hcPath, errs);
  b.ratio = readStringAt(b.hiCache, "ratio", hcPath, errs);
  b.writePolicy = readStringAt(b.hiCache, "writePolicy", hcPath, errs);
  b.ioBackend = readStringAt(b.hiCache, "ioBackend", hcPath, errs);
  b.memoryLayout = readStringAt(b.hiCache, "memoryLayout", hcPath, errs);
  b.prefetchPolicy = readStringAt(b.hiCache, "storagePrefetchPolicy", hcPath, errs);

  // deprecated top-level fields
  const backendConfig = readStringMapAt(spec, "backendConfig", specPath, errs);
  if (backendConfig.invalid) b.unreadable = true;
  const bc = backendConfig.value;
  if (bc !== null) {
    b.backendConfigKeys = sortedKeys(bc);
    const model = bc.getPresent("model");
    if (model !== null) b.backendConfigModel = stringValue(model.asString());
  }
  const template = presentAt(spec, "template");
  if (template !== null && !template.isObject())
    errs.add(invalidJsonValue(specPath.child("template"), template, MUST_BE_OBJECT));
  const resources = readObjectAt(spec, "resources", specPath, errs);
  if (resources.invalid) b.unreadable = true;
  b.resourcesPresent = resources.value !== null;
  b.resources = readResourceBlock(resources.value, specPath.child("resources"), "spec.resources", errs);
  b.endpoint = stringValue(readStringAt(spec, "endpoint", specPath, errs));
  const allow = readBoolAt(spec, "allowCrossNamespace", specPath, errs);
  b.allowCrossNamespace = allow.ok && allow.value;
  return b;
}

function readProviderBlock(
  b: Backend,
  rs: JsonValue | null,
  key: string,
  provider: string,
  withCommand: bool,
  rsPath: Path,
  errs: FieldErrorList,
): ProviderBlock {
  const node = coreObject(b, readObjectAt(rs, key, rsPath, errs));
  const at = rsPath.child(key);
  readStringAt(node, "image", at, errs);
  const command = withCommand ? readStringItems(node, "command", at, errs) : new StringItems(false, [], []);
  const res = readObjectAt(node, "resources", at, errs);
  const block = readResourceBlock(res.value, at.child("resources"), "spec.remoteStorage." + key + ".resources", errs);
  return new ProviderBlock(key, provider, node, command, block);
}

function readEnv(overrides: JsonValue | null, ovPath: Path, errs: FieldErrorList): EnvEntry[] {
  const out = new Array<EnvEntry>();
  const list = readListAt(overrides, "env", ovPath, errs).value;
  if (list === null) return out;
  const listPath = ovPath.child("env");
  const n = list.size();
  for (let i = 0; i < n; i++) {
    const item = list.at(i);
    const at = listPath.index(i);
    if (item !== null && !item.isNull() && !item.isObject()) {
      errs.add(invalidJsonValue(at, item, MUST_BE_OBJECT));
      out.push(
        new EnvEntry(
          false,
          new Read<string>(ReadState.Invalid, ""),
          new Read<string>(ReadState.Absent, ""),
          new Read<JsonValue | null>(ReadState.Absent, null),
        ),
      );
      continue;
    }
    const name = readStringAt(item, "name", at, errs);
    const value = readStringAt(item, "value", at, errs);
    const valueFrom = readObjectAt(item, "valueFrom", at, errs);
    const vf = valueFrom.value;
    if (vf !== null) {
      const vfPath = at.child("valueFrom");
      const sources = envSources();
      for (let s = 0; s < sources.length; s++) readObjectAt(vf, sources[s], vfPath, errs);
    }
    out.push(new EnvEntry(true, name, value, valueFrom));
  }
  return out;
}

/** The sources an EnvVarSource can select, in the order the API lists them. */
export function envSources(): string[] {
  return ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"];
}

/** A `resources` object's requests, limits (sorted by name, quantities parsed; an unparseable
 *  one is reported and reads as null) and claims. Null when `node` is null. */
function readResourceBlock(
  node: JsonValue | null,
  at: Path,
  label: string,
  errs: FieldErrorList,
): ResourceBlock | null {
  if (node === null) return null;
  const requestNames = new Array<string>();
  const requests = new Array<Quantity | null>();
  readQuantityMap(node, "requests", at, errs, requestNames, requests);
  const limitNames = new Array<string>();
  const limits = new Array<Quantity | null>();
  readQuantityMap(node, "limits", at, errs, limitNames, limits);
  const claims = readListAt(node, "claims", at, errs).value;
  return new ResourceBlock(at, label, requestNames, requests, limitNames, limits, claims);
}

function readQuantityMap(
  node: JsonValue,
  key: string,
  at: Path,
  errs: FieldErrorList,
  names: string[],
  values: (Quantity | null)[],
): void {
  const map = readObjectAt(node, key, at, errs).value;
  if (map === null) return;
  // members by position (a lookup by name scans the object: quadratic on a long map); the last
  // of repeated names wins, as it does for a decoded map
  const last = new Map<string, i32>();
  const n = map.size();
  const nodes = new Array<JsonValue | null>(n);
  for (let i = 0; i < n; i++) {
    last.set(map.keyAt(i), i);
    nodes[i] = map.at(i); // in order: positional access is cheap only sequentially
  }
  const keys = sortedKeys(map);
  const mapPath = at.child(key);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = nodes[last.get(k)];
    names.push(k);
    values.push(v === null || v.isNull() ? null : readQuantityValue(v, mapPath.key(k), errs).value);
  }
}

/** The distinct member names of an object (a repeated key is one map entry), sorted: the order
 *  map-iterating rules report in (V4). */
function sortedKeys(map: JsonValue): string[] {
  const seen = new Set<string>();
  const keys = new Array<string>();
  const n = map.size();
  for (let i = 0; i < n; i++) {
    const key = map.keyAt(i);
    if (seen.has(key)) continue;
    seen.add(key);
    keys.push(key);
  }
  keys.sort((x: string, y: string): i32 => (x < y ? -1 : x > y ? 1 : 0));
  return keys;
}
