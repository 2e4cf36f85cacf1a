// Debian's Chromium, driven by playwright-core, with the flags this environment needs (no sandbox as
// root, no GPU, no background network traffic) and a fixed viewport and scale for stable screenshots.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** CSS px, at device scale 1: the size every browser test (and every screenshot) is taken at. */
export const VIEWPORT = { width: 1440, height: 900 } as const;

/**
 * A page opened with nothing to show gets the default run's recording and then, on the private Redis, the
 * run itself (web/src/views/app/use-first-visit.ts). Tests that drive the form want the plain empty page:
 * this switch (localStorage pipescope.firstVisit = off, state/first-visit.ts) is on in every context made
 * here; the first-screen tests make theirs without it.
 */
export async function quietFirstVisit(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => window.localStorage.setItem('pipescope.firstVisit', 'off'));
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await quietFirstVisit(context);
  return context.newPage();
}

/**
 * Loads `url` (usually with a #hash of form fields) as a new document. A hash-only goto on a page that has
 * just loaded races the app's first write of its own hash: Chromium then drops the navigation and
 * Playwright's goto still resolves (seen in CI: the engine, and once the added RTT, read their defaults).
 * Going through about:blank makes it a full load, which reads the hash before anything writes it.
 */
export async function openFresh(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

/** Unfolds the run form's "More options" (jitter, client, repeats, probes…) unless they already are. */
export async function openMoreOptions(page: Page): Promise<void> {
  const toggle = page.locator('[data-testid=more-options]');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** Picks a ready-made run from the form's preset menu (state/network-presets.ts ids). */
export async function pickPreset(page: Page, id: string): Promise<void> {
  await page.selectOption('[data-testid=preset]', id);
}

/** Waits until the app's frame scheduler has no repaint queued, so a screenshot shows a settled frame. */
export async function waitForIdleRender(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['renderPending'] === 'false');
}

/**
 * Zooms the diagram under the pointer as a user does: Ctrl + wheel (a plain wheel scrolls the page).
 * deltaY < 0 zooms in; one event zooms at most 2×.
 */
export async function zoomWheel(page: Page, deltaY: number): Promise<void> {
  await page.keyboard.down('Control');
  try {
    await page.mouse.wheel(0, deltaY);
  } finally {
    await page.keyboard.up('Control');
  }
}
