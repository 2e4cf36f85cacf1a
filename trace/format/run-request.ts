// What a user may ask to run, with its bounds. The WebSocket endpoint and the CLI recorder both
// validate against this schema, so the limits and their messages are the same everywhere.
import { z } from 'zod';
import { CommandNameSchema, NEIGHBOR_COMMANDS, RUN_MODES, RunModeSchema, type CommandName, type RoundPlan, type RunMode } from './trace-format.ts';
import { multiKeyCommand } from './wire-layout.ts';

export const MAX_COMMANDS = 1_000_000;
export const MAX_VALUE_BYTES = 1024 * 1024;
/** n × valueBytes: what one run may ask Redis (and the client) to hold. */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
export const MAX_ADDED_RTT_MS = 1000;
export const ENGINES = ['ioredis', 'raw', 'node-redis'] as const;
export type Engine = (typeof ENGINES)[number];
/** MONITOR and strace output grow with every command; a server-traced run stays inspectable. */
export const MAX_SERVER_TRACED_COMMANDS = 100_000;
export const MAX_JITTER_MS = 500;
/**
 * Rounds of one request (each mode once per round); runs that take a second or more are not repeated.
 * "until-certain" runs rounds until the comparisons' 95 % intervals exclude 1 at a checkpoint, or this
 * many rounds: its last checkpoint (trace/derive/paired-verdict.ts).
 */
export const MAX_REPEATS = 40;
export const UNTIL_CERTAIN = 'until-certain';
export const DEFAULT_REPEATS: Repeats = UNTIL_CERTAIN;
/** With one mode there is nothing to be certain of: "until certain" runs it this many times (median [min–max]). */
export const SINGLE_MODE_ROUNDS = 5;
export type Repeats = number | typeof UNTIL_CERTAIN;
/** A run whose first round took at least this long is not repeated (µs): noise matters little there. */
export const REPEAT_BELOW_US = 1_000_000;
/** Warm-up commands before t0: min(n, this). */
export const MAX_WARMUP_COMMANDS = 1000;

export const commandTakesValue = (command: CommandName): boolean => command === 'SET' || command === 'GET' || command === 'GET-COMPUTE-SET';
/** The neighbour client's rate at most (commands per second, each awaited: a loopback client manages ~10–50k). */
export const MAX_NEIGHBOR_RATE = 20_000;
/**
 * The neighbour client's rate at least, when there is one (commands per second): one command every 10 s.
 * Slower ones see no second command in any run, and the slowest (1e-9, accepted once) asked for a wait
 * no timer can hold, which hung the run before t0.
 */
export const MIN_NEIGHBOR_RATE = 0.1;
/** Pause between chunks at most (ms). */
export const MAX_CHUNK_PAUSE_MS = 1000;
/**
 * Commands a client library issues in one tick at most: auto-pipelining (ioredis, node-redis) and
 * node-redis pipelines are built in one go, the backend's event loop held meanwhile (a Cancel, the live
 * feed and HTTP wait: 200,000 node-redis SETs took 4.5 s to issue here, a Cancel of 300,000 ioredis auto
 * SETs 11 s). ioredis's explicit pipelines and the raw engine go in slices and are not limited.
 */
export const MAX_ONE_TICK_COMMANDS = 100_000;
/**
 * A run on a Redis Cluster: where its keys go. spread: each key its own slot, as a single Redis's run
 * names them (they land on every master). hashtag: every key of the run under one `{hash tag}` inside its
 * `pipescope:` namespace, so all of them share one slot, and so one node.
 */
export const CLUSTER_KEYS = ['spread', 'hashtag'] as const;
export type ClusterKeys = (typeof CLUSTER_KEYS)[number];
/**
 * The raw engine's pipeline on a Redis Cluster: parallel writes every node's share at once, each on its
 * own socket (the critical path is the slowest node); serial writes one node's share, awaits its replies,
 * then the next node's (the sum of the nodes).
 */
