// Every bundled cases.yml case that uses lookups, run with its cluster objects created in a real
// kube-apiserver and the lookups answered live (tools/host/live.ts), as `cachewarden run
// --allow-context-aware --kubeconfig` answers them:
//   - the cluster objects are the case's `cluster_*.yml`, or the objects its replay session answers
//     with (an answer `Cannot find …` is an object left out);
//   - where the server stores the objects as written, the case must meet its own expectations;
//   - where it changes them (the CRDs' defaults, e.g. today's `hostIPC: false` on a first-operator
//     engine), the decision must be the one the same stored objects give offline (--cluster-objects);
//   - in both, every lookup's answer must be the bytes the offline host writes for the stored
//     objects (one serializer, cluster.ts), so the guest cannot tell a live cluster from a file.
// Cases whose session answers what no cluster can hold (a recorded server error, an object the API
// server refuses) are counted and named, never silently dropped.
// Runs on a server of its own: objects live in the cases' fixed namespaces, created and deleted case by case.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { Kube, KubeRequest, ownKubeServer, vendoredCRDs } from "./helpers/apiserver";
import { ROOT } from "./helpers/host-guests";
import { CaseSpec, jsonDifference, loadCases, policiesWithCases, runCase } from "../tools/host/cases";
import { KubeObject, loadClusterObjects } from "../tools/host/cluster";
import { PolicyModule } from "../tools/host/guest";
import { loadReplaySession } from "../tools/host/replay";
import { parseJsonOrYaml } from "../tools/host/documents";
import { loadAdmissionRequest } from "../tools/host/request";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const POLICIES = path.join(ROOT, "policies");
let kube: Kube;

before(async () => {
  kube = await ownKubeServer();
  kube.installCRDs(vendoredCRDs("lmcache", "inference-cache"));
});

interface LookupCase {
  policy: string;
  spec: CaseSpec;
  testData: string;
  /** the objects to create, or why the case cannot be reproduced in a cluster */
  objects: KubeObject[] | { unreproducible: string };
  namespaces: string[];
}

const objectKey = (o: KubeObject): string =>
  `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ""} ${o.metadata?.name}`;

