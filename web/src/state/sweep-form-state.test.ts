import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_FORM, parseDepthList, validateSweepForm, type SweepFormState } from './sweep-form-state.ts';

const form = (patch: Partial<SweepFormState>): SweepFormState => ({ ...DEFAULT_SWEEP_FORM, ...patch });

describe('validateSweepForm', () => {
  it('turns the powers of two up to the chosen maximum into a spec', () => {
    const result = validateSweepForm(form({ maxDepth: 64, perPoint: '2000', repeats: '2', reference: true }));
    expect(result).toEqual({
      ok: true,
      spec: { command: 'PING', valueBytes: 0, depths: [1, 2, 4, 8, 16, 32, 64], perPoint: 2000, repeats: 2, engine: 'ioredis', rttMs: 0, jitterMs: 0, reference: true },
    });
  });

  it('takes a typed depth list, and a value size for SET and GET only', () => {
    const result = validateSweepForm(form({ command: 'SET', valueBytes: '100', depthsMode: 'list', depthList: '1, 2,4 8;100,1000' }));
    expect(result.ok && result.spec.depths).toEqual([1, 2, 4, 8, 100, 1000]);
    expect(result.ok && result.spec.valueBytes).toBe(100);
    expect(validateSweepForm(form({ command: 'PING', valueBytes: 'junk' })).ok).toBe(true);
  });

  it('shows the shared schema’s messages next to the field they concern', () => {
    expect(validateSweepForm(form({ depthsMode: 'list', depthList: '1,4,2' }))).toEqual({ ok: false, errors: { depths: 'depths must be increasing, each once' } });
    expect(validateSweepForm(form({ maxDepth: 4096, perPoint: '1000' }))).toEqual({
      ok: false,
      errors: { depths: 'the deepest pipeline cannot hold more than perPoint commands' },
    });
    expect(validateSweepForm(form({ repeats: '11' }))).toEqual({ ok: false, errors: { repeats: 'repeats must be at most 10' } });
    expect(validateSweepForm(form({ perPoint: '' }))).toEqual({ ok: false, errors: { perPoint: 'perPoint must be a number' } });
    const slow = validateSweepForm(form({ rttMs: '1000', perPoint: '100000' }));
    expect(slow.ok ? null : slow.errors.rttMs).toMatch(/^at this RTT the sweep would wait more than 10 minutes/);
  });

  it('refuses a depth list token that is not a whole number, with its own message', () => {
    expect(validateSweepForm(form({ depthsMode: 'list', depthList: '1,2,x4' }))).toEqual({
      ok: false,
      errors: { depths: '“x4” is not a whole number; separate depths with commas' },
    });
    expect(validateSweepForm(form({ depthsMode: 'list', depthList: '' }))).toEqual({ ok: false, errors: { depths: 'choose at least one depth' } });
  });
});

describe('parseDepthList', () => {
  it('splits on commas, spaces and semicolons and keeps the order as typed', () => {
    expect(parseDepthList(' 8, 1 ;2,, ')).toEqual({ depths: [8, 1, 2] });
    expect(parseDepthList('1.5')).toEqual({ error: '“1.5” is not a whole number; separate depths with commas' });
  });
});
