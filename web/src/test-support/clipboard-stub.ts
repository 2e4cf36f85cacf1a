// The Clipboard API as a test wants it: secure context or not, a writeText that resolves or refuses, or
// none; and put back after each test. For the jsdom tests of the views that copy (base/clipboard.ts).
import { afterEach, vi } from 'vitest';

/** Replaces navigator.clipboard and isSecureContext for one test. */
export function stubClipboard(secure: boolean, writeText?: (text: string) => Promise<void>): void {
  vi.stubGlobal('isSecureContext', secure);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: writeText ? { writeText } : undefined });
}

/** Call inside a describe: removes the stubs after each of its tests. */
export function restoreClipboardAfterEach(): void {
  afterEach(() => {
    vi.unstubAllGlobals();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
  });
}
