import { JsonValue, parseJsonString } from "../json/index";
import { Edit, EditKind, Plan, applyBasicEdits, applyEdits, applyPlan, checkEdit } from "../k8s/edits";
import { emptyDirVolume, nfsVolume, volumeMount, simpleInitContainer } from "../k8s/lists";
import { envVar } from "../k8s/env";
import { stringItems } from "../k8s/fields";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

/** args of spec.containers[i] as strings (["<none>"] when unreadable) */
function argsOf(pod: JsonValue, i: i32): string[] {
  const spec = pod.get("spec");
  if (spec === null) return ["<none>"];
  const list = spec.get("containers");
  if (list === null) return ["<none>"];
  const c = list.at(i);
  if (c === null) return ["<none>"];
  const items = stringItems(c.get("args"));
  return items !== null ? items : ["<none>"];
}

function podWithArgs(argsJson: string): JsonValue {
  return parse(
    '{"metadata":{"name":"p","namespace":"vllm-ns"},"spec":{"containers":[{"name":"vllm","args":' + argsJson + "}]}}",
  );
}

const KV = '{\n  "kv_connector": "CBKVConnector"\n}';

/** The CacheBlend commit as edits, in the Go webhook's order M0–M7 (docs/glossary.md#m0-m7). */
function cacheblendPlan(target: i32, kv: string, cudagraph: string, secrets: string[], userHasKV: bool): Plan {
  const p = new Plan();
  p.setHostIPC();
  p.appendToPodListIfAbsent("volumes", emptyDirVolume("cb-plugin"));
  p.appendToPodListIfAbsent(
    "initContainers",
    simpleInitContainer(
      "cb-plugin-stage",
      "reg/cb-payload:pinned",
      [envVar("SHARED_DIR", "/cb-plugin")],
      [volumeMount("cb-plugin", "/cb-plugin", false)],
      "IfNotPresent",
    ),
  );
  p.appendToContainerListIfAbsent(target, "volumeMounts", volumeMount("cb-plugin", "/cb-plugin", true));
  p.envPrependPath(target, "PYTHONPATH", "/cb-plugin");
  p.applyArg(target, "--attention-backend", "CUSTOM");
  if (!userHasKV) p.applyArg(target, "--kv-transfer-config", kv);
  p.applyBareFlag(target, "--no-enable-chunked-prefill");
  p.applyArg(target, "--block-size", "64");
  p.applyArg(target, "--pipeline-parallel-size", "1");
  p.applyBareFlag(target, "--no-async-scheduling");
  if (cudagraph == "full_decode_only")
    p.applyArg(target, "--compilation-config", '{"cudagraph_mode":"FULL_DECODE_ONLY"}');
  else if (cudagraph != "piecewise") p.applyBareFlag(target, "--enforce-eager");
  p.mergePullSecrets(secrets);
  p.setAnnotation("lmcache.ai/cacheblend-injected", "true");
  if (userHasKV) p.setAnnotation("lmcache.ai/cacheblend-skip-reason", "kv-transfer-config-present");
  else p.removeAnnotation("lmcache.ai/cacheblend-skip-reason");
  return p;
}

/** The LMCache commit: args + env, then staging, then secrets, then stamp. */
function lmcachePlan(target: i32, kv: string, staging: bool, secrets: string[]): Plan {
  const p = new Plan();
  p.setHostIPC();
  p.appendArgs(target, ["--kv-transfer-config", kv]);
  p.envSetIfAbsent(target, "PYTHONHASHSEED", "0");
  if (staging) {
    p.appendToPodListIfAbsent("volumes", emptyDirVolume("lmcache-payload"));
    p.appendToPodListIfAbsent(
      "initContainers",
      simpleInitContainer(
        "lmcache-payload-stage",
        "reg/p:pinned",
        [envVar("SHARED_DIR", "/lmcache-payload")],
        [volumeMount("lmcache-payload", "/lmcache-payload", false)],
        "IfNotPresent",
      ),
    );
    p.appendToContainerListIfAbsent(target, "volumeMounts", volumeMount("lmcache-payload", "/lmcache-payload", true));
    p.envPrependPath(target, "PYTHONPATH", "/lmcache-payload");
    p.mergePullSecrets(secrets);
  }
  p.setAnnotation("lmcache.ai/lmcache-injected", "true");
  p.removeAnnotation("lmcache.ai/lmcache-skip-reason");
  return p;
}

