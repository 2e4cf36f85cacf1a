import { describe, expect, it } from 'vitest';
import { SweepSpecSchema } from '../../../trace/format/sweep-format.ts';
import type { ActiveSweep } from '../model/active-sweep.ts';
import { seriesOfDocument } from '../model/sweep-series.ts';
import { MEASURED_ROUNDS, sweepDocument } from '../test-support/sweep-fixtures.ts';
import { authRelayNote, coarseReferenceNote, formatRateTick, formatRatioTick, formatSpeedUp, sweepHeadline, sweepPlanText, sweepProgressText, sweepProvenance } from './sweep-text.ts';

const spec = SweepSpecSchema.parse({ command: 'PING', depths: [1, 2, 4, 8, 16, 32, 64], perPoint: 2000, repeats: 2, reference: true });
const active = (patch: Partial<ActiveSweep>): ActiveSweep => ({
  requestId: 's', spec, position: 0, cancelling: false, header: null, done: 0, total: 28, last: null, ours: [], reference: [], ...patch,
});

describe('ticks and ratios', () => {
  it('prints rates with k and M, ratios without rounding to zero', () => {
    expect([0, 500, 5_000, 15_000, 1_500_000, 2_000_000].map(formatRateTick)).toEqual(['0', '500', '5k', '15k', '1.5M', '2M']);
    expect([1, 0.1, 0.001, 0.0001, 0.00001].map(formatRatioTick)).toEqual(['1', '0.1', '0.001', '0.0001', '1e−5']);
    expect([1, 13.74, 239.4].map(formatSpeedUp)).toEqual(['1×', '13.7×', '239×']);
  });
});

describe('sweepPlanText', () => {
  it('counts commands and round trips from the inputs, and the added RTT’s cost only when there is one', () => {
    expect(sweepPlanText(spec)).toBe('7 depths × 2 repeats × 2,000 PING = 28,000 commands in 7,940 round trips · then redis-benchmark at each depth');
    expect(sweepPlanText({ ...spec, rttMs: 1, reference: false })).toBe('7 depths × 2 repeats × 2,000 PING = 28,000 commands in 7,940 round trips · at least 7.94 s waiting on the added 1 ms RTT');
    // One of each: no "1 commands", "1 depths", "1 repeats".
    expect(sweepPlanText({ ...spec, depths: [1], repeats: 1, perPoint: 1, reference: false })).toBe('1 depth × 1 repeat × 1 PING = 1 command in 1 round trip');
  });
});

describe('sweepProgressText', () => {
  it('names the run under way, Pipescope’s then redis-benchmark’s', () => {
    expect(sweepProgressText(active({ position: null }))).toBe('sending…');
    expect(sweepProgressText(active({ position: 2 }))).toBe('waiting: 2 requests ahead');
    expect(sweepProgressText(active({ done: 0 }))).toBe('run 1 of 28 · depth 1, repeat 1');
    expect(sweepProgressText(active({ done: 6 }))).toBe('run 7 of 28 · depth 64, repeat 1');
    expect(sweepProgressText(active({ done: 7 }))).toBe('run 8 of 28 · depth 64, repeat 2');
    expect(sweepProgressText(active({ done: 14 }))).toBe('run 15 of 28 · redis-benchmark · depth 1, repeat 1');
    expect(sweepProgressText(active({ done: 28 }))).toBe('finishing · 28 of 28 runs done');
    expect(sweepProgressText(active({ cancelling: true }))).toBe('cancelling…');
  });
});

