// The Pipescope trace document, version 4: the one file format every part of Pipescope reads and
// writes (live view, replay, import/export, embeds, CLI recorder, tests). The zod schema is the
// specification; field names carry their unit (…Us = microseconds, …Ms = milliseconds, bytes = octets).
// Each field's meaning is in its .describe(), which docs/trace-format.md is generated from
// (npm run docs:trace-format; a unit test fails when the page and the schema disagree).
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
// connection of the user's own client recorded by the observing proxy (ObservedSchema); run.warmup.tail
// (the hot start), run.memoryRepeat, rtt.mechanism and the delay's measured figures, serverCpu (Redis's
// CPU time over the run), probeCosts (which probes ran, what each cost), run.round (the run's place in its request's round, and how
// the request chose its number of rounds).
// Added within version 4, optional: cluster (a run against a Redis Cluster: topology, the client's socket
// to each node, redirects, a client library's refusal), and on a cluster run each command's slot, node and
// connection, each write's and read's connection (cluster-format.ts).
import { z } from 'zod';
import { ClusterSchema, commandClusterFields, socketClusterFields } from './cluster-format.ts';

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

/** How a request chose its number of rounds (run.round.plan): a count asked for, or until its verdicts were certain. */
export const ROUND_PLANS = ['fixed', 'until-certain'] as const;
export type RoundPlan = (typeof ROUND_PLANS)[number];

export const CommandNameSchema = z.enum(COMMAND_NAMES).describe(
  'The workload\'s operation. GET-COMPUTE-SET (since version 3) is a dependent step: GET a key, compute from its value ' +
    '(value × 2 + 1), SET the result; the SET needs the GET\'s reply, so a pipeline cannot batch it.',
);
export const RunModeSchema = z.enum(RUN_MODES).describe(
  'sequential: one command, its reply awaited, then the next. pipeline: all n written at once. chunked: pipelines of ' +
    'run.chunk commands, each one\'s replies awaited before the next is written. Since version 3: multi (MULTI, the n ' +
    'commands, EXEC, written as one pipeline), eval (one EVAL whose Lua script does the n operations), evalsha (the ' +
    'script loaded before t0, then n EVALSHA calls in one pipeline), multikey (one MSET or MGET), auto (the n commands ' +
    'issued in one tick, the client library batching them itself).',
);
export type CommandName = z.infer<typeof CommandNameSchema>;
export type RunMode = z.infer<typeof RunModeSchema>;

/** µs counted from t0 (or a duration in µs): never negative. */
const micros = z.number().nonnegative().finite();
const count = z.number().int().nonnegative();

export const OBSERVED_SOURCE = 'observing-proxy';
export const HOP_COST_SOURCE = 'ping-through-and-around';

export const HopCostSchema = z.object({
  source: z.literal(HOP_COST_SOURCE).describe('How the hop was measured: PINGs through the observing port and around it.'),
  pairs: z.number().int().positive().describe('PING pairs taken (one through, one around, alternating).'),
  aroundMedianUs: z.number().nonnegative().finite().describe('Median round trip straight to the target Redis, µs.'),
  throughMedianUs: z.number().nonnegative().finite().describe('Median round trip through the observing port, µs.'),
  addedUs: z.number().finite().describe('Median of the paired differences (through − around), µs: what the hop adds per round trip.'),
  addedLowUs: z.number().finite().describe('Lower end of addedUs\'s bootstrap 95 % interval, µs.'),
  addedHighUs: z.number().finite().describe('Upper end of addedUs\'s bootstrap 95 % interval, µs.'),
}).describe(
  'What the observing proxy\'s extra hop costs: sequential PINGs on two connections of Pipescope\'s own, one straight ' +
    'to the target Redis and one through the observing port (no added delay), taken in alternation so that a slow ' +
    'spell of the machine falls on both alike.',
);
export type HopCost = z.infer<typeof HopCostSchema>;

export const ObservedPushSchema = z.object({
  atUs: z.number().nonnegative().finite().describe('When the proxy received the frame\'s last byte from Redis, µs since t0.'),
  bytes: z.number().int().nonnegative().describe('The frame\'s size on the wire, bytes.'),
  text: z.string().max(256).describe('The frame shortened for display, like a reply preview.'),
}).describe('A frame from Redis not paired with any command: a RESP3 push, a pub/sub message, a MONITOR line.');

