// A run of a client library's cluster client on a Redis Cluster: ioredis `Cluster` or node-redis
// `createCluster` (drivers/*-cluster-driver.ts), connected before t0 to every master of the topology
// read before the run, then running the workload its own way ('pipeline', 'sequential', 'auto'). The
// library routes every command; Pipescope does not split anything.
//
// So what the trace says of each command is read off the wire: every socket the library opened to a
// master is timed by a socket probe and read by a wire tap (probes/wire-tap.ts), both on one clock.
// Commands are numbered in the order they were written, across sockets; each takes its key (hence its
// slot) from the bytes written, its node and socket from the socket that carried it, and its outcome
// from the reply frame its socket read for it, exactly as Redis sent it. An error reply MOVED, ASK,
// TRYAGAIN or CROSSSLOT is also listed in cluster.redirects with its text (no library here follows one:
// the topology does not move during these runs). How the library's call ended is recorded too: a
// refusal before sending (ioredis's pipeline across nodes) as cluster.clientRefusal, the trace then
// marked incomplete with nothing on the wire; an error thrown at its caller after sending (node-redis
// execAsPipeline at a MOVED) as cluster.clientError, beside every reply that did arrive.
//
// Redis's counters are the sum over the masters of each master's INFO delta; the lease and the
// clean-up go per slot (redis/keyspace.ts), as for the raw engine (cluster-run.ts).
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import type { ClusterRecord, Redirect, RedirectKind } from '../../trace/format/cluster-format.ts';
import { placeClusterCommands, type CommandPlaces } from '../../trace/format/cluster-places.ts';
import { TraceBuilder, type Outcome, type ProbeBatch, type ReadEvent, type WriteEvent } from '../../trace/format/trace-builder.ts';
import type { ClusterClientDriver, ClusterClientMode, ClusterCall } from '../drivers/cluster-client-driver.ts';
import { IoredisClusterDriver } from '../drivers/ioredis-cluster-driver.ts';
import { NodeRedisClusterDriver } from '../drivers/node-redis-cluster-driver.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import { frameOutcome } from '../protocol/resp-reply-parser.ts';
import type { ParsedCommand } from '../protocol/resp-request-parser.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { WireTap } from '../probes/wire-tap.ts';
import { parseSnapshot, readServerInfo, serverDelta } from '../probes/server-counters.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { deleteRunKeys, waitUntilClientGone } from './run-cleanup.ts';
import type { GuardedRun } from './run-guard.ts';
import { FLUSH_INTERVAL_MS, runHeader } from './run/measure-run.ts';
import type { RunEnd } from './run/run-listener.ts';
import type { RunPlan } from './run/run-plan.ts';

/** ms without a command written or answered, after the library's call ended, before the run fails in words. */
const WIRE_QUIET_MS = 5_000;
/** PINGs timed on the library's connection to the first master before the run, for the trace's RTT. */
const RTT_SAMPLES = 5;
/** Commands whose first argument is their key (the run's own, and the multi-key ones' first key). */
const FIRST_ARG_KEY = new Set(['get', 'set', 'incr', 'decr', 'incrby', 'mget', 'mset', 'del', 'unlink', 'exists', 'getset', 'append', 'strlen']);
const REDIRECT = /^(MOVED|ASK|TRYAGAIN|CROSSSLOT)\b/;

function openClusterDriver(engine: string, target: RedisTarget, topology: NonNullable<RedisSession['cluster']>, name: string): Promise<ClusterClientDriver> {
  switch (engine) {
    case 'ioredis':
      return IoredisClusterDriver.open(target, topology, name);
    case 'node-redis':
      return NodeRedisClusterDriver.open(target, topology, name);
    default:
      throw new Error(`the ${engine} engine has no cluster client`);
  }
}

/** The slot of a command written, from its key's bytes; undefined for a keyless one. */
function slotOf(command: ParsedCommand): number | undefined {
  const key = command.args[1];
  return key && FIRST_ARG_KEY.has(command.name) ? calculateSlot(key) : undefined;
}

