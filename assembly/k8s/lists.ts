// Lists of named items (volumes, volumeMounts, initContainers, imagePullSecrets, env): presence by
// name, append-if-absent, and the pull-secret merge of
// docs/policies/lmcache-injector.md#pull-secrets. An existing same-named item is kept unchanged
// (never reconciled). Wrong-typed items never match a name.
import { ByteSink, JsonKind, JsonValue } from "../json/index";
import { StringSet } from "../util/stringset";
import { containsString } from "../validate/lists";
import { ensureArrayMember, ensureObjectMember, itemName, nameRef } from "./fields";

/** up to this many injected pull secrets are each looked up in the pod's list, not hashed */
const FEW_INJECTED: i32 = 8;

/** Some item of `list` is an object whose string `name` equals `name`. */
export function hasItemNamed(list: JsonValue | null, name: string): bool {
  return list !== null && list.indexOfItemWithString("name", name) >= 0;
}

/** How many items carry that name. */
export function countItemsNamed(list: JsonValue | null, name: string): i32 {
  if (list === null || !list.isArray()) return 0;
  let count = 0;
  for (let i = list.indexOfItemWithString("name", name); i >= 0; i = list.indexOfItemWithString("name", name, i + 1))
    count++;
  return count;
}

/** Appends `item` to `parent[field]` unless an item with the same name exists; creates the list
 *  when unset. False when the list has the wrong type or `item` has no string name. */
export function appendIfAbsentByName(parent: JsonValue, field: string, item: JsonValue): bool {
  const name = itemName(item);
  if (name === null) return false;
  const list = ensureArrayMember(parent, field);
  if (list === null) return false;
  if (hasItemNamed(list, name)) return true;
  return list.push(item);
}

/** Appends `item` to `parent[field]` unconditionally; creates the list when unset. */
export function appendToList(parent: JsonValue, field: string, item: JsonValue): bool {
  const list = ensureArrayMember(parent, field);
  if (list === null) return false;
  return list.push(item);
}

// ---- named conveniences for the lists injectors touch (spec created when absent) ----

/** spec.volumes += volume unless a volume with that name exists. */
export function appendVolumeIfAbsent(pod: JsonValue, volume: JsonValue): bool {
  const spec = ensureObjectMember(pod, "spec");
  return spec !== null && appendIfAbsentByName(spec, "volumes", volume);
}

/** spec.initContainers += container unless one with that name exists. */
export function appendInitContainerIfAbsent(pod: JsonValue, container: JsonValue): bool {
  const spec = ensureObjectMember(pod, "spec");
  return spec !== null && appendIfAbsentByName(spec, "initContainers", container);
}

/** container.volumeMounts += mount unless a mount with that name exists. */
export function appendVolumeMountIfAbsent(container: JsonValue, mount: JsonValue): bool {
  return appendIfAbsentByName(container, "volumeMounts", mount);
}

/** spec.imagePullSecrets += {name} unless listed. */
export function appendPullSecretIfAbsent(pod: JsonValue, name: string): bool {
  const spec = ensureObjectMember(pod, "spec");
  return spec !== null && appendIfAbsentByName(spec, "imagePullSecrets", nameRef(name));
}

/** The names `mergePullSecrets` would append to `existing` (in order, deduplicated). */
export function pullSecretsToAppend(existing: JsonValue | null, injected: string[]): string[] {
  const out = new Array<string>(0);
  const list = existing !== null && existing.isArray() ? existing : null;
  if (injected.length <= FEW_INJECTED) {
    // the usual case (the engine's one or two names): each is looked up in the list in place, so
    // a pod with 50,000 pull secrets costs no decoded name per item
    for (let i = 0; i < injected.length; i++) {
      const name = unchecked(injected[i]);
      if (!containsString(out, name) && !hasItemNamed(list, name)) out.push(name);
    }
    return out;
  }
  const n = list !== null ? list.size() : 0;
  const seen = new StringSet(n + injected.length);
  if (list !== null) {
    for (let i = 0; i < n; i++) {
      const name = list.itemStringOrNull(i, "name");
      if (name !== null) seen.add(name);
    }
  }
  for (let i = 0; i < injected.length; i++) {
    const name = unchecked(injected[i]);
    if (seen.add(name)) out.push(name);
  }
  return out;
}

