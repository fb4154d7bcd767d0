// Every custom resource the repository ships or tests, judged by the suite's real kube-apiserver
// with the upstream CRDs installed (tests/fixtures/crds, source and commit in its README): the
// engines and CacheBackends of the docs, the READMEs, the policies' test_data (requests, cluster
// objects, the answers of replay sessions) and the test fixtures, and the Kubewarden objects of
// the docs and READMEs. Each is created with a dry run (strict field validation, as kubectl does),
// so the CRDs' schema defaulting, validation and CEL rules decide. Every one is accepted, except
// an object whose every case expects it turned away (a validator's rejection, an injector's skip:
// it models an object that bypassed today's CRD), and the objects listed in EXPECTED_REFUSALS with
// a fragment of the server's message and why.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { Kube, kubeServer, vendoredCRDs } from "./helpers/apiserver";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(__dirname, "..");
const GROUPS = ["lmcache.lmcache.ai/", "inferencecache.io/", "policies.kubewarden.io/"];
const isCustomResource = (o: J): boolean =>
  o !== null &&
  typeof o === "object" &&
  typeof o.apiVersion === "string" &&
  GROUPS.some((g) => o.apiVersion.startsWith(g));

interface Found {
  /** file, and where in it */
  where: string;
  object: J;
}

function walk(dir: string, keep: (f: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === "node_modules" || e.name === "crds" ? [] : walk(p, keep);
      return keep(p) ? [p] : [];
    })
    .sort();
}

/** The documents of the ```yaml and ```json blocks of a markdown file that parse. */
function markdownObjects(file: string): Found[] {
  const text = fs.readFileSync(file, "utf8");
  const out: Found[] = [];
  for (const m of text.matchAll(/```(?:yaml|yml|json)\n([\s\S]*?)```/g)) {
    let docs: J[];
    try {
      docs = yaml.loadAll(m[1]) as J[];
    } catch {
      continue;
    }
    const line = text.slice(0, m.index).split("\n").length;
    docs.forEach((d, i) => out.push({ where: `${path.relative(ROOT, file)}:${line} #${i + 1}`, object: d }));
  }
  return out;
}

/** The objects of a test_data or fixture file: a request's object and oldObject, a cluster file's list, a session's answers. */
function dataObjects(file: string): Found[] {
  const rel = path.relative(ROOT, file);
  const base = path.basename(file);
  const text = fs.readFileSync(file, "utf8");
  const parse = (): J[] => (file.endsWith(".json") ? [JSON.parse(text)] : (yaml.loadAll(text) as J[]));
  if (base.startsWith("session_")) {
    const exchanges = parse().flat();
    return exchanges.flatMap((x: J, i: number) => {
      if (x?.response?.type !== "Success" || typeof x.response.payload !== "string") return [];
      let payload: J;
      try {
        payload = JSON.parse(x.response.payload);
      } catch {
        return [];
      }
      const items: J[] = Array.isArray(payload?.items) ? payload.items : [payload];
      return items.map((object, j) => ({
        where: `${rel} exchange ${i + 1}${items.length > 1 ? ` item ${j + 1}` : ""}`,
        object,
      }));
    });
  }
  return parse()
    .flatMap((d) => (Array.isArray(d) ? d : Array.isArray(d?.items) && d?.kind?.endsWith("List") ? d.items : [d]))
    .flatMap((d: J, i: number): Found[] => {
      const request = d?.request ?? (d?.uid !== undefined && d?.kind?.kind ? d : undefined);
      if (request)
        return [
          { where: `${rel} object`, object: request.object },
          { where: `${rel} oldObject`, object: request.oldObject },
        ];
      return [{ where: `${rel} #${i + 1}`, object: d }];
    });
}

