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
  it('one pipeline vs chunks: who was faster, by the measured totals', () => {
    // 10 chunks of 100: each 100 µs + 20 µs → the last reply at 10 + 9 × 120 + 100 = 1,190 µs.
    const chunks = chunkedTrace(1000, 100);
    expect(comparisonHeadlines([onePipeline(1000, 2380), chunks])).toEqual([
      { kind: 'time', text: '1,000 × PING: chunks of 100 took 1.19 ms, one pipeline 2.38 ms — the chunks were 2.0× faster (measured at the client socket).' },
    ]);
    expect(comparisonHeadlines([onePipeline(1000, 595), chunks])[0]!.text).toBe(
      '1,000 × PING: one pipeline took 595 µs, chunks of 100 1.19 ms — one pipeline was 2.0× faster (measured at the client socket).',
    );
    expect(comparisonHeadlines([onePipeline(1000, 1200), chunks])[0]!.text).toMatch(/— about the same \(measured at the client socket\)\.$/);
  });

  it('sequential vs one pipeline: the measured factor, for like-for-like runs only', () => {
    const seq = sequentialTrace(10, 100, 20);
    const pipe = pipelineTrace(10, 10, 10, 120);
    expect(comparisonHeadlines([seq, pipe])[0]?.text).toBe(
      '10 × INCR: the pipeline took 120 µs, sequential 1.19 ms — 9.9× faster (measured at the client socket).',
    );
    expect(comparisonHeadlines([seq])[0]?.text).toBeUndefined();
    expect(comparisonHeadlines([seq, pipelineTrace(11)])[0]?.text).toBeUndefined();
  });

  it('all three: sequential vs one pipeline, then one pipeline vs chunks', () => {
    const lines = comparisonHeadlines([sequentialTrace(10, 100, 20, 'PING'), onePipeline(10, 120), chunkedTrace(10, 5)]);
    expect(lines.map((l) => l.text)).toEqual([
      '10 × PING: the pipeline took 120 µs, sequential 1.19 ms — 9.9× faster (measured at the client socket).',
      expect.stringMatching(/^10 × PING: one pipeline took 120 µs, chunks of 5 230 µs — one pipeline was 1\.9× faster/),
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
    expect(lines[0]!.text).toBe('1,000 × PING: chunks of 100 took 1.19 ms, one pipeline 2.38 ms — the chunks were 2.0× faster (measured at the client socket).');
    expect(lines[1]!.text).toMatch(/^Peak memory, one pipeline vs chunks of 100 — client heap 210 MiB vs 12 MiB/);
  });

  it('compares like for like only', () => {
    expect(comparisonHeadlines([onePipeline(1000, 100), chunkedTrace(999, 100)])).toEqual([]);
    expect(comparisonHeadlines([chunkedTrace(10, 5)])).toEqual([]);
    expect(comparisonHeadlines([])).toEqual([]);
  });
});

describe('comparisonHeadlines over repeats', () => {
  const seq = sequentialTrace(10, 100, 20);
  const pipe = pipelineTrace(10, 10, 10, 120);

  it('compares the medians and shows each range, saying how many runs each', () => {
    const docs = [...repeatsOf(seq, [1190, 1100, 1420, 1250, 1150]), ...repeatsOf(pipe, [120, 95, 160, 130, 110])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: the pipeline took 120 µs [95–160 µs], sequential 1.19 ms [1.1–1.42 ms] — 9.9× faster (medians of 5 runs each, measured at the client socket).',
    );
  });

  it('says "within noise" instead of a ratio when the ranges overlap, and shows both', () => {
    const docs = [...repeatsOf(seq, [1000, 900, 1300]), ...repeatsOf(pipe, [800, 1250, 700])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential 1 ms [900 µs–1.3 ms], the pipeline 800 µs [700 µs–1.25 ms] — within noise: the ranges overlap (medians of 3 runs each, measured at the client socket).',
    );
    const chunks = chunkedTrace(10, 5);
    const pipePing = pipelineTrace(10, 10, 10, 120, 'PING');
    expect(comparisonHeadlines([...repeatsOf(pipePing, [200, 260]), ...repeatsOf(chunks, [250, 300])])[0]?.text).toBe(
      '10 × PING: one pipeline 230 µs [200–260 µs], chunks of 5 275 µs [250–300 µs] — within noise: the ranges overlap (medians of 2 runs each, measured at the client socket).',
    );
  });

  it('a slower sequential median is reported as such, without "this time", when the ranges are apart', () => {
    const docs = [...repeatsOf(seq, [500, 510, 520]), ...repeatsOf(pipe, [900, 950, 1000])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: sequential took 510 µs [500–520 µs], the pipeline 950 µs [900 µs–1 ms] — sequential was 1.9× faster (medians of 3 runs each, measured at the client socket).',
    );
  });

  it('while a request is still running, says how many runs each side has so far', () => {
    const docs = [...repeatsOf(seq, [1190, 1100]), ...repeatsOf(pipe, [120])];
    expect(comparisonHeadlines(docs)[0]?.text).toBe(
      '10 × INCR: the pipeline took 120 µs, sequential 1.15 ms [1.1–1.19 ms] — 9.5× faster (medians of 2 and 1 runs, measured at the client socket).',
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