export const ObservedSchema = z.object({
  source: z.literal(OBSERVED_SOURCE).describe('Who recorded the connection: the observing proxy.'),
  session: z.string().min(1).max(64).describe('The observing session the connection belongs to.'),
  connection: z.number().int().positive().describe('This connection\'s number in its session, from 1, in the order accepted.'),
  clientAddress: z.string().max(128).describe('host:port of the client as the proxy saw it.'),
  libName: z.string().max(128).optional().describe('The client library\'s name, as the client said with CLIENT SETINFO lib-name.'),
  libVersion: z.string().max(128).optional().describe('The client library\'s version, as the client said with CLIENT SETINFO lib-ver.'),
  clientName: z.string().max(128).optional().describe('The connection\'s name, from CLIENT SETNAME or HELLO … SETNAME.'),
  protocol: z.union([z.literal(2), z.literal(3)]).describe('The RESP version the connection spoke (3 after a successful HELLO 3).'),
  commands: z.array(z.string().max(512)).describe(
    'Each command as sent, shortened (long arguments cut, secrets "(redacted)"), by index: run.n of them.',
  ),
  commandBytes: z.array(z.number().int().nonnegative()).describe('Bytes of each command on the wire, by index.'),
  replyBytes: z.array(z.number().int().nonnegative()).describe('Bytes of each reply on the wire, by index.'),
  pushes: z.array(ObservedPushSchema).describe('Frames from Redis not paired with a command, in order (at most the first 1,000).'),
  pushCount: z.number().int().nonnegative().describe('How many such frames arrived in all (pushes keeps at most 1,000).'),
  notes: z.array(z.string().max(512)).describe(
    'What happened to the connection besides its commands: closed for garbage, a limit reached, pairing stopped.',
  ),
  hop: HopCostSchema.nullable().describe('The proxy\'s own cost per round trip, measured for the session; null when it was not measured.'),
}).describe(
  'Since version 4, optional: a connection of the user\'s own client or application, recorded by Pipescope\'s observing ' +
    'proxy (`npm start -- --observe`, `npm run record -- observe`) instead of run by Pipescope. Its times are taken at ' +
    'the proxy, not in the client: a command\'s sentUs is when the chunk carrying its last byte arrived at the proxy ' +
    'from the client, toServerUs when the proxy wrote it on to Redis, fromServerUs when the reply\'s last byte arrived ' +
    'from Redis, repliedUs when the proxy wrote it to the client (so `writes` and `reads` are the chunks of the ' +
    'proxy\'s accepted socket, and counts.client counts them there). t0 is the arrival of the connection\'s first byte. ' +
    'kernelTcp, when present, was read with `ss` on the proxy\'s accepted socket: segmentsIn are the client\'s ' +
    'segments. run.mode is `sequential` when the client never had two commands in flight and `pipeline` otherwise; ' +
    'run.command is only a placeholder (PING): `commands` names each command. Passwords (AUTH, HELLO … AUTH and the ' +
    'like) were replaced by "(redacted)" before anything was stored, in the texts and in every head of bytes.',
);
export type Observed = z.infer<typeof ObservedSchema>;