describe("CacheBlend through edits", () => {
  it("acceptance 37: full wiring, exact pod", () => {
    const pod = podWithArgs('["--model","m"]');
    const r = applyPlan(pod, cacheblendPlan(0, KV, "eager", ["cb-payload-pull"], false));
    expect(r.ok).toBe(true);
    expect(pod.toString()).toBe(
      '{"metadata":{"name":"p","namespace":"vllm-ns","annotations":{"lmcache.ai/cacheblend-injected":"true"}},' +
        '"spec":{"containers":[{"name":"vllm","args":["--model","m","--attention-backend","CUSTOM","--kv-transfer-config","{\\n  \\"kv_connector\\": \\"CBKVConnector\\"\\n}",' +
        '"--no-enable-chunked-prefill","--block-size","64","--pipeline-parallel-size","1","--no-async-scheduling","--enforce-eager"],' +
        '"volumeMounts":[{"name":"cb-plugin","mountPath":"/cb-plugin","readOnly":true}],"env":[{"name":"PYTHONPATH","value":"/cb-plugin"}]}],' +
        '"hostIPC":true,"volumes":[{"name":"cb-plugin","emptyDir":{}}],' +
        '"initContainers":[{"name":"cb-plugin-stage","image":"reg/cb-payload:pinned","env":[{"name":"SHARED_DIR","value":"/cb-plugin"}],"volumeMounts":[{"name":"cb-plugin","mountPath":"/cb-plugin"}],"imagePullPolicy":"IfNotPresent"}],' +
        '"imagePullSecrets":[{"name":"cb-payload-pull"}]}}',
    );
  });
  it("acceptance 45: --block-size followed by a flag gets its next token overwritten", () => {
    const pod = podWithArgs('["--block-size","--model","m"]');
    expect(applyPlan(pod, cacheblendPlan(0, KV, "eager", [], false)).ok).toBe(true);
    const args = argsOf(pod, 0);
    expect(args.slice(0, 3)).toStrictEqual(["--block-size", "64", "m"]);
    expect(args.indexOf("--model")).toBe(-1);
  });
  it("acceptance 46: a bare trailing --block-size gets 64 right after it", () => {
    const pod = podWithArgs('["--model","m","--block-size"]');
    applyPlan(pod, new Plan().applyArg(0, "--block-size", "64"));
    expect(argsOf(pod, 0)).toStrictEqual(["--model", "m", "--block-size", "64"]);
    const full = podWithArgs('["--model","m","--block-size"]');
    applyPlan(full, cacheblendPlan(0, KV, "eager", [], false));
    const args = full.get("spec");
    expect(argsOf(full, 0).slice(0, 4)).toStrictEqual(["--model", "m", "--block-size", "64"]);
    expect(args !== null).toBe(true);
  });
  it("acceptance 47: first occurrence rewritten, second pair untouched", () => {
    const pod = podWithArgs('["--block-size=32","--block-size","16"]');
    applyPlan(pod, cacheblendPlan(0, KV, "eager", [], false));
    expect(argsOf(pod, 0).slice(0, 3)).toStrictEqual(["--block-size=64", "--block-size", "16"]);
  });
  it("acceptance 48: --no-enable-chunked-prefill=true suppresses the bare flag", () => {
    const pod = podWithArgs('["--no-enable-chunked-prefill=true"]');
    applyPlan(pod, cacheblendPlan(0, KV, "eager", [], false));
    const args = argsOf(pod, 0);
    expect(args.indexOf("--no-enable-chunked-prefill")).toBe(-1);
    expect(args[0]).toBe("--no-enable-chunked-prefill=true");
  });
  it("acceptance 49: piecewise adds no eager flag and keeps the user's", () => {
    const pod = podWithArgs('["--enforce-eager","--model","m"]');
    applyPlan(pod, cacheblendPlan(0, KV, "piecewise", [], false));
    const args = argsOf(pod, 0);
    let eager = 0;
    for (let i = 0; i < args.length; i++) if (args[i] == "--enforce-eager") eager++;
    expect(eager).toBe(1);
    expect(args[0]).toBe("--enforce-eager");
    const plain = podWithArgs('["--model","m"]');
    applyPlan(plain, cacheblendPlan(0, KV, "piecewise", [], false));
    expect(argsOf(plain, 0).indexOf("--enforce-eager")).toBe(-1);
  });
  it("acceptance 50: full_decode_only rewrites --compilation-config= keeping the form", () => {
    const pod = podWithArgs('["--compilation-config={\\"x\\":1}"]');
    applyPlan(pod, cacheblendPlan(0, KV, "full_decode_only", [], false));
    const args = argsOf(pod, 0);
    expect(args[0]).toBe('--compilation-config={"cudagraph_mode":"FULL_DECODE_ONLY"}');
    expect(args.indexOf("--enforce-eager")).toBe(-1);
  });
  it("--attention-backend FLASH_ATTN becomes CUSTOM and occurs once", () => {
    const pod = podWithArgs('["--attention-backend","FLASH_ATTN"]');
    applyPlan(pod, cacheblendPlan(0, KV, "eager", [], false));
    const args = argsOf(pod, 0);
    expect(args.slice(0, 2)).toStrictEqual(["--attention-backend", "CUSTOM"]);
    expect(args.lastIndexOf("--attention-backend")).toBe(0);
  });
  it("user kv: untouched, stamped kv-transfer-config-present", () => {
    const pod = podWithArgs('["--kv-transfer-config","{\\"kv_connector\\":\\"Other\\"}"]');
    applyPlan(pod, cacheblendPlan(0, KV, "eager", [], true));
    expect(argsOf(pod, 0)[1]).toBe('{"kv_connector":"Other"}');
    const md = pod.get("metadata");
    const ann = md !== null ? md.get("annotations") : null;
    expect(ann !== null ? ann.toString() : "").toBe(
      '{"lmcache.ai/cacheblend-injected":"true","lmcache.ai/cacheblend-skip-reason":"kv-transfer-config-present"}',
    );
  });
  it("only the target container is touched", () => {
    const pod = parse(
      '{"spec":{"containers":[{"name":"sidecar","args":["sleep"]},{"name":"vllm","args":["--model","m"]}]}}',
    );
    applyPlan(pod, cacheblendPlan(1, KV, "eager", [], false));
    const spec = pod.get("spec");
    const list = spec !== null ? spec.get("containers") : null;
    const sidecar = list !== null ? list.at(0) : null;
    expect(sidecar !== null ? sidecar.toString() : "").toBe('{"name":"sidecar","args":["sleep"]}');
  });
});

