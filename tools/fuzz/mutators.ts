// Input generators of the fuzzer. Every input starts from one of the policy's own test_data
// requests (a "seed" payload `{"request":…,"settings":…}`) and is bent into something malformed or
// adversarial. Structural mutators edit a JS copy of the seed and re-serialize it with a writer that
// can also splice raw text (invalid numbers, lone surrogate escapes, deep nesting) and repeat keys;
// byte-level mutators edit the serialized bytes (truncation, flips, invalid UTF-8).
import {
  collectPaths,
  DupObject,
  emitJson,
  getAt,
  JsonKindName,
  JsonPath,
  kindOf,
  pathText,
  RawJson,
  setAt,
} from "./json-text";
import { Rng } from "./rng";

export interface FuzzSeed {
  /** the test_data case the seed comes from */
  name: string;
  payload: Buffer;
  /** the payload as a JS value (null when the seed itself is not JSON) */
  doc: unknown;
  /** every value path in doc, with the JSON kind found there */
  paths: { path: JsonPath; kind: JsonKindName }[];
}

// --- value tables --------------------------------------------------------------------------------

/** The simplest value of each kind, used by the systematic type-swap sweep. */
export const SWAP_VALUES: Record<JsonKindName, unknown> = {
  null: null,
  boolean: true,
  number: 1,
  string: "x",
  array: [],
  object: {},
};

const STRINGS: readonly string[] = [
  "",
  " ",
  "  padded  ",
  "\t",
  "a".repeat(64),
  "a".repeat(254),
  "x".repeat(4096),
  "UPPER",
  "-leading",
  "trailing-",
  "a..b",
  "ünïcødé",
  "😀",
  "\u0000",
  "\u001f",
  "\\",
  '"',
  "\u2028",
  "null",
  "true",
  "42",
  "{}",
  "[]",
  '{"kv_connector":1}',
  "lmcache/vllm-openai",
  "lmcache/vllm-openai:latest",
  `repo@sha256:${"0".repeat(64)}`,
  "a/b:c@d",
  "registry:5000/x/y:z",
  "--kv-transfer-config",
  "--kv-transfer-config={}",
  "PYTHONHASHSEED",
  "default/x",
  "../x",
  "kube-system",
];

const NUMBERS: readonly RawJson[] = [
  "0",
  "-1",
  "1",
  "256",
  "1.0",
  "1e2",
  "1E+2",
  "-0",
  "0.0",
  "2.56e2",
  "1e400",
  "-1e400",
  "1e-400",
  "0.1e1",
  "2147483647",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "18446744073709551616",
  "123456789012345678901234567890",
].map((t) => new RawJson(t));

/** Invalid number and literal spellings (the whole payload becomes invalid JSON). */
const INVALID_TOKENS: readonly RawJson[] = [
  "01",
  "1.",
  ".5",
  "+1",
  "NaN",
  "Infinity",
  "-",
  "1e",
  "0x10",
  "tru",
  "nul",
  "'x'",
  "undefined",
].map((t) => new RawJson(t));

const LONE_SURROGATES: readonly RawJson[] = [
  '"\\ud800"',
  '"a\\udc00b"',
  '"\\ud83d\\u0041"',
  '"\\udfff\\ud800"',
  '"\\uD800\\uDBFF"',
  '"\\ud800\\"',
].map((t) => new RawJson(t));

const INVALID_UTF8: readonly number[][] = [
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xff],
  [0xfe],
  [0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc3],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

function randomValueOfKind(rng: Rng, kind: JsonKindName, seeds: FuzzSeed[]): unknown {
  switch (kind) {
    case "null":
      return null;
    case "boolean":
      return rng.chance(0.5);
    case "number":
      return rng.pick(NUMBERS);
    case "string":
      return rng.pick(STRINGS);
    case "array":
      return rng.pick([[], [null], [{}], ["x"], [1, "x", null], spliceFrom(rng, seeds) ?? []]);
    case "object":
      return rng.pick([{}, { "": null }, { name: "x" }, { a: { b: { c: [] } } }, spliceFrom(rng, seeds) ?? {}]);
  }
}

