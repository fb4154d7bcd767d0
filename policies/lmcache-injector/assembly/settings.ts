// validate_settings for lmcache-injector: the shared LMCache-operator injector settings (§3) in
// their LMCache flavor (plain engine names, payloadImage optional, no cudagraph).
import { InjectorFlavor, validateInjectorSettingsPayload } from "../../../assembly/lmcache/index";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateInjectorSettingsPayload(payload, InjectorFlavor.LMCache);
}
