// The Pipescope trace document, version 4: the one file format every part of Pipescope reads and
// writes (live view, replay, import/export, embeds, CLI recorder, tests). The zod schema is the
// specification; field names carry their unit (…Us = microseconds since the run's t0, bytes = octets).
//
// The versioning rule, from version 4 on: a field added to the document is optional (absent in older
// files, which mean by its absence what they always meant) and keeps the version. Only a breaking
// change — a field removed, renamed, made required or given another meaning — bumps FORMAT_VERSION,
// with a migration from the version before (trace-migration.ts, one step per version: each step writes
// its own target version as a literal) so that trace-io.ts keeps opening every older file.
//
// t0 is the instant the run called the client for its first command; everything Pipescope itself
// does for the run (warm-up, probes, samplers, the first INFO snapshot) happened before it.
//
// Added in version 2: run.warmup, run.repeat, run.probes, totals.doneUs, kernelTcp; memory samples
// may be taken before t0 (negative atUs: the baseline).
// Added in version 3: the modes beyond plain pipelines (multi, eval, evalsha, multikey, auto), the
// GET-COMPUTE-SET workload, run.operations (run.n now counts the commands on the wire, which a
// transaction or a script makes differ from the work asked for), run.injectedError, keysAfter,
// neighbor and heldConnection. wire-layout.ts says which command each wire position carries.
// Added in version 4: incomplete (a run cut short, or still streaming, keeps what it measured; see
// IncompleteSchema for what that changes in the other fields).
// Added in version 4, optional (the version kept: additive fields are optional): run.observed, a
// connection of the user's own client recorded by the observing proxy (ObservedSchema).
import { z } from 'zod';

export const TRACE_FORMAT = 'pipescope-trace';
export const FORMAT_VERSION = 4;

/**
 * The workload's operation. GET-COMPUTE-SET (v3) is a dependent step: GET a key, compute from its value
 * (value × 2 + 1), SET the result; the SET needs the GET's reply, so a pipeline cannot batch it.
 */
export const COMMAND_NAMES = ['PING', 'INCR', 'SET', 'GET', 'GET-COMPUTE-SET'] as const;
/**
 * sequential: one command, its reply awaited, then the next. pipeline: all n written at once.
 * chunked: pipelines of run.chunk commands, each one's replies awaited before the next is written
 * (how the docs advise sending a large job, e.g. in batches of 10k).
 * v3 — multi: MULTI, the n commands, EXEC, written as one pipeline (a transaction: QUEUED replies, then
 * EXEC's array). eval: one EVAL whose Lua script does the n operations on Redis. evalsha: the script
 * loaded (SCRIPT LOAD) before t0, then n EVALSHA calls of one operation each, written as one pipeline.
 * multikey: one native multi-key command (MSET for SET, MGET for GET). auto: the n commands issued in
 * one tick without an explicit pipeline, the client library batching them itself (ioredis with
 * enableAutoPipelining; node-redis does it always).
 */
export const RUN_MODES = ['sequential', 'pipeline', 'chunked', 'multi', 'eval', 'evalsha', 'multikey', 'auto'] as const;

export const CommandNameSchema = z.enum(COMMAND_NAMES);
export const RunModeSchema = z.enum(RUN_MODES);
export type CommandName = z.infer<typeof CommandNameSchema>;
export type RunMode = z.infer<typeof RunModeSchema>;

const micros = z.number().nonnegative().finite();
const count = z.number().int().nonnegative();

export const OBSERVED_SOURCE = 'observing-proxy';
export const HOP_COST_SOURCE = 'ping-through-and-around';

/**
 * What the observing proxy's extra hop costs: sequential PINGs on two connections of Pipescope's own,
 * one straight to the target Redis and one through the observing port (no added delay), taken in
 * alternation so that a slow spell of the machine falls on both alike. addedUs is the median of the
 * paired differences (through − around), with a bootstrap 95 % interval; all µs.
 */