export const RunInfoSchema = z.object({
  id: z.string().min(1).max(64).describe('Unique id; also the key namespace `pipescope:<id>:` the run\'s keys lived under.'),
  mode: RunModeSchema,
  command: CommandNameSchema,
  n: z.number().int().positive().describe(
    'Commands on the wire, one record each in `commands`. Since version 3 it differs from `operations` when the mode ' +
      'frames or folds them: multi adds MULTI and EXEC, eval and multikey send one command, GET-COMPUTE-SET sends a GET ' +
      'and a SET per operation (trace/format/wire-layout.ts). Version-2 traces: n = operations.',
  ),
  operations: z.number().int().positive().describe('Since version 3. Operations the run asked for (the workload\'s N): what totals.opsPerSec counts.'),
  valueBytes: count.describe('Size of the SET value (or of the value GET reads), bytes; 0 for PING and INCR.'),
  startedAt: z.iso.datetime().describe('Wall-clock time of t0, ISO 8601 (UTC). Every …Us field counts from t0, on the client\'s monotonic clock.'),
  keyPattern: z.string().describe('How the i-th command\'s key is named: `{i}` stands for the index. Empty for PING.'),
  chunk: z.number().int().positive().optional().describe('Chunked runs only: commands per pipeline (the last pipeline may be shorter).'),
  warmup: z.object({
    commands: z.number().int().positive().describe('Warm-up commands sent.'),
    durationUs: micros.describe('How long the warm-up took, µs.'),
    tail: z.object({
      roundTrips: count.describe('Its sequential round trips of the run\'s command, plus one for a small batch in the run\'s mode.'),
      commands: count.describe('The wire commands it sent.'),
    }).optional().describe(
      'Optional (absent in older traces: no tail). The hot start: the warm-up\'s last round trips, sent after every probe ' +
        'was attached and right before the run\'s first INFO snapshot and t0, so that neither Redis nor the client idles ' +
        'before the first command (an idle gap of 1 ms made the first round trip ~4× a steady one here). It sends the run ' +
        'command\'s twin (INCRBY key 1, GETRANGE, SETEX, ECHO), which Redis counts under another name. Not counted in ' +
        '`commands` or `durationUs`; before the first INFO snapshot, so no INFO delta holds it.',
    ),
  }).nullable().describe(
    'Since version 2. The warm-up before t0 on the run\'s own connection: `commands` of the same command, in the same ' +
      'mode, on throw-away keys in the run\'s namespace (deleted after). null: a cold connection, whose first command ' +
      'pays the first-call costs (and every version-1 trace).',
  ),
  injectedError: z.object({
    operation: count.describe('The operation that fails, counted from 0.'),
    kind: z.enum(['runtime', 'queueing']).describe(
      'runtime: its key holds a non-integer, so INCR fails when Redis executes it (inside MULTI: after EXEC was accepted). ' +
        'queueing: the command is sent with a missing argument, so Redis rejects it before executing (inside MULTI: EXEC ' +
        'then aborts the whole transaction, EXECABORT).',
    ),
  }).nullable().describe('Since version 3. A failure planted on purpose (INCR runs only). null: nothing planted.'),
  repeat: count.describe('Since version 2. Which repeat of its request this run was, from 0 (modes are interleaved: sequential 0, pipeline 0, sequential 1…).'),
  probes: z.object({
    monitor: z.boolean().describe('MONITOR on a separate connection: execution order and times on Redis. Cheap.'),
    strace: z.boolean().describe('strace on redis-server: its read()/write() calls. Slows Redis several-fold while on.'),
    memory: z.boolean().describe('Memory samples (Redis\'s CLIENT LIST and INFO memory from a worker thread; this process\'s heap).'),
    kernelTcp: z.boolean().describe('The kernel\'s TCP_INFO for the run\'s client socket, read with `ss` before and after.'),
    heldConnection: z.boolean().describe('Since version 3. One PING behind the run on its own connection, one beside it on another (see heldConnection).'),
  }).describe('Since version 2. The probes this run asked for (the client socket probe is always on).'),
  chunkPauseMs: z.number().nonnegative().finite().optional().describe(
    'Since version 3. Chunked runs only: ms the client slept between one pipeline\'s last reply and the next pipeline (inside the measured time).',
  ),
  observed: ObservedSchema.optional(),
  memoryRepeat: z.boolean().optional().describe(
    'Optional (absent: false). true for a request\'s memory repeat: a run of its own that sampled memory, after the timed ' +
      'repeats, which ran without the sampler (it slowed a small run 1.5–2× here). Its time includes the sampler\'s: it ' +
      'is for the memory figures, and no time comparison uses it.',
  ),
  round: z.object({
    position: count.describe('This run\'s place in its round, from 0.'),
    plan: z.enum(ROUND_PLANS).describe(
      'How the request chose its number of rounds: \'fixed\', the count asked for; \'until-certain\', it stopped at the first ' +
        'checkpoint where its comparisons\' 95 % intervals excluded 1, or at the limit (trace/derive/paired-verdict.ts). A verdict ' +
        'on these runs is read the same way.',
    ),
  }).optional().describe(
    'Optional (added within v4). A request runs its modes in rounds, each mode once per round, round `repeat` giving one pair ' +
      'per two modes; the order alternates (the request\'s modes forward in even rounds, reversed in odd ones), so no mode always ' +
      'goes first. Absent: recorded before rounds alternated (the modes ran in RUN_MODES order every round) and, for the verdict, a fixed count.',
  ),
  redirectCommands: z.object({
    resent: count.describe('Commands sent again to the node a MOVED, ASK or TRYAGAIN named (each one a redirect\'s `followedBy` in cluster.redirects).'),
    asking: z.array(count).describe('The positions (indices in `commands`) of the ASKING commands sent right before an ASK\'s resend, ascending.'),
  }).optional().describe(
    'Optional (added within v4). Cluster runs that followed redirects: the commands the client added on the wire to follow them. ' +
      '`n` counts them too (the run\'s own commands, plus `resent`, plus one ASKING per followed ASK). Absent: none were added.',
  ),
}).describe('What was run: the request, the probes it asked for and its place among its request\'s repeats.');
export type RunInfo = z.infer<typeof RunInfoSchema>;

