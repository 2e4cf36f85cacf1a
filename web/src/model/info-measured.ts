// Whether a trace's Redis INFO counts (counts.server) were measured: not for a run cut short before its
// second snapshot (incomplete, redis-info omitted), and not for an observed connection of the user's own
// client, which Redis's INFO cannot tell apart from the rest. Where they were not, the views say so
// rather than show the zeros the document holds in their place.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

export function infoMeasured(doc: TraceDocument): boolean {
  return !doc.run.observed && !doc.incomplete?.omitted.includes('redis-info');
}

/** Where a run's socket figures were taken: its client socket, or for an observed connection the observing proxy. */
export function socketSource(doc: TraceDocument): string {
  return doc.run.observed ? 'observing proxy' : 'client socket';
}
