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
  readDurationAt,
  readStringMapAt,
  invalidJsonValue,
  presentAt,
  MUST_BE_OBJECT,
  MUST_BE_STRING,
  trimGoSpace,
} from "../../../assembly/validate/index";
import {
  KERNEL_CHECK_ANNOTATION,
  TYPE_EXTERNAL,
  TYPE_LMCACHE,
  TYPE_MOONCAKE,
  effectiveCacheType,
  effectiveRuntime,
  isCanonicalSpec,
  isNfsStorage,
  runtimeIdOf,
} from "../../../assembly/keys/index";
import { Quantity, parseQuantity, quantityOfValue, readQuantityAt } from "../../../assembly/validate/quantity";
import { uninitializedI32s } from "../../../assembly/util/memory";

// ---- names of the API (docs/policies/cachebackend-validator.md#fields; the types and NFS are
// shared, assembly/keys/inferencecache.ts) ----
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

// the provider blocks of spec.remoteStorage, in reading order
const BLOCK_REDIS: i32 = 0;
const BLOCK_LMCACHE_SERVER: i32 = 1;
const BLOCK_MOONCAKE: i32 = 2;

/** A provider block of `spec.remoteStorage` (`redis`, `lmCacheServer`, `mooncake`). */
export class ProviderBlock {
  constructor(
    public key: string,
    /** BLOCK_*: the provider is named only when a rule compares or prints it (a name is a text
     *  a fresh instance expands on first use) */
    public kind: i32,
    public node: JsonValue | null,
    /** `command` (lmCacheServer, mooncake): a list of strings (stringItem), or null */
    public command: JsonValue | null,
    public resources: ResourceBlock | null,
  ) {}
  get present(): bool {
    return this.node !== null;
  }
  /** the provider this block configures */
  get provider(): string {
    if (this.kind == BLOCK_REDIS) return PROVIDER_REDIS;
    return this.kind == BLOCK_LMCACHE_SERVER ? PROVIDER_LMCACHE_SERVER : PROVIDER_MOONCAKE;
  }
}

/** One map of a `resources` block (`requests` or `limits`): its distinct names in sorted order
 *  (V4) and the quantity text of each (trimmed; none for a null value or one that is not a
 *  quantity, reported when read). Entry `k` is member `names.positions[k]`; its value, when only
 *  digits, is kept as its span and decoded only when asked for, like the name. A quantity is
 *  parsed only when a rule needs it. */
export class QuantityMap {
  constructor(
    public names: SortedMembers,
    /** per member: a value of digits only at starts[i] (length > 0), no text (0), or a text in
     *  `texts[starts[i]]` (-1) */
    public starts: StaticArray<i32>,
    public lengths: StaticArray<i32>,
    public texts: string[],
  ) {}
  get count(): i32 {
    return this.names.count;
  }
  name(k: i32): string {
    return this.names.key(k);
  }
  /** the quantity text of entry `k`, or null */
  text(k: i32): string | null {
    const i = unchecked(this.names.positions[k]);
    const n = unchecked(this.lengths[i]);
    const s = unchecked(this.starts[i]);
    if (n == 0) return null;
    return n > 0 ? String.UTF8.decodeUnsafe(this.names.data + <usize>s, <usize>n) : unchecked(this.texts[s]);
  }
  hasText(k: i32): bool {
    return unchecked(this.lengths[unchecked(this.names.positions[k])]) != 0;
  }
  /** digits only: a whole, non-negative quantity */
  isPlain(k: i32): bool {
    const i = unchecked(this.names.positions[k]);
    const n = unchecked(this.lengths[i]);
    return n > 0 || (n < 0 && isPlainInteger(unchecked(this.texts[unchecked(this.starts[i])])));
  }
  /** the quantity of entry `k`, or null */
  quantity(k: i32): Quantity | null {
    const text = this.text(k);
    return text !== null ? parseQuantity(text).quantity : null;
  }
}

