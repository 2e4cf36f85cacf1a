// The depth sweep from Redis to pixels: the built app (private redis-server) in headless Chromium.
// A user opens the sweep view, runs PING at depths 1…64 with redis-benchmark beside it, reads the
// chart and the table, exports the sweep and opens it again; a link reproduces the form. A recorded
// sweep (e2e/fixtures/) must look like its golden screenshot.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../trace/format/sweep-io.ts';
import { useAppInBrowser } from './app-in-browser.ts';
import { openFresh, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const DEPTHS = [1, 2, 4, 8, 16, 32, 64];

const points = (testId: string) => ctx.page.locator(`[data-testid=sweep-chart] [data-testid=${testId}]`);

/** A mark's measured median (data-median), as a number. */
async function median(testId: string, depth: number): Promise<number> {
  return Number(await points(testId).and(ctx.page.locator(`[data-depth="${depth}"]`)).getAttribute('data-median'));
}

describe('a sweep of PING at depths 1…64, 2,000 per point, 2 repeats, with redis-benchmark', () => {
  beforeAll(async () => {
    const { page } = ctx;
    await page.click('[data-testid=tab-sweep]');
    await page.selectOption('[data-testid=sweep-command]', 'PING');
    await page.selectOption('[data-testid=sweep-max-depth]', '64');
    await page.fill('[data-testid=sweep-per-point]', '2000');
    await page.fill('[data-testid=sweep-repeats]', '2');
    await page.setChecked('[data-testid=sweep-reference]', true);
    await page.click('[data-testid=sweep-run]');
    await page.locator('[data-testid=sweep-progress]').waitFor();
    await page.locator('[data-testid=sweep-chart][data-state=done]').waitFor({ timeout: 150_000 });
    await waitForIdleRender(page);
  });

  it('put the sweep in the URL, so a link reproduces the form', () => {
    const hash = new URL(ctx.page.url()).hash;
    expect(hash).toMatch(/^#view=sweep&/);
    expect(hash).toContain('maxDepth=64');
    expect(hash).toContain('perPoint=2000');
    expect(hash).toContain('repeats=2');
    expect(hash).toContain('reference=1');
  });

  it('draws exactly 7 points of ours and 7 of redis-benchmark, one per depth', async () => {
    expect(await points('sweep-point').count()).toBe(7);
    expect(await points('sweep-reference-point').count()).toBe(7);
    const depths = await points('sweep-point').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-depth'))));
    expect(depths).toEqual(DEPTHS);
    for (const el of await points('sweep-point').all()) expect(Number(await el.getAttribute('data-runs'))).toBe(2);
  });

  it('measured more ops/s at depth 64 than at depth 1, and Redis read fewer times per command', async () => {
    const [d1, d64] = [await median('sweep-point', 1), await median('sweep-point', 64)];
    expect(d1).toBeGreaterThan(0);
    expect(d64).toBeGreaterThan(d1);
    expect(await median('sweep-reference-point', 64)).toBeGreaterThan(await median('sweep-reference-point', 1));
    // Counts, not timings: each pipeline of 64 is read by Redis in (about) one read event.
    expect(await median('sweep-server-reads-point', 1)).toBeGreaterThanOrEqual(0.99);
    expect(await median('sweep-server-reads-point', 64)).toBeLessThan(0.05);
    expect(await median('sweep-client-writes-point', 64)).toBeCloseTo(Math.ceil(2000 / 64) / 2000, 5);
    // Redis's CPU per command (the kernel's count for the private server) falls as commands share its reads and writes.
    const cpu = (depth: number) => ctx.page.locator(`[data-testid=sweep-cpu][data-depth="${depth}"]`).getAttribute('data-value').then(Number);
    expect(await ctx.page.locator('.sweep-table-card thead').innerText()).toMatch(/Redis CPU \/ command\s*kernel \(schedstat\)/);
    expect(await cpu(1)).toBeGreaterThan(0);
    expect(await cpu(64)).toBeLessThan(await cpu(1));
  });

  it('says the runs were untraced, and lists every depth in the table', async () => {
    const statement = await ctx.page.locator('[data-testid=sweep-statement]').innerText();
    expect(statement).toContain('Untraced: no MONITOR, no strace — these are real throughput figures');
    expect(statement).toMatch(/engine ioredis/);
    expect(statement).toMatch(/Redis \d+\.\d+/);
    expect(await ctx.page.locator('[data-testid=sweep-row]').count()).toBe(7);
    expect(await ctx.page.locator('[data-testid=sweep-chart]').innerText()).toContain('redis-benchmark -c 1 -P d (Redis’s own C client)');
    await ctx.page.mouse.move(0, 0);
    await waitForIdleRender(ctx.page);
  });

  it('exports the sweep as JSON, which opens again as the same sweep', async () => {
    const { page } = ctx;
    const shown = await median('sweep-point', 64);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=sweep-export]')]);
    expect(download.suggestedFilename()).toMatch(/^pipescope-sweep-ping-1-64-.+\.json$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const parsed = parseDocument(text);
    expect(parsed.kind).toBe('sweep');
    const exported = parsed.kind === 'sweep' ? parsed.doc : null;
    expect(exported?.points.map((p) => p.depth)).toEqual(DEPTHS);
    expect(exported?.reference?.points).toHaveLength(7);
    // Opened from the single-run view's file picker, it switches to the sweep view.
    await page.click('[data-testid=tab-run]');
    await page.setInputFiles('[data-testid=import]', { name: 'sweep.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect.poll(() => page.locator('[data-testid=tab-sweep]').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('.sweep-actions .source-tag').innerText()).toBe('opened from a file');
    expect(await points('sweep-point').count()).toBe(7);
    expect(await median('sweep-point', 64)).toBe(shown);
  });
});

it('draws a recorded sweep (PING at depths 1…64, redis-benchmark beside it) as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['sweep-ping-1-64.json']);
  try {
    await page.locator('[data-testid=sweep-chart][data-state=done]').waitFor();
    expect(await page.locator('[data-testid=sweep-chart] [data-testid=sweep-point]').count()).toBe(7);
    await expectGoldenScreenshot(page.locator('.sweep-results'), 'sweep-ping-1-64');
  } finally {
    await page.context().close();
  }
});

it('a link opens the sweep view with its form', async () => {
  const { page, app } = ctx;
  await openFresh(page, `${app.url}#view=sweep&command=SET&valueBytes=64&depths=1,10,100&perPoint=500&repeats=1&reference=0`);
  await page.locator('[data-testid=sweep-view]:not([hidden])').waitFor();
  expect(await page.locator('[data-testid=tab-sweep]').getAttribute('aria-selected')).toBe('true');
  expect(await page.inputValue('[data-testid=sweep-command]')).toBe('SET');
  expect(await page.inputValue('[data-testid=sweep-value-bytes]')).toBe('64');
  expect(await page.inputValue('[data-testid=sweep-depths]')).toBe('1,10,100');
  expect(await page.isChecked('[data-testid=sweep-reference]')).toBe(false);
  expect(await page.locator('[data-testid=sweep-plan]').innerText()).toBe('3 depths × 1 repeat × 500 SET = 1,500 commands in 555 round trips');
  await page.fill('[data-testid=sweep-depths]', '1,100,10');
  expect(await page.locator('.sweep-form .field-error').innerText()).toBe('depths must be increasing, each once');
  expect(await page.locator('[data-testid=sweep-run]').isDisabled()).toBe(true);
});
