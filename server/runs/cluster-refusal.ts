// A run Pipescope cannot yet send correctly is refused before anything is written: on a Redis Cluster
// a run's keys spread over slots on every node, and a node refuses the commands whose slot is not its
// own (MOVED), so a run sent to one node would fail part-way and leave keys on it. The raw engine's
// 'pipeline' and 'sequential' runs are split by node (cluster-run.ts), and its 'multi' and 'multikey' runs
// go, each one transaction or one MSET/MGET sent to one node (whose refusals, CROSSSLOT and EXECABORT, are
// what such a run shows), with or without added delay (a delay proxy per node); ioredis's and node-redis's
// 'pipeline', 'sequential' and 'auto' runs of SET, GET or INCR go through the library's own cluster client
// (cluster-client-run.ts), up to MAX_ONE_TICK_COMMANDS, without added delay; any other run, a sweep, a
// redis-benchmark reference or a leased key asked of a cluster fails here, with words, before any lease or
// key exists: nothing is left on any node. The cluster-only parameters (clusterKeys hashtag, clusterSplit
// serial, clusterCompare) asked of a single Redis are refused here too, in words.
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
  clusterKeys?: string | undefined;
  clusterSplit?: string | undefined;
  clusterCompare?: string | undefined;
  reshard?: boolean | undefined;
}

/** The modes the raw engine sends to a cluster (cluster-run.ts): split by node, or one transaction or MSET to one node. */
export const CLUSTER_RAW_MODES: readonly RunMode[] = ['pipeline', 'sequential', 'multi', 'multikey'];

/** The modes a client library's cluster client runs (cluster-client-run.ts), and the commands. */
export const CLUSTER_CLIENT_MODES: readonly RunMode[] = ['pipeline', 'sequential', 'auto'];
export const CLUSTER_CLIENT_COMMANDS: readonly string[] = ['SET', 'GET', 'INCR'];

/**
 * Error replies a cluster run in `mode` is there to show, not a failure of the run: a transaction or one
 * multi-key command goes to one node, which refuses keys of other slots (CROSSSLOT), keys of other nodes'
 * slots while queueing (MOVED), and then the transaction (EXECABORT). null: every error reply fails the run.
 */
export function expectedClusterErrors(mode: RunMode): RegExp | null {
  return mode === 'multi' || mode === 'multikey' ? /^(CROSSSLOT|MOVED|EXECABORT)\b/ : null;
}

/**
 * Whether a run of `mode` with `spec` is sent to a cluster: the raw engine in CLUSTER_RAW_MODES (no
 * dependent steps; added delay allowed: a delay proxy per node), or ioredis or node-redis through their
 * cluster client (pipeline, sequential or auto; SET, GET or INCR; no added delay yet); no probes. The
 * kernel's TCP figures (asked for by default) are left out on a cluster, the trace saying so
 * (run.probes.kernelTcp false, kernelTcp null), rather than refusing every run the page sends.
 */
export function routedOnCluster(mode: RunMode, spec: ClusterRunShape): boolean {
  const engine = spec.engine ?? 'ioredis';
  const routed = engine === 'raw'
    ? CLUSTER_RAW_MODES.includes(mode) && spec.command !== 'GET-COMPUTE-SET'
    : CLUSTER_CLIENT_MODES.includes(mode) && (spec.command === undefined || CLUSTER_CLIENT_COMMANDS.includes(spec.command)) &&
      (spec.n ?? 0) <= MAX_ONE_TICK_COMMANDS && !spec.rttMs && !spec.jitterMs; // a library's cluster pipeline is built in one go, holding the backend meanwhile
  return routed && !spec.serverTrace && !spec.monitor &&
    !spec.strace && !spec.memory && !spec.heldConnection && !spec.neighborRate && spec.errorAt === undefined && !spec.memoryRepeat;
}

/**
 * A resharding run moves a slot of the cluster from one master to another: only on Pipescope's private
 * cluster, never on a user's (their layout is theirs), and only on a cluster of two masters or more.
 */
function refuseReshard(session: RedisSession): void {
  const topology = session.cluster;
  const masters = topology?.nodes.filter((node) => node.role === 'master').length ?? 0;
  const refuse = (why: string) => {
    throw new ClusterNotSupportedError(`A resharding run moves one hash slot of Pipescope's private cluster to another master during the run; ${why}. Nothing was sent and no key was written.`);
  };
  if (!topology) refuse(`Redis at ${session.target.address} is not a cluster (start Pipescope with --cluster)`);
  if (!session.target.embedded) refuse(`Redis at ${session.target.address} is a node of your cluster: Pipescope never changes a user's slot layout`);
  if (masters < 2) refuse('the cluster has one master: there is nowhere to move a slot');
}

/**
 * Throws ClusterNotSupportedError when the session's Redis is a node of a cluster, unless `run` is one
 * that goes to a cluster (routedOnCluster).
 */
export function refuseOnCluster(session: RedisSession, what = 'runs', run?: { mode: RunMode; spec: ClusterRunShape }): void {
  if (run?.spec.reshard) refuseReshard(session);
  const topology = session.cluster;
  if (!topology) {
    refuseClusterParameters(session, run?.spec);
    return;
  }
  if (run && routedOnCluster(run.mode, run.spec)) return;
  throw new ClusterNotSupportedError(
    `Redis at ${session.target.address} is a node of a Redis Cluster (${describeTopology(topology)}): Pipescope does not send ${what} ` +
      'to a cluster yet (a run\'s keys spread over slots served by different nodes, and a node refuses the others with MOVED)' +
      (run
        ? '; so far only the raw engine\'s pipeline, sequential, multi and multikey runs (added delay allowed), and ioredis\'s and node-redis\'s pipeline, ' +
          `sequential and auto runs of SET, GET or INCR (through their cluster client, at most ${MAX_ONE_TICK_COMMANDS.toLocaleString('en-US')} commands, no added delay), ` +
          'without probes, go to a cluster. '
        : '. ') +
      'Nothing was sent and no key was written. ' +
      (session.target.embedded
        ? 'This is Pipescope\'s private cluster: pick the private Redis in the page (or start without --cluster) for such runs.'
        : 'Point Pipescope at a single Redis, or start it without --redis-url for its private redis-server.'),
  );
}

/** The cluster-only parameters asked of a single Redis: refused in words (the page offers them only on a cluster). */
function refuseClusterParameters(session: RedisSession, spec: ClusterRunShape | undefined): void {
  const asked = [
    ...(spec?.clusterKeys === 'hashtag' ? ['keys under one hash tag (clusterKeys hashtag, link keys=hashtag)'] : []),
    ...(spec?.clusterSplit === 'serial' ? ['a pipeline split by node, one node after another (clusterSplit serial, link split=serial)'] : []),
    ...(spec?.clusterCompare === 'keys' ? ['comparing keys spread over slots with keys under one hash tag (clusterCompare keys, link compare=keys)'] : []),
    ...(spec?.clusterCompare === 'split' ? ['comparing a pipeline split by node at once with one node after another (clusterCompare split, link compare=split)'] : []),
  ];
  if (asked.length === 0) return;
  throw new ClusterNotSupportedError(
    `Redis at ${session.target.address} is a single Redis, not a node of a Redis Cluster: ${asked.join(' and ')} ` +
      `${asked.length > 1 ? 'are' : 'is'} only for a cluster, whose keys live on several nodes. Nothing was sent. ` +
      'Leave keys spread, split parallel and no compare, or point Pipescope at a cluster (npm start -- --cluster starts a private one).',
  );
}
