import { afterEach, describe, expect, it } from 'vitest';
import {
  applyThemeChoice, currentThemeChoice, linkedThemeOf, parseThemeChoice, pickThemeChoice, resolveTheme, saveThemeChoice, THEME_STORAGE_KEY,
} from './theme-choice.ts';

afterEach(() => {
  window.localStorage.clear();
  delete document.documentElement.dataset['theme'];
});

describe('the theme choice', () => {
  it('reads only auto, light and dark', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('Dark')).toBeNull();
    expect(parseThemeChoice(null)).toBeNull();
  });

  it('lets the URL win over the stored choice, and falls back to Auto', () => {
    expect(pickThemeChoice('light', 'dark')).toBe('light');
    expect(pickThemeChoice('auto', 'dark')).toBe('auto');
    expect(pickThemeChoice(null, 'dark')).toBe('dark'); // no theme in the URL, or junk (url/display-link.ts reads theme=sepia as none)
    expect(pickThemeChoice(null, 'nonsense')).toBe('auto');
  });

  it('resolves Auto from the system and keeps an explicit choice', () => {
    expect(resolveTheme('auto', true)).toBe('dark');
    expect(resolveTheme('auto', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('remembers a choice in localStorage and sets data-theme; the URL names it, Auto as no key', () => {
    saveThemeChoice('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(currentThemeChoice(null)).toBe('dark');
    expect(currentThemeChoice('light')).toBe('light');
    expect(linkedThemeOf('dark')).toBe('dark');
    saveThemeChoice('auto');
    expect(currentThemeChoice(null)).toBe('auto');
    expect(linkedThemeOf('auto')).toBeNull();
  });

  it('applies Auto as light where the system says nothing (jsdom has no matchMedia)', () => {
    expect(applyThemeChoice('auto')).toBe('light');
    expect(document.documentElement.dataset['theme']).toBe('light');
  });
});
