// Keeps Pipescope's private Redis Cluster running, as private-redis-keeper.ts keeps the private
// redis-server: if any node ends without being asked (killed, crashed), the whole cluster is stopped and
// a fresh one started (on its old ports when they are free, else on new ones), the session pointed at
// it, and browsers told through the session: down with the reason while it restarts, then up with
// "restarted …". Attempts back off on the same scale as the private Redis's (restartDelayMs).
import { restartDelayMs } from './private-redis-keeper.ts';
import { startPrivateCluster, type PrivateCluster } from './private-redis-cluster.ts';
import type { RedisSession } from './redis-session.ts';
import { targetFromUrl, type RedisTarget } from './redis-target.ts';

/** How long browsers see the "restarted" note (while up). */
const RESTARTED_NOTE_MS = 60_000;

/** The session's way in: the first master (any node would do; the session reads the topology from it). */
export function privateClusterTarget(cluster: PrivateCluster): RedisTarget {
  const first = cluster.nodes[0]!;
  return targetFromUrl(`redis://${first.host}:${first.port}`, true);
}

export class PrivateClusterKeeper {
  private closed = false;
  private restarting: Promise<void> | undefined;
  private wake: () => void = () => {};
  /** How many times the cluster was restarted (for tests and the description). */
  restarts = 0;

  constructor(
    private cluster: PrivateCluster,
    private readonly session: RedisSession,
    private readonly replicas: number,
  ) {
    this.watch(cluster);
  }

  get current(): PrivateCluster {
    return this.cluster;
  }

  private watch(cluster: PrivateCluster): void {
    cluster.onUnexpectedExit((node, how) => {
      if (this.closed || cluster !== this.cluster) return;
      this.restarting = this.restart(node, how).finally(() => (this.restarting = undefined));
    });
  }

  private async restart(node: string, how: string): Promise<void> {
    const stopped = `A node of the private Redis Cluster (${node}) stopped at ${clock(new Date())} (${how})`;
    this.session.announce({ up: false, message: `${stopped}; restarting the cluster…` });
    const ports = this.cluster.nodes.map((n) => n.port);
    await this.cluster.stop(); // the others go too: a fresh, empty cluster replaces it whole
    for (let attempt = 0; !this.closed; attempt++) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, restartDelayMs(attempt)).unref();
      });
      if (this.closed) return;
      try {
        const cluster = await startPrivateCluster({ replicas: this.replicas, ports }).catch(() => startPrivateCluster({ replicas: this.replicas }));
        if (this.closed) {
          await cluster.stop();
          return;
        }
        try {
          await this.session.retarget(privateClusterTarget(cluster));
        } catch (error) {
          await cluster.stop();
          throw error;
        }
        this.cluster = cluster;
        this.watch(cluster);
        this.restarts++;
        this.session.announce({ up: true, message: `restarted at ${clock(new Date())}: ${stopped.replace('A node', 'a node')}; this is a fresh, empty cluster (ready in ${(cluster.readyMs / 1000).toFixed(1)} s)` }, RESTARTED_NOTE_MS);
        return;
      } catch (error) {
        this.session.announce({ up: false, message: `${stopped}; restart attempt ${attempt + 1} failed (${(error as Error).message.split('\n')[0]}); trying again in ${restartDelayMs(attempt + 1) / 1000} s` });
      }
    }
  }

  /** Resolves once no restart is under way (for tests). */
  async settled(): Promise<void> {
    while (this.restarting) await this.restarting;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await this.restarting?.catch(() => {});
    await this.cluster.stop();
  }
}

function clock(date: Date): string {
  return date.toTimeString().slice(0, 8);
}
