// How many of a node's commands Redis counts in total_commands_processed, for its counters' `exclusive`
// and its service time (pure): a command a node refused before running it (MOVED, ASK, TRYAGAIN,
// CROSSSLOT: drivers/cluster-redirects.ts reads them) is not counted. EXECABORT is no redirect: it is
// EXEC's reply after a queued command was refused, and stays that command's outcome.
import type { RunMode } from '../../trace/format/trace-format.ts';
import { parseRedirect } from '../drivers/cluster-redirects.ts';

/**
 * How many of one node's commands (its outcomes, in the order it answered them) Redis counts as
 * processed: a command refused before running (MOVED, ASK, TRYAGAIN, CROSSSLOT) is not; in a transaction
 * MULTI is, the queued commands only when EXEC ran them (its reply an array), and EXEC unless refused.
 */
export function countedCommands(mode: RunMode, outcomes: readonly ({ error: string } | { reply: unknown })[]): number {
  const refused = (o: (typeof outcomes)[number]) => 'error' in o && parseRedirect(o.error) !== null;
  if (mode !== 'multi' || outcomes.length < 2) return outcomes.filter((o) => !refused(o)).length;
  const exec = outcomes[outcomes.length - 1]!;
  const queued = outcomes.slice(1, -1).filter((o) => !('error' in o)).length;
  if (refused(exec)) return 1; // MULTI only: EXEC refused, the queue discarded
  if ('error' in exec) return 2; // MULTI and EXEC (EXECABORT): nothing queued ran
  return 2 + queued;
}
