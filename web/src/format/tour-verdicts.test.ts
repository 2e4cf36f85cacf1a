// The tour's verdicts on the tour's own recordings (public/tour/, real runs on a real Redis): every number
// in a verdict is the one the trace holds, and a result that is not the step's gets no verdict.
import { describe, expect, it } from 'vitest';
import { parseDocument, tracesOf } from '../../../trace/format/sweep-io.ts';
import type { SweepDocument } from '../../../trace/format/sweep-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { medianRepeat } from '../../../trace/derive/repeat-stats.ts';
import { seriesOfDocument } from '../model/sweep-series.ts';
import { formatRate, formatUs } from './number-format.ts';
import { TOUR_STEPS, tourStepOf } from './tour-steps.ts';
import {
  atomicityVerdict, clusterVerdict, memoryVerdict, othersBetweenOperations, pingPongVerdict, rateText, rollbackVerdict, rttVerdict, scriptsVerdict, sweepVerdict,
  syscallsVerdict, waitedForPrevious, writtenBeforeFirstReply, type TourResult,
} from './tour-verdicts.ts';

// Every file of public/tour/, as text, by name.
const files: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob('../../../public/tour/*.json', { query: '?raw', import: 'default', eager: true }) as Record<string, string>)
    .map(([path, text]) => [path.split('/').at(-1)!, text]),
);
const manifest = JSON.parse(files['index.json']!) as { steps: Record<string, { files: string[] }> };

function recorded(stepId: string): TourResult {
  const traces: TraceDocument[] = [];
  let sweep: SweepDocument | null = null;
  for (const file of manifest.steps[stepId]!.files) {
    const parsed = parseDocument(files[file]!);
    if (parsed.kind === 'sweep') sweep = parsed.doc;
    else traces.push(...tracesOf(parsed));
  }
  return { traces, sweep };
}
/** A mode's median repeat, as the step shows it. */
const mode = (r: TourResult, m: string) => medianRepeat(r.traces.filter((d) => d.run.mode === m))!;

describe('the tour steps', () => {
  it('each has a recording, and its verdict computes from it', () => {
    for (const step of TOUR_STEPS) {
      expect(manifest.steps[step.id], step.id).toBeDefined();
      expect(step.verdict(recorded(step.id)), step.id).not.toBeNull();
    }
  });

  it('each preset matches its recording: the same command, N and modes', () => {
    for (const step of TOUR_STEPS) {
      const r = recorded(step.id);
      if (step.preset.kind === 'sweep') {
        expect(r.sweep!.sweep.depths).toEqual(step.preset.spec.depths);
        expect([r.sweep!.sweep.perPoint, r.sweep!.sweep.repeats]).toEqual([step.preset.spec.perPoint, step.preset.spec.repeats]);
        continue;
      }
      const { spec } = step.preset;
      expect([...new Set(r.traces.map((d) => d.run.mode))].sort(), step.id).toEqual([...spec.modes].sort());
      // Every round of the request: each mode once per round.
      for (const m of spec.modes) expect(r.traces.filter((d) => d.run.mode === m).map((d) => d.run.repeat), step.id).toEqual(r.traces.filter((d) => d.run.mode === spec.modes[0]).map((d) => d.run.repeat));
      if (spec.repeats === 'until-certain') expect(r.traces.every((d) => d.run.round?.plan === 'until-certain'), step.id).toBe(true);
      for (const d of r.traces) expect([d.run.command, d.run.operations, d.rtt.addedMs], step.id).toEqual([spec.command, spec.n, spec.rttMs]);
    }
  });

  it('reads tour=N tolerantly, 1-based and clamped', () => {
    expect(tourStepOf(null)).toBeNull();
    expect(tourStepOf('x')).toBeNull();
    expect(tourStepOf('1')).toBe(1);
    expect(tourStepOf('0')).toBe(1);
    expect(tourStepOf('99')).toBe(TOUR_STEPS.length);
  });
});

