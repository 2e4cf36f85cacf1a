import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_FORM } from '../state/sweep-form-state.ts';
import { formatLink, parseLink } from './page-link.ts';
import { fieldsOf, hashParams } from './link-fields.ts';
import { DEFAULT_RUN_LINK } from './run-link.ts';
import { DEFAULT_DISPLAY_LINK } from './display-link.ts';
import { SWEEP_KEYS, parseSweepLink, sweepLinkOf, type SweepLink } from './sweep-link.ts';

/** The view a hash shows, the sweep's part of it, and the sweep view's link (view=sweep first). */
const viewOf = (hash: string) => parseLink(hash).view;
const readSweep = (hash: string): SweepLink => parseSweepLink(fieldsOf(hashParams(hash), SWEEP_KEYS));
const writeSweep = (sweep: SweepLink): string => formatLink({ view: 'sweep', run: DEFAULT_RUN_LINK, sweep, display: DEFAULT_DISPLAY_LINK });

describe('the view', () => {
  it('is the sweep view only when the hash says so', () => {
    expect(viewOf('#view=sweep&maxDepth=64')).toBe('sweep');
    expect(viewOf('#view=SWEEP')).toBe('sweep');
    expect(viewOf('#view=gallery')).toBe('gallery');
    expect(viewOf('#command=INCR&n=10')).toBe('run');
    expect(viewOf('#view=flame')).toBe('run');
    expect(viewOf('')).toBe('run');
  });
});

describe('reading the sweep', () => {
  it('reads every field', () => {
    expect(readSweep('#view=sweep&command=set&valueBytes=100&maxDepth=64&perPoint=2000&repeats=2&engine=raw&rttMs=0.5&reference=0&y=linear')).toEqual({
      form: { ...DEFAULT_SWEEP_FORM, command: 'SET', valueBytes: '100', maxDepth: 64, perPoint: '2000', repeats: '2', engine: 'raw', rttMs: '0.5', reference: false },
      yScale: 'linear',
    });
  });

  it('takes a depth list of digits and separators as typed', () => {
    const { form } = readSweep('#view=sweep&depths=1,2,4,8,100,1000');
    expect(form.depthsMode).toBe('list');
    expect(form.depthList).toBe('1,2,4,8,100,1000');
  });

  it('falls back per field for bad values, never throwing', () => {
    const bad = [
      '#view=sweep&command=FLUSHALL&maxDepth=3&perPoint=0&repeats=99&engine=turbo&rttMs=-1&reference=maybe&y=sqrt&depths=1;DROP',
      '#perPoint=1e3&repeats=1.5&valueBytes=abc&depths=,,,',
      '#%E0%A4%A',
      '#&&&==&',
      '#__proto__=1&constructor=2',
    ];
    for (const hash of bad) expect(readSweep(hash)).toEqual({ form: DEFAULT_SWEEP_FORM, yScale: 'log' });
  });
});

describe('writing the sweep', () => {
  it('round-trips through the parser', () => {
    const params = readSweep('#view=sweep&command=GET&valueBytes=64&depths=1,10,100&perPoint=500&repeats=5&engine=raw&rttMs=2&reference=1&y=linear');
    expect(readSweep(writeSweep(params))).toEqual(params);
  });

  it('writes a short link for the defaults, with the view', () => {
    expect(writeSweep({ form: { ...DEFAULT_SWEEP_FORM, maxDepth: 64, perPoint: '2000', repeats: '2' }, yScale: 'log' })).toBe(
      '#view=sweep&command=PING&maxDepth=64&perPoint=2000&repeats=2&reference=1',
    );
  });

  it('keeps the last good value of a half-typed number', () => {
    const last = readSweep('#view=sweep&perPoint=5000');
    const typed = { form: { ...DEFAULT_SWEEP_FORM, perPoint: '' }, yScale: 'log' as const };
    expect(writeSweep(sweepLinkOf(typed, last))).toContain('perPoint=5000');
  });
});
