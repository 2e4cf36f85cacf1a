// A run of the raw engine on a Redis Cluster, split by node: one connection per master, each command
// sent to the master serving its slot (drivers/cluster-split.ts). 'pipeline': every master's share
// encoded before t0 into one buffer, and all of them written at once, each on its own socket, their
// replies read in parallel (the critical path is the slowest node, not the sum). 'sequential': one
// command at a time, each to its node, its reply awaited before the next.
//
// What the trace holds: every write and read of every socket (one socket probe per connection, one
// clock), each naming its socket; the commands numbered in the order they were written, across sockets
// (trace/format/cluster-format.ts), each with its slot, node and socket; the topology and the sockets;
// Redis's counters as the sum over the masters of each master's INFO delta (its own INFO taken out).
// The run's lease and clean-up go per slot (redis/keyspace.ts): no key is left on any node.
//
// Added delay: each master's socket goes through a delay proxy of its own (probes/node-delay-proxies.ts),
// its hop calibrated and its round trip measured before t0 beside direct PINGs to the same node, as on a
// single Redis; each node's RTT is in its connection, the run's `rtt` is the slowest node's. The sockets'
// recorded addresses stay the nodes' own.
//
// ioredis and node-redis runs go through the library's own cluster client (cluster-client-run.ts).
// Not yet on a cluster (refused before anything is sent, cluster-refusal.ts): other modes,
// server-side probes, memory probes, the warm-up; the kernel TCP figures are left out (the header says the probe was off).
import type { Rtt, TraceDocument } from '../../trace/format/trace-format.ts';
import type { ClusterRecord, NodeRtt } from '../../trace/format/cluster-format.ts';
import { placeClusterCommands, type CommandPlaces } from '../../trace/format/cluster-places.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import { splitByNode } from '../drivers/cluster-split.ts';
import { RawDriver, RAW_CLIENT } from '../drivers/raw-driver.ts';
import { encodeBatch } from '../protocol/resp-encoder.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { RespError, type RespValue } from '../protocol/resp-reply-reader.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { NodeDelayProxies } from '../probes/node-delay-proxies.ts';
import { parseSnapshot, readServerInfo, serverDelta } from '../probes/server-counters.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { viaProxy, type RedisTarget } from '../redis/redis-target.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { runClientOnCluster } from './cluster-client-run.ts';
import { deleteRunKeys, waitUntilClientGone } from './run-cleanup.ts';
import type { GuardedRun } from './run-guard.ts';
import { FLUSH_INTERVAL_MS, runHeader } from './run/measure-run.ts';
import type { RunEnd } from './run/run-listener.ts';
import { calibrateHop, measureRtt } from './run/run-connection.ts';
import { proxied, type RunPlan } from './run/run-plan.ts';

/** The session's target with a node's address: same credentials, TLS and database. */
function nodeTarget(target: RedisTarget, address: string): RedisTarget {
  const url = new URL(target.url);
  const colon = address.lastIndexOf(':');
  url.hostname = address.slice(0, colon);
  url.port = address.slice(colon + 1);
  return { ...target, url: url.toString(), address };
}

/** A node's measured round trip as its connection records it: the delay asked for is the run's. */
function nodeRtt(rtt: Rtt): NodeRtt {
  const { measuredMinUs, measuredMedianUs, samples, measuredP10Us, measuredP90Us, directMedianUs, hopCompensationUs } = rtt;
  const optional = { measuredP10Us, measuredP90Us, directMedianUs, hopCompensationUs };
  return { measuredMinUs, measuredMedianUs, samples, ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)) };
}

