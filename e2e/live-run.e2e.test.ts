// The whole path from Redis to pixels: the built app (private redis-server) in headless Chromium.
// A user runs both modes, reads the diagram and the summary; the default form's repeats show as
// median [min–max] with where each run's time went; a 100,000-command pipeline renders.
// The same views drawn from recorded runs (e2e/fixtures/) must look like their golden screenshots.
import { beforeAll, describe, expect, it } from 'vitest';
import { requestDone, runPanel, summaryMetric, useAppInBrowser, type Mode } from './app-in-browser.ts';
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
    await requestDone(ctx.page);
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

/** The pairs "until certain" may stop at (trace/derive/paired-verdict.ts's checkpoints). */
const CHECKPOINTS = ['10', '15', '20', '30', '40'];

describe('the default form (10 × INCR, sequential vs one pipeline, until certain), as a user first presses Run', () => {
  beforeAll(async () => {
    await ctx.page.goto(ctx.app.url); // no hash: the default form
    await ctx.page.locator('[data-testid=run]:not([disabled])').click();
    await requestDone(ctx.page); // rounds of both modes, the order alternating, until the interval excludes 1
    await waitForIdleRender(ctx.page);
  });

  it('groups the repeats into one panel per mode, each showing its median repeat, with a picker for the others', async () => {
    const rounds = await panel('sequential').getAttribute('data-repeats');
    expect(CHECKPOINTS).toContain(rounds);
    for (const mode of ['sequential', 'pipeline'] as const) {
      expect(await panel(mode).getAttribute('data-repeats')).toBe(rounds);
      expect(await panel(mode).locator('[data-testid=repeat-picker] option:checked').innerText()).toMatch(new RegExp(`^repeat \\d+ of ${rounds} · .* · median$`));
    }
    expect(await ctx.page.locator('[data-testid=run-panel]').count()).toBe(2);
    const picker = panel('sequential').locator('[data-testid=repeat-picker]');
    const other = await picker.locator('option:not(:checked)').first().getAttribute('value');
    await picker.selectOption(other!);
    await expect.poll(() => panel('sequential').locator('[data-testid=repeat-picker]').inputValue()).toBe(other);
  });

  it('gives every figure as median [min–max], the pipeline’s median faster, and a headline with the ratio’s 95 % interval', async () => {
    const rounds = await panel('sequential').getAttribute('data-repeats');
    for (const mode of ['sequential', 'pipeline'] as const) {
      const duration = panel(mode).locator('[data-testid=summary] [data-metric=duration]');
      const [median, min, max] = await Promise.all(['data-value', 'data-min', 'data-max'].map(async (a) => Number(await duration.getAttribute(a))));
      expect(min).toBeLessThanOrEqual(median!);
      expect(median).toBeLessThanOrEqual(max!);
      expect(min).toBeLessThan(max!);
      expect(await panel(mode).locator('.metric-duration .metric-range').innerText()).toMatch(/^\[[\d.]+( µs| ms)?–[\d.]+ (µs|ms)\]$/);
      expect(await panel(mode).locator('[data-testid=repeats-note]').innerText()).toContain(`median [min–max] of ${rounds} repeats`);
    }
    expect(await metric('pipeline', 'duration')).toBeLessThan(await metric('sequential', 'duration'));
    // The verdict: the pipeline faster, the median of the per-round ratios with its 95 % interval, the pairs it won, where it stopped.
    expect(await ctx.page.locator('[data-testid=headline-time]').innerText()).toMatch(new RegExp(
      `^10 × INCR: sequential .+ — the pipeline [\\d.]+× faster \\[95 % [\\d.]+–[\\d.]+×\\], faster in \\d+ of ${rounds} pairs ` +
        `\\(until certain: certain at the ${rounds}-pair check\\), measured at the client socket\\.$`,
    ));
  });

  it('shows where each run’s time went: the parts add up to t0 → call returned, each with its source', async () => {
    for (const mode of ['sequential', 'pipeline'] as const) {
      const bar = panel(mode).locator('[data-testid=phase-bar]');
      expect(await bar.locator('[data-phase-key]').count()).toBe(5);
      const parts = await bar.locator('rect[data-phase]').evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-phase'), Number(r.getAttribute('data-us'))] as const));
      expect(parts.map(([name]) => name)).toContain('awaiting');
      const text = await bar.innerText();
      expect(text).toMatch(/client socket/);
      expect(text).toMatch(/Redis INFO commandstats/);
      await bar.locator('rect[data-phase=awaiting]').hover({ force: true });
      await expect.poll(() => bar.locator('[data-testid=phase-explain]').innerText()).toMatch(/^Time with at least one command written/);
    }
    // Sequentially the client turns around between replies; one pipeline never does.
    expect(await panel('sequential').locator('rect[data-phase=clientBetween]').count()).toBe(1);
    expect(await panel('pipeline').locator('rect[data-phase=clientBetween]').count()).toBe(0);
    expect(await panel('pipeline').locator('[data-testid=rtt-annotation]').innerText()).toMatch(/covers only the replies awaited and Redis executing: 1 round trip of/);
  });

  it('labels the connection warm, the probes, the kernel’s TCP figures and latency as redis-benchmark does', async () => {
    for (const mode of ['sequential', 'pipeline'] as const) {
      expect(await panel(mode).locator('[data-testid=warmup]').innerText()).toMatch(/^warm: 10 warm-up commands before t0, [\d.]+ (µs|ms)$/);
      expect(await panel(mode).locator('[data-testid=probes]').innerText()).toBe('probes: client socket · kernel TCP (ss)');
      expect(await panel(mode).locator('[data-testid=probe-costs]').innerText()).toMatch(/^cost to the run: client socket [\d.]+ µs of its hooks \(\d+ events\) · kernel TCP \(ss\) [\d.]+ (µs|ms) before and after, none inside it$/);
      expect(await panel(mode).locator('[data-testid=latency] [data-metric=p99]').innerText()).toBe('= max');
      // Redis's CPU time, from the kernel's count for the private redis-server.
      expect(await panel(mode).locator('.metric-server-cpu').innerText()).toMatch(/Redis CPU[\s\S]*per operation[\s\S]*kernel \(schedstat\)/);
    }
    expect(await panel('sequential').locator('[data-testid=first-round-trip]').innerText()).toMatch(
      /^First round trip [\d.]+ (µs|ms), the rest [\d.]+ (µs|ms) \(median of 9\): [\d.]+× — the connection was warmed right up to t0/,
    );
    expect(await panel('pipeline').locator('[data-testid=first-round-trip]').count()).toBe(0);
    expect(await panel('pipeline').locator('[data-testid=kernel-tcp]').innerText()).toMatch(/^10 commands · 1 write\(\) client socket · \d+ TCP segments? out .* kernel \(ss\) · 1 round trip client socket$/);
    expect(await panel('sequential').locator('[data-testid=kernel-tcp]').innerText()).toMatch(/· 10 round trips client socket$/);
    await ctx.page.mouse.move(0, 0);
    await waitForIdleRender(ctx.page);
  });
});

