import { expect, it } from 'vitest';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { DEFAULT_FORM_SPEC, verdictOf } from './default-runs-bench.ts';

/** Only what verdictOf reads: the mode, the repeat and the time to the last reply. */
const run = (mode: 'sequential' | 'pipeline', repeat: number, durationUs: number) => ({ run: { mode, repeat }, totals: { durationUs } }) as unknown as TraceDocument;

it('sends what the default form sends: 10 × INCR, both modes, the default repeats and options', () => {
  expect(DEFAULT_FORM_SPEC).toMatchObject({ command: 'INCR', n: 10, modes: ['sequential', 'pipeline'], repeats: 5, kernelTcp: true, cold: false, engine: 'ioredis' });
  expect(DEFAULT_FORM_SPEC.memory).toBeUndefined(); // the request decides: no sampler on 10 commands
});

it('compares the median repeats, and says when the ranges overlap', () => {
  const clear = verdictOf([run('sequential', 0, 900), run('pipeline', 0, 300), run('sequential', 1, 1200), run('pipeline', 1, 250), run('sequential', 2, 1000), run('pipeline', 2, 5000)], 3);
  expect(clear).toMatchObject({ ratio: 1000 / 300, withinNoise: true, sequential: { median: 1000, min: 900, max: 1200 } });
  expect(verdictOf([run('sequential', 0, 900), run('pipeline', 0, 300)], 1)).toMatchObject({ ratio: 3, withinNoise: false });
});

it('refuses a request whose repeats are missing', () => {
  expect(() => verdictOf([run('sequential', 0, 900), run('pipeline', 0, 300)], 2)).toThrow('Expected 2 sequential runs, got 1');
});