/** A `resources` block (`spec.resources` or a provider's): requests, limits and claims. */
export class ResourceBlock {
  constructor(
    public path: Path,
    public requests: QuantityMap,
    public limits: QuantityMap,
    public claims: JsonValue | null,
  ) {}

  /** `spec.resources` or `spec.remoteStorage.<block>.resources`, as the details name it: the
   *  path's text, built only for a message */
  get label(): string {
    return this.path.toString();
  }
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
    return isCanonicalSpec(this.runtime.length > 0, this.lmCache !== null, this.remoteStorage !== null);
  }

  /** effective runtime: runtime, else integration.engine, normalized; else VLLM */
  get effectiveRuntime(): string {
    return effectiveRuntime(this.runtime, this.engine);
  }

  /** runtime ID: the effective runtime lower-cased (once: the rules ask for it a dozen times, and
   *  each lower-casing was a new string on the heap) */
  private runtimeIdMemo: string | null = null;
  get runtimeId(): string {
    let id = this.runtimeIdMemo;
    if (id === null) {
      id = runtimeIdOf(this.runtime, this.engine);
      this.runtimeIdMemo = id;
    }
    return id;
  }

  /** "", Mooncake, External → LMCache; otherwise the type */
  get effectiveType(): string {
    return effectiveCacheType(this.type);
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

  /** `spec.lmCache.hostMemory.capacity` */
  get hostMemoryPath(): Path {
    return newPath("spec").child("lmCache").child("hostMemory").child("capacity");
  }

  /** NFS for the HiCache rules: remoteStorage present with provider NFS (ownership aside) */
  get nfsStorage(): bool {
    return isNfsStorage(this.remoteStorage !== null, this.provider);
  }
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
    readProviderBlock(b, rs, "redis", BLOCK_REDIS, false, rsPath, errs),
    readProviderBlock(b, rs, "lmCacheServer", BLOCK_LMCACHE_SERVER, true, rsPath, errs),
    readProviderBlock(b, rs, "mooncake", BLOCK_MOONCAKE, true, rsPath, errs),
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
  readDurationAt(observation, "firstEventTimeout", obsPath, errs);
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
  readDurationAt(integration, "firstEventTimeout", intPath, errs);
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
  b.resources = readResourceBlock(resources.value, specPath.child("resources"), errs);
  b.endpoint = stringValue(readStringAt(spec, "endpoint", specPath, errs));
  const allow = readBoolAt(spec, "allowCrossNamespace", specPath, errs);
  b.allowCrossNamespace = allow.ok && allow.value;
  return b;
}