/** The objects a session's answers show (a not-found answer shows an absence). */
function sessionObjects(file: string): KubeObject[] | { unreproducible: string } {
  const out = new Map<string, KubeObject>();
  for (const e of loadReplaySession(file)) {
    if (e.response.type === "Error") {
      if (/^Cannot find .* named '/.test(e.response.message)) continue;
      return {
        unreproducible: `the session answers an error no stored object gives: ${e.response.message.slice(0, 80)}`,
      };
    }
    let answer: J;
    try {
      answer = parseJsonOrYaml(e.response.payload, file);
    } catch {
      return { unreproducible: "the session answers a payload that is not JSON" };
    }
    if (answer === null || typeof answer !== "object" || Array.isArray(answer))
      return { unreproducible: "the session answers something that is not an object" };
    const items: J[] = Array.isArray(answer.items) ? answer.items : [answer];
    for (const o of items) {
      if (typeof o?.metadata?.name !== "string") return { unreproducible: "an answered object has no name" };
      const k = objectKey(o);
      if (out.has(k) && JSON.stringify(out.get(k)) !== JSON.stringify(o))
        return { unreproducible: `the session answers ${k} twice, differently` };
      out.set(k, o);
    }
  }
  return [...out.values()];
}

function lookupCases(): LookupCase[] {
  const out: LookupCase[] = [];
  for (const policy of policiesWithCases(POLICIES)) {
    const dir = path.join(POLICIES, policy);
    const testData = path.join(dir, "test_data");
    for (const spec of loadCases(dir)) {
      if ((spec.operation ?? "validate") !== "validate") continue;
      if (spec.session === undefined && spec.cluster === undefined) continue;
      const objects =
        spec.cluster !== undefined
          ? loadClusterObjects(path.join(testData, spec.cluster))
          : sessionObjects(path.join(testData, spec.session!));
      const request = loadAdmissionRequest(path.join(testData, spec.request!));
      const namespaces = new Set<string>();
      if (typeof request.namespace === "string" && request.namespace !== "") namespaces.add(request.namespace);
      if (Array.isArray(objects))
        for (const o of objects) if (typeof o.metadata?.namespace === "string") namespaces.add(o.metadata.namespace);
      out.push({ policy, spec, testData, objects, namespaces: [...namespaces] });
    }
  }
  return out;
}

/** An object as a client creates it: no server-set metadata; an engine gets the `spec.l1` its CRD requires (no policy reads it). */
function forCreate(o: KubeObject): J {
  const copy: J = JSON.parse(JSON.stringify(o));
  for (const k of ["uid", "resourceVersion", "creationTimestamp", "managedFields", "generation", "selfLink"])
    delete copy.metadata?.[k];
  if (
    /^(LMCacheEngine|CacheBlendEngine)$/.test(copy.kind) &&
    copy.spec &&
    typeof copy.spec === "object" &&
    !copy.spec.l1
  )
    copy.spec.l1 = { sizeGB: 1 };
  return copy;
}

/** The parts of an object a policy reads: everything but the server's metadata. */
function content(o: J): string {
  const { metadata, ...rest } = o ?? {};
  const { labels, annotations, name, namespace } = metadata ?? {};
  return JSON.stringify({ ...rest, metadata: { labels, annotations, name, namespace } }, Object.keys(o ?? {}).sort());
}

test("every lookup case gives its decision with its objects in a real API server and the lookups live", () => {
  const cases = lookupCases();
  const modules = new Map<string, PolicyModule>();
  const tally = { exact: 0, defaulted: 0, unreproducible: new Map<string, number>() };
  const failures: string[] = [];
  let previous: KubeObject[] = [];
  const live = { kubeconfig: kube.kubeconfig, cacheSeconds: 0 };
  kube.ensureNamespaces(cases.flatMap((c) => c.namespaces));
  for (const c of cases) {
    const label = `${c.policy}/${c.spec.name}`;
    if (!Array.isArray(c.objects)) {
      tally.unreproducible.set(c.objects.unreproducible, (tally.unreproducible.get(c.objects.unreproducible) ?? 0) + 1);
      continue;
    }
    // the previous case's objects go, this case's come
    kube.batch(
      previous.map((o): KubeRequest => ({
        verb: "delete",
        apiVersion: String(o.apiVersion),
        kind: String(o.kind),
        namespace: o.metadata?.namespace,
        name: String(o.metadata?.name),
      })),
    );
    const created = kube.batch(
      c.objects.map((o): KubeRequest => ({ verb: "create", namespace: o.metadata?.namespace, object: forCreate(o) })),
    );
    previous = c.objects.filter((_, i) => created[i].ok);
    const refused = created.findIndex((r) => !r.ok);
    if (refused >= 0) {
      const why = `the API server refuses ${c.objects[refused].kind}: ${(created[refused].status?.message ?? created[refused].error ?? "").slice(0, 60)}`;
      tally.unreproducible.set(why, (tally.unreproducible.get(why) ?? 0) + 1);
      continue;
    }
    const objects = c.objects;
    const stored = created.map((r) => r.object as KubeObject);
    // the server keeps what the case wrote when it adds no default (it assigns its own uids: the
    // expected object is compared with the case's uids replaced by the server's)
    const uids = objects.flatMap((o, i) =>
      typeof o.metadata?.uid === "string" ? [[o.metadata.uid, String(stored[i].metadata?.uid)]] : [],
    );
    // …and lists them by name: a case whose objects are in another order, share a uid, or whose
    // request carries one of their uids, meets the cluster's version of itself (compared with offline below)
    const requestText = fs.readFileSync(path.join(c.testData, c.spec.request!), "utf8");
    const sorted = objects.every(
      (o, i) => i === 0 || objectKey(objects[i - 1]) < objectKey(o) || objects[i - 1].kind !== o.kind,
    );
    const unchanged =
      sorted &&
      new Set(uids.map(([from]) => from)).size === uids.length &&
      !uids.some(([from]) => requestText.includes(from)) &&
      stored.every((s, i) => content(s) === content(forCreate(objects[i])));
    let module = modules.get(c.policy);
    if (!module) {
      module = PolicyModule.fromFile(path.join(POLICIES, c.policy, "annotated-policy.wasm"));
      modules.set(c.policy, module);
    }
    // a session whose requests are not the ones the policy makes tests the replay, not a cluster
    const replayed = runCase(c.policy, module, c.spec, c.testData);
    if ((replayed.evaluation?.hostCalls ?? []).some((h) => /Replay error|recorded responses is empty/.test(h.result))) {
      const why = "the session does not answer the requests the policy makes (a replay test)";
      tally.unreproducible.set(why, (tally.unreproducible.get(why) ?? 0) + 1);
      continue;
    }
    const expectObject = uids.length > 0 ? c.spec.expect.object : undefined;
    const spec = expectObject ? { ...c.spec, expect: { ...c.spec.expect, object: undefined } } : c.spec;
    const liveRun = runCase(c.policy, module, spec, c.testData, { live });
    if (expectObject && unchanged) {
      let text = fs.readFileSync(path.join(c.testData, expectObject), "utf8");
      for (const [from, to] of uids) text = text.split(from).join(to);
      const d = jsonDifference(parseJsonOrYaml(text, expectObject), liveRun.evaluation?.mutatedObject);
      if (d) failures.push(`${label}: object (${expectObject}, the server's uids) differs at ${d}`);
    }
    // the same stored objects, answered by the offline host (the objects' bytes as the server returned them)
    // in the order the API server lists them (by namespace and name)
    const byName = [...stored].sort((a, b) => (objectKey(a) < objectKey(b) ? -1 : 1));
    const offline = runCase(c.policy, module, c.spec, c.testData, {
      cluster: byName.map((o) => parseJsonOrYaml(JSON.stringify(o), "stored") as KubeObject),
    });
    const answers = (r: typeof liveRun): string[] =>
      (r.evaluation?.hostCalls ?? []).map((h) => `${h.operation} ${h.ok} ${h.result}`);
    if (JSON.stringify(answers(liveRun)) !== JSON.stringify(answers(offline)))
      failures.push(
        `${label}: live answers differ from the stored objects' offline answers:\n  ${answers(liveRun).join("\n  ")}\n  vs\n  ${answers(offline).join("\n  ")}`,
      );
    if (unchanged) {
      tally.exact++;
      if (!liveRun.ok) failures.push(`${label}: ${liveRun.failures.join("; ")}`);
    } else {
      tally.defaulted++;
      if (liveRun.decision !== offline.decision || liveRun.summary !== offline.summary)
        failures.push(
          `${label}: live ${liveRun.decision} (${liveRun.summary}), offline ${offline.decision} (${offline.summary})`,
        );
    }
  }
  const skipped = [...tally.unreproducible.entries()].map(([why, n]) => `${n} × ${why}`);
  process.stderr.write(
    `live cases: ${tally.exact} met their expectations, ${tally.defaulted} stored with the CRDs' defaults agreed with offline, ${skipped.length === 0 ? "none" : skipped.join("; ")} not reproducible\n`,
  );
  assert.deepEqual(failures, []);
  assert.ok(tally.exact >= 50, `only ${tally.exact} cases ran against their own expectations`);
  fs.writeFileSync(path.join(ROOT, "build", "live-cases.txt"), skipped.join("\n") + "\n");
});
