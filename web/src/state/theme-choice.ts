// The colour theme: the user's choice (Auto follows the system's prefers-color-scheme, or Light, or Dark),
// kept in localStorage and in the URL's display key `theme` (the URL wins, so a link shows what its
// sender saw; url/display-link.ts reads and writes it), and applied as data-theme="light|dark" on <html>,
// which app.css reads. public/theme.js does the same before the first paint, from the same two places;
// this module and views/header/theme-toggle-view.tsx keep it right afterwards.

export type ThemeChoice = 'auto' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['auto', 'light', 'dark'];
/** localStorage key; public/theme.js reads the same one. */
export const THEME_STORAGE_KEY = 'pipescope.theme';

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

/** A stored or linked value as a choice; anything else is null (ignored, not an error). */
export function parseThemeChoice(value: string | null | undefined): ThemeChoice | null {
  return value === 'auto' || value === 'light' || value === 'dark' ? value : null;
}

/** The URL's choice (null: the URL names none), else the stored one, else Auto. */
export function pickThemeChoice(linked: ThemeChoice | null, stored: string | null): ThemeChoice {
  return linked ?? parseThemeChoice(stored) ?? 'auto';
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

/** The choice the page shows, given the URL's (null: none). */
export function currentThemeChoice(linked: ThemeChoice | null): ThemeChoice {
  return pickThemeChoice(linked, storedChoice());
}

/** Sets data-theme on <html> for the choice (and the system's scheme, for Auto). */
export function applyThemeChoice(choice: ThemeChoice): Theme {
  const theme = resolveTheme(choice, systemDark());
  document.documentElement.dataset['theme'] = theme;
  return theme;
}

/**
 * Remembers a choice the user made in localStorage and applies it. The URL takes it too, from the theme
 * toggle: Auto as no key, so a link without one follows each reader's system (linkedThemeOf).
 */
export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // not remembered across visits; the URL still carries it
  }
  applyThemeChoice(choice);
}

/** The URL's theme key for a choice the user made: Auto is no key. */
export const linkedThemeOf = (choice: ThemeChoice): ThemeChoice | null => (choice === 'auto' ? null : choice);

/** Calls `onSystemChange` when the system's scheme changes (Auto follows it); returns the unsubscribe. */
export function watchSystemTheme(onSystemChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(SYSTEM_DARK);
  query.addEventListener('change', onSystemChange);
  return () => query.removeEventListener('change', onSystemChange);
}
