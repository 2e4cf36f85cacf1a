// Redirects met and followed by the raw engine on a real Redis Cluster (3 masters, started by the test):
// a MOVED from a stale slot map (the first master's slots given to the second after the session read
// the topology), an ASK during a migration (the first master's slots migrating to the second), and a
// resharding run that moves a slot key by key while it runs. Each redirect's exact error text reaches
// the trace with the command sent in its place (ASKING before it, on the wire); every answer is
// right; the trace imports; no pipescope:* key is left on any node, the moved keys' new owner
// included; and the cluster's layout is as it was.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { wireCommandName } from '../../trace/format/wire-layout.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { parseRedirect } from '../drivers/cluster-redirects.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { ClusterNotSupportedError } from './cluster-refusal.ts';
import { executeRun, type RunEnd } from './run-executor.ts';
import { backgroundSettled } from './background-work.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { TraceBuilder } from '../../trace/format/trace-builder.ts';
import { decodeBatch, encodeBatch, finishRun, type RunEndMessage } from '../../trace/protocol/live-protocol.ts';

const context = usePrivateCluster();
let session: RedisSession;
let ids: string[];
let addresses: string[];
/** The first master's slots, as the cluster was formed. */
let firstRange: [number, number];

beforeAll(async () => {
  // The cluster as the test's private cluster: embedded, so a resharding run may move its slots.
  session = await RedisSession.open(targetFromUrl(context.url(0), true));
  const masters = context.cluster.nodes.filter((node) => node.role === 'master');
  ids = masters.map((node) => node.id);
  addresses = masters.map((node) => `${node.host}:${node.port}`);
  firstRange = masters[0]!.slots! as [number, number];
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall();
  await context.client.set('user:precious', 'kept');
});

/**
 * The range's slots to move, but its last (a master left with no slot becomes a replica of the node that
 * took its last one) and the user's key's (a node gives away no slot it holds keys of).
 */
const slotsOf = ([first, last]: [number, number]) => Array.from({ length: last - first }, (_, i) => first + i).filter((slot) => slot !== calculateSlot('user:precious'));

/** CLUSTER SETSLOT <slot> <how…> for every slot of `slots`, on `node`, pipelined. */
async function setSlots(node: Redis, slots: readonly number[], ...how: string[]): Promise<void> {
  const pipeline = node.pipeline();
  for (const slot of slots) pipeline.call('CLUSTER', 'SETSLOT', slot, ...how);
  const failed = ((await pipeline.exec()) ?? []).find(([error]) => error);
  if (failed) throw failed[0]!;
}

/**
 * Gives each range to its new owner on every master, then lets each new owner bump its config epoch, so
 * that its claim outranks any older gossip still in flight; waits until every node agrees.
 */
async function reassign(moves: readonly { slots: readonly number[]; owner: number }[]): Promise<void> {
  // One range at a time: the new owner's epoch first (the greatest then, so no older gossip can take its
  // slots back), its own claim next, then the others'; settled before the next range.
  for (const { slots, owner } of moves) {
    await context.masters[owner]!.call('CLUSTER', 'BUMPEPOCH');
    for (const k of [owner, ...[0, 1, 2].filter((m) => m !== owner)]) await setSlots(context.masters[k]!, slots, 'NODE', ids[owner]!);
    await untilOwned(slots, ids[owner]!);
  }
}

