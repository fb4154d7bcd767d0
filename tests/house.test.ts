// The house reads in one walk (docs/architecture.md): the files of `assembly/json/` and of
// `tools/host/` import each other in one direction only (a circle, type-only imports included,
// fails), and no source file under `assembly/` or `tools/` grows past 600 lines unless
// docs/decisions.md#files-over-600-lines gives its reason (a listed file that shrank below the
// bound fails too, so the list stays true).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const MAX_LINES = 600;

/** Relative `from "./x"` imports (and re-exports) of a TypeScript text, as file paths in `dir`. */
export function localImports(text: string, dir: string, files: Set<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gms)) {
    const target = path.posix.normalize(path.posix.join(dir, m[1])) + ".ts";
    if (files.has(target)) out.push(target);
  }
  return out;
}

/** The import circles of a graph (file → files it imports), each as a path that ends where it began. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string): void => {
    state.set(f, "open");
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === "open") circles.push([...stack.slice(stack.indexOf(g)), g]);
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return circles;
}

function folderGraph(folder: string): Map<string, string[]> {
  const names = fs.readdirSync(path.join(ROOT, folder)).filter((n) => n.endsWith(".ts"));
  const files = new Set(names.map((n) => `${folder}/${n}`));
  const graph = new Map<string, string[]>();
  for (const f of files) graph.set(f, localImports(fs.readFileSync(path.join(ROOT, f), "utf8"), folder, files));
  return graph;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory() && e.name !== "__tests__") out.push(...sourceFiles(rel));
    else if (e.isFile() && /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

/** The files docs/decisions.md lets grow past the bound: the rows of its "Files over 600 lines" table. */
function allowedLongFiles(): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, "docs", "decisions.md"), "utf8");
  const section = text.split(/\n## /).find((s) => s.startsWith("Files over 600 lines"));
  assert.ok(section, 'docs/decisions.md has a "## Files over 600 lines" section');
  const out = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)) out.set(m[1], m[2]);
  return out;
}

describe("the house", () => {
  test("the circle finder finds a circle through a type import and none in a line", () => {
    const files = new Set(["d/a.ts", "d/b.ts", "d/c.ts"]);
    const a = localImports('import { x } from "./b";\nimport type {\n  Y,\n} from "./c";\n', "d", files);
    assert.deepEqual(a, ["d/b.ts", "d/c.ts"]);
    assert.deepEqual(localImports('export { z } from "./a";', "d", files), ["d/a.ts"]);
    assert.deepEqual(
      importCircles(
        new Map([
          ["d/a.ts", ["d/b.ts"]],
          ["d/b.ts", ["d/c.ts"]],
          ["d/c.ts", ["d/a.ts"]],
        ]),
      ),
      [["d/a.ts", "d/b.ts", "d/c.ts", "d/a.ts"]],
    );
    assert.deepEqual(
      importCircles(
        new Map([
          ["d/a.ts", ["d/b.ts"]],
          ["d/b.ts", ["d/c.ts"]],
          ["d/c.ts", []],
        ]),
      ),
      [],
    );
  });

  for (const folder of ["assembly/json", "tools/host"]) {
    test(`${folder}: no import circle`, () => {
      assert.deepEqual(importCircles(folderGraph(folder)), [], `${folder} imports in one direction`);
    });
  }

  test(`no file under assembly/ or tools/ over ${MAX_LINES} lines without a written reason`, () => {
    const allowed = allowedLongFiles();
    const long = new Map<string, number>();
    for (const f of [...sourceFiles("assembly"), ...sourceFiles("tools")]) {
      const lines = fs.readFileSync(path.join(ROOT, f), "utf8").split("\n").length - 1;
      if (lines > MAX_LINES) long.set(f, lines);
    }
    const unexplained = [...long.keys()].filter((f) => !allowed.has(f));
    assert.deepEqual(unexplained, [], `files over ${MAX_LINES} lines: ${[...long].map(([f, n]) => `${f} (${n})`)}`);
    const stale = [...allowed.keys()].filter((f) => !long.has(f));
    assert.deepEqual(stale, [], "files docs/decisions.md lists that are no longer that long");
  });
});