/** Every custom resource of the repository, with where it is. */
function customResources(): Found[] {
  const markdown = [
    path.join(ROOT, "README.md"),
    ...walk(path.join(ROOT, "docs"), (f) => f.endsWith(".md")),
    ...walk(path.join(ROOT, "policies"), (f) => f.endsWith(".md") && !f.includes("test_data")),
    ...walk(path.join(ROOT, "deploy"), (f) => f.endsWith(".md")),
  ];
  const data = [
    ...walk(
      path.join(ROOT, "policies"),
      (f) => f.includes(`${path.sep}test_data${path.sep}`) && /\.(json|ya?ml)$/.test(f),
    ),
    ...walk(path.join(ROOT, "tests", "fixtures"), (f) => /\.(json|ya?ml)$/.test(f)),
  ].filter((f) => !/(^|\/)(cases|settings_[^/]*|expected_[^/]*)\.(json|ya?ml)$/.test(path.basename(f)));
  const found: Found[] = [];
  for (const f of markdown) found.push(...markdownObjects(f));
  for (const f of data) {
    try {
      found.push(...dataObjects(f));
    } catch {
      // a file that is not JSON or YAML on purpose (a malformed request case) holds no resource
    }
  }
  return found.filter((x) => isCustomResource(x.object));
}

/** A copy the server can create in `namespace`: a name when it has none, no stored-object fields. */
function forCreate(o: J, namespace: string): J {
  const copy = JSON.parse(JSON.stringify(o));
  copy.metadata = copy.metadata && typeof copy.metadata === "object" ? copy.metadata : {};
  for (const k of ["resourceVersion", "uid", "generation", "creationTimestamp", "managedFields", "namespace"])
    delete copy.metadata[k];
  if (!copy.metadata.name && !copy.metadata.generateName) copy.metadata.name = "cr";
  delete copy.status;
  copy.metadata.namespace = namespace;
  // the engines of the fixtures leave out spec.l1, which the CRD requires and no policy reads
  if (
    copy.apiVersion.startsWith("lmcache.lmcache.ai/") &&
    copy.spec &&
    typeof copy.spec === "object" &&
    !("l1" in copy.spec)
  )
    copy.spec.l1 = { sizeGB: 1 };
  return copy;
}

/**
 * Whether every case that reads `file` (as its request, session or cluster objects) expects the
 * object to be turned away: a rejection by a validator, or a skip by an injector. Such a case
 * models an object that bypassed today's CRD (an older operator, a CRD without a schema), and the
 * API server refusing it agrees with the case.
 */
function casesExpectRefusal(file: string): boolean {
  const testData = path.dirname(file);
  const base = path.basename(file);
  const cases = (yaml.load(fs.readFileSync(path.join(testData, "cases.yml"), "utf8")) as J[]).filter(
    (c) => c.request === base || c.session === base || c.cluster === base,
  );
  const turnedAway = (c: J): boolean =>
    c.expect?.allowed === false ||
    // the defaulter leaves a malformed object unchanged, to the schema that runs after it
    (c.expect?.warnings ?? []).some((w: unknown) => /: not defaulted: /.test(String(w))) ||
    typeof c.expect?.auditAnnotations?.["skip-reason"] === "string" ||
    Object.entries(c.expect?.annotations ?? {}).some(([k, v]) => /skip-reason$|inject-skipped$/.test(k) && v !== null);
  return cases.length > 0 && cases.every(turnedAway);
}

/**
 * The test objects the API server refuses although their cases do not expect them turned away: by
 * where they are, a fragment of the server's message and why the case holds such an object.
 */
