// validate_settings of cachebackend-validator (docs/policies/cacheengine-validator.md#settings): the
// policy has no settings, so every key is a problem; the SDK builds the answer.
import { validateSettingsWith } from "../../../assembly/kubewarden/index";
import { noSettingsProblems } from "../../../assembly/keys/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateSettingsWith(payload, noSettingsProblems);
}
