// The live protocol's messages for observing the user's own client (server/observe/, the page's Observe
// view): opening and closing the observing port, the session's connection list as it grows, the trace
// of each connection the page draws, and running a bundled client (redis-py, redis-rb) through the port.
// Both ends validate them like every live message (live-protocol.ts spreads these into its unions).
import { z } from 'zod';
import { HopCostSchema, TraceDocumentSchema } from '../format/trace-format.ts';

export const OBSERVE_CLIENTS = ['redis-py-transaction', 'redis-py-plain', 'redis-py-sequential', 'redis-rb-ping'] as const;
export type ObserveClient = (typeof OBSERVE_CLIENTS)[number];

const delayMs = z.number().nonnegative().max(10_000).finite();

export const ObserveClientMessageSchemas = [
  /** Opens the observing port (on the port given with --observe, else a free one) with this added delay. */
  z.object({ type: z.literal('observe-open'), rttMs: delayMs, jitterMs: delayMs }),
  z.object({ type: z.literal('observe-close') }),
  /** The added delay for connections from now on. */
  z.object({ type: z.literal('observe-delay'), rttMs: delayMs, jitterMs: delayMs }),
  /** MONITOR on the target while observing (execution times in each connection's trace; costs Redis a little). */
  z.object({ type: z.literal('observe-monitor'), on: z.boolean() }),
  /** Ends the session (its traces sent back in observe-stopped) and starts a new one. */
  z.object({ type: z.literal('observe-stop') }),
  /** The connections of the current session whose traces this tab draws (at most 6). */
  z.object({ type: z.literal('observe-watch'), session: z.string().max(64), connections: z.array(z.number().int().positive()).max(6) }),
  /** Runs bundled client programs through the port, one after the other (the page's "run a real client" buttons, the redis-py preset). */
  z.object({ type: z.literal('observe-run-client'), clients: z.array(z.enum(OBSERVE_CLIENTS)).min(1).max(4), n: z.number().int().positive().max(100_000) }),
] as const;

export const ConnectionSummarySchema = z.object({
  connection: z.number().int().positive(),
  clientAddress: z.string(),
  client: z.string(),
  commands: z.number().int().nonnegative(),
  replies: z.number().int().nonnegative(),
  pushes: z.number().int().nonnegative(),
  open: z.boolean(),
  notes: z.array(z.string()),
});
export type ConnectionSummary = z.infer<typeof ConnectionSummarySchema>;

export const ObserveStatusSchema = z.object({
  /** Whether the port is open, and where (redis://127.0.0.1:PORT), forwarding to which Redis (host:port). */
  open: z.boolean(),
  url: z.string().optional(),
  target: z.string(),
  /** The port to open when asked (from --observe), or null for a free one. */
  configuredPort: z.number().int().nullable(),
  rttMs: z.number().nonnegative(),
  jitterMs: z.number().nonnegative(),
  hop: HopCostSchema.nullable(),
  /** Measuring the hop's cost right now. */
  measuringHop: z.boolean(),
  /** MONITOR on: connections opened from then on get Redis's execution times (in their traces once the session stops). */
  monitor: z.boolean(),
  session: z.object({
    id: z.string(),
    startedAt: z.string(),
    connections: z.array(ConnectionSummarySchema),
    commands: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    refused: z.number().int().nonnegative(),
    full: z.string().nullable(),
    notes: z.array(z.string()),
  }).nullable(),
  /** A bundled client running through the port, and the last one's outcome. */
  clientRunning: z.enum(OBSERVE_CLIENTS).nullable(),
  clientMessage: z.string().nullable(),
  /** The last batch of bundled clients run: a number of its own, and the connections they made in the session. */
  lastRun: z.object({ id: z.number().int().positive(), session: z.string(), clients: z.array(z.enum(OBSERVE_CLIENTS)), connections: z.array(z.number().int().positive()), ok: z.boolean() }).nullable(),
  /** Why the port could not open, or is closed. */
  error: z.string().nullable(),
});
export type ObserveStatus = z.infer<typeof ObserveStatusSchema>;

export const ObserveServerMessageSchemas = [
  z.object({ type: z.literal('observe-status'), status: ObserveStatusSchema }),
  /** A watched connection's trace as far as it got. */
  z.object({ type: z.literal('observe-trace'), session: z.string(), connection: z.number().int().positive(), trace: TraceDocumentSchema }),
  /** The session this tab stopped: every connection that sent a command, as traces. */
  z.object({ type: z.literal('observe-stopped'), session: z.string(), traces: z.array(TraceDocumentSchema) }),
] as const;
