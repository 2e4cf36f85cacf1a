// Ready-made runs for presenters: a link speed (added RTT through the delay proxy) and a workload
// small enough to finish while the room watches, plus the docs' netcat example (PING×3 inline on a raw
// socket, server-traced) and the docs' advice to send a large job in chunks of ~10k (time and memory of
// one huge pipeline beside chunks: SETs, whose cost falls on the client, and GETs of 1 KB, whose
// replies Redis must queue). Loopback adds nothing; the rest are labelled delay. Then the
// lessons beyond plain pipelines: four ways to batch side by side, a planted error (no rollback, and
// EXECABORT), a read-compute-write that a pipeline cannot batch, and what redis-py's default pipeline()
// puts on the wire (MULTI … EXEC): real redis-py, run by the backend through the observing port
// (the Observe tab), its pipeline() beside pipeline(transaction=False).
import type { ClusterCompare, ClusterKeys, ClusterSplit, Engine } from '../../../trace/format/run-request.ts';
import type { CommandName, RunMode } from '../../../trace/format/trace-format.ts';
import type { RunFormState } from './run-form-state.ts';
import type { ModeChoice } from './run-form-state.ts';
import type { ObserveClient } from '../../../trace/protocol/observe-protocol.ts';

export interface NetworkPreset {
  id: string;
  label: string;
  rttMs: number;
  jitterMs: number;
  command: CommandName;
  n: number;
  /**
   * Unnamed: both modes, ioredis, and the Redis-side probes, value size and chunk size left as the user
   * set them. serverTrace means both Redis-side probes (MONITOR and strace), on or off.
   */
  mode?: ModeChoice;
  valueBytes?: number;
  chunk?: number;
  engine?: Engine;
  serverTrace?: boolean;
  /** mode 'custom': the modes ticked. */
  modes?: RunMode[];
  /** MONITOR alone (cheap), when serverTrace is not given. */
  monitor?: boolean;
  /** A planted error at this operation (from 0, as the spec counts; the screen says errorAt + 1); presets without one turn it off. */
  errorAt?: number;
  errorKind?: 'runtime' | 'queueing';
  /**
   * Rounds, for lessons about what goes on the wire rather than time: once is enough to see it, where
   * until certain would run the modes up to 40 times for a timing nobody asked about. Unnamed: the user's.
   */
  repeats?: string;
  /** What the preset is meant to show, in one line. */
  lesson: string;
  /**
   * A preset that runs real clients through the observing port instead of setting up a run: the page
   * switches to the Observe tab and runs them (the form is left as it was).
   */
  observe?: { clients: ObserveClient[]; n: number };
  /** Offered only when the backend's Redis is a node of a cluster (the preset menu says so elsewhere). */
  cluster?: boolean;
  /** A cluster's run choices; unnamed: keys spread, nodes at once (what a single Redis runs). */
  clusterKeys?: ClusterKeys;
  clusterSplit?: ClusterSplit;
  /** Both variants of one of them side by side in one request (clusterCompare). */
  clusterCompare?: ClusterCompare;
}

/** Said of a cluster preset where the Redis is a single one. */
export const CLUSTER_ONLY = 'Only on a Redis Cluster (npm start -- --cluster starts a private one): this Redis is a single one.';