describe('sweepHeadline', () => {
  it('with three repeats: the medians, and no interval, so no change from the last step is claimed', () => {
    expect(sweepHeadline(seriesOfDocument(sweepDocument()))).toEqual([
      'Depth 64: 14.1× the depth-1 throughput (215,485 ops/s vs 15,294 ops/s, medians; 3 repeats are too few for a 95 % interval (6 or more)).',
      'Its median first reached 10× depth 1 at depth 32; the Redis docs put the plateau at roughly 10×.',
      'From depth 32 to 64: too few repeats to tell a change (3; a 95 % interval needs 6 or more).',
      'redis-benchmark: 772,923 ops/s at depth 64, 54.2× its depth-1 rate.',
    ]);
  });

  it('with six rounds: each ratio with its 95 % interval; a last step inside the noise is said to be noise, not "−x %"', () => {
    const lines = sweepHeadline(seriesOfDocument(sweepDocument([1, 4, 16, 32, 64], 10_000, false, MEASURED_ROUNDS)));
    expect(lines[0]).toBe('Depth 64: 13.4× the depth-1 throughput [95 % 11.3–15.6×] (204,000 ops/s vs 15,200 ops/s, medians of 6 repeats).');
    expect(lines[2]).toBe('From depth 32 to 64: within noise (the 95 % interval of the change, −32.8 % to +22.6 %, includes none).');
    expect(lines.join(' ')).not.toMatch(/From depth 32 to 64: [−+]\d/);
    // A step that is not noise is stated with its interval and the rounds that show it.
    const clear = sweepHeadline(seriesOfDocument(sweepDocument([1, 4, 16], 10_000, false, MEASURED_ROUNDS)));
    expect(clear[2]).toBe('From depth 4 to 16: +229.4 % [95 % +219 % to +236.5 %], higher in 6 of 6 rounds.');
  });

  it('says its highest median when it never reached 10×, and nothing with one depth', () => {
    const lines = sweepHeadline(seriesOfDocument(sweepDocument([1, 2, 4], 100, false)));
    expect(lines[1]).toBe('Its highest median, at depth 4, was 2.2× depth 1; the Redis docs put the plateau at roughly 10×.');
    expect(lines).toHaveLength(3);
    expect(sweepHeadline(seriesOfDocument(sweepDocument([1], 100)))).toEqual([]);
  });
});

describe('sweepProvenance', () => {
  it('says what ran, with what and against which Redis', () => {
    expect(sweepProvenance(sweepDocument())).toBe(
      '10,000 × PING per point, 3 repeats · engine ioredis (ioredis 6.0.0) · pipescope 0.1.0 on node v20.19.0 · Redis 7.0.15 at 127.0.0.1:6390 (private) · no added delay · started 2026-01-02 03:04:05 UTC',
    );
  });
});

describe('coarseReferenceNote', () => {
  it('cautions from the first depth where redis-benchmark ran under 50 ms', () => {
    const doc = sweepDocument([1, 2, 4, 8, 16, 32, 64], 10_000);
    // 10,000 commands at 227,273 ops/s (depth 16) take 44 ms.
    expect(coarseReferenceNote(doc)).toBe(
      'redis-benchmark times whole milliseconds, and from depth 16 on its runs of 10,000 commands took under 50 ms, so its figures there are coarse; give it more commands per point (10,000+).',
    );
    expect(coarseReferenceNote({ ...doc, sweep: { ...doc.sweep, perPoint: 1_000_000 } })).toBeNull();
    expect(coarseReferenceNote({ ...doc, reference: null })).toBeNull();
  });

  it('says where redis-benchmark was given more commands than perPoint, and how many', () => {
    const doc = sweepDocument([1, 2, 4, 8, 16, 32, 64], 10_000);
    const reference = doc.reference!;
    const commands = (depth: number) => (depth >= 16 ? 150_000 + depth * 1000 : 10_000);
    const raised = { ...doc, reference: { ...reference, points: reference.points.map((p) => ({ ...p, commands: commands(p.depth) })) } };
    expect(coarseReferenceNote(raised)).toBe(
      'redis-benchmark times whole milliseconds, so at depths 16, 32, 64 it ran 166,000–214,000 commands per run instead of 10,000, for runs of 100 ms or more; ops/s compare all the same.',
    );
    const everywhere = { ...doc, reference: { ...reference, points: reference.points.map((p) => ({ ...p, commands: 10_000 })) } };
    expect(coarseReferenceNote(everywhere)).toBeNull();
  });
});

describe('authRelayNote', () => {
  it('speaks only when redis-benchmark went through the auth relay', () => {
    const doc = sweepDocument([1, 2], 1000);
    expect(authRelayNote(doc)).toBeNull();
    expect(authRelayNote({ reference: { ...doc.reference!, args: ['-s', '<auth relay>', '-c', '1'] } })).toMatch(/^redis-benchmark reached this Redis through Pipescope's auth relay/);
    expect(authRelayNote({ reference: null })).toBeNull();
  });
});
