// Starts and stops Pipescope's own private Redis Cluster: 3 masters (and, when asked, a replica of
// each) from the same redis-server binary as the private Redis, on free loopback ports, with no
// persistence. Each node runs under its own watchdog (support/watched-process.ts) in its own temporary
// folder, which holds its nodes.conf: if this process dies however it dies (even SIGKILL), every node
// is stopped and every folder removed. The cluster is formed at once after the nodes answer (slots
// given with CLUSTER ADDSLOTSRANGE, nodes introduced with CLUSTER MEET, replicas attached with CLUSTER
// REPLICATE): formed late, a new master waits out the node timeout before it serves.
//
// Ready means, asked of every node: cluster_state:ok, 16384 slots assigned, every node known; with
// replicas also each replica's link to its master up and every replica listed in CLUSTER SLOTS. A node
// that ends unasked is reported once (onUnexpectedExit) for private-cluster-keeper.ts to restart the
// cluster, as private-redis-keeper.ts does for the single private redis-server.
//
// Time to ready here (Debian's redis-server 7.0.15, loopback): ~2.4 s for 3 masters (Redis holds a new
// master back 2 s), ~3–3.5 s with a replica each (each replica meets its own master first, and
// replication is diskless with no delay).
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findFreePort } from '../support/free-port.ts';
import { spawnWatched, type WatchedProcess } from '../support/watched-process.ts';
import { parseInfo } from './info-fields.ts';
import { RedisServerMissingError, findRedisServerBinary, installExitHooks, trackLiveWatchdog } from './private-redis-server.ts';

/** Hash slots of Redis Cluster: 0 … 16383. */
export const CLUSTER_SLOTS = 16384;
/** Masters of the private cluster. */
export const PRIVATE_CLUSTER_MASTERS = 3;

export interface PrivateClusterNode {
  host: string;
  port: number;
  /** The cluster bus port, given explicitly (port + 10000 may pass 65535). */
  busPort: number;
  /** redis-server's own process id (INFO server). */
  pid: number;
  /** The node's cluster id (CLUSTER MYID). */
  id: string;
  role: 'master' | 'replica';
  /** A replica: the id of its master. */
  masterId?: string;
  /** A master: its slot range, inclusive. */
  slots?: readonly [number, number];
}

export interface PrivateCluster {
  host: string;
  /** Masters first (in slot order), then their replicas in the same order. */
  nodes: readonly PrivateClusterNode[];
  /** ms from the first spawn to ready (every node agreeing, as above). */
  readyMs: number;
  /** Stops every node; resolves once each is gone with its folder. */
  stop(): Promise<void>;
  /** Called once if any node ends without stop(): which node, how ("killed by SIGKILL") and its last line. */
  onUnexpectedExit(listener: (node: string, how: string, lastLine: string) => void): void;
}

export interface PrivateClusterOptions {
  host?: string;
  /** Replicas per master (0 or 1 is what the page offers; any small number works). */
  replicas?: number;
  /** Ports to reuse (a restart), masters then replicas; default: free ones. */
  ports?: readonly number[];
  timeoutMs?: number;
}

/** Splits the slots into `masters` contiguous ranges, as redis-cli --cluster create does. */
export function slotRanges(masters: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < masters; i++) {
    ranges.push([Math.floor((i * CLUSTER_SLOTS) / masters), Math.floor(((i + 1) * CLUSTER_SLOTS) / masters) - 1]);
  }
  return ranges;
}

interface Spawned {
  host: string;
  port: number;
  busPort: number;
  dir: string;
  watched: WatchedProcess;
  output: string;
}

