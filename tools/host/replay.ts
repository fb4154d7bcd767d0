// kwctl replay sessions (docs/wasm-contract.md#replay-sessions): a YAML list of exchanges whose
// `request` is itself a YAML string holding serde_yaml's externally tagged enum
// (`!KubernetesGetResource` + fields). Replay is strict: every call consumes the next exchange,
// and the live request must equal the recorded one (absent `Option` keys read as null) or the call
// fails. Leftover exchanges only warn, like kwctl.
import * as yaml from "js-yaml";
import { CALLBACK_FAILURE, rustDebugString } from "./rust";
import { compareKeys } from "./serde";
import { readInput } from "./documents";

/** Fields of each request variant, in serde order; every one is read with `null` as the default. */
export const REQUEST_VARIANTS: Record<string, string[]> = {
  KubernetesGetResource: ["api_version", "kind", "name", "namespace", "disable_cache", "field_masks"],
  KubernetesListResourceNamespace: [
    "api_version",
    "kind",
    "namespace",
    "label_selector",
    "field_selector",
    "field_masks",
  ],
  KubernetesListResourceAll: ["api_version", "kind", "label_selector", "field_selector", "field_masks"],
  KubernetesCanI: ["request", "disable_cache"],
};

/** A callback request as kwctl records it: the enum variant and its fields (absent → null). */
export interface CallbackRequest {
  variant: string;
  fields: Record<string, unknown>;
}

export type ReplayResponse = { type: "Success"; payload: string } | { type: "Error"; message: string };

export interface ReplayExchange {
  request: CallbackRequest;
  response: ReplayResponse;
}

class Tagged {
  constructor(
    readonly variant: string,
    readonly fields: Record<string, unknown>,
  ) {}
}

function variantTag(variant: string) {
  return yaml.defineMappingTag<Record<string, unknown>, Tagged>(`!${variant}`, {
    create: () => ({}),
    addPair: (carrier, key, value) => {
      carrier[String(key)] = value;
      return "";
    },
    has: (carrier, key) => Object.prototype.hasOwnProperty.call(carrier, String(key)),
    keys: (result) => Object.keys(result.fields),
    get: (result, key) => result.fields[String(key)],
    finalize: (carrier) => new Tagged(variant, carrier),
    identify: () => false,
  });
}

const REQUEST_SCHEMA = yaml.CORE_SCHEMA.withTags(Object.keys(REQUEST_VARIANTS).map(variantTag));

/** Fills every field of the variant (absent → null) and drops unknown keys, as serde reads them. */
export function normalizeRequest(variant: string, fields: Record<string, unknown>): CallbackRequest {
  const names = REQUEST_VARIANTS[variant];
  if (!names) throw new Error(`unknown callback request variant ${variant}`);
  const out: Record<string, unknown> = {};
  for (const name of names) {
    let value = fields[name] ?? null;
    if (name === "field_masks" && Array.isArray(value)) value = [...value].map(String).sort(compareKeys); // a BTreeSet
    out[name] = value;
  }
  return { variant, fields: out };
}

/** Parses one recorded `request:` string (`!Variant` + YAML mapping). */
export function parseRecordedRequest(text: string): CallbackRequest {
  const doc = yaml.load(text, { schema: REQUEST_SCHEMA });
  if (!(doc instanceof Tagged))
    throw new Error("request is not a tagged callback request (expected e.g. `!KubernetesGetResource`)");
  return normalizeRequest(doc.variant, doc.fields);
}

function parseResponse(raw: unknown): ReplayResponse {
  const r = raw as Record<string, unknown> | null;
  if (r?.type === "Success" && typeof r.payload === "string") return { type: "Success", payload: r.payload };
  if (r?.type === "Error" && typeof r.message === "string") return { type: "Error", message: r.message };
  throw new Error("response must be `{type: Success, payload: <string>}` or `{type: Error, message: <string>}`");
}

