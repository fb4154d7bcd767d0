// validate_settings of cacheblend-injector: the shared LMCache-operator injector settings
// (docs/policies/cacheblend-injector.md#settings) in their CacheBlend flavor (`<name>` or
// `<namespace>/<name>` keys, payloadImage required, cudagraph allowed); the SDK builds the answer.
import { JsonValue } from "../../../assembly/json/index";
import { validateSettingsWith } from "../../../assembly/kubewarden/index";
import { InjectorFlavor, validateInjectorSettings } from "../../../assembly/lmcache/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateSettingsWith(payload, settingsProblems);
}

export function settingsProblems(settings: JsonValue): string[] {
  return validateInjectorSettings(settings, InjectorFlavor.CacheBlend);
}
