import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { chunkedTrace, memorySamples } from '../../test-support/trace-fixtures.ts';
import { MemoryChartView } from './memory-chart-view.tsx';
import { useReactHost } from '../../test-support/react-host.ts';

const MiB = 1024 * 1024;

describe('MemoryChartView', () => {
  const view = useReactHost();

  const render = (doc: ReturnType<typeof chunkedTrace>) => {
    view.render(<MemoryChartView doc={doc} domainEndUs={doc.totals.durationUs} zoomSync={new TimeZoomSync()} />);
    act(() => frameScheduler.flush());
  };
  const peak = (id: string) => view.host.querySelector<HTMLElement>(`[data-testid=memory-peak-${id}]`)!;

  it('shows nothing for a trace without memory samples', () => {
    render(chunkedTrace(10, 5));
    expect(view.host.innerHTML).toBe('');
  });

  it('labels each side with its source and prints every peak, with its bytes for tests', () => {
    render(chunkedTrace(10, 5, 100, 20, 'PING', memorySamples([0, 100, 200], [50, 150], MiB)));
    const chart = view.host.querySelector('[data-testid=memory-chart]')!;
    expect(chart.textContent).toContain('Redis CLIENT LIST / INFO memory');
    expect(chart.textContent).toContain('client process (Node process.memoryUsage)');
    expect(peak('server').textContent).toBe('peak 21 KiB');
    expect(peak('server').dataset['value']).toBe(String(21 * 1024));
    expect(peak('server-omem').textContent).toBe('peak 0 B');
    expect(peak('client').textContent).toBe('peak 12 MiB');
    expect(peak('client-rss').dataset['value']).toBe(String(32 * MiB));
    expect(view.host.querySelector('[data-testid=memory-gaps]')).toBeNull();
    // Three plots, painted through the frame scheduler: one line per series.
    expect(view.host.querySelectorAll('[data-testid=memory-plot]')).toHaveLength(3);
    expect(view.host.querySelector('[data-testid=memory-line][data-series=heapUsed]')?.getAttribute('data-points')).toBe('3');
  });

  it('says where samples are missing, and a side without any', () => {
    render(chunkedTrace(10, 5, 100_000, 20, 'PING', memorySamples([0, 150_000], [])));
    expect(view.host.querySelector('[data-testid=memory-gaps]')?.textContent).toMatch(/^No samples — client: 2 gaps, 200 ms in all \(longest 150 ms from t0\); Redis: no samples\./);
    expect(peak('server').textContent).toBe('no samples');
    expect(peak('server').dataset['value']).toBe('');
  });

  it('draws the baselines taken before t0 in a strip left of 0, and says so', () => {
    render(chunkedTrace(10, 5, 100, 20, 'PING', memorySamples([-300, 100, 200], [-250, 150], MiB)));
    expect(view.host.querySelectorAll('[data-testid=memory-baseline]')).toHaveLength(3);
    expect(view.host.querySelector('figcaption')?.textContent).toMatch(/grey strip left of 0: the baseline, sampled before t0 \(not to scale\)/);
    expect(view.host.querySelector('[data-testid=memory-gaps]')).toBeNull();
    // The baseline counts among the samples drawn, and among the peaks (Redis's tot-mem: 21 KiB at 150 µs).
    expect(view.host.querySelector('[data-testid=memory-line][data-series=heapUsed]')?.getAttribute('data-points')).toBe('3');
    expect(peak('server').textContent).toBe('peak 21 KiB');
  });
});