export const HopCostSchema = z.object({
  source: z.literal(HOP_COST_SOURCE),
  pairs: z.number().int().positive(),
  aroundMedianUs: z.number().nonnegative().finite(),
  throughMedianUs: z.number().nonnegative().finite(),
  addedUs: z.number().finite(),
  addedLowUs: z.number().finite(),
  addedHighUs: z.number().finite(),
});
export type HopCost = z.infer<typeof HopCostSchema>;

/** A frame from Redis not paired with any command: a RESP3 push, a pub/sub message, a MONITOR line. */
export const ObservedPushSchema = z.object({
  /** When the proxy received the frame's last byte from Redis, µs since t0. */
  atUs: z.number().nonnegative().finite(),
  bytes: z.number().int().nonnegative(),
  /** The frame shortened for display, like a reply preview. */
  text: z.string().max(256),
});

/**
 * Optional in version 4: a connection of the user's own client or application, recorded by Pipescope's
 * observing proxy (`npm start -- --observe`, `npm run record -- observe`) instead of run by Pipescope.
 * Its times are taken at the proxy, not in the client: a command's sentUs is when the chunk carrying its
 * last byte arrived at the proxy from the client, toServerUs when the proxy wrote it on to Redis,
 * fromServerUs when the reply's last byte arrived from Redis, repliedUs when the proxy wrote it to the
 * client (so `writes` and `reads` are the chunks of the proxy's accepted socket, and counts.client counts
 * them there). t0 is the arrival of the connection's first byte. kernelTcp, when present, was read with
 * `ss` on the proxy's accepted socket: segmentsIn are the client's segments. run.mode is `sequential`
 * when the client never had two commands in flight and `pipeline` otherwise; run.command is only a
 * placeholder (PING): `commands` names each command. Passwords (AUTH, HELLO … AUTH and the like) were
 * replaced by "(redacted)" before anything was stored, in the texts and in every head of bytes.
 */
export const ObservedSchema = z.object({
  source: z.literal(OBSERVED_SOURCE),
  /** The observing session, and this connection's number in it (from 1, in the order accepted). */
  session: z.string().min(1).max(64),
  connection: z.number().int().positive(),
  /** host:port of the client as the proxy saw it. */
  clientAddress: z.string().max(128),
  /** What the client said of itself: CLIENT SETINFO lib-name / lib-ver, CLIENT SETNAME or HELLO … SETNAME. */
  libName: z.string().max(128).optional(),
  libVersion: z.string().max(128).optional(),
  clientName: z.string().max(128).optional(),
  /** The RESP version the connection spoke (3 after a successful HELLO 3). */
  protocol: z.union([z.literal(2), z.literal(3)]),
  /** Each command as sent, shortened (long arguments cut, secrets "(redacted)"), by index: run.n of them. */
  commands: z.array(z.string().max(512)),
  /** Bytes of each command and of each reply on the wire, by index. */
  commandBytes: z.array(z.number().int().nonnegative()),
  replyBytes: z.array(z.number().int().nonnegative()),
  /** Frames from Redis not paired with a command, in order (at most the first 1,000). */
  pushes: z.array(ObservedPushSchema),
  pushCount: z.number().int().nonnegative(),
  /** What happened to the connection besides its commands: closed for garbage, a limit reached, pairing stopped. */
  notes: z.array(z.string().max(512)),
  /** The proxy's own cost per round trip, measured for the session (null when it was not measured). */
  hop: HopCostSchema.nullable(),
});
export type Observed = z.infer<typeof ObservedSchema>;

