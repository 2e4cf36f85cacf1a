// Which wheel over a diagram is the page's, which zooms and which pans.
import { describe, expect, it } from 'vitest';
import { wheelIntent, zoomHintText, zoomModifier, zoomWheelExponent, type WheelLike } from './wheel-intent.ts';

const wheel = (over: Partial<WheelLike>): WheelLike => ({ deltaX: 0, deltaY: 0, deltaMode: 0, ctrlKey: false, metaKey: false, shiftKey: false, ...over });

describe('wheelIntent', () => {
  it('gives a plain vertical wheel to the page, zoomed in or not', () => {
    expect(wheelIntent(wheel({ deltaY: 100 }), false)).toEqual({ kind: 'page', vertical: true });
    expect(wheelIntent(wheel({ deltaY: -100 }), true)).toEqual({ kind: 'page', vertical: true });
    // A trackpad's two-finger scroll drifts sideways a little: still the page's.
    expect(wheelIntent(wheel({ deltaY: 40, deltaX: 6 }), true)).toEqual({ kind: 'page', vertical: true });
  });

  it('zooms with Ctrl or ⌘ held, and with a pinch (which browsers send as a wheel with ctrlKey)', () => {
    expect(wheelIntent(wheel({ deltaY: 100, ctrlKey: true }), false)).toEqual({ kind: 'zoom' });
    expect(wheelIntent(wheel({ deltaY: -2.5, ctrlKey: true }), true)).toEqual({ kind: 'zoom' });
    expect(wheelIntent(wheel({ deltaY: 100, metaKey: true }), false)).toEqual({ kind: 'zoom' });
  });

  it('pans with a horizontal wheel or Shift + wheel while zoomed in, in px whatever the unit', () => {
    expect(wheelIntent(wheel({ deltaX: 30 }), true)).toEqual({ kind: 'pan', px: 30 });
    expect(wheelIntent(wheel({ deltaX: -50, deltaY: 10 }), true)).toEqual({ kind: 'pan', px: -50 });
    expect(wheelIntent(wheel({ deltaY: 3, deltaMode: 1, shiftKey: true }), true)).toEqual({ kind: 'pan', px: 48 });
    expect(wheelIntent(wheel({ deltaX: 1, deltaMode: 2 }), true)).toEqual({ kind: 'pan', px: 400 });
  });

  it('leaves a horizontal wheel to the page when there is nothing to pan (unzoomed)', () => {
    expect(wheelIntent(wheel({ deltaX: 30 }), false)).toEqual({ kind: 'page', vertical: false });
    expect(wheelIntent(wheel({ deltaY: 30, shiftKey: true }), false)).toEqual({ kind: 'page', vertical: false });
  });
});

describe('zoomWheelExponent', () => {
  it('follows d3-zoom\'s rule (×10 for a zooming wheel) and caps one event at one doubling', () => {
    expect(zoomWheelExponent(wheel({ deltaY: -25, ctrlKey: true }))).toBeCloseTo(0.5);
    expect(zoomWheelExponent(wheel({ deltaY: 10, ctrlKey: true }))).toBeCloseTo(-0.2);
    expect(zoomWheelExponent(wheel({ deltaY: -100, ctrlKey: true }))).toBe(1);
    expect(zoomWheelExponent(wheel({ deltaY: 600, ctrlKey: true }))).toBe(-1);
    expect(zoomWheelExponent(wheel({ deltaY: -1, deltaMode: 1, metaKey: true }))).toBeCloseTo(0.5);
  });
});

describe('the hint\'s words', () => {
  it('name ⌘ on Apple platforms and Ctrl elsewhere', () => {
    expect(zoomModifier('MacIntel')).toBe('⌘');
    expect(zoomModifier('iPad')).toBe('⌘');
    expect(zoomModifier('Linux x86_64')).toBe('Ctrl');
    expect(zoomHintText('Win32')).toBe('Ctrl + wheel to zoom');
    expect(zoomHintText('MacIntel')).toBe('⌘ + wheel to zoom');
  });
});
