// What a cluster run's replies say about the cluster (pure): each MOVED, ASK, TRYAGAIN or CROSSSLOT error
// reply as a redirect record of the trace (cluster-format.ts), with its text exactly as Redis sent it,
// the node that answered and, for MOVED and ASK, the slot and address it names (the raw engine follows
// none of them: no `followedBy`); and how many of a node's commands Redis counts in
// total_commands_processed, for its counters' `exclusive`. EXECABORT is no redirect: it is EXEC's reply
// after a queued command was refused, and stays that command's outcome.
import type { Redirect, RedirectKind } from '../../trace/format/cluster-format.ts';
import type { RunMode, TraceDocument } from '../../trace/format/trace-format.ts';

type Command = TraceDocument['commands'][number];

const REDIRECT = /^(MOVED|ASK) (\d+) (\S+)$|^(TRYAGAIN|CROSSSLOT)\b/;

/** The redirect an error reply is, or null for any other reply. */
export function redirectOf(error: string): { kind: RedirectKind; slot?: number; to?: string } | null {
  const match = REDIRECT.exec(error.trim());
  if (!match) return null;
  if (match[1]) return { kind: match[1] as RedirectKind, slot: Number(match[2]), to: match[3]! };
  return { kind: match[4] as RedirectKind };
}

/** Every redirect among `commands` (a finished cluster run's, each with its `node`), in the order the replies arrived. */
export function redirectsOf(commands: readonly Command[]): Redirect[] {
  const redirects: Redirect[] = [];
  commands.forEach((command, position) => {
    if (!('error' in command) || command.node === undefined) return;
    const redirect = redirectOf(command.error);
    if (!redirect) return;
    redirects.push({ atUs: command.repliedUs, command: position, kind: redirect.kind, ...(redirect.slot === undefined ? {} : { slot: redirect.slot }), from: command.node, ...(redirect.to ? { to: redirect.to } : {}), error: command.error });
  });
  return redirects.sort((a, b) => a.atUs - b.atUs || a.command - b.command);
}

/**
 * How many of one node's commands (its outcomes, in the order it answered them) Redis counts as
 * processed: a command refused before running (MOVED, ASK, TRYAGAIN, CROSSSLOT) is not; in a transaction
 * MULTI is, the queued commands only when EXEC ran them (its reply an array), and EXEC unless refused.
 */
export function countedCommands(mode: RunMode, outcomes: readonly ({ error: string } | { reply: unknown })[]): number {
  const refused = (o: (typeof outcomes)[number]) => 'error' in o && redirectOf(o.error) !== null;
  if (mode !== 'multi' || outcomes.length < 2) return outcomes.filter((o) => !refused(o)).length;
  const exec = outcomes[outcomes.length - 1]!;
  const queued = outcomes.slice(1, -1).filter((o) => !('error' in o)).length;
  if (refused(exec)) return 1; // MULTI only: EXEC refused, the queue discarded
  if ('error' in exec) return 2; // MULTI and EXEC (EXECABORT): nothing queued ran
  return 2 + queued;
}
