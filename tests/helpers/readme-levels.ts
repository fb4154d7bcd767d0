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
