// Where a run's time went, from measurement: the client before its first byte left (building and
// encoding commands), the time the run's bytes were out with replies awaited (network, kernels, Redis),
// Redis executing the run's commands (its own count, INFO commandstats), the client's turn between
// one reply and its next write, and the client after the last read (parsing, resolving promises).
// Derived from the trace, never stored. Invariant: the parts add up to totals.doneUs exactly.
import { CLIENT_COUNT_SOURCE, SERVER_COUNT_SOURCE, type TraceDocument } from '../format/trace-format.ts';

export const PHASE_NAMES = ['beforeFirstWrite', 'awaiting', 'redisExec', 'clientBetween', 'afterLastRead'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

export interface Phase {
  name: PhaseName;
  /** µs of the run's time (t0 → totals.doneUs). */
  us: number;
  /** Who measured it: the client socket probe, or Redis (INFO commandstats). */
  source: typeof CLIENT_COUNT_SOURCE | typeof SERVER_COUNT_SOURCE;
}

/**
 * The run's time in parts, in the order drawn. "awaiting" is time with at least one command written
 * and its reply not yet read, less Redis's own execution time (capped at the awaiting time: INFO
 * counts in whole µs per command, so a loopback run can show Redis's share as all of it).
 */
export function runPhases(doc: TraceDocument): Phase[] {
  const { commands } = doc;
  const n = commands.length;
  const firstWriteUs = n ? commands[0]!.sentUs : 0;
  // The last read: on one socket the last command's; on a cluster each socket answers in its own order,
  // so a later-written command can be answered before an earlier one: the latest reply of all.
  let lastReadUs = 0;
  for (let i = 0; i < n; i++) lastReadUs = Math.max(lastReadUs, commands[i]!.repliedUs);
  // Union of [sentUs, repliedUs] over commands: sentUs is non-decreasing in command order (written order).
  let outstandingUs = 0;
  let from = firstWriteUs;
  let to = firstWriteUs;
  for (let i = 0; i < n; i++) {
    const { sentUs, repliedUs } = commands[i]!;
    if (sentUs > to) {
      outstandingUs += to - from;
      from = sentUs;
    }
    to = Math.max(to, repliedUs);
  }
  outstandingUs += to - from;
  const redisExecUs = Math.min(doc.counts.server.execUs, outstandingUs);
  return [
    { name: 'beforeFirstWrite', us: firstWriteUs, source: CLIENT_COUNT_SOURCE },
    { name: 'awaiting', us: outstandingUs - redisExecUs, source: CLIENT_COUNT_SOURCE },
    { name: 'redisExec', us: redisExecUs, source: SERVER_COUNT_SOURCE },
    { name: 'clientBetween', us: lastReadUs - firstWriteUs - outstandingUs, source: CLIENT_COUNT_SOURCE },
    { name: 'afterLastRead', us: doc.totals.doneUs - lastReadUs, source: CLIENT_COUNT_SOURCE },
  ];
}
