import { describe, expect, it } from 'vitest';
import { DEFAULT_HASH_PARAMS, formatHashParams, parseHashParams } from './url-hash-params.ts';

describe('parseHashParams', () => {
  it('reads every field', () => {
    expect(parseHashParams('#command=SET&n=5000&valueBytes=1024&mode=pipeline&scale=own')).toEqual({
      command: 'SET',
      n: 5000,
      valueBytes: 1024,
      mode: 'pipeline',
      chunk: 10_000,
      scale: 'own',
      rttMs: 0,
      jitterMs: 0,
      monitor: false,
      strace: false,
      cold: false,
      repeats: 5,
      engine: 'ioredis',
      modes: ['sequential', 'pipeline'],
      chunkPauseMs: 0,
      errorAt: null,
      errorKind: 'runtime',
      neighborRate: 0,
      neighborCommand: 'INCR',
      heldConnection: false,
    });
  });

  it('accepts any letter case for choices', () => {
    expect(parseHashParams('#command=ping&mode=Sequential').command).toBe('PING');
    expect(parseHashParams('#command=ping&mode=Sequential').mode).toBe('sequential');
  });

  it('falls back to defaults for an empty or missing hash', () => {
    expect(parseHashParams('')).toEqual(DEFAULT_HASH_PARAMS);
    expect(parseHashParams('#')).toEqual(DEFAULT_HASH_PARAMS);
  });

  it('falls back per field for bad values, never throwing', () => {
    const bad = [
      '#command=FLUSHALL&n=-3&valueBytes=9999999999&mode=turbo&scale=log',
      '#n=1.5&valueBytes=abc',
      '#n=0',
      '#n=1000001',
      '#n=1e3',
      '#%E0%A4%A',
      '#n=&command=',
      '#&&&==&',
      '#n=10&n=20',
      '#__proto__=1&constructor=2',
    ];
    for (const hash of bad) expect(() => parseHashParams(hash)).not.toThrow();
    expect(parseHashParams(bad[0]!)).toEqual(DEFAULT_HASH_PARAMS);
    expect(parseHashParams('#n=1.5&valueBytes=abc')).toEqual(DEFAULT_HASH_PARAMS);
    expect(parseHashParams('#n=0').n).toBe(DEFAULT_HASH_PARAMS.n);
    expect(parseHashParams('#n=1000001').n).toBe(DEFAULT_HASH_PARAMS.n);
    expect(parseHashParams('#n=1000000').n).toBe(1_000_000);
    expect(parseHashParams('#n=10&n=20').n).toBe(10);
  });

  it('reads the added delay, refusing negative or out-of-range values', () => {
    expect(parseHashParams('#rttMs=250&jitterMs=2.5')).toMatchObject({ rttMs: 250, jitterMs: 2.5 });
    expect(parseHashParams('#rttMs=-1&jitterMs=9999')).toMatchObject({ rttMs: 0, jitterMs: 0 });
    expect(parseHashParams('#rttMs=1e3')).toMatchObject({ rttMs: 0 });
  });

  it('keeps good fields when others are bad', () => {
    expect(parseHashParams('#command=GET&n=oops')).toEqual({ ...DEFAULT_HASH_PARAMS, command: 'GET' });
  });

  it('round-trips what it formats', () => {
    const p = {
      ...DEFAULT_HASH_PARAMS,
      command: 'GET' as const, n: 123, valueBytes: 64, mode: 'sequential' as const, chunk: 10_000, scale: 'own' as const, rttMs: 0.5, jitterMs: 5,
      monitor: true, strace: false, cold: true, repeats: 12, engine: 'raw' as const,
    };
    expect(parseHashParams(formatHashParams(p))).toEqual(p);
    expect(parseHashParams(formatHashParams(DEFAULT_HASH_PARAMS))).toEqual(DEFAULT_HASH_PARAMS);
  });

  it('reads the Redis-side probes, the cold switch and the engine tolerantly', () => {
    for (const key of ['monitor', 'strace', 'cold'] as const) {
      for (const on of ['1', 'true', 'TRUE', ' yes ', 'on']) expect(parseHashParams(`#${key}=${encodeURIComponent(on)}`)[key]).toBe(true);
      for (const off of ['0', 'false', 'no', 'Off']) expect(parseHashParams(`#${key}=${off}`)[key]).toBe(false);
      for (const bad of ['', '2', 'maybe', '%E0%A4%A']) expect(parseHashParams(`#${key}=${bad}`)[key]).toBe(false);
    }
    expect(parseHashParams('#monitor=1')).toMatchObject({ monitor: true, strace: false });
    expect(parseHashParams('#strace=1')).toMatchObject({ monitor: false, strace: true });
    expect(parseHashParams('#engine=RAW').engine).toBe('raw');
    expect(parseHashParams('#engine=netcat').engine).toBe('ioredis');
    expect(parseHashParams('#engine=').engine).toBe('ioredis');
  });

  it('opens links made before MONITOR and strace were apart: serverTrace=1 means both', () => {
    expect(parseHashParams('#serverTrace=1')).toMatchObject({ monitor: true, strace: true });
    expect(parseHashParams('#serverTrace=0')).toMatchObject({ monitor: false, strace: false });
    // A probe named on its own wins over the old switch.
    expect(parseHashParams('#serverTrace=1&strace=0')).toMatchObject({ monitor: true, strace: false });
    expect(formatHashParams(parseHashParams('#serverTrace=1'))).toMatch(/&monitor=1&strace=1$/);
  });

  it('reads the repeats within 1–20, falling back to 5', () => {
    expect(parseHashParams('#repeats=1').repeats).toBe(1);
    expect(parseHashParams('#repeats=20').repeats).toBe(20);
    for (const bad of ['0', '21', '2.5', '-3', '', 'five', '1e1']) expect(parseHashParams(`#repeats=${bad}`).repeats).toBe(5);
  });

  it('keeps the usual link short: probes, cold, repeats and engine only when not the defaults', () => {
    expect(formatHashParams(DEFAULT_HASH_PARAMS)).not.toMatch(/serverTrace|monitor|strace|cold|repeats|engine/);
    expect(formatHashParams({ ...DEFAULT_HASH_PARAMS, monitor: true, strace: true, cold: true, repeats: 3, engine: 'raw' })).toMatch(
      /&monitor=1&strace=1&cold=1&repeats=3&engine=raw$/,
    );
  });

  it('reads the comparisons and the chunk size, tolerantly', () => {
    expect(parseHashParams('#mode=pipeline-vs-chunked&chunk=10000')).toMatchObject({ mode: 'pipeline-vs-chunked', chunk: 10_000 });
    expect(parseHashParams('#mode=ALL&chunk=7')).toMatchObject({ mode: 'all', chunk: 7 });
    expect(parseHashParams('#mode=chunked&chunk=1000')).toMatchObject({ mode: 'chunked', chunk: 1000 });
    for (const bad of ['0', '-5', '1.5', '1e3', '1000001', '', 'ten']) expect(parseHashParams(`#chunk=${bad}`).chunk).toBe(DEFAULT_HASH_PARAMS.chunk);
    expect(parseHashParams('#mode=both').mode).toBe('both'); // links made before chunked mode still open the same form
  });

  it('round-trips the chunk size; the link carries it when the mode has chunks or it was changed', () => {
    const chunked = { ...DEFAULT_HASH_PARAMS, command: 'SET' as const, n: 1_000_000, valueBytes: 100, mode: 'pipeline-vs-chunked' as const, chunk: 10_000 };
    expect(formatHashParams(chunked)).toBe('#command=SET&n=1000000&valueBytes=100&mode=pipeline-vs-chunked&chunk=10000&scale=shared');
    expect(parseHashParams(formatHashParams(chunked))).toEqual(chunked);
    const changed = { ...DEFAULT_HASH_PARAMS, mode: 'pipeline' as const, chunk: 250 };
    expect(parseHashParams(formatHashParams(changed))).toEqual(changed);
    expect(formatHashParams(DEFAULT_HASH_PARAMS)).not.toMatch(/chunk/);
  });
});

