// The words for a run the screen holds only part of (trace v4 `incomplete`): the mark on its panel and
// in the compare table — still measuring, or cut short and how far it got — and the labels that keep its
// numbers from passing for a whole run's. Pure, unit-tested.
import type { OmittedMeasurement, TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatCount } from './number-format.ts';

const REASON_TEXT = {
  cancelled: 'Cancelled',
  'connection-lost': 'Connection lost',
  failed: 'Failed',
} as const;

const OMITTED_TEXT: Record<OmittedMeasurement, string> = {
  'redis-info': 'Redis INFO counts',
  monitor: 'MONITOR',
  strace: 'strace',
  memory: 'memory samples',
  'kernel-tcp': 'kernel TCP figures',
  'keys-after': 'keys after the run',
  neighbor: 'the other client',
  'held-connection': 'the held-connection PINGs',
};

/** "Measuring… 1,234 of 10,000 commands" or "Cancelled after 3,412 of 10,000 commands — incomplete"; null for a whole run. */
export function incompleteMark(doc: TraceDocument): string | null {
  const { incomplete } = doc;
  if (!incomplete) return null;
  const of = `${formatCount(doc.commands.length)} of ${formatCount(doc.run.n)} commands`;
  if (incomplete.reason === 'in-progress') return `Measuring… ${of}`;
  return `${REASON_TEXT[incomplete.reason]} after ${of} — incomplete`;
}

/** The mark's detail: how far each side got, what was not measured, and a failure's message. */
export function incompleteDetail(doc: TraceDocument): string | null {
  const { incomplete } = doc;
  if (!incomplete) return null;
  const parts = [
    `${formatCount(incomplete.sent)} commands written, ${formatCount(incomplete.replied)} replies arrived, of ${formatCount(doc.run.n)}.`,
    'Times and rates are over what was measured.',
  ];
  if (incomplete.omitted.length > 0) parts.push(`Not measured: ${incomplete.omitted.map((o) => OMITTED_TEXT[o]).join(', ')} (they need the whole run).`);
  if (incomplete.message) parts.push(incomplete.message);
  return parts.join(' ');
}

const UNTIL_TEXT = {
  'in-progress': 'so far',
  cancelled: 'until cancelled',
  'connection-lost': 'until the connection was lost',
  failed: 'until it failed',
} as const;

/**
 * What follows a partial run's total time: "so far" only while it is still measuring; a run cut short
 * says where it stopped, so that its figure does not read as a clock still running. null for a whole run.
 */
export function incompleteUntil(doc: TraceDocument): string | null {
  return doc.incomplete ? UNTIL_TEXT[doc.incomplete.reason] : null;
}

/** The label beside a figure of a run cut short: what it is measured over. */
export function measuredOverText(doc: TraceDocument): string | null {
  return doc.incomplete ? `over the ${formatCount(doc.commands.length)} commands measured` : null;
}
