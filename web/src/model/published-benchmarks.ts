// The sources' own workloads, as data: what each write-up ran, on what client, machine and network, and
// the figures it published (docs/published-benchmarks.md lists them), each with the RunSpec that runs
// the same workload here. The gallery (views/gallery/gallery-view.tsx) runs these specs live beside the
// published figures; model/pipelining-gap.ts explains the difference. Only what the sources state is
// written here: an unstated machine or network says so.
import { UNTIL_CERTAIN, type RunSpec } from '../../../trace/format/run-request.ts';

export type PublishedBenchmarkId = 'tair-incr' | 'docs-ping' | 'blog-ping' | 'tencent-set' | 'docs-netcat';

/** Published times, ms (client side, as each source measured them); null where the source gives only a ratio. */
export interface PublishedFigures {
  sequentialMs: number | null;
  pipelineMs: number | null;
  /** Sequential time ÷ pipelined time: computed from the two figures when both are given, else as published. */
  ratio: number;
  /** The ratio as the source states it, e.g. "~75×", "16.8×". */
  ratioText: string;
  /** The times as the source prints them ("5,844 ms", "1.185 s"); null with the figure. */
  sequentialText: string | null;
  pipelineText: string | null;
}

export interface PublishedBenchmark {
  id: PublishedBenchmarkId;
  /** The write-up, by name. */
  source: string;
  /** The same inside a sentence: "the Tair guide". */
  shortName: string;
  /** What the source ran, in our words. */
  workload: string;
  client: string;
  machine: string;
  network: string;
  /** Whether the source's client reached Redis over loopback, a network, or it does not say. */
  networkKind: 'loopback' | 'network' | 'not stated';
  /** null for the netcat example, which publishes replies, not times. */
  figures: PublishedFigures | null;
  /** What the netcat example shows instead of figures: the bytes sent and what came back. */
  publishedOutcome?: string;
  /** The same workload here: both modes (sequential and one pipeline) unless the source ran one. */
  spec: RunSpec;
  /** Where the run here differs from the source's workload on purpose, or null. */
  caveat: string | null;
}

/** The fields every gallery spec shares: direct to Redis (the delay proxy only for the "Run at X ms" rerun), warm, unprobed. */
const BASE = {
  valueBytes: 16,
  rttMs: 0,
  jitterMs: 0,
  engine: 'ioredis',
  serverTrace: false,
  monitor: false,
  strace: false,
  cold: false,
  // Until certain: the ratio's 95 % interval narrows until it excludes 1 (10 pairs when it is clear);
  // runs of a second or more run once.
  repeats: UNTIL_CERTAIN,
  kernelTcp: true,
  chunkPauseMs: 0,
  errorKind: 'runtime',
  neighborRate: 0,
  neighborCommand: 'INCR',
  heldConnection: false,
  memory: false,
  clusterKeys: 'spread',
  clusterSplit: 'parallel',
  modes: ['sequential', 'pipeline'],
} as const satisfies Omit<RunSpec, 'command' | 'n'>;

const spec = (fields: Pick<RunSpec, 'command' | 'n'> & Partial<RunSpec>): RunSpec => ({ ...BASE, modes: [...BASE.modes], ...fields });

/** The ratio of two published times (ms), for figures that give both. */
const ratioOf = (sequentialMs: number, pipelineMs: number) => sequentialMs / pipelineMs;

/** The Tencent article's timestamps: about 20 characters; our SET sends a fixed pattern of this many bytes. */
export const TIMESTAMP_VALUE_BYTES = 20;

export const PUBLISHED_BENCHMARKS: readonly PublishedBenchmark[] = [
  {
    id: 'tair-incr',
    source: 'ApsaraDB for Redis / Tair guide to pipelining (Alibaba Cloud)',
    shortName: 'the ApsaraDB/Tair guide',
    workload: '5,000 INCRs of one key',
    client: 'Jedis (Java)',
    machine: 'a cloud Redis instance; the client machine is not stated',
    network: 'the cloud network between client and instance (its RTT is not stated)',
    networkKind: 'network',
    figures: { sequentialMs: 5844, pipelineMs: 78, ratio: ratioOf(5844, 78), ratioText: '~75×', sequentialText: '5,844 ms', pipelineText: '78 ms' },
    spec: spec({ command: 'INCR', n: 5000 }),
    caveat: null,
  },
  {
    id: 'docs-ping',
    source: 'Redis documentation, pipelining page (and the Redis pipeline tutorial that repeats it)',
    shortName: 'the Redis docs',
    workload: '10,000 PINGs',
    client: 'the Ruby Redis client',
    machine: 'a Mac running macOS',
    network: 'loopback: client and Redis on the same machine',
    networkKind: 'loopback',
    figures: { sequentialMs: 1185, pipelineMs: 251, ratio: ratioOf(1185, 251), ratioText: '~4.7×', sequentialText: '1.185 s', pipelineText: '0.251 s' },
    spec: spec({ command: 'PING', n: 10_000 }),
    caveat: null,
  },
  {
    id: 'blog-ping',
    source: 'A blog review of the Redis pipelining page',
    shortName: 'the blog review',
    workload: '10,000 PINGs',
    client: 'a Go Redis client',
    machine: 'a laptop with 2 cores',
    network: 'not stated',
    networkKind: 'not stated',
    figures: { sequentialMs: 263.6, pipelineMs: 9.6, ratio: ratioOf(263.6, 9.6), ratioText: '~27×', sequentialText: '263.6 ms', pipelineText: '9.6 ms' },
    spec: spec({ command: 'PING', n: 10_000 }),
    caveat: null,
  },
  {
    id: 'tencent-set',
    source: 'Tencent Cloud database engineering article',
    shortName: 'the Tencent Cloud article',
    workload: '10,000 SETs, each value a microsecond timestamp (about 20 bytes)',
    client: 'not stated',
    machine: 'not stated',
    network: 'a network across a city (client and Redis at different sites)',
    networkKind: 'network',
    figures: { sequentialMs: null, pipelineMs: null, ratio: 16.8, ratioText: '16.8×', sequentialText: null, pipelineText: null },
    spec: spec({ command: 'SET', n: 10_000, valueBytes: TIMESTAMP_VALUE_BYTES }),
    caveat: `Each SET here carries a fixed ${TIMESTAMP_VALUE_BYTES}-byte pattern: the size of the article's timestamps, not a timestamp.`,
  },
  {
    id: 'docs-netcat',
    source: 'Redis documentation, pipelining page (the netcat example)',
    shortName: 'the Redis docs',
    workload: 'PING three times, written in one go on a plain socket',
    client: 'netcat: no client library at all',
    machine: 'not stated',
    network: 'not stated',
    networkKind: 'not stated',
    figures: null,
    publishedOutcome: 'PING\\r\\nPING\\r\\nPING\\r\\n sent at once; +PONG comes back three times',
    // The raw engine sends PING as the inline command "PING\r\n", as netcat does; MONITOR and strace
    // show Redis reading the three commands together.
    spec: spec({ command: 'PING', n: 3, engine: 'raw', modes: ['pipeline'], repeats: 1, serverTrace: true }),
    caveat: null,
  },
];

export function publishedBenchmark(id: PublishedBenchmarkId): PublishedBenchmark {
  return PUBLISHED_BENCHMARKS.find((b) => b.id === id)!;
}
