// The fuzzer's host: answers every `__host_call` with a random but plausible outcome, chosen once
// per distinct request within an iteration (so re-evaluating for the idempotency check sees the
// same cluster): found (an object harvested from the policy's own sessions / cluster files, or a
// synthesized one, sometimes mutated or not even JSON), not found, denied, other errors, or the
// case's own replay session / cluster answer.
import {
  contextAwareDeniedText,
  capabilityDeniedText,
  HostCapabilities,
  HostCapabilitiesConfig,
} from "../host/capabilities";
import type { HostCallHandler } from "../host/guest";
import { emitJson } from "./json-text";
import { makeSeed, mutate } from "./mutators";
import { Rng } from "./rng";

type Answer = ReturnType<HostCallHandler>;

const OTHER_ERRORS = [
  "kube::Client was not initialized properly",
  "Callback evaluation failure: error trying to connect: tcp connect error: Connection refused (os error 111)",
  'Callback evaluation failure: ApiError: Unauthorized: Unauthorized (ErrorResponse { status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 })',
  "missing field `disable_cache` at line 1 column 80",
  "Replay error: unexpected request",
  "",
];

/** Success bodies seen in the policy's test_data, by kind (what a real cluster would return). */
export class ObjectPool {
  private readonly byKind = new Map<string, string[]>();

  add(kind: string, body: string): void {
    const list = this.byKind.get(kind) ?? [];
    if (!list.includes(body)) list.push(body);
    this.byKind.set(kind, list);
  }

  addFromConfig(config: HostCapabilitiesConfig): void {
    for (const ex of config.replay ?? []) {
      if (ex.response.type !== "Success") continue;
      const kind = String(ex.request.fields.kind ?? "");
      this.add(kind, ex.response.payload);
    }
    for (const obj of config.cluster ?? []) this.add(String(obj.kind ?? ""), JSON.stringify(obj));
  }

  bodies(kind: string): string[] {
    return this.byKind.get(kind) ?? [];
  }
}

function parsePayload(body: Buffer): Record<string, unknown> {
  try {
    const v = JSON.parse(body.toString("utf8")) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function synthesize(rng: Rng, req: Record<string, unknown>, operation: string): string {
  const apiVersion = String(req.api_version ?? "v1");
  const kind = String(req.kind ?? "ConfigMap");
  const metadata = {
    name: String(req.name ?? "x"),
    ...(req.namespace ? { namespace: String(req.namespace) } : {}),
    uid: "00000000-0000-0000-0000-00000000f022",
  };
  const obj: Record<string, unknown> = { apiVersion, kind, metadata };
  if (kind === "ConfigMap")
    obj.data = rng.pick([
      {},
      { "kv-transfer-config.json": "{}" },
      { "kv-transfer-config.json": "not json" },
      { other: "x" },
    ]);
  else obj.spec = rng.pick([{}, { injection: {} }, { injection: { payloadImage: { repository: "x" } } }]);
  if (operation.startsWith("list_"))
    return JSON.stringify({ apiVersion, kind: `${kind}List`, metadata: {}, items: rng.chance(0.5) ? [obj] : [] });
  return JSON.stringify(obj);
}

/**
 * One handler per iteration. `answers` is shared with the idempotency re-evaluation, so the same
 * request gets the same answer in both evaluations.
 */
export function fuzzHostCalls(
  rng: Rng,
  pool: ObjectPool,
  caseConfig: HostCapabilitiesConfig | undefined,
  answers = new Map<string, Answer>(),
): { handler: HostCallHandler; answers: Map<string, Answer> } {
  // the case's own configuration answers through one HostCapabilities per iteration (replay order)
  const caseHost = caseConfig ? new HostCapabilities(caseConfig) : undefined;
  const handler: HostCallHandler = (binding, namespace, operation, payload) => {
    const key = `${binding}\0${namespace}\0${operation}\0${payload.toString("latin1")}`;
    const known = answers.get(key);
    if (known) return known;
    let answer: Answer;
    if (namespace === "tracing") answer = { ok: true, response: Buffer.alloc(0) };
    else {
      const req = parsePayload(payload);
      const apiVersion = String(req.api_version ?? "");
      const kind = String(req.kind ?? "");
      const choice = rng.weighted([
        [caseHost ? 3 : 0, "case"],
        [4, "found"],
        [3, "not-found"],
        [2, "denied"],
        [2, "error"],
      ] as const);
      switch (choice) {
        case "case":
          answer = caseHost!.handler(binding, namespace, operation, payload);
          break;
        case "found": {
          const harvested = pool.bodies(kind);
          let body = harvested.length > 0 && rng.chance(0.7) ? rng.pick(harvested) : synthesize(rng, req, operation);
          if (rng.chance(0.3)) {
            // a found object that is itself malformed or of an unexpected shape
            const m = mutate(rng, makeSeed("host-object", Buffer.from(body, "utf8")), []);
            body = m.payload.toString("latin1");
            answer = { ok: true, response: Buffer.from(body, "latin1") };
          } else answer = { ok: true, response: Buffer.from(body, "utf8") };
          break;
        }
        case "not-found":
          answer = {
            ok: false,
            error: `Callback evaluation failure: Cannot find ${apiVersion}/${kind} named '${String(req.name ?? "")}' inside of namespace '${req.namespace ? `Some(${emitJson(String(req.namespace))})` : "None"}'`,
          };
          break;
        case "denied":
          answer = {
            ok: false,
            error: rng.chance(0.5)
              ? contextAwareDeniedText(apiVersion, kind)
              : capabilityDeniedText(`${namespace}/${operation}`),
          };
          break;
        default:
          answer = { ok: false, error: rng.pick(OTHER_ERRORS) };
      }
    }
    answers.set(key, answer);
    return answer;
  };
  return { handler, answers };
}
