import { describe, expect, it } from 'vitest';
import { CLUSTER_ONLY, NETWORK_PRESETS, applyPreset, currentPreset } from './network-presets.ts';
import { validateRunForm, type RunFormState } from './run-form-state.ts';
import { memorySampled } from '../../../trace/format/run-request.ts';

const form: RunFormState = { command: 'INCR', n: '10', valueBytes: '16', mode: 'both', chunk: '10000', rttMs: '0', jitterMs: '0', monitor: false, strace: false, cold: false,
  repeats: '5', engine: 'ioredis', modes: ['sequential', 'pipeline'], chunkPauseMs: '0', plantError: false, errorAt: '4', errorKind: 'runtime', neighborRate: '0',
  neighborCommand: 'INCR', heldConnection: false, memory: false, clusterKeys: 'spread', clusterSplit: 'parallel' };
const preset = (id: string) => NETWORK_PRESETS.find((p) => p.id === id)!;

describe('presets', () => {
  it('the netcat preset asks for PING ×3, pipelined, on the raw socket, server-traced, direct', () => {
    const applied = applyPreset(form, preset('netcat'));
    expect(validateRunForm(applied)).toMatchObject({
      ok: true,
      spec: { command: 'PING', n: 3, modes: ['pipeline'], engine: 'raw', monitor: true, strace: true, rttMs: 0, jitterMs: 0 },
    });
    expect(currentPreset(applied)?.id).toBe('netcat');
  });

  it('a network preset runs both modes on ioredis and keeps the user’s probes, cold switch and repeats', () => {
    const netcat = applyPreset(form, preset('netcat'));
    const lan = applyPreset(netcat, preset('lan'));
    expect(lan).toMatchObject({ mode: 'both', engine: 'ioredis', monitor: true, strace: true, rttMs: '0.5', command: 'PING', n: '200' });
    expect(applyPreset({ ...form, monitor: true, cold: true, repeats: '3' }, preset('lan'))).toMatchObject({ monitor: true, strace: false, cold: true, repeats: '3' });
    expect(currentPreset(lan)?.id).toBe('lan');
    expect(currentPreset({ ...lan, n: '201' })).toBeUndefined();
  });

  it('the docs’ advice: 1,000,000 SETs of 100 B, one pipeline vs chunks of 10,000, direct, ioredis, not server-traced', () => {
    const traced = { ...form, monitor: true, strace: true, engine: 'raw' as const, chunk: '7' };
    const applied = applyPreset(traced, preset('chunks'));
    expect(validateRunForm(applied)).toMatchObject({
      ok: true,
      spec: {
        command: 'SET', n: 1_000_000, valueBytes: 100, modes: ['pipeline', 'chunked'], chunk: 10_000, engine: 'ioredis', rttMs: 0, jitterMs: 0,
        monitor: false, strace: false,
      },
    });
    const validated = validateRunForm(applied);
    expect(validated.ok && memorySampled(validated.spec)).toBe(true); // a million SETs and chunks: memory sampled
    expect(preset('chunks').label).toBe('1,000,000 SETs (100 B): one pipeline vs chunks of 10,000');
    expect(currentPreset(applied)?.id).toBe('chunks');
    expect(validateRunForm(applyPreset(form, preset('reply-queue')))).toMatchObject({
      ok: true,
      spec: { command: 'GET', n: 100_000, valueBytes: 1000, modes: ['pipeline', 'chunked'], chunk: 10_000, engine: 'ioredis', monitor: false, strace: false },
    });
    // A network preset afterwards keeps the value and chunk sizes the workload preset set.
    expect(applyPreset(applied, preset('lan'))).toMatchObject({ valueBytes: '100', chunk: '10000', mode: 'both' });
  });
});

describe('the batching presets', () => {
  it('the error preset plants a runtime error at operation 4 in a pipeline and in MULTI/EXEC, with MONITOR on', () => {
    const applied = applyPreset({ ...form, plantError: false }, preset('error'));
    expect(applied).toMatchObject({ command: 'INCR', n: '10', mode: 'custom', modes: ['pipeline', 'multi'], plantError: true, errorAt: '4', errorKind: 'runtime', monitor: true });
    expect(validateRunForm(applied)).toMatchObject({ ok: true, spec: { errorAt: 4, modes: ['pipeline', 'multi'] } });
    expect(currentPreset(applied)?.id).toBe('error');
  });

  it('a preset without an error turns a planted one off; every new preset is a valid run', () => {
    expect(applyPreset({ ...form, plantError: true }, preset('loopback')).plantError).toBe(false);
    for (const id of ['four-ways', 'error', 'execabort', 'read-compute-write']) expect(validateRunForm(applyPreset(form, preset(id))).ok).toBe(true);
  });
});

describe('what redis-py’s pipeline() sends', () => {
  it('runs real redis-py through the observing port, pipeline() beside pipeline(transaction=False); it sets no form', () => {
    expect(preset('redis-py').observe).toEqual({ clients: ['redis-py-transaction', 'redis-py-plain'], n: 10 });
    expect(preset('redis-py').label).toBe('What redis-py’s pipeline() sends');
    // Never "on" for a form: it does not set one up.
    expect(currentPreset(applyPreset(form, preset('redis-py')))?.id).not.toBe('redis-py');
    // The explanation names each library's two calls, transaction or not.
    for (const words of ['transaction=True', 'MULTI … EXEC', 'pipeline(transaction=False)', 'multi().exec()', 'multi().execAsPipeline()', 'ioredis pipeline()', 'observing port']) {
      expect(preset('redis-py').lesson).toContain(words);
    }
  });
});

describe('the cluster presets', () => {
  it('set the cluster\'s choices and say they are for a cluster; every other preset puts them back to spread and parallel', () => {
    const split = NETWORK_PRESETS.find((p) => p.id === 'cluster-split')!;
    expect(split).toMatchObject({ cluster: true, engine: 'raw', modes: ['sequential', 'pipeline', 'multi', 'multikey'] });
    const applied = applyPreset({ ...form, clusterKeys: 'hashtag' }, split);
    expect(applied).toMatchObject({ clusterKeys: 'spread', clusterSplit: 'parallel', engine: 'raw', mode: 'custom' });
    expect(validateRunForm(applied).ok).toBe(true);
    expect(currentPreset(applied)?.id).toBe('cluster-split');
    const serial = applyPreset(form, NETWORK_PRESETS.find((p) => p.id === 'cluster-serial')!);
    expect(serial).toMatchObject({ clusterSplit: 'serial', mode: 'pipeline', engine: 'raw' });
    expect(validateRunForm(serial).ok).toBe(true);
    expect(applyPreset(serial, NETWORK_PRESETS.find((p) => p.id === 'loopback')!)).toMatchObject({ clusterKeys: 'spread', clusterSplit: 'parallel' });
    expect(CLUSTER_ONLY).toMatch(/^Only on a Redis Cluster/);
  });
});