/** MergeImagePullSecrets on `spec`: keep existing entries (duplicates included), append each
 *  injected `{"name":n}` not seen yet; the list is created only when something is appended.
 *  False when `spec` or `spec.imagePullSecrets` has the wrong type. */
export function mergePullSecrets(spec: JsonValue, injected: string[]): bool {
  if (!spec.isObject()) return false;
  const existing = spec.getPresent("imagePullSecrets");
  if (existing !== null && !existing.isArray()) return false;
  const toAppend = pullSecretsToAppend(existing, injected);
  if (toAppend.length == 0) return true;
  if (existing === null) {
    // a new list is written once as text and not parsed: one node in all instead of two nodes
    // and their buffers per name (an annotation can list 150,000 names)
    return spec.set("imagePullSecrets", nameRefList(toAppend));
  }
  const list = ensureArrayMember(spec, "imagePullSecrets");
  if (list === null) return false;
  for (let i = 0; i < toAppend.length; i++) {
    if (!list.push(nameRef(toAppend[i]))) return false;
  }
  return true;
}

/** `[{"name":n0},{"name":n1},…]` over its text, each name escaped as `JsonValue.str` does: written
 *  back as it is, parsed only if something reads into it (JsonValue.unread) */
function nameRefList(names: string[]): JsonValue {
  // exact for ASCII names, plus the worst-case reserve writeJsonString makes for the longest one
  let hint = 2;
  let longest = 0;
  for (let i = 0; i < names.length; i++) {
    const n = unchecked(names[i]).length;
    hint += n + 12;
    longest = max(longest, n);
  }
  hint += longest * 6 + 16;
  const sink = new ByteSink(hint);
  sink.writeByte(0x5b); // [
  for (let i = 0; i < names.length; i++) {
    sink.writeUtf8(i == 0 ? '{"name":' : ',{"name":');
    sink.writeJsonString(unchecked(names[i]));
    sink.writeByte(0x7d); // }
  }
  sink.writeByte(0x5d); // ]
  ByteSink.bulk += sink.length;
  return JsonValue.unread(JsonKind.Array, sink.bytes());
}

// ---- builders for the objects injectors append (docs/policies/lmcache-injector.md#staging) ----

/** `{"name":n,"emptyDir":{}}` */
export function emptyDirVolume(name: string): JsonValue {
  const o = nameRef(name);
  o.set("emptyDir", JsonValue.object());
  return o;
}

/** `{"name":n,"nfs":{"server":s,"path":p}}` */
export function nfsVolume(name: string, server: string, path: string): JsonValue {
  const nfs = JsonValue.object();
  nfs.set("server", JsonValue.str(server));
  nfs.set("path", JsonValue.str(path));
  const o = nameRef(name);
  o.set("nfs", nfs);
  return o;
}

/** `{"name":n,"mountPath":p}` plus `"readOnly":true` when asked (false is omitted). */
export function volumeMount(name: string, mountPath: string, readOnly: bool): JsonValue {
  const o = nameRef(name);
  o.set("mountPath", JsonValue.str(mountPath));
  if (readOnly) o.set("readOnly", JsonValue.bool(true));
  return o;
}

/** `{"name","image","env"?,"volumeMounts"?,"imagePullPolicy"?}` — no command or args: the image's
 *  entrypoint runs. Empty lists and an empty pull policy are omitted. */
export function simpleInitContainer(
  name: string,
  image: string,
  env: JsonValue[],
  mounts: JsonValue[],
  pullPolicy: string,
): JsonValue {
  const o = nameRef(name);
  o.set("image", JsonValue.str(image));
  if (env.length > 0) o.set("env", arrayOf(env));
  if (mounts.length > 0) o.set("volumeMounts", arrayOf(mounts));
  if (pullPolicy.length > 0) o.set("imagePullPolicy", JsonValue.str(pullPolicy));
  return o;
}

function arrayOf(items: JsonValue[]): JsonValue {
  const a = JsonValue.array();
  for (let i = 0; i < items.length; i++) a.push(items[i]);
  return a;
}