const EXPECTED_REFUSALS: Record<string, [RegExp, string]> = {
  "policies/cacheblend-injector/test_data/session_cudagraph-not-string.yml exchange 1": [
    /spec\.injection\.cudagraph in body must be of type string/,
    "an engine stored past the CRD: the injector falls back to eager",
  ],
  "policies/cacheblend-injector/test_data/session_cudagraph-unknown.yml exchange 1": [
    /spec\.injection\.cudagraph: Unsupported value: "full"/,
    "an engine stored past the CRD: the injector falls back to eager",
  ],
  "policies/cacheblend-injector/test_data/session_current-isolated-ignored.yml exchange 1": [
    /unknown field "spec\.isolatedIPC"/,
    "CacheBlendEngine has no isolatedIPC: the case shows the injector ignores it",
  ],
  "policies/cacheengine-validator/test_data/request_cb-isolated-ipc-not-checked.json object": [
    /unknown field "spec\.isolatedIPC"/,
    "a field the CRD does not have: the validator leaves it to the schema",
  ],
  "policies/cacheengine-validator/test_data/request_cb-unchecked-fields.json object": [
    /unknown field "spec\.injection\.attentionBackend"/,
    "the abandoned injection fields of older CRDs: not checked",
  ],
  "policies/cacheengine-validator/test_data/request_lm-cudagraph-not-checked.json object": [
    /unknown field "spec\.injection\.cudagraph"/,
    "a CacheBlendEngine field on an LMCacheEngine: not checked",
  ],
  "policies/cacheengine-validator/test_data/request_lm-server-blend-not-checked.json object": [
    /unknown field "spec\.blend"/,
    "a CacheBlendEngine field on an LMCacheEngine: not checked",
  ],
  "policies/cacheengine-validator/test_data/request_other-kind.json object": [
    /no matches for kind "LMCacheCoordinator"/,
    "a kind the policy is not registered for (its CRD is not vendored): accepted unchanged",
  ],
  "policies/cacheengine-validator/test_data/request_update-preexisting-server-port.json object": [
    /spec\.server\.port: Invalid value: 80/,
    "an UPDATE that keeps a value stored before the bound existed: the API server ratchets it on UPDATE",
  ],
  "policies/cacheengine-validator/test_data/request_update-preexisting-server-port.json oldObject": [
    /spec\.server\.port: Invalid value: 80/,
    "the same engine as stored before the bound existed",
  ],
  "policies/lmcache-injector/test_data/session_ipc-gpu-vendor-uppercase.yml exchange 1": [
    /spec\.gpuVendor: Unsupported value: "AMD"/,
    "an engine stored past the CRD: an unknown vendor is not amd",
  ],
  "policies/lmcache-injector/test_data/session_ipc-hostipc-not-boolean.yml exchange 1": [
    /spec\.hostIPC in body must be of type boolean/,
    "an engine stored past the CRD: a hostIPC that is not a boolean is absent",
  ],
  "policies/lmcache-injector/test_data/session_ipc-isolated-not-boolean.yml exchange 1": [
    /spec\.isolatedIPC in body must be of type boolean/,
    "an engine stored past the CRD: an isolatedIPC that is not a boolean is absent",
  ],
  "policies/lmcache-injector/test_data/session_payload-image-defaults.yml exchange 1": [
    /spec\.injection\.payloadImage\.pullPolicy: Unsupported value: ""/,
    "empty image fields take the defaults: an empty pullPolicy is not one the CRD stores",
  ],
  "policies/cacheblend-injector/test_data/session_pd-decoder-no-payload.yml exchange 1": [
    /unknown field "spec\.pd"/,
    "the newest stored upstream CacheBlendEngine CRD (0cae890f) predates spec.pd (operator PR #4932): tests/fixtures/crds/README.md",
  ],
  "policies/cacheblend-injector/test_data/session_pd-prefiller.yml exchange 1": [
    /unknown field "spec\.pd"/,
    "the newest stored upstream CacheBlendEngine CRD (0cae890f) predates spec.pd (operator PR #4932): tests/fixtures/crds/README.md",
  ],
  "policies/cacheengine-validator/test_data/request_cb-operator-fields-valid.json object": [
    /unknown field "spec\.pd"/,
    "the newest stored upstream CacheBlendEngine CRD (0cae890f) predates spec.pd (operator PR #4932): tests/fixtures/crds/README.md",
  ],
  "policies/cachebackend-defaulter/test_data/request_acceptance-15-unknown-fields-kept.json object": [
    /strict decoding error: unknown field "spec\.x-unknown"/,
    "a field of a newer CRD or another writer: the defaulter keeps what it does not know byte for byte",
  ],
  "policies/cachebackend-defaulter/test_data/request_acceptance-7-lower-case-runtime.json object": [
    /spec\.runtime: Unsupported value: "vllm"/,
    "the defaulter lower-cases any runtime into the engine (spec row 7); the schema then refuses the spelling",
  ],
  "policies/cachebackend-defaulter/test_data/request_runtime-empty-string-is-legacy.json object": [
    /spec\.runtime: Unsupported value: ""/,
    "an empty runtime is legacy for the defaulter; the schema refuses it after",
  ],
  "policies/cachebackend-defaulter/test_data/request_runtime-other-lower-cased.json object": [
    /spec\.runtime: Unsupported value: "Triton"/,
    "a runtime outside the enum is lower-cased as upstream does; the schema refuses it after",
  ],
  "policies/cachebackend-defaulter/test_data/request_nfs-provider-lower-case.json object": [
    /spec\.remoteStorage\.provider: Unsupported value: "nfs"/,
    "a provider spelt in lower case is not NFS for the warning; the schema refuses it after",
  ],
  "policies/cachebackend-defaulter/test_data/request_floor-replicas-far-past-int32.json object": [
    /format int32 in spec\.replicas/,
    "the floor's bound past int32: no floor; the schema refuses replicas",
  ],
  "policies/cachebackend-defaulter/test_data/request_floor-replicas-past-int32.json object": [
    /format int32 in spec\.replicas/,
    "the floor's bound one past int32: no floor; the schema refuses replicas",
  ],
  "policies/cachebackend-defaulter/test_data/request_floor-replicas-fraction.json object": [
    /spec\.replicas in body must be of type int32/,
    "a fractional replicas is not an integer: no floor; the schema refuses it",
  ],
  "policies/cachebackend-defaulter/test_data/request_floor-replicas-minus-one.json object": [
    /spec\.replicas in body should be greater than or equal to 0/,
    "the floor's lower bound: no floor; the schema refuses -1",
  ],
  "tests/fixtures/preview-policies/policies.yaml #4": [
    /spec\.mutating: Required value/,
    "preview's fixture of a policy without its module: minimal on purpose",
  ],
  "tests/fixtures/preview-policies/policies.yaml #6": [
    /unknown field "spec\.contextAwareResources"/,
    "preview's fixture: an AdmissionPolicy that asks for lookups gets none",
  ],
};

