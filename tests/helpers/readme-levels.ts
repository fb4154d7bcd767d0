// The README table reader the injectors' pod-security tests share: each policy README states, per
// mode, the Pod Security level the pods it wires meet.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

/** Mode → Pod Security level from the README table whose header ends with `Pod Security level`. */
export function readmeModeLevels(readmeFile: string): Map<string, string> {
  const text = fs.readFileSync(path.resolve(readmeFile), "utf8");
  const lines = text.split("\n");
  const header = lines.findIndex((l) => /^\| Mode \|.*\| Pod Security level \|$/.test(l));
  assert.ok(header >= 0, `${readmeFile} has a "| Mode | … | Pod Security level |" table`);
  const levels = new Map<string, string>();
  for (let i = header + 2; i < lines.length && lines[i].startsWith("|"); i++) {
    const cells = lines[i].split("|").map((c) => c.trim());
    levels.set(cells[1], cells[cells.length - 2].replace(/`/g, ""));
  }
  return levels;
}

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
  assert.ok(
    m,
    `README mode "${mode.mode}": "What the pod gets" names neither spec.hostIPC nor a volume and its source`,
  );
  const added = volumeNamed(after, m[1]);
  return !volumeNamed(before, m[1]) && added !== undefined && added[m[2]] !== undefined;
}

/** The fragment of the API server's `baseline` refusal that names what the mode adds. */
export function baselineRefusalOf(mode: ReadmeMode): RegExp {
  if (/`spec\.hostIPC: true`/.test(mode.gets)) return /host namespaces \(hostIPC=true\)/;
  const m = mode.gets.match(/volume `([^`]+)`/);
  return new RegExp(`hostPath volumes \\(volume "${m![1]}"\\)`);
}