export const RunInfoSchema = z.object({
  /** Unique id; also the key namespace `pipescope:<id>:` the run's keys lived under. */
  id: z.string().min(1).max(64),
  mode: RunModeSchema,
  command: CommandNameSchema,
  /**
   * Commands on the wire (one record each in `commands`). v3: differs from `operations` when the mode
   * frames or folds them: multi adds MULTI and EXEC, eval and multikey send one command, GET-COMPUTE-SET
   * sends a GET and a SET per operation (wire-layout.ts). Version-2 traces: n = operations.
   */
  n: z.number().int().positive(),
  /** v3. Operations the run asked for (the workload's N): what opsPerSec counts. */
  operations: z.number().int().positive(),
  /** Size of the SET value (or of the value GET reads); 0 for PING and INCR. */
  valueBytes: count,
  /** Wall-clock time of t0, ISO 8601. All …Us fields count from t0, on the client's monotonic clock. */
  startedAt: z.iso.datetime(),
  /** How the i-th command's key is named: `{i}` stands for the index. Empty for PING. */
  keyPattern: z.string(),
  /** Chunked runs only: commands per pipeline (the last pipeline may be shorter). */
  chunk: z.number().int().positive().optional(),
  /**
   * v2. The warm-up before t0 on the run's own connection: `commands` of the same command, in the same
   * mode, on throw-away keys in the run's namespace (deleted after), taking durationUs. null: a cold
   * connection, whose first command pays the first-call costs (and every version-1 trace).
   */
  warmup: z.object({ commands: z.number().int().positive(), durationUs: micros }).nullable(),
  /**
   * v3. A failure planted on purpose (INCR runs only): operation `operation` (from 0) fails. runtime: its
   * key holds a non-integer, so INCR fails when Redis executes it (inside MULTI: after EXEC was accepted).
   * queueing: the command is sent with a missing argument, so Redis rejects it before executing (inside
   * MULTI: EXEC then aborts the whole transaction, EXECABORT). null: nothing planted.
   */
  injectedError: z.object({ operation: count, kind: z.enum(['runtime', 'queueing']) }).nullable(),
  /** v2. Which repeat of its request this run was, from 0 (modes are interleaved: seq 0, pipe 0, seq 1…). */
  repeat: count,
  /** v2. The probes this run asked for (the socket probe is always on). */
  probes: z.object({
    /** MONITOR on a separate connection: execution order and times on Redis. Cheap. */
    monitor: z.boolean(),
    /** strace on redis-server: its read()/write() calls. Slows Redis several-fold while on. */
    strace: z.boolean(),
    /** Memory samples (Redis's CLIENT LIST + INFO memory on a worker thread; this process's heap). */
    memory: z.boolean(),
    /** The kernel's TCP_INFO for the run's client socket, read with `ss` before and after. */
    kernelTcp: z.boolean(),
    /** v3. One PING behind the run on its own connection, one beside it on another (heldConnection). */
    heldConnection: z.boolean(),
  }),
  /** v3. Chunked runs only: ms the client slept between one pipeline's last reply and the next pipeline. */
  chunkPauseMs: z.number().nonnegative().finite().optional(),
  /** v4, optional: present when the run is a connection of the user's own client, observed (ObservedSchema). */
  observed: ObservedSchema.optional(),
});
export type RunInfo = z.infer<typeof RunInfoSchema>;

export const RttSchema = z.object({
  /** Round-trip time added by Pipescope's TCP delay proxy (half each way); 0 when the run went direct. */
  addedMs: z.number().nonnegative().finite(),
  /** ± variation of each chunk's one-way delay in the proxy; 0 without jitter. */
  jitterMs: z.number().nonnegative().finite(),
  /** PING round trips on the run's own connection just before t0 (through the proxy when there is one). */
  measuredMinUs: micros,
  measuredMedianUs: micros,
  samples: count,
});
export type Rtt = z.infer<typeof RttSchema>;

export const RedisInfoSchema = z.object({
  /** `redis_version` from INFO server. */
  version: z.string(),
  /** True when Pipescope started this redis-server itself (no other clients). */
  embedded: z.boolean(),
  /** host:port the run connected to; never a password. */
  address: z.string(),
});
export type RedisInfo = z.infer<typeof RedisInfoSchema>;

