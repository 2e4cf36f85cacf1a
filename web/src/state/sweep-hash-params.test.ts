import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_FORM } from './sweep-form-state.ts';
import { formatSweepHashParams, parseSweepHashParams, parseViewChoice } from './sweep-hash-params.ts';

describe('parseViewChoice', () => {
  it('is the sweep view only when the hash says so', () => {
    expect(parseViewChoice('#view=sweep&maxDepth=64')).toBe('sweep');
    expect(parseViewChoice('#view=SWEEP')).toBe('sweep');
    expect(parseViewChoice('#view=gallery')).toBe('gallery');
    expect(parseViewChoice('#command=INCR&n=10')).toBe('run');
    expect(parseViewChoice('#view=flame')).toBe('run');
    expect(parseViewChoice('')).toBe('run');
  });
});

describe('parseSweepHashParams', () => {
  it('reads every field', () => {
    expect(parseSweepHashParams('#view=sweep&command=set&valueBytes=100&maxDepth=64&perPoint=2000&repeats=2&engine=raw&rttMs=0.5&reference=0&y=linear')).toEqual({
      form: { ...DEFAULT_SWEEP_FORM, command: 'SET', valueBytes: '100', maxDepth: 64, perPoint: '2000', repeats: '2', engine: 'raw', rttMs: '0.5', reference: false },
      yScale: 'linear',
    });
  });

  it('takes a depth list of digits and separators as typed', () => {
    const { form } = parseSweepHashParams('#view=sweep&depths=1,2,4,8,100,1000');
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
    for (const hash of bad) expect(parseSweepHashParams(hash)).toEqual({ form: DEFAULT_SWEEP_FORM, yScale: 'log' });
  });
});

describe('formatSweepHashParams', () => {
  it('round-trips through the parser', () => {
    const params = parseSweepHashParams('#view=sweep&command=GET&valueBytes=64&depths=1,10,100&perPoint=500&repeats=5&engine=raw&rttMs=2&reference=1&y=linear');
    expect(parseSweepHashParams(formatSweepHashParams(params))).toEqual(params);
  });

  it('writes a short link for the defaults, with the view', () => {
    expect(formatSweepHashParams({ form: { ...DEFAULT_SWEEP_FORM, maxDepth: 64, perPoint: '2000', repeats: '2' }, yScale: 'log' })).toBe(
      '#view=sweep&command=PING&maxDepth=64&perPoint=2000&repeats=2&reference=1',
    );
  });

  it('keeps the last good value of a half-typed number', () => {
    const last = parseSweepHashParams('#view=sweep&perPoint=5000');
    const typed = { form: { ...DEFAULT_SWEEP_FORM, perPoint: '' }, yScale: 'log' as const };
    expect(formatSweepHashParams(typed, last)).toContain('perPoint=5000');
  });
});
