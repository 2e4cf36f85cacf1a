// The WebSocket protocol between the browser and the backend. Both ends validate every message they
// receive with these schemas. Probe events travel as the TraceBuilder's own inputs, so the browser
// builds the very same trace document the recorder builds; batches use flat number arrays
// [atUs, bytes, count, atUs, bytes, count, …] to keep each command's share of a frame to a few bytes.
import { z } from 'zod';
import type { Outcome, ProbeBatch, ReadEvent, ServerSide, TraceBuilder, WriteEvent } from '../format/trace-builder.ts';
import type { TraceDocument } from '../format/trace-format.ts';
import { ClusterSchema, SlotSchema } from '../format/cluster-format.ts';
import { placeClusterCommands } from '../format/cluster-places.ts';
import { CountsSchema, HeldConnectionSchema, KernelTcpSchema, KeysAfterSchema, MemorySchema, NeighborSchema, ProbeCostsSchema, RecorderSchema, RedisInfoSchema, ReplyValueSchema, RttSchema, RunInfoSchema, ServerCpuSchema, ServerTraceSchema } from '../format/trace-format.ts';
import { RunSpecSchema } from '../format/run-request.ts';
import { SweepDocumentSchema, SweepInfoSchema, SweepSpecSchema } from '../format/sweep-format.ts';
import { describeIssues } from '../format/trace-io.ts';
import { STORED_ID_PATTERN } from './stored-runs.ts';
import { isPlainWireOutcome } from '../format/plain-elements.ts';
import { FollowClientMessageSchemas, FollowServerMessageSchemas } from './follow-protocol.ts';
import { ObserveClientMessageSchemas, ObserveServerMessageSchemas } from './observe-protocol.ts';

export const LIVE_PATH = '/live';

const requestId = z.string().min(1).max(64);

/**
 * The Redis a request goes to, on a backend that offers Pipescope's private ones (hello.targets): its
 * single private redis-server, or its private Redis Cluster, started when first asked for. A backend
 * measuring a user's own Redis (--redis-url) offers no choice.
 */
export const TARGET_NAMES = ['single', 'cluster'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];
export const TargetNameSchema = z.enum(TARGET_NAMES, {
  error: () => "must be 'single' (the private Redis) or 'cluster' (the private Redis Cluster)",
});

