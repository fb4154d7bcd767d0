// validate_settings of cachebackend-validator (docs/policies/cacheengine-validator.md#settings): the
// policy has no settings, so every key is a problem; the SDK builds the answer.
import { JsonValue } from "../../../assembly/json/index";
import { validateSettingsWith } from "../../../assembly/kubewarden/index";
import { shortenRendered } from "../../../assembly/validate/index";
import { UNKNOWN_FIELD_DETAIL } from "../../../assembly/keys/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateSettingsWith(payload, settingsProblems);
}

/** `<key>: unknown field` for every distinct key (a key is shortened past 1 KiB). */
export function settingsProblems(settings: JsonValue): string[] {
  const problems = new Array<string>();
  if (!settings.isObject()) {
    problems.push("settings must be an object");
    return problems;
  }
  const seen = new Set<string>();
  const n = settings.size();
  for (let i = 0; i < n; i++) {
    const key = settings.keyAt(i);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(shortenRendered(key) + ": " + UNKNOWN_FIELD_DETAIL);
  }
  return problems;
}
