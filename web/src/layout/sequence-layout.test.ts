import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, proxiedTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { chooseRenderMode } from './render-mode.ts';
import { sequenceLayout, unionSize } from './sequence-layout.ts';
import { timeScale } from './time-scale-layout.ts';

const g = diagramGeometry(600);

describe('sequenceLayout', () => {
  const doc = sequentialTrace(10, 100, 20);
  const columns = traceColumns(doc);
  const scale = timeScale(columns.endUs, g);
  const layout = sequenceLayout(columns, scale, g);

  it('draws one request and one reply arrow per command, at the measured times', () => {
    expect(layout.requests).toHaveLength(10);
    expect(layout.replies).toHaveLength(10);
    expect(layout.commandsDrawn).toBe(10);
    for (const arrow of layout.requests) {
      expect(arrow.y1).toBeCloseTo(scale(doc.commands[arrow.index]!.sentUs));
      expect(arrow.y2).toBe(arrow.y1);
      expect([arrow.x1, arrow.x2]).toEqual([g.clientX, g.serverX]);
    }
    for (const arrow of layout.replies) {
      expect(arrow.y2).toBeCloseTo(scale(doc.commands[arrow.index]!.repliedUs));
      expect(arrow.y1).toBe(arrow.y2);
      expect([arrow.x1, arrow.x2]).toEqual([g.serverX, g.clientX]);
    }
  });

  it('puts the last reply on the plot bottom and time flows down', () => {
    expect(layout.replies.at(-1)!.y2).toBeCloseTo(g.plotBottom);
    for (let i = 1; i < 10; i++) expect(layout.requests[i]!.y1).toBeGreaterThan(layout.requests[i - 1]!.y1);
  });

  it('marks each socket write and read on the client lane, without bundles', () => {
    expect(layout.marks.filter((m) => m.kind === 'write')).toHaveLength(10);
    expect(layout.marks.filter((m) => m.kind === 'read')).toHaveLength(10);
    expect(layout.bundles).toHaveLength(0);
    // Each may carry its label, with shorter forms; which are printed is the label placement's choice.
    expect(layout.marks[0]).toMatchObject({ kind: 'write', label: 'write: 1 cmd, 40 B', shortLabels: ['1 cmd, 40 B', '1 cmd'] });
  });

  it('bundles commands that one write carried, on one y', () => {
    const pipe = traceColumns(pipelineTrace(10));
    const p = sequenceLayout(pipe, timeScale(pipe.endUs, g), g);
    expect(new Set(p.requests.map((a) => a.y1)).size).toBe(1);
    expect(p.bundles.map((b) => b.label)).toEqual(['×10 in 1 write', '×10 in 1 read']);
    expect(p.marks.map((m) => m.label)).toEqual(['write: 10 cmds, 400 B', 'read: 10 replies, 40 B']);
  });

  it('lays out only what is in view when zoomed', () => {
    const zoomed = timeScale(columns.endUs, g, { k: 4, ty: -(g.plotTop * 3) });
    const part = sequenceLayout(columns, zoomed, g);
    expect(part.requests.length).toBeLessThan(10);
    for (const a of part.requests) {
      expect(a.y1).toBeGreaterThanOrEqual(g.plotTop - 1e-9);
      expect(a.y1).toBeLessThanOrEqual(g.plotBottom + 1e-9);
    }
  });
});

describe('sequenceLayout through the delay proxy', () => {
  it('slopes each arrow down to the time the proxy handed the command to Redis, and back', () => {
    const columns = traceColumns(proxiedTrace());
    const scale = timeScale(columns.endUs, g);
    const layout = sequenceLayout(columns, scale, g);
    const [request] = layout.requests;
    const [reply] = layout.replies;
    expect(request!.y1).toBeCloseTo(scale(10));
    expect(request!.y2).toBeCloseTo(scale(60));
    expect(reply!.y1).toBeCloseTo(scale(70));
    expect(reply!.y2).toBeCloseTo(scale(120));
  });
});

describe('chooseRenderMode', () => {
  it('uses SVG up to 300 commands in view and canvas beyond', () => {
    const small = traceColumns(pipelineTrace(300));
    expect(chooseRenderMode(small, timeScale(small.endUs, g))).toBe('svg');
    const big = traceColumns(pipelineTrace(301));
    expect(chooseRenderMode(big, timeScale(big.endUs, g))).toBe('canvas');
  });
  it('returns to SVG when a zoom leaves few commands in view', () => {
    const seq = traceColumns(sequentialTrace(2000, 100, 20));
    expect(chooseRenderMode(seq, timeScale(seq.endUs, g))).toBe('canvas');
    expect(chooseRenderMode(seq, timeScale(seq.endUs, g, { k: 100, ty: 0 }))).toBe('svg');
  });
});

describe('unionSize', () => {
  it('counts commands that have a request, a reply or both in view', () => {
    expect(unionSize({ start: 0, end: 10 }, { start: 0, end: 10 })).toBe(10);
    expect(unionSize({ start: 5, end: 10 }, { start: 0, end: 3 })).toBe(8);
    expect(unionSize({ start: 0, end: 0 }, { start: 2, end: 4 })).toBe(2);
    expect(unionSize({ start: 0, end: 6 }, { start: 4, end: 9 })).toBe(9);
  });
});
