// The runs kept for links: bounded by count and by bytes, the oldest forgotten first; ids of 128
// random bits, never repeated; runs cut short or too big not kept, with the reason.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDocument, tracesOf } from '../../../trace/format/sweep-io.ts';
import { parseTrace, serializeTrace } from '../../../trace/format/trace-io.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { STORED_ID_PATTERN } from '../../../trace/protocol/stored-runs.ts';
import { DEFAULT_RECENT_RUNS_BOUNDS, RecentRuns, newStoredId } from './recent-runs.ts';
import { keepRuns } from './live-requests.ts';
import { openMeasurementWindow } from '../../runs/measurement-window.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';

const RUN = parseTrace(readFileSync('e2e/fixtures/incr-10-pipeline.json', 'utf8'));
const runNamed = (i: number): TraceDocument => ({ ...RUN, run: { ...RUN.run, id: `${RUN.run.id.slice(0, 8)}-${String(i).padStart(8, '0')}` } });
const idOf = (outcome: ReturnType<RecentRuns['keep']>) => ('id' in outcome ? outcome.id : expect.fail(`not kept: ${outcome.notKept}`));
const readBack = (bytes: Buffer | undefined) => tracesOf(parseDocument(gunzipSync(bytes!).toString('utf8')))[0]!;

describe('the runs kept for links', () => {
  it('serves back the very trace kept, in the compact form', () => {
    const recent = new RecentRuns();
    const id = idOf(recent.keep(RUN));
    const text = gunzipSync(recent.get(id)!).toString('utf8');
    expect(JSON.parse(text).format).toBe('pipescope-trace-columns');
    expect(serializeTrace(readBack(recent.get(id)))).toBe(serializeTrace(RUN));
  });

  it('keeps at most maxRuns, forgetting the oldest first', () => {
    const recent = new RecentRuns({ ...DEFAULT_RECENT_RUNS_BOUNDS, maxRuns: 3 });
    const ids = Array.from({ length: 5 }, (_, i) => idOf(recent.keep(runNamed(i))));
    expect(recent.size).toBe(3);
    expect(ids.map((id) => recent.get(id) !== undefined)).toEqual([false, false, true, true, true]);
    expect(readBack(recent.get(ids[4]!)).run.id).toBe(runNamed(4).run.id);
  });

  it('keeps at most maxBytes in all, forgetting the oldest first', () => {
    const one = new RecentRuns();
    one.keep(RUN);
    const size = one.bytes;
    const recent = new RecentRuns({ ...DEFAULT_RECENT_RUNS_BOUNDS, maxBytes: 2 * size + size / 2 });
    const ids = Array.from({ length: 4 }, (_, i) => idOf(recent.keep(runNamed(i))));
    expect(recent.size).toBe(2);
    expect(recent.bytes).toBeLessThanOrEqual(2 * size + size / 2);
    expect(ids.map((id) => recent.get(id) !== undefined)).toEqual([false, false, true, true]);
  });

  it('does not keep a run cut short, one with too many commands or too many bytes, and says why', () => {
    const recent = new RecentRuns({ ...DEFAULT_RECENT_RUNS_BOUNDS, maxCommands: 5 });
    expect(recent.keep(RUN)).toEqual({ notKept: 'it has more than 5 commands' });
    const small = new RecentRuns({ ...DEFAULT_RECENT_RUNS_BOUNDS, maxRunBytes: 100 });
    expect(small.keep(RUN)).toEqual({ notKept: 'its trace is larger than 100 bytes' });
    const cut = { ...RUN, incomplete: { reason: 'cancelled', sent: 10, replied: 10, omitted: [] } } as TraceDocument;
    expect(new RecentRuns().keep(cut)).toEqual({ notKept: 'it was cut short' });
    expect(recent.size + small.size).toBe(0);
  });

  it('names each run with 128 random bits in base64url, never the same twice', () => {
    const ids = new Set(Array.from({ length: 10_000 }, newStoredId));
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(STORED_ID_PATTERN);
    expect(Buffer.from([...ids][0]!, 'base64url')).toHaveLength(16);
    // Every bit moves: over 10,000 ids each of the 128 is set about half the time (±5 %, far beyond chance).
    const counts = new Array<number>(128).fill(0);
    for (const id of ids) Buffer.from(id, 'base64url').forEach((byte, i) => { for (let b = 0; b < 8; b++) counts[i * 8 + b]! += (byte >> b) & 1; });
    for (const count of counts) expect(Math.abs(count / 10_000 - 0.5)).toBeLessThan(0.05);
    // An id that is taken is drawn again.
    const draws = ['A'.repeat(22), 'A'.repeat(22), 'B'.repeat(22)];
    const recent = new RecentRuns(DEFAULT_RECENT_RUNS_BOUNDS, () => draws.shift()!);
    expect([idOf(recent.keep(RUN)), idOf(recent.keep(RUN))]).toEqual(['A'.repeat(22), 'B'.repeat(22)]);
  });

  it('encodes nothing while a run is being measured, and names each run kept once none is', async () => {
    const recent = new RecentRuns();
    const sent: ServerMessage[] = [];
    const close = openMeasurementWindow();
    const kept = keepRuns((m) => sent.push(m), 'req', [runNamed(1), runNamed(2)], recent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([recent.size, sent.length]).toEqual([0, 0]);
    close();
    await kept;
    expect(sent.map((m) => (m.type === 'run-stored' ? m.runId : m.type))).toEqual([runNamed(1).run.id, runNamed(2).run.id]);
    expect(recent.size).toBe(2);
  });
});