describe('the verdicts', () => {
  it('ping-pong: round trips from the traces, time by the paired verdict over its rounds; the order as the client socket saw it', () => {
    const r = recorded('ping-pong');
    const seq = mode(r, 'sequential');
    const pipe = mode(r, 'pipeline');
    const v = pingPongVerdict(r)!;
    expect(roundTripsWaited(seq)).toBe(10);
    expect(roundTripsWaited(pipe)).toBe(1);
    // Recorded until certain: the pipeline faster with a 95 % interval (the figures are the recording's).
    expect(v.headline).toMatch(/^Measured: 10 round trips vs 1; the pipeline [\d.]+× faster \[95 % [\d.]+–[\d.]+×\]$/);
    expect(v.lines.at(-1)).toMatch(/^Time \(client socket, t0 → last reply\): the pipeline [\d.]+× faster \[95 % [\d.]+–[\d.]+×\], faster in \d+ of \d+ pairs \(until certain: certain at the \d+-pair check\)\.$/);
    // One run each: the two times, and no verdict.
    const once = { traces: [seq, pipe].map((d) => ({ ...d, run: { ...d.run, repeat: 0 } })), sweep: null };
    expect(pingPongVerdict(once)!.headline).toBe(`Measured: 10 round trips vs 1; ${formatUs(seq.totals.durationUs)} vs ${formatUs(pipe.totals.durationUs)}`);
    expect(pingPongVerdict(once)!.lines.at(-1)).toBe('Time (client socket, t0 → last reply): too few pairs for a verdict (one pair; a 95 % interval needs at least 6).');
    expect(waitedForPrevious(seq)).toBe(9);
    expect(writtenBeforeFirstReply(pipe)).toBe(10);
    expect(v.lines[1]).toMatch(/^Pipeline: 10 of 10 were written before the first reply/);
    expect(pingPongVerdict({ traces: [seq], sweep: null })).toBeNull();
  });

  it('RTT: the sequential rate stays under 1000 / RTT; the ceiling comes from the trace’s added RTT', () => {
    const r = recorded('rtt-250');
    const seq = mode(r, 'sequential');
    expect(seq.rtt.addedMs).toBe(250);
    expect(seq.totals.opsPerSec).toBeLessThanOrEqual(4);
    const v = rttVerdict(r)!;
    expect(v.headline).toContain(`sequential ${rateText(seq.totals.opsPerSec)} (at most 4 at 250 ms RTT)`);
    expect(v.headline).toContain(`one pipeline ${rateText(mode(r, 'pipeline').totals.opsPerSec)}`);
    expect(v.lines[1]).toMatch(/delay proxy/);
    expect(rttVerdict(recorded('ping-pong'))).toBeNull(); // no added RTT: not this step's result
  });

  it('syscalls: per-command counts from strace, the client socket and ss', () => {
    const v = syscallsVerdict(recorded('syscalls'))!;
    expect(v.lines[0]).toMatch(/^Sequential, per INCR: 1 client write \(client socket\), 1 Redis read \(read\(\) calls, strace\)/);
    expect(v.lines[0]).toContain('1 TCP data segment out (kernel, ss)');
    expect(v.lines[1]).toMatch(/^Pipeline, per INCR: 0\.1 client write \(client socket\), 0\.1 Redis read \(read\(\) calls, strace\)/);
    expect(v.headline).toBe('Measured per command: 1 Redis read vs 0.1; 1 client write vs 0.1');
  });

  it('sweep: from the lowest depth to the peak, from the sweep’s medians, the factor with its 95 % interval', () => {
    const r = recorded('sweep');
    const ours = seriesOfDocument(r.sweep!).ours;
    const peak = Math.max(...ours.map((p) => p.spread.median));
    const v = sweepVerdict(r)!;
    expect(v.lines[0]).toContain(`from ${formatRate(ours[0]!.spread.median)} at depth 1 to ${formatRate(peak)}`);
    expect(v.headline).toMatch(/^Measured: [\d.]+× \[95 % [\d.]+–[\d.]+×\] the depth-1 throughput at depth \d+$/);
    expect(sweepVerdict({ traces: [], sweep: null })).toBeNull();
  });

  /** The recorded sweep with every run of depth i at rates[i] ops/s, round r scaled by wobble[r]. */
  function shaped(rates: number[], wobble = [1, 1.02, 0.98, 1.01, 0.99, 1]): TourResult {
    const doc = structuredClone(recorded('sweep').sweep!);
    doc.points.forEach((p, i) => p.runs.forEach((run, r) => (run.totals.opsPerSec = rates[i]! * wobble[r % wobble.length]!)));
    return { traces: [], sweep: doc };
  }

  it('sweep: a curve that flattens says from which depth', () => {
    const v = sweepVerdict(shaped([1000, 2000, 4000, 8000, 9000, 9500, 9200, 9400]))!;
    expect(v.headline).toMatch(/^Measured: 9\.5× \[95 % 9\.\d+–9\.\d+×\] the depth-1 throughput at depth 32$/);
    expect(v.lines[1]).toBe('From depth 8 on, every point stayed within 25% of the peak: the curve flattens.');
  });

  it('sweep: a last point near the peak after a dip is not called a plateau', () => {
    expect(sweepVerdict(shaped([1000, 2000, 4000, 9000, 10_000, 5000, 5000, 9000]))!.lines[1]).toBe(
      'Beyond the peak the points scattered between 5,000 ops/s and 9,000 ops/s: no clean plateau this time (a shared machine is noisy; run it again).',
    );
  });

  it('sweep: a curve still rising at its deepest point says so, with figures (never "between — and —")', () => {
    // The peak is the deepest depth and the one before it is below the plateau: no point lies beyond the peak.
    const v = sweepVerdict(shaped([1000, 2000, 4000, 8000, 16_000, 30_000, 50_000, 90_000]))!;
    expect(v.lines[1]).toMatch(/^The deepest depth, 128, had the highest median: the curve had not flattened yet\. From depth 64 to 128: \+\d+(\.\d)? % \[95 % \+[\d.]+ % to \+[\d.]+ %\], higher in 6 of 6 rounds\.$/);
    expect(v.lines.join(' ')).not.toContain('—');
  });

  it('memory: the pipeline’s reply queue on Redis is far larger than the chunks’', () => {
    const v = memoryVerdict(recorded('memory'))!;
    expect(v.headline).toMatch(/^Measured: Redis held up to [\d.]+ MiB for the connection with one pipeline, [\d.,]+ (KiB|MiB) in chunks of 100$/);
  });

  it('atomicity: counts other clients between the first and the last operation, MULTI and EXEC left out', () => {
    const r = recorded('atomicity');
    expect(othersBetweenOperations(mode(r, 'multi'))).toBe(0);
    expect(othersBetweenOperations(mode(r, 'pipeline'))).toBeGreaterThan(0);
    expect(atomicityVerdict(r)!.headline).toMatch(/^Measured: \d+ neighbour commands? ran inside the pipeline, 0 inside MULTI\/EXEC$/);
  });

  it('rollback: the operations after the failing one still ran, in both modes', () => {
    const v = rollbackVerdict(recorded('rollback'))!;
    expect(v.headline).toBe('Measured: operation 5 failed; the operations after it still ran in both — no rollback');
    expect(v.lines[1]).toMatch(/^MULTI\/EXEC: operation 5 failed; operations 6–10 still ran/);
  });

  it('scripts: two round trips per step sequentially, one for the whole EVAL', () => {
    const r = recorded('scripts');
    expect(scriptsVerdict(r)!.headline).toMatch(/^Measured: 20 round trips vs 1; /);
  });
});

describe('the cluster step', () => {
  it('words its recording: the split pipeline\'s one round trip over three nodes, the MSET refused in Redis\'s words and counted by INFO there', () => {
    const v = clusterVerdict(recorded('cluster'))!;
    expect(v.headline).toBe('Measured: the pipeline split over 3 nodes waited 1 round trip; one MSET of the same keys was refused: “CROSSSLOT Keys in request don\'t hash to the same slot”');
    expect(v.lines).toHaveLength(4);
    for (const line of v.lines.slice(0, 3)) expect(line).toMatch(/^127\.0\.0\.1:\d+: \d+ commands in 1 round trip, [\d.]+ (µs|ms) — client socket\.$/);
    expect(v.lines[3]).toMatch(/^One MSET of 30 keys to 127\.0\.0\.1:\d+: “CROSSSLOT Keys in request don't hash to the same slot” — INFO on that node: errorstats CROSSSLOT \+1, rejected calls mset \+1\.$/);
    // A single Redis's run has no cluster: no verdict rather than a wrong one.
    expect(clusterVerdict(recorded('rollback'))).toBeNull();
  });
});