function readProviderBlock(
  b: Backend,
  rs: JsonValue | null,
  key: string,
  kind: i32,
  withCommand: bool,
  rsPath: Path,
  errs: FieldErrorList,
): ProviderBlock {
  const node = coreObject(b, readObjectAt(rs, key, rsPath, errs));
  const at = rsPath.child(key);
  readStringAt(node, "image", at, errs);
  const command = withCommand ? readStringItems(node, "command", at, errs) : null;
  const res = readObjectAt(node, "resources", at, errs);
  const block = readResourceBlock(res.value, at.child("resources"), errs);
  return new ProviderBlock(key, kind, node, command, block);
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
function readResourceBlock(node: JsonValue | null, at: Path, errs: FieldErrorList): ResourceBlock | null {
  if (node === null) return null;
  const requests = readQuantityMap(node, "requests", at, errs);
  const limits = readQuantityMap(node, "limits", at, errs);
  const claims = readListAt(node, "claims", at, errs).value;
  return new ResourceBlock(at, requests, limits, claims);
}

function readQuantityMap(node: JsonValue, key: string, at: Path, errs: FieldErrorList): QuantityMap {
  const map = readObjectAt(node, key, at, errs).value;
  const names = sortedMembers(map);
  const last = names.positions;
  const count = names.count;
  // each name's value read in document order (positional access is cheap only in order): the
  // span of digits only, else its text, or for a value that is not a quantity its node and
  // Kubernetes' error (see QuantityMap)
  const n = map !== null ? map.size() : 0;
  const read = new StaticArray<u8>(n);
  for (let k = 0; k < count; k++) unchecked((read[unchecked(last[k])] = 1));
  // written for every member read, the only ones read
  const starts = uninitializedI32s(n);
  const lengths = uninitializedI32s(n);
  const texts = new Array<string>();
  const failed = new Array<JsonValue>();
  const errors = new Array<string>();
  const span = new StaticArray<i32>(4);
  for (let i = 0; i < n && map !== null; i++) {
    if (unchecked(read[i]) == 0) continue;
    const data = map.rawSpansAt(i, span);
    const s = unchecked(span[0]) + 1;
    const e = unchecked(span[1]) - 1;
    unchecked((starts[i] = s));
    unchecked((lengths[i] = e - s));
    if (data != 0 && e > s && load<u8>(data + <usize>s - 1) == 0x22 && digitsOnly(data, s, e)) continue;
    unchecked((lengths[i] = 0));
    // a string value is decoded in place, and parsed only when it is more than digits; a node
    // only for a value that is not a string, or not a quantity
    let text = map.itemStringValue(i);
    let bad: JsonValue | null = null;
    if (text !== null) {
      text = trimGoSpace(text);
      if (!isPlainInteger(text)) {
        const error = parseQuantity(text).error;
        if (error.length > 0) {
          bad = map.at(i);
          text = error;
        }
      }
    } else {
      const v = map.at(i);
      if (v === null || v.isNull()) continue;
      const parsed = quantityOfValue(v);
      if (parsed.ok) text = v.numberText();
      else {
        bad = v;
        text = parsed.error;
      }
    }
    if (bad !== null) {
      unchecked((starts[i] = failed.length));
      unchecked((lengths[i] = -2));
      failed.push(bad);
      errors.push(text);
    } else {
      unchecked((starts[i] = texts.length));
      unchecked((lengths[i] = -1));
      texts.push(text);
    }
  }
  // in name order: the errors reported (those values have no text)
  const mapPath = at.child(key);
  for (let k = 0; k < count; k++) {
    const i = unchecked(last[k]);
    if (unchecked(lengths[i]) != -2) continue;
    unchecked((lengths[i] = 0));
    const t = unchecked(starts[i]);
    if (errs.full) errs.omit();
    else errs.add(invalidJsonValue(mapPath.key(names.key(k)), unchecked(failed[t]), unchecked(errors[t])));
  }
  return new QuantityMap(names, starts, lengths, texts);
}

function digitsOnly(data: usize, s: i32, e: i32): bool {
  for (let i = s; i < e; i++) if (<u32>load<u8>(data + <usize>i) - 0x30 > 9) return false;
  return true;
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
 *  one winning, as it does for a decoded map). A key of ASCII without escapes (nearly every one)
 *  is sorted and compared on its raw bytes (their order is its characters') and decoded only when
 *  asked for; the others are decoded to be sorted. */
export class SortedMembers {
  constructor(
    /** the address of the document's bytes (the members' keys and values) */
    public data: usize,
    /** per member: its raw key's start and length; length -1 for a key decoded into
     *  `decoded[start]` */
    public starts: StaticArray<i32>,
    public lengths: StaticArray<i32>,
    public decoded: string[],
    /** the member of each distinct key (its last), in key order: the first `count` */
    public positions: StaticArray<i32>,
    public count: i32,
  ) {}
  /** the decoded key of entry `k` */
  key(k: i32): string {
    return memberKey(this, unchecked(this.positions[k]));
  }
  /** whether entry `k`'s key starts with `prefix` (ASCII; `whole`: is `prefix`) */
  keyStartsWith(k: i32, prefix: string, whole: bool = false): bool {
    const i = unchecked(this.positions[k]);
    const n = unchecked(this.lengths[i]);
    const s = unchecked(this.starts[i]);
    if (n < 0) {
      const d = unchecked(this.decoded[s]);
      return whole ? d == prefix : d.startsWith(prefix);
    }
    return (!whole || n == prefix.length) && rawStartsWith(this.data, s, s + n, prefix);
  }
  /** the entry of `other`'s entry `k`'s key among these, or -1 (binary search: maps can be long) */
  find(other: SortedMembers, k: i32): i32 {
    const j = unchecked(other.positions[k]);
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareMembers(this, unchecked(this.positions[mid]), other, j);
      if (c == 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** the decoded key of member `i` */
function memberKey(a: SortedMembers, i: i32): string {
  const n = unchecked(a.lengths[i]);
  const s = unchecked(a.starts[i]);
  return n >= 0 ? String.UTF8.decodeUnsafe(a.data + <usize>s, <usize>n) : unchecked(a.decoded[s]);
}

/** member `i`'s key of `a` against member `j`'s of `b`, in the order of the decoded keys (of
 *  their UTF-16 units: a raw key is ASCII, its bytes are its units) */
function compareMembers(a: SortedMembers, i: i32, b: SortedMembers, j: i32): i32 {
  const n = unchecked(a.lengths[i]);
  const m = unchecked(b.lengths[j]);
  if (n < 0 || m < 0) return memberKey(a, i).localeCompare(memberKey(b, j));
  const p = a.data + <usize>unchecked(a.starts[i]);
  const q = b.data + <usize>unchecked(b.starts[j]);
  const l = min(n, m);
  for (let k = 0; k < l; k++) {
    const c = <i32>load<u8>(p + <usize>k) - <i32>load<u8>(q + <usize>k);
    if (c != 0) return c;
  }
  return n - m;
}

/** whether the bytes [s, e) at `data` start with `prefix` (ASCII) */
export function rawStartsWith(data: usize, s: i32, e: i32, prefix: string): bool {
  if (e - s < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++)
    if (<i32>load<u8>(data + <usize>(s + k)) != prefix.charCodeAt(k)) return false;
  return true;
}

// the members the comparator sorts positions of (AssemblyScript functions close over nothing)
let sorting: SortedMembers | null = null;

function byKeyThenPosition(a: i32, b: i32): i32 {
  const s = sorting;
  const c = s !== null ? compareMembers(s, a, s, b) : 0;
  return c != 0 ? c : a - b;
}

/** sortedMembers of `map`; none when it is null */
export function sortedMembers(map: JsonValue | null): SortedMembers {
  const n = map !== null ? map.size() : 0;
  // every item is written before it is read
  const starts = uninitializedI32s(n);
  const lengths = uninitializedI32s(n);
  const order = uninitializedI32s(n);
  const decoded = new Array<string>();
  const span = new StaticArray<i32>(4);
  let data: usize = 0;
  for (let i = 0; i < n && map !== null; i++) {
    unchecked((order[i] = i));
    // in order: positional access is cheap only sequentially
    const d = map.rawSpansAt(i, span);
    let s = unchecked(span[2]);
    const e = unchecked(span[3]);
    // (the values read in place, by QuantityMap, are in the same bytes)
    if (d != 0) data = d;
    let length = d == 0 || e < 0 ? -1 : e - s;
    for (let k = s; k < e && length >= 0; k++) if (load<u8>(d + <usize>k) >= 0x80) length = -1;
    if (length < 0) {
      s = decoded.length;
      decoded.push(map.keyAt(i));
    }
    unchecked((starts[i] = s));
    unchecked((lengths[i] = length));
  }
  const members = new SortedMembers(data, starts, lengths, decoded, order, n);
  sorting = members;
  order.sort(byKeyThenPosition);
  sorting = null;
  // the last of each run of equal keys, in place
  let count = 0;
  for (let k = 0; k < n; k++) {
    const i = unchecked(order[k]);
    if (k + 1 < n && compareMembers(members, i, members, unchecked(order[k + 1])) == 0) continue;
    unchecked((order[count] = i));
    count++;
  }
  members.count = count;
  return members;
}
