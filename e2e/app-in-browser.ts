// One built app (private redis-server) and one Chromium page per test file, started before its tests
// and stopped after; plus the locators every browser test reads a run panel with.
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ARTIFACTS, startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, newPage } from './browser.ts';
import type { RunMode } from '../trace/format/trace-format.ts';

export { ARTIFACTS };

export interface AppInBrowser {
  app: AppProcess;
  browser: Browser;
  page: Page;
}

/** Call at the top of a test file; read the fields inside tests (they are set in beforeAll). */
export function useAppInBrowser(): AppInBrowser {
  const context = {} as AppInBrowser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [context.app, context.browser] = await Promise.all([startAppProcess(), launchBrowser()]);
    context.page = await newPage(context.browser);
    await context.page.goto(context.app.url);
  });
  afterAll(async () => {
    await context.browser?.close();
    await context.app?.stop();
  });
  return context;
}

export type Mode = RunMode;

/** The panel of the timed runs of `mode` (a request that samples memory has a memory repeat's panel too: memoryPanel). */
export function runPanel(page: Page, mode: Mode): Locator {
  return page.locator(`[data-testid=run-panel][data-mode=${mode}]:not([data-memory-repeat])`);
}

/** The panel of the memory repeat of `mode`: the run that sampled memory, after the timed ones. */
export function memoryPanel(page: Page, mode: Mode): Locator {
  return page.locator(`[data-testid=run-panel][data-mode=${mode}][data-memory-repeat]`);
}

/**
 * Waits until the request just sent is done — every mode × repeats, interleaved — so that the panels no
 * longer change under a test: its progress card has come and gone.
 */
export async function requestDone(page: Page, timeout = 60_000): Promise<void> {
  await page.locator('[data-testid=progress]').waitFor({ timeout: 10_000 }).catch(() => {}); // a fast request may be gone already
  await page.locator('[data-testid=progress]').waitFor({ state: 'detached', timeout });
}

/** A summary figure's raw value (data-value: the median over the repeats), as a number. */
export async function summaryMetric(page: Page, mode: Mode, name: string): Promise<number> {
  return Number(await runPanel(page, mode).locator(`[data-testid=summary] [data-metric=${name}]`).getAttribute('data-value'));
}
