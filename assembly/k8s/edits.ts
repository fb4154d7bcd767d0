// Typed pod edits and the one `applyEdits` every injector shares (docs/architecture.md).
// Planners only decide which edits; `applyEdits` first checks every edit against the pod and
// mutates nothing unless all of them can be applied, so a plan is applied all-or-nothing.
// Edits only ever create or extend members, never change a member's kind, so checking all edits
// against the original pod is sufficient.
import { i32ToDecimal } from "../util/decimal";
import { JsonKind, JsonValue, jsonEquals } from "../json/index";
import { checkAnnotationsWritable, removeAnnotation, setAnnotation } from "./annotations";
import { applyArgToArray, applyBareFlagToArray, appendTokensToArray } from "./args";
import { containerPath } from "./containers";
import { checkEnvWritable, prependPathEnv, setEnvIfAbsent, upsertEnv } from "./env";
import { ensureArrayMember, ensureObjectMember, itemName } from "./fields";
import { appendIfAbsentByName, appendToList, mergePullSecrets } from "./lists";
import { checkStringArray } from "./validate";

export enum EditKind {
  /** spec.<field> = node (e.g. hostIPC: true) */
  SetSpecField = 0,
  /** container args += tokens */
  AppendArgs,
  /** applyArg(name, value), docs/policies/lmcache-injector.md#args-edits */
  ApplyArg,
  /** applyBareFlag(name) */
  ApplyBareFlag,
  /** env {name, value} appended unless an entry with that name exists */
  EnvSetIfAbsent,
  /** every env entry `name` gets value (valueFrom dropped, position kept); none → append */
  EnvUpsert,
  /** PYTHONPATH-style prepend of value to every entry `name`; none → append */
  EnvPrependPath,
  /** spec.<field> += node unconditionally */
  AppendToPodList,
  /** spec.<field> += node unless an item with node's name exists */
  AppendToPodListIfAbsent,
  /** container.<field> += node unconditionally */
  AppendToContainerList,
  /** container.<field> += node unless an item with node's name exists */
  AppendToContainerListIfAbsent,
  /** merge of spec.imagePullSecrets with tokens (names) */
  MergePullSecrets,
  /** metadata.annotations[name] = value */
  SetAnnotation,
  /** delete metadata.annotations[name]; with dropEmpty, remove the map if this empties it */
  RemoveAnnotation,
}

/** One edit. Which members are meaningful depends on `kind` (see the static constructors). */
export class Edit {
  kind: EditKind;
  /** index in spec.containers for container edits; -1 otherwise */
  container: i32 = -1;
  /** the list or spec field (`volumes`, `volumeMounts`, `hostIPC`, …) */
  field: string = "";
  /** flag, env name or annotation key */
  name: string = "";
  value: string = "";
  node: JsonValue | null = null;
  tokens: string[] = new Array<string>(0);
  dropEmpty: bool = false;
  /** SetSpecField: whether an existing value already equals `node` (then it is left untouched).
   *  A function reference so that a policy that only sets booleans does not link jsonEquals.
   *  Set by the static constructors; null (bare constructor) means the value is always set. */
  same: ((existing: JsonValue, node: JsonValue) => bool) | null = null;

  constructor(kind: EditKind) {
    this.kind = kind;
  }

  static setSpecField(field: string, node: JsonValue): Edit {
    const e = new Edit(EditKind.SetSpecField);
    e.field = field;
    e.node = node;
    e.same = (existing: JsonValue, node: JsonValue): bool => jsonEquals(existing, node);
    return e;
  }

  /** setSpecField with a boolean: the same edit, compared without the general jsonEquals */
  static setSpecBool(field: string, value: bool): Edit {
    const e = new Edit(EditKind.SetSpecField);
    e.field = field;
    e.node = JsonValue.bool(value);
    e.same = (existing: JsonValue, node: JsonValue): bool =>
      existing.isBool() && node.isBool() && existing.asBool().value == node.asBool().value;
    return e;
  }

  static appendArgs(container: i32, tokens: string[]): Edit {
    const e = new Edit(EditKind.AppendArgs);
    e.container = container;
    e.tokens = tokens;
    return e;
  }

  static applyArg(container: i32, flag: string, value: string): Edit {
    const e = new Edit(EditKind.ApplyArg);
    e.container = container;
    e.name = flag;
    e.value = value;
    return e;
  }

  static applyBareFlag(container: i32, flag: string): Edit {
    const e = new Edit(EditKind.ApplyBareFlag);
    e.container = container;
    e.name = flag;
    return e;
  }