export const NETWORK_PRESETS: readonly NetworkPreset[] = [
  { id: 'loopback', label: 'Loopback', rttMs: 0, jitterMs: 0, command: 'PING', n: 1000,
    lesson: 'No added delay: even on loopback each sequential command pays a round trip through the kernel.' },
  { id: 'lan', label: 'LAN 0.5 ms', rttMs: 0.5, jitterMs: 0, command: 'PING', n: 200,
    lesson: 'A fast LAN: sequential time grows by N × 0.5 ms.' },
  { id: 'cross-region', label: 'Cross-region 80 ms', rttMs: 80, jitterMs: 5, command: 'INCR', n: 20,
    lesson: '80 ms between regions: 20 sequential INCRs take over 1.6 s, the pipeline about one round trip.' },
  { id: '250ms', label: '250 ms link', rttMs: 250, jitterMs: 0, command: 'PING', n: 8,
    lesson: 'At 250 ms RTT a sequential client manages at most 4 requests per second, however fast Redis is.' },
  { id: 'netcat', label: 'netcat: PING×3 inline', rttMs: 0, jitterMs: 0, command: 'PING', n: 3, mode: 'pipeline', engine: 'raw', serverTrace: true,
    repeats: '1',
    lesson: 'The docs’ netcat example: PING\\r\\nPING\\r\\nPING\\r\\n written in one go; three +PONG replies come back.' },
  { id: 'chunks', label: '1,000,000 SETs (100 B): one pipeline vs chunks of 10,000', rttMs: 0, jitterMs: 0, command: 'SET', n: 1_000_000,
    valueBytes: 100, mode: 'pipeline-vs-chunked', chunk: 10_000, engine: 'ioredis', serverTrace: false,
    lesson: 'The docs advise sending a large job in batches of about 10k: compare the time and the peak memory of the client and of Redis.' },
  { id: 'reply-queue', label: '100,000 GETs (1 KB): one pipeline vs chunks of 10,000', rttMs: 0, jitterMs: 0, command: 'GET', n: 100_000,
    valueBytes: 1000, mode: 'pipeline-vs-chunked', chunk: 10_000, engine: 'ioredis', serverTrace: false,
    lesson: 'Replies far bigger than the requests: Redis queues what the client has not read yet on the connection (CLIENT LIST omem); chunks of 10,000 bound that queue.' },
  { id: 'four-ways', label: '10 INCRs four ways: pipeline, MULTI/EXEC, EVAL, EVALSHA', rttMs: 0, jitterMs: 0, command: 'INCR', n: 10,
    mode: 'custom', modes: ['pipeline', 'multi', 'eval', 'evalsha'], monitor: true,
    repeats: '1',
    lesson: 'The same ten INCRs as a pipeline, a transaction and two kinds of script: what goes on the wire, round trips, and which ran as one block.' },
  { id: 'error', label: 'A failing INCR: pipeline vs MULTI/EXEC', rttMs: 0, jitterMs: 0, command: 'INCR', n: 10, mode: 'custom',
    modes: ['pipeline', 'multi'], monitor: true, errorAt: 4, errorKind: 'runtime',
    repeats: '1',
    lesson: 'Operation 5 fails on Redis; the ones after it still run, in a pipeline and inside MULTI/EXEC alike: no rollback.' },
  { id: 'execabort', label: 'A command refused while queueing: EXECABORT', rttMs: 0, jitterMs: 0, command: 'INCR', n: 10, mode: 'multi',
    monitor: true, errorAt: 4, errorKind: 'queueing',
    repeats: '1',
    lesson: 'Redis rejects operation 5 before running anything; EXEC then aborts the whole transaction and no key changes.' },
  { id: 'read-compute-write', label: 'Read, compute, write ×10 at 10 ms: sequential vs one EVAL', rttMs: 10, jitterMs: 0, command: 'GET-COMPUTE-SET', n: 10,
    valueBytes: 16, mode: 'custom', modes: ['sequential', 'eval'],
    lesson: 'Each SET needs its GET’s reply, so a pipeline cannot batch them: 2 round trips per step, against 1 for the whole Lua script.' },
  { id: 'redis-py', label: 'What redis-py’s pipeline() sends', rttMs: 0, jitterMs: 0, command: 'INCR', n: 10,
    observe: { clients: ['redis-py-transaction', 'redis-py-plain'], n: 10 },
    lesson: 'redis-py’s pipeline() defaults to transaction=True, so it wraps your commands in MULTI … EXEC; pipeline(transaction=False) '
      + 'sends them bare. Here real redis-py runs both through Pipescope’s observing port (the Observe tab), which records what it '
      + 'put on the wire: see MULTI in the wire view and the verdicts. Elsewhere: node-redis multi().exec() is a transaction, '
      + 'multi().execAsPipeline() a plain pipeline; ioredis pipeline() is plain, multi() a transaction.' },
  { id: 'cluster-split', label: 'Cluster: split by node vs one hash tag', rttMs: 0, jitterMs: 0, command: 'SET', n: 30, valueBytes: 16,
    mode: 'custom', modes: ['sequential', 'pipeline', 'multi', 'multikey'], engine: 'raw', repeats: 'until-certain', cluster: true, clusterKeys: 'spread',
    clusterCompare: 'keys',
    lesson: 'In a cluster, a pipeline’s keys must share a node or the client must split it. Each mode runs twice a round, side by side: '
      + 'keys spread over slots, where the raw engine splits the pipeline by node (one write per master, all at once) while MULTI/EXEC '
      + 'and one MSET cannot be split and the node refuses them (CROSSSLOT, MOVED, EXECABORT); and every key under one {hash tag}, '
      + 'on one node, where all four go through.' },
  { id: 'cluster-serial', label: 'Cluster: pipeline split by node, one node after another', rttMs: 0, jitterMs: 0, command: 'SET', n: 300, valueBytes: 16,
    mode: 'pipeline', engine: 'raw', repeats: '1', cluster: true, clusterKeys: 'spread', clusterSplit: 'serial',
    lesson: 'The same split pipeline, each node’s share written only after the previous node answered: the critical path is the sum '
      + 'of the nodes’ round trips, not the slowest one. Compare with Raw pipeline: every node at once (More options).' },
];

/** The form a preset sets up: every field it names, both modes and ioredis unless it says otherwise; the rest as they were. */
export function applyPreset(form: RunFormState, p: NetworkPreset): RunFormState {
  return {
    ...form,
    command: p.command,
    n: String(p.n),
    valueBytes: p.valueBytes === undefined ? form.valueBytes : String(p.valueBytes),
    chunk: p.chunk === undefined ? form.chunk : String(p.chunk),
    rttMs: String(p.rttMs),
    jitterMs: String(p.jitterMs),
    mode: p.mode ?? 'both',
    modes: p.modes ?? form.modes,
    engine: p.engine ?? 'ioredis',
    monitor: p.serverTrace ?? p.monitor ?? form.monitor,
    strace: p.serverTrace ?? form.strace,
    plantError: p.errorAt !== undefined,
    errorAt: p.errorAt === undefined ? form.errorAt : String(p.errorAt),
    errorKind: p.errorKind ?? form.errorKind,
    repeats: p.repeats ?? form.repeats,
    clusterKeys: p.clusterKeys ?? 'spread',
    clusterSplit: p.clusterSplit ?? 'parallel',
    clusterCompare: p.clusterCompare,
  };
}

/** The preset the form currently matches, if any (never one that runs real clients: it sets no form). */
export function currentPreset(form: RunFormState): NetworkPreset | undefined {
  return NETWORK_PRESETS.find((p) => {
    if (p.observe) return false;
    const applied = applyPreset(form, p);
    return (Object.keys(applied) as (keyof RunFormState)[]).every((k) => applied[k] === form[k]);
  });
}
