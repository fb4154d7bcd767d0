// Writes what the steps decided into the request's object (docs/policies/cachebackend-defaulter.md#steps).
// A new member goes at the end of its object (one present as JSON null is replaced where it
// stands); every other byte of the object stays as the request held it (the lossless DOM).
import { JsonKind, JsonValue } from "../../../assembly/json/index";
import { goLowerAsciiUtf8 } from "../../../assembly/validate/index";
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

/** any text passes: `memberRawTest` then only says whether the member has escapes */
function anyText(_data: usize, _s: i32, _e: i32): bool {
  return true;
}

/** The engine of step 3 (`engineOf`): a runtime without escapes is lowered on its bytes (a long one
 *  is never decoded into a string and encoded again), any other through the runtime ID's text. */
function engineValue(spec: JsonValue, v: BackendView): JsonValue {
  if (v.hasRuntime && spec.memberRawTest("runtime", anyText) == 1) {
    const raw = spec.memberRawText("runtime");
    if (raw !== null) {
      // a JSON string literal without backslashes lowered is one again
      const lowered = JsonValue.parse(goLowerAsciiUtf8(raw));
      if (lowered !== null) return lowered;
    }
  }
  return JsonValue.str(engineOf(v));
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
  if (d.engine) integration.set("engine", engineValue(spec, v));
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
