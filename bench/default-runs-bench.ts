// The app's default form pressed again and again: 10 × INCR, sequential and one pipeline, the default
// repeats (each mode K times, interleaved) and options, sent to the running app over its WebSocket as
// the page sends it. For each request, the median sequential time ÷ the median pipeline time
// (totals.durationUs over the repeats, t0 to the last reply): the verdict a user reads. How often the
// pipeline came out faster, and how far that ratio moves from request to request (max ÷ min).
import { RunSpecSchema, type RunSpec } from '../trace/format/run-request.ts';
import { rangesOverlap, spreadOver } from '../trace/derive/repeat-stats.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import type { Finding } from './bench-report.ts';
import { LiveClient } from './live-client.ts';
import { spreadOf, type Spread } from './side-by-side.ts';

export interface DefaultRunsOptions {
  /** Run requests, one after another. */
  requests: number;
}

/** What the page sends for its default form (web/src/state: INCR, 10, both modes); the rest are the schema's defaults. */
export const DEFAULT_FORM_SPEC: RunSpec = RunSpecSchema.parse({
  command: 'INCR', n: 10, valueBytes: 0, rttMs: 0, jitterMs: 0, engine: 'ioredis', serverTrace: false, modes: ['sequential', 'pipeline'],
});

export interface RequestVerdict {
  /** Median sequential durationUs ÷ median pipeline durationUs. */
  ratio: number;
  /** The two modes' ranges over the repeats overlap: the app would say "within noise". */
  withinNoise: boolean;
  /** durationUs over the repeats of each mode. */
  sequential: Spread;
  pipeline: Spread;
}

export function verdictOf(docs: readonly TraceDocument[], repeats: number): RequestVerdict {
  const of = (mode: string) => {
    const runs = docs.filter((d) => d.run.mode === mode);
    if (runs.length !== repeats) throw new Error(`Expected ${repeats} ${mode} runs, got ${runs.length}`);
    return spreadOver(runs, (d) => d.totals.durationUs);
  };
  const sequential = of('sequential');
  const pipeline = of('pipeline');
  return { ratio: sequential.median / pipeline.median, withinNoise: rangesOverlap(sequential, pipeline), sequential, pipeline };
}

export async function defaultRunsBench(appUrl: string, { requests }: DefaultRunsOptions, log: (line: string) => void): Promise<Finding[]> {
  const spec = DEFAULT_FORM_SPEC;
  const client = await LiveClient.connect(appUrl);
  const verdicts: RequestVerdict[] = [];
  try {
    for (let request = 1; request <= requests; request++) {
      const verdict = verdictOf(await client.run(spec), spec.repeats);
      verdicts.push(verdict);
      const range = ({ median, min, max }: Spread) => `${median} µs [${min}–${max}]`;
      log(`  request ${String(request).padStart(2)}: sequential ${range(verdict.sequential)}, pipeline ${range(verdict.pipeline)} → ${verdict.ratio.toFixed(2)}×` +
        `${verdict.withinNoise ? ' (ranges overlap: "within noise")' : ''}`);
    }
  } finally {
    client.close();
  }
  const ratios = spreadOf(verdicts.map((v) => v.ratio));
  const faster = verdicts.filter((v) => v.ratio > 1).length;
  const spreadRatio = ratios.max / ratios.min;
  const overlapping = verdicts.filter((v) => v.withinNoise).length;
  log(`  pipeline faster in ${faster} of ${requests}; ratio ${ratios.median.toFixed(2)}× [${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)}], max ÷ min ${spreadRatio.toFixed(2)}; ` +
    `ranges overlapping in ${overlapping} of ${requests}`);
  const what = `${requests} requests of the default form (${spec.n} × ${spec.command}, sequential + pipeline, ${spec.repeats} repeats interleaved, its default probes) over the app's WebSocket`;
  const exact = (value: number) => ({ median: value, min: value, max: value });
  return [
    {
      name: `default form: requests with the pipeline faster, of ${requests}`,
      unit: 'count',
      spread: exact(faster),
      goal: { bound: 'at least', value: requests },
      how: `${what}; faster = median sequential totals.durationUs > median pipeline totals.durationUs over the repeats`,
    },
    {
      name: 'default form: sequential ÷ pipeline, spread over requests (max ÷ min)',
      unit: 'ratio',
      spread: exact(spreadRatio),
      goal: { bound: 'at most', value: 2 },
      how: `${what}; each request's median sequential ÷ median pipeline durationUs, the largest ÷ the smallest`,
    },
    {
      name: 'default form: sequential ÷ pipeline per request',
      unit: 'ratio',
      spread: ratios,
      goal: null,
      how: `${what}; each request's median sequential ÷ median pipeline durationUs`,
    },
  ];
}
