// The colour theme: the user's choice (Auto follows the system's prefers-color-scheme, or Light, or Dark),
// kept in localStorage and in the URL hash's display key `theme` (the URL wins, so a link shows what its
// sender saw), and applied as data-theme="light|dark" on <html>, which app.css reads. public/theme.js does
// the same before the first paint, from the same two places; this module keeps it right afterwards.
import { hashField, writeHashFields } from './hash-fields.ts';

export type ThemeChoice = 'auto' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['auto', 'light', 'dark'];
/** localStorage key; public/theme.js reads the same one. */
export const THEME_STORAGE_KEY = 'pipescope.theme';
/** URL hash display key (state/hash-fields.ts DISPLAY_KEYS). */
export const THEME_HASH_KEY = 'theme';

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

/** A stored or linked value as a choice; anything else is null (ignored, not an error). */
export function parseThemeChoice(value: string | null | undefined): ThemeChoice | null {
  return value === 'auto' || value === 'light' || value === 'dark' ? value : null;
}

/** The URL's choice, else the stored one, else Auto. */
export function pickThemeChoice(hash: string, stored: string | null): ThemeChoice {
  return parseThemeChoice(hashField(hash, THEME_HASH_KEY)) ?? parseThemeChoice(stored) ?? 'auto';
}

/** The theme shown for a choice, given whether the system asks for dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'auto' ? (systemDark ? 'dark' : 'light') : choice;
}

function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    return null; // storage blocked (privacy settings, sandboxed frame): the URL and Auto still work
  }
}

function systemDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(SYSTEM_DARK).matches;
}

/** The choice this page starts with. */
export function currentThemeChoice(): ThemeChoice {
  return pickThemeChoice(window.location.hash, storedChoice());
}

/** Sets data-theme on <html> for the choice (and the system's scheme, for Auto). */
export function applyThemeChoice(choice: ThemeChoice): Theme {
  const theme = resolveTheme(choice, systemDark());
  document.documentElement.dataset['theme'] = theme;
  return theme;
}

/**
 * Remembers a choice the user made: in localStorage, and in the URL (Auto removes the key, so a link
 * without one follows each reader's system), then applies it.
 */
export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // not remembered across visits; the URL still carries it
  }
  writeHashFields({ [THEME_HASH_KEY]: choice === 'auto' ? null : choice });
  applyThemeChoice(choice);
}

/** Calls `onSystemChange` when the system's scheme changes (Auto follows it); returns the unsubscribe. */
export function watchSystemTheme(onSystemChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(SYSTEM_DARK);
  query.addEventListener('change', onSystemChange);
  return () => query.removeEventListener('change', onSystemChange);
}