export const RttSchema = z.object({
  addedMs: z.number().nonnegative().finite().describe('Round-trip time added by Pipescope\'s TCP delay proxy (half each way), ms; 0 when the run went direct.'),
  jitterMs: z.number().nonnegative().finite().describe('± variation of each chunk\'s one-way delay in the proxy, ms; 0 without jitter.'),
  measuredMinUs: micros.describe('Fastest PING round trip on the run\'s own connection just before t0 (through the proxy when there is one), µs.'),
  measuredMedianUs: micros.describe('Median of those PING round trips, µs.'),
  samples: count.describe('How many PING round trips were timed.'),
  mechanism: z.enum(['proxy']).optional().describe(
    'Optional, runs with added delay only (absent in older traces). How the delay was added: proxy = Pipescope\'s TCP ' +
      'proxy in the backend\'s process, holding each chunk half the added RTT each way (kernel delay, netem, is not used: ' +
      'it needs root and is missing from some kernels).',
  ),
  measuredP10Us: micros.optional().describe('Optional, with `mechanism`: the 10th percentile of the same PING round trips, µs.'),
  measuredP90Us: micros.optional().describe('Optional, with `mechanism`: the 90th percentile of the same PING round trips, µs.'),
  directMedianUs: micros.optional().describe(
    'Optional, with `mechanism`: the median of as many PINGs on a direct connection, taken alternately with the proxied ' +
      'ones, µs: measuredMedianUs − directMedianUs is the added round trip as measured.',
  ),
  hopCompensationUs: micros.optional().describe(
    'Optional, with `mechanism`: what the proxy takes off each hold, µs: the cost of its own hop in each direction, ' +
      'calibrated before the run as half of (RTT through the proxy holding nothing − RTT direct).',
  ),
}).describe('The round-trip time: what Pipescope added, and what was measured before t0.');
export type Rtt = z.infer<typeof RttSchema>;

export const RedisInfoSchema = z.object({
  version: z.string().describe('`redis_version` from INFO server.'),
  embedded: z.boolean().describe('True when Pipescope started this redis-server itself (no other clients).'),
  address: z.string().describe('host:port the run connected to; never a password.'),
}).describe('The Redis the run went to.');
export type RedisInfo = z.infer<typeof RedisInfoSchema>;

export const REPLY_PREVIEW_CHARS = 64;
/** A reply value, shortened for display: strings longer than REPLY_PREVIEW_CHARS end in "…". */
export const ReplyValueSchema = z.union([z.string(), z.number(), z.null()]).describe(
  `The reply, shortened for display: a string longer than ${REPLY_PREVIEW_CHARS} characters ends in "…".`,
);
export type ReplyValue = z.infer<typeof ReplyValueSchema>;
/** How many bytes of each socket write/read, proxy hop or syscall the wire view keeps. */
export const HEAD_BYTES = 64;

const commandTimes = {
  index: count.describe('The command\'s position on the wire, from 0.'),
  sentUs: micros.describe('When the socket write that carried the command\'s last byte was issued, µs since t0.'),
  toServerUs: micros.optional().describe('Through the delay proxy only: when the proxy handed the command\'s last byte on to Redis, µs since t0.'),
  serverUs: z.number().finite().optional().describe(
    'Server-traced runs only: when Redis executed the command (its MONITOR line), µs since t0 on the client\'s clock via ' +
      'serverTrace.clock, so within ± its uncertainty; may be slightly negative for the same reason. Absent for a command ' +
      'Redis never ran.',
  ),
  fromServerUs: micros.optional().describe('Through the delay proxy only: when the proxy received the last byte of the reply from Redis, µs since t0.'),
  repliedUs: micros.describe('When the received chunk that completed the command\'s reply arrived, µs since t0.'),
  ...commandClusterFields,
};

export const CommandRecordSchema = z.union([
  z.object({ ...commandTimes, reply: ReplyValueSchema }).describe('A command Redis answered with a value.'),
  z.object({ ...commandTimes, error: z.string().describe('The error reply, as Redis sent it.') }).describe('A command Redis answered with an error.'),
]).describe('One command on the wire, in wire order: its times and its reply.');
export type CommandRecord = z.infer<typeof CommandRecordSchema>;

const headField = z.string().optional().describe(
  `Server-traced and raw-engine runs: the first ${HEAD_BYTES} bytes, escaped like a C string (trace/format/escape-bytes.ts).`,
);

export const SocketWriteSchema = z.object({
  atUs: micros.describe('When write() was called, µs since t0.'),
  bytes: count.describe('Bytes written.'),
  firstCommand: count.describe('Index of the first command this write completed.'),
  commands: count.describe('How many commands this write completed.'),
  head: headField,
  ...socketClusterFields,
}).describe('One call of the client socket\'s write(): what the client library handed to the kernel at once.');
export type SocketWrite = z.infer<typeof SocketWriteSchema>;

export const SocketReadSchema = z.object({
  atUs: micros.describe('When the chunk arrived, µs since t0.'),
  bytes: count.describe('Bytes read.'),
  firstReply: count.describe('Index of the first reply this chunk completed.'),
  replies: count.describe('How many replies this chunk completed.'),
  head: headField,
  ...socketClusterFields,
}).describe('One `data` event on the client socket: one chunk the client read from the kernel.');
export type SocketRead = z.infer<typeof SocketReadSchema>;

export const ProxyHopsSchema = z.object({
  toServer: z.array(SocketWriteSchema.describe('One chunk the proxy wrote to Redis; `commands` counts the commands it completed.'))
    .describe('The chunks the proxy wrote to Redis, in order.'),
  fromServer: z.array(SocketReadSchema.describe('One chunk the proxy read from Redis; `replies` counts the replies it completed.'))
    .describe('The chunks the proxy read back from Redis, in order.'),
}).describe(
  'What Pipescope\'s TCP delay proxy saw on its Redis side, on the client\'s clock (same process). Redis is one loopback hop away from there.',
);
export type ProxyHops = z.infer<typeof ProxyHopsSchema>;

