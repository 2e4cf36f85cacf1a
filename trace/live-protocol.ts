// The WebSocket protocol between the browser and the backend. Both ends validate every message they
// receive with these schemas. Probe events travel as the TraceBuilder's own inputs, so the browser
// builds the very same trace document the recorder builds; batches use flat number arrays
// [atUs, bytes, count, atUs, bytes, count, …] to keep each command's share of a frame to a few bytes.
import { z } from 'zod';
import type { Outcome, ProbeBatch, ReadEvent, WriteEvent } from './trace-builder.ts';
import { CountsSchema, RecorderSchema, RedisInfoSchema, ReplyValueSchema, RttSchema, RunInfoSchema } from './trace-format.ts';
import { RunSpecSchema } from './run-request.ts';

export const LIVE_PATH = '/live';

const requestId = z.string().min(1).max(64);

export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), requestId, spec: RunSpecSchema }),
  z.object({ type: z.literal('cancel'), requestId }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

const flatTriples = z.array(z.number().nonnegative()).refine((a) => a.length % 3 === 0, 'length must be a multiple of 3');
const WireOutcomeSchema = z.union([ReplyValueSchema, z.object({ e: z.string() })]);

export const RedisStatusSchema = z.object({
  up: z.boolean(),
  /** Why it is down, for the banner; absent when up. */
  message: z.string().optional(),
  version: z.string().optional(),
  embedded: z.boolean(),
  address: z.string(),
});
export type RedisStatus = z.infer<typeof RedisStatusSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), version: z.string(), redis: RedisStatusSchema }),
  z.object({ type: z.literal('redis-status'), redis: RedisStatusSchema }),
  /** position 0 = running now; k = k requests ahead of this one. */
  z.object({ type: z.literal('queued'), requestId, position: z.number().int().nonnegative() }),
  z.object({
    type: z.literal('run-start'),
    requestId,
    // The TraceHeader: pass the message itself to new TraceBuilder().
    run: RunInfoSchema,
    redis: RedisInfoSchema,
    rtt: RttSchema,
    recorder: RecorderSchema,
  }),
  z.object({
    type: z.literal('run-events'),
    requestId,
    runId: z.string(),
    writes: flatTriples,
    reads: flatTriples,
    outcomes: z.array(WireOutcomeSchema),
  }),
  z.object({ type: z.literal('run-end'), requestId, runId: z.string(), server: CountsSchema.shape.server }),
  z.object({ type: z.literal('request-done'), requestId }),
  z.object({ type: z.literal('cancelled'), requestId }),
  /** A refused message or a failed run; requestId is absent when the message itself was unreadable. */
  z.object({ type: z.literal('error'), requestId: z.string().optional(), message: z.string() }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type RunEventsMessage = Extract<ServerMessage, { type: 'run-events' }>;

export function encodeBatch(batch: ProbeBatch): Pick<RunEventsMessage, 'writes' | 'reads' | 'outcomes'> {
  const writes: number[] = [];
  for (const w of batch.writes) writes.push(w.atUs, w.bytes, w.commands);
  const reads: number[] = [];
  for (const r of batch.reads) reads.push(r.atUs, r.bytes, r.replies);
  const outcomes = batch.outcomes.map((o) => ('error' in o ? { e: o.error } : o.reply));
  return { writes, reads, outcomes };
}

export function decodeBatch(message: Pick<RunEventsMessage, 'writes' | 'reads' | 'outcomes'>): ProbeBatch {
  const writes: WriteEvent[] = [];
  for (let i = 0; i < message.writes.length; i += 3) {
    writes.push({ atUs: message.writes[i]!, bytes: message.writes[i + 1]!, commands: message.writes[i + 2]! });
  }
  const reads: ReadEvent[] = [];
  for (let i = 0; i < message.reads.length; i += 3) {
    reads.push({ atUs: message.reads[i]!, bytes: message.reads[i + 1]!, replies: message.reads[i + 2]! });
  }
  const outcomes: Outcome[] = message.outcomes.map((o) =>
    o !== null && typeof o === 'object' ? { error: o.e } : { reply: o },
  );
  return { writes, reads, outcomes };
}