/** Parses a whole session file's text; every problem names the exchange. */
export function parseReplaySession(text: string, source = "<session>"): ReplayExchange[] {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (e) {
    throw new Error(`${source}: invalid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  // js-yaml reads an empty document as null (and throws on an empty text): no exchanges
  if (doc === null) return [];
  if (!Array.isArray(doc)) throw new Error(`${source}: a replay session must be a YAML list of exchanges`);
  return doc.map((entry, i) => {
    try {
      const e = entry as Record<string, unknown>;
      if (e?.type !== "Exchange") throw new Error("type must be Exchange");
      if (typeof e.request !== "string") throw new Error("request must be a YAML string");
      return { request: parseRecordedRequest(e.request), response: parseResponse(e.response) };
    } catch (err) {
      throw new Error(`${source}: exchange ${i + 1}: ${(err as Error).message.split("\n")[0]}`);
    }
  });
}

export function loadReplaySession(file: string): ReplayExchange[] {
  return parseReplaySession(readInput(file, "replay session"), file);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** `{:?}` of a recorded field value: Option<String>, bool, BTreeSet<String>; anything else as compact JSON. */
function rustDebugValue(name: string, v: unknown, optional: boolean): string {
  // normalizeRequest gives every field a value or null; a bool prints as its JSON text
  if (v === null) return "None";
  let text: string;
  if (typeof v === "string") text = rustDebugString(v);
  else if (name === "field_masks" && Array.isArray(v))
    text = `{${v.map((m) => rustDebugString(String(m))).join(", ")}}`;
  else text = JSON.stringify(v);
  return optional ? `Some(${text})` : text;
}

// fields that are `Option<…>` in policy-evaluator's CallbackRequestType
const OPTIONAL_FIELDS = new Set(["namespace", "label_selector", "field_selector", "field_masks"]);

/**
 * A callback request as kwctl's replay error prints it: Rust's derived `Debug` of the enum variant
 * (`KubernetesGetResource { api_version: "v1", …, namespace: Some("ns"), disable_cache: false,
 * field_masks: None }`). The `can_i` review is printed as compact JSON, an approximation.
 */
export function describeRequest(r: CallbackRequest): string {
  const fields = REQUEST_VARIANTS[r.variant].map(
    (name) => `${name}: ${rustDebugValue(name, r.fields[name], OPTIONAL_FIELDS.has(name))}`,
  );
  return `${r.variant} { ${fields.join(", ")} }`;
}

/** kwctl's texts (docs/decisions.md, "Replay"); the host adds `Callback evaluation failure: ` to each. */
export const REPLAY_EXHAUSTED_TEXT = "the list of recorded responses is empty";
export function replayMismatchText(expected: CallbackRequest, live: CallbackRequest): string {
  return `Replay error: unexpected request. Was expecting ${describeRequest(expected)}, got ${describeRequest(live)} instead`;
}

/** Consumes a session in order, as kwctl does: every call takes the next exchange, matching or not. */
export class ReplayCursor {
  private next = 0;
  constructor(private readonly exchanges: readonly ReplayExchange[]) {}

  /** The recorded answer for `live`, or the error text the guest receives. */
  answer(live: CallbackRequest): { ok: true; response: Buffer } | { ok: false; error: string } {
    const recorded = this.exchanges[this.next];
    if (!recorded) return { ok: false, error: CALLBACK_FAILURE + REPLAY_EXHAUSTED_TEXT };
    this.next++; // a mismatched exchange is consumed too
    if (recorded.request.variant !== live.variant || !deepEqual(recorded.request.fields, live.fields)) {
      return { ok: false, error: CALLBACK_FAILURE + replayMismatchText(recorded.request, live) };
    }
    return recorded.response.type === "Success"
      ? { ok: true, response: Buffer.from(recorded.response.payload, "utf8") }
      : { ok: false, error: CALLBACK_FAILURE + recorded.response.message };
  }

  /** kwctl only warns about exchanges the policy never asked for. */
  leftoverWarning(): string | undefined {
    const left = this.exchanges.length - this.next;
    return left > 0 ? `replay session: ${left} recorded exchange(s) were not used by the policy` : undefined;
  }
}

/** One exchange to record: the request as kwctl records it and what the answer source said. */
export interface RecordedCall {
  callback?: CallbackRequest;
  ok: boolean;
  /** the answer, or the error the guest read (with or without the runtime's prefix) */
  result: string;
}

/**
 * A replay session of the calls that reached an answer source, as kwctl's
 * `--record-host-capabilities-interactions` writes it (serde_yaml of its exchanges): each request a
 * YAML string with the variant's tag and fields in serde order, each error message without the
 * runtime's `Callback evaluation failure: ` (added again on replay). Calls refused by the gates
 * never reach kwctl's recorder, so they are not written either.
 */
export function replaySessionYaml(calls: readonly RecordedCall[]): string {
  const exchanges = calls
    .filter((c): c is RecordedCall & { callback: CallbackRequest } => c.callback !== undefined)
    .map((c) => ({
      type: "Exchange",
      request: `!${c.callback.variant}\n${yaml.dump(c.callback.fields, { lineWidth: -1 })}`,
      response: c.ok
        ? { type: "Success", payload: c.result }
        : {
            type: "Error",
            message: c.result.startsWith(CALLBACK_FAILURE) ? c.result.slice(CALLBACK_FAILURE.length) : c.result,
          },
    }));
  return exchanges.length === 0 ? "[]\n" : yaml.dump(exchanges, { lineWidth: -1 });
}
