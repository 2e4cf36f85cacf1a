// The compare table's rows: for two to six runs of one workload side by side — whatever
// their modes — each run's time, ops/s, client writes, TCP data segments, Redis reads, round trips and
// where its time went (trace/derive/run-phases.ts). Over repeats every figure is the median; the phases are the
// shown repeat's. Each column says who measured it; when the runs were made by different client libraries
// (ioredis and node-redis, both auto-pipelined), each row names its library. Each row is set against
// the fastest one by the one verdict rule (trace/derive/paired-verdict.ts: paired by round, the median
// ratio with its 95 % interval), and the fastest is marked only when every such interval excludes 1.
// Pure, unit-tested.
import { isCertain } from '../../../trace/derive/paired-verdict.ts';
import { spreadOver } from '../../../trace/derive/repeat-stats.ts';
import { compareRepeats } from '../../../trace/derive/run-pairs.ts';
import { versusText } from '../../../trace/derive/verdict-words.ts';
import { runPhases, type Phase } from '../../../trace/derive/run-phases.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { RunGroup } from '../model/run-groups.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { incompleteMark, incompleteUntil } from './incomplete-text.ts';
import { clusterVariantLabels, withVariant } from './cluster-variant-label.ts';
import { runModeLabel, runTitle } from './run-label.ts';
import { infoMeasured } from '../model/info-measured.ts';

export interface CompareRow {
  key: string;
  /** "MULTI/EXEC transaction"-like label of the mode, and the workload title. */
  mode: string;
  title: string;
  /** The client library ("node-redis 5.x"), when the rows do not all share one; else null. */
  client: string | null;
  repeats: number;
  durationUs: number;
  opsPerSec: number;
  clientWrites: number;
  /** null when the run has no kernel figures (ss off or unavailable). */
  tcpSegmentsOut: number | null;
  /** null when not measured (a run cut short: INFO is read only after a whole run). */
  redisReads: number | null;
  roundTrips: number;
  /** The shown repeat's phases, and its t0 → call returned. */
  phases: Phase[];
  doneUs: number;
  /** The lowest median time, and certain against every other whole run (each 95 % interval excludes 1). */
  fastest: boolean;
  /** This run against the fastest one, paired by round: "9.9× slower [95 % 9.3–10×], 6 of 6 pairs"; null for the fastest itself, or a run cut short. */
  versusFastest: string | null;
  /** v4: the mark of a run the screen holds only part of (format/incomplete-text.ts); null for a whole run. Never the fastest. */
  incomplete: string | null;
  /** v4: what the duration of a partial run is measured up to ("so far", "until cancelled"); null for a whole run. */
  measuredUntil: string | null;
}

export const COMPARE_SOURCES = {
  durationUs: 'client socket',
  versusFastest: 'time ÷ the fastest’s, paired by round; 95 % interval',
  opsPerSec: 'client socket, operations ÷ time',
  clientWrites: 'client socket',
  tcpSegmentsOut: 'kernel (ss)',
  redisReads: 'Redis INFO',
  roundTrips: 'client socket · waits before more could be sent',
  phases: 'client socket + Redis INFO',
} as const;

function dataSegmentsOut(doc: TraceDocument): number | null {
  const k = doc.kernelTcp;
  return k && !('unavailable' in k) ? k.dataSegmentsOut : null;
}

/** One row per group, in the groups' order; `shown` is the repeat each panel shows. */
export function compareRows(groups: readonly RunGroup[], shown: readonly TraceDocument[]): CompareRow[] {
  const clientOf = (i: number) => (shown[i] ?? groups[i]!.median).recorder.client;
  const clientsDiffer = new Set(groups.map((_, i) => clientOf(i))).size > 1;
  const variants = clusterVariantLabels(groups.map((g) => g.median));
  const rows = groups.map((g, i) => {
    const doc = shown[i] ?? g.median;
    const median = (f: (d: TraceDocument) => number) => spreadOver(g.repeats, f).median;
    const segments = g.repeats.every((d) => dataSegmentsOut(d) !== null) ? median((d) => dataSegmentsOut(d)!) : null;
    return {
      key: g.key,
      mode: withVariant(runModeLabel(doc.run), variants[i]),
      title: runTitle(doc.run),
      client: clientsDiffer ? doc.recorder.client : null,
      repeats: g.repeats.length,
      durationUs: median((d) => d.totals.durationUs),
      opsPerSec: median((d) => d.totals.opsPerSec),
      clientWrites: median((d) => d.counts.client.writes),
      tcpSegmentsOut: segments,
      redisReads: !g.repeats.every(infoMeasured) ? null : median((d) => d.counts.server.reads),
      roundTrips: median(roundTripsWaited),
      phases: runPhases(doc),
      doneUs: doc.totals.doneUs,
      fastest: false,
      versusFastest: null as string | null,
      incomplete: incompleteMark(doc),
      measuredUntil: incompleteUntil(doc),
    };
  });
  const whole = rows.flatMap((r, i) => (r.incomplete === null ? [i] : []));
  if (whole.length < 2) return rows;
  const best = whole.reduce((b, i) => (rows[i]!.durationUs < rows[b]!.durationUs ? i : b), whole[0]!);
  const verdicts = whole.filter((i) => i !== best).map((i) => {
    const v = compareRepeats(groups[i]!.repeats, groups[best]!.repeats);
    rows[i]!.versusFastest = versusText(v);
    return v;
  });
  rows[best]!.fastest = verdicts.every((v) => isCertain(v) && v.outcome === 'a-slower');
  return rows;
}

/** Whether the runs did the same work (command, operations, value size): else the table says so. */
export function sameWorkload(docs: readonly TraceDocument[]): boolean {
  const key = (d: TraceDocument) => `${d.run.command}|${d.run.operations}|${d.run.valueBytes}`;
  return docs.every((d) => key(d) === key(docs[0]!));
}
