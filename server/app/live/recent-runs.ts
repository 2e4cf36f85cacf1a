// The runs this backend measured lately, kept in memory so that a link can show them (Copy link): each
// run's trace in the compact form, gzipped, under an id of 128 random bits (base64url) that no one can
// guess or count up to. Bounded by count and by bytes (trace/protocol/stored-runs.ts), the oldest
// forgotten first; nothing is written to disk and everything is gone when the process stops. The traces
// are encoded after their request, never while a run is measured (live-requests.ts), and one that would
// cost too much to encode or hold is not kept. Read-only over HTTP: http/stored-runs-route.ts.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { encodeCompactTrace } from '../../../trace/format/compact-trace.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { MAX_STORED_BYTES, MAX_STORED_COMMANDS, MAX_STORED_RUNS, MAX_STORED_RUN_BYTES, STORED_ID_BITS } from '../../../trace/protocol/stored-runs.ts';

export interface RecentRunsBounds {
  /** Runs kept at most. */
  maxRuns: number;
  /** Bytes kept at most, all runs together (gzipped compact form). */
  maxBytes: number;
  /** Bytes of one run at most; a larger one is not kept. */
  maxRunBytes: number;
  /** Wire commands of one run at most; a larger one is not encoded. */
  maxCommands: number;
}

export const DEFAULT_RECENT_RUNS_BOUNDS: RecentRunsBounds = {
  maxRuns: MAX_STORED_RUNS,
  maxBytes: MAX_STORED_BYTES,
  maxRunBytes: MAX_STORED_RUN_BYTES,
  maxCommands: MAX_STORED_COMMANDS,
};

/** A new id: STORED_ID_BITS from the system's cryptographic generator, base64url (22 characters). */
export function newStoredId(): string {
  return randomBytes(STORED_ID_BITS / 8).toString('base64url');
}

export type KeepOutcome = { id: string } | { notKept: string };

export class RecentRuns {
  /** id → the trace's compact form, gzipped; in the order kept (a Map keeps insertion order): oldest first. */
  private readonly entries = new Map<string, Buffer>();
  private heldBytes = 0;

  constructor(
    readonly bounds: RecentRunsBounds = DEFAULT_RECENT_RUNS_BOUNDS,
    private readonly newId: () => string = newStoredId,
  ) {}

  /** Keeps the run's trace; its id, or why it was not kept. Older runs are forgotten to make room. */
  keep(doc: TraceDocument): KeepOutcome {
    if (doc.incomplete) return { notKept: 'it was cut short' };
    if (doc.run.n > this.bounds.maxCommands) return { notKept: `it has more than ${this.bounds.maxCommands.toLocaleString('en-US')} commands` };
    const bytes = gzipSync(encodeCompactTrace(doc));
    if (bytes.length > this.bounds.maxRunBytes) return { notKept: `its trace is larger than ${this.bounds.maxRunBytes.toLocaleString('en-US')} bytes` };
    let id = this.newId();
    while (this.entries.has(id)) id = this.newId(); // 2⁻¹²⁸: never, but never is cheap to make sure of
    this.entries.set(id, bytes);
    this.heldBytes += bytes.length;
    for (const [oldest, held] of this.entries) {
      if (this.entries.size <= this.bounds.maxRuns && this.heldBytes <= this.bounds.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= held.length;
    }
    return { id };
  }

  /** The run's trace, compact and gzipped; undefined when no run with this id is kept (never was, or forgotten). */
  get(id: string): Buffer | undefined {
    return this.entries.get(id);
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }
}
