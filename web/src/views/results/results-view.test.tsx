import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { repeatsOf } from '../../test-support/repeat-fixtures.ts';
import { chunkedTrace, memorySamples, pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { ResultsView } from './results-view.tsx';
import { useReactHost } from '../../test-support/react-host.ts';


describe('ResultsView with repeats', () => {
  const view = useReactHost();

  const seq = repeatsOf(sequentialTrace(10, 100, 20), [1300, 1100, 1190]);
  const pipe = repeatsOf(pipelineTrace(10, 10, 10, 120), [130, 95, 120]);
  const render = (traces = [seq[0]!, pipe[0]!, seq[1]!, pipe[1]!, seq[2]!, pipe[2]!]) => {
    view.render(<ResultsView traces={traces} source="live" scale="shared" onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={new PlaybackClock()} onExport={() => {}} />);
    act(() => frameScheduler.flush());
  };
  const panels = () => [...view.host.querySelectorAll<HTMLElement>('[data-testid=run-panel]')];

  it('shows one panel per mode, its median repeat, and the median [min–max] of each figure', () => {
    render();
    expect(panels().map((p) => [p.dataset['mode'], p.dataset['repeats'], p.dataset['repeat']])).toEqual([
      ['sequential', '3', '2'],
      ['pipeline', '3', '2'],
    ]);
    const duration = panels()[0]!.querySelector<HTMLElement>('[data-metric=duration]')!;
    expect([duration.dataset['value'], duration.dataset['min'], duration.dataset['max']]).toEqual(['1190', '1100', '1300']);
    expect(duration.textContent).toBe('1.19 ms');
    expect(duration.nextElementSibling?.textContent).toBe('[1.1–1.3 ms]');
    expect(view.host.querySelector('[data-testid=headline-time]')?.textContent).toBe(
      '10 × INCR: sequential 1.19 ms [1.1–1.3 ms], one pipeline 120 µs [95–130 µs] — too few pairs for a verdict (3 pairs; a 95 % interval needs at least 6), measured at the client socket.',
    );
  });

  it('picks another repeat for one panel from its header', () => {
    render();
    const picker = panels()[1]!.querySelector<HTMLSelectElement>('[data-testid=repeat-picker]')!;
    expect([...picker.options].map((o) => o.text)).toEqual(['repeat 1 of 3 · 130 µs', 'repeat 2 of 3 · 95 µs', 'repeat 3 of 3 · 120 µs · median']);
    act(() => {
      picker.value = pipe[1]!.run.id;
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(panels()[1]!.dataset['repeat']).toBe('1');
    expect(panels()[0]!.dataset['repeat']).toBe('2');
    // The summary still covers every repeat.
    expect(panels()[1]!.querySelector<HTMLElement>('[data-metric=duration]')!.dataset['value']).toBe('120');
  });

  it('gives latency as redis-benchmark does, "= max" for percentiles 10 commands cannot carry, and why, histograms on one axis', () => {
    render();
    const latency = panels()[0]!.querySelector('[data-testid=latency]')!;
    const figure = (id: string) => latency.querySelector<HTMLElement>(`[data-metric=${id}]`)!;
    expect(['avg', 'min', 'p50', 'p95', 'p99', 'max'].map((id) => figure(id).textContent)).toEqual(['100 µs', '100 µs', '100 µs', '= max', '= max', '100 µs']);
    expect(figure('p99').dataset['tooSmall']).toBe('true');
    expect(latency.querySelector('[data-testid=latency-note]')?.textContent).toMatch(/^With 10 commands, p95 and p99 are the slowest one/);
    // Sequential at 100 µs, the pipeline at 110 µs: both histograms span the same buckets, so the same ticks.
    const ticks = (panel: HTMLElement) => [...panel.querySelectorAll('[data-testid=latency-histogram] .latency-tick text')].map((t) => t.textContent);
    expect(ticks(panels()[0]!)).toEqual(ticks(panels()[1]!));
  });

  it('a single trace per mode looks as before: no picker, no ranges', () => {
    render([sequentialTrace(10), pipelineTrace(10)]);
    expect(view.host.querySelectorAll('[data-testid=repeat-picker]')).toHaveLength(0);
    expect(view.host.querySelectorAll('.metric-range')).toHaveLength(0);
    expect(view.host.querySelector('[data-testid=repeats-note]')).toBeNull();
  });
});

describe('ResultsView: compared memory charts', () => {
  const view = useReactHost();
  const MiB = 1024 * 1024;

  it('share one byte scale per plot, so a 10× larger peak looks 10× larger (and each its own with "each run’s own scale")', () => {
    // One pipeline's client heap climbs to 210 MiB, the chunks' to 12 MiB.
    const big = chunkedTrace(1000, 1000, 100, 20, 'PING', memorySamples([0, 10_000, 20_000], [500], 100 * MiB));
    const pipe = { ...big, run: { ...big.run, id: 'one-chunk-of-1000' } };
    const chunks = chunkedTrace(1000, 100, 100, 20, 'PING', memorySamples([0, 10_000, 20_000], [500], MiB));
    const yLabels = (scale: 'shared' | 'own') => {
      view.render(<ResultsView traces={[pipe, chunks]} source="file" scale={scale} onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={new PlaybackClock()} onExport={() => {}} />);
      act(() => frameScheduler.flush());
      return [...view.host.querySelectorAll('[data-testid=run-panel]')].map((panel) => {
        const plots = panel.querySelectorAll('[data-testid=memory-plot]');
        return [...plots[plots.length - 1]!.querySelectorAll('.memory-axis.y text')].map((t) => t.textContent);
      });
    };
    const [pipeAxis, chunkAxis] = yLabels('shared');
    expect(pipeAxis).toEqual(chunkAxis);
    expect(pipeAxis!.at(-1)).toMatch(/MiB$/);
    expect(Number.parseFloat(pipeAxis!.at(-1)!)).toBeGreaterThanOrEqual(210);
    const [ownPipe, ownChunks] = yLabels('own');
    expect(ownPipe).not.toEqual(ownChunks);
  });
});
