// Keeps Pipescope's private Redis Cluster running, as the private redis-server is kept (private-keeper.ts):
// if any node ends without being asked (killed, crashed), the whole cluster is stopped and a fresh one
// started (on its old ports when they are free, else on new ones), the session pointed at it, and
// browsers told: down with the reason while it restarts, then up with "restarted …".
import { PrivateKeeper, type KeptService } from './private-keeper.ts';
import { startPrivateCluster, type PrivateCluster } from './private-redis-cluster.ts';
import type { RedisSession } from './redis-session.ts';
import { targetFromUrl, type RedisTarget } from './redis-target.ts';

/** The session's way in: the first master (any node would do; the session reads the topology from it). */
export function privateClusterTarget(cluster: PrivateCluster): RedisTarget {
  const first = cluster.nodes[0]!;
  return targetFromUrl(`redis://${first.host}:${first.port}`, true);
}

function clusterService(replicas: number): KeptService<PrivateCluster> {
  return {
    startAgain: (previous) => {
      const ports = previous.nodes.map((node) => node.port);
      return startPrivateCluster({ replicas, ports }).catch(() => startPrivateCluster({ replicas }));
    },
    stop: (cluster) => cluster.stop(),
    onUnexpectedExit: (cluster, listener) => cluster.onUnexpectedExit((node, how) => listener({ what: `A node of the private Redis Cluster (${node})`, why: how })),
    target: privateClusterTarget,
    restartingWhat: 'the cluster',
    freshOne: (cluster) => `cluster (ready in ${(cluster.readyMs / 1000).toFixed(1)} s)`,
  };
}

export class PrivateClusterKeeper extends PrivateKeeper<PrivateCluster> {
  constructor(cluster: PrivateCluster, session: RedisSession, replicas: number) {
    super(cluster, session, clusterService(replicas));
  }
}
