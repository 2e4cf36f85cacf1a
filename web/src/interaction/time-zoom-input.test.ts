// d3-zoom on a real (jsdom) <svg>: the pointer's and the keys' zoom, which wheel is the page's, its bounds, and which changes are
// the diagram's own. jsdom lays nothing out: the SVG sits at the viewport's origin.
import { afterEach, describe, expect, it } from 'vitest';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import type { TimeZoom } from '../layout/time-scale-layout.ts';
import { TimeZoomInput } from './time-zoom-input.ts';
import type { WheelIntent } from './wheel-intent.ts';

const g = diagramGeometry(640);
const centre = (g.plotTop + g.plotBottom) / 2;

let svg: SVGSVGElement;

function setup() {
  svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.append(svg);
  const heard: { zoom: TimeZoom; external: boolean }[] = [];
  const wheels: WheelIntent[] = [];
  const input = new TimeZoomInput(svg, g, (zoom, external) => heard.push({ zoom, external }), (intent) => wheels.push(intent));
  return { input, heard, wheels };
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

  it('leaves a plain wheel to the page: no zoom, not prevented (the page scrolls), told as the page\'s', () => {
    const { input, heard, wheels } = setup();
    const wheel = new WheelEvent('wheel', { deltaY: 500, deltaMode: 0, clientY: 200, bubbles: true, cancelable: true });
    svg.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(false);
    expect(input.zoom).toEqual({ k: 1, ty: 0 });
    expect(heard).toEqual([]);
    expect(wheels).toEqual([{ kind: 'page', vertical: true }]);
  });

  it('zooms in with Ctrl + wheel (or a pinch) about the pointer, at most 2× per event, and takes that wheel from the page', () => {
    const { input, heard, wheels } = setup();
    const y = 200;
    // A pinch: small deltas with ctrlKey; d3-zoom's rule, k × 2^(−deltaY × 0.002 × 10) = 2^0.5 for 25 px.
    const pinch = new WheelEvent('wheel', { deltaY: -25, deltaMode: 0, ctrlKey: true, clientY: y, bubbles: true, cancelable: true });
    svg.dispatchEvent(pinch);
    expect(pinch.defaultPrevented).toBe(true);
    expect(input.zoom.k).toBeCloseTo(Math.SQRT2);
    // The time under the pointer stays under it: y = k · y0 + ty with y0 = y before.
    expect(input.zoom.ty).toBeCloseTo(y - Math.SQRT2 * y);
    // A mouse wheel's notch with Ctrl (100 px, 2^2 by d3-zoom's rule) zooms 2×, as a map's does.
    const notch = new WheelEvent('wheel', { deltaY: -100, deltaMode: 0, ctrlKey: true, clientY: y, bubbles: true, cancelable: true });
    svg.dispatchEvent(notch);
    expect(input.zoom.k).toBeCloseTo(2 * Math.SQRT2);
    // ⌘ + wheel zooms as well.
    svg.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, deltaMode: 0, metaKey: true, clientY: y, bubbles: true, cancelable: true }));
    expect(input.zoom.k).toBeCloseTo(Math.SQRT2);
    expect(heard.at(-1)!.external).toBe(false);
    expect(wheels.map((w) => w.kind)).toEqual(['zoom', 'zoom', 'zoom']);
  });

  it('pans through time with a horizontal wheel or Shift + wheel while zoomed in, and leaves it to the page unzoomed', () => {
    const { input, wheels } = setup();
    const sideways = () => new WheelEvent('wheel', { deltaX: 120, deltaY: 0, deltaMode: 0, clientY: 200, bubbles: true, cancelable: true });
    const unzoomed = sideways();
    svg.dispatchEvent(unzoomed);
    expect(unzoomed.defaultPrevented).toBe(false);
    expect(input.zoom).toEqual({ k: 1, ty: 0 });
    input.apply({ k: 4, ty: -300 });
    const right = sideways();
    svg.dispatchEvent(right);
    expect(right.defaultPrevented).toBe(true);
    // Later in time: the plot moves up by the wheel's 120 px.
    expect(input.zoom).toEqual({ k: 4, ty: -420 });
    const shiftUp = new WheelEvent('wheel', { deltaY: -3, deltaMode: 1, shiftKey: true, clientY: 200, bubbles: true, cancelable: true });
    svg.dispatchEvent(shiftUp);
    expect(shiftUp.defaultPrevented).toBe(true);
    expect(input.zoom.ty).toBeCloseTo(-420 + 3 * 16);
    // Kept inside the timeline: far past the start stops at the plot's top.
    svg.dispatchEvent(new WheelEvent('wheel', { deltaX: -100_000, clientY: 200, bubbles: true, cancelable: true }));
    expect(input.zoom).toEqual({ k: 4, ty: g.plotTop - 4 * g.plotTop });
    expect(wheels.map((w) => w.kind)).toEqual(['page', 'pan', 'pan', 'pan']);
  });

  it('takes a touch only with two fingers: one finger scrolls the page', () => {
    setup();
    const touchstart = (touches: number) => {
      const event = new Event('touchstart', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'touches', { value: Array.from({ length: touches }, (_, i) => ({ identifier: i, clientX: 10, clientY: 100 + 50 * i })) });
      Object.defineProperty(event, 'changedTouches', { value: [] });
      svg.dispatchEvent(event);
    };
    touchstart(1);
    expect((svg as unknown as { __zooming?: unknown }).__zooming).toBeUndefined();
    touchstart(2);
    expect((svg as unknown as { __zooming?: unknown }).__zooming).toBeDefined();
  });

  it('hears the pointer no more once destroyed', () => {
    const { input, heard } = setup();
    input.destroy();
    const wheel = new WheelEvent('wheel', { deltaY: -500, ctrlKey: true, clientY: 200, bubbles: true, cancelable: true });
    svg.dispatchEvent(wheel);
    expect(heard).toEqual([]);
    expect(wheel.defaultPrevented).toBe(false);
  });
});