/** A reply value, shortened for display: strings longer than REPLY_PREVIEW_CHARS end in "…". */
export const ReplyValueSchema = z.union([z.string(), z.number(), z.null()]);
export type ReplyValue = z.infer<typeof ReplyValueSchema>;
export const REPLY_PREVIEW_CHARS = 64;
/** How many bytes of each socket write/read, proxy hop or syscall the wire view keeps. */
export const HEAD_BYTES = 64;

const commandTimes = {
  index: count,
  /** When the socket write that carried the command's last byte was issued. */
  sentUs: micros,
  /** Through the delay proxy only: when the proxy handed the command's last byte on to Redis. */
  toServerUs: micros.optional(),
  /**
   * Server-traced runs only: when Redis executed the command (its MONITOR line), on the client's clock
   * via serverTrace.clock, so within ± its uncertainty; may be slightly negative for the same reason.
   */
  serverUs: z.number().finite().optional(),
  /** Through the delay proxy only: when the proxy received the last byte of the reply from Redis. */
  fromServerUs: micros.optional(),
  /** When the received chunk that completed the command's reply arrived. */
  repliedUs: micros,
};

export const CommandRecordSchema = z.union([
  z.object({ ...commandTimes, reply: ReplyValueSchema }),
  z.object({ ...commandTimes, error: z.string() }),
]);
export type CommandRecord = z.infer<typeof CommandRecordSchema>;

/** One call of the client socket's write(): what the client library handed to the kernel at once. */
export const SocketWriteSchema = z.object({
  atUs: micros,
  bytes: count,
  /** Index of the first command completed by this write, and how many it completed. */
  firstCommand: count,
  commands: count,
  /** Server-traced and raw-engine runs: the first HEAD_BYTES bytes, escaped (see escapeBytes). */
  head: z.string().optional(),
});
export type SocketWrite = z.infer<typeof SocketWriteSchema>;

/** One `data` event on the client socket: one chunk the client read from the kernel. */
export const SocketReadSchema = z.object({
  atUs: micros,
  bytes: count,
  /** Index of the first reply completed by this chunk, and how many it completed. */
  firstReply: count,
  replies: count,
  /** Server-traced and raw-engine runs: the first HEAD_BYTES bytes, escaped (see escapeBytes). */
  head: z.string().optional(),
});
export type SocketRead = z.infer<typeof SocketReadSchema>;

/**
 * What Pipescope's TCP delay proxy saw on its Redis side, on the client's clock (same process): the
 * chunks it wrote to Redis and the chunks it read back. Redis is one loopback hop away from there.
 */
export const ProxyHopsSchema = z.object({
  toServer: z.array(SocketWriteSchema),
  fromServer: z.array(SocketReadSchema),
});
export type ProxyHops = z.infer<typeof ProxyHopsSchema>;

export const SYSCALL_NAMES = ['read', 'write', 'writev', 'epoll_wait'] as const;

/** One system call Redis made on the run's socket (or an epoll_wait that woke for it), seen by strace. */
export const SyscallSchema = z.object({
  /** When the call started, on the client's clock via serverTrace.clock. */
  atUs: z.number().finite(),
  call: z.enum(SYSCALL_NAMES),
  /** The call's result: bytes read or written (-1 for an error such as EAGAIN; events for epoll_wait). */
  result: z.number().int(),
  /** The first bytes moved, escaped like a C string ("*1\r\n$4\r\nPING\r\n"); "" for epoll_wait. */
  head: z.string(),
});
export type Syscall = z.infer<typeof SyscallSchema>;

