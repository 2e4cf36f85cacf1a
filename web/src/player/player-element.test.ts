// The element in jsdom: attributes read as the embed parameters, traces loaded through the app's loader
// (fetch stubbed with a serialized fixture trace), the ready event, errors shown inside, the lazy poster,
// keys scoped to the element and the methods. Pixels and playback in a real browser: e2e/embed.e2e.test.ts.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { PLAYER_TAG, type PipescopePlayerElement } from './player-element.ts';
import './pipescope-player.ts';

const TRACES: Record<string, string> = { '/seq.json': serializeTrace(sequentialTrace(10)), '/pipe.json': serializeTrace(pipelineTrace(10)) };
const fetched: string[] = [];

beforeAll(() => {
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    const body = TRACES[url];
    return body === undefined ? new Response('nope', { status: 404, statusText: 'Not Found' }) : new Response(body, { status: 200 });
  });
});

afterEach(() => {
  document.body.replaceChildren();
  fetched.length = 0;
});

function player(attrs: Record<string, string>): PipescopePlayerElement {
  const element = document.createElement(PLAYER_TAG);
  for (const [k, v] of Object.entries(attrs)) element.setAttribute(k, v);
  document.body.append(element);
  return element;
}

const settled = (el: HTMLElement, state: string) => vi.waitFor(() => expect(el.dataset['state']).toBe(state), { timeout: 5000 });

describe('<pipescope-player>', () => {
  it('draws one diagram per trace in compare order and says it is ready', async () => {
    const ready = vi.fn();
    const el = player({ src: '/pipe.json /seq.json' });
    el.addEventListener('pipescope-ready', (e) => ready((e as CustomEvent).detail));
    await settled(el, 'ready');
    const panels = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-testid=run-panel]')];
    expect(panels.map((p) => p.dataset['mode'])).toEqual(['sequential', 'pipeline']);
    expect(el.shadowRoot!.querySelectorAll('[data-testid=summary-line]')).toHaveLength(2);
    expect(ready).toHaveBeenCalledWith({ traces: 2, durationUs: Number(el.dataset['endUs']) });
    expect(el.shadowRoot!.querySelector<HTMLElement>('.pipescope-theme')!.dataset['theme']).toBe('light');
  });

  it('leaves the host page\'s <html> alone: render-pending is marked on the element', async () => {
    const el = player({ src: '/pipe.json' });
    await settled(el, 'ready');
    expect(document.documentElement.hasAttribute('data-render-pending')).toBe(false);
    await vi.waitFor(() => expect(el.dataset['renderPending']).toBe('false'), { timeout: 5000 });
  });

  it('shows what could not be loaded, in words, and fires pipescope-error', async () => {
    const errors: string[] = [];
    const el = player({ src: '/missing.json' });
    el.addEventListener('pipescope-error', (e) => errors.push((e as CustomEvent<{ message: string }>).detail.message));
    await settled(el, 'error');
    expect(el.shadowRoot!.querySelector('[data-testid=player-error]')!.textContent).toBe('Could not load the trace at /missing.json: HTTP 404 Not Found');
    expect(errors).toEqual(['Could not load the trace at /missing.json: HTTP 404 Not Found']);
  });

  it('without src, says so', async () => {
    const el = player({});
    await settled(el, 'error');
    expect(el.shadowRoot!.querySelector('[data-testid=player-error]')!.textContent).toMatch(/^No trace to show/);
  });

  it('lazy: a poster, nothing fetched until clicked', async () => {
    const el = player({ src: '/seq.json', lazy: '' });
    await settled(el, 'poster');
    expect(fetched).toEqual([]);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-testid=player-poster-button]')!.click();
    await settled(el, 'ready');
    expect(fetched).toEqual(['/seq.json']);
  });

  it('t, speed and controls="false"; seek(); keys only while focus is inside', async () => {
    const el = player({ src: '/seq.json', t: '0.1ms', speed: '1/100', controls: 'false', theme: 'dark' });
    await settled(el, 'ready');
    expect(el.dataset['positionUs']).toBe('100');
    expect(el.dataset['speed']).toBe('0.01');
    expect(el.shadowRoot!.querySelector<HTMLElement>('[data-testid=playback-bar]')!.hidden).toBe(true);
    expect(el.shadowRoot!.querySelector<HTMLElement>('.pipescope-theme')!.dataset['theme']).toBe('dark');
    el.seek(250);
    await vi.waitFor(() => expect(el.dataset['positionUs']).toBe('250'));
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    expect(el.dataset['positionUs']).toBe('250');
    el.shadowRoot!.querySelector('svg')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true, composed: true }));
    await vi.waitFor(() => expect(el.dataset['positionUs']).toBe('0'));
  });

  it('load() replaces the runs', async () => {
    const el = player({ src: '/seq.json' });
    await settled(el, 'ready');
    el.load(['/pipe.json']);
    await vi.waitFor(() => expect(el.shadowRoot!.querySelector<HTMLElement>('[data-testid=run-panel]')?.dataset['mode']).toBe('pipeline'));
  });
});