describe("LMCache through edits", () => {
  it("acceptance 5: connection wiring only", () => {
    const pod = podWithArgs('["--model","m"]');
    expect(applyPlan(pod, lmcachePlan(0, '{"kv_connector":"LMCacheMPConnector"}', false, [])).ok).toBe(true);
    expect(pod.toString()).toBe(
      '{"metadata":{"name":"p","namespace":"vllm-ns","annotations":{"lmcache.ai/lmcache-injected":"true"}},' +
        '"spec":{"containers":[{"name":"vllm","args":["--model","m","--kv-transfer-config","{\\"kv_connector\\":\\"LMCacheMPConnector\\"}"],' +
        '"env":[{"name":"PYTHONHASHSEED","value":"0"}]}],"hostIPC":true}}',
    );
  });
  it("acceptance 6: a stale skip reason is removed on success", () => {
    const pod = parse(
      '{"metadata":{"annotations":{"lmcache.ai/lmcache-engine":"cb","lmcache.ai/lmcache-skip-reason":"engine-not-found"}},"spec":{"containers":[{"name":"vllm"}]}}',
    );
    applyPlan(pod, lmcachePlan(0, "{}", false, []));
    const md = pod.get("metadata");
    const ann = md !== null ? md.get("annotations") : null;
    expect(ann !== null ? ann.toString() : "").toBe(
      '{"lmcache.ai/lmcache-engine":"cb","lmcache.ai/lmcache-injected":"true"}',
    );
  });
  it("acceptance 25/29/30 combined: valueFrom PYTHONPATH, secret merge, user volume kept", () => {
    const pod = parse(
      '{"spec":{"volumes":[{"name":"lmcache-payload","hostPath":{"path":"/d"}}],"imagePullSecrets":[{"name":"b"}],' +
        '"containers":[{"name":"vllm","env":[{"name":"PYTHONPATH","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"PYTHONHASHSEED","value":"42"}]}]}}',
    );
    expect(applyPlan(pod, lmcachePlan(0, "{}", true, ["a", "a", "b"])).ok).toBe(true);
    expect(pod.toString()).toBe(
      '{"spec":{"volumes":[{"name":"lmcache-payload","hostPath":{"path":"/d"}}],"imagePullSecrets":[{"name":"b"},{"name":"a"}],' +
        '"containers":[{"name":"vllm","env":[{"name":"PYTHONPATH","value":"/lmcache-payload"},{"name":"PYTHONHASHSEED","value":"42"}],' +
        '"args":["--kv-transfer-config","{}"],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload","readOnly":true}]}],' +
        '"hostIPC":true,"initContainers":[{"name":"lmcache-payload-stage","image":"reg/p:pinned","env":[{"name":"SHARED_DIR","value":"/lmcache-payload"}],"volumeMounts":[{"name":"lmcache-payload","mountPath":"/lmcache-payload"}],"imagePullPolicy":"IfNotPresent"}]},' +
        '"metadata":{"annotations":{"lmcache.ai/lmcache-injected":"true"}}}',
    );
  });
  it("pre-existing staging volume and init container are not duplicated", () => {
    const pod = parse(
      '{"spec":{"volumes":[{"name":"lmcache-payload","emptyDir":{}}],"initContainers":[{"name":"lmcache-payload-stage","image":"old"}],"containers":[{"name":"vllm"}]}}',
    );
    applyPlan(pod, lmcachePlan(0, "{}", true, []));
    const spec = pod.get("spec");
    const vols = spec !== null ? spec.get("volumes") : null;
    const inits = spec !== null ? spec.get("initContainers") : null;
    expect(vols !== null ? vols.size() : -1).toBe(1);
    expect(inits !== null ? inits.toString() : "").toBe('[{"name":"lmcache-payload-stage","image":"old"}]');
  });
});

