import { describe, expect, it } from 'vitest';
import { keyAction, type KeyPress } from './playback-keys.ts';

function press(key: string, more: Partial<KeyPress> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, target: document.body, ...more };
}

function element(html: string, selector: string): Element {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  return host.querySelector(selector)!;
}

describe('keyAction', () => {
  it('maps the media-player keys', () => {
    const keys = [' ', 'ArrowLeft', 'ArrowRight', ',', '.', 'Home', 'End', '+', '=', '-', 'f', '?', 'PageUp', 'PageDown'];
    expect(keys.map((k) => keyAction(press(k)))).toEqual([
      'toggle', 'previous', 'next', 'frame-back', 'frame-forward', 'home', 'end', 'faster', 'faster', 'slower', 'fullscreen', 'help', 'previous', 'next',
    ]);
  });

  it('leaves the diagram’s own keys and every other key alone', () => {
    expect(['ArrowUp', 'ArrowDown', 'Escape', '[', ']', '0', 'a', 'Enter'].map((k) => keyAction(press(k)))).toEqual(Array(8).fill(null));
  });

  it('ignores shortcuts with Ctrl, Meta or Alt, and presses already handled', () => {
    expect(keyAction(press('f', { ctrlKey: true }))).toBeNull();
    expect(keyAction(press('ArrowLeft', { metaKey: true }))).toBeNull();
    expect(keyAction(press('+', { altKey: true }))).toBeNull();
    expect(keyAction(press(' ', { defaultPrevented: true }))).toBeNull();
  });

  it('ignores typing in fields and keys inside an element that has its own', () => {
    expect(keyAction(press(' ', { target: element('<input type="text">', 'input') }))).toBeNull();
    expect(keyAction(press('ArrowRight', { target: element('<input type="range">', 'input') }))).toBeNull();
    expect(keyAction(press('-', { target: element('<select><option>a</option></select>', 'select') }))).toBeNull();
    expect(keyAction(press('f', { target: element('<textarea></textarea>', 'textarea') }))).toBeNull();
    expect(keyAction(press('f', { target: { tagName: 'DIV', isContentEditable: true } }))).toBeNull();
    expect(keyAction(press('Home', { target: element('<div data-own-keys><span>x</span></div>', 'span') }))).toBeNull();
  });

  it('lets a button keep Space but not the other keys', () => {
    const button = element('<button type="button">Play</button>', 'button');
    expect(keyAction(press(' ', { target: button }))).toBeNull();
    expect(keyAction(press('ArrowRight', { target: button }))).toBe('next');
  });
});
