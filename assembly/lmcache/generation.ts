// Which LMCache operator an engine belongs to (docs/policies/lmcache-injector.md#which-lmcache-operator):
// today's CRDs default `hostIPC`, so an engine that carries any of the current-only fields (non-null)
// is current; any other engine is legacy and is wired as the first operator did. `gpuVendor` tells
// nothing: the first operator's CRDs default it as well.
// Read from an engine CR's `spec` or from an inline engine entry: the field names are the same.
import { JsonValue } from "../json/index";
import { currentEngineFields, GPU_VENDOR_AMD, NIXL_DEFAULT_PORT, PORT_MAX, UNPRIVILEGED_PORT_MIN } from "../keys/index";

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
  /** `pd` is an object (PD roles apply) */
  hasPd: bool = false;
  /** `pd` present but not an object, or its port not an integer in [1024, 65535] */
  pdMalformed: bool = false;
  /** of a malformed `pd`: its port is the problem (the message names that field, not `pd`'s type) */
  pdPortInvalid: bool = false;
  /** `pd.nixlSideChannelPort` as decimal text (default 5558) */
  nixlPort: string = "";
}

/** The decimal text of an integral number (`5600.0` too) in [1024, 65535], read from its JSON
 *  text (no float parsing); "" otherwise. */
export function nixlPortText(v: JsonValue): string {
  if (!v.isNumber()) return "";
  const text = v.numberText();
  let end = text.indexOf(".");
  if (end < 0) end = text.length;
  for (let i = end + 1; i < text.length; i++) if (text.charCodeAt(i) != 0x30) return "";
  if (end == 0 || end > 5) return "";
  let n: i32 = 0;
  for (let i = 0; i < end; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return "";
    n = n * 10 + d;
  }
  if (n < <i32>UNPRIVILEGED_PORT_MIN || n > <i32>PORT_MAX) return "";
  return text.substring(0, end);
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
  const pd = spec.getPresent("pd");
  if (pd !== null) {
    if (!pd.isObject()) {
      out.pdMalformed = true;
      return out;
    }
    const port = pd.getPresent("nixlSideChannelPort");
    out.nixlPort = port === null ? NIXL_DEFAULT_PORT : nixlPortText(port);
    out.pdMalformed = out.nixlPort.length == 0;
    out.pdPortInvalid = out.pdMalformed;
    out.hasPd = !out.pdMalformed;
  }
  return out;
}