export const SYSCALL_NAMES = ['read', 'write', 'writev', 'epoll_wait'] as const;

export const SyscallSchema = z.object({
  atUs: z.number().finite().describe('When the call started, µs since t0 on the client\'s clock via serverTrace.clock.'),
  call: z.enum(SYSCALL_NAMES).describe('The system call.'),
  result: z.number().int().describe('The call\'s result: bytes read or written (-1 for an error such as EAGAIN; events for epoll_wait).'),
  head: z.string().describe('The first bytes moved, escaped like a C string ("*1\\r\\n$4\\r\\nPING\\r\\n"); "" for epoll_wait.'),
}).describe('One system call Redis made on the run\'s socket (or an epoll_wait that woke for it), seen by strace.');
export type Syscall = z.infer<typeof SyscallSchema>;

export const ServerTraceSchema = z.object({
  clock: z.object({
    offsetUs: z.number().finite().describe('Server epoch µs − client monotonic µs, from the fastest TIME round trip.'),
    uncertaintyUs: micros.describe('± half that round trip, µs.'),
    samples: count.describe('TIME round trips taken.'),
  }).describe('Redis\'s clock put on the client\'s, NTP-style (TIME round trips on the control connection).'),
  others: z.array(z.object({
    atUs: z.number().finite().describe('When Redis ran it, µs since t0 (client clock).'),
    source: z.string().describe('The connection that sent it, as MONITOR names it (host:port).'),
    command: z.string().describe('The command as MONITOR printed it.'),
  })).describe('Commands other connections ran during the run, from MONITOR: interleaving, shown for what it is (empty when run.probes.monitor was off).'),
  syscalls: z.object({
    source: z.literal('strace'),
    calls: z.array(SyscallSchema),
  }).nullable().describe('Kernel-level calls on the run\'s socket, from strace; null when strace was off or could not be used.'),
}).describe('What Pipescope saw on the Redis side when the run was server-traced (a per-run choice: it costs).');
export type ServerTrace = z.infer<typeof ServerTraceSchema>;

export const CLIENT_COUNT_SOURCE = 'client-socket';
export const SERVER_COUNT_SOURCE = 'redis-info';

export const CountsSchema = z.object({
  client: z.object({
    writes: count.describe('Calls of write() on the client socket.'),
    reads: count.describe('`data` events (chunks read) on the client socket.'),
    bytesOut: count.describe('Bytes written.'),
    bytesIn: count.describe('Bytes read.'),
    source: z.literal(CLIENT_COUNT_SOURCE).describe('Counted by wrapping the client socket\'s write() and `data` events.'),
  }).describe('What the client library did on its socket.'),
  server: z.object({
    reads: count.describe('Read events Redis processed (INFO stats total_reads_processed delta), one read() each.'),
    writes: count.describe('Write events Redis processed (INFO stats total_writes_processed delta).'),
    execUs: micros.describe('Time Redis spent executing the run\'s commands (INFO commandstats usec delta), µs: its service time.'),
    source: z.literal(SERVER_COUNT_SOURCE).describe('Deltas of INFO, read on a separate control connection before and after the run.'),
    exclusive: z.boolean().describe('False when other clients shared the Redis during the run, so the deltas include their traffic.'),
  }).describe('What Redis counted.'),
}).describe('Counts of the run, each with its source.');
export type Counts = z.infer<typeof CountsSchema>;

export const TotalsSchema = z.object({
  durationUs: micros.describe('t0 (first command issued) to the arrival of the last reply, µs.'),
  opsPerSec: z.number().nonnegative().finite().describe(
    'run.operations per second of durationUs (since version 3; version 2 counted commands, then the same number).',
  ),
  doneUs: micros.describe(
    'Since version 2. t0 to when the client\'s call returned its results (the last reply parsed and handed over), µs: ' +
      'at least durationUs. Version-1 traces did not measure it and migrate with doneUs = durationUs.',
  ),
}).describe('The run\'s headline figures, at the client socket.');
export type Totals = z.infer<typeof TotalsSchema>;

export const RecorderSchema = z.object({
  tool: z.string().describe('What recorded the trace ("pipescope").'),
  version: z.string().describe('Its version.'),
  client: z.string().describe('The client library that issued the commands, e.g. "ioredis 6.0.0".'),
  runtime: z.string().describe('The runtime the client ran on, e.g. "node v20.20.2".'),
}).describe('Who recorded the run, with what.');

export const KERNEL_TCP_SOURCE = 'kernel (ss)';