describe("HiCache through edits", () => {
  it("worked example: HiCache args, NFS env, volume and mount", () => {
    const pod = parse(
      '{"metadata":{"namespace":"ns","labels":{"app":"sglang"}},"spec":{"containers":[{"name":"sglang","args":["--model-path","m"],"env":[{"name":"USER_FLAG","value":"preserved"}]}]}}',
    );
    const plan = new Plan()
      .appendArgs(0, [
        "--enable-hierarchical-cache",
        "--hicache-ratio",
        "2.0",
        "--hicache-storage-backend",
        "file",
        "--hicache-storage-prefetch-policy",
        "wait_complete",
      ])
      .envSetIfAbsent(0, "SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR", "/mnt/hicache")
      .appendToContainerListIfAbsent(0, "volumeMounts", volumeMount("inferencecache-hicache-l3", "/mnt/hicache", false))
      .appendToPodListIfAbsent("volumes", nfsVolume("inferencecache-hicache-l3", "192.0.2.10", "/hicache"))
      .removeAnnotation("inferencecache.io/inject-skipped")
      .setAnnotation("inferencecache.io/injected-by", "ns/sglang-hicache-l3-nfs")
      .setAnnotation("inferencecache.io/injected-by-uid", "U");
    expect(applyPlan(pod, plan).ok).toBe(true);
    expect(pod.toString()).toBe(
      '{"metadata":{"namespace":"ns","labels":{"app":"sglang"},"annotations":{"inferencecache.io/injected-by":"ns/sglang-hicache-l3-nfs","inferencecache.io/injected-by-uid":"U"}},' +
        '"spec":{"containers":[{"name":"sglang","args":["--model-path","m","--enable-hierarchical-cache","--hicache-ratio","2.0","--hicache-storage-backend","file","--hicache-storage-prefetch-policy","wait_complete"],' +
        '"env":[{"name":"USER_FLAG","value":"preserved"},{"name":"SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR","value":"/mnt/hicache"}],' +
        '"volumeMounts":[{"name":"inferencecache-hicache-l3","mountPath":"/mnt/hicache"}]}],' +
        '"volumes":[{"name":"inferencecache-hicache-l3","nfs":{"server":"192.0.2.10","path":"/hicache"}}]}}',
    );
  });
  it("strip: provenance removed and an emptied annotations map dropped", () => {
    const pod = parse(
      '{"metadata":{"name":"p","annotations":{"inferencecache.io/injected-by":"forged","inferencecache.io/injected-by-uid":"x"}}}',
    );
    const plan = new Plan()
      .removeAnnotation("inferencecache.io/injected-by", true)
      .removeAnnotation("inferencecache.io/injected-by-uid", true)
      .removeAnnotation("inferencecache.io/inject-skipped", true);
    expect(applyPlan(pod, plan).ok).toBe(true);
    expect(pod.toString()).toBe('{"metadata":{"name":"p"}}');
  });
  it("engineOverrides env entries are appended verbatim", () => {
    const pod = parse('{"spec":{"containers":[{"name":"sglang"}]}}');
    applyPlan(
      pod,
      new Plan().appendToContainerList(
        0,
        "env",
        parse('{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}'),
      ),
    );
    expect(pod.toString()).toBe(
      '{"spec":{"containers":[{"name":"sglang","env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}]}]}}',
    );
  });
});

