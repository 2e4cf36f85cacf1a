import { describe, expect, it } from 'vitest';
import { fieldsOf, hashOf, hashParams } from './link-fields.ts';
import { validateRunForm } from '../state/run-form-state.ts';
import { DEFAULT_RUN_LINK, RUN_KEYS, isDefaultRunForm, parseRunLink, runFormOf, runLinkEntries, runLinkOf, type RunLink } from './run-link.ts';

/** The run form's part of a hash, read and written as a link does. */
const readRun = (hash: string): RunLink => parseRunLink(fieldsOf(hashParams(hash), RUN_KEYS));
const writeRun = (p: RunLink): string => hashOf(runLinkEntries(p));

describe('reading the run form', () => {
  it('reads every field', () => {
    expect(readRun('#command=SET&n=5000&valueBytes=1024&mode=pipeline&scale=own')).toEqual({
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
      repeats: 'until-certain',
      engine: 'ioredis',
      modes: ['sequential', 'pipeline'],
      chunkPauseMs: 0,
      errorAt: null,
      errorKind: 'runtime',
      neighborRate: 0,
      neighborCommand: 'INCR',
      heldConnection: false,
      memory: false,
      clusterKeys: 'spread',
      clusterSplit: 'parallel',
      clusterCompare: null,
      reshard: false,
      options: false,
      target: null,
    });
  });

  it('a cluster\'s choices: keys=hashtag and split=serial, written only when not the default, an unknown value read as the default', () => {
    const link = readRun('#command=SET&n=30&valueBytes=16&mode=pipeline&engine=raw&keys=hashtag&split=serial');
    expect(link).toMatchObject({ clusterKeys: 'hashtag', clusterSplit: 'serial' });
    expect(runLinkEntries(link).filter(([key]) => key === 'keys' || key === 'split')).toEqual([['keys', 'hashtag'], ['split', 'serial']]);
    expect(runFormOf(link)).toMatchObject({ clusterKeys: 'hashtag', clusterSplit: 'serial' });
    expect(runLinkEntries(readRun('#command=SET&n=30&keys=spread')).some(([key]) => key === 'keys')).toBe(false);
    expect(readRun('#keys=everywhere&split=sideways')).toMatchObject({ clusterKeys: 'spread', clusterSplit: 'parallel' });
  });

  it('a cluster comparison: compare=keys or compare=split, carried to the form and the request, an unknown value read as none', () => {
    const link = readRun('#command=SET&n=30&valueBytes=16&mode=custom&modes=sequential,pipeline&engine=raw&compare=keys');
    expect(link.clusterCompare).toBe('keys');
    expect(runLinkEntries(link).filter(([key]) => key === 'compare')).toEqual([['compare', 'keys']]);
    const form = runFormOf(link);
    expect(form.clusterCompare).toBe('keys');
    expect(validateRunForm(form)).toMatchObject({ ok: true, spec: { clusterCompare: 'keys', clusterKeys: 'spread' } });
    expect(runLinkOf(form, 'shared', link).clusterCompare).toBe('keys');
    expect(readRun('#compare=both').clusterCompare).toBeNull();
    expect(runLinkEntries(readRun('#command=SET')).some(([key]) => key === 'compare')).toBe(false);
    expect(runFormOf(readRun('#command=SET'))).not.toHaveProperty('clusterCompare');
  });

  it('knows the default form, whatever the scale and the fold', () => {
    const form = runFormOf(DEFAULT_RUN_LINK);
    expect(isDefaultRunForm(form)).toBe(true);
    expect(isDefaultRunForm(runFormOf({ ...DEFAULT_RUN_LINK, scale: 'own', options: true }))).toBe(true);
    expect(isDefaultRunForm({ ...form, n: '11' })).toBe(false);
    expect(isDefaultRunForm({ ...form, monitor: true })).toBe(false);
    expect(isDefaultRunForm({ ...form, rttMs: '0.5' })).toBe(false);
  });

  it('keeps the More options fold in options=1, carried through a form change', () => {
    expect(readRun('#options=1').options).toBe(true);
    expect(readRun('#options=nope').options).toBe(false);
    expect(writeRun({ ...DEFAULT_RUN_LINK, options: true })).toMatch(/&options=1$/);
    expect(writeRun(DEFAULT_RUN_LINK)).not.toMatch(/options/);
    const opened = { ...DEFAULT_RUN_LINK, options: true };
    expect(runLinkOf({ ...runFormOf(opened), n: '50' }, 'shared', opened)).toEqual({ ...opened, n: 50 });
  });

  it('accepts any letter case for choices', () => {
    expect(readRun('#command=ping&mode=Sequential').command).toBe('PING');
    expect(readRun('#command=ping&mode=Sequential').mode).toBe('sequential');
  });

  it('falls back to defaults for an empty or missing hash', () => {
    expect(readRun('')).toEqual(DEFAULT_RUN_LINK);
    expect(readRun('#')).toEqual(DEFAULT_RUN_LINK);
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
    for (const hash of bad) expect(() => readRun(hash)).not.toThrow();
    expect(readRun(bad[0]!)).toEqual(DEFAULT_RUN_LINK);
    expect(readRun('#n=1.5&valueBytes=abc')).toEqual(DEFAULT_RUN_LINK);
    expect(readRun('#n=0').n).toBe(DEFAULT_RUN_LINK.n);
    expect(readRun('#n=1000001').n).toBe(DEFAULT_RUN_LINK.n);
    expect(readRun('#n=1000000').n).toBe(1_000_000);
    expect(readRun('#n=10&n=20').n).toBe(10);
  });

  it('reads the added delay, refusing negative or out-of-range values', () => {
    expect(readRun('#rttMs=250&jitterMs=2.5')).toMatchObject({ rttMs: 250, jitterMs: 2.5 });
    expect(readRun('#rttMs=-1&jitterMs=9999')).toMatchObject({ rttMs: 0, jitterMs: 0 });
    expect(readRun('#rttMs=1e3')).toMatchObject({ rttMs: 0 });
  });

  it('keeps good fields when others are bad', () => {
    expect(readRun('#command=GET&n=oops')).toEqual({ ...DEFAULT_RUN_LINK, command: 'GET' });
  });

  it('round-trips what it formats', () => {
    const p = {
      ...DEFAULT_RUN_LINK,
      command: 'GET' as const, n: 123, valueBytes: 64, mode: 'sequential' as const, chunk: 10_000, scale: 'own' as const, rttMs: 0.5, jitterMs: 5,
      monitor: true, strace: false, cold: true, repeats: 12, engine: 'raw' as const,
    };
    expect(readRun(writeRun(p))).toEqual(p);
    expect(readRun(writeRun(DEFAULT_RUN_LINK))).toEqual(DEFAULT_RUN_LINK);
  });

  it('reads the Redis-side probes, the cold switch and the engine tolerantly', () => {
    for (const key of ['monitor', 'strace', 'cold'] as const) {
      for (const on of ['1', 'true', 'TRUE', ' yes ', 'on']) expect(readRun(`#${key}=${encodeURIComponent(on)}`)[key]).toBe(true);
      for (const off of ['0', 'false', 'no', 'Off']) expect(readRun(`#${key}=${off}`)[key]).toBe(false);
      for (const bad of ['', '2', 'maybe', '%E0%A4%A']) expect(readRun(`#${key}=${bad}`)[key]).toBe(false);
    }
    expect(readRun('#monitor=1')).toMatchObject({ monitor: true, strace: false });
    expect(readRun('#strace=1')).toMatchObject({ monitor: false, strace: true });
    expect(readRun('#engine=RAW').engine).toBe('raw');
    expect(readRun('#engine=netcat').engine).toBe('ioredis');
    expect(readRun('#engine=').engine).toBe('ioredis');
  });

  it('opens links made before MONITOR and strace were apart: serverTrace=1 means both', () => {
    expect(readRun('#serverTrace=1')).toMatchObject({ monitor: true, strace: true });
    expect(readRun('#serverTrace=0')).toMatchObject({ monitor: false, strace: false });
    // A probe named on its own wins over the old switch.
    expect(readRun('#serverTrace=1&strace=0')).toMatchObject({ monitor: true, strace: false });
    expect(writeRun(readRun('#serverTrace=1'))).toMatch(/&monitor=1&strace=1$/);
  });

  it('reads the repeats within 1–40, or until-certain, falling back to until-certain', () => {
    expect(readRun('#repeats=1').repeats).toBe(1);
    expect(readRun('#repeats=40').repeats).toBe(40);
    expect(readRun('#repeats=5').repeats).toBe(5);
    expect(readRun('#repeats=Until-Certain').repeats).toBe('until-certain');
    for (const bad of ['0', '41', '2.5', '-3', '', 'five', '1e1', 'until']) expect(readRun(`#repeats=${bad}`).repeats).toBe('until-certain');
    expect(writeRun({ ...DEFAULT_RUN_LINK, repeats: 20 })).toMatch(/&repeats=20$/);
    expect(writeRun({ ...DEFAULT_RUN_LINK, repeats: 'until-certain' })).not.toMatch(/repeats/);
  });

  it('takes the repeats chosen in the form into the link, "until certain" or a count', () => {
    const form = runFormOf(DEFAULT_RUN_LINK);
    expect(form.repeats).toBe('until-certain');
    expect(runLinkOf({ ...form, repeats: '15' }, 'shared', DEFAULT_RUN_LINK).repeats).toBe(15);
    expect(runLinkOf({ ...form, repeats: 'until-certain' }, 'shared', { ...DEFAULT_RUN_LINK, repeats: 15 }).repeats).toBe('until-certain');
    // Not a choice the form offers: the last good value stays.
    expect(runLinkOf({ ...form, repeats: '99' }, 'shared', { ...DEFAULT_RUN_LINK, repeats: 20 }).repeats).toBe(20);
  });

  it('keeps the usual link short: probes, cold, repeats and engine only when not the defaults', () => {
    expect(writeRun(DEFAULT_RUN_LINK)).not.toMatch(/serverTrace|monitor|strace|cold|repeats|engine/);
    expect(writeRun({ ...DEFAULT_RUN_LINK, monitor: true, strace: true, cold: true, repeats: 3, engine: 'raw' })).toMatch(
      /&monitor=1&strace=1&cold=1&repeats=3&engine=raw$/,
    );
  });

  it('reads the comparisons and the chunk size, tolerantly', () => {
    expect(readRun('#mode=pipeline-vs-chunked&chunk=10000')).toMatchObject({ mode: 'pipeline-vs-chunked', chunk: 10_000 });
    expect(readRun('#mode=ALL&chunk=7')).toMatchObject({ mode: 'all', chunk: 7 });
    expect(readRun('#mode=chunked&chunk=1000')).toMatchObject({ mode: 'chunked', chunk: 1000 });
    for (const bad of ['0', '-5', '1.5', '1e3', '1000001', '', 'ten']) expect(readRun(`#chunk=${bad}`).chunk).toBe(DEFAULT_RUN_LINK.chunk);
    expect(readRun('#mode=both').mode).toBe('both'); // links made before chunked mode still open the same form
  });

  it('round-trips the chunk size; the link carries it when the mode has chunks or it was changed', () => {
    const chunked = { ...DEFAULT_RUN_LINK, command: 'SET' as const, n: 1_000_000, valueBytes: 100, mode: 'pipeline-vs-chunked' as const, chunk: 10_000 };
    expect(writeRun(chunked)).toBe('#command=SET&n=1000000&valueBytes=100&mode=pipeline-vs-chunked&chunk=10000&scale=shared');
    expect(readRun(writeRun(chunked))).toEqual(chunked);
    const changed = { ...DEFAULT_RUN_LINK, mode: 'pipeline' as const, chunk: 250 };
    expect(readRun(writeRun(changed))).toEqual(changed);
    expect(writeRun(DEFAULT_RUN_LINK)).not.toMatch(/chunk/);
  });
});