/** A random subtree of a random seed (so shapes from one case land in unexpected places). */
function spliceFrom(rng: Rng, seeds: FuzzSeed[]): unknown {
  const s = rng.pick(seeds);
  if (!s || s.paths.length === 0) return undefined;
  return structuredClone(getAt(s.doc, rng.pick(s.paths).path));
}

const KINDS: readonly JsonKindName[] = ["null", "boolean", "number", "string", "array", "object"];

// --- mutators ------------------------------------------------------------------------------------

export interface Mutation {
  mutator: string;
  detail: string;
  payload: Buffer;
}

type DocMutator = (rng: Rng, doc: unknown, seed: FuzzSeed, seeds: FuzzSeed[]) => string;
type ByteMutator = (rng: Rng, bytes: Buffer) => { bytes: Buffer; detail: string };

/** Paths of the document being mutated; the seed's own list until the first edit changes the shape. */
let currentPaths: { doc: unknown; paths: { path: JsonPath; kind: JsonKindName }[] } | null = null;
function pathsOf(doc: unknown): { path: JsonPath; kind: JsonKindName }[] {
  if (currentPaths && currentPaths.doc === doc) return currentPaths.paths;
  const paths = collectPaths(doc);
  currentPaths = { doc, paths };
  return paths;
}

function randomPath(rng: Rng, doc: unknown, kind?: JsonKindName): JsonPath | null {
  const paths = pathsOf(doc).filter((p) => !kind || p.kind === kind);
  return paths.length === 0 ? null : rng.pick(paths).path;
}

