// Type checks for the "a field read has the wrong JSON type → invalid-request" rule. Each returns
// "" when fine, else a detail text such as `spec.containers[0].args[2] is not a string`. Absent
// and null fields are fine (Kubernetes "not set").
import { i32ToDecimal } from "../util/decimal";
import { JsonKind, JsonValue } from "../json/index";

function indexed(path: string, i: i32): string {
  return path + "[" + i32ToDecimal(i) + "]";
}

/** `node.<field>` is unset or an array of strings. */
export function checkStringArray(node: JsonValue, field: string, path: string): string {
  const list = node.getPresent(field);
  if (list === null) return "";
  // paths are only built for the detail of a failure
  if (!list.isArray()) return path + "." + field + " is not an array";
  // one walk over the items in place
  const bad = list.indexOfItemNotDecodableString();
  return bad >= 0 ? indexed(path + "." + field, bad) + " is not a string" : "";
}

/** `node.<field>` is unset or an array of objects, each with a string `name`. */
export function checkNamedObjectArray(node: JsonValue, field: string, path: string): string {
  const list = node.getPresent(field);
  if (list === null) return "";
  if (!list.isArray()) return path + "." + field + " is not an array";
  // one walk over the items, without a node per item
  const i = list.indexOfItemWithoutStringMember("name");
  if (i < 0) return "";
  const problem =
    list.itemKind(i) != <i32>JsonKind.Object ? NamedObjectProblem.NotObject : NamedObjectProblem.NameNotString;
  return namedObjectDetail(problem, indexed(path + "." + field, i));
}

/** `node.<field>` is unset or an array (items unchecked). */
export function checkArray(node: JsonValue, field: string, path: string): string {
  const list = node.getPresent(field);
  if (list === null) return "";
  if (!list.isArray()) return path + "." + field + " is not an array";
  return "";
}

/** `node.<field>` is unset or an object. */
export function checkObject(node: JsonValue, field: string, path: string): string {
  const v = node.getPresent(field);
  if (v === null) return "";
  if (!v.isObject()) return path + "." + field + " is not an object";
  return "";
}

/** An object with a string `name`. */
export function checkNamedObject(item: JsonValue | null, path: string): string {
  return namedObjectDetail(namedObjectProblem(item), path);
}

const enum NamedObjectProblem {
  None = 0,
  NotObject = 1,
  NameNotString = 2,
}

function namedObjectProblem(item: JsonValue | null): NamedObjectProblem {
  if (item === null || !item.isObject()) return NamedObjectProblem.NotObject;
  if (!item.memberIsDecodableString("name")) return NamedObjectProblem.NameNotString;
  return NamedObjectProblem.None;
}

function namedObjectDetail(problem: NamedObjectProblem, path: string): string {
  if (problem == NamedObjectProblem.NotObject) return path + " is not an object";
  if (problem == NamedObjectProblem.NameNotString) return path + ".name is not a string";
  return "";
}

/** `env`: unset or an array of objects with a string `name` and a `value` that is unset or a string.
 *  One walk: a name problem anywhere is reported before a value problem (as two walks would). */
export function checkEnvList(container: JsonValue, path: string): string {
  const env = container.getPresent("env");
  if (env === null) return "";
  if (!env.isArray()) return path + ".env is not an array";
  // one walk for the names, and one for the values only when every name is fine
  const i = env.indexOfItemWithoutStringMember("name");
  if (i >= 0) {
    const problem =
      env.itemKind(i) != <i32>JsonKind.Object ? NamedObjectProblem.NotObject : NamedObjectProblem.NameNotString;
    return namedObjectDetail(problem, indexed(path + ".env", i));
  }
  const bad = env.indexOfItemWithoutStringMember("value", true);
  if (bad >= 0) return indexed(path + ".env", bad) + ".value is not a string";
  return "";
}

/** The container fields the injectors read: `args`/`command` string arrays, `env` (see
 *  checkEnvList), `volumeMounts` named objects. `path` is e.g. `spec.containers[0]`. */
export function checkContainerFields(container: JsonValue | null, path: string): string {
  if (container === null || !container.isObject()) return path + " is not an object";
  let detail = checkNamedObject(container, path);
  if (detail.length > 0) return detail;
  detail = checkStringArray(container, "args", path);
  if (detail.length > 0) return detail;
  detail = checkStringArray(container, "command", path);
  if (detail.length > 0) return detail;
  detail = checkEnvList(container, path);
  if (detail.length > 0) return detail;
  return checkNamedObjectArray(container, "volumeMounts", path);
}

/** `spec` is unset or an object whose `containers` is unset or an array of objects with string names. */
export function checkContainerList(pod: JsonValue): string {
  if (!pod.isObject()) return "object is not a JSON object";
  const spec = pod.getPresent("spec");
  if (spec === null) return "";
  if (!spec.isObject()) return "spec is not an object";
  return checkNamedObjectArray(spec, "containers", "spec");
}

/** The pod-level lists the injectors append to: `volumes`, `initContainers` (named objects) and
 *  `imagePullSecrets` (an array; items without a string name are kept as they are). */
export function checkPodLists(pod: JsonValue): string {
  if (!pod.isObject()) return "object is not a JSON object";
  const spec = pod.getPresent("spec");
  if (spec === null) return "";
  if (!spec.isObject()) return "spec is not an object";
  let detail = checkNamedObjectArray(spec, "volumes", "spec");
  if (detail.length > 0) return detail;
  detail = checkNamedObjectArray(spec, "initContainers", "spec");
  if (detail.length > 0) return detail;
  return checkArray(spec, "imagePullSecrets", "spec");
}
