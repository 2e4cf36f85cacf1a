import { expect, it } from 'vitest';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { DEFAULT_FORM_SPEC, pipelineCertain, verdictOf } from './default-runs-bench.ts';

/** Only what verdictOf reads: the mode, the round, the plan and the time to the last reply. */
const run = (mode: 'sequential' | 'pipeline', repeat: number, durationUs: number) =>
  ({ run: { mode, repeat, round: { position: 0, plan: 'until-certain' } }, totals: { durationUs } }) as unknown as TraceDocument;

const rounds = (times: [number, number][]) => times.flatMap(([seq, pipe], i) => [run('sequential', i, seq), run('pipeline', i, pipe)]);

it('sends what the default form sends: 10 × INCR, both modes, until certain, the default options', () => {
  expect(DEFAULT_FORM_SPEC).toMatchObject({ command: 'INCR', n: 10, modes: ['sequential', 'pipeline'], repeats: 'until-certain', kernelTcp: true, cold: false, engine: 'ioredis' });
  expect(DEFAULT_FORM_SPEC.memory).toBeUndefined(); // the request decides: no sampler on 10 commands
});

it('judges a request by the paired interval, and records what the ranges rule would have said', () => {
  // Ten rounds, the pipeline faster in nine; one preempted pipeline run (in the first five) makes the ranges overlap.
  const v = verdictOf(rounds([[900, 300], [1200, 250], [1000, 5000], [950, 310], [1100, 290], [990, 300], [1050, 280], [980, 330], [1010, 300], [940, 260]]));
  expect(v.rounds).toBe(10);
  expect(v.paired.outcome).toBe('a-slower');
  expect(pipelineCertain(v)).toBe(true);
  expect(v.paired.wins).toBe(9);
  expect(v.rangesApart).toBe(false);
  // Five rounds: no 95 % interval exists, so no verdict, whatever the ranges.
  const few = verdictOf(rounds([[900, 300], [1200, 250], [1000, 240], [950, 310], [1100, 290]]));
  expect(few.paired.outcome).toBe('too-few');
  expect(few.rangesApart).toBe(true);
});

it('refuses a request whose rounds are unmatched', () => {
  expect(() => verdictOf([run('sequential', 0, 900), run('sequential', 1, 900), run('pipeline', 0, 300)])).toThrow('Expected as many sequential as pipeline runs, got 2 and 1');
});
