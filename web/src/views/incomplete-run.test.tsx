// A run held only in part (trace v4 incomplete) on screen: its panel says how far it got and why, its
// rate is labelled as over what was measured, and the verdicts and summaries of a whole run are gone;
// the compare table marks its row and never calls it the fastest.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../trace/trace-builder.ts';
import type { IncompleteReason } from '../../../trace/trace-format.ts';
import { frameScheduler } from '../base/frame-scheduler.ts';
import { PlaybackClock } from '../interaction/playback-clock.ts';
import { TimeZoomSync } from '../interaction/time-zoom-sync.ts';
import { useReactHost } from '../test-support/react-host.ts';
import { header, pipelineTrace } from '../test-support/trace-fixtures.ts';
import { ResultsView } from './results-view.tsx';

/** A sequential INCR run of 100 cut after 34 replies. */
function cutShort(reason: IncompleteReason) {
  const b = new TraceBuilder(header('sequential', 100, 'INCR', `cut-${reason}`));
  for (let i = 0; i < 34; i++) b.addBatch({ writes: [{ atUs: 100 * i, bytes: 40, commands: 1 }], reads: [{ atUs: 100 * i + 50, bytes: 4, replies: 1 }], outcomes: [{ reply: i + 1 }] });
  return b.partial({ reason, omitted: ['redis-info'] });
}

describe('a run held in part', () => {
  const view = useReactHost();
  const render = (traces: Parameters<typeof ResultsView>[0]['traces']) => {
    view.render(<ResultsView traces={traces} source="live" scale="shared" onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={new PlaybackClock()} onExport={() => {}} />);
    act(() => frameScheduler.flush());
  };
  const panel = (mode: string) => view.host.querySelector<HTMLElement>(`[data-testid=run-panel][data-mode=${mode}]`)!;

  it('a cancelled run: its mark, its rate over what was measured, no verdicts of a whole run', () => {
    render([cutShort('cancelled'), pipelineTrace(100, 100, 10)]);
    const cut = panel('sequential');
    expect(cut.dataset['incomplete']).toBe('cancelled');
    const mark = cut.querySelector<HTMLElement>('[data-testid=incomplete-mark]')!;
    expect(mark.querySelector('strong')?.textContent).toBe('Cancelled after 34 of 100 commands — incomplete');
    // 34 operations by the last reply at 3,350 µs.
    expect(mark.querySelector('[data-testid=incomplete-rate]')?.textContent).toBe('10,149 ops/s over the 34 commands measured');
    expect(mark.textContent).toContain('Not measured: Redis INFO counts');
    expect(cut.querySelector('[data-testid=run-total]')?.textContent).toMatch(/so far$/);
    for (const gone of ['rtt-annotation', 'phase-bar', 'verdict', 'summary']) expect(cut.querySelector(`[data-testid=${gone}]`)).toBeNull();
    expect(panel('pipeline').querySelector('[data-testid=incomplete-mark]')).toBeNull();
    expect(panel('pipeline').querySelector('[data-testid=verdict]')).not.toBeNull();
    // The compare table: the row marked, Redis reads not measured, the whole run the only one that can be fastest.
    const rows = [...view.host.querySelectorAll<HTMLElement>('[data-testid=compare-row]')];
    expect(rows.map((r) => r.querySelector('[data-testid=compare-incomplete]')?.textContent ?? null)).toEqual(['Cancelled after 34 of 100 commands — incomplete', null]);
    expect(rows[0]!.querySelector<HTMLElement>('[data-metric=redis-reads]')!.textContent).toBe('—');
    expect(rows[0]!.className).not.toContain('fastest');
    expect(view.host.querySelector('[data-testid=headline-time]')).toBeNull();
  }, 20_000);

  it('a run still measuring says so', () => {
    render([cutShort('in-progress')]);
    expect(panel('sequential').querySelector('[data-testid=incomplete-mark] strong')?.textContent).toBe('Measuring… 34 of 100 commands');
  }, 20_000);
});