  static envSetIfAbsent(container: i32, name: string, value: string): Edit {
    return Edit.env(EditKind.EnvSetIfAbsent, container, name, value);
  }

  static envUpsert(container: i32, name: string, value: string): Edit {
    return Edit.env(EditKind.EnvUpsert, container, name, value);
  }

  static envPrependPath(container: i32, name: string, entry: string): Edit {
    return Edit.env(EditKind.EnvPrependPath, container, name, entry);
  }

  private static env(kind: EditKind, container: i32, name: string, value: string): Edit {
    const e = new Edit(kind);
    e.container = container;
    e.field = "env";
    e.name = name;
    e.value = value;
    return e;
  }

  static appendToPodList(field: string, item: JsonValue): Edit {
    const e = new Edit(EditKind.AppendToPodList);
    e.field = field;
    e.node = item;
    return e;
  }

  static appendToPodListIfAbsent(field: string, item: JsonValue): Edit {
    const e = new Edit(EditKind.AppendToPodListIfAbsent);
    e.field = field;
    e.node = item;
    return e;
  }

  static appendToContainerList(container: i32, field: string, item: JsonValue): Edit {
    const e = new Edit(EditKind.AppendToContainerList);
    e.container = container;
    e.field = field;
    e.node = item;
    return e;
  }

  static appendToContainerListIfAbsent(container: i32, field: string, item: JsonValue): Edit {
    const e = new Edit(EditKind.AppendToContainerListIfAbsent);
    e.container = container;
    e.field = field;
    e.node = item;
    return e;
  }

  static mergePullSecrets(names: string[]): Edit {
    const e = new Edit(EditKind.MergePullSecrets);
    e.field = "imagePullSecrets";
    e.tokens = names;
    return e;
  }

  static setAnnotation(key: string, value: string): Edit {
    const e = new Edit(EditKind.SetAnnotation);
    e.name = key;
    e.value = value;
    return e;
  }

  static removeAnnotation(key: string, dropEmptyMap: bool = false): Edit {
    const e = new Edit(EditKind.RemoveAnnotation);
    e.name = key;
    e.dropEmpty = dropEmptyMap;
    return e;
  }

  get isContainerEdit(): bool {
    return this.container >= 0;
  }

  /** A one-line description for tests and expected-edit listings, e.g.
   *  `apply-arg containers[0] --block-size 64`. */
  describe(): string {
    const c = "containers[" + i32ToDecimal(this.container) + "]";
    const node = this.node;
    const nodeText = node !== null ? node.toString() : "null";
    switch (this.kind) {
      case EditKind.SetSpecField:
        return "set spec." + this.field + " " + nodeText;
      case EditKind.AppendArgs:
        return "append-args " + c + " " + this.tokens.join(" ");
      case EditKind.ApplyArg:
        return "apply-arg " + c + " " + this.name + " " + this.value;
      case EditKind.ApplyBareFlag:
        return "apply-bare-flag " + c + " " + this.name;
      case EditKind.EnvSetIfAbsent:
        return "env-set-if-absent " + c + " " + this.name + "=" + this.value;
      case EditKind.EnvUpsert:
        return "env-upsert " + c + " " + this.name + "=" + this.value;
      case EditKind.EnvPrependPath:
        return "env-prepend-path " + c + " " + this.name + " " + this.value;
      case EditKind.AppendToPodList:
        return "append spec." + this.field + " " + nodeText;
      case EditKind.AppendToPodListIfAbsent:
        return "append-if-absent spec." + this.field + " " + nodeText;
      case EditKind.AppendToContainerList:
        return "append " + c + "." + this.field + " " + nodeText;
      case EditKind.AppendToContainerListIfAbsent:
        return "append-if-absent " + c + "." + this.field + " " + nodeText;
      case EditKind.MergePullSecrets:
        return "merge-pull-secrets " + this.tokens.join(",");
      case EditKind.SetAnnotation:
        return "set-annotation " + this.name + "=" + this.value;
      case EditKind.RemoveAnnotation:
        return "remove-annotation " + this.name + (this.dropEmpty ? " (drop empty map)" : "");
      default:
        return "unknown-edit";
    }
  }
}

/** An ordered list of edits with fluent adders named after the edits. */
export class Plan {
  edits: Edit[] = new Array<Edit>(0);

  get length(): i32 {
    return this.edits.length;
  }
  get isEmpty(): bool {
    return this.edits.length == 0;
  }

