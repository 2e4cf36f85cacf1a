import { describe, expect, it } from 'vitest';
import { IDENTITY_ZOOM, maxZoom, timeScale } from './time-scale-layout.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { isUnzoomed, windowOfZoom, zoomOfWindow } from './zoom-window.ts';

const g = diagramGeometry(800);

describe('zoom ↔ µs window', () => {
  it('shows the window asked for at the plot edges', () => {
    const zoom = zoomOfWindow({ fromUs: 200, toUs: 300 }, 1000);
    expect(zoom.k).toBeCloseTo(10);
    const [from, to] = timeScale(1000, g, zoom).domain();
    expect(from).toBeCloseTo(200, 9);
    expect(to).toBeCloseTo(300, 9);
  });

  it('round-trips a window, and a zoom', () => {
    const window = windowOfZoom(zoomOfWindow({ fromUs: 12.5, toUs: 40.25 }, 97), 97)!;
    expect(window.fromUs).toBeCloseTo(12.5, 9);
    expect(window.toUs).toBeCloseTo(40.25, 9);
    const zoom = { k: 3.7, ty: -500 };
    const back = zoomOfWindow(windowOfZoom(zoom, 5000), 5000);
    expect(back.k).toBeCloseTo(3.7, 9);
    expect(back.ty).toBeCloseTo(-500, 6);
  });

  it('is the same at every diagram width', () => {
    expect(windowOfZoom({ k: 2, ty: -100 }, 1000, diagramGeometry(300))).toEqual(windowOfZoom({ k: 2, ty: -100 }, 1000, diagramGeometry(1400)));
  });

  it('no zoom, or a window covering the timeline, is the identity', () => {
    expect(windowOfZoom(IDENTITY_ZOOM, 1000)).toBeNull();
    expect(isUnzoomed({ k: 1 + 1e-9, ty: 0 })).toBe(true);
    expect(zoomOfWindow(null, 1000)).toEqual(IDENTITY_ZOOM);
    expect(zoomOfWindow({ fromUs: 0, toUs: 5000 }, 1000)).toEqual(IDENTITY_ZOOM);
  });

  it('clips a window that runs past the timeline, and drops one wholly beyond it', () => {
    const [from, to] = timeScale(1000, g, zoomOfWindow({ fromUs: 500, toUs: 9000 }, 1000)).domain();
    expect(from).toBeCloseTo(500, 9);
    expect(to).toBeCloseTo(1000, 9);
    expect(zoomOfWindow({ fromUs: 2000, toUs: 3000 }, 1000)).toEqual(IDENTITY_ZOOM);
  });

  it('widens a window narrower than the deepest zoom about its centre', () => {
    const zoom = zoomOfWindow({ fromUs: 500, toUs: 500.001 }, 1000);
    expect(zoom.k).toBe(maxZoom(1000, g));
    const [from, to] = timeScale(1000, g, zoom).domain();
    expect((from! + to!) / 2).toBeCloseTo(500.0005, 6);
  });

  it('keeps a narrow window at the very end inside the timeline', () => {
    const [, to] = timeScale(1000, g, zoomOfWindow({ fromUs: 999.9999, toUs: 1000 }, 1000)).domain();
    expect(to).toBeCloseTo(1000, 6);
  });
});
