// Words for how a run met the wire, from its trace: whether its connection was warm (the warm-up of the
// same command and mode before t0) or cold, and the kernel's TCP figures for its socket (ss, before and
// after) set beside what the client did — commands vs the client's write() calls vs TCP data segments
// vs round trips, each labelled with who counted it. Over repeats each count is median [min–max].
// Pure, unit-tested.
import { spreadOver } from '../../../trace/derive/repeat-stats.ts';
import { spreadOf } from '../../../trace/format/sweep-format.ts';
import type { RunInfo, TraceDocument } from '../../../trace/format/trace-format.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { formatCount, formatUs } from './number-format.ts';
import { spreadLine } from './spread-text.ts';

/** "warm: 10 warm-up commands before t0, 1.23 ms" or "cold connection: no warm-up". */
export function warmupText(run: RunInfo): string {
  if (!run.warmup) return 'cold connection: no warm-up';
  const { commands, durationUs } = run.warmup;
  return `warm: ${formatCount(commands)} warm-up command${commands === 1 ? '' : 's'} before t0, ${formatUs(durationUs)}`;
}

/** What the warm-up (or its absence) means, for the label's tooltip. */
export function warmupNote(run: RunInfo): string {
  if (!run.warmup) return 'No warm-up before t0: the run’s first command pays the connection’s first-call costs (a version-1 trace was always cold).';
  const note = 'Before t0 the run’s own connection ran the same command in the same mode on throw-away keys (deleted after), so the run does not pay first-call costs.';
  const tail = run.warmup.tail;
  return tail
    ? `${note} Its last ${tail.roundTrips} round trips (${formatCount(tail.commands)} commands, the run command’s twin) ran right before t0, every probe already attached, so nothing sat idle before the first command; they are not in the INFO counts.`
    : note;
}

/** One figure of the line, with who counted it. */
export interface WirePart {
  text: string;
  source: 'client socket' | 'kernel (ss)' | null;
}

export type KernelTcpLine = { parts: WirePart[]; detail: string } | { unavailable: string };

type KernelFigures = Exclude<NonNullable<TraceDocument['kernelTcp']>, { unavailable: string }>;

/** "1 round trip", "10 round trips", "10 [9–11] round trips". */
const counted = (text: string, one: string, many: string) => `${text} ${text === '1' ? one : many}`;

/**
 * "10,000 commands · 1 write() · 7 TCP segments out (6 in, 0 retransmits) · 1 round trip", each part with
 * its source; null when the run did not ask for the kernel's figures (or predates them); the reason when
 * ss gave none.
 */
export function kernelTcpLine(repeats: readonly TraceDocument[]): KernelTcpLine | null {
  const kernel = repeats.map((d) => d.kernelTcp);
  if (repeats.length === 0 || kernel.some((k) => k === null)) return null;
  const figures: KernelFigures[] = [];
  for (const k of kernel) {
    if ('unavailable' in k!) return { unavailable: k.unavailable };
    figures.push(k!);
  }
  const over = (pick: (k: KernelFigures) => number) => spreadLine(spreadOf(figures.map(pick)), formatCount);
  const { n } = repeats[0]!.run;
  return {
    parts: [
      { text: counted(formatCount(n), 'command', 'commands'), source: null },
      { text: `${spreadLine(spreadOver(repeats, (d) => d.counts.client.writes), formatCount)} write()`, source: 'client socket' },
      {
        text: `${counted(over((k) => k.dataSegmentsOut), 'TCP segment', 'TCP segments')} out (${over((k) => k.dataSegmentsIn)} in, ${counted(over((k) => k.retransmits), 'retransmit', 'retransmits')})`,
        source: 'kernel (ss)',
      },
      { text: counted(spreadLine(spreadOver(repeats, roundTripsWaited), formatCount), 'round trip', 'round trips'), source: 'client socket' },
    ],
    detail:
      `Segments carrying data. All segments, ACKs included: ${over((k) => k.segmentsOut)} out, ${over((k) => k.segmentsIn)} in; ` +
      `payload bytes acknowledged by Redis ${over((k) => k.bytesAcked)}, received ${over((k) => k.bytesReceived)}.`,
  };
}
