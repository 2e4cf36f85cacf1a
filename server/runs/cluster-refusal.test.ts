// Which runs go to a cluster, which error replies a cluster run is there to show, and the cluster-only
// parameters refused in words when the Redis is a single one.
import { describe, expect, it } from 'vitest';
import type { RedisSession } from '../redis/redis-session.ts';
import { ClusterNotSupportedError, expectedClusterErrors, refuseOnCluster, routedOnCluster } from './cluster-refusal.ts';

const single = { cluster: undefined, target: { address: '127.0.0.1:6379', embedded: false } } as unknown as RedisSession;

describe('on a cluster', () => {
  it('the raw engine\'s pipeline, sequential, multi and multikey go; GET-COMPUTE-SET, eval and other engines do not', () => {
    for (const mode of ['pipeline', 'sequential', 'multi', 'multikey'] as const) expect(routedOnCluster(mode, { engine: 'raw', command: 'SET' })).toBe(true);
    expect(routedOnCluster('sequential', { engine: 'raw', command: 'GET-COMPUTE-SET' })).toBe(false);
    expect(routedOnCluster('eval', { engine: 'raw', command: 'SET' })).toBe(false);
    expect(routedOnCluster('multi', { engine: 'ioredis', command: 'SET' })).toBe(false);
  });

  it('a transaction\'s or one MSET\'s refusals are what it shows; a pipeline\'s are failures', () => {
    for (const error of ['CROSSSLOT Keys in request don\'t hash to the same slot', 'MOVED 1 127.0.0.1:7601', 'EXECABORT Transaction discarded because of previous errors.']) {
      expect(expectedClusterErrors('multi')!.test(error)).toBe(true);
      expect(expectedClusterErrors('multikey')!.test(error)).toBe(true);
    }
    expect(expectedClusterErrors('multi')!.test('OOM command not allowed')).toBe(false);
    expect(expectedClusterErrors('pipeline')).toBeNull();
  });
});

describe('on a single Redis', () => {
  it('keys under one hash tag and a serial split are refused in words; the defaults go', () => {
    expect(() => refuseOnCluster(single, 'runs', { mode: 'pipeline', spec: { engine: 'raw', clusterKeys: 'spread', clusterSplit: 'parallel' } })).not.toThrow();
    const refusal = (spec: object) => {
      try {
        refuseOnCluster(single, 'runs', { mode: 'pipeline', spec });
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(ClusterNotSupportedError);
        return (error as Error).message;
      }
    };
    expect(refusal({ clusterKeys: 'hashtag' })).toBe(
      'Redis at 127.0.0.1:6379 is a single Redis, not a node of a Redis Cluster: keys under one hash tag (clusterKeys hashtag, link keys=hashtag) is only ' +
        'for a cluster, whose keys live on several nodes. Nothing was sent. Leave keys spread, split parallel and no compare, or point Pipescope at a cluster ' +
        '(npm start -- --cluster starts a private one).',
    );
    expect(refusal({ clusterKeys: 'hashtag', clusterSplit: 'serial' })).toMatch(/hashtag, link keys=hashtag\) and a pipeline split by node, one node after another \(clusterSplit serial, link split=serial\) are only for a cluster/);
    expect(refusal({ clusterCompare: 'keys' })).toMatch(
      /a single Redis, not a node of a Redis Cluster: comparing keys spread over slots with keys under one hash tag \(clusterCompare keys, link compare=keys\) is only for a cluster/,
    );
    expect(refusal({ clusterCompare: 'split' })).toMatch(/comparing a pipeline split by node at once with one node after another \(clusterCompare split, link compare=split\) is only/);
  });
});
