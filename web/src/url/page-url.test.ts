// The page store: the one writer of the URL's hash. It writes the whole link in one canonical order,
// without history entries; throttles what asks to be; adopts what it did not write (a navigation, or a
// script's replaceState found before its next write) and tells its subscribers, never its own writes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryLocation } from '../test-support/memory-location.ts';
import { displayWithKeys } from './display-link.ts';
import { browserLocation } from './page-location.ts';
import { PageUrl } from './page-url.ts';
import { runLinkOf, runFormOf } from './run-link.ts';

const RUN = 'command=INCR&n=10&valueBytes=16&mode=both&scale=shared';

function setup(address: string) {
  const location = new MemoryLocation(address);
  const url = new PageUrl(location, 250, () => Date.now());
  const heard: string[] = [];
  url.subscribe(() => heard.push(location.hash()));
  return { location, url, heard };
}

describe('PageUrl', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('on start, writes the link canonical: the view’s keys, then the display keys, junk dropped, the query kept', () => {
    const { location, url } = setup('/?trace=/a.json#zoom=100-300&foo=1&command=ping&t=abc&n=5');
    const stop = url.start();
    expect(location.hash()).toBe('#command=PING&n=5&valueBytes=16&mode=both&scale=shared&zoom=100-300');
    expect(location.search()).toBe('?trace=/a.json');
    expect(url.search).toBe('?trace=/a.json');
    stop();
  });

  it('writes a change at once, keeping the display keys when a form changes and the forms when the view does', () => {
    const { location, url, heard } = setup('#command=PING&n=10&zoom=10-20&theme=dark');
    url.start();
    const form = { ...runFormOf(url.link.run), engine: 'node-redis' as const, n: '' }; // n half-typed: the link keeps 10
    url.update({ run: runLinkOf(form, 'own', url.link.run) });
    expect(location.hash()).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=own&engine=node-redis&zoom=10-20&theme=dark');
    url.update({ view: 'gallery' });
    expect(location.hash()).toBe('#view=gallery&zoom=10-20&theme=dark');
    url.update({ view: 'run' });
    expect(location.hash()).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=own&engine=node-redis&zoom=10-20&theme=dark');
    expect(heard).toEqual([]); // its own writes are no navigation
  });

  it('sets and removes the theme key, keeping the rest', () => {
    const { location, url } = setup('#command=PING&n=10');
    url.update({ display: { theme: 'dark' } });
    expect(location.hash()).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=shared&theme=dark');
    url.update({ display: { theme: null } });
    expect(location.hash()).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=shared');
  });

  it('writes follow mode’s mirrored keys in the link’s order', () => {
    const { location, url } = setup('/?follow=x#n=10&theme=light');
    url.update({ display: displayWithKeys(url.link.display, { tour: '4', zoom: '1-2' }) });
    expect(location.hash()).toBe(`#${RUN}&zoom=1-2&theme=light&tour=4`);
    url.update({ display: displayWithKeys(url.link.display, { tour: null, zoom: null }) });
    expect(location.hash()).toBe(`#${RUN}&theme=light`);
  });

  it('throttles what asks to be: at most one write per interval, the latest state; a write at once takes it along', () => {
    const { location, url } = setup(`#${RUN}`);
    url.start();
    url.update({ display: { t: 1 } }, 'throttled');
    vi.advanceTimersByTime(1);
    expect(location.hash()).toBe(`#${RUN}&t=1`);
    url.update({ display: { t: 2 } }, 'throttled');
    url.update({ display: { t: 3 } }, 'throttled');
    expect(url.link.display.t).toBe(3); // the state at once, the URL later
    vi.advanceTimersByTime(100);
    expect(location.hash()).toBe(`#${RUN}&t=1`);
    vi.advanceTimersByTime(200);
    expect(location.hash()).toBe(`#${RUN}&t=3`);
    url.update({ display: { t: 4 } }, 'throttled');
    url.update({ display: { present: true } });
    expect(location.hash()).toBe(`#${RUN}&t=4&present=1`);
    url.update({ display: { t: 5 } }, 'throttled');
    expect(url.href()).toBe(`http://localhost:3000/#${RUN}&t=5&present=1`); // Copy link: pending writes first
    expect(location.writes).toHaveLength(4);
  });

  it('adopts a navigation: reads the link, writes it canonical, tells subscribers; a form is kept when another view is shown', () => {
    const { location, url, heard } = setup('#command=SET&n=5');
    url.start();
    const before = url.getNavigation();
    location.navigate('#view=sweep&command=GET&perPoint=500&t=7');
    expect(heard).toEqual(['#view=sweep&command=GET&valueBytes=16&maxDepth=1024&perPoint=500&repeats=6&reference=1&t=7']);
    expect(url.getNavigation()).not.toBe(before);
    expect(url.getNavigation()).toMatchObject({ view: 'sweep', run: { command: 'SET', n: 5 }, sweep: { form: { command: 'GET', perPoint: '500' } } });
    location.navigate('#view=run');
    expect(location.hash()).toBe('#command=INCR&n=10&valueBytes=16&mode=both&scale=shared');
  });

  it('adopts a URL a script replaced (no event) before its next write, then applies the change asked for', () => {
    const { location, url, heard } = setup('#command=PING&n=10');
    url.start();
    location.replace('#command=INCR&n=1000&mode=auto&engine=node-redis&theme=dark');
    url.update({ display: { zoom: { fromUs: 10, toUs: 20 } } });
    expect(heard).toHaveLength(1);
    expect(url.getNavigation().run).toMatchObject({ command: 'INCR', n: 1000, mode: 'auto', engine: 'node-redis' });
    expect(location.hash()).toBe('#command=INCR&n=1000&valueBytes=16&mode=auto&scale=shared&engine=node-redis&zoom=10-20&theme=dark');
  });

  it('adopts such a URL on start too (it changed between the page’s first render and its effects), and when read', () => {
    const { location, url, heard } = setup('#command=PING&n=10');
    location.replace('#command=GET&n=3');
    url.start();
    expect(heard).toHaveLength(1);
    expect(url.link.run).toMatchObject({ command: 'GET', n: 3 });
    location.replace('#command=GET&n=3&tour=3');
    expect(url.read().display.tour).toBe(3);
    expect(heard).toHaveLength(2);
  });

  it('stops listening when stopped', () => {
    const { location, url, heard } = setup('#n=10');
    const stop = url.start();
    stop();
    location.navigate('#n=20');
    expect(heard).toEqual([]);
  });
});

describe('PageUrl in the browser', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('replaces the hash in place (no history entry), keeps the path and query, and hears hashchange and popstate', () => {
    history.replaceState(null, '', '/app/?trace=/a.json#n=5&t=1');
    const url = new PageUrl(browserLocation);
    const heard: number[] = [];
    url.subscribe(() => heard.push(url.getNavigation().run.n));
    const entries = history.length;
    const stop = url.start();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/app/?trace=/a.json#command=INCR&n=5&valueBytes=16&mode=both&scale=shared&t=1');
    url.update({ view: 'history' });
    expect(window.location.hash).toBe('#view=history&t=1');
    expect(history.length).toBe(entries);
    history.replaceState(null, '', '/app/?trace=/a.json#n=7');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    history.replaceState(null, '', '/app/?trace=/a.json#n=8');
    window.dispatchEvent(new PopStateEvent('popstate'));
    window.dispatchEvent(new HashChangeEvent('hashchange')); // back and forward fire both: heard once
    expect(heard).toEqual([7, 8]);
    expect(url.href()).toBe(`${window.location.origin}/app/?trace=/a.json#command=INCR&n=8&valueBytes=16&mode=both&scale=shared`);
    stop();
  });
});
