// A run of the raw engine on a Redis Cluster: one connection per master, each wire command on the socket
// drivers/cluster-wire.ts gives it. 'pipeline': every master's share encoded before t0 into one buffer;
// split 'parallel' writes all of them at once, each on its own socket, their replies read in parallel
// (the critical path is the slowest node); split 'serial' writes one node's share, awaits its replies,
// then the next node's (the sum of the nodes). 'sequential': one command at a time, each to its node,
// its reply awaited before the next. 'multi' and 'multikey': the transaction (MULTI, the n commands,
// EXEC) or the one MSET/MGET, whole, to the master of its first key's slot: on one slot (the keys
// under one hash tag) it runs; across slots Redis refuses it (CROSSSLOT, MOVED while queueing, then
// EXECABORT), and the trace keeps each error reply exactly as sent.
//
// Before t0, as a single Redis run: the workload's set-up (GET's value), a warm-up on every master's
// socket (cluster-warmup.ts), then each master's round trip measured on its socket (cluster.connections[].rtt; the trace's
// `rtt` is the slowest node's), each master's INFO (on the housekeeping connection to it).
//
// What the trace holds: every write and read of every socket (one socket probe per connection, one
// clock), each naming its socket; the commands numbered in the order they were written, across sockets
// (trace/format/cluster-format.ts), each with its slot, node and socket; the topology and the sockets;
// every MOVED, ASK, TRYAGAIN and CROSSSLOT reply as a redirect (cluster-replies.ts; none followed);
// each master's INFO counters over the run (read and write events, errorstats, rejected calls:
// probes/node-counters.ts) and Redis's counters as their sum. The live page gets the same cluster
// record and command places with the run's end (run-listener.ts RunEnd.cluster). The run's lease and
// clean-up go per slot (redis/keyspace.ts): no key is left on any node.
//
// Added delay: each master's socket goes through a delay proxy of its own (probes/node-delay-proxies.ts),
// its hop calibrated and its round trip measured before t0 beside direct PINGs to the same node, as on a
// single Redis; each node's RTT is in its connection, the run's `rtt` is the slowest node's. The sockets'
// recorded addresses stay the nodes' own.
//
// ioredis and node-redis runs go through the library's own cluster client (cluster-client-run.ts).
// Not yet on a cluster (refused before anything is sent, cluster-refusal.ts): other modes,
// server-side probes, memory probes; the kernel TCP figures are left out (the header says the probe was off).
import type { Rtt, TraceDocument } from '../../trace/format/trace-format.ts';
import type { ClusterRecord, NodeRtt } from '../../trace/format/cluster-format.ts';
import { placeClusterCommands, type CommandPlaces } from '../../trace/format/cluster-places.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import { clusterWire } from '../drivers/cluster-wire.ts';
import { RawDriver, RAW_CLIENT } from '../drivers/raw-driver.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { RespError, type RespValue } from '../protocol/resp-reply-reader.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { NodeDelayProxies } from '../probes/node-delay-proxies.ts';
import { nodeCounters } from '../probes/node-counters.ts';
import { parseSnapshot, readServerInfo, serverDelta } from '../probes/server-counters.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { viaProxy, type RedisTarget } from '../redis/redis-target.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { runClientOnCluster } from './cluster-client-run.ts';
import { countedCommands, redirectsOf } from './cluster-replies.ts';
import { warmUpCluster, type ClusterWarmup } from './cluster-warmup.ts';
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

/** The wire command names whose commandstats time is the run's service time (EXEC's holds what it ran). */
function serviceCommands(plan: RunPlan): string[] {
  if (plan.mode === 'multi') return ['MULTI', 'EXEC'];
  if (plan.mode === 'multikey') return [plan.workload.command === 'SET' ? 'MSET' : 'MGET'];
  return [plan.workload.command];
}