describe('the batching, planted-error and neighbour fields', () => {
  it('reads a custom list of modes, tolerantly: unknown names and repeats dropped, in the modes\' own order', () => {
    expect(readRun('#mode=custom&modes=eval,multi,MULTI,bogus,pipeline')).toMatchObject({ mode: 'custom', modes: ['pipeline', 'multi', 'eval'] });
    expect(readRun('#mode=custom&modes=bogus,,').modes).toEqual(DEFAULT_RUN_LINK.modes);
    expect(readRun('#mode=multikey').mode).toBe('multikey');
  });

  it('reads a planted error, a chunk pause, a neighbour and the held-connection probe', () => {
    expect(readRun('#command=INCR&errorAt=4&errorKind=Queueing&chunkPauseMs=2.5&neighborRate=6000&neighborCommand=get&heldConnection=1&memory=1')).toMatchObject({
      errorAt: 4, errorKind: 'queueing', chunkPauseMs: 2.5, neighborRate: 6000, neighborCommand: 'GET', heldConnection: true, memory: true,
    });
  });

  it('drops bad values of the new fields to their defaults', () => {
    for (const bad of ['-1', '1.5', 'x', '', '1000000']) expect(readRun(`#errorAt=${bad}`).errorAt).toBeNull();
    expect(readRun('#errorKind=boom').errorKind).toBe('runtime');
    expect(readRun('#chunkPauseMs=5000').chunkPauseMs).toBe(0);
    expect(readRun('#neighborRate=99999').neighborRate).toBe(0);
    expect(readRun('#neighborCommand=DEL').neighborCommand).toBe('INCR');
    expect(readRun('#heldConnection=maybe').heldConnection).toBe(false);
    expect(readRun('#memory=maybe').memory).toBe(false);
  });

  it('round-trips them, and leaves them out of the link when they are the defaults', () => {
    const p = {
      ...DEFAULT_RUN_LINK, mode: 'custom' as const, modes: ['pipeline', 'chunked', 'multi', 'eval'] as const, chunk: 5, chunkPauseMs: 3, errorAt: 4,
      errorKind: 'queueing' as const, neighborRate: 100, neighborCommand: 'GET' as const, heldConnection: true, memory: true,
    };
    const params = { ...p, modes: [...p.modes] };
    expect(readRun(writeRun(params))).toEqual(params);
    expect(writeRun(DEFAULT_RUN_LINK)).not.toMatch(/modes|chunkPauseMs|errorAt|errorKind|neighbor|heldConnection|memory/);
    expect(writeRun({ ...DEFAULT_RUN_LINK, errorAt: 0 })).toMatch(/errorAt=0&errorKind=runtime/);
  });

  it('reshard=1 asks for a slot moved during the run; the form gets it, and its run spec asks for it', () => {
    expect(readRun('#command=GET&engine=raw&reshard=1').reshard).toBe(true);
    expect(readRun('#reshard=maybe').reshard).toBe(false);
    const p = { ...DEFAULT_RUN_LINK, command: 'GET' as const, engine: 'raw' as const, reshard: true };
    expect(writeRun(p)).toMatch(/reshard=1/);
    expect(readRun(writeRun(p))).toEqual(p);
    expect(writeRun(DEFAULT_RUN_LINK)).not.toMatch(/reshard/);
    const form = runFormOf(p);
    expect(form.reshard).toBe(true);
    expect(runLinkOf(form, DEFAULT_RUN_LINK.scale, DEFAULT_RUN_LINK).reshard).toBe(true);
    const result = validateRunForm(form);
    expect(result.ok && result.spec.reshard).toBe(true);
    expect(validateRunForm({ ...form, command: 'INCR' })).toMatchObject({ ok: false, errors: { reshard: expect.stringMatching(/needs GET .* or SET/) } });
    const plain = validateRunForm(runFormOf(DEFAULT_RUN_LINK));
    expect(plain.ok && !('reshard' in plain.spec)).toBe(true);
  });
});

describe('the Redis picked (target=)', () => {
  it('reads single or cluster in any case, junk as the backend’s own; written only when picked', () => {
    expect(parseRunLink({ target: 'cluster' }).target).toBe('cluster');
    expect(parseRunLink({ target: ' Single ' }).target).toBe('single');
    expect(parseRunLink({ target: 'mars' }).target).toBeNull();
    expect(parseRunLink({}).target).toBeNull();
    expect(runLinkEntries(DEFAULT_RUN_LINK).some(([key]) => key === 'target')).toBe(false);
    expect(runLinkEntries({ ...DEFAULT_RUN_LINK, target: 'cluster' }).at(-1)).toEqual(['target', 'cluster']);
  });
});