export const ClientMessageSchema = z.discriminatedUnion('type', [
  /** target: where the request goes; absent: the backend's first target (what it was started with). */
  z.object({ type: z.literal('run'), requestId, spec: RunSpecSchema, target: TargetNameSchema.optional() }),
  z.object({ type: z.literal('sweep'), requestId, spec: SweepSpecSchema, target: TargetNameSchema.optional() }),
  /** The page picked a target: the backend starts it if it is not running (target-state says how it goes). */
  z.object({ type: z.literal('target'), target: TargetNameSchema }),
  z.object({ type: z.literal('cancel'), requestId }),
  ...FollowClientMessageSchemas,
  ...ObserveClientMessageSchemas,
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

const flatTriples = z
  .array(z.number().nonnegative().finite())
  .refine((a) => a.length % 3 === 0, 'length must be a multiple of 3')
  .refine((a) => a.every((value, i) => i % 3 === 0 || Number.isInteger(value)), 'bytes and counts must be whole numbers');
const WireOutcomeSchema = z.union([ReplyValueSchema, z.object({ e: z.string() })]);

export const RedisStatusSchema = z.object({
  up: z.boolean(),
  /** Why it is down, for the banner; when up, absent or a note ("restarted at …": the private redis-server was restarted). */
  message: z.string().optional(),
  version: z.string().optional(),
  embedded: z.boolean(),
  address: z.string(),
  /** Present when Redis is a node of a Redis Cluster: its masters and replicas (the page offers the cluster's run choices then). */
  cluster: z.object({ masters: z.number().int().nonnegative(), replicas: z.number().int().nonnegative() }).optional(),
});
export type RedisStatus = z.infer<typeof RedisStatusSchema>;

/** A backend's private targets: which it offers and which it started with (requests without a target go there). */
export const TargetsSchema = z.object({
  offered: z.array(TargetNameSchema).min(1).max(TARGET_NAMES.length),
  default: TargetNameSchema,
});
export type Targets = z.infer<typeof TargetsSchema>;

/** How a private target's start goes: off (not started), starting, ready (readyMs: its start to ready), failed. */
export const TargetStateSchema = z.object({
  type: z.literal('target-state'),
  target: TargetNameSchema,
  state: z.enum(['off', 'starting', 'ready', 'failed']),
  /** Ready: ms from its start to ready, as measured by the backend. */
  readyMs: z.number().nonnegative().finite().optional(),
  /** Ready: what it is ("private Redis Cluster 7.0.15 (3 masters) on …"); failed: why. */
  message: z.string().optional(),
  /** Ready: its status, as redis-status would say it. */
  redis: RedisStatusSchema.optional(),
});
export type TargetStateMessage = z.infer<typeof TargetStateSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  /** targets: absent on a backend measuring a user's own Redis, which offers no choice. */
  z.object({ type: z.literal('hello'), version: z.string(), redis: RedisStatusSchema, targets: TargetsSchema.optional() }),
  /** target: whose status, on a backend that offers targets (absent: its default target's). */
  z.object({ type: z.literal('redis-status'), redis: RedisStatusSchema, target: TargetNameSchema.optional() }),
  TargetStateSchema,
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
    /** Runs that record bytes: each write's and read's escaped head, parallel to the triples. */
    writeHeads: z.array(z.string()).optional(),
    readHeads: z.array(z.string()).optional(),
    /** Cluster runs only: each write's and read's socket (index in the trace's cluster.connections), parallel to the triples. */
    writeConnections: z.array(z.number().int().nonnegative()).optional(),
    readConnections: z.array(z.number().int().nonnegative()).optional(),
    /** Cluster runs that follow redirects: commands added since the last batch (resends; ASKING positions). */
    added: z.object({ resent: z.number().int().nonnegative(), asking: z.array(z.number().int().nonnegative()).max(1_000_000) }).optional(),
    /** Delay-proxy runs only: the proxy's hand-overs to Redis and receipts from it. */
    toServer: flatTriples.optional(),
    fromServer: flatTriples.optional(),
  }),
  z.object({
    type: z.literal('run-end'),
    requestId,
    runId: z.string(),
    server: CountsSchema.shape.server,
    /** Server-traced runs: the Redis side, and (with MONITOR) when each command ran there. */
    serverTrace: ServerTraceSchema.optional(),
    /** null for a command Redis never executed (rejected while queueing, discarded by EXECABORT). */
    serverUs: z.array(z.number().finite().nullable()).optional(),
    /** Runs that sampled memory. */
    memory: MemorySchema.optional(),
    /** µs since t0 when the client's call returned (totals.doneUs). */
    doneUs: z.number().nonnegative().finite(),
    /** Runs that asked for the kernel's TCP figures. */
    kernelTcp: KernelTcpSchema.optional(),
    /** v3: the run's keys read back after it, the neighbour client's commands, the held-connection PINGs. */
    keysAfter: KeysAfterSchema.optional(),
    neighbor: NeighborSchema.optional(),
    heldConnection: HeldConnectionSchema.optional(),
    /** Redis's CPU time over the run; which probes ran and what each cost it (trace-format.ts). */
    serverCpu: ServerCpuSchema.optional(),
    probeCosts: ProbeCostsSchema.optional(),
    /** Cluster runs: the topology, sockets and redirects, and per command (in trace order) its socket and slot (null: no key). */
    cluster: ClusterSchema.optional(),
    commandConnections: z.array(z.number().int().nonnegative()).optional(),
    commandSlots: z.array(SlotSchema.nullable()).optional(),
    commandValueStored: z.array(z.tuple([z.number().int().nonnegative(), ReplyValueSchema])).optional(),
  }),
  z.object({ type: z.literal('sweep-start'), requestId, sweep: SweepInfoSchema, redis: RedisInfoSchema, recorder: RecorderSchema }),
  /** Progress: which run of the sweep is being measured (one message per run, so a few dozen in all). */
  z.object({
    type: z.literal('sweep-progress'),
    requestId,
    tool: z.enum(['pipescope', 'redis-benchmark']),
    depth: z.number().int().positive(),
    repeat: z.number().int().positive(),
    /** Runs finished so far, of total (Pipescope's and redis-benchmark's together). */
    done: z.number().int().nonnegative(),
    total: z.number().int().positive(),
    /** The run just finished, when tool is pipescope: its ops/s, to draw as it comes. */
    opsPerSec: z.number().nonnegative().finite().optional(),
  }),
  z.object({ type: z.literal('sweep-end'), requestId, document: SweepDocumentSchema }),
  z.object({
    type: z.literal('request-done'),
    requestId,
    /** A run request's rounds run (each mode once per round); absent for a sweep. */
    rounds: z.number().int().nonnegative().optional(),
    /**
     * Why a run request stopped repeating: certain (every mode's 95 % interval against the fastest
     * excluded 1 at a checkpoint), limit (until certain reached its limit first), planned (the count
     * asked for), slow (a run took a second or more, so its request is not repeated).
     */
    stop: z.enum(['certain', 'limit', 'planned', 'slow']).optional(),
  }),
  z.object({
    type: z.literal('cancelled'),
    requestId,
    /**
     * The run a Cancel cut short, whose every measured event was sent (run-events) before this message:
     * the browser keeps it as an incomplete trace. Absent when no run was under way (the request was
     * still queued, or between runs) and from backends before v4 (clients before it ignore the field).
     */
    runId: z.string().optional(),
  }),
  /**
   * A run of the request is kept by the backend for links (stored-runs.ts): its trace is served at
   * stored-runs/<storedId> while it is among the last runs kept. Sent once the request's runs are over
   * (after request-done or cancelled), one per run kept; a run too big to keep, or cut short, gets none.
   */
  z.object({ type: z.literal('run-stored'), requestId, runId: z.string(), storedId: z.string().regex(STORED_ID_PATTERN) }),
  /** A refused message or a failed run; requestId is absent when the message itself was unreadable. */
  z.object({ type: z.literal('error'), requestId: z.string().optional(), message: z.string() }),
  ...FollowServerMessageSchemas,
  ...ObserveServerMessageSchemas,
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type RunEventsMessage = Extract<ServerMessage, { type: 'run-events' }>;
export type RunEndMessage = Extract<ServerMessage, { type: 'run-end' }>;

