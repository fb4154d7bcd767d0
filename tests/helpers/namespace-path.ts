// The README's per-namespace path, end to end, as one function: `cachewarden namespace` writes a
// kustomization for one namespace from the shipped example settings, the folder is copied outside
// the repository, and `kubectl kustomize` renders the copy. tests/namespace.test.ts checks what it
// returns offline; the suite's real API server can apply the same objects with --dry-run=server.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as yaml from "js-yaml";
import { writeNamespace } from "../../tools/publish/namespace";
import { ROOT } from "./host-guests";

export const EXAMPLE_SETTINGS = path.join(ROOT, "deploy", "namespace-settings.example.yaml");

export interface RenderedNamespace {
  /** where the command wrote the kustomization */
  written: string;
  /** the copy outside the repository that was rendered */
  copy: string;
  objects: Record<string, unknown>[];
}

/** Writes the kustomization for `namespace`, copies it out of the repo and renders the copy. */
export function renderNamespaceExample(namespace = "team-a", settings = EXAMPLE_SETTINGS): RenderedNamespace {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-namespace-"));
  const written = path.join(tmp, "written");
  writeNamespace(namespace, settings, written);
  const copy = path.join(tmp, "elsewhere", "copied");
  fs.cpSync(written, copy, { recursive: true });
  fs.rmSync(written, { recursive: true });
  const r = spawnSync("kubectl", ["kustomize", copy], { encoding: "utf8", cwd: tmp });
  assert.equal(r.status, 0, `kubectl kustomize ${copy}: ${r.stderr}`);
  return { written, copy, objects: yaml.loadAll(r.stdout) as Record<string, unknown>[] };
}
