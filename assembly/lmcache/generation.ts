// Which LMCache operator an engine belongs to (docs/policies/lmcache-injector.md#which-lmcache-operator):
// today's CRDs default `hostIPC` and `gpuVendor`, so an engine that carries any of the current-only
// fields (non-null) is current; any other engine is legacy and is wired as the first operator did.
// Read from an engine CR's `spec` or from an inline engine entry: the field names are the same.
import { JsonValue } from "../json/index";
import { currentEngineFields, GPU_VENDOR_AMD } from "../keys/index";

/** An optional boolean member: absent, null or another JSON type reads as "unset". */
export enum Tristate {
  Unset = 0,
  False = 1,
  True = 2,
}

function tristate(node: JsonValue, key: string): Tristate {
  if (node.memberIsBool(key, true)) return Tristate.True;
  if (node.memberIsBool(key, false)) return Tristate.False;
  return Tristate.Unset;
}

/** The generation-telling fields of one engine; none of them makes an engine malformed. */
export class EngineGeneration {
  current: bool = false;
  hostIPC: Tristate = Tristate.Unset;
  isolatedIPC: Tristate = Tristate.Unset;
  /** `gpuVendor` is exactly the string `amd` */
  amd: bool = false;
}

/** The fields of `spec` (an engine CR's spec or an inline engine); a non-object reads as legacy. */
export function readEngineGeneration(spec: JsonValue | null): EngineGeneration {
  const out = new EngineGeneration();
  if (spec === null || !spec.isObject()) return out;
  const fields = currentEngineFields();
  for (let i = 0; i < fields.length; i++) if (spec.getPresent(fields[i]) !== null) out.current = true;
  out.hostIPC = tristate(spec, "hostIPC");
  out.isolatedIPC = tristate(spec, "isolatedIPC");
  out.amd = spec.stringEquals("gpuVendor", GPU_VENDOR_AMD);
  return out;
}