/** The second argument of TraceBuilder.finish for a run-end message: the Redis side, if traced. */
export function serverSideOf(message: RunEndMessage): ServerSide | null {
  return message.serverTrace ? { trace: message.serverTrace, serverUs: message.serverUs ?? null } : null;
}

/** The finished trace for a run-end message: what the recorder saved, rebuilt from the wire. */
export function finishRun(builder: TraceBuilder, message: RunEndMessage): TraceDocument {
  const doc = builder.finish(message.server, {
    serverSide: serverSideOf(message), memory: message.memory ?? null, doneUs: message.doneUs, kernelTcp: message.kernelTcp ?? null,
    keysAfter: message.keysAfter ?? null, neighbor: message.neighbor ?? null, heldConnection: message.heldConnection ?? null,
    serverCpu: message.serverCpu ?? null, probeCosts: message.probeCosts ?? null, ...(message.cluster ? { cluster: message.cluster } : {}),
  });
  // A cluster run: each command's socket, node and slot, as the engine put them on its own document.
  if (message.cluster) doc.commands = placeClusterCommands(doc, message.cluster, { connections: message.commandConnections ?? [], slots: message.commandSlots ?? [], valueStored: message.commandValueStored ?? [] });
  return doc;
}

/** Why a frame was not a message: each end words it for its own reader. */
export type FrameProblem = { kind: 'binary' } | { kind: 'json' } | { kind: 'schema'; issues: string };

type Frame<T> = { value: T } | { problem: FrameProblem };

/** One frame's text through JSON and the schema: both ends of the socket read frames this way. */
export function parseFrame<T>(schema: z.ZodType<T>, text: string | null): Frame<T> {
  const json = readJson(text);
  return 'problem' in json ? json : checkFrame(schema, json.value);
}

/**
 * A frame from the server, read as parseFrame reads it, except that a run-events frame's outcomes (a
 * whole pipeline's replies at once) are taken as they are when plainly valid (plain-elements.ts);
 * the rest of the frame, or a frame with any other outcome, goes through the schema.
 */
export function parseServerFrame(text: string | null): Frame<ServerMessage> {
  const json = readJson(text);
  if ('problem' in json) return json;
  const frame = json.value as { type?: unknown; outcomes?: unknown };
  if (frame?.type === 'run-events' && Array.isArray(frame.outcomes) && frame.outcomes.every(isPlainWireOutcome)) {
    const checked = checkFrame(ServerMessageSchema, { ...frame, outcomes: [] });
    if ('value' in checked && checked.value.type === 'run-events') checked.value.outcomes = frame.outcomes as RunEventsMessage['outcomes'];
    return checked;
  }
  return checkFrame(ServerMessageSchema, json.value);
}