  add(edit: Edit): Plan {
    this.edits.push(edit);
    return this;
  }

  setSpecField(field: string, node: JsonValue): Plan {
    return this.add(Edit.setSpecField(field, node));
  }
  setHostIPC(): Plan {
    return this.add(Edit.setSpecBool("hostIPC", true));
  }
  appendArgs(container: i32, tokens: string[]): Plan {
    return this.add(Edit.appendArgs(container, tokens));
  }
  applyArg(container: i32, flag: string, value: string): Plan {
    return this.add(Edit.applyArg(container, flag, value));
  }
  applyBareFlag(container: i32, flag: string): Plan {
    return this.add(Edit.applyBareFlag(container, flag));
  }
  envSetIfAbsent(container: i32, name: string, value: string): Plan {
    return this.add(Edit.envSetIfAbsent(container, name, value));
  }
  envUpsert(container: i32, name: string, value: string): Plan {
    return this.add(Edit.envUpsert(container, name, value));
  }
  envPrependPath(container: i32, name: string, entry: string): Plan {
    return this.add(Edit.envPrependPath(container, name, entry));
  }
  appendToPodList(field: string, item: JsonValue): Plan {
    return this.add(Edit.appendToPodList(field, item));
  }
  appendToPodListIfAbsent(field: string, item: JsonValue): Plan {
    return this.add(Edit.appendToPodListIfAbsent(field, item));
  }
  appendToContainerList(container: i32, field: string, item: JsonValue): Plan {
    return this.add(Edit.appendToContainerList(container, field, item));
  }
  appendToContainerListIfAbsent(container: i32, field: string, item: JsonValue): Plan {
    return this.add(Edit.appendToContainerListIfAbsent(container, field, item));
  }
  mergePullSecrets(names: string[]): Plan {
    return this.add(Edit.mergePullSecrets(names));
  }
  setAnnotation(key: string, value: string): Plan {
    return this.add(Edit.setAnnotation(key, value));
  }
  removeAnnotation(key: string, dropEmptyMap: bool = false): Plan {
    return this.add(Edit.removeAnnotation(key, dropEmptyMap));
  }

  /** every edit's describe(), one per line */
  describe(): string {
    const lines = new Array<string>(0);
    for (let i = 0; i < this.edits.length; i++) lines.push(this.edits[i].describe());
    return lines.join("\n");
  }
}

/** The outcome of applyEdits: `error` names the first edit that cannot be applied (nothing was
 *  changed in that case). */
export class ApplyResult {
  constructor(
    public ok: bool,
    public error: string,
    public editIndex: i32,
  ) {}
}

/** Applies `edits` in order, all or nothing. */
export function applyEdits(pod: JsonValue, edits: Edit[]): ApplyResult {
  return applyEditsWith(pod, edits, false);
}

/** applyEdits for plans of the basic kinds only (annotations, appended args and appended list
 *  items: hicache-injector's plans): the other kinds' checks and applies are not linked into the
 *  policy (the switch over every kind linked ~3 KB of them). An edit of another kind fails its
 *  check ("unknown edit"), so nothing is applied. */
export function applyBasicEdits(pod: JsonValue, edits: Edit[]): ApplyResult {
  return applyEditsWith(pod, edits, true);
}

// inlined into each of the two callers, where `basic` is a constant and the other branch goes
// @ts-ignore: decorator
@inline
function applyEditsWith(pod: JsonValue, edits: Edit[], basic: bool): ApplyResult {
  // the container whose args an earlier flag edit found to be strings: CacheBlend's seven flag
  // edits would check the same args (50,000 of them in a hostile pod) seven times
  let argsChecked = -1;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i];
    const flagEdit = edit.kind == EditKind.ApplyArg || edit.kind == EditKind.ApplyBareFlag;
    if (flagEdit && edit.container >= 0 && edit.container == argsChecked) continue;
    const detail = basic ? checkBasicEdit(pod, edit) : checkEdit(pod, edit);
    if (detail.length > 0) return new ApplyResult(false, detail, i);
    if (flagEdit) argsChecked = edit.container;
  }
  for (let i = 0; i < edits.length; i++) {
    // cannot fail after the checks; reported anyway rather than trapping (by index: describe()
    // would link every edit kind's text into every policy for a path that is never taken)
    const applied = basic ? applyBasicEdit(pod, edits[i]) : applyEdit(pod, edits[i]);
    if (!applied) return new ApplyResult(false, "could not apply edit " + i32ToDecimal(i), i);
  }
  return new ApplyResult(true, "", -1);
}

