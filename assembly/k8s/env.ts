// A container's `env` list: find by name, set-if-absent, upsert, and the PYTHONPATH-style prepend
// of docs/policies/lmcache-injector.md#staging. Entries that are not objects or lack a string name
// never match.
import { i32ToDecimal } from "../util/decimal";
import { JsonValue } from "../json/index";
import { ensureArrayMember } from "./fields";

/** `{"name":"<name>","value":"<value>"}` */
export function envVar(name: string, value: string): JsonValue {
  const o = JsonValue.object();
  o.set("name", JsonValue.str(name));
  o.set("value", JsonValue.str(value));
  return o;
}

/** Indices of the entries named `name` in an env array, in order. */
export function envIndices(env: JsonValue | null, name: string): i32[] {
  const out = new Array<i32>(0);
  if (env === null || !env.isArray()) return out;
  for (let i = env.indexOfItemWithString("name", name); i >= 0; i = env.indexOfItemWithString("name", name, i + 1))
    out.push(i);
  return out;
}

/** Index of the first entry named `name`, or -1. */
export function findEnvIndex(env: JsonValue | null, name: string): i32 {
  // the first of envIndices(env, name), without the list
  if (env === null || !env.isArray()) return -1;
  return env.indexOfItemWithString("name", name);
}

/** True when the entry has a `valueFrom` that is not null. */
export function hasValueFrom(entry: JsonValue): bool {
  return entry.getPresent("valueFrom") !== null;
}

/** Appends `{name, value}` unless an entry with that name exists (whatever its value or
 *  valueFrom). False when `env` has the wrong type. */
export function setEnvIfAbsent(container: JsonValue, name: string, value: string): bool {
  const env = ensureArrayMember(container, "env");
  if (env === null) return false;
  if (findEnvIndex(env, name) >= 0) return true;
  return env.push(envVar(name, value));
}

/** Every entry named `name` gets `value` (its `valueFrom` is dropped, position kept); none →
 *  append `{name, value}`. An entry that already equals the target is not touched. */
export function upsertEnv(container: JsonValue, name: string, value: string): bool {
  const env = ensureArrayMember(container, "env");
  if (env === null) return false;
  const found = envIndices(env, name);
  if (found.length == 0) return env.push(envVar(name, value));
  for (let k = 0; k < found.length; k++) {
    const entry = env.at(found[k]);
    if (entry === null) return false;
    if (!setEntryValue(entry, value)) return false;
  }
  return true;
}

/**
 * The staging prepend: every entry named `name` is rewritten in place — with
 * `valueFrom` → drop it, value = `entry`; value unset or "" → `entry`; else `entry:existing`.
 * No entry → append `{name, entry}`. False when `env` or a matching `value` has the wrong type.
 */
export function prependPathEnv(container: JsonValue, name: string, entry: string): bool {
  const env = ensureArrayMember(container, "env");
  if (env === null) return false;
  const found = envIndices(env, name);
  if (found.length == 0) return env.push(envVar(name, entry));
  for (let k = 0; k < found.length; k++) {
    const item = env.at(found[k]);
    if (item === null) return false;
    if (!prependToEntry(item, entry)) return false;
  }
  return true;
}

function prependToEntry(item: JsonValue, entry: string): bool {
  if (hasValueFrom(item)) return setEntryValue(item, entry);
  const value = item.getPresent("value");
  if (value === null) return setEntryValue(item, entry);
  if (value === null) return false;
  const text = value.asString();
  if (!text.ok) return false;
  if (text.value.length == 0) return setEntryValue(item, entry);
  return setEntryValue(item, entry + ":" + text.value);
}

/** value = `value`, valueFrom removed; untouched when it already is exactly that. */
function setEntryValue(entry: JsonValue, value: string): bool {
  const current = entry.readString("value");
  const fromSet = hasValueFrom(entry);
  if (current.ok && current.value == value && !fromSet) return true;
  if (entry.has("valueFrom")) entry.remove("valueFrom");
  return entry.set("value", JsonValue.str(value));
}

/** "" when a prepend/upsert can run on this container: env unset or an array, and every entry
 *  named `name` has an unset or string `value`. */
export function checkEnvWritable(container: JsonValue, name: string, path: string): string {
  const env = container.getPresent("env");
  if (env === null) return "";
  if (!env.isArray()) return path + ".env is not an array";
  const found = envIndices(env, name);
  for (let k = 0; k < found.length; k++) {
    const item = env.at(found[k]);
    if (item === null) continue;
    const value = item.getPresent("value");
    if (value === null) continue;
    if (!value.isDecodableString()) {
      return path + ".env[" + i32ToDecimal(found[k]) + "].value is not a string";
    }
  }
  return "";
}
