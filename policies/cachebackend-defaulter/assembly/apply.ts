// Writes what the steps decided into the request's object (docs/policies/cachebackend-defaulter.md#steps).
// A new member goes at the end of its object (one present as JSON null is replaced where it
// stands); every other byte of the object stays as the request held it (the lossless DOM).
import { JsonKind, JsonValue } from "../../../assembly/json/index";
import { BackendView } from "./backend";
import { Defaults, engineOf, Timeout } from "./steps";

/** The legacy resources of step 1, written as this text. */
// @ts-ignore: decorator
@lazy
const LEGACY_RESOURCES = '{"requests":{"memory":"4Gi"},"limits":{"memory":"8Gi"}}';
/** Five minutes as Go prints a `time.Duration`, how upstream stores its default. */
// @ts-ignore: decorator
@lazy
export const DEFAULT_FIRST_EVENT_TIMEOUT = "5m0s";

/** Member `key` of `parent`, written as `{}` first when `create` (the step decided it is absent). */
function member(parent: JsonValue, key: string, create: bool): JsonValue | null {
  if (create) parent.set(key, JsonValue.object());
  return parent.getPresent(key);
}

/** Applies `d` to `object` (a JSON object whose members have the types the steps read, as read
 *  into `v`). */
export function applyDefaults(object: JsonValue, v: BackendView, d: Defaults): void {
  const spec = member(object, "spec", d.spec);
  if (spec === null) return;
  if (d.resources) {
    spec.set("resources", JsonValue.unread(JsonKind.Object, Uint8Array.wrap(String.UTF8.encode(LEGACY_RESOURCES))));
  }
  const integration = member(spec, "integration", d.integration);
  if (integration === null) return;
  if (d.engine) integration.set("engine", JsonValue.str(engineOf(v)));
  if (d.timeout == Timeout.IntegrationDefault) {
    integration.set("firstEventTimeout", JsonValue.str(DEFAULT_FIRST_EVENT_TIMEOUT));
  } else if (d.timeout != Timeout.None) {
    // canonical: observation (written as {} when absent) gets the timeout
    const observation = member(spec, "observation", d.observation);
    if (observation === null) return;
    // the integration's timeout is copied with its bytes (D3: as written, escapes and all)
    const copied = d.timeout == Timeout.ObservationCopy ? integration.getPresent("firstEventTimeout") : null;
    observation.set("firstEventTimeout", copied !== null ? copied : JsonValue.str(DEFAULT_FIRST_EVENT_TIMEOUT));
  }
  if (d.minReplicas >= 1) {
    const autoscaling = spec.getPresent("autoscaling");
    if (autoscaling !== null) autoscaling.set("minReplicas", JsonValue.int(d.minReplicas));
  }
}
