// The tour panel in jsdom: the clicker's PageDown sends the step's preset as a run request (and no
// document-level listener hears it), PageUp steps back, and ←/→ pass through untouched.
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ClientMessage } from '../../../../trace/protocol/live-protocol.ts';
import { FrameScheduler } from '../../base/frame-scheduler.ts';
import { TOUR_STEPS } from '../../format/tour-steps.ts';
import type { ChannelPort } from '../../live/live-channel.ts';
import { RunStore } from '../../live/run-store.ts';
import { SweepStore } from '../../live/sweep-store.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { TourView } from './tour-view.tsx';

function setup(step: number) {
  const sent: ClientMessage[] = [];
  const channel: ChannelPort = { isOpen: true, send: (m) => (sent.push(m), true), listen: () => () => {} };
  const scheduler = new FrameScheduler(() => 0, () => {});
  const store = new RunStore(channel, scheduler);
  const sweepStore = new SweepStore(channel, scheduler);
  const onStep = vi.fn();
  const onView = vi.fn();
  const node = (
    <TourView step={step} onStep={onStep} onClose={() => {}} live liveWhere="Redis 7.0.15 · test" store={store} sweepStore={sweepStore}
      runs={store.getSnapshot()} sweeps={sweepStore.getSnapshot()} onView={onView} />
  );
  return { sent, onStep, onView, node };
}

/** Presses a key on the body; returns whether it was prevented and whether a document listener heard it. */
function press(key: string): { prevented: boolean; heard: boolean } {
  let heard = false;
  const listener = () => (heard = true);
  document.addEventListener('keydown', listener);
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  act(() => {
    document.body.dispatchEvent(event);
  });
  document.removeEventListener('keydown', listener);
  return { prevented: event.defaultPrevented, heard };
}

describe('the tour panel', () => {
  const ctx = useReactHost();

  it('PageDown runs the step: its preset goes to the backend as one run request, and only the tour hears the key', () => {
    const { sent, onView, node } = setup(1);
    ctx.render(node);
    expect(press('PageDown')).toEqual({ prevented: true, heard: false });
    expect(sent).toHaveLength(1);
    const message = sent[0]!;
    expect(message.type).toBe('run');
    expect(message.type === 'run' && message.spec).toEqual(TOUR_STEPS[0]!.preset.spec);
    expect(onView).toHaveBeenCalledWith('run');
    expect(ctx.host.querySelector('[data-testid=tour]')!.getAttribute('data-step-state')).toBe('running');
  });

  it('PageUp goes back a step; ← and → are left to the page', () => {
    const { onStep, node } = setup(3);
    ctx.render(node);
    expect(press('PageUp')).toEqual({ prevented: true, heard: false });
    expect(onStep).toHaveBeenCalledWith(2);
    expect(press('ArrowRight')).toEqual({ prevented: false, heard: true });
    expect(press('ArrowLeft')).toEqual({ prevented: false, heard: true });
  });

  it('the sweep step sends a sweep request and shows the sweep view', () => {
    const index = TOUR_STEPS.findIndex((s) => s.preset.kind === 'sweep');
    const { sent, onView, node } = setup(index + 1);
    ctx.render(node);
    press('PageDown');
    expect(sent[0]!.type).toBe('sweep');
    expect(onView).toHaveBeenCalledWith('sweep');
  });
});