/** What Pipescope saw on the Redis side when the run was server-traced (a per-run choice: it costs). */
export const ServerTraceSchema = z.object({
  /** Redis's clock on the client's: server epoch µs − client monotonic µs, ± uncertainty (TIME round trips). */
  clock: z.object({ offsetUs: z.number().finite(), uncertaintyUs: micros, samples: count }),
  /** Commands other connections ran during the run, from MONITOR: interleaving, shown for what it is (empty when run.probes.monitor was off). */
  others: z.array(z.object({ atUs: z.number().finite(), source: z.string(), command: z.string() })),
  /** Kernel-level calls on the run's socket, from strace; null when strace could not be used. */
  syscalls: z.object({ source: z.literal('strace'), calls: z.array(SyscallSchema) }).nullable(),
});
export type ServerTrace = z.infer<typeof ServerTraceSchema>;

export const CLIENT_COUNT_SOURCE = 'client-socket';
export const SERVER_COUNT_SOURCE = 'redis-info';

export const CountsSchema = z.object({
  client: z.object({
    writes: count,
    reads: count,
    bytesOut: count,
    bytesIn: count,
    /** 'client-socket': counted by wrapping the client socket's write() and `data` events. */
    source: z.literal(CLIENT_COUNT_SOURCE),
  }),
  server: z.object({
    /** Read events Redis processed (INFO stats total_reads_processed delta), one read() each. */
    reads: count,
    /** Write events Redis processed (INFO stats total_writes_processed delta). */
    writes: count,
    /** Time Redis spent executing the run's command (INFO commandstats usec delta): its service time. */
    execUs: micros,
    source: z.literal(SERVER_COUNT_SOURCE),
    /** False when other clients shared the Redis during the run, so the deltas include their traffic. */
    exclusive: z.boolean(),
  }),
});
export type Counts = z.infer<typeof CountsSchema>;

export const TotalsSchema = z.object({
  /** t0 (first command issued) to the arrival of the last reply. */
  durationUs: micros,
  /** v3: run.operations per second of durationUs (version 2 counted commands, then the same number). */
  opsPerSec: z.number().nonnegative().finite(),
  /**
   * v2. t0 to when the client's call returned its results (the last reply parsed and handed over):
   * at least durationUs. Version-1 traces did not measure it and migrate with doneUs = durationUs.
   */
  doneUs: micros,
});
export type Totals = z.infer<typeof TotalsSchema>;

export const RecorderSchema = z.object({
  tool: z.string(),
  version: z.string(),
  /** The client library that issued the commands, e.g. "ioredis 6.0.0". */
  client: z.string(),
  runtime: z.string(),
});

export const KERNEL_TCP_SOURCE = 'kernel (ss)';

/**
 * v2. What the kernel counted for the run's client socket (TCP_INFO via `ss -tin`, before and after
 * the run; deltas). It works against a remote Redis too: the client socket is local. Through the delay
 * proxy these are the client's hop to the proxy. `unavailable` says why there are no figures.
 */
export const KernelTcpSchema = z.union([
  z.object({
    source: z.literal(KERNEL_TCP_SOURCE),
    /** TCP segments sent / received, all (segs_out, segs_in) and carrying data (data_segs_out/in). */
    segmentsOut: count,
    segmentsIn: count,
    dataSegmentsOut: count,
    dataSegmentsIn: count,
    /** Payload bytes acknowledged by the peer (bytes_acked) and received (bytes_received). */
    bytesAcked: count,
    bytesReceived: count,
    /** Segments retransmitted (retrans total). */
    retransmits: count,
  }),
  z.object({ source: z.literal(KERNEL_TCP_SOURCE), unavailable: z.string() }),
]);
export type KernelTcp = z.infer<typeof KernelTcpSchema>;

export const MEMORY_SERVER_SOURCE = 'redis-client-list+info-memory';
export const MEMORY_CLIENT_SOURCE = 'node-process-memory';

/**
 * Memory during the run, sampled every intervalMs. Redis's side is asked from a worker thread, so it is
 * sampled while the client is busy too; the client's heap is read on the run's own thread, as often as
 * its event loop allows (a client busy encoding a huge pipeline takes no heap samples meanwhile). Each
 * sample's atUs is when its reading was taken, on the run's clock; the first of each is taken before
 * t0 (v2: negative atUs), the baseline the run's growth is measured from.
 */
