// Live lookups for the synchronous host: a guest's `__host_call` must return before the guest goes
// on, while the cluster answers asynchronously. As in policy-evaluator (whose waPC host blocks on a
// channel while the callback handler's task asks the API server), the thread running the guest
// posts the request to a client thread (tools/host/live-client.ts) and waits on a shared flag until
// the answer is there. One client thread per evaluating thread and kubeconfig source, started on
// first use; it keeps discovery and the answers cached for the life of the process.
import * as path from "node:path";
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker, workerData } from "node:worker_threads";
import { CALLBACK_FAILURE } from "./rust";
import { LiveAnswer, LiveClient, LiveSource } from "./live-client";

export type { LiveSource };

/** What the guest's thread asks the client thread. */
export type LiveRequest =
  | { op: "connect" }
  | {
      op: "get";
      apiVersion: string;
      kind: string;
      name: string;
      namespace: string | null;
      disableCache: boolean;
    }
  | {
      op: "list";
      apiVersion: string;
      kind: string;
      namespace: string | null;
      labelSelector: string | null;
      fieldSelector: string | null;
    }
  | { op: "can_i"; review: unknown; disableCache: boolean };

/** How long a guest waits for one answer before the lookup fails. */
export const ANSWER_TIMEOUT_MS = 60_000;

/** Answers one request on the client thread. */
async function answerLive(client: Promise<LiveClient>, r: LiveRequest): Promise<LiveAnswer> {
  let c: LiveClient;
  try {
    c = await client;
  } catch (e) {
    return { ok: false, error: (e as Error).message, problem: (e as Error).message };
  }
  switch (r.op) {
    case "connect":
      return { ok: true, response: "" };
    case "get":
      return c.getResource(r.apiVersion, r.kind, r.name, r.namespace, r.disableCache);
    case "list":
      return c.listResources(r.apiVersion, r.kind, r.namespace, r.labelSelector, r.fieldSelector);
    case "can_i":
      return c.canI(r.review, r.disableCache);
  }
}

/** A request and its answer carry the same number: an answer that comes after its caller gave up is dropped. */
type Numbered<T> = { id: number; body: T };

class Bridge {
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly timeoutMs: number;
  private last = 0;

  constructor(source: LiveSource) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.timeoutMs = source.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
    // the worker has no tsx loader of its own: register it, then load this very file
    const bootstrap = `require("tsx/cjs"); require(${JSON.stringify(path.join(__dirname, "live.ts"))});`;
    this.worker = new Worker(bootstrap, {
      eval: true,
      workerData: { liveBridge: { source, port: port2, flag: this.flag } },
      transferList: [port2],
    });
    // a client thread that dies is seen as answers that do not come; it must not end the process
    this.worker.on("error", () => undefined);
    // neither keeps the process alive: the CLI exits when its work is done
    this.worker.unref();
    this.port.unref();
  }

  /** Posts `request` and blocks until the client thread answers it (or the timeout). */
  call(request: LiveRequest, timeoutMs = this.timeoutMs): LiveAnswer {
    const id = ++this.last;
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ id, body: request } satisfies Numbered<LiveRequest>);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // the client thread posts an answer before it raises the flag: read every answer there is
      for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
        const answer = m.message as Numbered<LiveAnswer>;
        if (answer.id === id) return answer.body;
      }
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === "timed-out") {
        const text = `the live cluster did not answer within ${timeoutMs / 1000} s`;
        return { ok: false, error: text, problem: text };
      }
      Atomics.store(this.flag, 0, 0);
    }
  }

  close(): void {
    void this.worker.terminate();
  }
}

const bridges = new Map<string, Bridge>();

/**
 * Lookups answered by the cluster of a kubeconfig, with the interface of the fake cluster: each
 * method returns the answer's text or throws the text the guest reads. Making one loads the
 * kubeconfig (a problem there throws, one line), so a guest's time is spent on lookups only.
 */
export class LiveCluster {
  private readonly bridge: Bridge;
  private readonly seen = new Set<string>();
  /** one line per distinct failure that is not the policy's doing (unreachable, credentials, …) */
  readonly problems: string[] = [];

  constructor(source: LiveSource) {
    const key = JSON.stringify([
      source.kubeconfig ?? null,
      source.context ?? null,
      source.cacheSeconds ?? null,
      source.answerTimeoutMs ?? null,
    ]);
    let bridge = bridges.get(key);
    if (!bridge) {
      bridge = new Bridge(source);
      // loading the client and the kubeconfig is not a lookup: it has the default time
      const connected = bridge.call({ op: "connect" }, ANSWER_TIMEOUT_MS);
      if (!connected.ok) {
        bridge.close();
        throw new Error(connected.error);
      }
      bridges.set(key, bridge);
    }
    this.bridge = bridge;
  }

  private answer(request: LiveRequest): string {
    const a = this.bridge.call(request);
    if (a.ok) return a.response;
    if (a.problem !== undefined && !this.seen.has(a.problem)) {
      this.seen.add(a.problem);
      this.problems.push(a.problem);
    }
    throw new Error(CALLBACK_FAILURE + a.error);
  }

  get(apiVersion: string, kind: string, name: string, namespace: string | null, disableCache = false): string {
    return this.answer({ op: "get", apiVersion, kind, name, namespace, disableCache });
  }

  list(
    apiVersion: string,
    kind: string,
    namespace: string | null,
    labelSelector: string | null,
    fieldSelector: string | null,
  ): string {
    return this.answer({ op: "list", apiVersion, kind, namespace, labelSelector, fieldSelector });
  }

  canI(review: unknown, disableCache: boolean): string {
    return this.answer({ op: "can_i", review, disableCache });
  }
}

/** Client-thread side: one LiveClient, answering each request in turn, then raising the flag. */
function runBridge(data: { source: LiveSource; port: MessagePort; flag: Int32Array }): void {
  const client = LiveClient.connect(data.source);
  client.catch(() => undefined); // reported by the answers
  data.port.on("message", ({ id, body }: Numbered<LiveRequest>) => {
    void answerLive(client, body)
      .catch((e: unknown): LiveAnswer => ({ ok: false, error: String((e as Error)?.message ?? e) }))
      .then((answer) => {
        data.port.postMessage({ id, body: answer } satisfies Numbered<LiveAnswer>);
        Atomics.store(data.flag, 0, 1);
        Atomics.notify(data.flag, 0);
      });
  });
}

// `workerData` is null on the main thread
const bridgeData = (workerData as { liveBridge?: Parameters<typeof runBridge>[0] } | null)?.liveBridge;
if (bridgeData) runBridge(bridgeData);
