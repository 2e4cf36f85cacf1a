// A run held only in part (trace v4 incomplete) on screen: its panel says how far it got and why, its
// rate is labelled as over what was measured, and the verdicts and summaries of a whole run are gone;
// the compare table marks its row and never calls it the fastest.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../../trace/format/trace-builder.ts';
import type { IncompleteReason } from '../../../../trace/format/trace-format.ts';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { header, pipelineTrace } from '../../test-support/trace-fixtures.ts';
import { ResultsView } from './results-view.tsx';

/** Feeds `count` more commands of a sequential run, 100 µs apart, each replied 50 µs after it was written. */
function feed(b: TraceBuilder, from: number, count: number): void {
  for (let i = from; i < from + count; i++) b.addBatch({ writes: [{ atUs: 100 * i, bytes: 40, commands: 1 }], reads: [{ atUs: 100 * i + 50, bytes: 4, replies: 1 }], outcomes: [{ reply: i + 1 }] });
}

/** A sequential INCR run of 100 cut after 34 replies. */
function cutShort(reason: IncompleteReason) {
  const b = new TraceBuilder(header('sequential', 100, 'INCR', `cut-${reason}`));
  feed(b, 0, 34);
  return b.partial({ reason, omitted: ['redis-info'] });
}

describe('a run held in part', () => {
  const view = useReactHost();
  // One zoom and one playhead, as the app has: a new TimeZoomSync would (rightly) make new diagrams.
  const zoomSync = new TimeZoomSync();
  const playback = new PlaybackClock();
  const render = (traces: Parameters<typeof ResultsView>[0]['traces']) => {
    view.render(<ResultsView traces={traces} source="live" scale="shared" onScaleChange={() => {}} zoomSync={zoomSync} playback={playback} onExport={() => {}} />);
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
    expect(cut.querySelector('[data-testid=run-total]')?.textContent).toMatch(/ until cancelled$/);
    for (const gone of ['rtt-annotation', 'phase-bar', 'verdict', 'summary']) expect(cut.querySelector(`[data-testid=${gone}]`)).toBeNull();
    expect(panel('pipeline').querySelector('[data-testid=incomplete-mark]')).toBeNull();
    expect(panel('pipeline').querySelector('[data-testid=verdict]')).not.toBeNull();
    // The compare table: the row marked, Redis reads not measured, the whole run the only one that can be fastest.
    const rows = [...view.host.querySelectorAll<HTMLElement>('[data-testid=compare-row]')];
    expect(rows.map((r) => r.querySelector('[data-testid=compare-incomplete]')?.textContent ?? null)).toEqual(['Cancelled after 34 of 100 commands — incomplete', null]);
    expect(rows[0]!.querySelector<HTMLElement>('[data-metric=redis-reads]')!.textContent).toBe('—');
    // Its time is final: measured until the cancel, not "so far" as if it were still counting.
    expect(rows[0]!.querySelector<HTMLElement>('[data-metric=duration] .source')!.textContent).toBe('measured until cancelled');
    expect(rows[0]!.className).not.toContain('fastest');
    expect(view.host.querySelector('[data-testid=headline-time]')).toBeNull();
  }, 20_000);

  it('a run still measuring says so', () => {
    render([cutShort('in-progress')]);
    expect(panel('sequential').querySelector('[data-testid=incomplete-mark] strong')?.textContent).toBe('Measuring… 34 of 100 commands');
    expect(panel('sequential').querySelector('[data-testid=run-total]')?.textContent).toMatch(/ so far$/);
  }, 20_000);

  it('a run that grows keeps its panel and diagram (no new controller per rebuild) and draws more each time', () => {
    const b = new TraceBuilder(header('sequential', 100, 'INCR', 'growing'));
    feed(b, 0, 10);
    render([b.partial({ reason: 'in-progress', omitted: ['redis-info'] })]);
    const svg = panel('sequential').querySelector('svg.diagram-svg');
    expect(panel('sequential').dataset['commandsDrawn']).toBe('10');
    feed(b, 10, 30);
    render([b.partial({ reason: 'in-progress', omitted: ['redis-info'] })]);
    expect(panel('sequential').querySelector('svg.diagram-svg')).toBe(svg);
    expect(panel('sequential').dataset['commandsDrawn']).toBe('40');
    feed(b, 40, 60);
    render([b.finish({ reads: 100, writes: 100, execUs: 100, source: 'redis-info', exclusive: true })]);
    expect(panel('sequential').querySelector('svg.diagram-svg')).toBe(svg); // the whole run takes the partial one's place
    expect(panel('sequential').dataset['incomplete']).toBeUndefined();
  }, 20_000);
});