/** A redirect read off the wire: MOVED and ASK name a slot and an address. */
function redirectOf(error: string, atUs: number, command: number, from: string): Redirect | null {
  const kind = REDIRECT.exec(error)?.[1] as RedirectKind | undefined;
  if (!kind) return null;
  const [, slot, to] = error.split(' ');
  const named = (kind === 'MOVED' || kind === 'ASK') && slot !== undefined && to !== undefined && /^\d+$/.test(slot);
  // In the schema's field order: a trace reads back byte for byte.
  return { atUs, command, kind, ...(named ? { slot: Number(slot) } : {}), from, ...(named ? { to } : {}), error };
}

export async function runClientOnCluster(session: RedisSession, plan: RunPlan, guarded: GuardedRun<RunEnd>): Promise<TraceDocument> {
  const topology = session.cluster!;
  const keyspace = session.keyspace();
  const { workload, namespace } = plan;
  const mode = plan.mode as ClusterClientMode;
  const n = plan.wire.n;
  const { signal, listener, hooks } = guarded;
  let driver: ClusterClientDriver | undefined;
  const taps: WireTap[] = [];
  const probes: SocketProbe[] = [];
  let document: TraceDocument | undefined;
  let failure: unknown;
  const abort = () => driver?.abort();
  signal.addEventListener('abort', abort);
  try {
    driver = await openClusterDriver(plan.engine.name, session.target, topology, `pipescope-run-${plan.id}`);
    if (signal.aborted) throw new RunCancelledError('Run cancelled');
    const sockets = driver.sockets;
    const nodeOf = sockets.map(({ address }) => topology.nodes.find((node) => node.role === 'master' && node.address === address)!.id);
    for (const [name, ...args] of workload.commands.setup) {
      assertAllowed(namespace, name, args.map(String));
      await keyspace.keys.call(name, ...args);
    }
    const rttTimes: number[] = [];
    for (let i = 0; i < RTT_SAMPLES; i++) {
      const started = process.hrtime.bigint();
      await driver.ping(sockets[0]!.address);
      rttTimes.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    rttTimes.sort((a, b) => a - b);
    const rtt = { addedMs: 0, jitterMs: 0, measuredMinUs: rttTimes[0]!, measuredMedianUs: rttTimes[Math.floor(RTT_SAMPLES / 2)]!, samples: RTT_SAMPLES };
    const header = runHeader({ ...plan, probes: { ...plan.probes, kernelTcp: false } }, session.info, rtt, null, driver.client);
    await hooks.measuring();
    listener.onStart?.(header);
    // Each master's INFO on the housekeeping client's connection to it, in the sockets' order.
    const masters = sockets.map(({ address }) => {
      const connection = keyspace.scanTargets().find((redis) => `${redis.options.host}:${redis.options.port}` === address);
      if (!connection) throw new Error(`the cluster client has no connection to master ${address}: the topology changed since it was read`);
      return connection;
    });
    const nodesInfoBefore = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    const clock = new RunClock();
    // The tap first, the probe over it (detached in the reverse order): see wire-tap.ts.
    for (const { socket } of sockets) {
      taps.push(new WireTap(socket));
      probes.push(new SocketProbe(socket, clock, true));
    }

    // The wire, as it is read: each written command's trace position, per socket the positions still
    // waiting for their reply (a socket answers in order), outcomes by position, redirects as they come.
    const builder = new TraceBuilder(header);
    const written: { connection: number; slot: number | undefined }[] = [];
    const unparsed = sockets.map((): ParsedCommand[] => []);
    const awaiting = sockets.map((): number[] => []);
    const outcomes: Outcome[] = [];
    const redirects: Redirect[] = [];
    let listed = 0;
    let lastReadUs = 0;
    const flushes = { inRunUs: 0, count: 0 };
    let running = false;
    const flush = () => {
      const started = process.hrtime.bigint();
      const reads: (ReadEvent & { frames: ReturnType<WireTap['take']>['reads'][number] })[] = [];
      const writes: WriteEvent[] = [];
      probes.forEach((probe, k) => {
        const batch = probe.take();
        const tapped = taps[k]!.take();
        unparsed[k]!.push(...tapped.commands);
        if (tapped.reads.length !== batch.reads.length) throw new Error(`socket ${k}: the tap saw ${tapped.reads.length} reads, the probe ${batch.reads.length}`);
        writes.push(...batch.writes.map((w) => ({ ...w, connection: k })));
        reads.push(...batch.reads.map((r, j) => ({ ...r, connection: k, frames: tapped.reads[j]! })));
      });
      writes.sort((a, b) => a.atUs - b.atUs);
      reads.sort((a, b) => a.atUs - b.atUs);
      for (const write of writes) {
        const k = write.connection!;
        const carried = unparsed[k]!.splice(0, write.commands);
        if (carried.length !== write.commands) throw new Error(`socket ${k}: a write of ${write.commands} commands, but ${carried.length} were read from its bytes`);
        for (const command of carried) {
          if (written.length === n) throw new Error(`${driver!.client} wrote more than the run's ${n} commands (a ${command.name.toUpperCase()} after them): not a run Pipescope can record yet`);
          awaiting[k]!.push(written.length);
          written.push({ connection: k, slot: slotOf(command) });
        }
      }
      for (const read of reads) {
        const k = read.connection!;
        lastReadUs = Math.max(lastReadUs, read.atUs);
        const replies = read.frames.filter((frame) => !frame.push);
        if (replies.length !== read.replies) throw new Error(`socket ${k}: a read of ${read.replies} replies, but ${replies.length} frames in its bytes`);
        for (const frame of replies) {
          const position = awaiting[k]!.shift();
          if (position === undefined) throw new Error(`socket ${k}: a reply to no command written`);
          const outcome = frameOutcome(frame.value);
          outcomes[position] = outcome;
          const redirect = 'error' in outcome ? redirectOf(outcome.error, read.atUs, position, nodeOf[k]!) : null;
          if (redirect) redirects.push(redirect);
        }
      }
      const known: Outcome[] = [];
      while (listed < written.length && outcomes[listed] !== undefined) known.push(outcomes[listed++]!);
      if (writes.length === 0 && reads.length === 0 && known.length === 0) return;
      const batch: ProbeBatch = { writes, reads: reads.map(({ frames: _, ...r }) => r), outcomes: known };
      builder.addBatch(batch);
      listener.onBatch?.(plan.id, batch);
      if (!running) return;
      flushes.count++;
      flushes.inRunUs += microsSince(started);
    };
    const answered = () => awaiting.every((queue) => queue.length === 0) && unparsed.every((queue) => queue.length === 0);
    const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
    let call: ClusterCall;
    let doneUs: number;
    let returnedUs: number;
    try {
      running = true;
      const t0 = clock.start();
      call = await driver.run(mode, workload.commands, n, () => signal.aborted);
      returnedUs = microsSince(t0);
      // A library that threw at its first error reply (execAsPipeline) returned before the rest: node-redis
      // still writes its queued commands (16 KiB at a time, on 'drain') and their replies still come. The
      // wire is read until all n are written and answered, or until it has been quiet for WIRE_QUIET_MS.
      flush();
      const expected = call.kind === 'refused' ? 0 : n;
      let seen = written.length + listed;
      let quietSince = performance.now();
      while (written.length < expected || !answered()) {
        if (signal.aborted) throw new RunCancelledError('Run cancelled');
        if (performance.now() - quietSince > WIRE_QUIET_MS) {
          throw new Error(`${driver.client}'s call ended, but the wire went quiet with ${written.length.toLocaleString('en-US')} of the run's ${n.toLocaleString('en-US')} commands written and ${listed.toLocaleString('en-US')} answered`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
        flush();
        if (written.length + listed !== seen) {
          seen = written.length + listed;
          quietSince = performance.now();
        }
      }
      doneUs = Math.max(returnedUs, lastReadUs);
    } finally {
      running = false;
      clearInterval(flusher);
      for (const probe of probes) probe.detach();
      for (const tap of taps) tap.detach();
    }
    flush();
    const nodesInfoAfter = await Promise.all(masters.map((node) => readServerInfo(node, namespace)));
    hooks.measured();
    const cluster: ClusterRecord = {
      topology,
      connections: sockets.map(({ address }, k) => ({ node: nodeOf[k]!, address })),
      redirects,
      clientRefusal: call.kind === 'refused' ? { library: driver.client, message: call.message, atUs: returnedUs } : null,
      ...(call.kind === 'failed' ? { clientError: { library: driver.client, message: call.message, atUs: returnedUs } } : {}),
      keys: plan.cluster.keys,
    };
    const costs = [...probes, ...taps].map((probe) => probe.cost());
    const probeCosts = {
      socket: { inRunUs: costs.reduce((sum, c) => sum + c.inRunUs, 0), events: costs.reduce((sum, c) => sum + c.events, 0) },
      flushes,
    };
    const serverCpu = { source: 'redis-info-cpu' as const, unavailable: 'a cluster run\'s CPU time is each node\'s own: not measured per node yet' };
    if (call.kind === 'refused') {
      if (written.length > 0) throw new Error(`${driver.client} refused the run ("${call.message}") after writing ${written.length} of its commands`);
      // Nothing reached any node: no counters to read, no keys made.
      document = builder.partial({ reason: 'failed', message: `${driver.client} refused the pipeline before sending it: ${call.message}`, omitted: ['redis-info'] }, { cluster, doneUs, serverCpu, probeCosts });
    } else {
      // Error replies the run did not bring on itself fail it (refused-replies.ts); the redirects it
      // records are what the library's routing met, not a failure of the run.
      if (outcomes.some((outcome, i) => 'error' in outcome && !redirects.some((r) => r.command === i))) hooks.replied();
      const deltas = masters.map((_, k) => serverDelta(parseSnapshot(nodesInfoBefore[k]!), parseSnapshot(nodesInfoAfter[k]!),
        written.filter((command) => command.connection === k).length, workload.commands.command));
      const server = {
        reads: deltas.reduce((sum, d) => sum + d.reads, 0),
        writes: deltas.reduce((sum, d) => sum + d.writes, 0),
        execUs: deltas.reduce((sum, d) => sum + d.execUs, 0),
        source: 'redis-info' as const,
        exclusive: deltas.every((d) => d.exclusive),
      };
      builder.checkComplete();
      // Each command's socket and slot as read off the wire, in trace order: sent with the run's end, so the page's copy agrees.
      const places: CommandPlaces = { connections: written.map((command) => command.connection), slots: written.map((command) => command.slot ?? null) };
      listener.onEnd?.(plan.id, {
        server, serverSide: null, memory: null, doneUs, t0Ns: clock.t0, kernelTcp: null, keysAfter: null, neighbor: null, heldConnection: null, serverCpu, probeCosts,
        clusterRun: { record: cluster, places },
      });
      const doc = builder.finish(server, { doneUs, cluster, serverCpu, probeCosts });
      doc.commands = placeClusterCommands(doc, cluster, places);
      document = doc;
    }
  } catch (error) {
    failure = signal.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal.removeEventListener('abort', abort);
  // Each socket's local address, to see Redis let go of it: a failed or cancelled run's commands already
  // read by a node would otherwise make keys after their deletion.
  const sources = (driver?.sockets ?? []).map(({ socket }) => `${socket.localAddress}:${socket.localPort}`);
  driver?.disconnect();
  let leftKeys: string | undefined;
  try {
    if (!document) for (const source of sources) await waitUntilClientGone(keyspace, source);
    // Every key the run may have made, its set-up's included (a refused run's set-up wrote its GET key).
    await deleteRunKeys(keyspace, namespace, workload.commands, workload.operations);
  } catch (error) {
    leftKeys = `its keys (${namespace}*) could not be deleted: ${(error as Error).message}`;
  }
  await hooks.cleaned(!leftKeys);
  if (failure) throw failure instanceof Error && leftKeys ? Object.assign(failure, { message: `${failure.message}; also, ${leftKeys}` }) : failure;
  if (leftKeys) throw new Error(`The run finished, but ${leftKeys}`);
  return document!;
}