export const MemorySchema = z.object({
  intervalMs: z.number().positive().finite(),
  server: z.object({
    /** `CLIENT LIST ID` of the run's connection and `INFO memory`, asked on a separate connection. */
    source: z.literal(MEMORY_SERVER_SOURCE),
    samples: z.array(
      z.object({
        atUs: z.number().finite(),
        /** The run connection's query buffer (commands read, not yet executed), bytes. */
        qbuf: count,
        /** The run connection's reply queue beyond its fixed 16 KiB buffer (replies not yet written), bytes. */
        omem: count,
        /** Everything Redis holds for the run connection, bytes. */
        totMem: count,
        /** Redis's whole allocation (`used_memory`), keys included, bytes. */
        usedMemory: count,
      }),
    ),
  }),
  client: z.object({
    /** process.memoryUsage() of the Node process that ran the client. */
    source: z.literal(MEMORY_CLIENT_SOURCE),
    samples: z.array(z.object({ atUs: z.number().finite(), rss: count, heapUsed: count, external: count })),
  }),
});
export type Memory = z.infer<typeof MemorySchema>;
export type ServerMemorySample = Memory['server']['samples'][number];
export type ClientMemorySample = Memory['client']['samples'][number];

export const KEYS_AFTER_SOURCE = 'redis-after-run';
/** Keys read back after a run at most: enough to see every key of a lesson-sized run. */
export const MAX_KEYS_AFTER = 1000;

/**
 * v3. The run's keys as Redis held them once the run was over, read on Pipescope's own connection
 * before they were deleted (GET, or TYPE for a key that is not a string): what was applied, what was
 * rolled back. Recorded for runs with a planted error, transactions and scripts; at most MAX_KEYS_AFTER,
 * in key order (`truncated` when there were more).
 */
export const KeysAfterSchema = z.object({
  source: z.literal(KEYS_AFTER_SOURCE),
  keys: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
  truncated: z.boolean(),
});
export type KeysAfter = z.infer<typeof KeysAfterSchema>;

export const NEIGHBOR_SOURCE = 'neighbor-client';
export const NEIGHBOR_COMMANDS = ['INCR', 'GET'] as const;

/**
 * v3. Another client on its own connection, started before t0 and stopped after the run: it issued
 * `command` on its own key in the run's namespace at ratePerSec, one at a time (each awaited), as another
 * application sharing the Redis would. `address` is its connection as Redis (MONITOR) names it, so its
 * commands can be told apart in serverTrace.others. Each of its commands is timed on the run's clock.
 * Paced on an absolute schedule (command k due at k / ratePerSec); when a reply comes late it catches up
 * one command at a time, never with several in flight. The recorder sends at most 200,000 commands (10 s
 * at the highest rate), then stops: a longer run's `commands` end before the run does.
 */
export const NeighborSchema = z.object({
  source: z.literal(NEIGHBOR_SOURCE),
  command: z.enum(NEIGHBOR_COMMANDS),
  ratePerSec: z.number().positive().finite(),
  /** Size of the value its GETs read, bytes (0 for INCR). */
  valueBytes: count,
  address: z.string(),
  /** Its commands in order: when each was sent and its reply arrived (µs since t0; before t0 is negative). */
  commands: z.array(z.object({ sentUs: z.number().finite(), repliedUs: z.number().finite(), error: z.string().optional() })),
});
export type Neighbor = z.infer<typeof NeighborSchema>;

/**
 * v3. A pipeline holds its connection: one PING issued on the run's own connection right after the
 * pipeline was handed over (it waits behind every reply), and one PING at the same instant on a second
 * connection. The first is the run's last wire command; both times are µs since t0.
 */