let kube: Kube;
before(async () => {
  kube = await kubeServer();
  kube.installCRDs(vendoredCRDs());
});

test("every custom resource the repository ships or tests is one the API server accepts", () => {
  const found = customResources();
  const namespace = kube.namespace({ prefix: "custom-resources" });
  const results = kube.batch(
    found.map((x) => ({ verb: "create" as const, dryRun: true, namespace, object: forCreate(x.object, namespace) })),
  );
  const refused = found
    .map((x, i) => ({ ...x, message: results[i].ok ? "" : (results[i].status?.message ?? results[i].error ?? "") }))
    .filter((x) => x.message !== "");
  console.log(`${found.length} custom resources, ${refused.length} refused by the API server`);
  assert.ok(found.length > 300, `only ${found.length} custom resources found`);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const r of refused) {
    const file = path.join(ROOT, r.where.split(/[ :]/)[0]);
    const expected = EXPECTED_REFUSALS[r.where];
    if (expected) {
      seen.add(r.where);
      if (!expected[0].test(r.message)) problems.push(`${r.where}: refused for another reason: ${r.message}`);
    } else if (!(file.includes(`${path.sep}test_data${path.sep}`) && casesExpectRefusal(file)))
      problems.push(`${r.where}: ${r.message}`);
  }
  for (const where of Object.keys(EXPECTED_REFUSALS))
    if (!seen.has(where))
      problems.push(`${where}: expected to be refused (${EXPECTED_REFUSALS[where][1]}), but it was not`);
  assert.deepEqual(problems, [], problems.join("\n"));
});
