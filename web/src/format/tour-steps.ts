// The guided tour as plain data: the Redis docs' pipelining story in steps, each with a title,
// two or three sentences, the run (or sweep) that shows it, small enough to finish in a few seconds here,
// and the function that words its verdict from what that run measured (tour-verdicts.ts). The view
// (views/tour/tour-view.tsx) runs a step's preset live, or loads its recording (public/tour/) when no backend
// is reachable; steps are numbered from 1 in the URL (#tour=3).
import { RunSpecSchema, UNTIL_CERTAIN, type RunSpec } from '../../../trace/format/run-request.ts';
import { DEFAULT_SWEEP_REPEATS, SweepSpecSchema, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import {
  atomicityVerdict, clusterVerdict, memoryVerdict, pingPongVerdict, rollbackVerdict, rttVerdict, scriptsVerdict, sweepVerdict, syscallsVerdict,
  type TourVerdictFn,
} from './tour-verdicts.ts';

export type TourPreset = { kind: 'run'; spec: RunSpec } | { kind: 'sweep'; spec: SweepSpec };

export interface TourStep {
  /** Names the step's recordings in public/tour/index.json. */
  id: string;
  title: string;
  /** Two or three sentences, in our words. */
  text: string;
  /** Where the claim comes from. */
  source: string;
  preset: TourPreset;
  verdict: TourVerdictFn;
  /** Runs live only against a Redis Cluster; elsewhere the step shows its recording and says why. */
  cluster?: boolean;
}

/**
 * One request, once each by default: a step about order, bytes or memory is shown as it happened. Steps
 * whose lesson is time run until certain, so their verdict has a 95 % interval (10 pairs when it is clear).
 */
const run = (spec: Partial<RunSpec> & Pick<RunSpec, 'command' | 'n' | 'modes'>): TourPreset => ({
  kind: 'run',
  spec: RunSpecSchema.parse({ repeats: 1, ...spec }),
});

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'ping-pong',
    title: 'Ping-pong or pipelined',
    text: 'Without pipelining the client sends one command and waits for its reply before sending the next. '
      + 'A pipeline writes all of them first, then reads the replies as they come back. Watch the order of the arrows.',
    source: 'Redis docs, “Request/Response protocols and RTT”',
    preset: run({ command: 'INCR', n: 10, modes: ['sequential', 'pipeline'], monitor: true, repeats: UNTIL_CERTAIN }),
    verdict: pingPongVerdict,
  },
  {
    id: 'rtt-250',
    title: 'The round trip dominates',
    text: 'Every un-pipelined command costs one full round trip. With 250 ms between client and server, no client can do more '
      + 'than four such requests per second, however fast Redis is. Here the delay comes from Pipescope’s TCP delay proxy.',
    source: 'Redis docs',
    preset: run({ command: 'PING', n: 4, modes: ['sequential', 'pipeline'], rttMs: 250 }),
    verdict: rttVerdict,
  },
  {
    id: 'syscalls',
    title: 'Fewer system calls, fewer packets',
    text: 'Most of Redis’s cost per command is socket I/O: a read() and a write() and the trip into the kernel. '
      + 'Pipelined, one read() brings many commands and one write() carries many replies. strace counts Redis’s calls, ss the TCP segments.',
    source: 'Redis docs, “It’s not just a matter of RTT”',
    preset: run({ command: 'INCR', n: 10, modes: ['sequential', 'pipeline'], serverTrace: true }),
    verdict: syscallsVerdict,
  },
  {
    id: 'sweep',
    title: 'Throughput against pipeline depth',
    text: 'The deeper the pipeline, the fewer round trips and system calls per command, so throughput climbs — almost linearly at first. '
      + 'Then other costs take over and the curve flattens. This sweep runs the same PINGs at each depth.',
    source: 'Redis docs (their figure: about 10× the un-pipelined rate)',
    // Six rounds: the fewest with which each ratio between depths has a 95 % interval.
    preset: { kind: 'sweep', spec: SweepSpecSchema.parse({ command: 'PING', depths: [1, 2, 4, 8, 16, 32, 64, 128], perPoint: 1280, repeats: DEFAULT_SWEEP_REPEATS }) },
    verdict: sweepVerdict,
  },
  {
    id: 'memory',
    title: 'Replies wait in memory',
    text: 'While a client pipelines, Redis must keep every reply it has not yet sent. For a big job the docs advise batches: send some, '
      + 'read their replies, send the next. Compare the memory charts of one pipeline and of chunks.',
    source: 'Redis docs (batches of about 10k)',
    preset: run({ command: 'GET', n: 1000, valueBytes: 10_000, modes: ['pipeline', 'chunked'], chunk: 100 }),
    verdict: memoryVerdict,
  },
  {
    id: 'atomicity',
    title: 'A pipeline is not atomic',
    text: 'Redis runs a client’s pipelined commands in order, but another client’s commands may run in between. '
      + 'MULTI/EXEC runs them as one block. A neighbour client sends INCRs all along; MONITOR shows where they landed.',
    source: 'Redis docs; client libraries’ FAQs',
    preset: run({ command: 'INCR', n: 2000, modes: ['pipeline', 'multi'], monitor: true, neighborRate: 20_000 }),
    verdict: atomicityVerdict,
  },
  {
    id: 'rollback',
    title: 'No rollback',
    text: 'One failing command does not undo the others, in a pipeline or inside MULTI/EXEC. '
      + 'Here operation 4 fails on Redis; the keys read after the run show whether the operations after it still ran.',
    source: 'Redis docs on transactions; client libraries’ FAQs',
    preset: run({ command: 'INCR', n: 10, modes: ['pipeline', 'multi'], monitor: true, errorAt: 4, errorKind: 'runtime' }),
    verdict: rollbackVerdict,
  },
  {
    id: 'scripts',
    title: 'When a pipeline cannot help: scripts',
    text: 'A read, compute, write step needs the read’s reply before it can write, so a pipeline cannot batch it. '
      + 'A Lua script does the whole loop on Redis in one EVAL. Both run here through a 10 ms delay proxy.',
    source: 'Redis docs, “Pipelining vs Scripting”',
    preset: run({ command: 'GET-COMPUTE-SET', n: 10, valueBytes: 16, modes: ['sequential', 'eval'], rttMs: 10, repeats: UNTIL_CERTAIN }),
    verdict: scriptsVerdict,
  },
  {
    id: 'cluster',
    title: 'In a cluster: share a node, or split by node',
    text: 'In Redis Cluster each key lives on the master serving its slot, so a pipeline’s keys must share a node or the client '
      + 'must split it. Here the raw engine splits 30 SETs by node, one write per master, all at once; one MSET of the same keys '
      + 'cannot be split, and the node it reaches refuses it. Live only against a Redis Cluster (npm start -- --cluster).',
    source: 'Redis Cluster specification (hash slots, CROSSSLOT); client libraries’ cluster pipelines',
    preset: run({ command: 'SET', n: 30, valueBytes: 16, modes: ['pipeline', 'multikey'], engine: 'raw', kernelTcp: false }),
    verdict: clusterVerdict,
    cluster: true,
  },
];

/** The step number (1-based) a `tour=` value names, clamped to the tour; null when absent or not a number. */
export function tourStepOf(value: string | null): number | null {
  if (value === null) return null;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n)) return null;
  return Math.min(TOUR_STEPS.length, Math.max(1, n));
}
