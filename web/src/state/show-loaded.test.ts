import { describe, expect, it } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import type { ChannelPort } from '../live/live-channel.ts';
import { RunStore } from '../live/run-store.ts';
import { SweepStore } from '../live/sweep-store.ts';
import { modeTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { notShownText, showLoaded } from './show-loaded.ts';

describe('opening more runs than compare side by side', () => {
  it('names the runs not drawn instead of dropping them silently', () => {
    const text = notShownText([modeTrace('eval', 10).run, modeTrace('evalsha', 10).run], 8);
    expect(text).toBe(
      'Showing the first 6 of 8 runs (at most 6 compare side by side); not drawn: One EVAL script · 10 × INCR; EVALSHA calls in one pipeline · 10 × INCR. Open those on their own to see them.',
    );
  });

  it('draws 6 of 8, names the other 2, and hands all 8 with their names to the history', () => {
    const channel: ChannelPort = { isOpen: false, send: () => false, listen: () => () => {} };
    const scheduler = new FrameScheduler(() => 1, () => {});
    const runs = new RunStore(channel, scheduler);
    const docs = [2, 3, 4, 5, 6, 7, 8, 9].map((n) => sequentialTrace(n));
    const origins = docs.map((_, i) => `run-${i}.json`);
    const recorded: [number, readonly string[]][] = [];
    const view = showLoaded({ docs, origins, sweeps: [], errors: [], publicErrors: [] }, 'file', runs, new SweepStore(channel, scheduler), (d, o) => recorded.push([d.length, o]));
    expect(view).toBe('run');
    expect(runs.getSnapshot().traces).toHaveLength(6);
    expect(runs.getSnapshot().message?.text).toMatch(/^Showing the first 6 of 8 runs .*; not drawn: Sequential · 8 × INCR; Sequential · 9 × INCR\./);
    expect(recorded).toEqual([[8, origins]]);
  });
});
