// The run history against an in-memory HistoryDb (jsdom has no IndexedDB): what is saved when runs are
// shown, the bounds and eviction, a trace too big to keep, damaged entries and traces skipped with a
// message, the runs on screen put back after a reload, and a history that is off.
import { describe, expect, it } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import type { ChannelPort } from '../live/live-channel.ts';
import { RunStore } from '../live/run-store.ts';
import { SweepStore } from '../live/sweep-store.ts';
import { HISTORY_BOUNDS, type HistoryBounds } from '../model/history-entries.ts';
import { memoryHistoryDb, type MemoryHistoryDb } from '../test-support/memory-history-db.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import type { HistoryDb } from './history-db.ts';
import { HistoryStore } from './history-store.ts';

const channel: ChannelPort = { isOpen: false, send: () => false, listen: () => () => {} };

function setup(db: MemoryHistoryDb | string = memoryHistoryDb(), bounds: HistoryBounds = HISTORY_BOUNDS) {
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => (frames.push(cb), frames.length), () => {});
  const runs = new RunStore(channel, scheduler);
  const sweeps = new SweepStore(channel, scheduler);
  const history = new HistoryStore(Promise.resolve(db as HistoryDb | string), runs, sweeps, bounds, scheduler);
  history.attach();
  const frame = () => frames.splice(0).forEach((f) => f());
  /** Publishes the stores' changes, then waits for the history's saves (idle time, then the writes) and the ids on screen. */
  const settle = async () => {
    frame();
    await new Promise((resolve) => setTimeout(resolve, 350)); // past the write of the ids on screen
    await history.settled();
    frame();
  };
  return { runs, history, frame, settle, db: typeof db === 'string' ? null : db };
}

const ids = (history: HistoryStore) => history.getSnapshot().entries.map((e) => e.id).sort();

