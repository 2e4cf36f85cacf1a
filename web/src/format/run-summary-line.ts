// One line of a run's measured figures, for the player's summary panel: its time, throughput, socket
// writes, round trips and Redis's reads, each with who measured it (the same sources as the app's run
// summary and compare table). Figures a run did not measure (INFO on a run cut short) are left out, not
// guessed. Pure, unit-tested.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { incompleteMark } from './incomplete-text.ts';
import { formatRate, formatUs, plural } from './number-format.ts';
import { runModeLabel, runTitle } from './run-label.ts';
import { infoMeasured } from '../model/info-measured.ts';

export interface SummaryFigure {
  /** Stable, for tests: duration, ops, writes, round-trips, redis-reads. */
  id: string;
  /** The figure with its unit: "1.23 ms", "8,100 ops/s", "1 socket write". */
  text: string;
  /** Who measured it: "client socket", "Redis INFO stats". */
  source: string;
}

export interface SummaryLine {
  /** "Sequential · 10 × INCR", plus the mark of a run cut short. */
  title: string;
  figures: SummaryFigure[];
}

export function runSummaryLine(doc: TraceDocument): SummaryLine {
  const mark = incompleteMark(doc);
  const title = `${runModeLabel(doc.run)} · ${runTitle(doc.run)}${mark ? ` · ${mark}` : ''}`;
  const figures: SummaryFigure[] = [
    { id: 'duration', text: formatUs(doc.totals.durationUs), source: 'client socket, t0 → last reply' },
    { id: 'ops', text: formatRate(doc.totals.opsPerSec), source: 'client socket' },
    { id: 'writes', text: plural(doc.counts.client.writes, 'socket write'), source: 'client socket' },
    { id: 'round-trips', text: plural(roundTripsWaited(doc), 'round trip'), source: 'client socket' },
  ];
  if (infoMeasured(doc)) {
    figures.push({
      id: 'redis-reads',
      text: plural(doc.counts.server.reads, 'Redis read', 'Redis reads'),
      source: doc.counts.server.exclusive ? 'Redis INFO stats' : 'Redis INFO stats · includes other clients',
    });
  }
  return { title, figures };
}
