// The README table reader of the Pod Security tests: each Pod-mutating policy's README states, per
// mode, what its wiring gives the pod and the Pod Security level the wired pod needs.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One row of a README's mode table: the mode, what its wiring gives the pod, the level it needs. */
export interface ReadmeMode {
  mode: string;
  /** the "What the pod gets" cell */
  gets: string;
  level: string;
}

/** The rows of the README table whose header ends with `What the pod gets | Pod Security level`; [] when it has none. */
export function readmeModes(readmeFile: string): ReadmeMode[] {
  const lines = fs.readFileSync(path.resolve(readmeFile), "utf8").split("\n");
  const header = lines.findIndex((l) => /^\| Mode \|.*\| What the pod gets \| Pod Security level \|$/.test(l));
  if (header < 0) return [];
  const out: ReadmeMode[] = [];
  for (let i = header + 2; i < lines.length && lines[i].startsWith("|"); i++) {
    const cells = lines[i].split("|").map((c) => c.trim());
    out.push({ mode: cells[1], gets: cells[cells.length - 3], level: cells[cells.length - 2].replace(/`/g, "") });
  }
  return out;
}

const volumeNamed = (pod: J, name: string): J =>
  (Array.isArray(pod?.spec?.volumes) ? pod.spec.volumes : []).find((v: J) => v?.name === name);

/**
 * Whether the mutation `before` → `after` gave the pod what the mode's "What the pod gets" cell
 * names: `spec.hostIPC: true`, or a volume `<name>` of a source (`hostPath`, `emptyDir`, …).
 */
export function wiredInMode(mode: ReadmeMode, before: J, after: J): boolean {
  if (/`spec\.hostIPC: true`/.test(mode.gets)) return after?.spec?.hostIPC === true && before?.spec?.hostIPC !== true;
  const m = mode.gets.match(/volume `([^`]+)` `([A-Za-z]+):/);
  // a mode whose wiring adds nothing Pod Security checks leaves the pod's own level
  if (!m) return false;
  const added = volumeNamed(after, m[1]);
  return !volumeNamed(before, m[1]) && added !== undefined && added[m[2]] !== undefined;
}

/** The fragment of the API server's `baseline` refusal that names what the mode adds. */
export function baselineRefusalOf(mode: ReadmeMode): RegExp {
  if (/`spec\.hostIPC: true`/.test(mode.gets)) return /host namespaces \(hostIPC=true\)/;
  const m = mode.gets.match(/volume `([^`]+)`/);
  return new RegExp(`hostPath volumes \\(volume "${m![1]}"\\)`);
}

/** The policy's README table of modes; fails when the README has none. */
export function readmeModesOf(policyDir: string): ReadmeMode[] {
  const modes = readmeModes(path.join(policyDir, "README.md"));
  assert.ok(
    modes.length > 0,
    `${path.basename(policyDir)}/README.md has no "| Mode | … | What the pod gets | Pod Security level |" table`,
  );
  return modes;
}
