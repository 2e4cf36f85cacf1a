// The whole path from Redis to pixels: the built app (private redis-server) in headless Chromium.
// A user runs both modes, reads the diagram and the summary; a 100,000-command pipeline renders.
// The same view drawn from recorded runs (e2e/fixtures/) must look like its golden screenshot.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, runPanel, summaryMetric, useAppInBrowser, type Mode } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();

async function run(command: string, n: number, mode: 'sequential' | 'pipeline' | 'both'): Promise<void> {
  await ctx.page.selectOption('[data-testid=command]', command);
  await ctx.page.fill('[data-testid=n]', String(n));
  await ctx.page.selectOption('[data-testid=mode]', mode);
  await ctx.page.click('[data-testid=run]');
}

const panel = (mode: Mode) => runPanel(ctx.page, mode);
const metric = (mode: Mode, name: string) => summaryMetric(ctx.page, mode, name);

describe('both modes, N = 10', () => {
  beforeAll(async () => {
    await run('INCR', 10, 'both');
    await panel('pipeline').waitFor();
    await waitForIdleRender(ctx.page);
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
    await expect.poll(() => ctx.page.locator('[role=tooltip]').innerText()).toMatch(/INCR pipescope:[a-z0-9-]+:counter/);
    expect(await ctx.page.locator('[role=tooltip]').innerText()).toMatch(/\b4\b/); // INCR's 4th reply
  });

});

it('draws a recorded sequential run and pipeline of 10 INCRs side by side as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential.json', 'incr-10-pipeline.json']);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    await expectGoldenScreenshot(page.locator('.results'), 'runs-sequential-vs-pipeline-incr-10');
  } finally {
    await page.context().close();
  }
});

it('a 100,000-command pipeline renders as density bands', async () => {
  await run('PING', 100_000, 'pipeline');
  const big = ctx.page.locator('[data-testid=run-panel][data-mode=pipeline][data-n="100000"]');
  await big.waitFor({ timeout: 120_000 });
  await expect.poll(() => big.getAttribute('data-render')).toBe('canvas');
  expect(await big.getAttribute('data-commands-drawn')).toBe('100000');
  await waitForIdleRender(ctx.page);
  // The page still paints frames (how fast is a benchmark's business, not a test's).
  await ctx.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  await ctx.page.screenshot({ path: join(ARTIFACTS, 'pipeline-n100000.png'), fullPage: true });
});

it('says clearly when the backend goes away', async () => {
  await ctx.app.stop();
  await expect.poll(() => ctx.page.locator('[data-testid=banner]').innerText(), { timeout: 15_000 }).toMatch(/backend|server|reach|connect/i);
});
