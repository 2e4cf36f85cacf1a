import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { sequenceLayout } from './sequence-layout.ts';
import { MAX_MARKS, serverLaneLayout, syscallLabel } from './server-lane-layout.ts';
import { timeScale } from './time-scale-layout.ts';

const g = diagramGeometry(600, 500, true);

describe('diagramGeometry with a Redis lane', () => {
  it('moves the Redis lifeline left to make room for syscall labels', () => {
    const plain = diagramGeometry(600);
    expect(g.serverX).toBeLessThan(plain.serverX);
    expect(g.width - g.serverX).toBeGreaterThanOrEqual(100);
    expect(g.clientX).toBeLessThan(g.serverX);
  });
});

describe('serverLaneLayout', () => {
  it('marks every execution at its MONITOR time with a ± uncertainty band', () => {
    const columns = traceColumns(serverTracedSequential(10));
    const scale = timeScale(columns.endUs, g);
    const lane = serverLaneLayout(columns, scale, g);
    expect(lane.executions).toHaveLength(10);
    lane.executions.forEach((e, i) => {
      expect(e.index).toBe(i);
      expect(e.count).toBe(1);
      expect(e.y).toBeCloseTo(scale(10 + i * 120 + 45));
      expect(e.bandY1).toBeCloseTo(scale(10 + i * 120 + 45 - 15));
      expect(e.bandY2).toBeCloseTo(scale(10 + i * 120 + 45 + 15));
    });
  });

  it('marks each syscall, labels reads and writes with their bytes, leaves epoll_wait unlabelled', () => {
    const columns = traceColumns(serverTracedSequential(3));
    const lane = serverLaneLayout(columns, timeScale(columns.endUs, g), g);
    expect(lane.syscalls.map((s) => s.call)).toEqual(['read', 'write', 'epoll_wait', 'read', 'write', 'epoll_wait', 'read', 'write', 'epoll_wait']);
    const labelled = lane.syscalls.filter((s) => s.label !== undefined);
    expect(labelled.length).toBeGreaterThan(0);
    expect(labelled[0]!.label).toMatch(/^read \d+ B$/);
    expect(lane.syscalls.filter((s) => s.call === 'epoll_wait').every((s) => s.label === undefined)).toBe(true);
    expect(lane.labelX).toBeGreaterThan(g.serverX);
  });

  it('shows the pipeline order: Redis reads once, runs all N, writes once; another client in between', () => {
    const columns = traceColumns(serverTracedPipeline(10));
    const lane = serverLaneLayout(columns, timeScale(columns.endUs, g), g);
    expect(lane.executions).toHaveLength(10);
    expect(lane.syscalls.map((s) => s.call)).toEqual(['read', 'write']);
    expect(lane.syscalls[0]!.y).toBeLessThan(lane.executions[0]!.y);
    expect(lane.syscalls[1]!.y).toBeGreaterThan(lane.executions[9]!.y);
    expect(lane.others).toEqual([{ event: 0, count: 1, y: expect.any(Number) }]);
  });

  it('has nothing to draw for a run that was not server-traced', () => {
    const columns = traceColumns(pipelineTrace(10));
    expect(serverLaneLayout(columns, timeScale(columns.endUs, g), g)).toMatchObject({ executions: [], syscalls: [], others: [] });
  });

  it('without strace: executions but no syscalls', () => {
    const columns = traceColumns(serverTracedSequential(4, false));
    expect(columns.syscalls).toBeNull();
    const lane = serverLaneLayout(columns, timeScale(columns.endUs, g), g);
    expect(lane.executions).toHaveLength(4);
    expect(lane.syscalls).toHaveLength(0);
  });

  it('merges marks per pixel row beyond MAX_MARKS in view, counting every execution once', () => {
    const n = MAX_MARKS * 3;
    const columns = traceColumns(serverTracedPipeline(n));
    const lane = serverLaneLayout(columns, timeScale(columns.endUs, g), g);
    expect(lane.executions.length).toBeLessThan(n);
    expect(lane.executions.reduce((s, e) => s + e.count, 0)).toBe(n);
  });

  it('labels an error result as such', () => {
    expect(syscallLabel({ atUs: 0, call: 'read', result: -1, head: '' })).toBe('read -1 (error)');
    expect(syscallLabel({ atUs: 0, call: 'writev', result: 2048, head: '' })).toBe('writev 2 KiB');
  });
});

describe('sequenceLayout of a server-traced run', () => {
  it('ends each request and starts each reply at the execution', () => {
    const columns = traceColumns(serverTracedSequential(3));
    const scale = timeScale(columns.endUs, g);
    const layout = sequenceLayout(columns, scale, g);
    expect(layout.requests[1]!.y1).toBeCloseTo(scale(130));
    expect(layout.requests[1]!.y2).toBeCloseTo(scale(175));
    expect(layout.replies[1]!.y1).toBeCloseTo(scale(175));
    expect(layout.replies[1]!.y2).toBeCloseTo(scale(230));
  });

  it('fans a pipeline out from one write to N executions and back into one read', () => {
    const columns = traceColumns(serverTracedPipeline(10));
    const layout = sequenceLayout(columns, timeScale(columns.endUs, g), g);
    expect(new Set(layout.requests.map((a) => a.y1)).size).toBe(1);
    expect(new Set(layout.requests.map((a) => a.y2)).size).toBe(10);
    expect(new Set(layout.replies.map((a) => a.y2)).size).toBe(1);
  });
});
