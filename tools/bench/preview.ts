// Scale check of `cachewarden preview`: a generated dump of N objects (10,000 by default) shaped
// like a cluster running the injectors, previewed with the built policies on worker threads. The
// time covers reading and parsing the dump file, every evaluation and the report.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { renderText } from "../preview/report";
import { preview } from "../preview/run";
import { listYaml, scaleObjects } from "../preview/sample-dump";

export const PREVIEW_LIMIT_SECONDS = 60;

export interface PreviewBench {
  objects: number;
  evaluations: number;
  workers: number;
  dumpBytes: number;
  seconds: number;
  limitSeconds: number;
  pass: boolean;
  totals: Record<string, Record<string, number>>;
}

export async function runPreviewBench(
  objects = 10000,
  log: (line: string) => void = () => undefined,
): Promise<PreviewBench> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cachewarden-preview-bench-"));
  const file = path.join(dir, "dump.yaml");
  try {
    fs.writeFileSync(file, listYaml(scaleObjects(objects)));
    const workers = os.availableParallelism();
    const started = performance.now();
    const report = await preview([file], { workers, progress: log });
    renderText(report);
    const seconds = (performance.now() - started) / 1000;
    return {
      objects: report.objects,
      evaluations: report.evaluations,
      workers,
      dumpBytes: fs.statSync(file).size,
      seconds,
      limitSeconds: PREVIEW_LIMIT_SECONDS,
      pass: seconds <= PREVIEW_LIMIT_SECONDS,
      totals: report.totals.policies,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function renderPreviewMarkdown(r: PreviewBench): string {
  return [
    "| Objects | Dump | Evaluations | Workers | Time | Limit | Result |",
    "|---|---|---|---|---|---|---|",
    `| ${r.objects} | ${(r.dumpBytes / 1048576).toFixed(2)} MiB | ${r.evaluations} | ${r.workers} | ${r.seconds.toFixed(1)} s | ≤ ${r.limitSeconds} s | ${r.pass ? "PASS" : "MISS"} |`,
    "",
  ].join("\n");
}
