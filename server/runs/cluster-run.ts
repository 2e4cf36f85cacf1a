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
// every MOVED, ASK, TRYAGAIN and CROSSSLOT reply as a redirect, with the command sent in its place;
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
// Redirects (MOVED, ASK, TRYAGAIN) are followed and recorded by drivers/cluster-redirects.ts in the
// modes that split by node: every command on the wire, resends and ASKINGs included, is a WireEntry of
// its socket. A transaction or one MSET (multi, multikey) is not followed: its refusals are the lesson.
// A resharding run (plan.reshard, private cluster only) moves one slot of the run's keys during it
// (cluster-reshard.ts) and checks every reply against the value stored before t0.
//
// ioredis and node-redis runs go through the library's own cluster client (cluster-client-run.ts).
// Not yet on a cluster (refused before anything is sent, cluster-refusal.ts): other modes,
// server-side probes, memory probes; the kernel TCP figures are left out (the header says the probe was off).
import type { ReplyValue, Rtt, TraceDocument } from '../../trace/format/trace-format.ts';
import type { ClusterRecord, NodeRtt } from '../../trace/format/cluster-format.ts';
import { placeClusterCommands, type CommandPlaces } from '../../trace/format/cluster-places.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import { RedirectFollower, type WireEntry } from '../drivers/cluster-redirects.ts';
import { slotOwners } from '../drivers/cluster-split.ts';
import { clusterWire } from '../drivers/cluster-wire.ts';
import { RawDriver, RAW_CLIENT } from '../drivers/raw-driver.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { NodeDelayProxies } from '../probes/node-delay-proxies.ts';
import { nodeCounters } from '../probes/node-counters.ts';
import { parseSnapshot, readServerInfo, serverDelta } from '../probes/server-counters.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { AT_ONCE, moveSlot, type SlotMoveResult } from '../redis/slot-migration.ts';
import { viaProxy, type RedisTarget } from '../redis/redis-target.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { runClientOnCluster } from './cluster-client-run.ts';
import { countedCommands } from './cluster-replies.ts';
import { expectedAnswer, expectedRunUs, reshardMove, reshardPacing } from './cluster-reshard.ts';
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
  // A transaction or one multi-key command goes whole to one node: its refusals are recorded, not followed.
  const follows = mode === 'pipeline' || mode === 'sequential';
  // The run's sockets: one per master, in the wire's order, and any a redirect opens to another node.
  const drivers: RawDriver[] = [];
  const connections: ClusterRecord['connections'] = wire.masters.map((node) => ({ node: node.id, address: node.address }));
  const probes: SocketProbe[] = [];
  let proxies: NodeDelayProxies | undefined;
  let written = 0;
  let warmup: ClusterWarmup | undefined;
  let document: TraceDocument | undefined;
  let failure: unknown;
  const reshardStop = new AbortController();
  let moving: Promise<SlotMoveResult> | undefined;
  const abort = () => {
    drivers.forEach((driver) => driver.abort());
    reshardStop.abort();
    void proxies?.close(); // what a proxy still holds for a node is dropped, not delivered
  };
  signal.addEventListener('abort', abort);
  const cancelled = () => signal.aborted;
  // Each master's housekeeping connection (the cluster client's), by address: INFO, the direct PINGs, a reshard's steps.
  const housekeeping = (address: string) => {
    const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === address);
    if (!connection) throw new Error(`the cluster client has no connection to master ${address}: the topology changed since it was read`);
    return connection;
  };
  const move = plan.reshard ? reshardMove({ masters: wire.masters, slots: wire.slots }) : undefined;
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
    const masters = wire.masters.map((node) => housekeeping(node.address));
    // Before t0: each socket's share encoded into one buffer (sequential writes each command's bytes).
    const shares = wire.shares.map((share) => Buffer.concat(share.map((i) => wire.bytesOf(i))));
    // Each node's round trip on the run's socket to it (through its proxy, its hop calibrated first), one node after another.
    const nodeRtts: Rtt[] = [];
    for (const [k, node] of wire.masters.entries()) {
      const proxy = proxies?.proxyFor(node.address);
      if (proxy) await calibrateHop(proxy, plan.network, drivers[k]!, masters[k]!);
      nodeRtts.push(await measureRtt(drivers[k]!, plan.network, proxy, masters[k]!));
      connections[k]!.rtt = nodeRtt(nodeRtts[k]!);
    }
    // The run's RTT is the slowest node's: a split pipeline waits for it, and no node's is hidden by a mean.
    const rtt = nodeRtts.reduce((slowest, r) => (r.measuredMedianUs > slowest.measuredMedianUs ? r : slowest));
    // The kernel's TCP figures are not read on a cluster yet: the trace says the probe was off (cluster-refusal.ts).
    const header = runHeader({ ...plan, probes: { ...plan.probes, kernelTcp: false } }, session.info, rtt, warmup.record, RAW_CLIENT);
    await hooks.measuring();
    listener.onStart?.(header);
    const nodesInfoBefore = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    const runClock = new RunClock();
    const openings = new Map<string, Promise<number>>();
    for (const driver of drivers) probes.push(new SocketProbe(driver.socket, runClock, true));
    const follower = new RedirectFollower({
      write: (k, data, count, each) => drivers[k]!.write(data, count, each).catch((error: unknown) => {
        if (signal.aborted) throw error;
        throw new Error(`the connection to cluster node ${connections[k]!.address} failed during the run (${(error as Error).message}): the node stopped answering`);
      }),
      commandBytes: (op) => wire.bytesOf(op),
      connectionTo: (address) => {
        const known = connections.findIndex((connection) => connection.address === address);
        if (known >= 0) return Promise.resolve(known);
        let opening = openings.get(address);
        if (!opening) openings.set(address, (opening = openConnection(address)));
        return opening;
      },
    }, slotOwners(wire.masters).map((k) => Math.max(0, k)), n, follows);
    async function openConnection(address: string): Promise<number> {
      // A node the topology did not name as a master (a failover, a node added): a socket of its own, watched like the others
      // (straight to it: the delay proxies were started for the masters read before the run).
      const driver = await RawDriver.open(nodeTarget(session.target, address), `pipescope-run-${plan.id}`);
      if (signal.aborted) driver.abort();
      drivers.push(driver);
      probes.push(new SocketProbe(driver.socket, runClock, true));
      connections.push({ node: topology.nodes.find((node) => node.address === address)?.id ?? address, address });
      return connections.length - 1;
    }
    // The trace numbers commands in the order they were written, across sockets: `order` maps each trace
    // position to its wire entry, extended as writes are taken; outcomes follow in that order once known.
    const builder = new TraceBuilder(header);
    const order: WireEntry[] = [];
    const cursor: number[] = [];
    let listed = 0;
    const flushes = { inRunUs: 0, count: 0 };
    let running = false;
    const flush = () => {
      const started = process.hrtime.bigint();
      // Every socket's events since the last flush, each naming its socket, merged on the one clock (ties in socket order).
      const taken = probes.map((probe) => probe.take());
      const writes: WriteEvent[] = taken.flatMap((batch, k) => batch.writes.map((w) => ({ ...w, connection: k }))).sort((a, b) => a.atUs - b.atUs);
      const reads: ReadEvent[] = taken.flatMap((batch, k) => batch.reads.map((r) => ({ ...r, connection: k }))).sort((a, b) => a.atUs - b.atUs);
      let resent = 0;
      const asking: number[] = [];
      for (const write of writes) {
        const k = write.connection!;
        for (let j = 0; j < write.commands; j++) {
          const entry = follower.queues[k]![(cursor[k] = (cursor[k] ?? 0) + 1) - 1]!;
          entry.position = order.length;
          if (entry.kind === 'resend') resent++;
          else if (entry.kind === 'asking') asking.push(order.length);
          order.push(entry);
        }
      }
      const known: Outcome[] = [];
      while (listed < order.length && order[listed]!.outcome !== undefined) known.push(order[listed++]!.outcome!);
      if (writes.length === 0 && reads.length === 0 && known.length === 0) return;
      const batch: ProbeBatch = { writes, reads, outcomes: known, ...(resent + asking.length > 0 ? { added: { resent, asking } } : {}) };
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
      const t0 = runClock.start();
      // A resharding run: the slot's move begins now, on the housekeeping connections, paced to fall inside the run.
      if (move) {
        const pacing = reshardPacing(() => follower.answered, n, expectedRunUs(plan, rtt.measuredMedianUs));
        moving = moveSlot(move, housekeeping, () => microsSince(t0), reshardStop.signal, pacing);
      }
      if (mode === 'sequential') {
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          const slot = wire.slots[i];
          written = i + 1;
          await follower.send(slot === null || slot === undefined ? wire.owners[i]! : follower.slotOwner[slot]!, [i], wire.bytesOf(i));
          await follower.drain();
        }
      } else if (split === 'serial') {
        // One node after another: each share written, its replies (and the redirects they bring) awaited, then the next.
        for (const [k, share] of wire.shares.entries()) {
          if (share.length === 0) continue;
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          written += share.length;
          await follower.send(k, share, shares[k]!);
          await follower.drain();
        }
      } else {
        written = n;
        await Promise.all(wire.shares.map((share, k) => (share.length ? follower.send(k, share, shares[k]!) : Promise.resolve())));
        await follower.drain();
      }
      doneUs = microsSince(t0);
    } finally {
      running = false;
      clearInterval(flusher);
      for (const probe of probes) probe.detach();
      flush();
    }
    const moved = moving ? await moving : undefined;
    const nodesInfoAfter = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    hooks.measured();
    guarded.hooks.replied();
    // What each master's socket carried (resends and ASKINGs included), as Redis counts it.
    const counted = wire.masters.map((_, k) => countedCommands(mode, (follower.queues[k] ?? []).map((entry) => entry.outcome!)));
    const deltas = masters.map((_, k) => serverDelta(parseSnapshot(nodesInfoBefore[k]!), parseSnapshot(nodesInfoAfter[k]!), counted[k]!, serviceCommands(plan)));
    const server = {
      reads: deltas.reduce((sum, d) => sum + d.reads, 0),
      writes: deltas.reduce((sum, d) => sum + d.writes, 0),
      execUs: deltas.reduce((sum, d) => sum + d.execUs, 0),
      source: 'redis-info' as const,
      exclusive: deltas.every((d) => d.exclusive),
    };
    // Per node, Redis's CPU is that node's: not summed into one figure (yet).
    const serverCpu = { source: 'redis-info-cpu' as const, unavailable: 'a cluster run\'s CPU time is each node\'s own: not measured per node yet' };
    const costs = probes.map((probe) => probe.cost());
    const probeCosts = {
      socket: { inRunUs: costs.reduce((sum, c) => sum + c.inRunUs, 0), events: costs.reduce((sum, c) => sum + c.events, 0) },
      flushes,
    };
    builder.checkComplete();
    // The check of a resharding run: each command's final answer against the value stored before t0.
    const expected = move ? expectedAnswer(plan) : null;
    const wrong = new Set<WireEntry>();
    let checked = 0;
    if (move) {
      for (const entry of follower.answers) {
        if (!entry) continue;
        checked++;
        if (!('reply' in entry.outcome!) || entry.outcome.reply !== expected) wrong.add(entry);
      }
    }
    const timeOf = (entry: WireEntry) => builder.times.repliedUs[entry.position!]!;
    const cluster: ClusterRecord = {
      topology,
      connections,
      redirects: follower.redirects.map((event) => ({
        atUs: timeOf(event.refused),
        command: event.refused.position!,
        kind: event.kind,
        ...(event.slot === undefined ? {} : { slot: event.slot }),
        from: connections[event.from]!.node,
        ...(event.to === undefined ? {} : { to: event.to }),
        error: event.error,
        ...(event.followedBy?.position === undefined ? {} : { followedBy: event.followedBy.position }),
      })).sort((a, b) => a.atUs - b.atUs || a.command - b.command),
      clientRefusal: null,
      // In the schema's order (cluster-format.ts), so the page's copy serializes the same.
      ...(moved ? { reshard: { ...moved, checked, wrong: wrong.size } } : {}),
      nodeCounters: wire.masters.map((node, k) => nodeCounters(node.id, nodesInfoBefore[k]!, nodesInfoAfter[k]!, counted[k]!)),
      ...(split ? { split } : {}),
      keys: plan.cluster.keys,
    };
    // Each command's slot (ASKING carries no key: the slot of the command written right after it) and socket, in trace order.
    const places: CommandPlaces = {
      slots: order.map((entry, position) => wire.slots[entry.kind === 'asking' ? order[position + 1]!.op : entry.op] ?? null),
      connections: order.map((entry) => entry.connection),
      valueStored: order.flatMap((entry, position) => (wrong.has(entry) ? [[position, expected] as [number, ReplyValue]] : [])),
    };
    listener.onEnd?.(plan.id, {
      server, serverSide: null, memory: null, doneUs, t0Ns: runClock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
      clusterRun: { record: cluster, places },
    });
    const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
    doc.commands = placeClusterCommands(doc, cluster, places);
    document = doc;
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // A failed run's move still completes (or is set back), whatever happened: the cluster's layout stays sane.
  reshardStop.abort();
  const moved = moving ? await moving.catch((error: unknown) => ({ error: (error as Error).message }) as Partial<SlotMoveResult>) : undefined;
  // Each socket's address as its node sees it (the proxy's end when delayed), to see Redis let go of it: a
  // failed or cancelled run's commands already read by a node would otherwise make keys after their deletion.
  const sources = drivers.map((driver, k) => {
    const address = connections[k]?.address;
    const proxy = address !== undefined && k < wire.masters.length ? proxies?.proxyFor(address) : undefined;
    return proxy?.upstreamAddresses[0] ?? `${driver.socket.localAddress}:${driver.socket.localPort}`;
  });
  for (const driver of drivers) driver.disconnect();
  await proxies?.close();
  let leftKeys: string | undefined;
  try {
    if (!document) for (const source of sources) await waitUntilClientGone(keyspace, source);
    // The warm-up's keys first, on their own: a slot the run's clean-up cannot reach must not keep them.
    const warmupLeft = warmup ? await deleteRunKeys(keyspace, namespace, warmup.workload, warmup.written).then(() => null, (error: unknown) => error as Error) : null;
    await deleteRunKeys(keyspace, namespace, workload.commands, written === 0 && workload.commands.setup.length === 0 ? 0 : workload.operations);
    if (warmupLeft) throw warmupLeft;
  } catch (error) {
    leftKeys = `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
  // The private cluster keeps the layout it was formed with: the moved slot goes back, now that its keys are gone.
  let layout: string | undefined;
  if (move && moved && (moved.doneUs !== undefined || (moved.error !== undefined && (moved.keys ?? 0) > 0))) {
    const back = await moveSlot({ slot: move.slot, from: move.to, to: move.from, masters: move.masters }, housekeeping, () => 0, new AbortController().signal, AT_ONCE).catch((error: unknown) => ({ error: (error as Error).message }));
    if (back.error) layout = `slot ${move.slot} could not be moved back to ${move.from.address}: ${back.error}`;
  }
  await hooks.cleaned(!leftKeys);
  const also = [leftKeys, layout].filter(Boolean).join('; ');
  if (failure) throw failure instanceof Error && also ? Object.assign(failure, { message: `${failure.message}; also, ${also}` }) : failure;
  if (also) throw new Error(`The run finished, but ${also}`);
  return document!;
}
