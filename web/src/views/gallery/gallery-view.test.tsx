import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../../../trace/protocol/live-protocol.ts';
import { FrameScheduler } from '../../base/frame-scheduler.ts';
import type { ChannelPort, LiveListener } from '../../live/live-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { publishedBenchmark } from '../../model/published-benchmarks.ts';
import { galleryPair, galleryTrace } from '../../test-support/gallery-fixtures.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { GalleryView } from './gallery-view.tsx';

function setup() {
  const sent: ClientMessage[] = [];
  const listeners = new Set<LiveListener>();
  const channel: ChannelPort = {
    isOpen: true,
    send: (m) => (sent.push(m), true),
    listen: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const frames: (() => void)[] = [];
  const store = new RunStore(channel, new FrameScheduler((cb) => frames.push(cb), () => {}));
  store.attach();
  const frame = () => act(() => frames.splice(0).forEach((f) => f()));
  const deliver = (m: ServerMessage) => act(() => listeners.forEach((l) => l.onMessage(m)));
  return { store, sent, frame, deliver };
}

const tair = publishedBenchmark('tair-incr');
const blog = publishedBenchmark('blog-ping');
const netcat = publishedBenchmark('docs-netcat');

describe('GalleryView', () => {
  const view = useReactHost();
  const card = (id: string) => view.host.querySelector<HTMLElement>(`[data-testid=gallery-card][data-benchmark=${id}]`)!;
  const figure = (id: string, side: string, name: string) => card(id).querySelector<HTMLElement>(`[data-testid=${side}] [data-figure=${name}]`)!;
  const button = (id: string, testId: string) => card(id).querySelector<HTMLButtonElement>(`[data-testid=${testId}]`);
  const click = (el: HTMLElement | null) => act(() => el!.click());

  it('shows every source’s published figures and context, and nothing measured before a run', () => {
    const { store } = setup();
    view.render(<GalleryView store={store} shown blockedReason={null} onShowRuns={() => {}} />);
    const cards = [...view.host.querySelectorAll<HTMLElement>('[data-testid=gallery-card]')].map((c) => c.dataset['benchmark']);
    expect(cards).toEqual(['tair-incr', 'docs-ping', 'blog-ping', 'tencent-set', 'docs-netcat']);
    expect(['sequential', 'pipeline', 'ratio'].map((f) => figure('tair-incr', 'gallery-published', f).textContent)).toEqual(['5,844 ms', '78 ms', '~75×']);
    expect(card('tair-incr').querySelector('[data-testid=gallery-published]')!.textContent).toMatch(/Client: Jedis \(Java\)/);
    expect(card('tair-incr').textContent).toMatch(/ApsaraDB for Redis \/ Tair guide/);
    expect(card('tencent-set').querySelector('[data-testid=gallery-published]')!.textContent).toMatch(/—.*—.*16\.8×.*The Tencent Cloud article publishes the ratio only/);
    expect(card('tencent-set').textContent).toMatch(/fixed 20-byte pattern: the size of the article's timestamps, not a timestamp/);
    expect(card('docs-netcat').querySelector('[data-testid=gallery-published]')!.textContent).toMatch(/\+PONG comes back three times/);
    expect(figure('tair-incr', 'gallery-live', 'sequential').textContent).toBe('—');
    expect(card('tair-incr').querySelector('[data-testid=gallery-live]')!.textContent).toMatch(/Not run yet/);
    expect(button('tair-incr', 'gallery-run-delayed')).toBeNull();
  });

  it('runs a preset in one click, shows its progress on its card, and blocks the others meanwhile', () => {
    const { store, sent, frame, deliver } = setup();
    view.render(<GalleryView store={store} shown blockedReason={null} onShowRuns={() => {}} />);
    click(button('tair-incr', 'gallery-run'));
    expect(sent).toEqual([{ type: 'run', requestId: expect.stringMatching(/^req-/), spec: tair.spec }]);
    frame();
    expect(card('tair-incr').querySelector('[data-testid=progress]')).not.toBeNull();
    expect(button('blog-ping', 'gallery-run')!.disabled).toBe(true);
    expect(card('blog-ping').textContent).toMatch(/Another run is in progress/);
    deliver({ type: 'request-done', requestId: (sent[0] as { requestId: string }).requestId });
    frame();
    expect(card('tair-incr').querySelector('[data-testid=progress]')).toBeNull();
    expect(button('blog-ping', 'gallery-run')!.disabled).toBe(false);
  });

  it('sets the live figures beside the published ones, explains the gap, and reruns at the added RTT that would match', () => {
    const { store, sent, frame } = setup();
    let shownRuns = 0;
    view.render(<GalleryView store={store} shown blockedReason={null} onShowRuns={() => shownRuns++} />);
    // 5,000 INCRs in six rounds: 250 ms [240–260 ms] sequentially, 25.04 ms [24–26 ms] pipelined, RTT 40 µs;
    // the per-round ratios 9.23, 9.98, 10.83, 10.2, 9.78, 9.99 → median 10×, 95 % interval [9.23, 10.83].
    const tairTraces = galleryPair(tair.spec, [240_000, 250_000, 260_000, 250_000, 245_000, 255_000], [26_000, 25_040, 24_000, 24_500, 25_040, 25_500], { rttUs: 40 });
    act(() => store.showTraces(tairTraces, 'live'));
    frame();
    const live = (name: string) => figure('tair-incr', 'gallery-live', name);
    expect([live('sequential').dataset['value'], live('sequential').dataset['min'], live('sequential').dataset['max']]).toEqual(['250000', '240000', '260000']);
    expect(live('sequential').textContent).toBe('250 ms [240–260 ms]');
    expect(card('tair-incr').querySelector('[data-testid=gallery-published]')!.textContent).not.toMatch(/ratio only/);
    expect(live('pipeline').textContent).toBe('25 ms [24–26 ms]');
    expect(live('ratio').textContent).toBe('10× [95 % 9.2–11×]');
    const liveSide = card('tair-incr').querySelector('[data-testid=gallery-live]')!;
    expect(liveSide.querySelector('h4')!.textContent).toBe('Measured here');
    expect(liveSide.textContent).toMatch(/ioredis 6\.0\.0 · Redis 7\.0\.15 · loopback, no added delay · RTT 40 µs on the run’s connection \(PINGs before t0\) · times: median \[min–max\] of 6 runs each, in rounds; ratio: median of 6 per-round ratios, 95 % interval/);
    expect(card('tair-incr').querySelector('[data-testid=gallery-why]')!.textContent).toMatch(/Our ratio is lower mostly because of the sequential side — the round trip over the cloud network/);
    expect(card('tair-incr').querySelector('[data-testid=gallery-gap]')!.textContent).toMatch(/the model puts our ratio at ~75×: 0\.33 ms \[[\d.]+–[\d.]+ ms\] more than this connection’s own\.$/);
    const delayed = button('tair-incr', 'gallery-run-delayed')!;
    expect(delayed.textContent).toBe('Run at 0.33 ms added RTT (delay proxy)');
    click(delayed);
    expect(sent.at(-1)).toEqual({ type: 'run', requestId: expect.stringMatching(/^req-/), spec: { ...tair.spec, rttMs: 0.33 } });

    // Another card's run replaces the store's traces; the Tair card keeps its figures.
    act(() => store.showTraces(galleryPair(blog.spec, [500_000], [50_000]), 'live'));
    frame();
    expect(live('sequential').dataset['value']).toBe('250000');
    expect(figure('blog-ping', 'gallery-live', 'sequential').textContent).toBe('500 ms');
    expect(figure('blog-ping', 'gallery-live', 'ratio').textContent).toBe('10×');
    expect(card('blog-ping').querySelector('[data-testid=gallery-live]')!.textContent).toMatch(/one run each/);

    // The delayed rerun's result sits under the card, with the model's prediction for it.
    act(() => store.showTraces(galleryPair(tair.spec, [2_000_000], [25_400], { rttUs: 370, addedMs: 0.33 }), 'live'));
    frame();
    const rerun = card('tair-incr').querySelector('[data-testid=gallery-delayed]')!;
    expect(rerun.querySelector('h4')!.textContent).toBe('Measured here, through the delay proxy at 0.33 ms added RTT');
    expect(rerun.querySelector('[data-figure=ratio]')!.textContent).toBe('79×');
    expect(rerun.textContent).toMatch(
      /The model, fitted on the run without delay, predicted 75× at this round trip \(370 µs: the connection’s 40 µs plus 0\.33 ms added\); published: ~75×\. Expected against measured: 380 µs against 400 µs per sequential command, 25\.4 ms against 25\.4 ms for the pipeline\./,
    );

    // Show the runs: the card's traces go back to the run store and the app switches to the diagrams.
    click(button('tair-incr', 'gallery-show-runs'));
    frame();
    expect(store.getSnapshot().traces).toEqual(tairTraces);
    expect(shownRuns).toBe(1);
  });

  it('shows what the netcat example’s raw socket wrote and read', () => {
    const { store, frame } = setup();
    view.render(<GalleryView store={store} shown blockedReason={null} onShowRuns={() => {}} />);
    act(() => store.showTraces([galleryTrace(netcat.spec, 'pipeline', 80)], 'url'));
    frame();
    const live = card('docs-netcat').querySelector('[data-testid=gallery-live]')!;
    expect(live.querySelector('h4')!.textContent).toBe('Recorded run, loaded from the URL');
    expect(live.querySelector('[data-testid=gallery-netcat]')!.textContent).toBe(
      '1 write() of 18 B carried PING\\r\\nPING\\r\\nPING\\r\\n; 3 replies came back in 1 read: +PONG\\r\\n+PONG\\r\\n+PONG\\r\\n (client socket).',
    );
    expect(live.textContent).toMatch(/raw socket \(pre-encoded RESP; PING inline\)/);
  });

  it('says why no run can start', () => {
    const { store } = setup();
    view.render(<GalleryView store={store} shown blockedReason="Not connected to the backend" onShowRuns={() => {}} />);
    expect(button('tair-incr', 'gallery-run')!.disabled).toBe(true);
    expect(card('tair-incr').textContent).toMatch(/Not connected to the backend/);
  });
});