export const CLUSTER_SPLITS = ['parallel', 'serial'] as const;
export type ClusterSplit = (typeof CLUSTER_SPLITS)[number];
/**
 * A Redis Cluster: one request compares both ways side by side, each mode once per variant in every
 * round (run-rounds.ts). keys: every mode with its keys spread over slots and under one hash tag; split:
 * the raw pipeline's nodes at once and one after another (the other modes once, as a pipeline's split is
 * theirs to ignore).
 */
export const CLUSTER_COMPARES = ['keys', 'split'] as const;
export type ClusterCompare = (typeof CLUSTER_COMPARES)[number];
/** One variant of a compared request: the cluster parameters its run takes. */
export interface ClusterVariant {
  clusterKeys: ClusterKeys;
  clusterSplit: ClusterSplit;
}

type VariantSpec = { clusterKeys?: ClusterKeys | undefined; clusterSplit?: ClusterSplit | undefined; clusterCompare?: ClusterCompare | undefined };

/** The runs of `mode` in one round, in order: one without a compare, two for the compared variants. */
export function clusterVariants(spec: VariantSpec, mode: RunMode): ClusterVariant[] {
  const asked: ClusterVariant = { clusterKeys: spec.clusterKeys ?? 'spread', clusterSplit: spec.clusterSplit ?? 'parallel' };
  if (spec.clusterCompare === 'keys') return CLUSTER_KEYS.map((clusterKeys) => ({ ...asked, clusterKeys }));
  if (spec.clusterCompare === 'split' && mode === 'pipeline') return CLUSTER_SPLITS.map((clusterSplit) => ({ ...asked, clusterSplit }));
  return [asked];
}

/** How many runs one round of the request makes: every mode once per variant. */
export function runsPerRound(spec: VariantSpec & { modes: readonly RunMode[] }): number {
  return spec.modes.reduce((sum, mode) => sum + clusterVariants(spec, mode).length, 0);
}

/** Modes a GET-COMPUTE-SET step can run in: its SET needs its GET's reply, so only one at a time or in Lua. */
export const DEPENDENT_MODES: readonly RunMode[] = ['sequential', 'eval'];

