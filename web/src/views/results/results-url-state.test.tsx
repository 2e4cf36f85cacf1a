import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { windowOfZoom } from '../../layout/zoom-window.ts';
import { DisplayHashSync } from '../../state/display-hash-sync.ts';
import { hashField } from '../../state/hash-fields.ts';
import { repeatsOf } from '../../test-support/repeat-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { ResultsView } from './results-view.tsx';

describe('ResultsView and the URL', () => {
  const view = useReactHost();
  const seq = repeatsOf(sequentialTrace(10, 100, 20), [1300, 1100, 1190]);
  const pipe = repeatsOf(pipelineTrace(10, 10, 10, 120), [130, 95, 120]);
  const traces = [seq[0]!, pipe[0]!, seq[1]!, pipe[1]!, seq[2]!, pipe[2]!];
  const panels = () => [...view.host.querySelectorAll<HTMLElement>('[data-testid=run-panel]')];
  const render = (playback = new PlaybackClock(), displayHash?: DisplayHashSync, zoomSync = new TimeZoomSync()) => {
    view.render(<ResultsView traces={traces} source="url" scale="shared" onScaleChange={() => {}} zoomSync={zoomSync} playback={playback} onExport={() => {}} displayHash={displayHash} />);
    act(() => frameScheduler.flush());
  };

  it('shows the repeat and the wire run a link names, and writes the picks back', () => {
    history.replaceState(null, '', '/#command=INCR&repeat=2:1&wire=2');
    render();
    expect(panels().map((p) => p.dataset['repeat'])).toEqual(['2', '0']);
    expect(view.host.querySelector('[data-testid=wire-run][aria-checked=true]')?.getAttribute('data-mode')).toBe('pipeline');
    const picker = panels()[0]!.querySelector<HTMLSelectElement>('[data-testid=repeat-picker]')!;
    act(() => {
      picker.value = seq[0]!.run.id;
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(hashField(location.hash, 'repeat')).toBe('1:1,2:1');
    act(() => view.host.querySelector<HTMLButtonElement>('[data-testid=wire-run][data-mode=sequential]')!.click());
    expect(location.hash).toBe('#command=INCR&repeat=1%3A1%2C2%3A1');
  });

  it('picks again when the URL is edited', () => {
    history.replaceState(null, '', '/#repeat=2:1');
    render();
    history.replaceState(null, '', '/#wire=2');
    act(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
    expect(panels().map((p) => p.dataset['repeat'])).toEqual(['2', '2']);
    expect(view.host.querySelector('[data-testid=wire-run][aria-checked=true]')?.getAttribute('data-mode')).toBe('pipeline');
  });

  it('gives the clock its end, mirrors the playhead into data-playhead-us, and lets a linked zoom apply', () => {
    history.replaceState(null, '', '/#zoom=100-600&t=250');
    const playback = new PlaybackClock();
    const zoomSync = new TimeZoomSync();
    const sync = new DisplayHashSync(zoomSync, playback);
    const stop = sync.start();
    try {
      render(playback, sync, zoomSync);
      const results = view.host.querySelector<HTMLElement>('.results')!;
      expect(playback.getSnapshot().endUs).toBeGreaterThan(1000);
      act(() => frameScheduler.flush());
      expect(results.dataset['playheadUs']).toBe('250');
      const window = windowOfZoom(zoomSync.zoom, playback.getSnapshot().endUs)!;
      expect([window.fromUs, window.toUs].map(Math.round)).toEqual([100, 600]);
      act(() => {
        playback.seek(null);
        frameScheduler.flush();
      });
      expect(results.dataset['playheadUs']).toBeUndefined();
    } finally {
      stop();
    }
  });
});