export const KernelTcpSchema = z.union([
  z.object({
    source: z.literal(KERNEL_TCP_SOURCE),
    segmentsOut: count.describe('TCP segments sent (segs_out).'),
    segmentsIn: count.describe('TCP segments received (segs_in).'),
    dataSegmentsOut: count.describe('Segments sent that carried data (data_segs_out).'),
    dataSegmentsIn: count.describe('Segments received that carried data (data_segs_in).'),
    bytesAcked: count.describe('Payload bytes acknowledged by the peer (bytes_acked).'),
    bytesReceived: count.describe('Payload bytes received (bytes_received).'),
    retransmits: count.describe('Segments retransmitted (retrans total).'),
  }).describe('The figures, as deltas over the run.'),
  z.object({
    source: z.literal(KERNEL_TCP_SOURCE),
    unavailable: z.string().describe('Why there are no figures.'),
  }).describe('No figures, and why.'),
]).describe(
  'What the kernel counted for the run\'s client socket (TCP_INFO via `ss -tin`, before and after the ' +
    'run). It works against a remote Redis too: the client socket is local. Through the delay proxy these are the ' +
    'client\'s hop to the proxy. The warm-up\'s tail (run.warmup.tail) crosses the socket between the two readings: its ' +
    'bytes, as the socket probe counted them, and one data segment per message are taken out.',
);
export type KernelTcp = z.infer<typeof KernelTcpSchema>;

export const MEMORY_SERVER_SOURCE = 'redis-client-list+info-memory';
export const MEMORY_CLIENT_SOURCE = 'node-process-memory';

export const MemorySchema = z.object({
  intervalMs: z.number().positive().finite().describe('Sampling interval, ms.'),
  server: z.object({
    source: z.literal(MEMORY_SERVER_SOURCE).describe('`CLIENT LIST ID` of the run\'s connection and `INFO memory`, asked on a separate connection.'),
    samples: z.array(
      z.object({
        atUs: z.number().finite().describe('When the reading was taken, µs since t0 (negative: the baseline before t0).'),
        qbuf: count.describe('The run connection\'s query buffer (commands read, not yet executed), bytes.'),
        omem: count.describe('The run connection\'s reply queue beyond its fixed 16 KiB buffer (replies not yet written), bytes.'),
        totMem: count.describe('Everything Redis holds for the run connection, bytes.'),
        usedMemory: count.describe('Redis\'s whole allocation (`used_memory`), keys included, bytes.'),
      }),
    ),
  }).describe('Redis\'s side, asked from a worker thread, so it is sampled while the client is busy too.'),
  client: z.object({
    source: z.literal(MEMORY_CLIENT_SOURCE).describe('process.memoryUsage() of the Node process that ran the client.'),
    samples: z.array(z.object({
      atUs: z.number().finite().describe('When the reading was taken, µs since t0 (negative: the baseline before t0).'),
      rss: count.describe('Resident set size, bytes.'),
      heapUsed: count.describe('V8 heap in use, bytes.'),
      external: count.describe('Memory of C++ objects bound to JavaScript objects (Buffers included), bytes.'),
    })),
  }).describe(
    'The client process, read on the run\'s own thread as often as its event loop allows (a client busy encoding a huge ' +
      'pipeline takes no samples meanwhile).',
  ),
}).describe(
  'Memory during the run, sampled every intervalMs. The first sample of each side is taken before t0 (since version 2: ' +
    'negative atUs), the baseline the run\'s growth is measured from.',
);
export type Memory = z.infer<typeof MemorySchema>;
export type ServerMemorySample = Memory['server']['samples'][number];
export type ClientMemorySample = Memory['client']['samples'][number];

export const KEYS_AFTER_SOURCE = 'redis-after-run';
/** Keys read back after a run at most: enough to see every key of a lesson-sized run. */
export const MAX_KEYS_AFTER = 1000;

export const KeysAfterSchema = z.object({
  source: z.literal(KEYS_AFTER_SOURCE),
  keys: z.array(z.object({
    key: z.string().describe('The key\'s name.'),
    value: z.string().nullable().describe('Its value (GET), or its type (TYPE) for a key that is not a string; null: the key did not exist.'),
  })).describe(`In key order, at most ${MAX_KEYS_AFTER}.`),
  truncated: z.boolean().describe(`True when the run had more than ${MAX_KEYS_AFTER} keys.`),
}).describe(
  'The run\'s keys as Redis held them once the run was over, read on Pipescope\'s own connection before ' +
    'they were deleted: what was applied, what was rolled back. Recorded for runs with a planted error, transactions and scripts.',
);
export type KeysAfter = z.infer<typeof KeysAfterSchema>;

export const NEIGHBOR_SOURCE = 'neighbor-client';
export const NEIGHBOR_COMMANDS = ['INCR', 'GET'] as const;

