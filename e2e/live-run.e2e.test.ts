// The whole path from Redis to pixels: the built app (private redis-server) in headless Chromium.
// A user runs both modes, reads the diagram and the summary; a 100,000-command pipeline renders.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, newPage, waitForIdleRender } from './browser.ts';

const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');
let app: AppProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [app, browser] = await Promise.all([startAppProcess(), launchBrowser()]);
  page = await newPage(browser);
  await page.goto(app.url);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function run(command: string, n: number, mode: 'sequential' | 'pipeline' | 'both'): Promise<void> {
  await page.selectOption('[data-testid=command]', command);
  await page.fill('[data-testid=n]', String(n));
  await page.selectOption('[data-testid=mode]', mode);
  await page.click('[data-testid=run]');
}

function panel(mode: 'sequential' | 'pipeline'): Locator {
  return page.locator(`[data-testid=run-panel][data-mode=${mode}]`);
}

async function metric(mode: 'sequential' | 'pipeline', name: string): Promise<number> {
  const value = await panel(mode).locator(`[data-testid=summary] [data-metric=${name}]`).getAttribute('data-value');
  return Number(value);
}

describe('both modes, N = 10', () => {
  beforeAll(async () => {
    await run('INCR', 10, 'both');
    await panel('pipeline').waitFor();
    await waitForIdleRender(page);
  });

  it('draws 10 requests and 10 replies per mode', async () => {
    for (const mode of ['sequential', 'pipeline'] as const) {
      await expect.poll(() => panel(mode).getAttribute('data-render')).toBe('svg');
      expect(await panel(mode).locator('[data-testid=request-arrow]').count()).toBe(10);
      expect(await panel(mode).locator('[data-testid=reply-arrow]').count()).toBe(10);
    }
  });

  it('shows the measured counts: 10 writes and reads sequentially, one each pipelined', async () => {
    expect(await metric('sequential', 'client-writes')).toBe(10);
    expect(await metric('sequential', 'client-reads')).toBe(10);
    expect(await metric('sequential', 'server-reads')).toBe(10);
    expect(await metric('sequential', 'server-writes')).toBe(10);
    expect(await metric('pipeline', 'client-writes')).toBe(1);
    expect(await metric('pipeline', 'server-reads')).toBeLessThanOrEqual(2);
    for (const mode of ['sequential', 'pipeline'] as const) {
      expect(await metric(mode, 'duration')).toBeGreaterThan(0);
      expect(await metric(mode, 'ops')).toBeGreaterThan(0);
      expect(await metric(mode, 'p50')).toBeLessThanOrEqual(await metric(mode, 'p99'));
      expect(await metric(mode, 'p99')).toBeLessThanOrEqual(await metric(mode, 'max'));
      const summary = await panel(mode).locator('[data-testid=summary]').innerText();
      expect(summary).toMatch(/client socket/i);
      expect(summary).toMatch(/INFO/);
    }
  });

  it('shows a command’s details on hover', async () => {
    await panel('sequential').locator('[data-testid=request-arrow]').nth(3).hover({ force: true });
    await expect.poll(() => page.locator('[role=tooltip]').innerText()).toMatch(/INCR pipescope:[a-z0-9-]+:counter/);
    expect(await page.locator('[role=tooltip]').innerText()).toMatch(/\b4\b/); // INCR's 4th reply
  });

  it('screenshot', async () => {
    await page.mouse.move(0, 0);
    await waitForIdleRender(page);
    await page.screenshot({ path: join(ARTIFACTS, 'both-modes-n10.png'), fullPage: true });
  });
});

it('a 100,000-command pipeline renders as density bands', async () => {
  await run('PING', 100_000, 'pipeline');
  const big = page.locator('[data-testid=run-panel][data-mode=pipeline][data-n="100000"]');
  await big.waitFor({ timeout: 120_000 });
  await expect.poll(() => big.getAttribute('data-render')).toBe('canvas');
  expect(await big.getAttribute('data-commands-drawn')).toBe('100000');
  await waitForIdleRender(page);
  // The page still paints frames (how fast is a benchmark's business, not a test's).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  await page.screenshot({ path: join(ARTIFACTS, 'pipeline-n100000.png'), fullPage: true });
});

it('says clearly when the backend goes away', async () => {
  await app.stop();
  await expect.poll(() => page.locator('[data-testid=banner]').innerText(), { timeout: 15_000 }).toMatch(/backend|server|reach|connect/i);
});
