// validate_settings of lmcache-injector: the shared LMCache-operator injector settings
// (docs/policies/lmcache-injector.md#settings) in their LMCache flavor (plain engine names,
// payloadImage optional, no cudagraph); the SDK builds the answer.
import { JsonValue } from "../../../assembly/json/index";
import { validateSettingsWith } from "../../../assembly/kubewarden/index";
import { InjectorFlavor, validateInjectorSettings } from "../../../assembly/lmcache/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateSettingsWith(payload, settingsProblems);
}

export function settingsProblems(settings: JsonValue): string[] {
  return validateInjectorSettings(settings, InjectorFlavor.LMCache);
}
