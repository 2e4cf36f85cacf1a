import { afterEach, describe, expect, it } from 'vitest';
import { applyThemeChoice, currentThemeChoice, parseThemeChoice, pickThemeChoice, resolveTheme, saveThemeChoice, THEME_STORAGE_KEY } from './theme-choice.ts';

afterEach(() => {
  window.localStorage.clear();
  history.replaceState(null, '', '/');
  delete document.documentElement.dataset['theme'];
});

describe('the theme choice', () => {
  it('reads only auto, light and dark', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('Dark')).toBeNull();
    expect(parseThemeChoice(null)).toBeNull();
  });

  it('lets the URL win over the stored choice, and falls back to Auto', () => {
    expect(pickThemeChoice('#n=10&theme=light', 'dark')).toBe('light');
    expect(pickThemeChoice('#theme=auto', 'dark')).toBe('auto');
    expect(pickThemeChoice('#theme=sepia', 'dark')).toBe('dark');
    expect(pickThemeChoice('', 'nonsense')).toBe('auto');
  });

  it('resolves Auto from the system and keeps an explicit choice', () => {
    expect(resolveTheme('auto', true)).toBe('dark');
    expect(resolveTheme('auto', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('remembers a choice in localStorage and the URL (keeping other keys), and sets data-theme', () => {
    history.replaceState(null, '', '/#command=PING&n=10');
    saveThemeChoice('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(window.location.hash).toBe('#command=PING&n=10&theme=dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(currentThemeChoice()).toBe('dark');
    saveThemeChoice('auto');
    expect(window.location.hash).toBe('#command=PING&n=10');
    expect(currentThemeChoice()).toBe('auto');
  });

  it('applies Auto as light where the system says nothing (jsdom has no matchMedia)', () => {
    expect(applyThemeChoice('auto')).toBe('light');
    expect(document.documentElement.dataset['theme']).toBe('light');
  });
});
