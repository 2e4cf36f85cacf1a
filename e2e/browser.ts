// Debian's Chromium, driven by playwright-core, with the flags this environment needs (no sandbox as
// root, no GPU, no background network traffic) and a fixed viewport and scale for stable screenshots.
import { chromium, type Browser, type Page } from 'playwright-core';

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

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  return context.newPage();
}

/** Waits until the app's frame scheduler has no repaint queued, so a screenshot shows a settled frame. */
export async function waitForIdleRender(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset['renderPending'] === 'false');
}