describe("untouched bytes survive an edit", () => {
  it("escapes, number text and unknown fields outside the edited path", () => {
    const original =
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"a\\":1}\\n","we\\u0069rd\\"key":"\\ud83d\\ude00\\/"}},' +
      '"spec":{"containers":[{"name":"vllm","resources":{"limits":{"cpu":1000.0,"x":18446744073709551615,"y":-0.0,"z":1e-7}},"args":["--model","m"]}],' +
      '"x-unknown":{ "deep" : [ 1E3 , "\\u0001" ] },"terminationGracePeriodSeconds":30},"status":{}}';
    const pod = parse(original);
    expect(applyPlan(pod, new Plan().applyArg(0, "--block-size", "64").setAnnotation("k", "v")).ok).toBe(true);
    expect(pod.toString()).toBe(
      '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"a\\":1}\\n","we\\u0069rd\\"key":"\\ud83d\\ude00\\/","k":"v"}},' +
        '"spec":{"containers":[{"name":"vllm","resources":{"limits":{"cpu":1000.0,"x":18446744073709551615,"y":-0.0,"z":1e-7}},"args":["--model","m","--block-size","64"]}],' +
        '"x-unknown":{ "deep" : [ 1E3 , "\\u0001" ] },"terminationGracePeriodSeconds":30},"status":{}}',
    );
  });
  it("an empty plan and an idempotent plan keep every byte", () => {
    const text =
      '{ "metadata" : { "annotations" : { "lmcache.ai/lmcache-skip-reason" : "engine-not-found" } }, "spec" : { "hostIPC" : true, "n": 1.0 } }';
    const pod = parse(text);
    expect(applyPlan(pod, new Plan()).ok).toBe(true);
    expect(
      applyPlan(pod, new Plan().setAnnotation("lmcache.ai/lmcache-skip-reason", "engine-not-found").setHostIPC()).ok,
    ).toBe(true);
    expect(pod.toString()).toBe(text);
  });
  it("skip: only the annotation changes", () => {
    const pod = parse(
      '{"metadata":{"name":"p"},"spec":{"hostIPC":false,"containers":[{"name":"vllm","command":["sh"]}]}}',
    );
    applyPlan(pod, new Plan().setAnnotation("lmcache.ai/lmcache-skip-reason", "command-override"));
    expect(pod.toString()).toBe(
      '{"metadata":{"name":"p","annotations":{"lmcache.ai/lmcache-skip-reason":"command-override"}},"spec":{"hostIPC":false,"containers":[{"name":"vllm","command":["sh"]}]}}',
    );
  });
});

