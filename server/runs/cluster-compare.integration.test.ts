// One request comparing cluster variants side by side on a real Redis Cluster (3 masters, started by the
// test): clusterCompare keys runs every mode with its keys spread over slots and under one hash tag,
// clusterCompare split the raw pipeline with its nodes at once and one after another, each in every
// interleaved round, each run recording its variant (cluster.keys, cluster.split). No pipescope:* key
// is left on any node; a single Redis refuses the comparison in words before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSpecSchema } from '../../trace/format/run-request.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { runRounds } from './run-rounds.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(0)));
});
afterAll(async () => {
  await session?.close();
});

const spec = (fields: object) =>
  RunSpecSchema.parse({ command: 'SET', n: 30, valueBytes: 8, engine: 'raw', repeats: 2, memory: false, kernelTcp: false, ...fields });
const variantOf = (doc: TraceDocument) => `${doc.run.mode}·${doc.cluster!.keys}·${doc.cluster!.split ?? '-'}`;

describe('clusterCompare keys', () => {
  it('runs each mode spread and under one hash tag in every round, interleaved; the hash-tagged run on one node and slot', async () => {
    await context.client.set('user:precious', 'kept');
    const { rounds, docs } = await runRounds(session, spec({ modes: ['sequential', 'pipeline'], clusterCompare: 'keys' }), () => ({}));
    expect(rounds).toBe(2);
    // Round 0 forward (modes, then variants), round 1 both reversed.
    expect(docs.map(variantOf)).toEqual([
      'sequential·spread·-', 'sequential·hashtag·-', 'pipeline·spread·parallel', 'pipeline·hashtag·parallel',
      'pipeline·hashtag·parallel', 'pipeline·spread·parallel', 'sequential·hashtag·-', 'sequential·spread·-',
    ]);
    expect(docs.map((doc) => [doc.run.repeat, doc.run.round!.position])).toEqual([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]]);
    for (const doc of docs) {
      const text = serializeTrace(doc);
      expect(serializeTrace(parseTrace(text))).toBe(text); // the trace imports unchanged, cluster.keys included
      expect(doc.incomplete).toBeFalsy();
      expect(doc.commands).toHaveLength(30);
      const nodes = new Set(doc.commands.map((c) => c.node));
      const slots = new Set(doc.commands.map((c) => c.slot));
      if (doc.cluster!.keys === 'hashtag') {
        expect(nodes.size).toBe(1);
        expect(slots.size).toBe(1);
        expect([...slots]).toEqual([calculateSlot(doc.run.id)]); // pipescope:{<run id>}:…
      } else {
        expect(nodes.size).toBe(3);
        expect(slots.size).toBeGreaterThan(3); // a slot per key (keys may share one), over every master
      }
    }
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });
});

describe('clusterCompare split', () => {
  it('runs the raw pipeline parallel and serial in every round; sequential once a round', async () => {
    const { docs } = await runRounds(session, spec({ modes: ['sequential', 'pipeline'], clusterCompare: 'split' }), () => ({}));
    expect(docs.map(variantOf)).toEqual([
      'sequential·spread·-', 'pipeline·spread·parallel', 'pipeline·spread·serial',
      'pipeline·spread·serial', 'pipeline·spread·parallel', 'sequential·spread·-',
    ]);
    for (const doc of docs) expect(new Set(doc.commands.map((c) => c.node)).size).toBe(3);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});

describe('the request', () => {
  it('refuses a compare with the variant it compares named, and a split compare without the raw pipeline', () => {
    const issues = (fields: object) => RunSpecSchema.safeParse({ command: 'SET', n: 30, valueBytes: 8, ...fields }).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ modes: ['pipeline'], clusterCompare: 'keys', clusterKeys: 'hashtag' })).toEqual([
      'clusterCompare keys runs each mode with its keys spread and under one hash tag: leave clusterKeys out',
    ]);
    expect(issues({ modes: ['pipeline'], engine: 'raw', clusterCompare: 'split', clusterSplit: 'serial' })).toEqual([
      'clusterCompare split runs the pipeline with its nodes at once and one after another: leave clusterSplit out',
    ]);
    expect(issues({ modes: ['sequential'], engine: 'ioredis', clusterCompare: 'split' })).toEqual([
      'clusterCompare split compares how the raw engine writes a pipeline to a cluster\'s nodes: it needs the raw engine and the pipeline mode',
    ]);
    expect(issues({ modes: ['pipeline'], clusterCompare: 'both' })).toEqual(['clusterCompare must be keys or split']);
  });
});
