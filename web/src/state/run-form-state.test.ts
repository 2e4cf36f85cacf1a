import { describe, expect, it } from 'vitest';
import { modeRefusal, validateRunForm, type RunFormState } from './run-form-state.ts';

const form = (patch: Partial<RunFormState>): RunFormState => ({
  command: 'INCR', n: '10', valueBytes: '16', mode: 'both', chunk: '10000', rttMs: '0', jitterMs: '0', monitor: false, strace: false, cold: false, repeats: '5',
  engine: 'ioredis', modes: ['sequential', 'pipeline'], chunkPauseMs: '0', plantError: false, errorAt: '4', errorKind: 'runtime', neighborRate: '0',
  neighborCommand: 'INCR', heldConnection: false, memory: false, clusterKeys: 'spread', clusterSplit: 'parallel', ...patch,
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

  it('asks for a cold connection and 1–40 rounds or until certain, the bounds shown next to the field', () => {
    expect(validateRunForm(form({}))).toMatchObject({ ok: true, spec: { cold: false, repeats: 5, kernelTcp: true } });
    expect(validateRunForm(form({ repeats: 'until-certain' }))).toMatchObject({ ok: true, spec: { repeats: 'until-certain' } });
    expect(validateRunForm(form({ cold: true, repeats: '1' }))).toMatchObject({ ok: true, spec: { cold: true, repeats: 1 } });
    expect(validateRunForm(form({ repeats: '40' }))).toMatchObject({ ok: true, spec: { repeats: 40 } });
    expect(validateRunForm(form({ repeats: '0' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be at least 1' } });
    expect(validateRunForm(form({ repeats: '41' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be at most 40' } });
    expect(validateRunForm(form({ repeats: '2.5' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be a whole number from 1 to 40, or "until-certain"' } });
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

describe('the batching fields', () => {
  it('asks for the modes ticked one by one, in the modes\' own order', () => {
    expect(validateRunForm(form({ mode: 'custom', modes: ['eval', 'pipeline', 'multi'] }))).toMatchObject({ ok: true, spec: { modes: ['pipeline', 'multi', 'eval'] } });
    expect(validateRunForm(form({ mode: 'custom', modes: [] }))).toEqual({ ok: false, errors: { modes: 'choose at least one mode' } });
    expect(validateRunForm(form({ mode: 'multi' }))).toMatchObject({ ok: true, spec: { modes: ['multi'] } });
  });

  it('shows the server\'s refusals of combinations', () => {
    expect(validateRunForm(form({ mode: 'multikey' }))).toMatchObject({ ok: false, errors: { modes: expect.stringMatching(/^multikey needs SET/) } });
    expect(validateRunForm(form({ mode: 'multikey', command: 'SET' })).ok).toBe(true);
    expect(validateRunForm(form({ command: 'GET-COMPUTE-SET', mode: 'both' }))).toMatchObject({ ok: false, errors: { modes: expect.stringMatching(/^GET-COMPUTE-SET needs/) } });
    expect(validateRunForm(form({ command: 'GET-COMPUTE-SET', mode: 'custom', modes: ['sequential', 'eval'] }))).toMatchObject({ ok: true, spec: { valueBytes: 16 } });
    expect(validateRunForm(form({ mode: 'auto', engine: 'raw' }))).toMatchObject({ ok: false, errors: { modes: expect.stringMatching(/^auto-pipelining/) } });
    expect(validateRunForm(form({ mode: 'auto', engine: 'node-redis' })).ok).toBe(true);
  });

  it('says beforehand which modes a command or engine rules out', () => {
    expect(modeRefusal('multikey', 'INCR', 'ioredis')).toMatch(/SET .* GET/);
    expect(modeRefusal('multikey', 'GET', 'ioredis')).toBeNull();
    expect(modeRefusal('pipeline', 'GET-COMPUTE-SET', 'ioredis')).toMatch(/sequential or eval/);
    expect(modeRefusal('eval', 'GET-COMPUTE-SET', 'ioredis')).toBeNull();
    expect(modeRefusal('auto', 'INCR', 'raw')).toMatch(/raw socket/);
    expect(modeRefusal('auto', 'INCR', 'node-redis')).toBeNull();
  });

  it('plants an error only when asked, and refuses it off INCR or beyond n', () => {
    expect(validateRunForm(form({}))).toMatchObject({ ok: true, spec: { errorKind: 'runtime' } });
    expect(validateRunForm(form({})).ok && 'errorAt' in (validateRunForm(form({})) as { spec: object }).spec).toBe(false);
    expect(validateRunForm(form({ plantError: true, errorAt: '4', errorKind: 'queueing', mode: 'multi' }))).toMatchObject({
      ok: true, spec: { errorAt: 4, errorKind: 'queueing', modes: ['multi'] },
    });
    expect(validateRunForm(form({ plantError: true, errorAt: '10' }))).toEqual({ ok: false, errors: { errorAt: 'errorAt counts operations from 0: it must be less than n' } });
    expect(validateRunForm(form({ plantError: true, command: 'PING' }))).toEqual({ ok: false, errors: { errorAt: 'errorAt plants a failing INCR: it needs command INCR' } });
    expect(validateRunForm(form({ plantError: true, errorKind: 'queueing', mode: 'eval' }))).toMatchObject({ ok: false, errors: { errorKind: expect.stringMatching(/choose runtime/) } });
  });

  it('sends the chunk pause with chunked runs only, and the neighbour and held-connection fields', () => {
    expect(validateRunForm(form({ mode: 'chunked', chunk: '5', chunkPauseMs: '2' }))).toMatchObject({ ok: true, spec: { chunk: 5, chunkPauseMs: 2 } });
    expect(validateRunForm(form({ mode: 'chunked', chunk: '5', chunkPauseMs: '5000' }))).toEqual({ ok: false, errors: { chunkPauseMs: 'chunkPauseMs must be at most 1000' } });
    expect(validateRunForm(form({ chunkPauseMs: 'junk' })).ok).toBe(true); // not a chunked run: not sent
    expect(validateRunForm(form({ neighborRate: '6000', neighborCommand: 'GET', heldConnection: true }))).toMatchObject({
      ok: true, spec: { neighborRate: 6000, neighborCommand: 'GET', heldConnection: true },
    });
    expect(validateRunForm(form({ neighborRate: '50000' }))).toEqual({ ok: false, errors: { neighborRate: 'neighborRate must be at most 20,000 per second' } });
  });
});

describe('memory sampling', () => {
  it('ticked: the request asks for it; unticked: the request decides (memorySampled)', () => {
    expect(validateRunForm(form({ memory: true }))).toMatchObject({ ok: true, spec: { memory: true } });
    const unticked = validateRunForm(form({}));
    expect(unticked.ok && 'memory' in unticked.spec).toBe(false);
  });
});
