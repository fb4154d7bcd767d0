// The plain-JS baseline of one evaluation, built from the policy's own answer so both sides do the
// same job on the same payload bytes: decode + JSON.parse the payload and every host-capability
// response the policy received (a JS policy would have to read the engine and the ConfigMap too;
// the lookups themselves are not repeated), apply the same mutation, build the same response,
// JSON.stringify + encode it.
//   mutating answer  -> the RFC 6902 patch between request.object and the policy's mutated_object is
//                       computed once (fast-json-patch) and applied to the freshly parsed object in
//                       every timed run. Generic and fair: no hand-written JS version of each policy.
//                       (The patch's values are prebuilt, which slightly favours JS.)
//   validator answer -> walk to the fields the policy checks (reading each one), then serialize the
//                       policy's response object.
import { applyPatch, Operation } from "fast-json-patch";
import { diffObjects } from "../host/response";

/** Field paths each validator reads (dot-separated, `[]` = every array item). */
const VALIDATOR_CHECKED_PATHS: Record<string, string[]> = {
  // docs/policies/cacheengine-validator.md: kind dispatch, then the field table, on object and
  // oldObject
  "cacheengine-validator": [
    "kind.kind",
    "operation",
    "name",
    "namespace",
    ...["object", "oldObject"].flatMap((o) => [
      `${o}.metadata.name`,
      `${o}.spec.server.chunkSize`,
      `${o}.spec.blend.checkLayer`,
      `${o}.spec.blend.recompRatio`,
      `${o}.spec.injection.payloadImage.repository`,
      `${o}.spec.injection.payloadImage.tag`,
      `${o}.spec.injection.payloadImage.pullPolicy`,
      `${o}.spec.injection.imagePullSecrets[].name`,
      `${o}.spec.injection.targetContainer`,
      `${o}.spec.injection.cudagraph`,
    ]),
  ],
};

export interface JsBaseline {
  /** how the baseline reproduces the policy's work, for the report */
  kind: "patch" | "walk" | "walk-all";
  patchOps: number;
  run(): Buffer;
}

// Results are folded into this so V8 cannot drop the reads as dead code.
let sink = 0;
export function baselineSink(): number {
  return sink;
}

function walkPath(node: unknown, parts: string[], i: number): void {
  if (node === null || node === undefined) return;
  if (i === parts.length) {
    sink += typeof node === "string" ? node.length : typeof node === "number" ? 1 : 2;
    return;
  }
  const part = parts[i];
  if (part.endsWith("[]")) {
    const list = (node as Record<string, unknown>)[part.slice(0, -2)];
    if (Array.isArray(list)) for (const item of list) walkPath(item, parts, i + 1);
    return;
  }
  if (typeof node === "object" && !Array.isArray(node)) walkPath((node as Record<string, unknown>)[part], parts, i + 1);
}

function walkAll(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) walkAll(item);
    return;
  }
  if (node !== null && typeof node === "object") {
    for (const k in node) walkAll((node as Record<string, unknown>)[k]);
    return;
  }
  sink += typeof node === "string" ? node.length : 1;
}

/**
 * Builds the baseline for `payload`, given the policy's parsed response. The baseline's output is
 * JSON-equal to the policy's response (checked by the caller with `sameJson`).
 */
export function buildBaseline(
  policyName: string,
  payload: Buffer,
  response: Record<string, unknown>,
  hostResponses: Buffer[] = [],
): JsBaseline {
  // a host answer that is not JSON (a proxy's error page, in some cases) is a caught error, as in a JS policy
  const readHostResponses = (): void => {
    for (const r of hostResponses) {
      try {
        sink += JSON.parse(r.toString("utf8")) === null ? 0 : 1;
      } catch {
        sink += 2;
      }
    }
  };
  const keys = Object.keys(response);
  if (response.mutated_object !== undefined && response.mutated_object !== null) {
    const request = (JSON.parse(payload.toString("utf8")) as { request: { object?: unknown } }).request;
    const ops = diffObjects(request.object, response.mutated_object) as Operation[];
    const rootReplaced = ops.some((op) => op.path === "");
    return {
      kind: "patch",
      patchOps: ops.length,
      run(): Buffer {
        const doc = JSON.parse(payload.toString("utf8")) as { request: { object?: unknown } };
        readHostResponses();
        let object = doc.request.object;
        if (rootReplaced)
          object = response.mutated_object; // not a container: nothing to patch in place
        else if (ops.length > 0) object = applyPatch(object, ops, false, true).newDocument;
        const out: Record<string, unknown> = {};
        for (const k of keys) out[k] = k === "mutated_object" ? object : response[k];
        return Buffer.from(JSON.stringify(out), "utf8");
      },
    };
  }
  const paths = VALIDATOR_CHECKED_PATHS[policyName]?.map((p) => p.split("."));
  return {
    kind: paths ? "walk" : "walk-all",
    patchOps: 0,
    run(): Buffer {
      const doc = JSON.parse(payload.toString("utf8")) as { request?: Record<string, unknown> };
      readHostResponses();
      if (paths) for (const p of paths) walkPath(doc.request, p, 0);
      else walkAll(doc.request?.object);
      return Buffer.from(JSON.stringify(response), "utf8");
    },
  };
}

/** JSON-value equality of two serialized documents (what the policy-server diff would see). */
export function sameJson(a: Buffer, b: Buffer): boolean {
  try {
    return diffObjects(JSON.parse(a.toString("utf8")), JSON.parse(b.toString("utf8"))).length === 0;
  } catch {
    return false;
  }
}
