import { describe, expect, it } from 'vitest';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import {
  COMPARE_MAX, HISTORY_BOUNDS, MAX_HISTORY_BYTES, MAX_HISTORY_RUNS, compareBlockedReason, entrySummary, evictionChoice, historyGroups,
  pickBlockedReason, readHistoryEntries, readHistoryEntry, type HistoryEntry,
} from './history-entries.ts';

const from = (savedAt: number, groupId = 'g1', bytes = 100) => ({ savedAt, groupId, source: 'live' as const, origin: null, bytes });

describe('entry summaries', () => {
  it('keep what the table lists, from the trace, and read back as they were written', () => {
    const doc = pipelineTrace(10);
    const entry = entrySummary(doc, from(1000));
    expect(entry).toMatchObject({
      id: doc.run.id, mode: 'pipeline', chunk: null, command: 'INCR', operations: 10, client: doc.recorder.client, addedRttMs: doc.rtt.addedMs,
      durationUs: doc.totals.durationUs, opsPerSec: doc.totals.opsPerSec, startedAt: doc.run.startedAt, source: 'live', groupId: 'g1', bytes: 100,
    });
    expect(readHistoryEntry(JSON.parse(JSON.stringify(entry)))).toEqual({ entry });
  });

  it('a damaged or other-version entry is skipped with a reason, the good ones kept', () => {
    const good = entrySummary(sequentialTrace(3), from(1));
    const read = readHistoryEntries([good, { ...good, id: 'old', v: 0 }, { ...good, id: 'bad', durationUs: 'soon' }, null, 'text']);
    expect(read.entries).toEqual([good]);
    expect(read.skipped).toHaveLength(4);
    expect(read.skipped[0]).toMatch(/^saved run old was written by another version of Pipescope/);
    expect(read.skipped[1]).toMatch(/^saved run bad is damaged \(durationUs: /);
    expect(read.skippedIds).toEqual(['old', 'bad']);
  });
});

describe('eviction', () => {
  const entries = (n: number, bytes = 10) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, savedAt: 100 + i, bytes }));

  it('the bounds are 100 runs and 200 MiB of trace JSON', () => {
    expect(HISTORY_BOUNDS).toEqual({ maxRuns: MAX_HISTORY_RUNS, maxBytes: MAX_HISTORY_BYTES });
    expect(MAX_HISTORY_RUNS).toBe(100);
    expect(MAX_HISTORY_BYTES).toBe(200 * 1024 * 1024);
  });

  it('nothing while there is room', () => {
    expect(evictionChoice(entries(99), 10)).toEqual({ fits: true, evict: [] });
  });

  it('the oldest run when the 101st arrives, whatever order they are listed in', () => {
    expect(evictionChoice(entries(100).reverse(), 10)).toEqual({ fits: true, evict: ['r0'] });
  });

  it('the oldest runs until the bytes fit', () => {
    const bounds = { maxRuns: 100, maxBytes: 100 };
    expect(evictionChoice(entries(5, 20), 45, bounds)).toEqual({ fits: true, evict: ['r0', 'r1', 'r2'] });
    expect(evictionChoice(entries(5, 20), 100, bounds)).toEqual({ fits: true, evict: ['r0', 'r1', 'r2', 'r3', 'r4'] });
  });

  it('a single trace over the byte bound does not fit, and evicts nothing', () => {
    expect(evictionChoice(entries(5, 20), 101, { maxRuns: 100, maxBytes: 100 })).toEqual({ fits: false });
  });
});

describe('groups and picking', () => {
  const entry = (id: string, savedAt: number, groupId: string): HistoryEntry => ({ ...entrySummary(sequentialTrace(3), from(savedAt, groupId)), id });

  it('one group per request, the newest group first, each in the order saved', () => {
    const groups = historyGroups([entry('a1', 1, 'a'), entry('b2', 4, 'b'), entry('a2', 2, 'a'), entry('b1', 3, 'b'), entry('c1', 5, 'c')]);
    expect(groups.map((g) => [g.groupId, g.entries.map((e) => e.id)])).toEqual([['c', ['c1']], ['b', ['b1', 'b2']], ['a', ['a1', 'a2']]]);
  });

  it('a 7th pick is refused with the reason; compare wants 2 to 6', () => {
    expect(pickBlockedReason(COMPARE_MAX - 1, false)).toBeNull();
    expect(pickBlockedReason(COMPARE_MAX, true)).toBeNull();
    expect(pickBlockedReason(COMPARE_MAX, false)).toBe('At most 6 runs compare at once; clear one to pick another.');
    expect(compareBlockedReason(1)).toBe('Pick 2 to 6 runs to compare (1 picked).');
    expect(compareBlockedReason(2)).toBeNull();
    expect(compareBlockedReason(6)).toBeNull();
  });
});
