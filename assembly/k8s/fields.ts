// Small DOM helpers shared by the pod helpers: "get or create" for object and array members, and
// reading a JSON array of strings. All of them report wrong types as values, never trap.
import { JsonValue } from "../json/index";

/** The object member `key` of `parent`, created (or replacing a null) when unset; null when
 *  `parent` is not an object or the member has another kind. */
export function ensureObjectMember(parent: JsonValue, key: string): JsonValue | null {
  if (!parent.isObject()) return null;
  const existing = parent.getPresent(key);
  if (existing !== null) return existing.isObject() ? existing : null;
  parent.set(key, JsonValue.object());
  // re-read: the live node is the one the parent holds
  return objectOrNull(parent.get(key));
}

/** The array member `key` of `parent`, created (or replacing a null) when unset; null when `parent`
 *  is not an object or the member has another kind. */
export function ensureArrayMember(parent: JsonValue, key: string): JsonValue | null {
  if (!parent.isObject()) return null;
  const existing = parent.getPresent(key);
  if (existing !== null) return existing.isArray() ? existing : null;
  parent.set(key, JsonValue.array());
  const created = parent.get(key);
  return created !== null && created.isArray() ? created : null;
}

/** `parent[key]` when it is an object, else null. */
export function objectMember(parent: JsonValue | null, key: string): JsonValue | null {
  if (parent === null) return null;
  return objectOrNull(parent.get(key));
}

/** `parent[key]` when it is an array, else null. */
export function arrayMember(parent: JsonValue | null, key: string): JsonValue | null {
  if (parent === null) return null;
  const v = parent.get(key);
  return v !== null && v.isArray() ? v : null;
}

function objectOrNull(node: JsonValue | null): JsonValue | null {
  return node !== null && node.isObject() ? node : null;
}

/** The items of a JSON array of strings; null when `array` is not an array or an item is not a
 *  string (use checkStringArray in validate.ts for the detail text). */
export function stringItems(array: JsonValue | null): string[] | null {
  if (array === null || !array.isArray()) return null;
  const n = array.size();
  // sized once: growing it by pushes left every outgrown copy allocated (bump runtime)
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    // no node per item: a container's args can be a list of 50,000 strings
    const s = array.itemStringValue(i);
    if (s === null) return null;
    unchecked((out[i] = s));
  }
  return out;
}

/** The string `name` of an object item, or null (not an object, no name, or not a string). */
export function itemName(item: JsonValue | null): string | null {
  if (item === null || !item.isObject()) return null;
  return item.stringOrNull("name");
}

/** Whether `itemName(item) == name`, compared without decoding the name. */
export function itemNamed(item: JsonValue | null, name: string): bool {
  return item !== null && item.stringEquals("name", name);
}

/** `{"name":"<name>"}` */
export function nameRef(name: string): JsonValue {
  const o = JsonValue.object();
  o.set("name", JsonValue.str(name));
  return o;
}
