// The repository documents itself: no tracked file cites a document outside it, and every
// in-repo citation resolves. Checked on every tracked text file (git ls-files):
//   - no path that leaves the repository (the parent folder's specifications, an absolute path of
//     this machine) and no section-sign number (in-repo documents are cited by anchor,
//     docs/glossary.md#d3);
//   - every `*.md` path named in a file exists, relative to that file or to the repository root,
//     and its `#anchor`, if any, exists in it;
//   - every relative markdown link in a `.md` file stays inside the repository and resolves to a
//     tracked file or folder, with its anchor;
//   - every `#anchor` in a policy's `test_data/cases.yml` `covers` exists in docs/policies/<name>.md.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as yaml from "js-yaml";

const ROOT = path.resolve(__dirname, "..");

/** The repository as the checks see it: tracked paths (posix, relative) and their text. */
export interface Tree {
  files: Map<string, string>;
  /** folders of generated output (from .gitignore): a path there is named, not cited */
  generated?: string[];
}

const BINARY = /\.(wasm|png|jpg|gif|ico|gz|tgz|zip)$/;
// The lockfile lists registry URLs and hashes only.
const SKIPPED = new Set(["package-lock.json"]);
// This file's own fixtures name documents that do not exist, on purpose; it is still held to the
// outside-the-repository rule like every other file.
const NAMES_MISSING_DOCUMENTS = new Set(["tests/self-contained.test.ts"]);

function trackedTree(): Tree {
  const list = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  const files = new Map<string, string>();
  for (const rel of list) {
    if (BINARY.test(rel) || SKIPPED.has(rel)) continue;
    const abs = path.join(ROOT, rel);
    if (!fs.existsSync(abs)) continue; // deleted in the work tree, not yet committed
    files.set(rel, fs.readFileSync(abs, "utf8"));
  }
  const ignore = files.get(".gitignore") ?? "";
  const generated = ignore
    .split("\n")
    .map((l) => l.trim().replace(/^\//, ""))
    .filter((l) => /^[\w.-]+\/$/.test(l));
  return { files, generated };
}

function isDirectory(tree: Tree, rel: string): boolean {
  const prefix = rel.endsWith("/") ? rel : rel + "/";
  for (const f of tree.files.keys()) if (f.startsWith(prefix)) return true;
  return false;
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Anchors a markdown document offers: heading slugs (numbered like GitHub's) and `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

// What a citation of something outside the repository looks like. The names are assembled from
// parts, so this file (which is checked like every other) never spells one out.
const PARENT_SHARED = ["..", "shared"].join("/");
const SPEC_FOLDER = ["shared", "spec"].join("/");
const MACHINE_ROOT = "/" + "work" + "/";
const SECTION_SIGN = "\u00a7";
const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const OUTSIDE = [
  { re: new RegExp(`${escapeRe(PARENT_SHARED)}(?![\\w-])`), what: "a path outside the repository (its parent folder)" },
  { re: new RegExp(`\\b${escapeRe(SPEC_FOLDER)}\\b`), what: "the specification folder outside the repository" },
  { re: new RegExp(`(^|[\\s"'\`(=:])${escapeRe(MACHINE_ROOT)}`), what: "an absolute path of this machine" },
  {
    re: new RegExp(SECTION_SIGN),
    what: "a section-sign number of a document outside the repository (cite an in-repo anchor)",
  },
];

/** `*.md` paths named in text, with an optional anchor; URLs excluded. */
const MD_PATH = /(?<![\w./:-])((?:\.{1,2}\/)*[\w-][\w./-]*\.md)(#[\w-]+)?/g;
/** Markdown inline links `[text](target)`. */
const MD_LINK = /\]\(([^)\s]+)\)/g;

/** The comment part of a source line: after `//`, or the whole line for `*`, `/*` and `#` lines. */
function commentOf(line: string): string {
  const t = line.trimStart();
  if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("#")) return line;
  const at = line.search(/(^|[^:])\/\//);
  return at < 0 ? "" : line.slice(at);
}

function resolveIn(tree: Tree, fromFile: string, target: string): string | null {
  if ((tree.generated ?? []).some((g) => target.startsWith(g))) return target;
  const candidates = [
    path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), target)),
    path.posix.normalize(target),
  ];
  for (const c of candidates) {
    if (c.startsWith("..")) continue;
    if (tree.files.has(c) || isDirectory(tree, c)) return c;
  }
  return null;
}

function anchorProblem(tree: Tree, file: string, anchor: string): string | null {
  const text = tree.files.get(file);
  if (text === undefined || !file.endsWith(".md")) return null;
  return anchorsOf(text).has(anchor) ? null : `no anchor #${anchor} in ${file}`;
}

