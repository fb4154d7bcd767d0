// `validate_settings` as the Kubewarden SDKs shape it (docs/wasm-contract.md#validate_settings):
// the policy supplies a function that lists the problems of its settings, and the SDK parses the
// payload and builds the answer, so every policy words an unreadable payload the same way.
import { JsonValue, parseJson } from "../json/index";
import { joinBounded } from "../validate/shorten";
import { settingsInvalid, settingsValid } from "./response";

/** What a policy's settings check returns for the settings (never null): every problem, in a
 *  stable order; empty when the settings are valid. */
export type SettingsProblems = (settings: JsonValue) => string[];

// @ts-ignore: decorator
@lazy
export const SETTINGS_NOT_JSON = "settings are not valid JSON: ";

/** The whole `validate_settings` operation: a payload that is not JSON is invalid with
 *  `settings are not valid JSON: <parser error>`; `null` (no settings) is valid; otherwise
 *  `{"valid":true}` when `listProblems` finds nothing, else `{"valid":false,"message":"<p1>; <p2>; …"}`
 *  (at most 100 problems and 60 KiB, then `and N more`: docs/decisions.md#shared-assemblyscript-library). */
export function validateSettingsWith(payload: Uint8Array, listProblems: SettingsProblems): Uint8Array {
  const parsed = parseJson(payload);
  const settings = parsed.value;
  if (settings === null) return settingsInvalid(SETTINGS_NOT_JSON + parsed.error);
  if (settings.isNull()) return settingsValid();
  const problems = listProblems(settings);
  if (problems.length == 0) return settingsValid();
  return settingsInvalid(joinBounded(problems, "; "));
}
