// An engine's `spec.injection` (docs/policies/lmcache-injector.md#the-engines-specinjection) as one
// typed struct, read either from an engine CR (LMCacheEngine / CacheBlendEngine) or from an inline
// `settings.engines[<key>].injection`. Both sources go through the same reader, so the planners
// never see where an engine came from.
import { i32ToDecimal } from "../util/decimal";
import { JsonKind, JsonValue } from "../json/index";
import { failure, Result, success } from "../util/result";
import { EngineGeneration, readEngineGeneration } from "./generation";

/** `injection.payloadImage` (ImageSpec). Absent or null strings read as "". */
export class PayloadImage {
  repository: string = "";
  tag: string = "";
  pullPolicy: string = "";
}

/** `spec.injection` with the read-time defaults: absent fields are empty. */
export class EngineInjection {
  /** null when `payloadImage` is absent or null */
  payloadImage: PayloadImage | null = null;
  /** names as given (no trimming, no validation; an entry without a name reads as "", as Go decodes it) */
  imagePullSecrets: string[] = [];
  /** true when `targetContainer` is set (even to ""), so target resolution can tell "set but blank" from "absent" */
  hasTargetContainer: bool = false;
  targetContainer: string = "";
  /** CacheBlend only; "" when absent or not a string (treated as absent → eager) */
  cudagraph: string = "";
  /** not part of `spec.injection`: the engine's generation fields, read next to it */
  generation: EngineGeneration = new EngineGeneration();
}

/** The outcome of reading an injection object: `error` names the first wrongly typed field
 *  (`<path> has the wrong JSON type`). */
export type InjectionRead = Result<EngineInjection>;

/** Why an injection object could not be read (a wrong JSON type at `<path>.<field>`). Composed
 *  from the field names the reader needs anyway, so every error costs no extra static string. */
// @ts-ignore: decorator
@lazy
export const WRONG_TYPE = " has the wrong JSON type";

/** the detail of an engine whose `spec.pd.nixlSideChannelPort` is not a whole number in [1024, 65535] */
// @ts-ignore: decorator
@lazy
const PD_PORT_INVALID = "spec.pd.nixlSideChannelPort is not a whole number in [1024, 65535]";

function failed(at: string): InjectionRead {
  return failure<EngineInjection>(new EngineInjection(), at + WRONG_TYPE);
}

/** `<path>.imagePullSecrets[<i>]`, for a failure's detail only */
function secretItemPath(path: string, i: i32): string {
  return field(path, "imagePullSecrets") + "[" + i32ToDecimal(i) + "]";
}

function field(path: string, name: string): string {
  return path + "." + name;
}

/** An optional string member: "" when absent/null; null when it has another kind. */
function optionalString(parent: JsonValue, key: string): string | null {
  // readString(key): Ok → the value, Absent/Null → "", Invalid → null; without its node and Read
  const s = parent.stringOrNull(key);
  if (s !== null) return s;
  const kind = parent.memberKind(key);
  if (kind < 0 || kind == JsonKind.Null) return "";
  return null;
}

/**
 * Reads an injection object found at `path` (for messages, e.g. `spec.injection`). Absent or null →
 * an empty injection. Wrong JSON types give an error; the caller decides what that means (a
 * malformed engine CR is a failed lookup).
 */
export function readEngineInjection(node: JsonValue | null, path: string): InjectionRead {
  const out = new EngineInjection();
  if (node === null || node.isNull()) return success<EngineInjection>(out);
  if (!node.isObject()) return failed(path);

  const image = node.getPresent("payloadImage");
  if (image !== null) {
    if (!image.isObject()) return failed(field(path, "payloadImage"));
    const p = new PayloadImage();
    const repository = optionalString(image, "repository");
    if (repository === null) return failed(field(field(path, "payloadImage"), "repository"));
    p.repository = repository;
    const tag = optionalString(image, "tag");
    if (tag === null) return failed(field(field(path, "payloadImage"), "tag"));
    p.tag = tag;
    const pullPolicy = optionalString(image, "pullPolicy");
    if (pullPolicy === null) return failed(field(field(path, "payloadImage"), "pullPolicy"));
    p.pullPolicy = pullPolicy;
    out.payloadImage = p;
  }

  const secrets = node.getPresent("imagePullSecrets");
  if (secrets !== null) {
    if (!secrets.isArray()) return failed(field(path, "imagePullSecrets"));
    const n = secrets.size();
    for (let i = 0; i < n; i++) {
      const item = secrets.at(i);
      if (item === null || !item.isObject()) return failed(secretItemPath(path, i));
      const name = optionalString(item, "name");
      if (name === null) return failed(field(secretItemPath(path, i), "name"));
      out.imagePullSecrets.push(name);
    }
  }

  const targetKind = node.memberKind("targetContainer");
  if (targetKind >= 0 && targetKind != JsonKind.Null) {
    const t = node.stringOrNull("targetContainer");
    if (t === null) return failed(field(path, "targetContainer"));
    out.hasTargetContainer = true;
    out.targetContainer = t;
  }

  const cudagraph = node.stringOrNull("cudagraph");
  if (cudagraph !== null) out.cudagraph = cudagraph;
  return success<EngineInjection>(out);
}

/** `spec.injection` of an engine CR; `spec` absent or null → an empty injection. */
export function readEngineCrInjection(engine: JsonValue): InjectionRead {
  if (!engine.isObject()) return failed("engine");
  const spec = engine.getPresent("spec");
  if (spec === null) return success<EngineInjection>(new EngineInjection());
  if (!spec.isObject()) return failed("spec");
  const read = readEngineInjection(spec.get("injection"), "spec.injection");
  const generation = readEngineGeneration(spec);
  if (generation.pdMalformed)
    return generation.pdPortInvalid
      ? failure<EngineInjection>(new EngineInjection(), PD_PORT_INVALID)
      : failed("spec.pd");
  read.value.generation = generation;
  return read;
}
