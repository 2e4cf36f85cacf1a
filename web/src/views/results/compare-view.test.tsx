// The compare view and the verdicts as a user meets them: four modes of one workload in one table above
// their panels, each panel's verdict lines, an error reply marked in place with a legend entry, the keys
// after the run.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { modeTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { ResultsView } from './results-view.tsx';

describe('the compare view', () => {
  const view = useReactHost();
  const render = (traces: Parameters<typeof ResultsView>[0]['traces']) => {
    view.render(<ResultsView traces={traces} source="file" scale="shared" onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={new PlaybackClock()} onExport={() => {}} />);
    act(() => frameScheduler.flush());
  };
  const all = (selector: string) => [...view.host.querySelectorAll<HTMLElement>(selector)];

  it('four modes: one row each, the same workload named once, each diagram drawn', () => {
    render([sequentialTrace(10), modeTrace('pipeline', 10), modeTrace('multi', 10), modeTrace('eval', 10)]);
    expect(all('[data-testid=compare-row]').map((r) => r.dataset['mode'])).toEqual(['sequential', 'pipeline', 'multi', 'eval']);
    expect(view.host.querySelector('.compare-caption')?.textContent).toMatch(/^4 ways to run 10 × INCR, compared/);
    expect(all('[data-testid=compare-row] [data-metric=round-trips]').map((c) => c.textContent)).toEqual(['10', '1', '1', '1']);
    expect(all('[data-testid=run-panel]')).toHaveLength(4);
    const multi = all('[data-testid=run-panel]')[2]!;
    expect(multi.querySelector('[data-testid=verdict-wire]')?.textContent).toBe('10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC');
    expect(multi.querySelector('[data-testid=verdict-atomic]')?.textContent).toMatch(/^atomic: Redis runs the 10 INCRs as one block/);
  });

  it('one run: no table', () => {
    render([modeTrace('pipeline', 10)]);
    expect(view.host.querySelector('[data-testid=compare-table]')).toBeNull();
  });

  it('an error reply: marked in place, in the legend, and the verdict reads the keys after the run', () => {
    render([modeTrace('pipeline', 10, { errorAt: 4, keysAfter: true }), modeTrace('multi', 10, { errorAt: 4, errorKind: 'queueing', keysAfter: true })]);
    expect(view.host.querySelector('[data-testid=legend-error]')).not.toBeNull();
    const [pipe, multi] = all('[data-testid=run-panel]');
    expect(pipe!.querySelectorAll('[data-testid=error-mark]')).toHaveLength(1);
    expect(pipe!.querySelector('[data-testid=verdict-rollback]')?.textContent).toMatch(/^operation 5 failed; operations 6–10 still ran: their keys read 1 afterwards — no rollback/);
    expect(multi!.querySelector('[data-testid=verdict-rollback]')?.textContent).toMatch(/^Redis refused the whole transaction \(EXECABORT\): no key changed/);
    expect(pipe!.querySelectorAll('[data-testid=keys-after] tbody tr')).toHaveLength(10);
    expect(pipe!.querySelector('[data-testid=error-replies] tr')?.textContent).toMatch(/^command 5INCR pipescope:.*:key:4✕ ERR value is not an integer or out of range$/);
  });
});