export const NeighborSchema = z.object({
  source: z.literal(NEIGHBOR_SOURCE),
  command: z.enum(NEIGHBOR_COMMANDS).describe('What it issued, on its own key in the run\'s namespace.'),
  ratePerSec: z.number().positive().finite().describe('Commands per second it aimed at.'),
  valueBytes: count.describe('Size of the value its GETs read, bytes (0 for INCR).'),
  address: z.string().describe('Its connection as Redis (MONITOR) names it, so its commands can be told apart in serverTrace.others.'),
  commands: z.array(z.object({
    sentUs: z.number().finite().describe('When it was sent, µs since t0 (negative: before t0).'),
    repliedUs: z.number().finite().describe('When its reply arrived, µs since t0.'),
    error: z.string().optional().describe('The error, when it failed.'),
  })).describe('Its commands in order.'),
}).describe(
  'Another client on its own connection, started before t0 and stopped after the run, issuing one ' +
    'command at a time (each awaited) as another application sharing the Redis would, timed on the run\'s clock. Paced ' +
    'on an absolute schedule (command k due at k / ratePerSec); when a reply comes late it catches up one command at a ' +
    'time, never with several in flight. The recorder sends at most 200,000 commands (10 s at the highest rate), then ' +
    'stops: a longer run\'s `commands` end before the run does.',
);
export type Neighbor = z.infer<typeof NeighborSchema>;

export const HeldConnectionSchema = z.object({
  issuedUs: micros.describe('When both PINGs were issued, µs since t0.'),
  sameConnectionRepliedUs: micros.describe('When the PING on the run\'s own connection was answered, µs since t0.'),
  otherConnectionRepliedUs: micros.describe('When the PING on the second connection was answered, µs since t0.'),
}).describe(
  'A pipeline holds its connection: one PING issued on the run\'s own connection right after the ' +
    'pipeline was handed over (it waits behind every reply; it is the run\'s last wire command), and one PING at the same ' +
    'instant on a second connection.',
);
export type HeldConnection = z.infer<typeof HeldConnectionSchema>;

export const SERVER_CPU_SOURCES = ['proc-schedstat', 'redis-info-cpu'] as const;

export const ServerCpuSchema = z.union([
  z.object({
    source: z.enum(SERVER_CPU_SOURCES).describe('Where the figure comes from (see below).'),
    totalUs: micros.describe('Redis\'s CPU time over the run, user and system together, µs.'),
    userUs: micros.optional().describe('INFO\'s user share, µs: runs of 10 ms or more (the kernel prorates the split from tick samples).'),
    systemUs: micros.optional().describe('INFO\'s system share, µs: as userUs.'),
  }).describe('The figure.'),
  z.object({
    source: z.enum(SERVER_CPU_SOURCES).describe('Where the figure would have come from.'),
    unavailable: z.string().describe('Why there is no figure (a run too short for INFO cpu to carry it).'),
  }).describe('No figure, and why.'),
]).describe(
  'Optional (absent in older traces and incomplete ones). Redis\'s CPU time over the run, t0 to its last reply. ' +
    'proc-schedstat (Pipescope\'s own redis-server): its main thread\'s run time from /proc/<pid>/task/<pid>/schedstat, ' +
    'read by Pipescope at t0 and after the last reply; exact to the ns and free for Redis. redis-info-cpu (any Redis): ' +
    'the change of INFO cpu\'s used_cpu_user/sys (main thread where Redis reports it) between the run\'s two INFO ' +
    'snapshots; µs-exact as a sum, but it holds part of those INFO calls\' own work (tens of µs), so it is recorded only ' +
    'for runs of at least 10 ms.',
);
export type ServerCpu = z.infer<typeof ServerCpuSchema>;

export const ProbeCostsSchema = z.object({
  socket: z.object({
    inRunUs: micros.describe('Time in its write and read hooks between t0 and the last reply, µs.'),
    events: count.describe('Events it timed.'),
  }).describe('The client socket probe, always on (it is the measurement).'),
  flushes: z.object({
    inRunUs: micros.describe('Their time on the run\'s thread, µs.'),
    count: count.describe('How many.'),
  }).describe('Batches of events handed on every flush interval while the run ran (none in a run shorter than one).'),
  memory: z.object({
    inRunUs: micros.describe('Its time on the run\'s thread in the run, µs.'),
    clientSamples: count.describe('Heap readings of this process.'),
    serverRequests: count.describe('Requests to Redis (CLIENT LIST and INFO memory each), from its worker thread on its own connection.'),
    setupUs: micros.describe('Wall time it added before t0 and after the run, µs.'),
  }).optional().describe('The memory sampler, when it ran (a memory repeat).'),
  monitor: z.object({
    heldDuringRun: z.boolean().describe(
      'Its connection was not read from the end of the set-up to the last reply (Redis\'s lines waited in the kernel\'s ' +
        'socket buffers and were read after; their times are Redis\'s own); a run whose lines could outgrow those buffers ' +
        'is read as it goes, and a held one is read again at the first flush.',
    ),
    inRunUs: micros.describe('Time reading its lines inside the run, µs (0 when held).'),
    lines: count.describe('Lines Redis wrote for the run\'s own commands (formatting and writing each is Redis\'s share of the cost).'),
    setupUs: micros.describe('Wall time it added before t0 and after the run, µs.'),
  }).optional().describe('MONITOR, when on.'),
  strace: z.object({
    syscalls: count.describe('Redis\'s system calls it stopped and recorded (each stop is Redis\'s cost).'),
    setupUs: micros.describe('Wall time it added before t0 and after the run, µs.'),
  }).optional().describe('strace, when it ran.'),
  kernelTcp: z.object({
    setupUs: micros.describe('Wall time of `ss` before t0 and after the last reply, µs; never in the run.'),
  }).optional().describe('`ss`, when asked for.'),
}).describe(
  'Optional (absent in older traces). Which of Pipescope\'s probes ran with the run and what each cost it, measured in ' +
    'the run itself. How much each slows a run beside none is measured side by side by `npm run bench` (probe-cost); a ' +
    'probe that would slow a small run more than noise is off there unless asked for.',
);
export type ProbeCosts = z.infer<typeof ProbeCostsSchema>;

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

