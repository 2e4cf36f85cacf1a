// The run form and the sweep form adopt a URL that changed between React's first render and its effects
// (a link opened in the same tab, a test's page.goto then reload) instead of writing their first-render
// form over it. A layout effect of a sibling rendered first stands in for that navigation: it changes the
// URL after the views read it and before their passive effects run, and no hashchange event follows (the
// case where the event came before the listener; the queued case reaches the same check).
import { act, useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineChannel } from '../../live/offline-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import { hashField, writeHashFields } from '../../state/hash-fields.ts';
import { HistoryStore } from '../../state/history-store.ts';
import { openHistoryDb } from '../../state/history-db.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { AppView } from './app-view.tsx';
import { SweepView } from '../sweep/sweep-view.tsx';

function NavigatesTo({ hash }: { hash: string }) {
  useLayoutEffect(() => history.replaceState(null, '', `/${hash}`), [hash]);
  return null;
}

describe('a form view and a URL changed under its first render', () => {
  const view = useReactHost();
  afterEach(() => history.replaceState(null, '', '/'));

  function renderApp(navigateTo: string | null) {
    const channel = new OfflineChannel();
    const store = new RunStore(channel);
    const sweepStore = new SweepStore(channel);
    const runHistory = new HistoryStore(openHistoryDb(), store, sweepStore);
    view.render(
      <>
        {navigateTo !== null && <NavigatesTo hash={navigateTo} />}
        <AppView channel={channel} store={store} sweepStore={sweepStore} history={runHistory} urlLoad={null} />
      </>,
    );
  }
  const field = (testId: string) => view.host.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-testid=${testId}]`)!.value;

  it('the run form takes the new URL and keeps it', async () => {
    history.replaceState(null, '', '/#command=PING&n=10');
    renderApp('#command=INCR&n=1000&mode=auto&repeats=1&engine=node-redis&theme=dark');
    await act(async () => {});
    expect(hashField(location.hash, 'engine')).toBe('node-redis');
    expect(hashField(location.hash, 'n')).toBe('1000');
    expect(hashField(location.hash, 'theme')).toBe('dark');
    expect(field('engine')).toBe('node-redis');
    expect(field('command')).toBe('INCR');
  });

  it('still writes the form when only display keys changed beside it', async () => {
    history.replaceState(null, '', '/#command=INCR&n=10&engine=node-redis');
    renderApp(null);
    await act(async () => {});
    act(() => writeHashFields({ zoom: '10-20' }));
    const engine = view.host.querySelector<HTMLSelectElement>('[data-testid=engine]')!;
    act(() => {
      engine.value = 'ioredis';
      engine.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(hashField(location.hash, 'engine')).toBeNull(); // the default is not written
    expect(hashField(location.hash, 'zoom')).toBe('10-20');
    expect(field('engine')).toBe('ioredis');
  });

  it('the sweep form takes the new URL and keeps it', () => {
    history.replaceState(null, '', '/#view=sweep&command=PING');
    const sweeps = new SweepStore(new OfflineChannel());
    view.render(
      <>
        <NavigatesTo hash="#view=sweep&command=GET&valueBytes=100&perPoint=500" />
        <SweepView sweeps={sweeps} shown blockedReason={null} onOpenFiles={() => {}} />
      </>,
    );
    expect(hashField(location.hash, 'command')).toBe('GET');
    expect(hashField(location.hash, 'perPoint')).toBe('500');
    expect(field('sweep-command')).toBe('GET');
  });
});
