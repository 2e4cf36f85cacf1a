import { describe, expect, it } from 'vitest';
import { validateRunForm, type RunFormState } from './run-form-state.ts';

const form = (patch: Partial<RunFormState>): RunFormState => ({
  command: 'INCR', n: '10', valueBytes: '16', mode: 'both', rttMs: '0', jitterMs: '0', serverTrace: false, engine: 'ioredis', ...patch,
});

describe('validateRunForm', () => {
  it('turns a good form into a run spec, sequential first for both', () => {
    const result = validateRunForm(form({}));
    expect(result).toMatchObject({ ok: true, spec: { command: 'INCR', n: 10, valueBytes: 0, modes: ['sequential', 'pipeline'] } });
  });

  it('sends the value size only for SET and GET', () => {
    expect(validateRunForm(form({ command: 'SET', valueBytes: '64', mode: 'pipeline' }))).toMatchObject({
      ok: true,
      spec: { valueBytes: 64, modes: ['pipeline'] },
    });
    expect(validateRunForm(form({ command: 'PING', valueBytes: 'garbage' })).ok).toBe(true);
  });

  it('asks for added delay through the proxy', () => {
    expect(validateRunForm(form({ rttMs: '250', jitterMs: '5' }))).toMatchObject({ ok: true, spec: { rttMs: 250, jitterMs: 5 } });
    expect(validateRunForm(form({ rttMs: '5000' }))).toEqual({ ok: false, errors: { rttMs: 'rttMs must be at most 1000' } });
  });

  it('shows the schema messages next to the field', () => {
    expect(validateRunForm(form({ n: '0' }))).toEqual({ ok: false, errors: { n: 'n must be at least 1' } });
    expect(validateRunForm(form({ n: '2.5' }))).toEqual({ ok: false, errors: { n: 'n must be a whole number' } });
    expect(validateRunForm(form({ n: '' }))).toMatchObject({ ok: false, errors: { n: expect.any(String) } });
    expect(validateRunForm(form({ n: '2000000' }))).toEqual({ ok: false, errors: { n: 'n must be at most 1,000,000' } });
    expect(validateRunForm(form({ command: 'SET', n: '1000000', valueBytes: '1024' }))).toEqual({
      ok: false,
      errors: { valueBytes: 'n × valueBytes must be at most 256 MiB per run' },
    });
  });

  it('asks for the Redis-side trace and the engine, within the traced-run limit', () => {
    expect(validateRunForm(form({}))).toMatchObject({ ok: true, spec: { serverTrace: false, engine: 'ioredis' } });
    expect(validateRunForm(form({ serverTrace: true, engine: 'raw', command: 'PING', n: '3', mode: 'pipeline' }))).toMatchObject({
      ok: true,
      spec: { serverTrace: true, engine: 'raw', command: 'PING', n: 3, modes: ['pipeline'] },
    });
    expect(validateRunForm(form({ serverTrace: true, n: '100001' }))).toEqual({
      ok: false,
      errors: { n: 'a server-traced run may have at most 100,000 commands' },
    });
    expect(validateRunForm(form({ serverTrace: false, n: '100001' })).ok).toBe(true);
  });
});
