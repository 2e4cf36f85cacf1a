// The app's default form pressed again and again: 10 × INCR, sequential and one pipeline, the default
// repeats ("until certain") and options, sent to the running app over its WebSocket as the page sends
// it. For each request, the verdict a user reads (trace/derive/paired-verdict.ts): the median of the
// per-round ratios sequential ÷ pipeline with its 95 % interval, and whether that interval excludes 1 in
// the pipeline's favour; how many rounds the request ran and why it stopped. Beside it, for the record,
// what the rule before it would have concluded from the same request's first 5 rounds (its default
// repeats): a faster side only when the two modes' min–max ranges were apart.
import { RunSpecSchema, type RunSpec } from '../trace/format/run-request.ts';
import { rangesOverlap, spreadOver } from '../trace/derive/repeat-stats.ts';
import { compareRepeats } from '../trace/derive/run-pairs.ts';
import type { PairedVerdict } from '../trace/derive/paired-verdict.ts';
import { verdictClause } from '../trace/derive/verdict-words.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import type { Finding } from './bench-report.ts';
import { LiveClient } from './live-client.ts';
import { spreadOf } from './side-by-side.ts';

export interface DefaultRunsOptions {
  /** Run requests, one after another. */
  requests: number;
}

/** What the page sends for its default form (web/src/state: INCR, 10, both modes); the rest are the schema's defaults. */
export const DEFAULT_FORM_SPEC: RunSpec = RunSpecSchema.parse({
  command: 'INCR', n: 10, valueBytes: 0, rttMs: 0, jitterMs: 0, engine: 'ioredis', serverTrace: false, modes: ['sequential', 'pipeline'],
});

export interface RequestVerdict {
  /** Sequential ÷ pipeline, paired by round: the median ratio, its 95 % interval, the outcome. */
  paired: PairedVerdict;
  /** The rule before, on the first OLD_DEFAULT_REPEATS rounds: the modes' min–max ranges apart (then it named a faster side). */
  rangesApart: boolean;
  /** Rounds the request ran (pairs). */
  rounds: number;
}

/** The default repeats before "until certain". */
export const OLD_DEFAULT_REPEATS = 5;

export function verdictOf(docs: readonly TraceDocument[]): RequestVerdict {
  const of = (mode: string) => docs.filter((d) => d.run.mode === mode && !d.run.memoryRepeat); // a memory repeat's time is not compared
  const sequential = of('sequential');
  const pipeline = of('pipeline');
  if (sequential.length === 0 || sequential.length !== pipeline.length) throw new Error(`Expected as many sequential as pipeline runs, got ${sequential.length} and ${pipeline.length}`);
  const total = (runs: TraceDocument[]) => spreadOver(runs.filter((d) => d.run.repeat < OLD_DEFAULT_REPEATS), (d) => d.totals.durationUs);
  return { paired: compareRepeats(sequential, pipeline), rangesApart: !rangesOverlap(total(sequential), total(pipeline)), rounds: sequential.length };
}

/** The pipeline named faster with a 95 % interval that excludes 1. */
export const pipelineCertain = (v: RequestVerdict): boolean => v.paired.outcome === 'a-slower';

export async function defaultRunsBench(appUrl: string, { requests }: DefaultRunsOptions, log: (line: string) => void): Promise<Finding[]> {
  const spec = DEFAULT_FORM_SPEC;
  const client = await LiveClient.connect(appUrl);
  const verdicts: RequestVerdict[] = [];
  try {
    for (let request = 1; request <= requests; request++) {
      const verdict = verdictOf(await client.run(spec));
      verdicts.push(verdict);
      log(`  request ${String(request).padStart(2)}: ${verdictClause(verdict.paired, 'sequential', 'the pipeline')}; ` +
        `${verdict.rounds} rounds, stopped: ${client.lastDone.stop ?? '?'}; the rule before, on its first ${OLD_DEFAULT_REPEATS}: ${verdict.rangesApart ? 'ranges apart' : 'ranges overlap ("within noise")'}`);
    }
  } finally {
    client.close();
  }
  const certain = verdicts.filter(pipelineCertain).length;
  const ratios = spreadOf(verdicts.map((v) => v.paired.ratio));
  const rounds = spreadOf(verdicts.map((v) => v.rounds));
  const apart = verdicts.filter((v) => v.rangesApart).length;
  log(`  pipeline faster with a 95 % interval excluding 1 in ${certain} of ${requests}; median ratio ${ratios.median.toFixed(2)}× [${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)}]; ` +
    `rounds ${rounds.median} [${rounds.min}–${rounds.max}]; the rule before (ranges apart, first ${OLD_DEFAULT_REPEATS} rounds) would have concluded in ${apart} of ${requests}`);
  const what = `${requests} requests of the default form (${spec.n} × ${spec.command}, sequential + pipeline, repeats ${spec.repeats}, its default probes) over the app's WebSocket`;
  const exact = (value: number) => ({ median: value, min: value, max: value });
  return [
    {
      name: `default form: 'pipeline faster' with a 95 % interval excluding 1, of ${requests} requests`,
      unit: 'count',
      spread: exact(certain),
      goal: { bound: 'at least', value: Math.ceil((19 / 20) * requests) },
      how: `${what}; per request the median of the per-round ratios sequential ÷ pipeline (totals.durationUs) with its sign-test 95 % interval (docs/verdicts.md)`,
    },
    {
      name: 'default form: sequential ÷ pipeline, median of the per-round ratios, over requests',
      unit: 'ratio',
      spread: ratios,
      goal: { bound: 'at least', value: 2.5 },
      how: `${what}; each request's median per-round ratio; the goal is on the median over requests`,
    },
    {
      name: 'default form: rounds per request (until certain)',
      unit: 'count',
      spread: rounds,
      goal: null,
      how: `${what}; checkpoints at 10, 15, 20, 30 and 40 rounds`,
    },
    {
      name: `default form: requests the rule before (min–max ranges apart, ${OLD_DEFAULT_REPEATS} rounds) would have concluded, of ${requests}`,
      unit: 'count',
      spread: exact(apart),
      goal: null,
      how: `${what}; each request's first ${OLD_DEFAULT_REPEATS} rounds (the default repeats before) judged by the rule the interval replaced`,
    },
  ];
}