describe("applyEdits is all-or-nothing", () => {
  it("a bad edit anywhere leaves the pod untouched", () => {
    const text = '{"spec":{"containers":[{"name":"vllm","args":["--model",7]}]}}';
    const pod = parse(text);
    const r = applyEdits(pod, [
      Edit.setAnnotation("k", "v"),
      Edit.setSpecField("hostIPC", JsonValue.bool(true)),
      Edit.applyArg(0, "--block-size", "64"),
    ]);
    expect(r.ok).toBe(false);
    expect(r.editIndex).toBe(2);
    expect(r.error).toBe("spec.containers[0].args[1] is not a string");
    expect(pod.toString()).toBe(text);
  });
  it("missing container, wrong-typed lists and metadata are reported", () => {
    const pod = parse(
      '{"metadata":{"annotations":[]},"spec":{"volumes":{},"containers":[{"name":"a","env":"x","volumeMounts":1}]}}',
    );
    expect(checkEdit(pod, Edit.appendArgs(1, ["x"]))).toBe("spec.containers[1] does not exist or is not an object");
    expect(checkEdit(pod, Edit.appendToPodListIfAbsent("volumes", emptyDirVolume("v")))).toBe(
      "spec.volumes is not an array",
    );
    expect(checkEdit(pod, Edit.envSetIfAbsent(0, "A", "1"))).toBe("spec.containers[0].env is not an array");
    expect(checkEdit(pod, Edit.envPrependPath(0, "A", "/m"))).toBe("spec.containers[0].env is not an array");
    expect(checkEdit(pod, Edit.appendToContainerListIfAbsent(0, "volumeMounts", volumeMount("m", "/m", false)))).toBe(
      "spec.containers[0].volumeMounts is not an array",
    );
    expect(checkEdit(pod, Edit.setAnnotation("k", "v"))).toBe("metadata.annotations is not an object");
    expect(checkEdit(pod, Edit.appendToPodListIfAbsent("initContainers", parse("{}")))).toBe(
      "edit item for spec.initContainers has no string name",
    );
    expect(checkEdit(parse('{"spec":1}'), Edit.setSpecField("hostIPC", JsonValue.bool(true)))).toBe(
      "spec is not an object",
    );
    expect(checkEdit(parse("[]"), Edit.setAnnotation("k", "v"))).toBe("object is not a JSON object");
    expect(checkEdit(parse('{"spec":{"containers":[{"name":"a"}]}}'), Edit.appendArgs(-1, ["x"]))).toBe(
      "spec.containers[-1] does not exist or is not an object",
    );
  });
  it("setSpecField creates spec when absent", () => {
    const pod = parse('{"kind":"Pod"}');
    expect(applyEdits(pod, [Edit.setSpecField("hostIPC", JsonValue.bool(true))]).ok).toBe(true);
    expect(pod.toString()).toBe('{"kind":"Pod","spec":{"hostIPC":true}}');
  });
});