export function applyPlan(pod: JsonValue, plan: Plan): ApplyResult {
  return applyEdits(pod, plan.edits);
}

/** "" when `edit` can be applied to `pod`, else why not (in invalid-request detail style). */
export function checkEdit(pod: JsonValue, edit: Edit): string {
  if (!pod.isObject()) return "object is not a JSON object";
  switch (edit.kind) {
    case EditKind.SetAnnotation:
    case EditKind.RemoveAnnotation:
      return checkAnnotationsWritable(pod);
    case EditKind.SetSpecField:
      return edit.node === null ? "edit has no value" : checkSpec(pod);
    case EditKind.AppendToPodList:
    case EditKind.AppendToPodListIfAbsent:
    case EditKind.MergePullSecrets:
      return checkPodListEdit(pod, edit);
    default:
      return checkContainerEdit(pod, edit);
  }
}

function checkSpec(pod: JsonValue): string {
  const spec = pod.getPresent("spec");
  if (spec === null) return "";
  if (!spec.isObject()) return "spec is not an object";
  return "";
}

function checkPodListEdit(pod: JsonValue, edit: Edit): string {
  const specDetail = checkSpec(pod);
  if (specDetail.length > 0) return specDetail;
  if (edit.kind != EditKind.MergePullSecrets && !nodeFitsList(edit))
    return "edit item for spec." + edit.field + " has no string name";
  const spec = pod.get("spec");
  if (spec === null) return "";
  return checkListField(spec, edit.field, -1);
}

function checkContainerEdit(pod: JsonValue, edit: Edit): string {
  const specDetail = checkSpec(pod);
  if (specDetail.length > 0) return specDetail;
  // the container path is built only for a detail
  const container = containerForEdit(pod, edit.container);
  if (container === null) return containerPath(edit.container) + " does not exist or is not an object";
  switch (edit.kind) {
    case EditKind.AppendArgs:
      return checkListField(container, "args", edit.container);
    case EditKind.ApplyArg:
    case EditKind.ApplyBareFlag:
      return checkStringArray(container, "args", containerPath(edit.container));
    case EditKind.EnvSetIfAbsent:
      return checkListField(container, "env", edit.container);
    case EditKind.EnvUpsert:
    case EditKind.EnvPrependPath:
      return checkEnvWritable(container, edit.name, containerPath(edit.container));
    case EditKind.AppendToContainerList:
    case EditKind.AppendToContainerListIfAbsent:
      if (!nodeFitsList(edit))
        return "edit item for " + containerPath(edit.container) + "." + edit.field + " has no string name";
      return checkListField(container, edit.field, edit.container);
    default:
      return "unknown edit";
  }
}

/** An unconditional append needs an item; an if-absent append needs a named item. */
function nodeFitsList(edit: Edit): bool {
  const node = edit.node;
  if (node === null) return false;
  if (edit.kind == EditKind.AppendToPodList || edit.kind == EditKind.AppendToContainerList) return true;
  return itemName(node) !== null;
}

/** `<parent>.<field>` is unset or an array; `parent` is container `index`, or `spec` when index < 0
 *  (the path is built only for the detail) */
function checkListField(parent: JsonValue, field: string, index: i32): string {
  const kind = parent.memberKind(field);
  if (kind < 0 || kind == JsonKind.Null || kind == JsonKind.Array) return "";
  return (index < 0 ? "spec" : containerPath(index)) + "." + field + " is not an array";
}

/** spec.containers[index] when it exists and is an object. */
function containerForEdit(pod: JsonValue, index: i32): JsonValue | null {
  const spec = pod.get("spec");
  if (spec === null || !spec.isObject()) return null;
  const list = spec.get("containers");
  if (list === null || !list.isArray()) return null;
  if (index < 0 || index >= list.size()) return null;
  const c = list.at(index);
  return c !== null && c.isObject() ? c : null;
}

function applyEdit(pod: JsonValue, edit: Edit): bool {
  switch (edit.kind) {
    case EditKind.SetAnnotation:
      return setAnnotation(pod, edit.name, edit.value);
    case EditKind.RemoveAnnotation:
      removeAnnotation(pod, edit.name, edit.dropEmpty);
      return true;
    case EditKind.SetSpecField:
      return setSpecField(pod, edit);
    case EditKind.AppendToPodList:
    case EditKind.AppendToPodListIfAbsent:
    case EditKind.MergePullSecrets:
      return applyPodListEdit(pod, edit);
    default:
      return applyContainerEdit(pod, edit);
  }
}

