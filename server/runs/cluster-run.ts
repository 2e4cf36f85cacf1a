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
// Redirects (MOVED, ASK, TRYAGAIN) are followed and recorded by drivers/cluster-redirects.ts: every command
// on the wire, resends and ASKINGs included, is a WireEntry of its socket. A resharding run (plan.reshard,
// private cluster only) moves one slot of the run's keys during it (cluster-reshard.ts) and checks every
// reply against the value stored before t0.
//
// Not yet on a cluster (refused before anything is sent, cluster-refusal.ts): other modes and engines,
// added delay, server-side probes, memory and kernel probes, the warm-up.
import type { ReplyValue, TraceDocument } from '../../trace/format/trace-format.ts';
import { withClusterFields, type ClusterCommandFields } from '../../trace/format/cluster-commands.ts';
import type { ClusterRecord } from '../../trace/format/cluster-format.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import { slotOwners, splitByNode } from '../drivers/cluster-split.ts';
import { RedirectFollower, type WireEntry } from '../drivers/cluster-redirects.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { AT_ONCE, moveSlot, type SlotMoveResult } from '../redis/slot-migration.ts';
import { expectedAnswer, expectedRunUs, reshardMove, reshardPacing } from './cluster-reshard.ts';
import { RawDriver, RAW_CLIENT } from '../drivers/raw-driver.ts';
import { encodeBatch } from '../protocol/resp-encoder.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { parseSnapshot, readServerInfo, serverDelta } from '../probes/server-counters.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { deleteRunKeys, waitUntilClientGone } from './run-cleanup.ts';
import type { GuardedRun } from './run-guard.ts';
import { FLUSH_INTERVAL_MS, runHeader } from './run/measure-run.ts';
import type { RunEnd } from './run/run-listener.ts';
import type { RunPlan } from './run/run-plan.ts';

/** PINGs timed on the first master's connection before the run, for the trace's RTT. */
const RTT_SAMPLES = 5;

/** The session's target with a node's address: same credentials, TLS and database. */
function nodeTarget(target: RedisTarget, address: string): RedisTarget {
  const url = new URL(target.url);
  const colon = address.lastIndexOf(':');
  url.hostname = address.slice(0, colon);
  url.port = address.slice(colon + 1);
  return { ...target, url: url.toString(), address };
}

