import { afterEach, describe, expect, it } from 'vitest';
import { canvasColours, LIGHT_CANVAS_COLOURS, watchTheme } from './theme-colours.ts';

afterEach(() => {
  document.documentElement.removeAttribute('style');
  delete document.documentElement.dataset['theme'];
});

describe('canvas colours from the theme', () => {
  it('falls back to the light palette where no stylesheet defines the variables', () => {
    document.documentElement.dataset['theme'] = 'light';
    expect(canvasColours()).toEqual(LIGHT_CANVAS_COLOURS);
  });

  it('reads the variables again when the theme changes, and keeps the meaning of each', () => {
    document.documentElement.style.setProperty('--request', '#3d9be0');
    document.documentElement.style.setProperty('--reply', ' #f07b2f ');
    document.documentElement.dataset['theme'] = 'dark';
    const dark = canvasColours();
    expect(dark.request).toBe('#3d9be0');
    expect(dark.reply).toBe('#f07b2f');
    expect(dark.execution).toBe(LIGHT_CANVAS_COLOURS.execution);
  });

  it('tells a watcher when data-theme changes, until it unsubscribes', async () => {
    let calls = 0;
    const stop = watchTheme(() => calls++);
    document.documentElement.dataset['theme'] = 'dark';
    await Promise.resolve();
    expect(calls).toBe(1);
    stop();
    document.documentElement.dataset['theme'] = 'light';
    await Promise.resolve();
    expect(calls).toBe(1);
  });
});