/** Leaves an equal existing value untouched so its bytes survive. */
function setSpecField(pod: JsonValue, edit: Edit): bool {
  const node = edit.node;
  if (node === null) return false;
  const spec = ensureObjectMember(pod, "spec");
  if (spec === null) return false;
  const existing = spec.get(edit.field);
  const same = edit.same;
  if (existing !== null && same !== null && same(existing, node)) return true;
  return spec.set(edit.field, node);
}

function applyPodListEdit(pod: JsonValue, edit: Edit): bool {
  const spec = ensureObjectMember(pod, "spec");
  if (spec === null) return false;
  if (edit.kind == EditKind.MergePullSecrets) return mergePullSecrets(spec, edit.tokens);
  const node = edit.node;
  if (node === null) return false;
  if (edit.kind == EditKind.AppendToPodList) return appendToList(spec, edit.field, node);
  return appendIfAbsentByName(spec, edit.field, node);
}

function applyContainerEdit(pod: JsonValue, edit: Edit): bool {
  const container = containerForEdit(pod, edit.container);
  if (container === null) return false;
  switch (edit.kind) {
    case EditKind.AppendArgs: {
      const args = ensureArrayMember(container, "args");
      return args !== null && appendTokensToArray(args, edit.tokens);
    }
    case EditKind.ApplyArg: {
      const args = ensureArrayMember(container, "args");
      // applyEdits checked that the args are strings
      return args !== null && applyArgToArray(args, edit.name, edit.value, true);
    }
    case EditKind.ApplyBareFlag: {
      const args = ensureArrayMember(container, "args");
      return args !== null && applyBareFlagToArray(args, edit.name, true);
    }
    case EditKind.EnvSetIfAbsent:
      return setEnvIfAbsent(container, edit.name, edit.value);
    case EditKind.EnvUpsert:
      return upsertEnv(container, edit.name, edit.value);
    case EditKind.EnvPrependPath:
      return prependPathEnv(container, edit.name, edit.value);
    case EditKind.AppendToContainerList:
    case EditKind.AppendToContainerListIfAbsent: {
      const node = edit.node;
      if (node === null) return false;
      if (edit.kind == EditKind.AppendToContainerList) return appendToList(container, edit.field, node);
      return appendIfAbsentByName(container, edit.field, node);
    }
    default:
      return false;
  }
}

/** checkEdit for the kinds applyBasicEdits takes (the same checks and details). */
function checkBasicEdit(pod: JsonValue, edit: Edit): string {
  if (!pod.isObject()) return "object is not a JSON object";
  switch (edit.kind) {
    case EditKind.SetAnnotation:
    case EditKind.RemoveAnnotation:
      return checkAnnotationsWritable(pod);
    case EditKind.AppendToPodList:
      return checkPodListEdit(pod, edit);
    case EditKind.AppendArgs:
    case EditKind.AppendToContainerList: {
      const specDetail = checkSpec(pod);
      if (specDetail.length > 0) return specDetail;
      const container = containerForEdit(pod, edit.container);
      if (container === null) return containerPath(edit.container) + " does not exist or is not an object";
      if (edit.kind == EditKind.AppendArgs) return checkListField(container, "args", edit.container);
      if (!nodeFitsList(edit))
        return "edit item for " + containerPath(edit.container) + "." + edit.field + " has no string name";
      return checkListField(container, edit.field, edit.container);
    }
    default:
      return "unknown edit";
  }
}

/** applyEdit for the kinds applyBasicEdits takes. */
function applyBasicEdit(pod: JsonValue, edit: Edit): bool {
  switch (edit.kind) {
    case EditKind.SetAnnotation:
      return setAnnotation(pod, edit.name, edit.value);
    case EditKind.RemoveAnnotation:
      removeAnnotation(pod, edit.name, edit.dropEmpty);
      return true;
    case EditKind.AppendToPodList: {
      const spec = ensureObjectMember(pod, "spec");
      const node = edit.node;
      return spec !== null && node !== null && appendToList(spec, edit.field, node);
    }
    case EditKind.AppendArgs:
    case EditKind.AppendToContainerList: {
      const container = containerForEdit(pod, edit.container);
      if (container === null) return false;
      if (edit.kind == EditKind.AppendArgs) {
        const args = ensureArrayMember(container, "args");
        return args !== null && appendTokensToArray(args, edit.tokens);
      }
      const node = edit.node;
      return node !== null && appendToList(container, edit.field, node);
    }
    default:
      return false;
  }
}
