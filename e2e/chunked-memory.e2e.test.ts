// Chunked mode and memory samples, from Redis to pixels: a user asks for 10,000 PINGs as one pipeline
// vs chunks of 1,000 in the real app; the chunked panel shows its 10 client writes, and the memory
// repeat of each mode (sampled after the timed runs: chunks can move memory) shows Redis's and the
// client's peaks. The docs' advice presets: SETs fill the form;
// GETs of 1 KB run, and Redis's queue of unread replies shows on its side. The same view drawn from
// recorded runs (e2e/fixtures/) must look like its golden screenshot.
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryPanel, requestDone, runPanel, summaryMetric, useAppInBrowser, type Mode } from './app-in-browser.ts';
import { pickPreset, waitForIdleRender, zoomWheel } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const panel = (mode: Mode) => runPanel(ctx.page, mode);
const metric = (mode: Mode, name: string) => summaryMetric(ctx.page, mode, name);
const peak = async (mode: Mode, which: string) =>
  Number(await memoryPanel(ctx.page, mode).locator(`[data-testid=memory-chart] [data-testid=memory-peak-${which}]`).getAttribute('data-value'));

describe('10,000 PINGs: one pipeline vs chunks of 1,000', () => {
  beforeAll(async () => {
    const { page } = ctx;
    await page.selectOption('[data-testid=command]', 'PING');
    await page.fill('[data-testid=n]', '10000');
    await page.selectOption('[data-testid=mode]', 'pipeline-vs-chunked');
    await page.fill('[data-testid=chunk]', '1000');
    await page.click('[data-testid=run]');
    await requestDone(page, 120_000);
    await panel('chunked').waitFor({ timeout: 60_000 });
    await waitForIdleRender(page);
  });

  it('asked for it in words, and keeps it in the link', async () => {
    expect(await ctx.page.locator('[data-testid=mode] option:checked').innerText()).toBe('One pipeline vs chunks of 1,000');
    expect(await ctx.page.locator('[data-testid=chunk-note]').innerText()).toBe('10 pipelines');
    expect(await ctx.page.evaluate(() => window.location.hash)).toMatch(/mode=pipeline-vs-chunked&chunk=1000/);
  });

  it('names the chunked run and shows its 10 client writes, against one for the pipeline', async () => {
    const chunked = panel('chunked');
    expect(await chunked.getAttribute('data-chunk')).toBe('1000');
    expect(await chunked.locator('.mode-badge').innerText()).toMatch(/chunked/i);
    expect(await chunked.locator('h2').innerText()).toBe('10,000 × PING in pipelines of 1,000');
    expect(await metric('chunked', 'client-writes')).toBe(10);
    expect(await metric('pipeline', 'client-writes')).toBe(1);
    expect(await chunked.locator('.explanation').first().innerText()).toMatch(/^10,000 commands in 10 writes, .*: 10 rounds of up to 1,000 commands in flight/);
    expect(await chunked.locator('[data-testid=rtt-annotation]').innerText()).toMatch(/estimate 10 × /);
  });

  it('draws each run’s memory with Redis’s and the client’s peaks, and sets them side by side', async () => {
    for (const mode of ['pipeline', 'chunked'] as const) {
      // The timed runs sample nothing; the memory repeat says what it is.
      expect(await panel(mode).locator('[data-testid=memory-chart]').count()).toBe(0);
      expect(await memoryPanel(ctx.page, mode).locator('[data-testid=memory-repeat]').innerText()).toMatch(/^memory repeat: .*no comparison uses it$/);
      const chart = memoryPanel(ctx.page, mode).locator('[data-testid=memory-chart]');
      await chart.waitFor();
      expect(await peak(mode, 'server')).toBeGreaterThan(0); // tot-mem of the run connection
      expect(await peak(mode, 'server-used')).toBeGreaterThan(0);
      expect(await peak(mode, 'client')).toBeGreaterThan(0); // heap
      expect(await peak(mode, 'client-rss')).toBeGreaterThan(await peak(mode, 'client'));
      expect(await chart.locator('[data-testid=memory-peak-client]').innerText()).toMatch(/^peak [\d.]+ (KiB|MiB|GiB)$/);
      const text = await chart.innerText();
      expect(text).toMatch(/Redis CLIENT LIST \/ INFO memory/);
      expect(text).toMatch(/client process \(Node process\.memoryUsage\)/);
      expect(await chart.locator('[data-testid=memory-plot]').count()).toBe(3);
      const heapPoints = await chart.locator('[data-testid=memory-line][data-series=heapUsed]').getAttribute('data-points');
      expect(Number(heapPoints)).toBeGreaterThan(0);
    }
    // Rounds until certain (unless a run took a second): a faster side with its 95 % interval, "within noise" only when the interval includes 1.
    expect(await ctx.page.locator('[data-testid=headline-time]').innerText()).toMatch(
      /^10,000 × PING: .* — (.+ faster \[95 % [\d.]+–[\d.]+×\], faster in \d+ of \d+ pairs .*|within noise: the 95 % interval of .+ includes 1 .*|too few pairs for a verdict .*), measured at the client socket\.( Runs of a second or more run once\.)?$/,
    );
    expect(await ctx.page.locator('[data-testid=headline-memory]').innerText()).toMatch(
      /^Peak memory( \(medians over the repeats\))?, one pipeline vs chunks of 1,000 — client heap .* vs .*\(Node process\.memoryUsage\); Redis: .*\(CLIENT LIST tot-mem\)/,
    );
  });

  it('follows the diagrams’ zoom: the memory plots show the time window the diagram above shows', async () => {
    const { page } = ctx;
    // The time ticks (the baseline's label, left of 0, has a group of its own).
    const axis = () => memoryPanel(ctx.page, 'chunked').locator('[data-testid=memory-plot] .memory-axis.x > text').allTextContents();
    const before = await axis();
    expect(before[0]).toBe('0');
    // The form and the headline stand above the panels: bring the diagram into the viewport to zoom on it (Ctrl + wheel).
    await memoryPanel(ctx.page, 'pipeline').locator('.diagram-svg').scrollIntoViewIfNeeded();
    const box = (await memoryPanel(ctx.page, 'pipeline').locator('.diagram-svg').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await zoomWheel(page, -600);
    await waitForIdleRender(page);
    await expect.poll(axis).not.toEqual(before);
    await page.click('[data-testid=zoom-reset]');
    await waitForIdleRender(page);
    await expect.poll(axis).toEqual(before);
  });

});

it('draws a recorded pipeline vs chunks (20 PINGs, chunks of 5, 10 ms RTT) with memory charts as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['ping-20-pipeline-rtt-10ms.json', 'ping-20-chunked-5-rtt-10ms.json']);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    expect(await page.locator('[data-testid=memory-chart]').count()).toBe(2);
    await expectGoldenScreenshot(page.locator('.results'), 'runs-pipeline-vs-chunked-ping-20');
  } finally {
    await page.context().close();
  }
});

