import { describe, expect, it } from 'vitest';
import { formatUs } from '../format/number-format.ts';
import { allMarks, markTimeUs } from '../model/diagram-marks.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, proxiedTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { HOVER_RADIUS_PX, keyboardTooltipPoint, markFocus, nearestCommand, revealTy } from './focus-layout.ts';
import { timeScale } from './time-scale-layout.ts';

const g = diagramGeometry(640, 500, true);

describe('nearestCommand', () => {
  // Sequential: requests at 10, 130, 250 µs; replies read at 110, 230, 350.
  const columns = traceColumns(sequentialTrace(3));
  const scale = timeScale(columns.endUs, g);

  it('picks the command whose request or reply arrow is nearest, within the hover radius', () => {
    expect(nearestCommand(columns, scale, scale(130) + 3)).toBe(1);
    expect(nearestCommand(columns, scale, scale(130) - 3)).toBe(1);
    expect(nearestCommand(columns, scale, scale(110) + 2)).toBe(0);
    expect(nearestCommand(columns, scale, scale(350))).toBe(2);
    // Between a reply (110) and the next request (130) the nearer one wins.
    expect(nearestCommand(columns, scale, scale(113))).toBe(0);
    expect(nearestCommand(columns, scale, scale(127))).toBe(1);
  });

  it('finds nothing farther than the radius (px, strictly)', () => {
    expect(nearestCommand(columns, scale, scale(60))).toBeNull();
    expect(nearestCommand(columns, scale, scale(250) + HOVER_RADIUS_PX)).toBeNull();
    expect(nearestCommand(columns, scale, scale(250) + HOVER_RADIUS_PX - 0.5)).toBe(2);
    expect(nearestCommand(columns, scale, scale(250) + 20, 24)).toBe(2);
    expect(nearestCommand(columns, scale, g.plotTop - 100)).toBeNull();
  });

  it('gives a bundle its first command, at any zoom', () => {
    // All 20 requests written at 10 µs, all replies read at 500.
    const bundle = traceColumns(pipelineTrace(20));
    const zoomed = timeScale(bundle.endUs, g, { k: 8, ty: -8 * g.plotTop + g.plotTop });
    for (const s of [timeScale(bundle.endUs, g), zoomed]) {
      expect(nearestCommand(bundle, s, s(10) + 1)).toBe(0);
      expect(nearestCommand(bundle, s, s(500) - 1)).toBe(0);
    }
  });
});

describe('markFocus', () => {
  it('emphasises a command\'s two arrows, with its latency, and rings them only for the keyboard', () => {
    const columns = traceColumns(sequentialTrace(3));
    const scale = timeScale(columns.endUs, g);
    const hovered = markFocus(columns, scale, g, { kind: 'command', index: 1 }, false);
    // No Redis-side times: the arrows are horizontal.
    expect(hovered.marks).toEqual({ sentY: scale(130), repliedY: scale(230), atServerY: scale(130), leftServerY: scale(230), latencyLabel: formatUs(100) });
    expect(hovered.ring).toBeNull();
    expect(hovered.anchorY).toBe(scale(130));
    const focused = markFocus(columns, scale, g, { kind: 'command', index: 1 }, true);
    expect(focused.marks).toEqual(hovered.marks);
    expect(focused.ring).toEqual({ kind: 'command', x: g.clientX - 6, y: scale(130) - 7, width: g.serverX - g.clientX + 12, height: scale(230) - scale(130) + 14 });
  });

  it('ends a proxied command\'s arrows where the proxy handed over, and rings the whole of both', () => {
    // Written at 10, at Redis 60, back from Redis 70, read at 120.
    const columns = traceColumns(proxiedTrace());
    const scale = timeScale(columns.endUs, g);
    const { marks, ring } = markFocus(columns, scale, g, { kind: 'command', index: 0 }, true);
    expect(marks).toMatchObject({ sentY: scale(10), atServerY: scale(60), leftServerY: scale(70), repliedY: scale(120), latencyLabel: formatUs(110) });
    expect(ring!.y).toBe(scale(10) - 7);
    expect(ring!.y + ring!.height).toBeCloseTo(scale(120) + 7);
  });

  it('rings a Redis-side mark on its own side of the Redis lifeline, centred on its time', () => {
    const columns = traceColumns(serverTracedPipeline(3));
    const scale = timeScale(columns.endUs, g);
    const rings = allMarks(columns).filter((m) => m.kind !== 'command').map((m) => {
      const focus = markFocus(columns, scale, g, m, true);
      expect(focus.marks).toBeNull();
      expect(focus.anchorY).toBe(scale(markTimeUs(columns, m)));
      expect(focus.ring!.y + focus.ring!.height / 2).toBeCloseTo(focus.anchorY);
      expect(markFocus(columns, scale, g, m, false).ring).toBeNull();
      return focus.ring!;
    });
    const ofKind = (kind: string) => rings.find((r) => r.kind === kind)!;
    // The diamond on the lifeline, the syscall box right of it, the other client's dot left of it.
    expect(ofKind('execution').x).toBeLessThan(g.serverX);
    expect(ofKind('execution').x + ofKind('execution').width).toBeGreaterThan(g.serverX);
    expect(ofKind('syscall').x).toBeGreaterThan(g.serverX);
    expect(ofKind('other').x + ofKind('other').width).toBeLessThan(g.serverX);
  });
});

describe('keyboardTooltipPoint', () => {
  it('sits right of the mark\'s lifeline, level with it, never above or below the plot', () => {
    expect(keyboardTooltipPoint('command', 200, g, 100, 50)).toEqual({ x: 100 + g.clientX + 24, y: 250 });
    expect(keyboardTooltipPoint('syscall', 200, g, 100, 50)).toEqual({ x: 100 + g.serverX + 24, y: 250 });
    expect(keyboardTooltipPoint('execution', -40, g, 0, 0).y).toBe(g.plotTop);
    expect(keyboardTooltipPoint('other', 9_999, g, 0, 10).y).toBe(10 + g.plotBottom);
  });
});

describe('revealTy', () => {
  const domainEndUs = 10_000;
  const k = 10;

  it('leaves a time in view where it is', () => {
    const zoom = { k, ty: -k * g.plotTop + g.plotTop };
    const scale = timeScale(domainEndUs, g, zoom);
    const [fromUs, toUs] = scale.domain() as [number, number];
    expect(revealTy((fromUs + toUs) / 2, scale, g, domainEndUs, k)).toBeNull();
    expect(revealTy(fromUs, scale, g, domainEndUs, k)).toBeNull();
  });

  it('centres a time out of view, keeping the zoom factor', () => {
    const scale = timeScale(domainEndUs, g, { k, ty: -k * g.plotTop + g.plotTop });
    for (const us of [7_500, 9_990]) {
      const ty = revealTy(us, scale, g, domainEndUs, k);
      expect(ty).not.toBeNull();
      expect(timeScale(domainEndUs, g, { k, ty: ty! })(us)).toBeCloseTo((g.plotTop + g.plotBottom) / 2);
    }
  });
});