export const IncompleteSchema = z.object({
  reason: z.enum(INCOMPLETE_REASONS).describe(
    'in-progress: a snapshot of a run still streaming (the live view draws these; one exported then says so). cancelled: ' +
      'the user cancelled it. connection-lost: the browser\'s connection to the backend closed during it. failed: the ' +
      'backend reported an error.',
  ),
  message: z.string().optional().describe('failed: what the backend said went wrong.'),
  sent: count.describe('Commands written to the socket, of run.n.'),
  replied: count.describe('Replies arrived, of run.n.'),
  omitted: z.array(z.enum(OMITTED_MEASUREMENTS)).describe(
    'The measurements that need the whole run, each left out (named so that a reader knows it was not measured, rather ' +
      'than measured as nothing): redis-info = counts.server, monitor and strace = serverTrace, memory, kernel-tcp = ' +
      'kernelTcp, keys-after, neighbor, held-connection.',
  ),
}).describe(
  'Present when the trace holds only part of its run. Such a trace lists `commands` only for the ' +
    'commands whose replies arrived (the first commands.length of run.n); `writes` may carry commands whose replies never ' +
    'came (up to `sent`). totals cover what was measured: durationUs = t0 to the last listed reply, doneUs = durationUs ' +
    '(the client\'s call never returned), opsPerSec = the operations whose replies arrived per durationUs. A measurement ' +
    'listed in `omitted` is null in the document; counts.server, which cannot be null, is then all zeros with ' +
    '`exclusive: false`: not measured.',
);
export type Incomplete = z.infer<typeof IncompleteSchema>;

export const TraceDocumentSchema = z.object({
  format: z.literal(TRACE_FORMAT).describe('What the file is.'),
  version: z.literal(FORMAT_VERSION).describe('The format\'s version; files of older versions migrate as they are opened.'),
  run: RunInfoSchema,
  redis: RedisInfoSchema,
  rtt: RttSchema,
  recorder: RecorderSchema,
  commands: z.array(CommandRecordSchema).describe('Every command on the wire, in wire order (run.n of them in a whole run).'),
  writes: z.array(SocketWriteSchema).describe('Every write() on the client socket, in order.'),
  reads: z.array(SocketReadSchema).describe('Every chunk read on the client socket, in order.'),
  proxy: ProxyHopsSchema.nullable().describe('null when the run connected to Redis directly.'),
  serverTrace: ServerTraceSchema.nullable().describe('null unless the run was server-traced (MONITOR, and strace where possible).'),
  counts: CountsSchema,
  totals: TotalsSchema,
  memory: MemorySchema.nullable().default(null).describe('null when memory was not sampled (or the trace predates sampling).'),
  kernelTcp: KernelTcpSchema.nullable().describe('Since version 2. null when the run did not ask for kernel TCP figures.'),
  keysAfter: KeysAfterSchema.nullable().describe('Since version 3. null unless recorded.'),
  neighbor: NeighborSchema.nullable().describe('Since version 3. null when no neighbour client ran alongside.'),
  heldConnection: HeldConnectionSchema.nullable().describe('Since version 3. null unless the run asked for the held-connection probe.'),
  incomplete: IncompleteSchema.nullable().describe('Since version 4. null for a whole run.'),
  serverCpu: ServerCpuSchema.optional(),
  probeCosts: ProbeCostsSchema.optional(),
  cluster: ClusterSchema.optional(),
}).describe(
  'One run, measured: what was run, against which Redis, every command with its times, every socket write and read, ' +
    'and what the probes saw. Times are µs since t0 (the instant the run called the client for its first command) on ' +
    'the client\'s monotonic clock.',
);
export type TraceDocument = z.infer<typeof TraceDocumentSchema>;
