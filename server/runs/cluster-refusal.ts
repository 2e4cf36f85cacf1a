// A run Pipescope cannot yet send correctly is refused before anything is written: on a Redis Cluster
// a run's keys spread over slots on every node, and a node refuses the commands whose slot is not its
// own (MOVED), so a run sent to one node would fail part-way and leave keys on it. The raw engine's
// 'pipeline' and 'sequential' runs are split by node (cluster-run.ts), with or without added delay (a
// delay proxy per node), and ioredis's and node-redis's 'pipeline', 'sequential' and 'auto' runs of SET,
// GET or INCR go through the library's own cluster client (cluster-client-run.ts), up to
// MAX_ONE_TICK_COMMANDS, without added delay; any other run, a sweep, a
// redis-benchmark reference or a leased key asked of a cluster fails here, with words, before any lease
// or key exists: nothing is left on any node.
import { MAX_ONE_TICK_COMMANDS } from '../../trace/format/run-request.ts';
import type { RunMode } from '../../trace/format/trace-format.ts';
import { describeTopology } from '../redis/cluster-topology.ts';
import type { RedisSession } from '../redis/redis-session.ts';

export class ClusterNotSupportedError extends Error {
  override name = 'ClusterNotSupportedError';
}

/** What decides whether a run can go to a cluster yet (a run's parameters; all optional). */
export interface ClusterRunShape {
  engine?: string | undefined;
  command?: string | undefined;
  n?: number | undefined;
  rttMs?: number | undefined;
  jitterMs?: number | undefined;
  serverTrace?: boolean | undefined;
  monitor?: boolean | undefined;
  strace?: boolean | undefined;
  memory?: boolean | undefined;
  kernelTcp?: boolean | undefined;
  heldConnection?: boolean | undefined;
  neighborRate?: number | undefined;
  errorAt?: number | undefined;
  memoryRepeat?: boolean | undefined;
}

/** The modes the raw engine splits by node on a cluster (cluster-run.ts). */
export const CLUSTER_RAW_MODES: readonly RunMode[] = ['pipeline', 'sequential'];

/** The modes a client library's cluster client runs (cluster-client-run.ts), and the commands. */
export const CLUSTER_CLIENT_MODES: readonly RunMode[] = ['pipeline', 'sequential', 'auto'];
export const CLUSTER_CLIENT_COMMANDS: readonly string[] = ['SET', 'GET', 'INCR'];

/**
 * Whether a run of `mode` with `spec` is sent to a cluster: the raw engine split by node (pipeline or
 * sequential, added delay allowed: a delay proxy per node), or ioredis or node-redis through their cluster
 * client (pipeline, sequential or auto; SET, GET or INCR; no added delay yet); no probes. The kernel TCP
 * figures, asked by default, are left out there rather than refused (the run's probes say so).
 */
export function routedOnCluster(mode: RunMode, spec: ClusterRunShape): boolean {
  const engine = spec.engine ?? 'ioredis';
  const routed = engine === 'raw'
    ? CLUSTER_RAW_MODES.includes(mode)
    : CLUSTER_CLIENT_MODES.includes(mode) && (spec.command === undefined || CLUSTER_CLIENT_COMMANDS.includes(spec.command)) &&
      (spec.n ?? 0) <= MAX_ONE_TICK_COMMANDS && !spec.rttMs && !spec.jitterMs; // a library's cluster pipeline is built in one go, holding the backend meanwhile
  return routed && !spec.serverTrace && !spec.monitor &&
    !spec.strace && !spec.memory && !spec.heldConnection && !spec.neighborRate && spec.errorAt === undefined && !spec.memoryRepeat;
}

/**
 * Throws ClusterNotSupportedError when the session's Redis is a node of a cluster, unless `run` is one
 * that goes to a cluster (routedOnCluster).
 */
export function refuseOnCluster(session: RedisSession, what = 'runs', run?: { mode: RunMode; spec: ClusterRunShape }): void {
  const topology = session.cluster;
  if (!topology) return;
  if (run && routedOnCluster(run.mode, run.spec)) return;
  throw new ClusterNotSupportedError(
    `Redis at ${session.target.address} is a node of a Redis Cluster (${describeTopology(topology)}): Pipescope does not send ${what} ` +
      'to a cluster yet (a run\'s keys spread over slots served by different nodes, and a node refuses the others with MOVED)' +
      (run
        ? '; so far only the raw engine\'s pipeline and sequential runs (split by node, added delay allowed), and ioredis\'s and node-redis\'s pipeline, ' +
          `sequential and auto runs of SET, GET or INCR (through their cluster client, at most ${MAX_ONE_TICK_COMMANDS.toLocaleString('en-US')} commands, no added delay), ` +
          'without probes, go to a cluster. '
        : '. ') +
      'Nothing was sent and no key was written. ' +
      (session.target.embedded
        ? 'This is Pipescope\'s private cluster (--cluster): start without --cluster for the private redis-server.'
        : 'Point Pipescope at a single Redis, or start it without --redis-url for its private redis-server.'),
  );
}
