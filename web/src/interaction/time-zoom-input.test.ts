// d3-zoom on a real (jsdom) <svg>: the pointer's and the keys' zoom, its bounds, and which changes are
// the diagram's own. jsdom lays nothing out: the SVG sits at the viewport's origin.
import { afterEach, describe, expect, it } from 'vitest';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import type { TimeZoom } from '../layout/time-scale-layout.ts';
import { TimeZoomInput } from './time-zoom-input.ts';

const g = diagramGeometry(640);
const centre = (g.plotTop + g.plotBottom) / 2;

let svg: SVGSVGElement;

function setup() {
  svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(svg);
  const heard: { zoom: TimeZoom; external: boolean }[] = [];
  const input = new TimeZoomInput(svg, g, (zoom, external) => heard.push({ zoom, external }));
  return { input, heard };
}

afterEach(() => svg.remove());

describe('TimeZoomInput', () => {
  it('adopts a zoom from elsewhere as external, and zooms by a factor about the plot\'s centre as its own', () => {
    const { input, heard } = setup();
    input.apply({ k: 2, ty: -100 });
    expect(heard).toEqual([{ zoom: { k: 2, ty: -100 }, external: true }]);
    expect(input.zoom).toEqual({ k: 2, ty: -100 });
    input.scaleBy(2);
    const { k, ty } = input.zoom;
    expect(k).toBe(4);
    // The plot's centre shows the same time as before: (centre − ty) / k is unchanged.
    expect((centre - ty) / k).toBeCloseTo((centre + 100) / 2);
    expect(heard.at(-1)).toEqual({ zoom: input.zoom, external: false });
  });

  it('keeps the wheel\'s and the keys\' zoom between 1× and the deepest zoom allowed, and the plot inside the timeline', () => {
    const { input } = setup();
    input.scaleBy(0.5);
    expect(input.zoom).toEqual({ k: 1, ty: 0 });
    input.setMaxScale(8);
    input.scaleBy(100);
    expect(input.zoom.k).toBe(8);
    // A zoom adopted from elsewhere is taken as given; the next step of the user's brings the plot back
    // inside the timeline: at 8× its top (plotTop) may come down to the plot's top, its end up to the plot's bottom.
    input.apply({ k: 8, ty: 10_000 });
    expect(input.zoom).toEqual({ k: 8, ty: 10_000 });
    input.scaleBy(1);
    expect(input.zoom).toEqual({ k: 8, ty: g.plotTop - 8 * g.plotTop });
    input.apply({ k: 8, ty: -100_000 });
    input.scaleBy(1);
    expect(input.zoom).toEqual({ k: 8, ty: g.plotBottom - 8 * g.plotBottom });
  });

  it('pans keeping the zoom factor, as its own change', () => {
    const { input, heard } = setup();
    input.apply({ k: 4, ty: -300 });
    input.panTo(-500);
    expect(input.zoom).toEqual({ k: 4, ty: -500 });
    expect(heard.at(-1)!.external).toBe(false);
  });

  it('zooms in with the wheel about the pointer, and takes the wheel from the page', () => {
    const { input, heard } = setup();
    const y = 200;
    const wheel = new WheelEvent('wheel', { deltaY: -500, deltaMode: 0, clientY: y, bubbles: true, cancelable: true });
    svg.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(true);
    // d3-zoom's wheel: k × 2^(−deltaY × 0.002) = 2 for 500 px.
    expect(input.zoom.k).toBeCloseTo(2);
    // The time under the pointer stays under it: y = k · y0 + ty with y0 = y before.
    expect(input.zoom.ty).toBeCloseTo(y - 2 * y);
    expect(heard.at(-1)!.external).toBe(false);
  });

  it('hears the pointer no more once destroyed', () => {
    const { input, heard } = setup();
    input.destroy();
    const wheel = new WheelEvent('wheel', { deltaY: -500, clientY: 200, bubbles: true, cancelable: true });
    svg.dispatchEvent(wheel);
    expect(heard).toEqual([]);
    expect(wheel.defaultPrevented).toBe(false);
  });
});
