// The banner while the backend is unreachable: its alert says so once; the reconnect countdown beside
// it ticks every second, so it stays outside the alert (an alert re-announces every change of its text).
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReactHost } from '../../test-support/react-host.ts';
import { StatusBannerView } from './status-banner-view.tsx';

describe('StatusBannerView, backend unreachable', () => {
  const view = useReactHost();
  afterEach(() => vi.useRealTimers());

  it('alerts once with what happened; the countdown ticks outside the alert, and stops at zero', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(1_000_000);
    view.render(<StatusBannerView connection={{ status: 'closed', attempt: 2, retryAt: 1_003_000, reason: 'connection refused' }} redis={null} onRetry={() => {}} />);
    const alert = view.host.querySelector('[role=alert]')!;
    expect(alert.textContent).toBe('Can’t reach the Pipescope backend — connection refused. Live runs are paused.');
    const countdown = () => view.host.querySelector('[data-testid=banner-retry]')!.textContent;
    expect(countdown()).toBe('Reconnecting in 3 s (attempt 2)…');
    act(() => void vi.advanceTimersByTime(1_000));
    expect(countdown()).toBe('Reconnecting in 2 s (attempt 2)…');
    expect(alert.textContent).not.toMatch(/Reconnecting/);
    act(() => void vi.advanceTimersByTime(2_500));
    expect(countdown()).toBe('Reconnecting…');
    // Nothing left to count: the timer is gone.
    expect(vi.getTimerCount()).toBe(0);
  });
});