describe("Edit.describe", () => {
  it("one line per edit", () => {
    const plan = new Plan()
      .setHostIPC()
      .applyArg(0, "--block-size", "64")
      .applyBareFlag(1, "--enforce-eager")
      .appendArgs(0, ["--kv-transfer-config", "{}"])
      .envSetIfAbsent(0, "PYTHONHASHSEED", "0")
      .envUpsert(0, "D", "/m")
      .envPrependPath(0, "PYTHONPATH", "/cb-plugin")
      .appendToPodListIfAbsent("volumes", emptyDirVolume("cb-plugin"))
      .appendToContainerListIfAbsent(0, "volumeMounts", volumeMount("cb-plugin", "/cb-plugin", true))
      .mergePullSecrets(["a", "b"])
      .setAnnotation("k", "v")
      .removeAnnotation("r", true);
    expect(plan.length).toBe(12);
    expect(plan.edits[1].kind).toBe(EditKind.ApplyArg);
    expect(plan.describe()).toBe(
      "set spec.hostIPC true\n" +
        "apply-arg containers[0] --block-size 64\n" +
        "apply-bare-flag containers[1] --enforce-eager\n" +
        "append-args containers[0] --kv-transfer-config {}\n" +
        "env-set-if-absent containers[0] PYTHONHASHSEED=0\n" +
        "env-upsert containers[0] D=/m\n" +
        "env-prepend-path containers[0] PYTHONPATH /cb-plugin\n" +
        'append-if-absent spec.volumes {"name":"cb-plugin","emptyDir":{}}\n' +
        'append-if-absent containers[0].volumeMounts {"name":"cb-plugin","mountPath":"/cb-plugin","readOnly":true}\n' +
        "merge-pull-secrets a,b\n" +
        "set-annotation k=v\n" +
        "remove-annotation r (drop empty map)",
    );
  });
});

function basicPlan(): Edit[] {
  return [
    Edit.appendArgs(0, ["--a", "1"]),
    Edit.appendToContainerList(0, "volumeMounts", volumeMount("m", "/m", false)),
    Edit.appendToPodList("volumes", emptyDirVolume("v")),
    Edit.setAnnotation("k", "v"),
    Edit.removeAnnotation("gone", true),
  ];
}

describe("applyBasicEdits", () => {
  it("applies the basic kinds as applyEdits does", () => {
    const text = '{"metadata":{"annotations":{"gone":"x"}},"spec":{"containers":[{"name":"a","args":["--b"]}]}}';
    const full = parse(text);
    const basic = parse(text);
    expect(applyEdits(full, basicPlan()).ok).toBe(true);
    expect(applyBasicEdits(basic, basicPlan()).ok).toBe(true);
    expect(basic.toString()).toBe(full.toString());
  });
  it("reports the same first failure and changes nothing", () => {
    const texts = [
      '{"metadata":{"annotations":[]},"spec":{"containers":[{"name":"a"}]}}',
      '{"spec":{"volumes":{},"containers":[{"name":"a"}]}}',
      '{"spec":{"containers":[{"name":"a","args":1}]}}',
      '{"spec":{"containers":[{"name":"a","volumeMounts":"x"}]}}',
      '{"spec":{"containers":[]}}',
      '{"spec":1}',
      "[]",
    ];
    for (let i = 0; i < texts.length; i++) {
      const full = parse(texts[i]);
      const basic = parse(texts[i]);
      const a = applyEdits(full, basicPlan());
      const b = applyBasicEdits(basic, basicPlan());
      expect(b.ok).toBe(a.ok, texts[i]);
      expect(b.error).toBe(a.error, texts[i]);
      expect(b.editIndex).toBe(a.editIndex, texts[i]);
      expect(basic.toString()).toBe(texts[i]);
    }
  });
  it("fails an edit of another kind without applying anything", () => {
    const text = '{"spec":{"containers":[{"name":"a"}]}}';
    const pod = parse(text);
    const r = applyBasicEdits(pod, [Edit.setAnnotation("k", "v"), Edit.envUpsert(0, "A", "1")]);
    expect(r.ok).toBe(false);
    expect(r.error).toBe("unknown edit");
    expect(r.editIndex).toBe(1);
    expect(pod.toString()).toBe(text);
  });
});
