// One CacheBackend read from the JSON DOM (docs/policies/cachebackend-validator.md#fields), with the
// effective values the rules use (#effective-values). Every field of the API is type-checked here,
// once: a member of the wrong JSON type becomes a field error (#malformed-input) and reads as
// Invalid, so the rules that need it skip it. Pure: an object in, a Backend and its type errors out.
import { JsonKind, JsonValue, Read, ReadState } from "../../../assembly/json/index";
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
  trimGoSpace,
} from "../../../assembly/validate/index";
import { KERNEL_CHECK_ANNOTATION } from "../../../assembly/keys/index";
import { Quantity, parseQuantity, quantityOfValue, readQuantityAt } from "../../../assembly/validate/quantity";

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
    /** `command` (lmCacheServer, mooncake): a list of strings (stringItem), or null */
    public command: JsonValue | null,
    public resources: ResourceBlock | null,
  ) {}
  get present(): bool {
    return this.node !== null;
  }
}

/** One map of a `resources` block (`requests` or `limits`): its distinct names in sorted order
 *  (V4) and the quantity text of each (trimmed; null for a null value or one that is not a
 *  quantity, reported when read). A quantity is parsed only when a rule needs it. */
export class QuantityMap {
  /** resourceNameProblem of each name, once asked */
  problems: (string | null)[];
  constructor(
    public names: string[],
    public texts: (string | null)[],
  ) {
    this.problems = new Array<string | null>(names.length);
  }
  /** the quantity of entry `i`, or null */
  quantity(i: i32): Quantity | null {
    const text = unchecked(this.texts[i]);
    return text !== null ? parseQuantity(text).quantity : null;
  }
}