/** Every problem in the tree, as `<file>:<line>: <what>`. */
export function citationProblems(tree: Tree): string[] {
  const problems: string[] = [];
  for (const [file, text] of tree.files) {
    const lines = text.split("\n");
    let fenced = false;
    lines.forEach((line, i) => {
      const at = `${file}:${i + 1}`;
      for (const o of OUTSIDE) if (o.re.test(line)) problems.push(`${at}: ${o.what}`);
      if (NAMES_MISSING_DOCUMENTS.has(file)) return;
      const isMarkdown = file.endsWith(".md");
      // in markdown, link texts are labels and link targets are checked below; elsewhere only
      // comments cite (code may name files it writes, such as bench.md)
      const prose = isMarkdown ? line.replace(/\[[^\]]*\]\([^)\s]*\)/g, " ") : commentOf(line);
      for (const m of prose.matchAll(MD_PATH)) {
        if (
          /^https?:/.test(
            prose
              .slice(Math.max(0, m.index! - 200), m.index!)
              .split(/\s/)
              .pop() ?? "",
          )
        )
          continue;
        const resolved = resolveIn(tree, file, m[1]);
        if (resolved === null) {
          problems.push(`${at}: ${m[1]} is not a file of the repository`);
          continue;
        }
        if (m[2]) {
          const p = anchorProblem(tree, resolved, m[2].slice(1));
          if (p) problems.push(`${at}: ${p}`);
        }
      }
      if (!isMarkdown) return;
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced) return; // code blocks hold examples, not links
      // code spans hold regexes and examples, not links
      for (const m of line.replace(/`[^`]*`/g, " ").matchAll(MD_LINK)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [p, anchor] = target.split("#", 2);
        let resolved = file;
        if (p.length > 0) {
          const joined = path.posix.normalize(path.posix.join(path.posix.dirname(file), p));
          if (joined.startsWith("..")) {
            problems.push(`${at}: link ${target} leaves the repository`);
            continue;
          }
          if (!tree.files.has(joined) && !isDirectory(tree, joined)) {
            problems.push(`${at}: link ${target} points to a missing file`);
            continue;
          }
          resolved = joined;
        }
        if (anchor) {
          const a = anchorProblem(tree, resolved, anchor);
          if (a) problems.push(`${at}: link ${target}: ${a}`);
        }
      }
    });
  }
  for (const [file, text] of tree.files) {
    const m = /^policies\/([^/]+)\/test_data\/cases\.yml$/.exec(file);
    if (!m) continue;
    const doc = `docs/policies/${m[1]}.md`;
    const cases = (yaml.load(text) ?? []) as Array<{ name?: string; covers?: unknown }>;
    for (const c of cases) {
      if (c.covers === undefined) continue;
      const covers = Array.isArray(c.covers) ? c.covers.join(", ") : String(c.covers);
      for (const a of covers.matchAll(/#([\w-]+)/g)) {
        const p = tree.files.has(doc) ? anchorProblem(tree, doc, a[1]) : `${doc} does not exist`;
        if (p) problems.push(`${file}: case ${c.name} covers #${a[1]}: ${p}`);
      }
    }
  }
  return problems;
}

describe("the repository is self-contained", () => {
  test("no tracked file cites a document outside the repository or a missing file or anchor", () => {
    const problems = citationProblems(trackedTree());
    assert.deepEqual(problems, [], problems.join("\n"));
  });
});

describe("the citation checks catch", () => {
  const base = (): Tree => ({
    files: new Map([
      ["docs/a.md", '# Title\n\n## Fresh instances\n\n<a id="d3"></a>D3\n'],
      ["src/x.ts", "// see docs/a.md#fresh-instances and docs/a.md#d3\n"],
      ["policies/p/test_data/cases.yml", '- name: one\n  covers: "#d3"\n'],
      ["docs/policies/p.md", '<a id="d3"></a>\n'],
    ]),
  });
  const withFile = (rel: string, text: string): Tree => {
    const t = base();
    t.files.set(rel, text);
    return t;
  };

  test("a clean tree has no problems", () => {
    assert.deepEqual(citationProblems(base()), []);
  });
  test("a comment citing the specification folder beside the repository", () => {
    const out = citationProblems(withFile("src/y.ts", `// as ${PARENT_SHARED}/spec/toolchain.md says\n`)).join("\n");
    assert.match(out, /src\/y\.ts:1: a path outside the repository/);
    assert.match(out, /src\/y\.ts:1: the specification folder outside the repository/);
  });
  test("a section-sign number", () => {
    assert.match(
      citationProblems(withFile("src/y.ts", `// contract ${SECTION_SIGN}7.2\n`)).join("\n"),
      /src\/y\.ts:1: a section-sign number/,
    );
  });
  test("an absolute path of this machine", () => {
    assert.match(
      citationProblems(withFile("tests/y.ts", `const p = "${MACHINE_ROOT}main/x";\n`)).join("\n"),
      /an absolute path of this machine/,
    );
  });
  test("a .md file the repository does not have", () => {
    assert.match(
      citationProblems(withFile("src/y.ts", "// lmcache-injectors.md D3\n")).join("\n"),
      /lmcache-injectors\.md is not a file of the repository/,
    );
  });
  test("a missing anchor in a cited document", () => {
    assert.match(
      citationProblems(withFile("src/y.ts", "// docs/a.md#d4\n")).join("\n"),
      /no anchor #d4 in docs\/a\.md/,
    );
  });
  test("a markdown link leaving the repository, to a missing file, or to a missing anchor", () => {
    const out = citationProblems(
      withFile(
        "docs/b.md",
        `# B\n[s](../${PARENT_SHARED}/spec/README.md) [m](missing.md) [x](a.md#nope) [ok](a.md#fresh-instances) [self](#b)\n`,
      ),
    ).join("\n");
    assert.match(out, /link \.\.\/\.\.\/\S+\/README\.md leaves the repository/);
    assert.match(out, /link missing\.md points to a missing file/);
    assert.match(out, /link a\.md#nope: no anchor #nope/);
    assert.doesNotMatch(out, /fresh-instances|#b\b/);
  });
  test("a covers anchor the policy's document lacks", () => {
    assert.match(
      citationProblems(withFile("policies/p/test_data/cases.yml", '- name: one\n  covers: "#d3, #step-9"\n')).join(
        "\n",
      ),
      /case one covers #step-9: no anchor #step-9 in docs\/policies\/p\.md/,
    );
  });
  test("heading slugs follow GitHub's rules", () => {
    assert.equal(slug("The engine's `spec.injection`"), "the-engines-specinjection");
    assert.deepEqual([...anchorsOf("## A b\n## A b\n```\n## not a heading\n```\n")], ["a-b", "a-b-1"]);
  });
});