export async function runOnCluster(session: RedisSession, plan: RunPlan, guarded: GuardedRun<RunEnd>): Promise<TraceDocument> {
  const topology = session.cluster!;
  const keyspace = session.keyspace();
  const { workload, mode, namespace } = plan;
  const n = plan.wire.n;
  const { signal, listener, hooks } = guarded;
  const split = splitByNode(workload.commands, n, topology);
  // The run's sockets: one per master, in the split's order, and any a redirect opens to another node.
  const drivers: RawDriver[] = [];
  const connections: ClusterRecord['connections'] = split.masters.map((node) => ({ node: node.id, address: node.address }));
  const probes: SocketProbe[] = [];
  let written = 0;
  let setUp = false;
  let document: TraceDocument | undefined;
  let failure: unknown;
  const reshardStop = new AbortController();
  let moving: Promise<SlotMoveResult> | undefined;
  const abort = () => {
    drivers.forEach((driver) => driver.abort());
    reshardStop.abort();
  };
  signal.addEventListener('abort', abort);
  // Each master's housekeeping connection (the cluster client's), by address: INFO, and a reshard's steps.
  const housekeeping = (address: string) => {
    const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === address);
    if (!connection) throw new Error(`the cluster client has no connection to master ${address}: the topology changed since it was read`);
    return connection;
  };
  const move = plan.reshard ? reshardMove(split) : undefined;
  try {
    for (const node of split.masters) drivers.push(await RawDriver.open(nodeTarget(session.target, node.address), `pipescope-run-${plan.id}`));
    if (signal.aborted) throw new RunCancelledError('Run cancelled');
    // The workload's set-up (GET's value), through the cluster client to the node serving each key.
    for (const [name, ...args] of workload.commands.setup) {
      assertAllowed(namespace, name, args.map(String));
      setUp = true;
      await keyspace.keys.call(name, ...args);
    }
    // Before t0: each master's share encoded into one buffer (pipeline), or each command's bytes (sequential).
    const { bytes, offsets } = encodeBatch(workload.commands, n);
    const commandBytes = (i: number) => bytes.subarray(offsets[i]!, offsets[i + 1]!);
    const shares = split.shares.map((share) => Buffer.concat(share.map(commandBytes)));
    const rttTimes: number[] = [];
    for (let i = 0; i < RTT_SAMPLES; i++) {
      const started = process.hrtime.bigint();
      await drivers[0]!.ping();
      rttTimes.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    rttTimes.sort((a, b) => a - b);
    const rtt = { addedMs: 0, jitterMs: 0, measuredMinUs: rttTimes[0]!, measuredMedianUs: rttTimes[Math.floor(RTT_SAMPLES / 2)]!, samples: RTT_SAMPLES };
    const header = runHeader(plan, session.info, rtt, null, RAW_CLIENT);
    await hooks.measuring();
    listener.onStart?.(header);
    const masters = split.masters.map((node) => housekeeping(node.address));
    const nodesInfoBefore = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    const runClock = new RunClock();
    const openings = new Map<string, Promise<number>>();
    for (const driver of drivers) probes.push(new SocketProbe(driver.socket, runClock, true));
    const follower = new RedirectFollower({
      write: (k, data, count, each) => drivers[k]!.write(data, count, each).catch((error: unknown) => {
        if (signal.aborted) throw error;
        throw new Error(`the connection to cluster node ${connections[k]!.address} failed during the run (${(error as Error).message}): the node stopped answering`);
      }),
      commandBytes,
      connectionTo: (address) => {
        const known = connections.findIndex((connection) => connection.address === address);
        if (known >= 0) return Promise.resolve(known);
        let opening = openings.get(address);
        if (!opening) openings.set(address, (opening = openConnection(address)));
        return opening;
      },
    }, slotOwners(split.masters).map((k) => Math.max(0, k)), n);
    async function openConnection(address: string): Promise<number> {
      // A node the topology did not name as a master (a failover, a node added): a socket of its own, watched like the others.
      const driver = await RawDriver.open(nodeTarget(session.target, address), `pipescope-run-${plan.id}`);
      if (signal.aborted) driver.abort();
      drivers.push(driver);
      probes.push(new SocketProbe(driver.socket, runClock, true));
      connections.push({ node: topology.nodes.find((node) => node.address === address)?.id ?? address, address });
      return connections.length - 1;
    }
    const cancelled = () => signal.aborted;
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
      if (mode === 'pipeline') {
        written = n;
        await Promise.all(split.shares.map((share, k) => (share.length ? follower.send(k, share, shares[k]!) : Promise.resolve())));
        await follower.drain();
      } else {
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          const slot = split.slots[i];
          written = i + 1;
          await follower.send(slot === undefined ? 0 : follower.slotOwner[slot]!, [i], commandBytes(i));
          await follower.drain();
        }
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
    // Per node, Redis's CPU is that node's: not summed into one figure (yet).
    const serverCpu = { source: 'redis-info-cpu' as const, unavailable: 'a cluster run\'s CPU time is each node\'s own: not measured per node yet' };
    const costs = probes.map((probe) => probe.cost());
    const probeCosts = {
      socket: { inRunUs: costs.reduce((sum, c) => sum + c.inRunUs, 0), events: costs.reduce((sum, c) => sum + c.events, 0) },
      flushes,
    };
    builder.checkComplete();
    // The check of a resharding run: each command's final answer against the value stored before t0.
    const wrong = new Set<WireEntry>();
    let checked = 0;
    if (move) {
      const expected = expectedAnswer(plan);
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
      })),
      clientRefusal: null,
      ...(moved ? { reshard: { ...moved, checked, wrong: wrong.size } } : {}),
    };
    // Each command's slot (ASKING carries no key: the slot of the command written right after it) and socket.
    const expected = move ? expectedAnswer(plan) : null;
    const commandFields: ClusterCommandFields = {
      slots: order.map((entry, position) => split.slots[entry.kind === 'asking' ? order[position + 1]!.op : entry.op] ?? null),
      connections: order.map((entry) => entry.connection),
      valueStored: order.flatMap((entry, position) => (wrong.has(entry) ? [[position, expected] as [number, ReplyValue]] : [])),
    };
    listener.onEnd?.(plan.id, {
      server, serverSide: null, memory: null, doneUs, t0Ns: runClock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
      clusterRun: { record: cluster, commands: commandFields },
    });
    const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
    doc.commands = withClusterFields(doc.commands, cluster, commandFields);
    document = doc;
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // A failed run's move still completes (or is set back), whatever happened: the cluster's layout stays sane.
  reshardStop.abort();
  const moved = moving ? await moving.catch((error: unknown) => ({ error: (error as Error).message }) as Partial<SlotMoveResult>) : undefined;
  // Each socket's local address, to see Redis let go of it: a failed or cancelled run's commands already
  // read by a node would otherwise make keys after their deletion.
  const sources = drivers.map((driver) => `${driver.socket.localAddress}:${driver.socket.localPort}`);
  for (const driver of drivers) driver.disconnect();
  let leftKeys: string | undefined;
  try {
    if (!document) for (const source of sources) await waitUntilClientGone(keyspace, source);
    await deleteRunKeys(keyspace, namespace, workload.commands, written === 0 && !setUp ? 0 : workload.operations);
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