export const HeldConnectionSchema = z.object({
  issuedUs: micros,
  sameConnectionRepliedUs: micros,
  otherConnectionRepliedUs: micros,
});
export type HeldConnection = z.infer<typeof HeldConnectionSchema>;

/**
 * Why a run's trace holds only part of it. in-progress: a snapshot of a run still streaming (the live
 * view draws these; one exported then says so). cancelled: the user cancelled it. connection-lost: the
 * browser's connection to the backend closed during it. failed: the backend reported an error.
 */
export const INCOMPLETE_REASONS = ['in-progress', 'cancelled', 'connection-lost', 'failed'] as const;
/**
 * The measurements that need the whole run, each left out of an incomplete trace (named so that a
 * reader knows it was not measured, rather than measured as nothing): redis-info = counts.server
 * (INFO deltas), monitor and strace = serverTrace, memory, kernel-tcp = kernelTcp, keys-after,
 * neighbor, held-connection.
 */
export const OMITTED_MEASUREMENTS = ['redis-info', 'monitor', 'strace', 'memory', 'kernel-tcp', 'keys-after', 'neighbor', 'held-connection'] as const;
export type IncompleteReason = (typeof INCOMPLETE_REASONS)[number];
export type OmittedMeasurement = (typeof OMITTED_MEASUREMENTS)[number];

/**
 * v4. Present (non-null) when the trace holds only part of its run. Such a trace lists `commands` only
 * for the commands whose replies arrived (and were handed back by the client), the first
 * commands.length of run.n; `writes` may carry commands whose replies never came (up to `sent`).
 * totals cover what was measured: durationUs = t0 to the last listed reply, doneUs = durationUs (the
 * client's call never returned), opsPerSec = the operations whose replies arrived (wire-layout.ts
 * completedOperations) per durationUs. A measurement listed in `omitted` is null in the document;
 * counts.server, which cannot be null, is then all zeros and `exclusive: false`: not measured.
 */
export const IncompleteSchema = z.object({
  reason: z.enum(INCOMPLETE_REASONS),
  /** failed: what the backend said went wrong. */
  message: z.string().optional(),
  /** How far it got: commands written to the socket and replies arrived, of run.n. */
  sent: count,
  replied: count,
  omitted: z.array(z.enum(OMITTED_MEASUREMENTS)),
});
export type Incomplete = z.infer<typeof IncompleteSchema>;

export const TraceDocumentSchema = z.object({
  format: z.literal(TRACE_FORMAT),
  version: z.literal(FORMAT_VERSION),
  run: RunInfoSchema,
  redis: RedisInfoSchema,
  rtt: RttSchema,
  recorder: RecorderSchema,
  commands: z.array(CommandRecordSchema),
  writes: z.array(SocketWriteSchema),
  reads: z.array(SocketReadSchema),
  /** null when the run connected to Redis directly. */
  proxy: ProxyHopsSchema.nullable(),
  /** null unless the run was server-traced (MONITOR, and strace where possible). */
  serverTrace: ServerTraceSchema.nullable(),
  counts: CountsSchema,
  totals: TotalsSchema,
  /** null when memory was not sampled (or the trace predates sampling). */
  memory: MemorySchema.nullable().default(null),
  /** v2. null when the run did not ask for kernel TCP figures. */
  kernelTcp: KernelTcpSchema.nullable(),
  /** v3. null unless recorded (see KeysAfterSchema). */
  keysAfter: KeysAfterSchema.nullable(),
  /** v3. null when no neighbour client ran alongside. */
  neighbor: NeighborSchema.nullable(),
  /** v3. null unless the run asked for the held-connection probe. */
  heldConnection: HeldConnectionSchema.nullable(),
  /** v4. null for a whole run (see IncompleteSchema). */
  incomplete: IncompleteSchema.nullable(),
});
export type TraceDocument = z.infer<typeof TraceDocumentSchema>;
