// A run Pipescope cannot yet send correctly is refused before anything is written: on a Redis Cluster
// a run's keys spread over slots on every node, and a node refuses the commands whose slot is not its
// own (MOVED), so a run sent to one node would fail part-way and leave keys on it. The raw engine's
// 'pipeline' and 'sequential' runs are split by node (cluster-run.ts) and go; any other run, a sweep, a
// redis-benchmark reference or a leased key asked of a cluster fails here, with words, before any lease
// or key exists: nothing is left on any node.
import type { RunMode } from '../../trace/format/trace-format.ts';
import { describeTopology } from '../redis/cluster-topology.ts';
import type { RedisSession } from '../redis/redis-session.ts';

export class ClusterNotSupportedError extends Error {
  override name = 'ClusterNotSupportedError';
}

/** What decides whether a run can go to a cluster yet (a run's parameters; all optional). */
export interface ClusterRunShape {
  engine?: string | undefined;
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

/**
 * Whether a run of `mode` with `spec` is sent to a cluster, split by node: the raw engine, pipeline or
 * sequential, no delay, no probes. The kernel's TCP figures, asked by default (and so by every page), are
 * not read per socket yet: a cluster run goes without them, and its trace says none were taken (kernelTcp null).
 */
export function routedOnCluster(mode: RunMode, spec: ClusterRunShape): boolean {
  return spec.engine === 'raw' && CLUSTER_RAW_MODES.includes(mode) && !spec.rttMs && !spec.jitterMs && !spec.serverTrace && !spec.monitor &&
    !spec.strace && !spec.memory && !spec.heldConnection && !spec.neighborRate && spec.errorAt === undefined && !spec.memoryRepeat;
}

/**
 * Throws ClusterNotSupportedError when the session's Redis is a node of a cluster, unless `run` is one
 * the raw engine splits by node (routedOnCluster).
 */
export function refuseOnCluster(session: RedisSession, what = 'runs', run?: { mode: RunMode; spec: ClusterRunShape }): void {
  const topology = session.cluster;
  if (!topology) return;
  if (run && routedOnCluster(run.mode, run.spec)) return;
  throw new ClusterNotSupportedError(
    `Redis at ${session.target.address} is a node of a Redis Cluster (${describeTopology(topology)}): Pipescope does not send ${what} ` +
      'to a cluster yet (a run\'s keys spread over slots served by different nodes, and a node refuses the others with MOVED)' +
      (run ? '; only the raw engine\'s pipeline and sequential runs, without added delay or probes, are split by node so far. ' : '. ') +
      'Nothing was sent and no key was written. ' +
      (session.target.embedded
        ? 'This is Pipescope\'s private cluster: pick the private Redis in the page (or start without --cluster) for such runs.'
        : 'Point Pipescope at a single Redis, or start it without --redis-url for its private redis-server.'),
  );
}