export async function startPrivateCluster(options: PrivateClusterOptions = {}): Promise<PrivateCluster> {
  const binary = findRedisServerBinary();
  if (!binary) {
    throw new RedisServerMissingError(
      'redis-server was not found. Install it (Debian: sudo apt-get install -y redis-server), ' +
        'or point Pipescope at an existing cluster with REDIS_URL=redis://host:port.',
    );
  }
  installExitHooks();
  const host = options.host ?? '127.0.0.1';
  const replicas = options.replicas ?? 0;
  const count = PRIVATE_CLUSTER_MASTERS * (1 + replicas);
  const started = performance.now();
  const spawned: Spawned[] = [];
  let stopping = false;
  const stop = async (): Promise<void> => {
    stopping = true;
    await Promise.all(spawned.map((node) => node.watched.release()));
  };
  try {
    // Ports handed out here, taken or not yet: the kernel calls a port free until its node has bound it.
    const taken = new Set<number>(options.ports ?? []);
    for (let i = 0; i < count; i++) spawned.push(await spawnNode(binary, host, options.ports?.[i], replicas > 0, taken));
    const timeoutMs = options.timeoutMs ?? 20_000;
    const deadline = Date.now() + timeoutMs;
    const clients = await Promise.all(spawned.map((node) => connectWhenUp(node, deadline)));
    try {
      const nodes = await form(spawned, clients, replicas);
      await waitUntilReady(clients, nodes, replicas, deadline);
      const readyMs = performance.now() - started;
      return {
        host,
        nodes,
        readyMs,
        stop,
        onUnexpectedExit: (listener) => {
          let said = false;
          for (const node of spawned) {
            void node.watched.ended.then((end) => {
              if (stopping || said) return;
              said = true;
              listener(`${node.host}:${node.port}`, end.description, node.output.trim().split('\n').at(-1) ?? '');
            });
          }
        },
      };
    } finally {
      for (const client of clients) client.disconnect();
    }
  } catch (error) {
    await stop();
    const said = spawned.map((node) => node.output.trim()).filter(Boolean).join('\n');
    throw new Error(`the private Redis Cluster did not start on ${host}: ${(error as Error).message}${said ? `\n${said.slice(-2000)}` : ''}`);
  }
}