/** Every node agrees that `slots` belong to `owner` (the gossip has settled). */
async function untilOwned(slots: readonly number[], owner: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const master of context.masters) {
    for (;;) {
      const ranges = (await master.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][];
      const ownerOf = (slot: number) => ranges.find(([first, last]) => first <= slot && slot <= last)?.[2][2];
      if (slots.every((slot) => ownerOf(slot) === owner)) break;
      if (Date.now() > deadline) throw new Error('the cluster did not settle');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** '' when the texts are equal; otherwise a short excerpt of each where they first differ. */
function firstDifference(a: string, b: string): string {
  if (a === b) return '';
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)}… vs …${b.slice(Math.max(0, i - 80), i + 80)}…`;
}

/** The redirects of a trace, each checked against the commands around it; returns them by kind. */
function checkRedirects(doc: TraceDocument): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const redirect of doc.cluster!.redirects) {
    counts[redirect.kind] = (counts[redirect.kind] ?? 0) + 1;
    const refused = doc.commands[redirect.command]!;
    expect('error' in refused && refused.error).toBe(redirect.error);
    expect(refused.repliedUs).toBe(redirect.atUs);
    expect(refused.node).toBe(redirect.from);
    expect(parseRedirect(redirect.error)).toMatchObject({ kind: redirect.kind, slot: redirect.slot, to: redirect.to });
    expect(redirect.followedBy).toBeGreaterThan(redirect.command);
    const resent = doc.commands[redirect.followedBy!]!;
    expect(resent.slot).toBe(refused.slot);
    if (redirect.kind === 'MOVED' || redirect.kind === 'ASK') expect(doc.cluster!.connections[resent.connection!]!.address).toBe(redirect.to);
    if (redirect.kind === 'ASK') {
      // ASKING right before the resend, in the same write on the same socket, answered OK.
      const asking = doc.commands[redirect.followedBy! - 1]!;
      expect(wireCommandName(doc.run, redirect.followedBy! - 1)).toBe('ASKING');
      expect('reply' in asking && asking.reply).toBe('OK');
      expect(asking.connection).toBe(resent.connection);
      const write = doc.writes.find((w) => w.firstCommand <= redirect.followedBy! - 1 && redirect.followedBy! < w.firstCommand + w.commands)!;
      expect(write.head).toMatch(/^\*1\\r\\n\$6\\r\\nASKING\\r\\n/);
    }
  }
  expect(doc.run.n).toBe(doc.commands.length);
  const text = serializeTrace(doc);
  expect(serializeTrace(parseTrace(text))).toBe(text);
  return counts;
}

describe('redirects followed by the raw engine', () => {
  it('MOVED from a stale slot map: the exact error text, each command resent to the node named, every answer right', async () => {
    const slots = slotsOf(firstRange);
    await reassign([{ slots, owner: 1 }]);
    try {
      // The session read the topology before: the split still sends the first master's share to it.
      const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 60, valueBytes: 8, engine: 'raw' });
      const counts = checkRedirects(doc);
      const moved = new Set(slots);
      const expected = doc.commands.filter((c) => c.connection === 0 && moved.has(c.slot!)).length;
      expect(counts).toEqual({ MOVED: expected });
      expect(expected).toBeGreaterThan(0);
      for (const redirect of doc.cluster!.redirects) expect(redirect.error).toBe(`MOVED ${redirect.slot} ${addresses[1]}`);
      expect(doc.run.redirectCommands).toEqual({ resent: expected, asking: [] });
      // Every one of the 60 SETs answered OK in the end: the refused ones by their resend.
      const final = new Set(doc.cluster!.redirects.map((r) => r.command));
      expect(doc.commands.filter((_, i) => !final.has(i)).map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array(60).fill('OK'));
      console.log(`FIGURE stale map, pipeline of 60 SET: ${expected} MOVED, each followed; ${doc.commands.length} commands on the wire`);
      expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    } finally {
      await reassign([{ slots, owner: 0 }]);
    }
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('sequential after a MOVED goes straight to the new owner: one MOVED for a key read 40 times', async () => {
    const slots = slotsOf(firstRange);
    const moved = new Set(slots);
    await reassign([{ slots, owner: 1 }]);
    try {
      // A GET run reads one key named after its run id: run until one's key falls in the slots moved
      // (a third of them do; at most 20 tries).
      let doc: TraceDocument | undefined;
      for (let tries = 0; tries < 20 && !(doc && moved.has(doc.commands[0]!.slot!)); tries++) {
        doc = await executeRun(session, 'sequential', { command: 'GET', n: 40, valueBytes: 8, engine: 'raw' });
        if (!moved.has(doc.commands[0]!.slot!)) expect(doc.cluster!.redirects).toEqual([]);
      }
      expect(moved.has(doc!.commands[0]!.slot!)).toBe(true);
      const counts = checkRedirects(doc!);
      expect(counts).toEqual({ MOVED: 1 }); // the slot map was updated by the first
      const [first] = doc!.cluster!.redirects;
      expect(first!.command).toBe(0);
      expect(first!.error).toBe(`MOVED ${doc!.commands[0]!.slot} ${addresses[1]}`);
      expect(doc!.commands.slice(1).every((c) => c.connection === 1)).toBe(true);
      expect(doc!.commands.slice(1).map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array(40).fill('pipescop'));
      expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    } finally {
      await reassign([{ slots, owner: 0 }]);
    }
  });

  it('ASK during a migration: ASKING then the command on the importing node, in one write; nothing left on either', async () => {
    const slots = slotsOf(firstRange);
    await setSlots(context.masters[1]!, slots, 'IMPORTING', ids[0]!);
    await setSlots(context.masters[0]!, slots, 'MIGRATING', ids[1]!);
    try {
      const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 60, valueBytes: 8, engine: 'raw' });
      const counts = checkRedirects(doc);
      const moving = new Set(slots);
      const migrating = doc.commands.filter((c) => c.connection === 0 && moving.has(c.slot!)).length;
      expect(counts).toEqual({ ASK: migrating });
      for (const redirect of doc.cluster!.redirects) expect(redirect.error).toBe(`ASK ${redirect.slot} ${addresses[1]}`);
      expect(doc.run.redirectCommands!.resent).toBe(migrating);
      expect(doc.run.redirectCommands!.asking).toHaveLength(migrating);
      console.log(`FIGURE migrating slots, pipeline of 60 SET: ${migrating} ASK, each followed by ASKING + SET on the importing node`);
      // The keys went to the importing node, and the run's clean-up found them there.
      expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    } finally {
      // Migrating and importing states cleared (SETSLOT … STABLE): the slots stay the first master's.
      for (const master of context.masters.slice(0, 2)) await setSlots(master, slots, 'STABLE');
    }
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('a redirect storm (two nodes each naming the other) stops in words, and leaves no key', async () => {
    const slots = slotsOf(firstRange);
    // The first master now says the second serves its slots; the second still says the first does.
    await setSlots(context.masters[0]!, slots, 'NODE', ids[1]!);
    try {
      // One command at a time: the first in the storm stops at its own bound. A pipeline: the run's bound comes first.
      const few = await executeRun(session, 'sequential', { command: 'SET', n: 20, valueBytes: 8, engine: 'raw' }).catch((e: Error) => e);
      const many = await executeRun(session, 'pipeline', { command: 'SET', n: 60, valueBytes: 8, engine: 'raw' }).catch((e: Error) => e);
      for (const error of [few, many]) console.log(`FIGURE redirect storm: "${(error as Error).message.slice(0, 300)}"`);
      expect((few as Error).message).toMatch(/^Redis Cluster: command \d+ of the run was redirected 16 times \(the last: "MOVED \d+ 127\.0\.0\.1:\d+"\): the cluster's nodes keep sending it elsewhere; the run stopped following it; also/);
      expect((many as Error).message).toMatch(/^Redis Cluster: the run met more than 220 redirects \(the last: "MOVED \d+ 127\.0\.0\.1:\d+"\): a redirect storm; the run stopped following; also/);
    } finally {
      await setSlots(context.masters[0]!, slots, 'NODE', ids[0]!);
      await context.masters[0]!.call('CLUSTER', 'BUMPEPOCH');
      await untilOwned(slots, ids[0]!);
    }
    await backgroundSettled();
    // The keys written were deleted; the refused ones never existed. A run whose clean-up could not confirm
    // every slot (the storm met it too) keeps its lease until its TTL and its registry entry, by design,
    // for the key janitor: nothing else.
    expect((await pipescopeKeysOnEveryNode(context.masters)).filter((key) => !/^pipescope:lease(s|:.*)$/.test(key))).toEqual([]);
  });
});

describe('a resharding run', () => {
  it('moves the slot of its keys during the run: ASK then MOVED, every answer the value stored, the slot moved back after', async () => {
    const before = await context.masters[0]!.call('CLUSTER', 'SLOTS');
    // The page's copy, built from the events as they come over the WebSocket (JSON), and the run's end.
    let live: TraceBuilder | undefined;
    let ended: RunEnd | undefined;
    const doc = await executeRun(session, 'sequential', { command: 'GET', n: 3000, valueBytes: 16, engine: 'raw', reshard: true }, {
      onStart: (header) => (live = new TraceBuilder(JSON.parse(JSON.stringify(header)) as typeof header)),
      onBatch: (_, batch) => live!.addBatch(decodeBatch(JSON.parse(JSON.stringify(encodeBatch(batch))))),
      onEnd: (_, end) => (ended = end),
    });
    const end = JSON.parse(JSON.stringify({
      type: 'run-end', requestId: 'r', runId: doc.run.id, server: ended!.server, doneUs: ended!.doneUs, serverCpu: ended!.serverCpu, probeCosts: ended!.probeCosts,
      cluster: ended!.clusterRun!.record, commandConnections: ended!.clusterRun!.places.connections, commandSlots: ended!.clusterRun!.places.slots,
    })) as RunEndMessage;
    expect(firstDifference(serializeTrace(finishRun(live!, end)), serializeTrace(doc))).toBe('');
    const reshard = doc.cluster!.reshard!;
    const counts = checkRedirects(doc);
    expect(reshard.error).toBeUndefined();
    expect(reshard.doneUs).toBeGreaterThan(reshard.keysMovedUs!);
    expect(reshard.keys).toBeGreaterThanOrEqual(1); // the GET's key, written before the run
    expect(reshard.slot).toBe(doc.commands[0]!.slot);
    expect(reshard.checked).toBe(3000);
    expect(reshard.wrong).toBe(0);
    expect(doc.commands.some((c) => c.valueStored !== undefined)).toBe(false);
    expect(counts.ASK).toBeGreaterThan(0);
    expect(counts.MOVED).toBe(1); // sequential: the slot map is updated by the first
    const firstMoved = doc.cluster!.redirects.find((r) => r.kind === 'MOVED')!;
    expect(doc.cluster!.redirects.filter((r) => r.kind === 'ASK').every((r) => r.atUs < firstMoved.atUs)).toBe(true);
    console.log(`FIGURE resharding, sequential 3000 GET: ${counts.ASK} ASK, ${counts.MOVED} MOVED; slot ${reshard.slot} moved ` +
      `${reshard.keys} key(s) in ${((reshard.keysMovedUs! - reshard.startedUs) / 1000).toFixed(2)} ms, owner switched ${((reshard.doneUs! - reshard.keysMovedUs!) / 1000).toFixed(2)} ms later ` +
      `(held on purpose); run ${(doc.totals.durationUs / 1000).toFixed(1)} ms`);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.masters[0]!.call('CLUSTER', 'SLOTS')).toEqual(before);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('a pipeline during the move: every answer right, whichever redirects it met', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'GET', n: 20_000, valueBytes: 16, engine: 'raw', reshard: true });
    const counts = checkRedirects(doc);
    expect(doc.cluster!.reshard!.error).toBeUndefined();
    expect(doc.cluster!.reshard!.wrong).toBe(0);
    expect(doc.cluster!.reshard!.checked).toBe(20_000);
    console.log(`FIGURE resharding, pipeline of 20000 GET: ${counts.ASK ?? 0} ASK, ${counts.MOVED ?? 0} MOVED; run ${(doc.totals.durationUs / 1000).toFixed(1)} ms`);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('cancelled mid-move: the move is finished or set back, the slot returned, no key left', async () => {
    const before = await context.masters[0]!.call('CLUSTER', 'SLOTS');
    const controller = new AbortController();
    let migratingSeen = false;
    const run = executeRun(session, 'sequential', { command: 'GET', n: 20_000, valueBytes: 16, engine: 'raw', reshard: true }, {
      // Cancelled once a node shows the slot migrating ([slot->-id] in CLUSTER NODES): mid-move.
      onStart: () => void (async () => {
        for (let i = 0; i < 5000 && !controller.signal.aborted; i++) {
          const nodes = await Promise.all(context.masters.map((master) => master.call('CLUSTER', 'NODES').then(String)));
          if (nodes.some((text) => /\[\d+->-/.test(text))) {
            migratingSeen = true;
            controller.abort();
          }
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })(),
    }, controller.signal);
    const error = await run.catch((e: Error) => e);
    expect(error).toBeInstanceOf(RunCancelledError);
    expect((error as Error).message).toBe('Run cancelled');
    expect(migratingSeen).toBe(true);
    await backgroundSettled();
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.masters[0]!.call('CLUSTER', 'SLOTS')).toEqual(before);
    // No slot is left importing or migrating on any node (CLUSTER NODES shows them as [slot->-id] / [slot-<-id]).
    for (const master of context.masters) {
      const marks = String(await master.call('CLUSTER', 'NODES')).match(/\[\d+-[<>]-[0-9a-f]+\]/g) ?? [];
      expect(marks).toEqual([]);
    }
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('is refused in words on a cluster that is not Pipescope\'s, and on a single-command workload without a stored value', async () => {
    const user = await RedisSession.open(targetFromUrl(context.url(1)));
    try {
      const error = await executeRun(user, 'sequential', { command: 'GET', n: 10, valueBytes: 8, engine: 'raw', reshard: true }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(ClusterNotSupportedError);
      expect((error as Error).message).toMatch(/is a node of your cluster: Pipescope never changes a user's slot layout\. Nothing was sent and no key was written/);
    } finally {
      await user.close();
    }
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});
