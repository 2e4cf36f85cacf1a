// Words for where a run's time went (trace/derive/run-phases.ts): each part's name on the bar, what it
// measured (the explanation shown on hover or focus) and who measured it, and the line that adds the
// parts up. Every figure is from the trace. Pure, unit-tested.
import { CLIENT_COUNT_SOURCE, type TraceDocument } from '../../../trace/format/trace-format.ts';
import type { Phase, PhaseName } from '../../../trace/derive/run-phases.ts';
import { formatUs } from './number-format.ts';

export interface PhaseText {
  /** On the bar's key: "client before first write". */
  label: string;
  /** Of the client's own parts, inside "… + 372 µs client (…)": "before first write". */
  short: string;
  /** What the part measured, shown on hover or focus. */
  explain: string;
}

export const PHASE_TEXT: Record<PhaseName, PhaseText> = {
  beforeFirstWrite: {
    label: 'client before first write',
    short: 'before first write',
    explain:
      'From t0 (the run called the client for its first command) to the socket write that carried it: the client building ' +
      'and encoding commands — for a pipeline, all of them — before its first byte left.',
  },
  awaiting: {
    label: 'bytes out, replies awaited',
    short: 'replies awaited',
    explain:
      'Time with at least one command written and its reply not yet read, less Redis’s execution time: the bytes on the way, ' +
      'both kernels, Redis reading and writing.',
  },
  redisExec: {
    label: 'Redis executing',
    short: 'Redis executing',
    explain:
      'Redis executing the run’s commands: the INFO commandstats usec delta (whole µs per command, so short commands round up), ' +
      'taken out of the awaited time (and never more than it).',
  },
  clientBetween: {
    label: 'client between a reply and its next write',
    short: 'between replies and next writes',
    explain:
      'Time with nothing in flight between the first write and the last read: the client handling a reply and writing its next ' +
      'command (each round trip of a sequential run, each pipeline of a chunked one).',
  },
  afterLastRead: {
    label: 'client after last read',
    short: 'after last read',
    explain: 'From the read that completed the last reply to when the client’s call returned: parsing the replies and resolving their promises.',
  },
};

/** Who measured a part, in words. */
export function phaseSourceText(phase: Phase): string {
  return phase.source === CLIENT_COUNT_SOURCE ? 'client socket' : 'Redis INFO commandstats';
}

/** "1.72 ms (t0 → call returned)": what the parts add up to. */
export function phasesTotalText(doc: TraceDocument): string {
  return `${formatUs(doc.totals.doneUs)} (t0 → call returned)`;
}

/** The client's own parts: before its first write, between a reply and its next write, after the last read. */
export const CLIENT_PHASES: readonly PhaseName[] = ['beforeFirstWrite', 'clientBetween', 'afterLastRead'];

/** "372 µs client (114 µs before first write + 248 µs between replies and next writes + 10 µs after last read)", or null when none took time. */
export function clientPartsText(phases: readonly Phase[]): string | null {
  const parts = phases.filter((p) => CLIENT_PHASES.includes(p.name) && p.us > 0);
  if (parts.length === 0) return null;
  const total = parts.reduce((sum, p) => sum + p.us, 0);
  return `${formatUs(total)} client (${parts.map((p) => `${formatUs(p.us)} ${PHASE_TEXT[p.name].short}`).join(' + ')})`;
}
