import { describe, expect, it } from 'vitest';
import { diagramGeometry } from './diagram-geometry.ts';
import { axisTicks, growingDomainEndUs, timeScale, visibleTimeRange } from './time-scale-layout.ts';

const g = diagramGeometry(600);

describe('timeScale', () => {
  it('maps 0..domain end onto the plot, time flowing down', () => {
    const scale = timeScale(10_000, g);
    expect(scale(0)).toBe(g.plotTop);
    expect(scale(10_000)).toBe(g.plotBottom);
    expect(visibleTimeRange(scale)).toEqual({ fromUs: 0, toUs: 10_000 });
  });

  it('applies the y-only zoom like d3-zoom: screen y = k · base y + ty', () => {
    const base = timeScale(10_000, g);
    const zoom = { k: 4, ty: -600 };
    const zoomed = timeScale(10_000, g, zoom);
    for (const us of [0, 1234, 5000, 9999]) expect(zoomed(us)).toBeCloseTo(zoom.k * base(us) + zoom.ty);
    const { fromUs, toUs } = visibleTimeRange(zoomed);
    expect(toUs - fromUs).toBeCloseTo(2500);
  });

  it('labels ticks distinctly however deep the zoom', () => {
    const zoomed = timeScale(100_000, g, { k: 2000, ty: -2000 * 200 });
    const labels = axisTicks(zoomed).map((t) => t.label);
    expect(labels.length).toBeGreaterThan(2);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('growingDomainEndUs', () => {
  it('steps through 1, 2, 5 × 10^k at or past the latest event, so a growing run rescales rarely', () => {
    expect([0, 1, 7, 10, 11, 150, 200, 201, 4_999, 5_001, 1_234_567].map(growingDomainEndUs)).toEqual([1, 1, 10, 10, 20, 200, 200, 500, 5_000, 10_000, 2_000_000]);
  });
});
