// The progress card of a request: its time left at the current rate while it runs, and none once the user
// has pressed Cancel (the run is stopping: a count of time left would say it goes on).
import { describe, expect, it } from 'vitest';
import type { ActiveRequest } from '../../live/live-run-tracker.ts';
import { useReactHost } from '../../test-support/react-host.ts';
import { RunProgressView } from './run-progress-view.tsx';

const active = (cancelling: boolean): ActiveRequest => ({
  requestId: 'req-1',
  spec: { command: 'INCR', n: 1_000, modes: ['sequential'], chunk: 100, rttMs: 250, jitterMs: 0 } as unknown as ActiveRequest['spec'],
  position: 0,
  cancelling,
  progress: [{ mode: 'sequential', n: 1_000, sent: 11, replied: 10, lastUs: 2_500_000, runsDone: 0, runs: 1, upTo: false, limit: 1, done: false }],
});

describe('RunProgressView', () => {
  const view = useReactHost();

  it('says how long is left at this rate while the run goes on', () => {
    view.render(<RunProgressView active={active(false)} />);
    expect(view.host.querySelector('[data-testid=queue-position]')?.textContent).toBe('running');
    // 10 replies in 2.5 s: 990 more take 247.5 s.
    expect(view.host.querySelector('[data-testid=eta]')?.textContent).toBe(' · about 248 s left at this rate');
  });

  it('after Cancel, says it is cancelling and no longer counts time left', () => {
    view.render(<RunProgressView active={active(true)} />);
    expect(view.host.querySelector('[data-testid=queue-position]')?.textContent).toBe('cancelling…');
    expect(view.host.querySelector('[data-testid=eta]')).toBeNull();
  });
});
