// A run Pipescope cannot yet send correctly is refused before anything is written: on a Redis Cluster
// a run's keys spread over slots on every node, and a node refuses the commands whose slot is not its
// own (MOVED), so a run sent to one node would fail part-way and leave keys on it. Until the engines
// route each command to its node, a run, a sweep, a redis-benchmark reference or a leased key asked of
// a cluster fails here, with words, before any lease or key exists: nothing is left on any node.
import { describeTopology } from '../redis/cluster-topology.ts';
import type { RedisSession } from '../redis/redis-session.ts';

export class ClusterNotSupportedError extends Error {
  override name = 'ClusterNotSupportedError';
}

/** Throws ClusterNotSupportedError when the session's Redis is a node of a cluster. */
export function refuseOnCluster(session: RedisSession, what = 'runs'): void {
  const topology = session.cluster;
  if (!topology) return;
  throw new ClusterNotSupportedError(
    `Redis at ${session.target.address} is a node of a Redis Cluster (${describeTopology(topology)}): Pipescope does not send ${what} ` +
      'to a cluster yet (a run\'s keys spread over slots served by different nodes, and a node refuses the others with MOVED). ' +
      'Nothing was sent and no key was written. ' +
      (session.target.embedded
        ? 'This is Pipescope\'s private cluster (--cluster): start without --cluster for the private redis-server.'
        : 'Point Pipescope at a single Redis, or start it without --redis-url for its private redis-server.'),
  );
}
