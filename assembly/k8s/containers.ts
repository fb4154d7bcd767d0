// spec.containers access: type-checked, never trapping. Only `spec.containers` is searched here;
// init and ephemeral containers are separate lists.
import { i32ToDecimal } from "../util/decimal";
import { JsonValue } from "../json/index";

/** `spec.containers` as read: `list` is the live array (null when absent/null), `error` the detail
 *  text when `spec` or the list has the wrong type. */
export class ContainerList {
  constructor(
    public list: JsonValue | null,
    public error: string,
  ) {}
  get ok(): bool {
    return this.error.length == 0;
  }
  /** number of containers (0 when absent or invalid) */
  get length(): i32 {
    const list = this.list;
    return list === null ? 0 : list.size();
  }
  /** the i-th container when it is an object, else null */
  at(i: i32): JsonValue | null {
    const list = this.list;
    if (list === null) return null;
    const c = list.at(i);
    return c !== null && c.isObject() ? c : null;
  }
}

export function readContainers(pod: JsonValue): ContainerList {
  return readPodList(pod, "containers");
}

/** `spec.<field>` as a list (containers, initContainers, volumes, …). */
export function readPodList(pod: JsonValue, field: string): ContainerList {
  if (!pod.isObject()) return new ContainerList(null, "object is not a JSON object");
  const spec = pod.getPresent("spec");
  if (spec === null) return new ContainerList(null, "");
  if (!spec.isObject()) return new ContainerList(null, "spec is not an object");
  const list = spec.getPresent(field);
  if (list === null) return new ContainerList(null, "");
  if (!list.isArray()) return new ContainerList(null, "spec." + field + " is not an array");
  return new ContainerList(list, "");
}

/** Index of the first item whose `name` equals `name` exactly; -1 when none. Items that are not
 *  objects or have no string name never match. */
export function findNamedIndex(list: JsonValue | null, name: string): i32 {
  if (list === null || !list.isArray()) return -1;
  return list.indexOfItemWithString("name", name);
}

/** Index of the container named `name` in `spec.containers`, or -1. */
export function findContainerIndex(pod: JsonValue, name: string): i32 {
  return findNamedIndex(readContainers(pod).list, name);
}

/** The container at `index` when it exists and is an object. */
export function containerAt(pod: JsonValue, index: i32): JsonValue | null {
  return readContainers(pod).at(index);
}

/** The first container, or null (no containers, or not an object). */
export function firstContainer(pod: JsonValue): JsonValue | null {
  return containerAt(pod, 0);
}

/** The names of the containers in order ("" for an item without a string name). */
export function containerNames(pod: JsonValue): string[] {
  const list = readContainers(pod).list;
  const out = new Array<string>(0);
  if (list === null) return out;
  const n = list.size();
  for (let i = 0; i < n; i++) {
    const name = list.itemStringOrNull(i, "name");
    out.push(name !== null ? name : "");
  }
  return out;
}

/** `spec.containers[<index>]`, for detail texts. */
export function containerPath(index: i32): string {
  return "spec.containers[" + i32ToDecimal(index) + "]";
}
