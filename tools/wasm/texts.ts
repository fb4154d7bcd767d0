// The second half of tools/wasm/texts-transform.mjs, run on the compiled module: the texts'
// encoded bytes become one passive data segment, and the import the generated code calls
// (`cachewarden.texts_copy`) becomes a defined function that copies out of it with `memory.init`.
// AssemblyScript 0.28 can neither declare a passive segment nor emit `memory.init` (its builtin
// aborts with "Not implemented"), so binaryen does this step. A module that never imported the
// function (no texts) is returned as it is; one that still imports it fails the gates (only `wapc`
// imports link under policy-server).
import * as fs from "node:fs";
import * as path from "node:path";
import { readU32, withDataSections } from "./segments";
import { encodeU32, listSections } from "./wasm";

// what this step and the transform agree on (one file, read by both)
const CONTRACT = JSON.parse(fs.readFileSync(path.join(__dirname, "texts-contract.json"), "utf8")) as {
  copyImport: { module: string; name: string };
  textsFileEnv: string;
  memoryBase: number;
};
const COPY_IMPORT = CONTRACT.copyImport;

/** the asc flags that go with the transform (the texts' region lies below the memory base) */
export function textsAscFlags(): string[] {
  return ["--transform", path.join(__dirname, "texts-transform.mjs"), "--memoryBase", String(CONTRACT.memoryBase)];
}

export const TEXTS_FILE_ENV = CONTRACT.textsFileEnv;

interface Binaryen {
  readBinary(bytes: Uint8Array): BinaryenModule;
  getFunctionInfo(f: number): { name: string; module: string; base: string };
  createType(types: number[]): number;
  i32: number;
  none: number;
  Features: { All: number };
}
interface BinaryenModule {
  getNumFunctions(): number;
  getFunctionByIndex(i: number): number;
  removeFunction(name: string): void;
  addFunction(name: string, params: number, results: number, vars: number[], body: number): number;
  local: { get(index: number, type: number): number };
  memory: { init(segment: string, dest: number, offset: number, size: number): number };
  getNumDataSegments(): number;
  getDataSegmentByIndex(i: number): number;
  getDataSegmentInfo(segment: number): { name: string; passive: boolean };
  setFeatures(features: number): void;
  validate(): number;
  runPasses(passes: string[]): void;
  emitBinary(): Uint8Array;
  dispose(): void;
}

let binaryenPromise: Promise<Binaryen> | undefined;
function loadBinaryen(): Promise<Binaryen> {
  // ESM only: a dynamic import that tsx's CommonJS transform leaves alone
  binaryenPromise ??= (new Function("m", "return import(m)") as (m: string) => Promise<{ default: Binaryen }>)(
    "binaryen",
  ).then((m) => m.default);
  return binaryenPromise;
}

const DATA_SECTION = 11;
const DATA_COUNT_SECTION = 12;

/** `wasm` with `data` appended as one more (passive) data segment, the data count raised to match */
export function appendPassiveSegment(wasm: Uint8Array, data: Uint8Array): Buffer {
  const bytes = Buffer.from(wasm);
  const sections = listSections(bytes);
  const dataSection = sections.find((s) => s.id === DATA_SECTION);
  if (!dataSection || !sections.some((s) => s.id === DATA_COUNT_SECTION)) {
    throw new Error("texts: the module has no data count or data section to extend");
  }
  const pos = { p: dataSection.payloadOffset };
  const count = readU32(bytes, pos);
  const existing = bytes.subarray(pos.p, dataSection.payloadOffset + dataSection.size);
  const passive = Buffer.concat([encodeU32(1), encodeU32(data.length), Buffer.from(data)]);
  const payload = Buffer.concat([encodeU32(count + 1), existing, passive]);
  return withDataSections(
    bytes,
    sections,
    Buffer.concat([Buffer.from([DATA_SECTION]), encodeU32(payload.length), payload]),
    count + 1,
  );
}

/** the internal name binaryen gives the `cachewarden.texts_copy` import, or undefined */
function copyImportName(binaryen: Binaryen, module: BinaryenModule): string | undefined {
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (info.module === COPY_IMPORT.module && info.base === COPY_IMPORT.name) return info.name;
  }
  return undefined;
}

/** Adds the texts segment and defines `cachewarden.texts_copy`; see the file comment. */
export async function attachTexts(wasm: Uint8Array, segment: Uint8Array): Promise<Uint8Array> {
  const binaryen = await loadBinaryen();
  const probe = binaryen.readBinary(wasm);
  let imported: boolean;
  try {
    imported = copyImportName(binaryen, probe) !== undefined;
  } finally {
    probe.dispose();
  }
  if (!imported) return wasm;
  const module = binaryen.readBinary(appendPassiveSegment(wasm, segment));
  try {
    module.setFeatures(binaryen.Features.All);
    const importName = copyImportName(binaryen, module)!;
    const last = module.getDataSegmentInfo(module.getDataSegmentByIndex(module.getNumDataSegments() - 1));
    module.removeFunction(importName);
    const params = binaryen.createType([binaryen.i32, binaryen.i32, binaryen.i32]);
    module.addFunction(
      importName,
      params,
      binaryen.none,
      [],
      module.memory.init(
        last.name,
        module.local.get(0, binaryen.i32),
        module.local.get(1, binaryen.i32),
        module.local.get(2, binaryen.i32),
      ),
    );
    // The module is in binaryen's hands here anyway: functions that asc's optimiser leaves identical
    // (Array<i32>#pop and Array<JsonValue>#pop, their __uget) become one. asc runs this pass before
    // its last optimisation rounds, which is what makes them identical. −80 bytes per policy.
    module.runPasses(["duplicate-function-elimination"]);
    if (!module.validate()) throw new Error("texts: binaryen rejects the module after defining cachewarden.texts_copy");
    return module.emitBinary();
  } finally {
    module.dispose();
  }
}
