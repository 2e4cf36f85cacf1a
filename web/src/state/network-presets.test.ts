import { describe, expect, it } from 'vitest';
import { NETWORK_PRESETS, applyPreset, currentPreset } from './network-presets.ts';
import { validateRunForm, type RunFormState } from './run-form-state.ts';

const form: RunFormState = { command: 'INCR', n: '10', valueBytes: '16', mode: 'both', rttMs: '0', jitterMs: '0', serverTrace: false, engine: 'ioredis' };
const preset = (id: string) => NETWORK_PRESETS.find((p) => p.id === id)!;

describe('presets', () => {
  it('the netcat preset asks for PING ×3, pipelined, on the raw socket, server-traced, direct', () => {
    const applied = applyPreset(form, preset('netcat'));
    expect(validateRunForm(applied)).toMatchObject({
      ok: true,
      spec: { command: 'PING', n: 3, modes: ['pipeline'], engine: 'raw', serverTrace: true, rttMs: 0, jitterMs: 0 },
    });
    expect(currentPreset(applied)?.id).toBe('netcat');
  });

  it('a network preset runs both modes on ioredis and keeps the user’s server-trace choice', () => {
    const netcat = applyPreset(form, preset('netcat'));
    const lan = applyPreset(netcat, preset('lan'));
    expect(lan).toMatchObject({ mode: 'both', engine: 'ioredis', serverTrace: true, rttMs: '0.5', command: 'PING', n: '200' });
    expect(currentPreset(lan)?.id).toBe('lan');
    expect(currentPreset({ ...lan, n: '201' })).toBeUndefined();
  });
});
