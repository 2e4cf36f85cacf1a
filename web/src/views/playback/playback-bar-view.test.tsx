import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { MAX_DOTS } from '../../layout/playback-layout.ts';
import { ResultsView } from '../results/results-view.tsx';

describe('PlaybackBarView in the results', () => {
  const view = useReactHost();
  const flush = () => act(() => frameScheduler.flush());
  const $ = <T extends Element = HTMLElement>(id: string) => view.host.querySelector<T>(`[data-testid=${id}]`)!;

  function render(clock = new PlaybackClock()) {
    // Sequential INCR ×3 (350 µs) beside 10 PINGs in pipelines of 4 (350 µs): writes and reads 100 µs apart.
    view.render(<ResultsView traces={[sequentialTrace(3), chunkedTrace(10, 4)]} source="file" scale="shared" onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={clock} onExport={() => {}} />);
    flush();
    return clock;
  }

  it('learns the shared timeline, marks the runs’ milestones, and starts with everything shown', () => {
    const clock = render();
    expect(clock.getSnapshot()).toMatchObject({ positionUs: null, endUs: 350, speed: 0.001 });
    const bar = $('playback-bar');
    expect(bar.dataset['positionUs']).toBe('');
    expect($('playback-position').textContent).toBe('all 350 µs shown');
    expect($<HTMLButtonElement>('playback-show-all').disabled).toBe(true);
    const milestones = [...view.host.querySelectorAll<HTMLElement>('[data-testid=playback-milestone]')];
    expect(milestones.map((m) => m.getAttribute('aria-label'))).toEqual([
      'Go to sequential: first write',
      'Go to chunked: first write',
      'Go to sequential: first reply',
      'Go to chunked: first reply',
      'Go to chunked: chunk 2',
      'Go to chunked: chunk 3',
      'Go to sequential: last reply',
      'Go to chunked: last reply',
    ]);
    expect($<HTMLSelectElement>('playback-speed').selectedOptions[0]!.text).toBe('1/1000×');
  });

  it('steps, scrubs, seeks to a milestone and shows all again', () => {
    const clock = render();
    act(() => $<HTMLButtonElement>('playback-next').click());
    flush();
    expect(clock.getSnapshot().positionUs).toBe(10);
    const scrubber = $<HTMLInputElement>('playback-scrubber');
    expect(scrubber.getAttribute('aria-valuetext')).toBe('10 µs of 350 µs');
    expect($('playback-bar').dataset['positionUs']).toBe('10');
    const chunk3 = view.host.querySelector<HTMLButtonElement>('[data-testid=playback-milestone][data-kind=chunk][data-at-us="250"]')!;
    act(() => chunk3.click());
    flush();
    expect(clock.getSnapshot().positionUs).toBe(250);
    // The diagrams draw up to the playhead: both runs' line sits at 250 µs.
    flush();
    expect([...view.host.querySelectorAll('[data-testid=playhead]')].map((l) => l.getAttribute('data-position-us'))).toEqual(['250', '250']);
    act(() => $<HTMLButtonElement>('playback-show-all').click());
    flush();
    flush();
    expect(clock.getSnapshot().positionUs).toBeNull();
    expect(view.host.querySelectorAll('[data-testid=playhead]')).toHaveLength(0);
  });

  it('answers the page’s keys, but not keys typed into its speed picker', () => {
    const clock = render();
    const key = (k: string, target: EventTarget = document.body) => act(() => void target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })));
    key('End');
    expect(clock.getSnapshot().positionUs).toBe(350);
    key('ArrowLeft');
    expect(clock.getSnapshot().positionUs).toBe(250);
    key('+', $('playback-speed'));
    expect(clock.getSnapshot().speed).toBe(0.001);
    key('+');
    expect(clock.getSnapshot().speed).toBe(0.002);
    key('?');
    flush();
    const dialog = view.host.querySelector<HTMLElement>('[role=dialog]')!;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    key('Escape', document.activeElement!);
    expect(view.host.querySelector('[role=dialog]')).toBeNull();
  });

  it('in density (canvas) mode, cuts the bands at the playhead and caps the travelling dots', () => {
    const clock = new PlaybackClock();
    // 2,000 INCRs in one write at 10 µs, their replies from 500 µs: too many arrows for SVG.
    view.render(<ResultsView traces={[pipelineTrace(2000)]} source="file" scale="shared" onScaleChange={() => {}} zoomSync={new TimeZoomSync()} playback={clock} onExport={() => {}} />);
    flush();
    expect($('run-panel').dataset['render']).toBe('canvas');
    const canvas = $<HTMLCanvasElement>('density-canvas');
    expect(canvas.style.clipPath).toBe('');
    act(() => clock.seek(250));
    flush();
    flush();
    expect(canvas.style.clipPath).toMatch(/^inset\(0(px)? 0(px)? [\d.]+px 0(px)?\)$/);
    const playhead = $('playhead');
    expect(playhead.getAttribute('data-in-flight')).toBe('2000');
    const dots = view.host.querySelectorAll('[data-testid=travelling-dot]').length;
    expect(dots).toBeGreaterThan(0);
    expect(dots).toBeLessThanOrEqual(MAX_DOTS);
    act(() => clock.seek(null));
    flush();
    flush();
    expect(canvas.style.clipPath).toBe('');
  });
});
