import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import type { Memory, TraceDocument } from '../../../trace/format/trace-format.ts';
import { runGroups } from '../model/run-groups.ts';
import { repeatsOf } from '../test-support/repeat-fixtures.ts';
import { chunkedTrace, header, memorySamples, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { comparisonHeadlines as headlinesOfGroups } from './comparison-headline.ts';

/** The headlines of the traces on screen, grouped as the results view groups them. */
const comparisonHeadlines = (docs: TraceDocument[]) => headlinesOfGroups(runGroups(docs));

const MiB = 1024 * 1024;

/** n PINGs in one pipeline: one write at 10 µs, all replies at replyUs. */
function onePipeline(n: number, replyUs: number, memory: Memory | null = null): TraceDocument {
  const b = new TraceBuilder(header('pipeline', n, 'PING'));
  b.addWrite({ atUs: 10, bytes: 14 * n, commands: n });
  b.addRead({ atUs: replyUs, bytes: 7 * n, replies: n });
  for (let i = 0; i < n; i++) b.addOutcome({ reply: 'PONG' });
  return b.finish({ reads: 1, writes: 1, execUs: n, source: 'redis-info', exclusive: true }, { memory });
}

describe('comparisonHeadlines', () => {
  it('one run each: the times, and no verdict from a single pair', () => {
    // 10 chunks of 100: each 100 µs + 20 µs → the last reply at 10 + 9 × 120 + 100 = 1,190 µs.
    const chunks = chunkedTrace(1000, 100);
    expect(comparisonHeadlines([onePipeline(1000, 2380), chunks])).toEqual([
      { kind: 'time', text: '1,000 × PING: one pipeline 2.38 ms, chunks of 100 1.19 ms — too few pairs for a verdict (one pair; a 95 % interval needs at least 6), measured at the client socket.' },
    ]);
  });

  it('sequential vs one pipeline: for like-for-like runs only', () => {
    const seq = sequentialTrace(10, 100, 20);
    const pipe = pipelineTrace(10, 10, 10, 120);
    expect(comparisonHeadlines([seq, pipe])[0]?.text).toBe(
      '10 × INCR: sequential 1.19 ms, one pipeline 120 µs — too few pairs for a verdict (one pair; a 95 % interval needs at least 6), measured at the client socket.',
    );
    expect(comparisonHeadlines([seq])[0]?.text).toBeUndefined();
    expect(comparisonHeadlines([seq, pipelineTrace(11)])[0]?.text).toBeUndefined();
  });

  it('all three: sequential vs one pipeline, then one pipeline vs chunks', () => {
    const lines = comparisonHeadlines([
      ...repeatsOf(sequentialTrace(10, 100, 20, 'PING'), [1190, 1200, 1180, 1210, 1195, 1185]),
      ...repeatsOf(onePipeline(10, 120), [120, 125, 118, 130, 122, 119]),
      ...repeatsOf(chunkedTrace(10, 5), [230, 240, 235, 228, 250, 231]),
    ]);
    expect(lines.map((l) => l.text)).toEqual([
      '10 × PING: sequential 1.19 ms [1.18–1.21 ms], one pipeline 121 µs [118–130 µs] — the pipeline 9.9× faster [95 % 9.3–10×], faster in 6 of 6 pairs, measured at the client socket.',
      '10 × PING: one pipeline 121 µs [118–130 µs], chunks of 5 233 µs [228–250 µs] — the pipeline 1.93× faster [95 % 1.75–2.0×], faster in 6 of 6 pairs, measured at the client socket.',
    ]);
  });

  it('sets peak memory side by side when the runs sampled it, each figure with its source', () => {
    const big = memorySamples([0, 10_000, 20_000], [500, 10_500], 100 * MiB);
    const small = memorySamples([0, 10_000, 20_000], [500], MiB);
    const lines = comparisonHeadlines([onePipeline(1000, 30_000, big), chunkedTrace(1000, 100, 100, 20, 'PING', small)]);
    expect(lines[1]).toEqual({
      kind: 'memory',
      text:
        'Peak memory, one pipeline vs chunks of 100 — client heap 210 MiB vs 12 MiB (Node process.memoryUsage); ' +
        'Redis: the run\'s connection 21 KiB vs 20 KiB (CLIENT LIST tot-mem), used_memory 1 MiB vs 1 MiB (INFO memory).',
    });
    // Without memory on one side there is nothing to set beside it.
    expect(comparisonHeadlines([onePipeline(1000, 30_000, big), chunkedTrace(1000, 100)])).toHaveLength(1);
  });

  it('a memory repeat is left out of the time line, and is what the memory line reads', () => {
    const big = memorySamples([0, 10_000, 20_000], [500, 10_500], 100 * MiB);
    const small = memorySamples([0, 10_000, 20_000], [500], MiB);
    const asMemoryRepeat = (doc: TraceDocument): TraceDocument => ({ ...doc, run: { ...doc.run, id: `${doc.run.id}-memory`, probes: { ...doc.run.probes, memory: true }, memoryRepeat: true } });
    // Timed: the pipeline 2.38 ms against the chunks' 1.19 ms; the memory repeats, slowed by their sampler, 9 ms against 30 ms.
    const lines = comparisonHeadlines([
      onePipeline(1000, 2380), chunkedTrace(1000, 100),
      asMemoryRepeat(onePipeline(1000, 30_000, big)), asMemoryRepeat(chunkedTrace(1000, 100, 900, 20, 'PING', small)),
    ]);
    expect(lines.map((l) => l.kind)).toEqual(['time', 'memory']);
    // One timed pair (the memory repeats are not paired): the two times, and no verdict.
    expect(lines[0]!.text).toBe('1,000 × PING: one pipeline 2.38 ms, chunks of 100 1.19 ms — too few pairs for a verdict (one pair; a 95 % interval needs at least 6), measured at the client socket.');
    expect(lines[1]!.text).toMatch(/^Peak memory, one pipeline vs chunks of 100 — client heap 210 MiB vs 12 MiB/);
  });

  it('compares like for like only', () => {
    expect(comparisonHeadlines([onePipeline(1000, 100), chunkedTrace(999, 100)])).toEqual([]);
    expect(comparisonHeadlines([chunkedTrace(10, 5)])).toEqual([]);
    expect(comparisonHeadlines([])).toEqual([]);
  });
});

describe('comparisonHeadlines over repeats: the paired verdict', () => {
  const seq = sequentialTrace(10, 100, 20);
  const pipe = pipelineTrace(10, 10, 10, 120);
  const seqTimes = [1190, 1100, 1420, 1250, 1150, 1200, 1300, 1210, 1180, 1170];
  const pipeTimes = [120, 95, 160, 130, 110, 100, 125, 140, 90, 115];

  it('states the median per-pair ratio with its 95 % interval and the pairs won, each side as median [min–max]', () => {
    // Ratios per round: 9.9, 11.6, 8.9, 9.6, 10.5, 12, 10.4, 8.6, 13.1, 10.2 → sorted, d = 2 for 10 pairs: [8.9, 12].
    const docs = [...repeatsOf(seq, seqTimes), ...repeatsOf(pipe, pipeTimes)];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential 1.2 ms [1.1–1.42 ms], one pipeline 118 µs [90–160 µs] — the pipeline 10× faster [95 % 8.9–12×], faster in 10 of 10 pairs, measured at the client socket.',
    );
  });

  it('pairs repeats by round, not by rank: a pipeline run preempted in one round loses that pair only', () => {
    const times = [...pipeTimes];
    times[3] = 5000;
    const docs = [...repeatsOf(seq, seqTimes), ...repeatsOf(pipe, times)];
    expect(comparisonHeadlines(docs)[0]?.text).toMatch(/— the pipeline \d+× faster \[95 % [\d.]+–[\d.]+×\], faster in 9 of 10 pairs,/);
  });

  it('says "within noise" only when the interval includes 1, with the interval', () => {
    const docs = [...repeatsOf(seq, [1000, 900, 1300, 800, 1100, 950]), ...repeatsOf(pipe, [800, 1250, 700, 900, 1000, 990])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential 975 µs [800 µs–1.3 ms], one pipeline 945 µs [700 µs–1.25 ms] — within noise: the 95 % interval of sequential ÷ the pipeline, 0.72–1.86×, includes 1 (6 pairs), measured at the client socket.',
    );
  });

  it('a faster sequential side is named as such, with its own factor and interval', () => {
    const docs = [...repeatsOf(seq, [500, 510, 520, 505, 515, 530]), ...repeatsOf(pipe, [900, 950, 1000, 940, 960, 990])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential 513 µs [500–530 µs], one pipeline 955 µs [900 µs–1 ms] — sequential 1.86× faster [95 % 1.80–1.92×], faster in 6 of 6 pairs, measured at the client socket.',
    );
  });

  it('reads until-certain requests at their checkpoints and says where they were certain', () => {
    const plan = (d: TraceDocument): TraceDocument => ({ ...d, run: { ...d.run, round: { position: 0, plan: 'until-certain' } } });
    const docs = [...repeatsOf(seq, seqTimes).map(plan), ...repeatsOf(pipe, pipeTimes).map(plan)];
    expect(comparisonHeadlines(docs)[0]?.text).toMatch(/— the pipeline 10× faster \[95 % 8\.9–12×\], faster in 10 of 10 pairs \(until certain: certain at the 10-pair check\), measured at the client socket\.$/);
  });

  it('while a request is still running, pairs only the rounds both sides have', () => {
    const docs = [...repeatsOf(seq, [1190, 1100]), ...repeatsOf(pipe, [120])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential 1.15 ms [1.1–1.19 ms], one pipeline 120 µs — too few pairs for a verdict (one pair; a 95 % interval needs at least 6), measured at the client socket.',
    );
  });

  it('takes the median of the repeats’ memory peaks', () => {
    const big = (heapStep: number) => onePipeline(1000, 30_000, memorySamples([0, 10_000, 20_000], [500], heapStep));
    const chunks = chunkedTrace(1000, 100, 100, 20, 'PING', memorySamples([0, 10_000, 20_000], [500], MiB));
    const docs = [...repeatsOf(big(100 * MiB), [30_000]), ...repeatsOf(big(50 * MiB), [30_000]).map((d) => ({ ...d, run: { ...d.run, id: 'p1', repeat: 1 } }))];
    const lines = comparisonHeadlines([...docs, chunks]);
    expect(lines[1]?.text).toMatch(/^Peak memory \(medians over the repeats\), one pipeline vs chunks of 100 — client heap 160 MiB vs 12 MiB/);
  });
});
