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
// Not yet on a cluster (refused before anything is sent, cluster-refusal.ts): other modes and engines,
// added delay, server-side probes, memory and kernel probes, the warm-up.
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import type { ClusterRecord } from '../../trace/format/cluster-format.ts';
import { placeCommands, type CommandPlaces } from '../../trace/format/cluster-places.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import { splitByNode } from '../drivers/cluster-split.ts';
import { RawDriver, RAW_CLIENT } from '../drivers/raw-driver.ts';
import { encodeBatch } from '../protocol/resp-encoder.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { RespError, type RespValue } from '../protocol/resp-reply-reader.ts';
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
  const drivers: RawDriver[] = [];
  const probes: SocketProbe[] = [];
  let written = 0;
  let document: TraceDocument | undefined;
  let failure: unknown;
  const abort = () => drivers.forEach((driver) => driver.abort());
  signal.addEventListener('abort', abort);
  try {
    for (const node of split.masters) drivers.push(await RawDriver.open(nodeTarget(session.target, node.address), `pipescope-run-${plan.id}`));
    if (signal.aborted) throw new RunCancelledError('Run cancelled');
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
    // Each master's INFO on the housekeeping client's connection to it, in the split's (the topology's) order.
    const masters = split.masters.map((node) => {
      const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === node.address);
      if (!connection) throw new Error(`the cluster client has no connection to master ${node.address}: the topology changed since it was read`);
      return connection;
    });
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
      connections: split.masters.map((node) => ({ node: node.id, address: node.address })),
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
    // Each command's slot and socket in trace order (its node is its socket's): for this document and the page's copy.
    const places: CommandPlaces = { slots: order.map((i) => split.slots[i] ?? null), connections: order.map((i) => split.owners[i]!) };
    listener.onEnd?.(plan.id, {
      server, serverSide: null, memory: null, doneUs, t0Ns: clock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
      clusterPlaces: { record: cluster, places },
    });
    const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
    doc.commands = placeCommands(doc.commands, cluster, places);
    document = doc;
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // Each socket's local address, to see Redis let go of it: a failed or cancelled run's commands already
  // read by a node would otherwise make keys after their deletion.
  const sources = drivers.map((driver) => `${driver.socket.localAddress}:${driver.socket.localPort}`);
  for (const driver of drivers) driver.disconnect();
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