const docMutators: Record<string, DocMutator> = {
  "type-swap"(rng, doc, _seed, seeds) {
    const p = randomPath(rng, doc);
    if (!p) return "no path";
    const from = kindOf(getAt(doc, p));
    const to = rng.pick(KINDS.filter((k) => k !== from));
    setAt(doc, p, randomValueOfKind(rng, to, seeds));
    return `${pathText(p)}: ${from} -> ${to}`;
  },
  "interesting-string"(rng, doc) {
    const p = randomPath(rng, doc, rng.chance(0.8) ? "string" : undefined);
    if (!p) return "no path";
    const s = rng.pick(STRINGS);
    setAt(doc, p, s);
    return `${pathText(p)} = ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…(${s.length})` : s)}`;
  },
  "number-spelling"(rng, doc) {
    const p = randomPath(rng, doc, rng.chance(0.7) ? "number" : undefined);
    if (!p) return "no path";
    const n = rng.chance(0.85) ? rng.pick(NUMBERS) : rng.pick(INVALID_TOKENS);
    setAt(doc, p, n);
    return `${pathText(p)} = ${n.text}`;
  },
  "duplicate-key"(rng, doc, _seed, seeds) {
    const objects = [
      { path: [] as JsonPath, kind: "object" as JsonKindName },
      ...pathsOf(doc).filter((x) => x.kind === "object"),
    ];
    const target = rng.pick(objects);
    const obj = getAt(doc, target.path) as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 0) return "empty object";
    const key = rng.pick(keys);
    const other = rng.weighted<unknown>([
      [3, structuredClone(obj[key])],
      [2, randomValueOfKind(rng, rng.pick(KINDS), seeds)],
      [1, null],
    ]);
    const entries: [string, unknown][] = Object.entries(obj);
    const at = rng.int(entries.length + 1);
    entries.splice(at, 0, [key, other]);
    const dup = new DupObject(entries);
    if (target.path.length === 0) {
      for (const k of Object.keys(obj)) delete obj[k];
      (obj as Record<string, unknown>)["\u0000dup"] = dup;
    } else setAt(doc, target.path, dup);
    return `${pathText(target.path)}: key ${JSON.stringify(key)} twice`;
  },
  "lone-surrogate"(rng, doc) {
    const s = rng.pick(LONE_SURROGATES);
    if (rng.chance(0.25)) {
      const objects = pathsOf(doc).filter((x) => x.kind === "object");
      if (objects.length > 0) {
        const t = rng.pick(objects);
        const obj = getAt(doc, t.path) as Record<string, unknown>;
        setAt(doc, t.path, new DupObject([...Object.entries(obj), [s, "v"]]));
        return `${pathText(t.path)}: key ${s.text}`;
      }
    }
    const p = randomPath(rng, doc, "string");
    if (!p) return "no path";
    setAt(doc, p, s);
    return `${pathText(p)} = ${s.text}`;
  },
  "remove-key"(rng, doc) {
    const p = randomPath(rng, doc);
    if (!p) return "no path";
    setAt(doc, p, undefined);
    return `${pathText(p)} removed`;
  },
  "missing-request-or-settings"(rng, doc) {
    const variants: [string, JsonPath, unknown][] = [
      ["no request", ["request"], undefined],
      ["no settings", ["settings"], undefined],
      ["request null", ["request"], null],
      ["settings null", ["settings"], null],
      ["settings string", ["settings"], "x"],
      ["settings array", ["settings"], []],
      ["settings number", ["settings"], 1],
      ["request array", ["request"], []],
      ["request string", ["request"], "x"],
      ["request empty", ["request"], {}],
      ["no object", ["request", "object"], undefined],
      ["object null", ["request", "object"], null],
      ["object string", ["request", "object"], "x"],
      ["no kind", ["request", "kind"], undefined],
      ["no operation", ["request", "operation"], undefined],
      ["no namespace", ["request", "namespace"], undefined],
      ["no metadata", ["request", "object", "metadata"], undefined],
      ["metadata null", ["request", "object", "metadata"], null],
      ["annotations array", ["request", "object", "metadata", "annotations"], []],
      ["no spec", ["request", "object", "spec"], undefined],
    ];
    const [name, path, value] = rng.pick(variants);
    if (name === "no object" && rng.chance(0.5)) setAt(doc, ["request", "operation"], "DELETE");
    setAt(doc, path, value);
    return name;
  },
  splice(rng, doc, _seed, seeds) {
    const p = randomPath(rng, doc);
    const v = spliceFrom(rng, seeds);
    if (!p || v === undefined) return "no path";
    setAt(doc, p, v);
    return `${pathText(p)} = subtree of another seed`;
  },
  "huge-string"(rng, doc) {
    const pattern = rng.pick(["a", "é", "😀", "\\n", '\\"', "\\u0041", "\\\\", " "]);
    const bytes = rng.pick([64 * 1024, 1 << 20, 2 << 20]);
    const s = new RawJson(`"${pattern.repeat(Math.floor(bytes / Buffer.byteLength(pattern)))}"`);
    if (rng.chance(0.2)) {
      const objects = pathsOf(doc).filter((x) => x.kind === "object");
      if (objects.length > 0) {
        const t = rng.pick(objects);
        setAt(doc, t.path, new DupObject([...Object.entries(getAt(doc, t.path) as Record<string, unknown>), [s, "v"]]));
        return `${pathText(t.path)}: key of ${s.text.length} bytes`;
      }
    }
    const p = randomPath(rng, doc, rng.chance(0.8) ? "string" : undefined);
    if (!p) return "no path";
    setAt(doc, p, s);
    return `${pathText(p)} = string of ${s.text.length} bytes`;
  },
  "huge-array"(rng, doc) {
    const p = randomPath(rng, doc, rng.chance(0.8) ? "array" : undefined);
    if (!p) return "no path";
    const cur = getAt(doc, p);
    const item =
      Array.isArray(cur) && cur.length > 0
        ? emitJson(cur[rng.int(cur.length)])
        : rng.pick(["null", "1", '"x"', "{}", "[]"]);
    const count = Math.max(2, Math.min(200_000, Math.floor(rng.pick([256 * 1024, 2 << 20]) / (item.length + 1))));
    setAt(doc, p, new RawJson(`[${new Array(count).fill(item).join(",")}]`));
    return `${pathText(p)} = array of ${count} items`;
  },
  "deep-nesting"(rng, doc) {
    const depth = rng.pick([1001, 1025, 5000, 100_000]);
    const shape = rng.pick(["array", "object", "mixed", "unclosed"]);
    let text: string;
    if (shape === "array") text = "[".repeat(depth) + "]".repeat(depth);
    else if (shape === "object") text = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    else if (shape === "mixed") text = '[{"a":'.repeat(depth / 2) + "null" + "}]".repeat(depth / 2);
    else text = "[".repeat(depth);
    const p = rng.chance(0.15) ? null : randomPath(rng, doc);
    if (!p) {
      (doc as Record<string, unknown>)["\u0000raw"] = new RawJson(text);
      return `whole payload: ${shape} nesting depth ${depth}`;
    }
    setAt(doc, p, new RawJson(text));
    return `${pathText(p)} = ${shape} nesting depth ${depth}`;
  },
};

/** Bytes positions inside JSON string literals (where invalid UTF-8 is most interesting). */
function stringPositions(bytes: Buffer): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) {
        i++;
        continue;
      }
      if (c === 0x22) {
        inString = false;
        continue;
      }
      out.push(i);
    } else if (c === 0x22) inString = true;
  }
  return out;
}

const byteMutators: Record<string, ByteMutator> = {
  truncate(rng, bytes) {
    const at = rng.int(bytes.length);
    return { bytes: bytes.subarray(0, at), detail: `cut at byte ${at} of ${bytes.length}` };
  },
  "byte-flip"(rng, bytes) {
    const out = Buffer.from(bytes);
    const n = rng.range(1, 8);
    const at: number[] = [];
    for (let i = 0; i < n && out.length > 0; i++) {
      const p = rng.int(out.length);
      out[p] = rng.chance(0.5) ? out[p] ^ (1 << rng.int(8)) : rng.int(256);
      at.push(p);
    }
    return { bytes: out, detail: `${n} byte(s) changed at ${at.join(",")}` };
  },
  "invalid-utf8"(rng, bytes) {
    const positions = stringPositions(bytes);
    const at = positions.length > 0 && rng.chance(0.9) ? rng.pick(positions) : rng.int(bytes.length + 1);
    const seq = rng.pick(INVALID_UTF8);
    return {
      bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(seq), bytes.subarray(at)]),
      detail: `${seq.map((b) => b.toString(16)).join(" ")} at byte ${at}`,
    };
  },
  whitespace(rng, bytes) {
    const ws = rng.pick([
      [0x20],
      [0x0a],
      [0x0d, 0x0a],
      [0x09],
      [0x0b],
      [0x0c],
      [0xc2, 0xa0],
      [0xef, 0xbb, 0xbf],
      [0x00],
    ]);
    const at = rng.int(bytes.length + 1);
    return {
      bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(ws), bytes.subarray(at)]),
      detail: `${ws.map((b) => b.toString(16)).join(" ")} at byte ${at}`,
    };
  },
};

const DOC_WEIGHTS: readonly (readonly [number, string])[] = [
  [20, "type-swap"],
  [12, "interesting-string"],
  [8, "number-spelling"],
  [7, "duplicate-key"],
  [6, "lone-surrogate"],
  [6, "remove-key"],
  [6, "missing-request-or-settings"],
  [5, "splice"],
  [2, "huge-string"],
  [2, "huge-array"],
  [3, "deep-nesting"],
];
const BYTE_WEIGHTS: readonly (readonly [number, string])[] = [
  [8, "truncate"],
  [9, "byte-flip"],
  [7, "invalid-utf8"],
  [3, "whitespace"],
];

/** Serializes doc (honouring the root-level raw/dup placeholders some mutators leave). */
function serialize(doc: unknown): Buffer {
  if (doc !== null && typeof doc === "object" && !Array.isArray(doc)) {
    const o = doc as Record<string, unknown>;
    if (o["\u0000raw"] instanceof RawJson) return Buffer.from((o["\u0000raw"] as RawJson).text, "utf8");
    if (o["\u0000dup"] instanceof DupObject) return Buffer.from(emitJson(o["\u0000dup"]), "utf8");
  }
  return Buffer.from(emitJson(doc), "utf8");
}

/** One random input derived from `seed`: 1-3 structural edits, and/or a byte-level edit. */
export function mutate(rng: Rng, seed: FuzzSeed, seeds: FuzzSeed[]): Mutation {
  const names: string[] = [];
  const details: string[] = [];
  let bytes = seed.payload;
  const structural = seed.doc !== null && rng.chance(0.7);
  if (structural) {
    const doc = structuredClone(seed.doc);
    currentPaths = { doc, paths: seed.paths.map((p) => ({ path: p.path, kind: p.kind })) };
    const rounds = rng.weighted([
      [6, 1],
      [3, 2],
      [1, 3],
    ] as const);
    for (let i = 0; i < rounds; i++) {
      const name = rng.weighted(DOC_WEIGHTS);
      names.push(name);
      details.push(docMutators[name](rng, doc, seed, seeds));
      currentPaths = null; // the edit may have changed the shape
      const o = doc as Record<string, unknown>;
      if (o !== null && typeof o === "object" && ("\u0000raw" in o || "\u0000dup" in o)) break; // root replaced
    }
    bytes = serialize(doc);
  }
  if (!structural || rng.chance(0.15)) {
    const name = rng.weighted(BYTE_WEIGHTS);
    const r = byteMutators[name](rng, bytes);
    names.push(name);
    details.push(r.detail);
    bytes = r.bytes;
  }
  return { mutator: names.join("+"), detail: details.join("; "), payload: bytes };
}

/** The sweep "wrong type at every path": one input per (path, other kind), across all seeds. */
export interface SwapTask {
  seed: FuzzSeed;
  path: JsonPath;
  to: JsonKindName;
}

export function typeSwapTasks(seeds: FuzzSeed[]): SwapTask[] {
  const seen = new Set<string>();
  const tasks: SwapTask[] = [];
  for (const seed of seeds) {
    for (const { path, kind } of seed.paths) {
      const key = pathText(path);
      if (seen.has(key)) continue;
      seen.add(key);
      for (const to of KINDS) if (to !== kind) tasks.push({ seed, path, to });
    }
  }
  return tasks;
}

export function applySwap(task: SwapTask): Mutation {
  const doc = structuredClone(task.seed.doc);
  setAt(doc, task.path, structuredClone(SWAP_VALUES[task.to]));
  return {
    mutator: "type-swap-sweep",
    detail: `${pathText(task.path)}: ${kindOf(getAt(task.seed.doc, task.path))} -> ${task.to}`,
    payload: serialize(doc),
  };
}

/** Fixed inputs every run starts with (independent of the seeds' content). */
export function fixedInputs(seeds: FuzzSeed[]): Mutation[] {
  const out: Mutation[] = [
    { mutator: "empty-payload", detail: "0 bytes", payload: Buffer.alloc(0) },
    ...[
      "{}",
      "null",
      "[]",
      '"x"',
      "0",
      '{"request":{}}',
      '{"settings":{}}',
      '{"request":null,"settings":null}',
      " ",
      "{",
    ].map((t) => ({ mutator: "fixed", detail: JSON.stringify(t), payload: Buffer.from(t, "utf8") })),
  ];
  for (const s of seeds) out.push({ mutator: "seed", detail: `unmodified seed ${s.name}`, payload: s.payload });
  return out;
}

export function makeSeed(name: string, payload: Buffer): FuzzSeed {
  let doc: unknown = null;
  try {
    doc = JSON.parse(payload.toString("utf8"));
  } catch {
    /* byte-level mutators only */
  }
  return { name, payload, doc, paths: doc === null ? [] : collectPaths(doc) };
}