/** One node, under its watchdog, in its own folder (its data dir and nodes.conf). */
async function spawnNode(binary: string, host: string, givenPort: number | undefined, withReplicas: boolean, taken: Set<number>): Promise<Spawned> {
  const fresh = async (): Promise<number> => {
    let port = await findFreePort(host);
    while (taken.has(port)) port = await findFreePort(host);
    taken.add(port);
    return port;
  };
  const port = givenPort ?? (await fresh());
  const busPort = await fresh();
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-cluster-node-'));
  const args = ['--port', String(port), '--bind', host, '--protected-mode', 'yes', '--daemonize', 'no', '--loglevel', 'warning',
    '--dir', dir, '--save', '', '--appendonly', 'no', '--shutdown-on-sigterm', 'nosave now',
    '--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', join(dir, 'nodes.conf'),
    ...(withReplicas ? ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0', '--repl-ping-replica-period', '1'] : [])];
  const watched = spawnWatched(binary, args, dir);
  trackLiveWatchdog(watched);
  const node: Spawned = { host, port, busPort, dir, watched, output: '' };
  watched.watchdog.stderr?.on('data', (chunk: Buffer) => (node.output = (node.output + chunk.toString()).slice(-2000)));
  return node;
}

/** A connection once the node answers PING; it must be ours (its dir is our folder), not another Redis on a reused port. */
async function connectWhenUp(node: Spawned, deadline: number): Promise<Redis> {
  const exited = () => new Error(`the node on port ${node.port} exited: ${node.output.trim().split('\n').at(-1) ?? ''}`);
  let dir: string;
  try {
    dir = realpathSync(node.dir);
  } catch {
    throw exited(); // its folder goes with it
  }
  for (;;) {
    if (node.watched.watchdog.exitCode !== null) throw exited();
    const client = new Redis({ host: node.host, port: node.port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectionName: 'pipescope-cluster-start' });
    client.on('error', () => {});
    try {
      await client.connect();
      const [, serverDir] = (await client.config('GET', 'dir')) as [string, string];
      if (serverDir !== dir) throw new Error(`another Redis (dir ${serverDir}) answers on port ${node.port}`);
      return client;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
    }
    await sleep(20);
  }
}

/** Slots to the masters, every node introduced to the first, each replica attached to its master. */
async function form(spawned: readonly Spawned[], clients: readonly Redis[], replicas: number): Promise<PrivateClusterNode[]> {
  const ranges = slotRanges(PRIVATE_CLUSTER_MASTERS);
  const ids = await Promise.all(clients.map(async (client) => String(await client.call('CLUSTER', 'MYID'))));
  const pids = await Promise.all(clients.map(async (client) => Number(parseInfo(await client.info('server')).get('process_id') ?? 0)));
  await Promise.all(ranges.map(([from, to], i) => clients[i]!.call('CLUSTER', 'ADDSLOTSRANGE', from, to)));
  // Masters meet the first; a replica meets its own master, so it learns its master's id soonest.
  for (const [i, node] of spawned.entries()) {
    if (i === 0) continue;
    const introducer = i < PRIVATE_CLUSTER_MASTERS ? 0 : (i - PRIVATE_CLUSTER_MASTERS) % PRIVATE_CLUSTER_MASTERS;
    await clients[introducer]!.call('CLUSTER', 'MEET', node.host, node.port, node.busPort);
  }
  const nodes: PrivateClusterNode[] = spawned.map((node, i) => {
    const base = { host: node.host, port: node.port, busPort: node.busPort, pid: pids[i]!, id: ids[i]! };
    if (i < PRIVATE_CLUSTER_MASTERS) return { ...base, role: 'master', slots: ranges[i]! };
    return { ...base, role: 'replica', masterId: ids[(i - PRIVATE_CLUSTER_MASTERS) % PRIVATE_CLUSTER_MASTERS]! };
  });
  if (replicas > 0) {
    // A replica can follow its master only once it has heard of it through the bus.
    await Promise.all(nodes.map(async (node, i) => {
      if (node.role !== 'replica') return;
      for (;;) {
        const known = String(await clients[i]!.call('CLUSTER', 'NODES'));
        if (known.includes(node.masterId!)) break;
        await sleep(20);
      }
      await clients[i]!.call('CLUSTER', 'REPLICATE', node.masterId!);
    }));
  }
  return nodes;
}

/** Until every node agrees (see the top of this file), polled every 20 ms; the deadline throws with what was missing. */
async function waitUntilReady(clients: readonly Redis[], nodes: readonly PrivateClusterNode[], replicas: number, deadline: number): Promise<void> {
  let missing = '';
  while (Date.now() <= deadline) {
    missing = await whatIsMissing(clients, nodes, replicas);
    if (!missing) return;
    await sleep(20);
  }
  throw new Error(`not ready within the time allowed: ${missing}`);
}

async function whatIsMissing(clients: readonly Redis[], nodes: readonly PrivateClusterNode[], replicas: number): Promise<string> {
  for (const [i, client] of clients.entries()) {
    const node = nodes[i]!;
    const info = parseInfo(String(await client.call('CLUSTER', 'INFO')));
    if (info.get('cluster_state') !== 'ok') return `${node.port}: cluster_state:${info.get('cluster_state')}`;
    if (info.get('cluster_slots_assigned') !== String(CLUSTER_SLOTS)) return `${node.port}: ${info.get('cluster_slots_assigned')} slots assigned`;
    if (info.get('cluster_known_nodes') !== String(nodes.length)) return `${node.port}: knows ${info.get('cluster_known_nodes')} of ${nodes.length} nodes`;
    if (replicas === 0) continue;
    if (node.role === 'replica') {
      const link = parseInfo(await client.info('replication')).get('master_link_status');
      if (link !== 'up') return `${node.port}: master_link_status:${link}`;
    }
    const slots = (await client.call('CLUSTER', 'SLOTS')) as unknown[][];
    const listed = slots.reduce((sum, range) => sum + range.length - 3, 0); // start, end, the master, then its replicas
    if (listed < PRIVATE_CLUSTER_MASTERS * replicas) return `${node.port}: CLUSTER SLOTS lists ${listed} of ${PRIVATE_CLUSTER_MASTERS * replicas} replicas`;
  }
  return '';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