export async function runOnCluster(session: RedisSession, plan: RunPlan, guarded: GuardedRun<RunEnd>): Promise<TraceDocument> {
  if (plan.engine.name !== 'raw') return runClientOnCluster(session, plan, guarded); // a library's cluster client routes its own commands
  const topology = session.cluster!;
  const keyspace = session.keyspace();
  const { workload, mode, namespace } = plan;
  const n = plan.wire.n;
  const { signal, listener, hooks } = guarded;
  const wire = clusterWire(mode, workload.commands, n, workload.wirePlan, topology);
  const split = mode === 'pipeline' ? plan.cluster.split : undefined;
  const drivers: RawDriver[] = [];
  const probes: SocketProbe[] = [];
  let proxies: NodeDelayProxies | undefined;
  let written = 0;
  let warmup: ClusterWarmup | undefined;
  let document: TraceDocument | undefined;
  let failure: unknown;
  const abort = () => {
    drivers.forEach((driver) => driver.abort());
    void proxies?.close(); // what a proxy still holds for a node is dropped, not delivered
  };
  signal.addEventListener('abort', abort);
  const cancelled = () => signal.aborted;
  try {
    if (proxied(plan.network)) proxies = await NodeDelayProxies.start(wire.masters.map((node) => node.address), plan.network);
    for (const node of wire.masters) {
      const target = nodeTarget(session.target, node.address);
      drivers.push(await RawDriver.open(proxies ? viaProxy(target, proxies.addressFor(node.address)) : target, `pipescope-run-${plan.id}`));
    }
    if (cancelled()) throw new RunCancelledError('Run cancelled');
    // Set-up before t0 (GET's value), each command to its key's node.
    for (const [name, ...args] of workload.commands.setup) {
      assertAllowed(namespace, name, args.map(String));
      await keyspace.keys.call(name, ...args);
    }
    warmup = await warmUpCluster(drivers, topology, plan, session.baseRttUs, cancelled);
    // Each master's housekeeping connection (the cluster client's), in the wire's (the topology's) order:
    // the direct PINGs beside the proxied ones, and the INFO snapshots.
    const masters = wire.masters.map((node) => {
      const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === node.address);
      if (!connection) throw new Error(`the cluster client has no connection to master ${node.address}: the topology changed since it was read`);
      return connection;
    });
    // Before t0: each socket's share encoded into one buffer (sequential writes each command's bytes).
    const shares = wire.shares.map((share) => Buffer.concat(share.map((i) => wire.bytesOf(i))));
    // Each node's round trip on the run's socket to it (through its proxy, its hop calibrated first), one node after another.
    const nodeRtts: Rtt[] = [];
    for (const [k, node] of wire.masters.entries()) {
      const proxy = proxies?.proxyFor(node.address);
      if (proxy) await calibrateHop(proxy, plan.network, drivers[k]!, masters[k]!);
      nodeRtts.push(await measureRtt(drivers[k]!, plan.network, proxy, masters[k]!));
    }
    // The run's RTT is the slowest node's: a split pipeline waits for it, and no node's is hidden by a mean.
    const rtt = nodeRtts.reduce((slowest, r) => (r.measuredMedianUs > slowest.measuredMedianUs ? r : slowest));
    // The kernel's TCP figures are not read on a cluster yet: the trace says the probe was off (cluster-refusal.ts).
    const header = runHeader({ ...plan, probes: { ...plan.probes, kernelTcp: false } }, session.info, rtt, warmup.record, RAW_CLIENT);
    await hooks.measuring();
    listener.onStart?.(header);
    const nodesInfoBefore = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    const clock = new RunClock();
    for (const driver of drivers) probes.push(new SocketProbe(driver.socket, clock, true));
    const outcomes = new Array<Outcome>(n);
    const recorder = (i: number) => (reply: RespValue) => {
      outcomes[i] = reply instanceof RespError ? { error: reply.message } : { reply: previewReply(reply) };
    };
    const perShare = wire.shares.map((share) => {
      let next = 0;
      return (reply: RespValue) => recorder(share[next++]!)(reply);
    });
    // The trace numbers commands in the order they were written, across sockets: `order` maps each trace
    // position to its wire command, extended as writes are taken; outcomes follow in that order once known.
    const builder = new TraceBuilder(header);
    const order: number[] = [];
    const cursor = wire.shares.map(() => 0);
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
        for (let j = 0; j < write.commands; j++) order.push(wire.shares[k]![cursor[k]!++]!);
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
      if (mode === 'sequential') {
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          written = i + 1;
          await drivers[wire.owners[i]!]!.write(wire.bytesOf(i), 1, recorder(i));
        }
      } else if (split === 'serial') {
        // One node after another: each share written, its replies awaited, then the next.
        for (const [k, share] of wire.shares.entries()) {
          if (share.length === 0) continue;
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          written += share.length;
          await drivers[k]!.write(shares[k]!, share.length, perShare[k]!);
        }
      } else {
        const sends = wire.shares.map((share, k) => (share.length ? drivers[k]!.write(shares[k]!, share.length, perShare[k]!) : Promise.resolve()));
        written = n;
        await Promise.all(sends);
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
    const counted = wire.shares.map((share) => countedCommands(mode, share.map((i) => outcomes[i]!)));
    const deltas = masters.map((_, k) => serverDelta(parseSnapshot(nodesInfoBefore[k]!), parseSnapshot(nodesInfoAfter[k]!), counted[k]!, serviceCommands(plan)));
    const server = {
      reads: deltas.reduce((sum, d) => sum + d.reads, 0),
      writes: deltas.reduce((sum, d) => sum + d.writes, 0),
      execUs: deltas.reduce((sum, d) => sum + d.execUs, 0),
      source: 'redis-info' as const,
      exclusive: deltas.every((d) => d.exclusive),
    };
    const places: CommandPlaces = { slots: order.map((i) => wire.slots[i] ?? null), connections: order.map((i) => wire.owners[i]!) };
    const cluster: ClusterRecord = {
      topology,
      connections: wire.masters.map((node, k) => ({ node: node.id, address: node.address, rtt: nodeRtt(nodeRtts[k]!) })),
      redirects: [],
      clientRefusal: null,
      nodeCounters: wire.masters.map((node, k) => nodeCounters(node.id, nodesInfoBefore[k]!, nodesInfoAfter[k]!, counted[k]!)),
      ...(split ? { split } : {}),
    };
    // Per node, Redis's CPU is that node's: not summed into one figure (yet).
    const serverCpu = { source: 'redis-info-cpu' as const, unavailable: 'a cluster run\'s CPU time is each node\'s own: not measured per node yet' };
    const costs = probes.map((probe) => probe.cost());
    const probeCosts = {
      socket: { inRunUs: costs.reduce((sum, c) => sum + c.inRunUs, 0), events: costs.reduce((sum, c) => sum + c.events, 0) },
      flushes,
    };
    builder.checkComplete();
    const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
    doc.commands = placeClusterCommands(doc, cluster, places);
    // The redirects read from the placed commands; the document's record is this one, and the live page gets it whole.
    cluster.redirects = redirectsOf(doc.commands);
    listener.onEnd?.(plan.id, {
      server, serverSide: null, memory: null, doneUs, t0Ns: clock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
      clusterRun: { record: cluster, places },
    });
    document = doc;
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // Each socket's address as its node sees it (the proxy's end when delayed), to see Redis let go of it: a
  // failed or cancelled run's commands already read by a node would otherwise make keys after their deletion.
  const sources = drivers.map((driver, k) => proxies?.proxyFor(wire.masters[k]!.address).upstreamAddresses[0] ?? `${driver.socket.localAddress}:${driver.socket.localPort}`);
  for (const driver of drivers) driver.disconnect();
  await proxies?.close();
  let leftKeys: string | undefined;
  try {
    if (!document) for (const source of sources) await waitUntilClientGone(keyspace, source);
    await deleteRunKeys(keyspace, namespace, workload.commands, written === 0 && workload.commands.setup.length === 0 ? 0 : workload.operations);
    if (warmup) await deleteRunKeys(keyspace, namespace, warmup.workload, warmup.written);
  } catch (error) {
    leftKeys = `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
  await hooks.cleaned(!leftKeys);
  if (failure) throw failure instanceof Error && leftKeys ? Object.assign(failure, { message: `${failure.message}; also, ${leftKeys}` }) : failure;
  if (leftKeys) throw new Error(`The run finished, but ${leftKeys}`);
  return document!;
}