describe('the issue-12 fields', () => {
  it('reads a custom list of modes, tolerantly: unknown names and repeats dropped, in the modes\' own order', () => {
    expect(parseHashParams('#mode=custom&modes=eval,multi,MULTI,bogus,pipeline')).toMatchObject({ mode: 'custom', modes: ['pipeline', 'multi', 'eval'] });
    expect(parseHashParams('#mode=custom&modes=bogus,,').modes).toEqual(DEFAULT_HASH_PARAMS.modes);
    expect(parseHashParams('#mode=multikey').mode).toBe('multikey');
  });

  it('reads a planted error, a chunk pause, a neighbour and the held-connection probe', () => {
    expect(parseHashParams('#command=INCR&errorAt=4&errorKind=Queueing&chunkPauseMs=2.5&neighborRate=6000&neighborCommand=get&heldConnection=1')).toMatchObject({
      errorAt: 4, errorKind: 'queueing', chunkPauseMs: 2.5, neighborRate: 6000, neighborCommand: 'GET', heldConnection: true,
    });
  });

  it('drops bad values of the new fields to their defaults', () => {
    for (const bad of ['-1', '1.5', 'x', '', '1000000']) expect(parseHashParams(`#errorAt=${bad}`).errorAt).toBeNull();
    expect(parseHashParams('#errorKind=boom').errorKind).toBe('runtime');
    expect(parseHashParams('#chunkPauseMs=5000').chunkPauseMs).toBe(0);
    expect(parseHashParams('#neighborRate=99999').neighborRate).toBe(0);
    expect(parseHashParams('#neighborCommand=DEL').neighborCommand).toBe('INCR');
    expect(parseHashParams('#heldConnection=maybe').heldConnection).toBe(false);
  });

  it('round-trips them, and leaves them out of the link when they are the defaults', () => {
    const p = {
      ...DEFAULT_HASH_PARAMS, mode: 'custom' as const, modes: ['pipeline', 'chunked', 'multi', 'eval'] as const, chunk: 5, chunkPauseMs: 3, errorAt: 4,
      errorKind: 'queueing' as const, neighborRate: 100, neighborCommand: 'GET' as const, heldConnection: true,
    };
    const params = { ...p, modes: [...p.modes] };
    expect(parseHashParams(formatHashParams(params))).toEqual(params);
    expect(formatHashParams(DEFAULT_HASH_PARAMS)).not.toMatch(/modes|chunkPauseMs|errorAt|errorKind|neighbor|heldConnection/);
    expect(formatHashParams({ ...DEFAULT_HASH_PARAMS, errorAt: 0 })).toMatch(/errorAt=0&errorKind=runtime/);
  });
});
