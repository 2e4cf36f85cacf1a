import { describe, expect, it } from 'vitest';
import { validateRunForm, type RunFormState } from './run-form-state.ts';

const form = (patch: Partial<RunFormState>): RunFormState => ({
  command: 'INCR', n: '10', valueBytes: '16', mode: 'both', chunk: '10000', rttMs: '0', jitterMs: '0', monitor: false, strace: false, cold: false, repeats: '5',
  engine: 'ioredis', ...patch,
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

  it('asks for MONITOR and strace each on its own, and the engine, within the traced-run limit', () => {
    expect(validateRunForm(form({}))).toMatchObject({ ok: true, spec: { serverTrace: false, monitor: false, strace: false, engine: 'ioredis' } });
    expect(validateRunForm(form({ monitor: true, strace: true, engine: 'raw', command: 'PING', n: '3', mode: 'pipeline' }))).toMatchObject({
      ok: true,
      spec: { serverTrace: false, monitor: true, strace: true, engine: 'raw', command: 'PING', n: 3, modes: ['pipeline'] },
    });
    expect(validateRunForm(form({ monitor: true }))).toMatchObject({ ok: true, spec: { monitor: true, strace: false } });
    expect(validateRunForm(form({ strace: true }))).toMatchObject({ ok: true, spec: { monitor: false, strace: true } });
    for (const probe of [{ monitor: true }, { strace: true }]) {
      expect(validateRunForm(form({ ...probe, n: '100001' }))).toEqual({
        ok: false,
        errors: { n: 'a server-traced run may have at most 100,000 commands' },
      });
    }
    expect(validateRunForm(form({ n: '100001' })).ok).toBe(true);
  });

  it('asks for a cold connection and 1–20 repeats, the bounds shown next to the field', () => {
    expect(validateRunForm(form({}))).toMatchObject({ ok: true, spec: { cold: false, repeats: 5, kernelTcp: true } });
    expect(validateRunForm(form({ cold: true, repeats: '1' }))).toMatchObject({ ok: true, spec: { cold: true, repeats: 1 } });
    expect(validateRunForm(form({ repeats: '20' }))).toMatchObject({ ok: true, spec: { repeats: 20 } });
    expect(validateRunForm(form({ repeats: '0' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be at least 1' } });
    expect(validateRunForm(form({ repeats: '21' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be at most 20' } });
    expect(validateRunForm(form({ repeats: '2.5' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be a whole number' } });
    expect(validateRunForm(form({ repeats: '' }))).toMatchObject({ ok: false, errors: { repeats: expect.any(String) } });
  });

  it('asks for every mode and comparison, with the chunk size only when a chunked run is asked for', () => {
    expect(validateRunForm(form({ mode: 'sequential' }))).toMatchObject({ ok: true, spec: { modes: ['sequential'] } });
    expect(validateRunForm(form({ mode: 'pipeline' }))).toMatchObject({ ok: true, spec: { modes: ['pipeline'] } });
    const pipelineOnly = validateRunForm(form({ mode: 'both', chunk: 'garbage' }));
    expect(pipelineOnly.ok && pipelineOnly.spec.chunk).toBe(undefined);
    expect(validateRunForm(form({ mode: 'chunked', n: '10000', chunk: '1000' }))).toMatchObject({
      ok: true, spec: { modes: ['chunked'], n: 10_000, chunk: 1000 },
    });
    expect(validateRunForm(form({ mode: 'pipeline-vs-chunked', chunk: '3' }))).toMatchObject({ ok: true, spec: { modes: ['pipeline', 'chunked'], chunk: 3 } });
    expect(validateRunForm(form({ mode: 'all', chunk: '5' }))).toMatchObject({ ok: true, spec: { modes: ['sequential', 'pipeline', 'chunked'], chunk: 5 } });
  });

  it('shows the chunk size’s bounds from the run request next to its field', () => {
    expect(validateRunForm(form({ mode: 'chunked', chunk: '0' }))).toEqual({ ok: false, errors: { chunk: 'chunk must be at least 1' } });
    expect(validateRunForm(form({ mode: 'chunked', chunk: '1.5' }))).toEqual({ ok: false, errors: { chunk: 'chunk must be a whole number' } });
    expect(validateRunForm(form({ mode: 'all', chunk: '' }))).toMatchObject({ ok: false, errors: { chunk: expect.any(String) } });
    expect(validateRunForm(form({ mode: 'chunked', chunk: '1000001' }))).toEqual({ ok: false, errors: { chunk: 'chunk must be at most 1,000,000' } });
  });
});
