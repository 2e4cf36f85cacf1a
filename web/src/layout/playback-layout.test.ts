import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, sequentialTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { MAX_DOTS, playbackMarks, sequenceAtPlayhead, serverLaneAtPlayhead } from './playback-layout.ts';
import { sequenceLayout } from './sequence-layout.ts';
import { serverLaneLayout } from './server-lane-layout.ts';
import { timeScale } from './time-scale-layout.ts';

const g = diagramGeometry(600, 500, true);

function setup(doc: ReturnType<typeof sequentialTrace>) {
  const columns = traceColumns(doc);
  const scale = timeScale(columns.endUs, g);
  return { columns, scale, layout: sequenceLayout(columns, scale, g) };
}

describe('sequenceAtPlayhead', () => {
  it('draws the arrows and lane marks of what had happened, a reply only once it was read', () => {
    // Sequential: writes at 10, 130, 250; reads 100 µs after each.
    const { columns, scale, layout } = setup(sequentialTrace(3));
    const at = sequenceAtPlayhead(layout, columns, 130, scale(130));
    expect(at.requests.map((a) => a.index)).toEqual([0, 1]);
    expect(at.replies.map((a) => a.index)).toEqual([0]);
    expect(at.marks.map((m) => `${m.kind}:${m.event}`)).toEqual(['write:0', 'read:0', 'write:1']);
    expect(sequenceAtPlayhead(layout, columns, 0, scale(0)).requests).toEqual([]);
    expect(sequenceAtPlayhead(layout, columns, columns.endUs, scale(columns.endUs))).toEqual(layout);
  });

  it('cuts a sloped arrow under way at the playhead, and leaves it out with whole (reduced motion)', () => {
    // Server-traced sequential: write at 10, execution at 55, read at 110.
    const { columns, scale, layout } = setup(serverTracedSequential(1));
    const y = scale(32.5);
    const cut = sequenceAtPlayhead(layout, columns, 32.5, y);
    expect(cut.requests).toHaveLength(1);
    expect(cut.requests[0]!.y2).toBe(y);
    expect(cut.requests[0]!.x2).toBeCloseTo((g.clientX + g.serverX) / 2);
    expect(cut.replies).toEqual([]);
    expect(sequenceAtPlayhead(layout, columns, 32.5, y, true).requests).toEqual([]);
  });
});

describe('serverLaneAtPlayhead', () => {
  it('keeps the executions, syscalls and other clients’ commands that had happened', () => {
    // Pipeline of 3: Redis read() at 200, another client at 250, executions at 300, 301, 302, write() at 313.
    const columns = traceColumns(serverTracedPipeline(3));
    const scale = timeScale(columns.endUs, g);
    const lane = serverLaneAtPlayhead(serverLaneLayout(columns, scale, g), columns, 300.5);
    expect(lane.executions.map((e) => e.index)).toEqual([0]);
    expect(lane.syscalls.map((s) => s.call)).toEqual(['read']);
    expect(lane.others).toHaveLength(1);
  });
});

describe('playbackMarks', () => {
  it('puts the playhead at its time and a dot on each message under way', () => {
    // Server-traced sequential: write at 10, execution at 55, read at 110.
    const columns = traceColumns(serverTracedSequential(1));
    const scale = timeScale(columns.endUs, g);
    const going = playbackMarks(columns, scale, g, 32.5);
    expect(going.y).toBe(scale(32.5));
    expect(going.dots).toEqual([{ kind: 'request', index: 0, x: (g.clientX + g.serverX) / 2, y: scale(32.5) }]);
    const back = playbackMarks(columns, scale, g, 82.5).dots;
    expect(back).toEqual([{ kind: 'reply', index: 0, x: (g.clientX + g.serverX) / 2, y: scale(82.5) }]);
    expect(playbackMarks(columns, scale, g, 110).dots).toEqual([]); // read: arrived
    expect(playbackMarks(columns, scale, g, 32.5, false).dots).toEqual([]);
  });

  it('without Redis-side times, takes a message to reach Redis halfway through its round trip', () => {
    // Sequential: write at 10, read at 110 → at Redis at 60.
    const columns = traceColumns(sequentialTrace(1));
    const scale = timeScale(columns.endUs, g);
    expect(playbackMarks(columns, scale, g, 35).dots[0]).toMatchObject({ kind: 'request', x: (g.clientX + g.serverX) / 2 });
    expect(playbackMarks(columns, scale, g, 85).dots[0]).toMatchObject({ kind: 'reply', x: (g.clientX + g.serverX) / 2 });
  });

  it('draws at most MAX_DOTS dots and counts every message in flight', () => {
    const columns = traceColumns(pipelineTrace(2000));
    const scale = timeScale(columns.endUs, g);
    const marks = playbackMarks(columns, scale, g, 100);
    expect(marks.inFlight).toBe(2000);
    expect(marks.dots.length).toBeLessThanOrEqual(MAX_DOTS);
    expect(marks.dots.length).toBeGreaterThan(MAX_DOTS / 2);
  });
});