it('the docs’ advice preset asks for 1,000,000 SETs of 100 B, one pipeline vs chunks of 10,000', async () => {
  const { page } = ctx;
  await pickPreset(page, 'chunks');
  expect(await page.locator('[data-testid=command]').inputValue()).toBe('SET');
  expect(await page.locator('[data-testid=n]').inputValue()).toBe('1000000');
  expect(await page.locator('[data-testid=value-bytes]').inputValue()).toBe('100');
  expect(await page.locator('[data-testid=mode]').inputValue()).toBe('pipeline-vs-chunked');
  expect(await page.locator('[data-testid=chunk]').inputValue()).toBe('10000');
  expect(await page.locator('[data-testid=monitor]').isChecked()).toBe(false);
  expect(await page.locator('[data-testid=strace]').isChecked()).toBe(false);
  expect(await page.locator('[data-testid=run]').isEnabled()).toBe(true);
});

it('the reply-queue preset shows Redis holding one pipeline’s 1 KB replies, and chunks of 10,000 bounding them', async () => {
  const { page } = ctx;
  await pickPreset(page, 'reply-queue');
  await page.click('[data-testid=run]');
  await requestDone(page, 150_000);
  await panel('chunked').and(page.locator('[data-n="100000"]')).waitFor({ timeout: 120_000 });
  await waitForIdleRender(page);
  // CLIENT LIST tot-mem of the run connection: the replies Redis queued because the client had not read them yet.
  const [whole, chunked] = [await peak('pipeline', 'server'), await peak('chunked', 'server')];
  expect(whole).toBeGreaterThan(chunked);
  // One pipeline of 10,000 in flight: at most its replies (10,000 × ~1 KB) can wait on Redis.
  expect(chunked).toBeLessThan(10_000 * 1100);
  expect(await page.locator('[data-testid=headline-memory]').innerText()).toMatch(/Redis: the run's connection [\d.]+ MiB vs [\d.]+ (KiB|MiB) \(CLIENT LIST tot-mem\)/);
  await page.mouse.move(0, 0);
  await waitForIdleRender(page);
});