export async function runOnCluster(session: RedisSession, plan: RunPlan, guarded: GuardedRun<RunEnd>): Promise<TraceDocument> {
  if (plan.engine.name !== 'raw') return runClientOnCluster(session, plan, guarded); // a library's cluster client routes its own commands
  const topology = session.cluster!;
  const keyspace = session.keyspace();
  const { workload, mode, namespace } = plan;
  const n = plan.wire.n;
  const { signal, listener, hooks } = guarded;
  const split = splitByNode(workload.commands, n, topology);
  const drivers: RawDriver[] = [];
  const probes: SocketProbe[] = [];
  let proxies: NodeDelayProxies | undefined;
  let written = 0;
  let document: TraceDocument | undefined;
  let failure: unknown;
  const abort = () => {
    drivers.forEach((driver) => driver.abort());
    void proxies?.close(); // what a proxy still holds for a node is dropped, not delivered
  };
  signal.addEventListener('abort', abort);
  try {
    if (proxied(plan.network)) proxies = await NodeDelayProxies.start(split.masters.map((node) => node.address), plan.network);
    for (const node of split.masters) {
      const target = nodeTarget(session.target, node.address);
      drivers.push(await RawDriver.open(proxies ? viaProxy(target, proxies.addressFor(node.address)) : target, `pipescope-run-${plan.id}`));
    }
    if (signal.aborted) throw new RunCancelledError('Run cancelled');
    // Each master's housekeeping connection (the cluster client's), in the split's (the topology's) order:
    // the direct PINGs beside the proxied ones, and the INFO snapshots.
    const masters = split.masters.map((node) => {
      const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === node.address);
      if (!connection) throw new Error(`the cluster client has no connection to master ${node.address}: the topology changed since it was read`);
      return connection;
    });
    // Before t0: each master's share encoded into one buffer (pipeline), or each command's bytes (sequential).
    const { bytes, offsets } = encodeBatch(workload.commands, n);
    const commandBytes = (i: number) => bytes.subarray(offsets[i]!, offsets[i + 1]!);
    const shares = split.shares.map((share) => Buffer.concat(share.map(commandBytes)));
    // Each node's round trip on the run's socket to it (through its proxy, its hop calibrated first), one node after another.
    const nodeRtts: Rtt[] = [];
    for (const [k, node] of split.masters.entries()) {
      const proxy = proxies?.proxyFor(node.address);
      if (proxy) await calibrateHop(proxy, plan.network, drivers[k]!, masters[k]!);
      nodeRtts.push(await measureRtt(drivers[k]!, plan.network, proxy, masters[k]!));
    }
    // The run's RTT is the slowest node's: a split pipeline waits for it, and no node's is hidden by a mean.
    const rtt = nodeRtts.reduce((slowest, r) => (r.measuredMedianUs > slowest.measuredMedianUs ? r : slowest));
    const header = runHeader({ ...plan, probes: { ...plan.probes, kernelTcp: false } }, session.info, rtt, null, RAW_CLIENT);
    await hooks.measuring();
    listener.onStart?.(header);
    const nodesInfoBefore = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    const clock = new RunClock();
    for (const driver of drivers) probes.push(new SocketProbe(driver.socket, clock, true));
    const outcomes = new Array<Outcome>(n);
    const recorder = (i: number) => (reply: RespValue) => {
      outcomes[i] = reply instanceof RespError ? { error: reply.message } : { reply: previewReply(reply) };
    };
    const perShare = split.shares.map((share) => {
      let next = 0;
      return (reply: RespValue) => recorder(share[next++]!)(reply);
    });
    const cancelled = () => signal.aborted;
    // The trace numbers commands in the order they were written, across sockets: `order` maps each trace
    // position to its workload command, extended as writes are taken; outcomes follow in that order once known.
    const builder = new TraceBuilder(header);
    const order: number[] = [];
    const cursor = split.shares.map(() => 0);
    let listed = 0;
    const flushes = { inRunUs: 0, count: 0 };
    let running = false;
    const flush = () => {
      const started = process.hrtime.bigint();
      // Every socket's events since the last flush, each naming its socket, merged on the one clock (ties in socket order).
      const taken = probes.map((probe) => probe.take());
      const writes: WriteEvent[] = taken.flatMap((batch, k) => batch.writes.map((w) => ({ ...w, connection: k }))).sort((a, b) => a.atUs - b.atUs);
      const reads: ReadEvent[] = taken.flatMap((batch, k) => batch.reads.map((r) => ({ ...r, connection: k }))).sort((a, b) => a.atUs - b.atUs);
      for (const write of writes) {
        const k = write.connection!;
        for (let j = 0; j < write.commands; j++) order.push(split.shares[k]![cursor[k]!++]!);
      }
      const known: Outcome[] = [];
      while (listed < order.length && outcomes[order[listed]!] !== undefined) known.push(outcomes[order[listed++]!]!);
      if (writes.length === 0 && reads.length === 0 && known.length === 0) return;
      const batch: ProbeBatch = { writes, reads, outcomes: known };
      builder.addBatch(batch);
      listener.onBatch?.(plan.id, batch);
      if (!running) return;
      flushes.count++;
      flushes.inRunUs += microsSince(started);
    };
    const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
    let doneUs: number;
    try {
      running = true;
      const t0 = clock.start();
      if (mode === 'pipeline') {
        const sends = split.shares.map((share, k) => (share.length ? drivers[k]!.write(shares[k]!, share.length, perShare[k]!) : Promise.resolve()));
        written = n;
        await Promise.all(sends);
      } else {
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          const k = split.owners[i]!;
          written = i + 1;
          await drivers[k]!.write(commandBytes(i), 1, recorder(i));
        }
      }
      doneUs = microsSince(t0);
    } finally {
      running = false;
      clearInterval(flusher);
      for (const probe of probes) probe.detach();
      flush();
    }
    const nodesInfoAfter = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    hooks.measured();
    guarded.hooks.replied();
    const deltas = masters.map((_, k) => {
      const share = split.shares[k]!.length;
      return serverDelta(parseSnapshot(nodesInfoBefore[k]!), parseSnapshot(nodesInfoAfter[k]!), share, workload.commands.command);
    });
    const server = {
      reads: deltas.reduce((sum, d) => sum + d.reads, 0),
      writes: deltas.reduce((sum, d) => sum + d.writes, 0),
      execUs: deltas.reduce((sum, d) => sum + d.execUs, 0),
      source: 'redis-info' as const,
      exclusive: deltas.every((d) => d.exclusive),
    };
    const cluster: ClusterRecord = {
      topology,
      connections: split.masters.map((node, k) => ({ node: node.id, address: node.address, rtt: nodeRtt(nodeRtts[k]!) })),
      redirects: [],
      clientRefusal: null,
    };
    // Per node, Redis's CPU is that node's: not summed into one figure (yet).
    const serverCpu = { source: 'redis-info-cpu' as const, unavailable: 'a cluster run\'s CPU time is each node\'s own: not measured per node yet' };
    const costs = probes.map((probe) => probe.cost());
    const probeCosts = {
      socket: { inRunUs: costs.reduce((sum, c) => sum + c.inRunUs, 0), events: costs.reduce((sum, c) => sum + c.events, 0) },
      flushes,
    };
    builder.checkComplete();
    // Each command's socket (its master's, by the split) and slot, in trace order.
    const places: CommandPlaces = { connections: order.map((i) => split.owners[i]!), slots: order.map((i) => split.slots[i] ?? null) };
    listener.onEnd?.(plan.id, {
      server, serverSide: null, memory: null, doneUs, t0Ns: clock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
      clusterRun: { record: cluster, places },
    });
    const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
    doc.commands = placeClusterCommands(doc, cluster, places);
    document = doc;
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // Each socket's address as its node sees it (the proxy's end when delayed), to see Redis let go of it: a
  // failed or cancelled run's commands already read by a node would otherwise make keys after their deletion.
  const sources = drivers.map((driver, k) => proxies?.proxyFor(split.masters[k]!.address).upstreamAddresses[0] ?? `${driver.socket.localAddress}:${driver.socket.localPort}`);
  for (const driver of drivers) driver.disconnect();
  await proxies?.close();
  let leftKeys: string | undefined;
  try {
    if (!document) for (const source of sources) await waitUntilClientGone(keyspace, source);
    await deleteRunKeys(keyspace, namespace, workload.commands, written === 0 ? 0 : workload.operations);
  } catch (error) {
    leftKeys = `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
  await hooks.cleaned(!leftKeys);
  if (failure) throw failure instanceof Error && leftKeys ? Object.assign(failure, { message: `${failure.message}; also, ${leftKeys}` }) : failure;
  if (leftKeys) throw new Error(`The run finished, but ${leftKeys}`);
  return document!;
}
