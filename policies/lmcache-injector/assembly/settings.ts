// validate_settings for lmcache-injector: the shared LMCache-operator injector settings
// (docs/policies/lmcache-injector.md#settings) in their LMCache flavor (plain engine names,
// payloadImage optional, no cudagraph).
import { InjectorFlavor, validateInjectorSettingsPayload } from "../../../assembly/lmcache/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateInjectorSettingsPayload(payload, InjectorFlavor.LMCache);
}
