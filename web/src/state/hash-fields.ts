// The URL hash is shared. The run form, the depth sweep and the gallery each write the hash of their view
// (url-hash-params.ts, sweep-hash-params.ts); the display state that holds whatever view is shown (the
// playhead, the zoom window, the theme, presenter mode, the tour step) lives in keys of its own beside them.
// A view's writer keeps the display keys it finds; a display feature changes only its own keys. So "Copy
// link" is the page's URL as it stands, and no writer drops another's state. Parsing is tolerant: a hash
// URLSearchParams cannot read is treated as empty.

/** Keys kept across a view's rewrite of the hash. A feature that keeps display state in the URL adds its key here. */
export const DISPLAY_KEYS: readonly string[] = ['t', 'speed', 'zoom', 'theme', 'present', 'tour', 'repeat', 'wire'];

function paramsOf(hash: string): URLSearchParams {
  try {
    return new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return new URLSearchParams();
  }
}

/** One key of a hash, or null when absent. */
export function hashField(hash: string, key: string): string | null {
  return paramsOf(hash).get(key);
}

/** `viewHash` (a view writer's '#…') with the display keys of `currentHash` appended, in DISPLAY_KEYS order. */
export function withDisplayFields(viewHash: string, currentHash: string): string {
  const next = paramsOf(viewHash);
  const current = paramsOf(currentHash);
  for (const key of DISPLAY_KEYS) {
    next.delete(key);
    const value = current.get(key);
    if (value !== null) next.set(key, value);
  }
  const text = next.toString();
  return text ? `#${text}` : '';
}

/**
 * `currentHash` with some keys set (a string) or removed (null), every other key kept. The display keys
 * end up after the view's, in DISPLAY_KEYS order, whichever feature wrote first: the same screen gives
 * the same link, byte for byte (Copy link; two writers racing at load once swapped repeat= and zoom=).
 */
export function withHashFields(currentHash: string, patch: Readonly<Record<string, string | null>>): string {
  const next = paramsOf(currentHash);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const text = next.toString();
  return withDisplayFields(text, text);
}

/** Replaces the page's hash without a history entry or a hashchange event, when it differs. */
export function replaceHash(hash: string): void {
  if (hash === window.location.hash || (hash === '' && window.location.hash === '#')) return;
  history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
}

/** A view writer's hash, keeping the display keys already in the URL. */
export function replaceViewHash(viewHash: string): void {
  replaceHash(withDisplayFields(viewHash, window.location.hash));
}

/** Sets or removes display keys in the URL, keeping the rest. */
export function writeHashFields(patch: Readonly<Record<string, string | null>>): void {
  replaceHash(withHashFields(window.location.hash, patch));
}