describe('the run history', () => {
  it('saves a run that streams in once it ends, in its request’s group, and a cut-short run with its mark', async () => {
    const { runs, history, settle } = setup();
    await history.whenReady();
    const [a, b] = [sequentialTrace(3), pipelineTrace(3)];
    const partial = (doc: typeof b, reason: 'in-progress' | 'cancelled') => ({ ...doc, incomplete: { reason, sent: 3, replied: 1, omitted: [] } });
    runs.showTraces([a], 'live');
    await settle();
    runs.showTraces([a, partial(b, 'in-progress')], 'live'); // b still streaming: not saved
    await settle();
    expect(ids(history)).toEqual([a.run.id]);
    runs.showTraces([a, partial(b, 'cancelled')], 'live'); // b cancelled: kept, marked, with a
    await settle();
    const entries = history.getSnapshot().entries;
    expect(ids(history)).toEqual([a.run.id, b.run.id].sort());
    expect(entries.find((e) => e.id === b.run.id)!.incomplete).toBe('cancelled');
    expect(entries.find((e) => e.id === b.run.id)!.groupId).toBe(entries.find((e) => e.id === a.run.id)!.groupId);
  });

  it('saves live runs as they are shown, a request’s runs in one group, and remembers which are on screen', async () => {
    const { runs, history, settle, db } = setup();
    await history.whenReady();
    expect(history.getSnapshot().status).toBe('on');
    const [a, b, c] = [sequentialTrace(3), pipelineTrace(3), sequentialTrace(4)];
    runs.showTraces([a], 'live');
    await settle();
    runs.showTraces([a, b], 'live'); // the request's second run
    await settle();
    runs.showTraces([c], 'live'); // a new request
    await settle();
    const entries = history.getSnapshot().entries;
    expect(ids(history)).toEqual([a.run.id, b.run.id, c.run.id].sort());
    const group = (id: string) => entries.find((e) => e.id === id)!.groupId;
    expect(group(a.run.id)).toBe(group(b.run.id));
    expect(group(c.run.id)).not.toBe(group(a.run.id));
    expect(entries.every((e) => e.source === 'live' && e.origin === null)).toBe(true);
    expect(db!.shown).toEqual([c.run.id]);
    // The stored JSON is the trace's own.
    expect(await (db!.traces.get(a.run.id) as Blob).text()).toBe(serializeTrace(a));
  });

  it('records files with their names, drawn or not, as one group', async () => {
    const { history, settle } = setup();
    history.record([sequentialTrace(3), pipelineTrace(3)], ['seq.json', 'pipe.json'], 'file');
    await settle();
    const entries = history.getSnapshot().entries;
    expect(entries.map((e) => [e.source, e.origin])).toEqual([['file', 'seq.json'], ['file', 'pipe.json']]);
    expect(new Set(entries.map((e) => e.groupId)).size).toBe(1);
  });

  it('keeps at most maxRuns, evicting the oldest first', async () => {
    const { history, settle, db } = setup(memoryHistoryDb(), { maxRuns: 2, maxBytes: HISTORY_BOUNDS.maxBytes });
    const docs = [sequentialTrace(3), sequentialTrace(4), sequentialTrace(5)];
    for (const doc of docs) {
      history.record([doc], ['x.json'], 'file');
      await settle();
    }
    expect(ids(history)).toEqual([docs[1]!.run.id, docs[2]!.run.id].sort());
    expect([...db!.traces.keys()].sort()).toEqual(ids(history));
  });

  it('does not keep a trace over the byte bound, and says so once', async () => {
    const { runs, history, settle, db } = setup(memoryHistoryDb(), { maxRuns: 100, maxBytes: 1000 });
    history.record([pipelineTrace(50), pipelineTrace(60)], ['a.json', 'b.json'], 'file');
    await settle();
    expect(history.getSnapshot().entries).toEqual([]);
    expect(db!.traces.size).toBe(0);
    expect(history.getSnapshot().notice).toMatch(/^Run test-pipeline-50 is too big for the history \(at most 1,000 B of trace JSON\); it is shown but not saved\.$/);
    expect(runs.getSnapshot().message?.text).toBe(history.getSnapshot().notice);
  });

  it('skips a damaged or old entry on reading, with a message, and removes it', async () => {
    const db = memoryHistoryDb();
    const first = setup(db);
    first.history.record([sequentialTrace(3)], ['a.json'], 'file');
    await first.settle();
    db.entries.set('bad', { v: 1, id: 'bad', savedAt: 'yesterday' });
    db.entries.set('old', { v: 0, id: 'old' });
    const { history, settle } = setup(db);
    await history.whenReady();
    expect(ids(history)).toEqual([sequentialTrace(3).run.id]);
    expect(history.getSnapshot().notice).toMatch(/^2 saved runs skipped and removed: saved run bad is damaged \(savedAt: .*\); saved run old was written by another version of Pipescope/);
    await settle();
    expect([...db.entries.keys()]).toEqual([sequentialTrace(3).run.id]);
  });

  it('a damaged trace is skipped when shown, with a message; the others are shown, from history', async () => {
    const db = memoryHistoryDb();
    const first = setup(db);
    const [good, bad] = [sequentialTrace(3), pipelineTrace(3)];
    first.history.record([good, bad], ['a.json', 'b.json'], 'file');
    await first.settle();
    db.traces.set(bad.run.id, serializeTrace(bad).replace('"durationUs":', '"durationUs":"x",'));
    const { runs, history } = setup(db);
    expect(await history.show([good.run.id, bad.run.id])).toBe(true);
    expect(runs.getSnapshot().traces.map((d) => d.run.id)).toEqual([good.run.id]);
    expect(runs.getSnapshot().tracesSource).toBe('history');
    expect(runs.getSnapshot().message?.text).toMatch(new RegExp(`^Saved run ${bad.run.id} could not be read and was skipped: `));
    expect(Object.keys(history.getSnapshot().unreadable)).toEqual([bad.run.id]);
  });

  it('after a reload, puts the runs that were on screen back, saying so; not when something is shown already', async () => {
    const db = memoryHistoryDb();
    const first = setup(db);
    const [a, b] = [sequentialTrace(3), pipelineTrace(3)];
    first.runs.showTraces([a, b], 'live');
    await first.settle();
    const reloaded = setup(db);
    expect(await reloaded.history.restore()).toBe(true);
    expect(reloaded.runs.getSnapshot().traces.map((d) => d.run.id)).toEqual([a.run.id, b.run.id]);
    expect(reloaded.runs.getSnapshot().message).toEqual({ kind: 'info', text: 'Restored from history: the 2 runs on screen before the reload.' });
    const busy = setup(db);
    busy.runs.showTraces([sequentialTrace(9)], 'url');
    expect(await busy.history.restore()).toBe(false);
    expect(busy.runs.getSnapshot().traces.map((d) => d.run.id)).toEqual([sequentialTrace(9).run.id]);
  });

  it('Clear empties the history and forgets what was on screen', async () => {
    const db = memoryHistoryDb();
    const first = setup(db);
    first.runs.showTraces([sequentialTrace(3)], 'live');
    await first.settle();
    await first.history.clear();
    expect(first.history.getSnapshot().entries).toEqual([]);
    const reloaded = setup(db);
    expect(await reloaded.history.restore()).toBe(false);
    expect(reloaded.history.getSnapshot().entries).toEqual([]);
  });

  it('without IndexedDB: off, saying why, and runs are shown as before', async () => {
    const { runs, history, settle } = setup('this browser offers no IndexedDB');
    await history.whenReady();
    expect(history.getSnapshot()).toMatchObject({ status: 'off', offReason: 'this browser offers no IndexedDB' });
    runs.showTraces([sequentialTrace(3)], 'live');
    await settle();
    expect(history.getSnapshot().entries).toEqual([]);
    expect(await history.restore()).toBe(false);
  });
});