it('draws a recorded request’s repeats (10 × INCR, 5 of each mode) as median runs with their phase bars, as in its golden', async () => {
  const files = ['sequential', 'pipeline'].flatMap((mode) => [0, 1, 2, 3, 4].map((k) => `incr-10-repeats/incr-10-${mode}-r${k}.json`));
  const page = await openFixtures(ctx.browser, ctx.app.url, files);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    expect(await page.locator('[data-testid=run-panel][data-repeats="5"]').count()).toBe(2);
    expect(await page.locator('[data-testid=phase-bar]').count()).toBe(2);
    await expectGoldenScreenshot(page.locator('.results'), 'runs-repeats-incr-10');
  } finally {
    await page.context().close();
  }
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
  // The panel is there while the run still streams in (live drawing); the whole run, once it has ended.
  await expect.poll(() => big.getAttribute('data-incomplete'), { timeout: 120_000 }).toBeNull();
  await expect.poll(() => big.getAttribute('data-render')).toBe('canvas');
  expect(await big.getAttribute('data-commands-drawn')).toBe('100000');
  await waitForIdleRender(ctx.page);
  // The page still paints frames (how fast is a benchmark's business, not a test's).
  await ctx.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
});

it('says clearly when the backend goes away', async () => {
  await ctx.app.stop();
  await expect.poll(() => ctx.page.locator('[data-testid=banner]').innerText(), { timeout: 15_000 }).toMatch(/backend|server|reach|connect/i);
});
