// The order the Redis docs describe, read off a server-traced run: sequentially "Client INCR, Server 1,
// Client INCR, Server 2…", pipelined "Client ×N, then Server ×N". Decided from MONITOR's execution
// times against the client's send times, only where the gap exceeds the clock uncertainty. Only the
// commands MONITOR saw executing count as run: a transaction refused with EXECABORT runs MULTI and EXEC
// alone, and says so ("Server ×2 … the 10 INCRs never ran"), never "all ran".
import type { TraceColumns } from '../model/trace-columns.ts';
import { wireDiffers, wireName } from './command-text.ts';
import { formatCount, formatUs } from './number-format.ts';
import { wireNames } from './wire-text.ts';

export type ServerOrder =
  /** Each command ran before the client sent the next one. */
  | { kind: 'interleaved' }
  /** Every command ran after the client had sent the last one. */
  | { kind: 'batched' }
  /** Neither throughout: `early` commands ran before the last one was sent. */
  | { kind: 'mixed'; early: number }
  /** The clock uncertainty is too wide to tell. */
  | { kind: 'unclear' };

/** The commands MONITOR saw executing, by index (all of them when the trace says each ran). */
function executedIndices(columns: TraceColumns): number[] {
  const { executed, n } = columns;
  return Array.from({ length: n }, (_, i) => i).filter((i) => !executed || executed[i] === 1);
}

export function serverOrder(columns: TraceColumns): ServerOrder | null {
  const { serverUs, sentUs, n, clockUncertaintyUs: u } = columns;
  const ran = executedIndices(columns);
  if (!serverUs || n < 2 || ran.length === 0) return null;
  let interleaved = ran.length === n;
  for (let i = 0; i + 1 < n && interleaved; i++) interleaved = serverUs[i]! + u < sentUs[i + 1]!;
  if (interleaved) return { kind: 'interleaved' };
  const lastSent = sentUs[n - 1]!;
  if (serverUs[ran[0]!]! - u > lastSent) return { kind: 'batched' };
  const early = ran.filter((i) => serverUs[i]! + u < lastSent).length;
  return early > 0 ? { kind: 'mixed', early } : { kind: 'unclear' };
}

function replyText(columns: TraceColumns, i: number): string {
  const c = columns.doc.commands[i]!;
  if ('error' in c) return 'error';
  return c.reply === null ? '(nil)' : String(c.reply);
}

export function serverOrderText(columns: TraceColumns): string | null {
  const order = serverOrder(columns);
  if (!order) return null;
  const { n } = columns;
  const { run } = columns.doc;
  // Runs whose wire is not N × one command name their wire: "Client INCR" becomes "Client GET", "Client MULTI, INCR ×10, EXEC".
  const named = wireDiffers(run);
  const cmd = named ? wireName(run, 0) : run.command;
  const next = named ? wireName(run, 1) : run.command;
  const all = named ? wireNames(0, n, (i) => wireName(run, i)) : `${run.command} ×${formatCount(n)}`;
  const u = `clock ±${formatUs(columns.clockUncertaintyUs)}`;
  switch (order.kind) {
    case 'interleaved':
      return `On Redis (MONITOR): Client ${cmd}, Server ${replyText(columns, 0)}, Client ${next}, Server ${replyText(columns, 1)}… — each command ran before the next was sent (${u}).`;
    case 'batched': {
      const ran = executedIndices(columns);
      if (ran.length === n) return `On Redis (MONITOR): Client ${all}, then Server ×${formatCount(n)} — all ran after the last command was sent (${u}).`;
      // Name what ran, runs of one name folded ("MULTI, EXEC"), and what never did.
      const ranNames = wireNames(0, ran.length, (k) => (named ? wireName(run, ran[k]!) : run.command));
      const skipped = Array.from({ length: n }, (_, i) => i).filter((i) => !ran.includes(i));
      const skippedNames = wireNames(0, skipped.length, (k) => (named ? wireName(run, skipped[k]!) : run.command));
      return `On Redis (MONITOR): Client ${all}, then Server ×${formatCount(ran.length)} (${ranNames}) — ran after the last command was sent; ` +
        `${skippedNames} never ran (${u}).`;
    }
    case 'mixed': {
      const ran = executedIndices(columns).length;
      const of = ran === n ? `${formatCount(n)} commands` : `the ${formatCount(ran)} commands that ran (of ${formatCount(n)})`;
      return `On Redis (MONITOR): ${formatCount(order.early)} of ${of} ran before the client had sent the last one (${u}).`;
    }
    default:
      return `On Redis (MONITOR): the order against the client's sends is within the ${u}.`;
  }
}
