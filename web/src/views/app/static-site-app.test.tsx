// The app as the static site runs it (AppView offline, an OfflineChannel): no WebSocket is ever made,
// nothing that needs a backend is on the page (connection pill, banner, run form, follow/share, sweep
// form, the gallery's Run buttons), and the landing page lists the recorded runs of traces/index.json.
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import committedIndex from '../../../../public/traces/index.json?raw';
import { OfflineChannel } from '../../live/offline-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import { HistoryStore } from '../../state/history-store.ts';
import { openHistoryDb } from '../../state/history-db.ts';
import { MemoryLocation } from '../../test-support/memory-location.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { PageUrl } from '../../url/page-url.ts';
import { AppView } from './app-view.tsx';

describe('the static site’s app (offline)', () => {
  const view = useReactHost();
  const sockets: string[] = [];
  const fetched: string[] = [];

  beforeEach(() => {
    sockets.length = 0;
    fetched.length = 0;
    vi.stubGlobal('WebSocket', class {
      constructor(url: string) {
        sockets.push(url);
      }
    });
    vi.stubGlobal('fetch', (url: string) => {
      fetched.push(url);
      return Promise.resolve(new Response(committedIndex, { status: 200 }));
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  async function renderOffline() {
    const channel = new OfflineChannel();
    const store = new RunStore(channel);
    const sweepStore = new SweepStore(channel);
    const history = new HistoryStore(openHistoryDb(), store, sweepStore);
    const url = new PageUrl(new MemoryLocation());
    view.render(<AppView channel={channel} store={store} sweepStore={sweepStore} history={history} url={url} urlLoad={null} offline />);
    await act(async () => {}); // the index fetched and shown
  }

  it('lists the recorded runs and shows nothing that needs a backend', async () => {
    await renderOffline();
    const q = (selector: string) => view.host.querySelectorAll(selector).length;
    expect(q('[data-testid=recorded-run]')).toBe((JSON.parse(committedIndex) as { traces: unknown[] }).traces.length);
    expect(fetched).toEqual(['traces/index.json']);
    for (const gone of ['.connection-pill', '[data-testid=banner]', '[data-testid=mode-picker]', '[data-testid=follow-share]']) expect(q(gone)).toBe(0);
    expect(q('[data-testid=import]')).toBe(1);
    expect(view.host.querySelector('.brand img')!.getAttribute('src')).toBe('favicon.svg');
    expect(sockets).toEqual([]);
  });

  it('shows the published benchmarks without Run buttons, and the sweep view without its form', async () => {
    await renderOffline();
    await act(async () => view.host.querySelector<HTMLButtonElement>('[data-testid=tab-gallery]')!.click());
    expect(view.host.querySelectorAll('[data-testid=gallery-card]').length).toBeGreaterThan(0);
    expect(view.host.querySelectorAll('[data-testid=gallery-run], [data-testid=gallery-run-delayed]').length).toBe(0);
    expect(view.host.querySelector('[data-testid=gallery-live]')!.textContent).toContain('this static site has no backend');
    await act(async () => view.host.querySelector<HTMLButtonElement>('[data-testid=tab-sweep]')!.click());
    expect(view.host.querySelector('[data-testid=sweep-view]')!.querySelector('form')).toBeNull();
    expect(view.host.querySelectorAll('[data-testid=sweep-import]').length).toBe(1);
    expect(sockets).toEqual([]);
  });
});
