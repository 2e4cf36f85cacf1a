// The page and its URL. The forms adopt a URL that changed between React's first render and its effects
// (a link opened in the same tab, a test's page.goto then reload) instead of writing their first-render
// state over it: a layout effect of a sibling rendered first stands in for that navigation — it changes
// the URL after the views read it and before their passive effects run, and no event follows. And the
// page's changes reach the link, each feature's keys beside the others'; a navigation reaches each feature.
import { act, useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { OfflineChannel } from '../../live/offline-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import { HistoryStore } from '../../state/history-store.ts';
import { openHistoryDb } from '../../state/history-db.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { hashParams } from '../../url/link-fields.ts';
import { PageUrl } from '../../url/page-url.ts';
import { AppView } from './app-view.tsx';

function NavigatesTo({ addressBar, address }: { addressBar: MemoryLocation; address: string }) {
  useLayoutEffect(() => addressBar.replace(address), [addressBar, address]);
  return null;
}

describe('the page and its URL', () => {
  const view = useReactHost();

  function renderApp(address: string, navigateTo: string | null = null) {
    const addressBar = new MemoryLocation(address);
    const url = new PageUrl(addressBar);
    const channel = new OfflineChannel();
    const store = new RunStore(channel);
    const sweepStore = new SweepStore(channel);
    const runHistory = new HistoryStore(openHistoryDb(), store, sweepStore);
    view.render(
      <>
        {navigateTo !== null && <NavigatesTo addressBar={addressBar} address={navigateTo} />}
        <AppView channel={channel} store={store} sweepStore={sweepStore} history={runHistory} url={url} urlLoad={null} />
      </>,
    );
    const key = (k: string) => hashParams(addressBar.hash()).get(k);
    return { addressBar, url, key };
  }
  const field = (testId: string) => view.host.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-testid=${testId}]`)!.value;
  const choose = (testId: string, value: string) => act(() => {
    const select = view.host.querySelector<HTMLSelectElement>(`[data-testid=${testId}]`)!;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const click = (testId: string) => act(() => view.host.querySelector<HTMLElement>(`[data-testid=${testId}]`)!.click());

  it('the run form takes the new URL and keeps it', async () => {
    const { key } = renderApp('/#command=PING&n=10', '#command=INCR&n=1000&mode=auto&repeats=1&engine=node-redis&theme=dark');
    await act(async () => {});
    expect(key('engine')).toBe('node-redis');
    expect(key('n')).toBe('1000');
    expect(key('theme')).toBe('dark');
    expect(field('engine')).toBe('node-redis');
    expect(field('command')).toBe('INCR');
  });

  it('still writes the form when only display keys changed beside it', async () => {
    const { url, key } = renderApp('/#command=INCR&n=10&engine=node-redis');
    await act(async () => {});
    act(() => url.update({ display: { zoom: { fromUs: 10, toUs: 20 } } }));
    choose('engine', 'ioredis');
    expect(key('engine')).toBeNull(); // the default is not written
    expect(key('zoom')).toBe('10-20');
    expect(field('engine')).toBe('ioredis');
  });

  it('the memory switch is in the link: ticked, it writes memory=1; a link with it ticks the box', async () => {
    const { addressBar, key } = renderApp('/#command=INCR&n=10');
    await act(async () => {});
    const box = () => view.host.querySelector<HTMLInputElement>('[data-testid=memory]')!;
    expect(box().checked).toBe(false);
    expect(key('memory')).toBeNull();
    click('memory');
    expect(key('memory')).toBe('1');
    act(() => addressBar.navigate('#command=INCR&n=10'));
    expect(box().checked).toBe(false);
    act(() => addressBar.navigate('#command=SET&n=20&memory=1'));
    expect(box().checked).toBe(true);
    expect(key('memory')).toBe('1');
  });

  it('the sweep form takes the new URL and keeps it', async () => {
    const { key } = renderApp('/#view=sweep&command=PING', '#view=sweep&command=GET&valueBytes=100&perPoint=500');
    await act(async () => {});
    expect(key('command')).toBe('GET');
    expect(key('perPoint')).toBe('500');
    expect(field('sweep-command')).toBe('GET');
  });

  it('writes each view’s keys as the tabs switch, the display keys kept, and the run form’s back as it was', async () => {
    const { addressBar } = renderApp('/#command=SET&n=5&theme=dark');
    await act(async () => {});
    const runLink = addressBar.hash();
    expect(runLink).toBe('#command=SET&n=5&valueBytes=16&mode=both&scale=shared&theme=dark');
    click('tab-gallery');
    expect(addressBar.hash()).toBe('#view=gallery&theme=dark');
    click('tab-history');
    expect(addressBar.hash()).toBe('#view=history&theme=dark');
    click('tab-sweep');
    expect(addressBar.hash()).toBe('#view=sweep&command=PING&maxDepth=1024&perPoint=10000&repeats=6&reference=1&theme=dark');
    click('tab-run');
    expect(addressBar.hash()).toBe(runLink);
  });

  it('puts presenter mode, the tour step and the theme in the link, and takes them from a link navigated to', async () => {
    const { addressBar, key } = renderApp('/#command=INCR&n=10');
    await act(async () => {});
    click('present-toggle');
    click('tour-toggle');
    act(() => view.host.querySelector<HTMLInputElement>('[data-testid=theme-dark]')!.click());
    expect([key('present'), key('tour'), key('theme')]).toEqual(['1', '1', 'dark']);
    act(() => addressBar.navigate('#command=GET&n=3&tour=2'));
    expect(field('command')).toBe('GET');
    expect(view.host.querySelector('[data-testid=present-toggle]')!.getAttribute('aria-pressed')).toBe('false');
    // No theme in the link: this reader's own choice stays (localStorage), and the link names none.
    expect(view.host.querySelector('[data-testid=theme-dark]')!.matches(':checked')).toBe(true);
    expect(addressBar.hash()).toBe('#command=GET&n=3&valueBytes=16&mode=both&scale=shared&tour=2');
    act(() => addressBar.navigate('#command=GET&n=3&theme=light'));
    expect(view.host.querySelector('[data-testid=theme-light]')!.matches(':checked')).toBe(true);
    document.documentElement.classList.remove('presenter');
    window.localStorage.clear();
  });
});
