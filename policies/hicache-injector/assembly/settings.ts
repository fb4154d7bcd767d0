// validate_settings of hicache-injector (docs/policies/hicache-injector.md#settings): `lookup` and
// inline `backends`, each inline backend held to the same boundary checks as a looked-up one, so
// settings that validate are settings the policy can wire. The SDK builds the answer.
import { JsonValue } from "../../../assembly/json/index";
import { validateSettingsWith } from "../../../assembly/kubewarden/index";
import { CACHEBACKEND_SPEC_FIELDS, TYPE_SGLANG_HICACHE, UNKNOWN_FIELD_DETAIL } from "../../../assembly/keys/index";
import { i32ToDecimal } from "../../../assembly/util/decimal";
import { isListedWord } from "../../../assembly/util/text";
import { envVarNameErrors, isDns1123Subdomain, shortenRendered } from "../../../assembly/validate/index";
import { backendProblem, readHiCacheBackend } from "./backend";

export function validateSettings(payload: Uint8Array): Uint8Array {
  return validateSettingsWith(payload, settingsProblems);
}

// @ts-ignore: decorator
@lazy
export const LOOKUP_NEVER_INJECTS =
  "lookup: lookups are disabled and settings.backends is absent, so the policy can never inject";

export function settingsProblems(settings: JsonValue): string[] {
  const problems = new Array<string>(0);
  if (!settings.isObject()) {
    problems.push("settings must be an object");
    return problems;
  }
  for (let i = 0; i < settings.size(); i++) {
    const key = settings.keyAt(i);
    if (key != "lookup" && key != "backends") problems.push(shortenRendered(key) + ": " + UNKNOWN_FIELD_DETAIL);
  }
  const lookup = settings.getPresent("lookup");
  if (lookup !== null && !lookup.isBool()) problems.push("lookup: must be a boolean");
  const backends = settings.getPresent("backends");
  if (backends !== null) {
    if (!backends.isArray()) problems.push("backends: must be a list");
    else {
      const names = new Array<string>(0);
      for (let i = 0; i < backends.size(); i++) backendProblems(backends.at(i), i, names, problems);
    }
  } else if (settings.memberIsBool("lookup", false)) {
    problems.push(LOOKUP_NEVER_INJECTS);
  }
  return problems;
}

function backendProblems(item: JsonValue | null, i: i32, names: string[], problems: string[]): void {
  const at = "backends[" + i32ToDecimal(i) + "]";
  if (item === null || !item.isObject()) {
    problems.push(at + ": must be an object");
    return;
  }
  for (let k = 0; k < item.size(); k++) {
    const key = item.keyAt(k);
    if (key != "metadata" && key != "spec")
      problems.push(at + "." + shortenRendered(key) + ": " + UNKNOWN_FIELD_DETAIL);
  }
  // metadata
  const metadata = item.getPresent("metadata");
  const nameProblem = at + ".metadata.name: must be a valid CacheBackend name (DNS-1123 subdomain)";
  if (metadata === null || !metadata.isObject()) problems.push(nameProblem);
  else {
    const name = metadata.stringOrNull("name");
    if (name === null || !isDns1123Subdomain(name)) problems.push(nameProblem);
    else if (names.indexOf(name) >= 0) problems.push(at + '.metadata.name: duplicate name "' + name + '"');
    else names.push(name);
    for (let k = 0; k < metadata.size(); k++) {
      const key = metadata.keyAt(k);
      if (key != "name" && key != "uid")
        problems.push(at + ".metadata." + shortenRendered(key) + ": " + UNKNOWN_FIELD_DETAIL);
    }
    const uid = metadata.getPresent("uid");
    if (uid !== null && !uid.isDecodableString()) problems.push(at + ".metadata.uid: must be a string");
  }
  // spec
  const spec = item.getPresent("spec");
  if (spec === null) {
    problems.push(at + ".spec: required");
    return;
  }
  if (!spec.isObject()) {
    problems.push(at + ".spec: must be an object");
    return;
  }
  let unknown = false;
  for (let k = 0; k < spec.size(); k++) {
    const key = spec.keyAt(k);
    if (!isListedWord(CACHEBACKEND_SPEC_FIELDS, key)) {
      problems.push(at + ".spec." + shortenRendered(key) + ": " + UNKNOWN_FIELD_DETAIL);
      unknown = true;
    }
  }
  if (!spec.stringEquals("type", TYPE_SGLANG_HICACHE)) {
    problems.push(at + ".spec.type: only SGLangHiCache backends can be defined inline");
    return;
  }
  const envBefore = problems.length;
  envShapeProblems(spec, at, problems);
  if (unknown || problems.length > envBefore) return;
  const problem = backendProblem(readHiCacheBackend(spec));
  if (problem.length > 0) problems.push(at + ".spec: " + problem);
}

/** engineOverrides.env entry shapes (the CacheBackend rule for env overrides). */
function envShapeProblems(spec: JsonValue, at: string, problems: string[]): void {
  const integration = spec.getPresent("integration");
  if (integration === null || !integration.isObject()) return;
  const overrides = integration.getPresent("engineOverrides");
  if (overrides === null || !overrides.isObject()) return;
  const env = overrides.getPresent("env");
  if (env === null || !env.isArray()) return;
  for (let j = 0; j < env.size(); j++) {
    const path = at + ".spec.integration.engineOverrides.env[" + i32ToDecimal(j) + "]";
    const entry = env.at(j);
    if (entry === null || !entry.isObject()) {
      problems.push(path + ": must be an object");
      continue;
    }
    const name = entry.stringOrNull("name");
    if (name === null || name.length == 0) problems.push(path + ": engineOverrides env entries must declare a Name");
    else {
      const errs = envVarNameErrors(name);
      for (let e = 0; e < errs.length; e++) problems.push(path + ": invalid env var name: " + errs[e]);
    }
    const value = entry.stringOrNull("value");
    const valueFrom = entry.getPresent("valueFrom");
    if (value !== null && value.length > 0 && valueFrom !== null)
      problems.push(
        path +
          ": env entry may set value OR valueFrom, not both — engine pods carrying this entry would fail Kubernetes Pod validation",
      );
    if (valueFrom !== null) {
      const sources = ["fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"];
      let n = 0;
      if (valueFrom.isObject())
        for (let s = 0; s < sources.length; s++) if (valueFrom.getPresent(sources[s]) !== null) n++;
      if (n == 0)
        problems.push(
          path +
            ": valueFrom must select exactly one source (e.g. fieldRef, resourceFieldRef, configMapKeyRef, or secretKeyRef)",
        );
      else if (n > 1) problems.push(path + ": valueFrom must select exactly one source — multiple set");
    }
  }
}
