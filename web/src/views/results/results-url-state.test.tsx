import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { windowOfZoom } from '../../layout/zoom-window.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { repeatsOf } from '../../test-support/repeat-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { pipelineTrace, sequentialTrace } from '../../test-support/trace-fixtures.ts';
import { DisplayLinkSync } from '../../url/display-link-sync.ts';
import { hashParams } from '../../url/link-fields.ts';
import { PageUrl } from '../../url/page-url.ts';
import { ResultsView } from './results-view.tsx';

/** The run view's keys when no form was changed: the page store writes the whole link. */
const RUN = 'command=INCR&n=10&valueBytes=16&mode=both&scale=shared';

describe('ResultsView and the URL', () => {
  const view = useReactHost();
  const seq = repeatsOf(sequentialTrace(10, 100, 20), [1300, 1100, 1190]);
  const pipe = repeatsOf(pipelineTrace(10, 10, 10, 120), [130, 95, 120]);
  const traces = [seq[0]!, pipe[0]!, seq[1]!, pipe[1]!, seq[2]!, pipe[2]!];
  const panels = () => [...view.host.querySelectorAll<HTMLElement>('[data-testid=run-panel]')];
  const pageAt = (address: string) => {
    const addressBar = new MemoryLocation(address);
    return { addressBar, url: new PageUrl(addressBar) };
  };
  const render = (url: PageUrl, playback = new PlaybackClock(), displayLink?: DisplayLinkSync, zoomSync = new TimeZoomSync()) => {
    view.render(
      <ResultsView traces={traces} source="url" scale="shared" onScaleChange={() => {}} zoomSync={zoomSync} playback={playback} onExport={() => {}} url={url} displayLink={displayLink} />,
    );
    act(() => frameScheduler.flush());
  };

  it('shows the repeat and the wire run a link names, and writes the picks back', () => {
    const { addressBar, url } = pageAt('/#command=INCR&repeat=2:1&wire=2');
    render(url);
    expect(panels().map((p) => p.dataset['repeat'])).toEqual(['2', '0']);
    expect(view.host.querySelector('[data-testid=wire-run][aria-checked=true]')?.getAttribute('data-mode')).toBe('pipeline');
    const picker = panels()[0]!.querySelector<HTMLSelectElement>('[data-testid=repeat-picker]')!;
    act(() => {
      picker.value = seq[0]!.run.id;
      picker.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(hashParams(addressBar.hash()).get('repeat')).toBe('1:1,2:1');
    act(() => view.host.querySelector<HTMLButtonElement>('[data-testid=wire-run][data-mode=sequential]')!.click());
    expect(addressBar.hash()).toBe(`#${RUN}&repeat=1%3A1%2C2%3A1`);
  });

  it('picks again when the URL is edited', () => {
    const { addressBar, url } = pageAt('/#repeat=2:1');
    url.start();
    render(url);
    act(() => addressBar.navigate('#wire=2'));
    expect(panels().map((p) => p.dataset['repeat'])).toEqual(['2', '2']);
    expect(view.host.querySelector('[data-testid=wire-run][aria-checked=true]')?.getAttribute('data-mode')).toBe('pipeline');
  });

  it('gives the clock its end, mirrors the playhead into data-playhead-us, and lets a linked zoom apply', () => {
    const { url } = pageAt('/#zoom=100-600&t=250');
    const playback = new PlaybackClock();
    const zoomSync = new TimeZoomSync();
    const sync = new DisplayLinkSync(url, zoomSync, playback);
    const stop = sync.start();
    try {
      render(url, playback, sync, zoomSync);
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
