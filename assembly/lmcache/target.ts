// Target-container resolution shared by both LMCache-operator injectors
// (docs/policies/lmcache-injector.md#target-container): the container annotation, else the engine's
// `injection.targetContainer`, else the first container. Only `spec.containers` is searched.
import { JsonKind, JsonValue } from "../json/index";
import { containerPath, readContainers } from "../k8s/containers";
import { trimGoSpace } from "../validate/chars";
import { DETAIL_POD_HAS_NO_CONTAINERS, detailNoContainerNamed } from "../keys/index";
import { EngineInjection } from "./injection";

export enum TargetOutcome {
  Found = 0,
  /** → skip `target-container-not-found` with `detail` */
  NotFound = 1,
  /** a field read on the way has the wrong JSON type → skip `invalid-request` with `detail` */
  Malformed = 2,
}

export class TargetContainer {
  constructor(
    public outcome: TargetOutcome,
    public index: i32,
    public name: string,
    public detail: string,
  ) {}
  get found(): bool {
    return this.outcome == TargetOutcome.Found;
  }
}

function malformed(detail: string): TargetContainer {
  return new TargetContainer(TargetOutcome.Malformed, -1, "", detail);
}

/**
 * The table in the doc above. `annotationValue` is the raw container annotation ("" when absent);
 * it is trimmed here and, when non-empty, wins over the engine default even if it names no
 * container.
 */
export function resolveTargetContainer(
  pod: JsonValue,
  annotationValue: string,
  injection: EngineInjection,
): TargetContainer {
  const containers = readContainers(pod);
  if (!containers.ok) return malformed(containers.error);
  const list = containers.list;
  if (list === null || list.size() == 0)
    return new TargetContainer(TargetOutcome.NotFound, -1, "", DETAIL_POD_HAS_NO_CONTAINERS);

  let wanted = trimGoSpace(annotationValue);
  if (wanted.length == 0 && injection.hasTargetContainer) wanted = trimGoSpace(injection.targetContainer);

  if (wanted.length == 0) return containerAtIndex(list, 0);
  // two walks over the records, compared on the raw bytes (no node or decoded name per container):
  // the first container named so, and the first that is not an object with a string name; the
  // earlier of the two decides, as one pass in order would
  const found = list.indexOfItemWithString("name", wanted);
  const bad = list.indexOfItemWithoutStringMember("name");
  if (bad >= 0 && (found < 0 || bad < found)) {
    if (list.itemKind(bad) != <i32>JsonKind.Object) return malformed(containerPath(bad) + " is not an object");
    return malformed(containerPath(bad) + ".name is not a string");
  }
  if (found >= 0) return new TargetContainer(TargetOutcome.Found, found, wanted, "");
  return new TargetContainer(TargetOutcome.NotFound, -1, "", detailNoContainerNamed(wanted));
}

function containerAtIndex(list: JsonValue, index: i32): TargetContainer {
  const item = list.at(index);
  if (item === null || !item.isObject()) return malformed(containerPath(index) + " is not an object");
  const name = item.stringOrNull("name");
  if (name === null) return malformed(containerPath(index) + ".name is not a string");
  return new TargetContainer(TargetOutcome.Found, index, name, "");
}
