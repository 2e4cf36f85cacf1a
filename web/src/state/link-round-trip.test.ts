// Every setting a link carries comes back from it: each run-form field and each sweep-form field changed
// on its own, all at once, and beside the display keys (zoom, t, speed, …) the view writers must keep.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_FORM } from './sweep-form-state.ts';
import { formatSweepHashParams, parseSweepHashParams, parseViewChoice, type SweepHashParams } from './sweep-hash-params.ts';
import { DEFAULT_HASH_PARAMS, formatHashParams, parseHashParams, type HashParams } from './url-hash-params.ts';
import { withDisplayFields } from './hash-fields.ts';
import { parseDisplayHashParams } from './display-hash-params.ts';

const RUN_CHANGES: Partial<HashParams>[] = [
  { command: 'SET' }, { n: 12345 }, { valueBytes: 4096 }, { mode: 'pipeline-vs-chunked', chunk: 100 }, { mode: 'eval' }, { chunk: 7 }, { scale: 'own' },
  { rttMs: 2.5 }, { jitterMs: 0.5 }, { monitor: true }, { strace: true }, { cold: true }, { repeats: 1 }, { engine: 'raw' },
  { mode: 'custom', modes: ['pipeline', 'multi', 'evalsha'] }, { mode: 'chunked', chunkPauseMs: 12.5 }, { errorAt: 0 }, { errorAt: 3, errorKind: 'queueing' },
  { neighborRate: 200, neighborCommand: 'GET' }, { heldConnection: true },
];

const SWEEP_CHANGES: Partial<SweepHashParams['form']>[] = [
  { command: 'SET', valueBytes: '512' }, { maxDepth: 4096 }, { depthsMode: 'list', depthList: '1, 3, 9, 27' }, { perPoint: '777' }, { repeats: '4' },
  { engine: 'raw' }, { rttMs: '1.5' }, { reference: false },
];

const DISPLAY = '&t=15&speed=0.01&zoom=10-20&theme=dark&present=1&tour=3&repeat=2:1&wire=2';

describe('links round-trip every setting', () => {
  it('each run-form field, alone and all together, beside the display keys', () => {
    const all = Object.assign({}, DEFAULT_HASH_PARAMS, ...RUN_CHANGES.filter((c) => c.mode === undefined || c.mode === 'custom')) as HashParams;
    for (const change of [...RUN_CHANGES, all]) {
      const p = { ...DEFAULT_HASH_PARAMS, ...change };
      const hash = withDisplayFields(formatHashParams(p), `#x=1${DISPLAY}`);
      expect(parseHashParams(hash), JSON.stringify(change)).toEqual(p);
      expect(parseViewChoice(hash)).toBe('run');
      expect(parseDisplayHashParams(hash)).toMatchObject({ zoom: { fromUs: 10, toUs: 20 }, t: 15, speed: 0.01, wire: 1 });
    }
  });

  it('each sweep-form field, alone and all together, beside the display keys', () => {
    const all = Object.assign({}, DEFAULT_SWEEP_FORM, ...SWEEP_CHANGES) as SweepHashParams['form'];
    for (const change of [...SWEEP_CHANGES, all]) {
      for (const yScale of ['log', 'linear'] as const) {
        const p: SweepHashParams = { form: { ...DEFAULT_SWEEP_FORM, ...change }, yScale };
        const hash = withDisplayFields(formatSweepHashParams(p), `#n=1${DISPLAY}`);
        expect(parseSweepHashParams(hash), JSON.stringify(change)).toEqual(p);
        expect(parseViewChoice(hash)).toBe('sweep');
        expect(parseDisplayHashParams(hash).t).toBe(15);
      }
    }
  });

  it('the gallery: its view, and the display keys', () => {
    const hash = withDisplayFields('#view=gallery', `#command=PING${DISPLAY}`);
    expect(parseViewChoice(hash)).toBe('gallery');
    expect(hash).toBe(`#view=gallery${DISPLAY.replace('repeat=2:1', 'repeat=2%3A1')}`);
  });
});
