// The private Redis Cluster on its own: formed and ready (every node agreeing) from Debian's
// redis-server, with and without replicas; writes to every master routed by a cluster client; every
// node and folder gone after stop(); a node killed is reported. That nothing is left after SIGKILL of
// its owner is tested with the real backend (app/cluster-leftovers.integration.test.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Cluster } from 'ioredis';
import { expect, it } from 'vitest';
import { CLUSTER_SLOTS, slotRanges, startPrivateCluster } from './private-redis-cluster.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('slot ranges cover 0…16383 once, in contiguous ranges', () => {
  expect(slotRanges(3)).toEqual([[0, 5460], [5461, 10921], [10922, 16383]]);
});

it.each([0, 1])('with %i replica(s) per master: ready, writable on every master, gone after stop()', async (replicas) => {
  const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('pipescope-cluster-node-')));
  const cluster = await startPrivateCluster({ replicas });
  console.log(`private cluster, ${replicas} replica(s) per master: ready in ${Math.round(cluster.readyMs)} ms`);
  const dirs = readdirSync(tmpdir()).filter((name) => name.startsWith('pipescope-cluster-node-') && !before.has(name));
  try {
    expect(cluster.nodes).toHaveLength(3 * (1 + replicas));
    expect(dirs).toHaveLength(cluster.nodes.length);
    const masters = cluster.nodes.filter((node) => node.role === 'master');
    expect(masters.map((node) => node.slots)).toEqual(slotRanges(3));
    for (const node of cluster.nodes) expect(node.busPort).not.toBe(node.port + 10000);
    const client = new Cluster([{ host: cluster.host, port: masters[0]!.port }], { enableOfflineQueue: true });
    try {
      // One key per master (their slots fall in each range): every write lands.
      const keys = ['pipescope:test:a', 'pipescope:test:b', 'pipescope:test:c', 'pipescope:test:d', 'pipescope:test:e'];
      for (const key of keys) expect(await client.set(key, '1')).toBe('OK');
      const slotsCovered = (await client.cluster('SLOTS')) as [number, number, ...unknown[]][];
      expect(slotsCovered.reduce((sum, [from, to]) => sum + to - from + 1, 0)).toBe(CLUSTER_SLOTS);
      if (replicas > 0) for (const range of slotsCovered) expect(range.length).toBe(4); // from, to, master, replica
      await client.del(...keys.map((key) => key)).catch(() => Promise.all(keys.map((key) => client.del(key))));
    } finally {
      client.disconnect();
    }
  } finally {
    await cluster.stop();
  }
  for (const node of cluster.nodes) expect(alive(node.pid)).toBe(false);
  for (const dir of dirs) expect(existsSync(`${tmpdir()}/${dir}`)).toBe(false);
});

it('a node killed by someone else is reported once, with how it ended', async () => {
  const cluster = await startPrivateCluster();
  try {
    const ends: string[] = [];
    cluster.onUnexpectedExit((node, how) => ends.push(`${node} ${how}`));
    const victim = cluster.nodes[1]!;
    process.kill(victim.pid, 'SIGKILL');
    await until('the end to be reported', () => ends.length > 0);
    expect(ends).toEqual([`${victim.host}:${victim.port} killed by SIGKILL`]);
  } finally {
    await cluster.stop();
  }
  for (const node of cluster.nodes) expect(alive(node.pid)).toBe(false);
});