/** A whole-number field with its bounds, each refusal worded for a person. */
export const wholeNumber = (name: string, min: number, max: number, maxText = max.toLocaleString('en-US')) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min.toLocaleString('en-US')}`)
    .max(max, `${name} must be at most ${maxText}`);

/** Fields a single run and a sweep share. */
export const valueBytesField = wholeNumber('valueBytes', 0, MAX_VALUE_BYTES, `${MAX_VALUE_BYTES} (1 MiB)`).default(16);
/** Round-trip time added by the TCP delay proxy; 0 connects directly. */
export const rttMsField = z
  .number({ error: 'rttMs must be a number' })
  .min(0, 'rttMs must be at least 0')
  .max(MAX_ADDED_RTT_MS, `rttMs must be at most ${MAX_ADDED_RTT_MS}`)
  .default(0);
export const jitterMsField = z
  .number({ error: 'jitterMs must be a number' })
  .min(0, 'jitterMs must be at least 0')
  .max(MAX_JITTER_MS, `jitterMs must be at most ${MAX_JITTER_MS}`)
  .default(0);
/**
 * Who writes the commands: ioredis, node-redis (which pipelines same-tick commands by itself), or a
 * plain socket with pre-encoded commands (PING goes as the inline command "PING\r\n", the docs'
 * netcat example; others as RESP arrays).
 */
export const engineField = z.enum(ENGINES, { error: 'engine must be ioredis, raw or node-redis' }).default('ioredis');

export const RunSpecSchema = z
  .object({
    command: CommandNameSchema,
    n: wholeNumber('n', 1, MAX_COMMANDS),
    valueBytes: valueBytesField,
    rttMs: rttMsField,
    jitterMs: jitterMsField,
    engine: engineField,
    /** Trace the Redis side with both MONITOR and strace (the same as monitor + strace). */
    serverTrace: z.boolean({ error: 'serverTrace must be true or false' }).default(false),
    /** MONITOR on a separate connection: execution order and times on Redis. Cheap. */
    monitor: z.boolean({ error: 'monitor must be true or false' }).default(false),
    /** strace on redis-server: its read()/write() calls. Slows Redis several-fold while on. */
    strace: z.boolean({ error: 'strace must be true or false' }).default(false),
    /** Skip the warm-up: the run's first command pays the connection's first-call costs. */
    cold: z.boolean({ error: 'cold must be true or false' }).default(false),
    /**
     * Rounds, each mode once per round in alternating order, unless a run takes ≥ 1 s: a count, or
     * "until-certain" (stop at the first checkpoint whose 95 % intervals exclude 1, at most MAX_REPEATS).
     */
    repeats: z
      .union([z.literal(UNTIL_CERTAIN), wholeNumber('repeats', 1, MAX_REPEATS)], {
        error: (issue) => (Number.isInteger(issue.input) ? undefined : `repeats must be a whole number from 1 to ${MAX_REPEATS}, or "${UNTIL_CERTAIN}"`),
      })
      .default(DEFAULT_REPEATS),
    /** The kernel's TCP figures for the run's socket (`ss`), before and after. */
    kernelTcp: z.boolean({ error: 'kernelTcp must be true or false' }).default(true),
    /** Chunked mode: commands per pipeline. */
    chunk: wholeNumber('chunk', 1, MAX_COMMANDS).optional(),
    /** Chunked mode: ms to sleep between one pipeline's replies and the next pipeline (0: none). */
    chunkPauseMs: z
      .number({ error: 'chunkPauseMs must be a number' })
      .min(0, 'chunkPauseMs must be at least 0')
      .max(MAX_CHUNK_PAUSE_MS, `chunkPauseMs must be at most ${MAX_CHUNK_PAUSE_MS}`)
      .default(0),
    /** INCR runs: make operation errorAt (from 0) fail, as errorKind says (trace run.injectedError). */
    errorAt: wholeNumber('errorAt', 0, MAX_COMMANDS - 1).optional(),
    errorKind: z.enum(['runtime', 'queueing'], { error: 'errorKind must be runtime or queueing' }).default('runtime'),
    /** A neighbour client on its own connection issuing neighborCommand at this rate (per second; 0: none). */
    neighborRate: z
      .number({ error: 'neighborRate must be a number' })
      .min(0, 'neighborRate must be at least 0')
      .max(MAX_NEIGHBOR_RATE, `neighborRate must be at most ${MAX_NEIGHBOR_RATE.toLocaleString('en-US')} per second`)
      .refine((rate) => rate === 0 || rate >= MIN_NEIGHBOR_RATE, `neighborRate must be 0 (no neighbour) or at least ${MIN_NEIGHBOR_RATE} per second`)
      .default(0),
    neighborCommand: z.enum(NEIGHBOR_COMMANDS, { error: 'neighborCommand must be INCR or GET' }).default('INCR'),
    /** One PING behind the run on its own connection and one on a second connection (trace heldConnection). */
    heldConnection: z.boolean({ error: 'heldConnection must be true or false' }).default(false),
    /**
     * Pipescope's private cluster only: once the run has started, move the slot holding most of its keys to
     * another master, key by key (ASK, then MOVED, during the run); every reply is checked against the value
     * stored before the run (trace cluster.reshard).
     */
    reshard: z.boolean({ error: 'reshard must be true or false' }).optional(),
    /**
     * The person asked for this request knowing it is long: the page asked its two-minute question
     * (run-duration.ts longRunCheck) and they chose to run it. Without it the backend refuses such a
     * request; with it, the backend still refuses one beyond its hard bound (--max-run-seconds).
     */
    confirmLongRun: z.boolean({ error: 'confirmLongRun must be true or false' }).optional(),
    /**
     * Sample Redis's memory for the run connection, and this process's: true = in a memory repeat, one
     * more run of each mode after the timed ones (the sampler slows a small run 1.5–2×, so no timed run
     * samples); false = never; absent = as memorySampled() decides: for runs that can move memory.
     */
    memory: z.boolean({ error: 'memory must be true or false' }).optional(),
    /** A Redis Cluster only: the run's keys spread over slots, or under one hash tag (link field `keys`). */
    clusterKeys: z.enum(CLUSTER_KEYS, { error: 'clusterKeys must be spread or hashtag' }).default('spread'),
    /** A Redis Cluster only, the raw engine's pipeline: every node's share at once, or one node after another (link field `split`). */
    clusterSplit: z.enum(CLUSTER_SPLITS, { error: 'clusterSplit must be parallel or serial' }).default('parallel'),
    /** A Redis Cluster only: both keys variants (keys) or both split variants (split) side by side (link field `compare`). */
    clusterCompare: z.enum(CLUSTER_COMPARES, { error: 'clusterCompare must be keys or split' }).optional(),
    modes: z
      .array(RunModeSchema)
      .min(1, 'choose at least one mode')
      .max(RUN_MODES.length)
      .refine((modes) => new Set(modes).size === modes.length, 'each mode at most once'),
  })
  .refine((spec) => !spec.modes.includes('chunked') || spec.chunk !== undefined, {
    message: 'a chunked run needs a chunk size (commands per pipeline)',
    path: ['chunk'],
  })
  .refine((spec) => !spec.modes.includes('multikey') || multiKeyCommand(spec.command) !== null, {
    message: 'multikey needs SET (sent as one MSET) or GET (one MGET); PING, INCR and GET-COMPUTE-SET have no multi-key form',
    path: ['modes'],
  })
  .refine((spec) => spec.command !== 'GET-COMPUTE-SET' || spec.modes.every((mode) => DEPENDENT_MODES.includes(mode)), {
    message: 'GET-COMPUTE-SET needs each GET\'s reply before its SET, so it cannot be pipelined or queued in MULTI: choose sequential and eval',
    path: ['modes'],
  })
  .refine((spec) => !spec.modes.includes('auto') || spec.engine !== 'raw', {
    message: 'auto-pipelining is something a client library does: choose ioredis or node-redis for auto',
    path: ['modes'],
  })
  .refine((spec) => !spec.modes.includes('auto') || spec.n <= MAX_ONE_TICK_COMMANDS, {
    message: `auto-pipelining issues every command in one tick, holding the backend meanwhile: at most ${MAX_ONE_TICK_COMMANDS.toLocaleString('en-US')} commands (use pipeline or chunked for more)`,
    path: ['n'],
  })
  .refine((spec) => spec.engine !== 'node-redis' || !spec.modes.some((mode) => mode === 'pipeline' || mode === 'chunked')
    || Math.min(spec.n, spec.modes.includes('pipeline') ? spec.n : (spec.chunk ?? spec.n)) <= MAX_ONE_TICK_COMMANDS, {
    message: `node-redis issues a pipeline in one tick, holding the backend meanwhile: at most ${MAX_ONE_TICK_COMMANDS.toLocaleString('en-US')} commands per pipeline (chunked with a smaller chunk, or ioredis, for more)`,
    path: ['n'],
  })
  .refine((spec) => !spec.reshard || spec.command === 'GET' || spec.command === 'SET', {
    message: 'reshard checks each reply against the value stored: it needs GET (the value written before the run) or SET (OK)',
    path: ['reshard'],
  })
  .refine((spec) => spec.errorAt === undefined || spec.command === 'INCR', {
    message: 'errorAt plants a failing INCR: it needs command INCR',
    path: ['errorAt'],
  })
  .refine((spec) => spec.errorAt === undefined || spec.errorAt < spec.n, {
    message: 'errorAt counts operations from 0: it must be less than n',
    path: ['errorAt'],
  })
  .refine((spec) => spec.errorAt === undefined || spec.errorKind === 'runtime' || !spec.modes.includes('eval'), {
    message: 'a queueing error is a command Redis rejects before running it; inside one EVAL there is none: choose runtime',
    path: ['errorKind'],
  })
  .refine((spec) => spec.chunkPauseMs === 0 || spec.modes.includes('chunked'), {
    message: 'chunkPauseMs is the pause between chunks: it needs the chunked mode',
    path: ['chunkPauseMs'],
  })
  .refine((spec) => spec.clusterSplit === 'parallel' || (spec.engine === 'raw' && spec.modes.includes('pipeline')), {
    message: 'clusterSplit serial is how the raw engine writes a pipeline to a cluster\'s nodes, one after another: it needs the raw engine and the pipeline mode',
    path: ['clusterSplit'],
  })
  .refine((spec) => spec.clusterCompare !== 'keys' || spec.clusterKeys === 'spread', {
    message: 'clusterCompare keys runs each mode with its keys spread and under one hash tag: leave clusterKeys out',
    path: ['clusterKeys'],
  })
  .refine((spec) => spec.clusterCompare !== 'split' || spec.clusterSplit === 'parallel', {
    message: 'clusterCompare split runs the pipeline with its nodes at once and one after another: leave clusterSplit out',
    path: ['clusterSplit'],
  })
  .refine((spec) => spec.clusterCompare !== 'split' || (spec.engine === 'raw' && spec.modes.includes('pipeline')), {
    message: 'clusterCompare split compares how the raw engine writes a pipeline to a cluster\'s nodes: it needs the raw engine and the pipeline mode',
    path: ['clusterCompare'],
  })
  .refine((spec) => !(spec.serverTrace || spec.monitor || spec.strace) || spec.n <= MAX_SERVER_TRACED_COMMANDS, {
    message: `a server-traced run may have at most ${MAX_SERVER_TRACED_COMMANDS.toLocaleString('en-US')} commands`,
    path: ['n'],
  })
  .refine((spec) => !commandTakesValue(spec.command) || spec.n * spec.valueBytes <= MAX_PAYLOAD_BYTES, {
    message: `n × valueBytes must be at most ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB per run`,
    path: ['valueBytes'],
  });
export type RunSpec = z.infer<typeof RunSpecSchema>;

/** Which Redis-side probes a spec asks for: serverTrace means both. */
export function serverProbes(spec: Pick<RunSpec, 'serverTrace' | 'monitor' | 'strace'>): { monitor: boolean; strace: boolean } {
  return { monitor: spec.serverTrace || spec.monitor, strace: spec.serverTrace || spec.strace };
}

/** Runs of at least this many operations can move memory: sampled unless the request says no. */
export const MEMORY_AUTO_OPERATIONS = 10_000;
/** …and runs carrying at least this many value bytes in all (n × valueBytes). */
export const MEMORY_AUTO_PAYLOAD_BYTES = 1024 * 1024;

/**
 * Whether a request samples memory (in its memory repeat): as asked, or, when it did not say, for runs
 * that can move memory: many operations, large values in all, or chunks (whose point is to bound it).
 */
export function memorySampled(spec: Pick<RunSpec, 'memory' | 'n' | 'valueBytes' | 'command' | 'modes'>): boolean {
  if (spec.memory !== undefined) return spec.memory;
  const payload = commandTakesValue(spec.command) ? spec.n * spec.valueBytes : 0;
  return spec.n >= MEMORY_AUTO_OPERATIONS || payload >= MEMORY_AUTO_PAYLOAD_BYTES || spec.modes.includes('chunked');
}

/** How the request chooses its number of rounds. */
export function roundPlan(repeats: Repeats): RoundPlan {
  return repeats === UNTIL_CERTAIN ? 'until-certain' : 'fixed';
}

/** The most rounds a request runs: its count, or until certain the limit (one run a round: SINGLE_MODE_ROUNDS). */
export function plannedRounds(spec: VariantSpec & { repeats: Repeats; modes: readonly RunMode[] }): number {
  if (spec.repeats !== UNTIL_CERTAIN) return spec.repeats;
  return runsPerRound(spec) > 1 ? MAX_REPEATS : SINGLE_MODE_ROUNDS;
}

/** How many warm-up commands a run of n commands gets: min(n, MAX_WARMUP_COMMANDS), none when cold. */
export function warmupCommands(n: number, cold: boolean): number {
  return cold ? 0 : Math.min(n, MAX_WARMUP_COMMANDS);
}