/** A `resources` block (`spec.resources` or a provider's): requests, limits and claims. */
export class ResourceBlock {
  constructor(
    public path: Path,
    /** `spec.resources` or `spec.remoteStorage.<block>.resources`, as the details name it */
    public label: string,
    public requests: QuantityMap,
    public limits: QuantityMap,
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
  /** lists of strings (read with stringItem), or null */
  args: JsonValue | null = null;
  suppressArgs: JsonValue | null = null;
  /** the env list (its type errors reported; the rules read its entries in place), or null, and
   *  per entry ENV_SKIP or ENV_VALUE_FROM */
  env: JsonValue | null = null;
  envMarks: StaticArray<u8> = new StaticArray<u8>(0);
  suppressEnv: JsonValue | null = null;

  matchLabelsCount: i32 = 0;

  hiCache: JsonValue | null = null;
  sizeGB: Read<i32> = new Read<i32>(ReadState.Absent, 0);
  ratio: Read<string> = new Read<string>(ReadState.Absent, "");
  writePolicy: Read<string> = new Read<string>(ReadState.Absent, "");
  ioBackend: Read<string> = new Read<string>(ReadState.Absent, "");
  memoryLayout: Read<string> = new Read<string>(ReadState.Absent, "");
  prefetchPolicy: Read<string> = new Read<string>(ReadState.Absent, "");

  /** `backendConfig` (a map of strings, its keys sorted only by the rule that lists them) and its
   *  `model` value */
  backendConfig: JsonValue | null = null;
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

/** A list of strings: each wrong-typed item is reported at `<list>[i]` (JSON null reads as "");
 *  the items are read in place by the rules (stringItem), none decoded here. */
function readStringItems(parent: JsonValue | null, key: string, at: Path, errs: FieldErrorList): JsonValue | null {
  const list = readListAt(parent, key, at, errs).value;
  if (list === null) return null;
  const n = list.size();
  for (let i = 0; i < n; i++) {
    if (list.itemIsDecodableString(i) || list.itemKind(i) == JsonKind.Null) continue;
    reportItem(list, i, null, at.child(key), MUST_BE_STRING, errs);
  }
  return list;
}

/** Item `i` of a list of strings as the rules read it: "" for JSON null, null for an item of the
 *  wrong type (reported when the list was read). */
export function stringItem(list: JsonValue, i: i32): string | null {
  const s = list.itemStringValue(i);
  if (s !== null || list.itemKind(i) != JsonKind.Null) return s;
  return "";
}

/** Reports item `i` of `list` (its member `key` when not null) as having the wrong type; a node
 *  and a path only for a violation that is kept. */
function reportItem(
  list: JsonValue,
  i: i32,
  key: string | null,
  listPath: Path,
  detail: string,
  errs: FieldErrorList,
): void {
  if (errs.full) {
    errs.omit();
    return;
  }
  let v = list.at(i);
  let at = listPath.index(i);
  if (key !== null && v !== null) {
    v = v.get(key);
    at = at.child(key);
  }
  if (v !== null) errs.add(invalidJsonValue(at, v, detail));
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
  b.env = readEnv(b, ovPath, errs);
  b.suppressEnv = readStringItems(b.overrides, "suppressEnv", ovPath, errs);

  // engineSelector
  const selector = readObjectAt(spec, "engineSelector", specPath, errs);
  if (selector.invalid) b.unreadable = true;
  const labels = readStringMapAt(selector.value, "matchLabels", specPath.child("engineSelector"), errs);
  if (labels.invalid) b.unreadable = true;
  const matchLabels = labels.value;
  if (matchLabels !== null) b.matchLabelsCount = matchLabels.size();

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
  b.backendConfig = bc;
  if (bc !== null) {
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
  const command = withCommand ? readStringItems(node, "command", at, errs) : null;
  const res = readObjectAt(node, "resources", at, errs);
  const block = readResourceBlock(res.value, at.child("resources"), "spec.remoteStorage." + key + ".resources", errs);
  return new ProviderBlock(key, provider, node, command, block);
}

// what reading the env found out about each entry (Backend.envMarks)
/** the entry is neither an object nor null (reported; the rules skip it) */
export const ENV_SKIP: u8 = 1;
/** the entry has a valueFrom object */
export const ENV_VALUE_FROM: u8 = 2;
/** the entry's name or value may be of the wrong type, or it is not an object: looked at closely */
const ENV_LOOK: u8 = 4;

/** `env`: the type errors of its entries (an entry must be an object or null; its name and value
 *  strings, its valueFrom and each source of it objects), read in place; the list, or null, and
 *  in `b.envMarks` what was found per entry. Two record walks find the entries whose name or value
 *  may be wrong; only their members are looked at one by one, and every entry's valueFrom. */
function readEnv(b: Backend, ovPath: Path, errs: FieldErrorList): JsonValue | null {
  const list = readListAt(b.overrides, "env", ovPath, errs).value;
  if (list === null) return null;
  const listPath = ovPath.child("env");
  const n = list.size();
  const marks = new StaticArray<u8>(n);
  b.envMarks = marks;
  // the walks first: each moves the list's cursor forward only
  markWalk(list, "name", marks);
  markWalk(list, "value", marks);
  for (let i = 0; i < n; i++) {
    if (unchecked(marks[i]) == ENV_LOOK) {
      const kind = list.itemKind(i);
      if (kind != JsonKind.Object) {
        unchecked((marks[i] = kind == JsonKind.Null ? 0 : ENV_SKIP));
        if (kind != JsonKind.Null) reportItem(list, i, null, listPath, MUST_BE_OBJECT, errs);
        continue;
      }
      envMemberIs(list, i, "name", JsonKind.String, listPath, errs);
      envMemberIs(list, i, "value", JsonKind.String, listPath, errs);
    }
    unchecked((marks[i] = 0));
    if (envMemberIs(list, i, "valueFrom", JsonKind.Object, listPath, errs)) {
      unchecked((marks[i] = ENV_VALUE_FROM));
      // a node only for an entry with a valueFrom
      const item = list.at(i);
      const vf = item !== null ? item.get("valueFrom") : null;
      const vfPath = listPath.index(i).child("valueFrom");
      const sources = envSources();
      for (let s = 0; s < sources.length; s++) readObjectAt(vf, sources[s], vfPath, errs);
    }
  }
  return list;
}

/** Marks ENV_LOOK on every entry that is not an object whose member `key` is a string (or absent,
 *  or null): one record walk. */
function markWalk(list: JsonValue, key: string, marks: StaticArray<u8>): void {
  for (let i = list.indexOfItemWithoutStringMember(key, true); i >= 0;) {
    unchecked((marks[i] = ENV_LOOK));
    i = list.indexOfItemWithoutStringMember(key, true, i + 1);
  }
}

/** Whether member `key` of env entry `i` is present (not null) and of kind `want` (a decodable
 *  string for String); present of another kind, it is reported. */
function envMemberIs(list: JsonValue, i: i32, key: string, want: JsonKind, listPath: Path, errs: FieldErrorList): bool {
  const kind = list.itemMemberKind(i, key);
  if (kind < 0 || kind == JsonKind.Null) return false;
  if (kind == want && (want != JsonKind.String || list.itemMemberIsDecodableString(i, key))) return true;
  reportItem(list, i, key, listPath, want == JsonKind.String ? MUST_BE_STRING : MUST_BE_OBJECT, errs);
  return false;
}

/** The sources an EnvVarSource can select, in the order the API lists them. */
export function envSources(): string[] {
  return ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"];
}

/** A `resources` object's requests, limits (quantities checked, in name order) and claims. Null
 *  when `node` is null. */
function readResourceBlock(
  node: JsonValue | null,
  at: Path,
  label: string,
  errs: FieldErrorList,
): ResourceBlock | null {
  if (node === null) return null;
  const requests = readQuantityMap(node, "requests", at, errs);
  const limits = readQuantityMap(node, "limits", at, errs);
  const claims = readListAt(node, "claims", at, errs).value;
  return new ResourceBlock(at, label, requests, limits, claims);
}

function readQuantityMap(node: JsonValue, key: string, at: Path, errs: FieldErrorList): QuantityMap {
  const map = readObjectAt(node, key, at, errs).value;
  if (map === null) return new QuantityMap([], []);
  const members = sortedMembers(map);
  const names = members.keys;
  const last = members.positions;
  const count = names.length;
  // each name's value read in document order (positional access is cheap only in order): its
  // text, or for a value that is not a quantity its node and Kubernetes' error
  const n = map.size();
  const read = new StaticArray<u8>(n);
  for (let k = 0; k < count; k++) unchecked((read[unchecked(last[k])] = 1));
  const texts = new StaticArray<string | null>(n);
  const failed = new StaticArray<JsonValue | null>(n);
  for (let i = 0; i < n; i++) {
    if (unchecked(read[i]) == 0) continue;
    // a string value is decoded in place, and parsed only when it is more than digits; a node
    // only for a value that is not a string, or not a quantity
    let text = map.itemStringValue(i);
    if (text !== null) {
      text = trimGoSpace(text);
      if (!isPlainInteger(text)) {
        const error = parseQuantity(text).error;
        if (error.length > 0) {
          unchecked((failed[i] = map.at(i)));
          text = error;
        }
      }
    } else {
      const v = map.at(i);
      if (v === null || v.isNull()) continue;
      const parsed = quantityOfValue(v);
      if (parsed.ok) text = v.numberText();
      else {
        unchecked((failed[i] = v));
        text = parsed.error;
      }
    }
    unchecked((texts[i] = text));
  }
  // in name order: the errors reported, the texts kept
  const values = new Array<string | null>(count);
  const mapPath = at.child(key);
  for (let k = 0; k < count; k++) {
    const i = unchecked(last[k]);
    const bad = unchecked(failed[i]);
    if (bad === null) {
      unchecked((values[k] = unchecked(texts[i])));
      continue;
    }
    if (errs.full) errs.omit();
    else {
      // a failed value's text is its parse error (set above, never null)
      const error = unchecked(texts[i]);
      errs.add(invalidJsonValue(mapPath.key(unchecked(names[k])), bad, error !== null ? error : ""));
    }
  }
  return new QuantityMap(names, values);
}

/** Digits only: a quantity that is a whole number, not negative, read without parsing it. */
export function isPlainInteger(text: string): bool {
  const n = text.length;
  if (n == 0) return false;
  for (let i = 0; i < n; i++) if (<u32>(text.charCodeAt(i) - 0x30) > 9) return false;
  return true;
}

/** The distinct member names of an object in sorted order (the order map-iterating rules report
 *  in, V4), each with the position of its last member (a repeated key is one map entry, the last
 *  one winning, as it does for a decoded map). */
export class SortedMembers {
  constructor(
    public keys: string[],
    public positions: i32[],
  ) {}
}

// the keys the comparator sorts positions by (AssemblyScript functions close over nothing)
let sortingKeys: string[] = [];

function byKeyThenPosition(a: i32, b: i32): i32 {
  const c = unchecked(sortingKeys[a]).localeCompare(unchecked(sortingKeys[b]));
  return c != 0 ? c : a - b;
}

export function sortedMembers(map: JsonValue): SortedMembers {
  const n = map.size();
  const keys = new Array<string>(n);
  const order = new Array<i32>(n);
  for (let i = 0; i < n; i++) {
    unchecked((keys[i] = map.keyAt(i))); // in order: positional access is cheap only sequentially
    unchecked((order[i] = i));
  }
  sortingKeys = keys;
  order.sort(byKeyThenPosition);
  sortingKeys = [];
  // the last of each run of equal keys, in place
  let count = 0;
  for (let k = 0; k < n; k++) {
    const i = unchecked(order[k]);
    const key = unchecked(keys[i]);
    if (k + 1 < n && unchecked(keys[unchecked(order[k + 1])]) == key) continue;
    unchecked((order[count] = i));
    count++;
  }
  order.length = count;
  const distinct = new Array<string>(count);
  for (let k = 0; k < count; k++) unchecked((distinct[k] = unchecked(keys[unchecked(order[k])])));
  return new SortedMembers(distinct, order);
}