function readJson(text: string | null): { value: unknown } | { problem: FrameProblem } {
  if (text === null) return { problem: { kind: 'binary' } };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { problem: { kind: 'json' } };
  }
}

function checkFrame<T>(schema: z.ZodType<T>, json: unknown): Frame<T> {
  const parsed = schema.safeParse(json);
  return parsed.success ? { value: parsed.data } : { problem: { kind: 'schema', issues: describeIssues(parsed.error) } };
}

type EncodedBatch = Pick<RunEventsMessage, 'writes' | 'reads' | 'outcomes' | 'writeHeads' | 'readHeads' | 'writeConnections' | 'readConnections' | 'added' | 'toServer' | 'fromServer'>;

export function encodeBatch(batch: ProbeBatch): EncodedBatch {
  const outcomes = batch.outcomes.map((o) => ('error' in o ? { e: o.error } : o.reply));
  const encoded: EncodedBatch = { writes: flattenWrites(batch.writes), reads: flattenReads(batch.reads), outcomes };
  if (batch.writes.some((w) => w.head !== undefined)) encoded.writeHeads = batch.writes.map((w) => w.head ?? '');
  if (batch.reads.some((r) => r.head !== undefined)) encoded.readHeads = batch.reads.map((r) => r.head ?? '');
  // A cluster run's events all name their socket (the trace builder refuses a mix): sent only then.
  if (batch.writes.some((w) => w.connection !== undefined)) encoded.writeConnections = batch.writes.map((w) => w.connection ?? 0);
  if (batch.reads.some((r) => r.connection !== undefined)) encoded.readConnections = batch.reads.map((r) => r.connection ?? 0);
  if (batch.added) encoded.added = { resent: batch.added.resent, asking: batch.added.asking };
  if (batch.toServer?.length) encoded.toServer = flattenWrites(batch.toServer);
  if (batch.fromServer?.length) encoded.fromServer = flattenReads(batch.fromServer);
  return encoded;
}

export function decodeBatch(message: EncodedBatch): ProbeBatch {
  // A reply equal to the one before is the same outcome object (outcomes are never changed).
  let last: Outcome | undefined;
  const outcomes: Outcome[] = message.outcomes.map((o) => {
    if (o !== null && typeof o === 'object') return (last = last && 'error' in last && last.error === o.e ? last : { error: o.e });
    return (last = last && 'reply' in last && last.reply === o ? last : { reply: o });
  });
  const batch: ProbeBatch = { writes: unflattenWrites(message.writes), reads: unflattenReads(message.reads), outcomes };
  message.writeHeads?.forEach((head, i) => batch.writes[i] && (batch.writes[i].head = head));
  message.readHeads?.forEach((head, i) => batch.reads[i] && (batch.reads[i].head = head));
  message.writeConnections?.forEach((connection, i) => batch.writes[i] && (batch.writes[i].connection = connection));
  message.readConnections?.forEach((connection, i) => batch.reads[i] && (batch.reads[i].connection = connection));
  if (message.added) batch.added = { resent: message.added.resent, asking: [...message.added.asking] };
  if (message.toServer) batch.toServer = unflattenWrites(message.toServer);
  if (message.fromServer) batch.fromServer = unflattenReads(message.fromServer);
  return batch;
}

function flattenWrites(events: WriteEvent[]): number[] {
  const flat: number[] = [];
  for (const e of events) flat.push(e.atUs, e.bytes, e.commands);
  return flat;
}

function flattenReads(events: ReadEvent[]): number[] {
  const flat: number[] = [];
  for (const e of events) flat.push(e.atUs, e.bytes, e.replies);
  return flat;
}

function unflattenWrites(flat: number[]): WriteEvent[] {
  const events: WriteEvent[] = [];
  for (let i = 0; i < flat.length; i += 3) events.push({ atUs: flat[i]!, bytes: flat[i + 1]!, commands: flat[i + 2]! });
  return events;
}

function unflattenReads(flat: number[]): ReadEvent[] {
  const events: ReadEvent[] = [];
  for (let i = 0; i < flat.length; i += 3) events.push({ atUs: flat[i]!, bytes: flat[i + 1]!, replies: flat[i + 2]! });
  return events;
}
