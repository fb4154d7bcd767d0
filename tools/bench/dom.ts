// The JSON DOM micro-benchmark of `cachewarden bench`: an untouched ~10 KB request parsed and
// serialized by the probe guest (warm, interleaved with JSON.parse + JSON.stringify; and fresh),
// and the 1.5 MiB request on a fresh instance (time and linear memory).
import type { PolicyModule } from "../host/guest";
import { growPayload, vllmPodPayload } from "./fixtures";
import { WarmInstance } from "./instance";
import { collectGarbage, measureInterleaved, MeasureOptions, ratio, Stats } from "./measure";
import type { BenchReport } from "./types";

export const LARGE_REQUEST_BYTES = 1.5 * 1024 * 1024;

export const fmtUs = (s: Stats | undefined): string => (s ? `${s.medianUs.toFixed(1)} µs` : "-");

type JsonDomReport = BenchReport["jsonDom"];

/** Measures the DOM with the probe guest; `measure` is the run's timing, `largeIterations` the
 *  samples of the large request. */
export function benchJsonDom(
  probe: PolicyModule,
  measure: MeasureOptions,
  quick: boolean,
  largeIterations: number,
  log: (line: string) => void,
): { pod: Buffer; untouched: JsonDomReport["untouched"]; large: JsonDomReport["large"] } {
  log("json-dom: untouched ~10 KB request, parse + serialize vs JSON.parse + JSON.stringify");
  const pod = vllmPodPayload();
  const jsRoundTrip = (bytes: Buffer) => (): void => {
    Buffer.from(JSON.stringify(JSON.parse(bytes.toString("utf8"))), "utf8");
  };
  const untouched: BenchReport["jsonDom"]["untouched"] = { payloadBytes: pod.length, byteExact: null };
  const probeCheck = probe.call("parse_serialize", pod);
  if (!probeCheck.ok) {
    untouched.error = probeCheck.trapped ? `trap: ${probeCheck.trap}` : `guest error: ${probeCheck.error}`;
    log(`  probe failed: ${untouched.error}`);
  } else {
    untouched.byteExact = Buffer.compare(probeCheck.response!, pod) === 0;
    const warmProbe = new WarmInstance(probe.module);
    collectGarbage();
    // Each call is tens of microseconds, so this target gets many more samples than the policy
    // cases: with 200, one GC pause or frequency change moved the median by 2-5x between runs.
    const domMeasure = {
      ...measure,
      iterations: quick ? measure.iterations : Math.max(measure.iterations, 3000),
      budgetMs: quick ? measure.budgetMs : 4000,
    };
    const r = measureInterleaved(
      {
        dom: () => {
          warmProbe.call("parse_serialize", pod);
        },
        domParseOnly: () => {
          warmProbe.call("parse", pod);
        },
        js: jsRoundTrip(pod),
      },
      domMeasure,
    );
    collectGarbage();
    const fresh = measureInterleaved(
      {
        domFresh: () => {
          probe.call("parse_serialize", pod);
        },
      },
      measure,
    );
    Object.assign(untouched, {
      dom: r.dom,
      domParseOnly: r.domParseOnly,
      js: r.js,
      domFresh: fresh.domFresh,
      ratio: ratio(r.dom, r.js),
      memoryBytes: probeCheck.memoryBytes,
    });
    log(`  dom ${fmtUs(r.dom)}  js ${fmtUs(r.js)}  ratio ${untouched.ratio}x  byte-exact ${untouched.byteExact}`);
  }

  log(`json-dom: generated ${(LARGE_REQUEST_BYTES / 1048576).toFixed(1)} MiB request (fresh instance)`);
  const largePod = growPayload(pod, LARGE_REQUEST_BYTES)!;
  const large: BenchReport["jsonDom"]["large"] = { payloadBytes: largePod.length };
  collectGarbage();
  const largeCheck = probe.call("parse_serialize", largePod);
  if (!largeCheck.ok) {
    large.error = largeCheck.trapped ? `trap: ${largeCheck.trap}` : `guest error: ${largeCheck.error}`;
    log(`  probe failed: ${large.error}`);
  } else {
    large.byteExact = Buffer.compare(largeCheck.response!, largePod) === 0;
    let memoryBytes = largeCheck.memoryBytes;
    const r = measureInterleaved(
      {
        fresh: () => {
          memoryBytes = Math.max(memoryBytes, probe.call("parse_serialize", largePod).memoryBytes);
        },
        js: jsRoundTrip(largePod),
      },
      { iterations: largeIterations, warmup: 1, block: 1 },
    );
    Object.assign(large, { fresh: r.fresh, js: r.js, memoryBytes });
    log(
      `  dom ${(r.fresh.medianUs / 1000).toFixed(1)} ms, ${(memoryBytes / 1048576).toFixed(1)} MiB linear memory; js ${(r.js.medianUs / 1000).toFixed(1)} ms`,
    );
  }
  return { pod, untouched, large };
}
