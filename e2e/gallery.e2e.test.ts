// The gallery of published benchmarks in the built app (private redis-server) in headless Chromium:
// one click runs the docs' netcat example on a raw socket and the 10,000 PINGs with ioredis, and each
// card shows what was measured beside the published figure; "Show the runs" opens their diagrams.
// The gallery as it looks with the netcat example's recorded run (e2e/fixtures/gallery/) and no other
// run yet must look like its golden screenshot (live figures vary; that state does not).
import { describe, expect, it } from 'vitest';
import { runPanel, useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const card = (id: string) => ctx.page.locator(`[data-testid=gallery-card][data-benchmark=${id}]`);
const figure = (id: string, name: string) => card(id).locator(`[data-testid=gallery-live] [data-figure=${name}]`);

/** Clicks the card's Run live and waits until its request is done: the card's progress has come and gone. */
async function runCard(id: string, timeout = 120_000): Promise<void> {
  await card(id).locator('[data-testid=gallery-run]:not([disabled])').click();
  const progress = card(id).locator('[data-testid=progress]');
  await progress.waitFor({ timeout: 10_000 }).catch(() => {}); // a fast request may be gone already
  await progress.waitFor({ state: 'detached', timeout });
}

describe('the gallery, live', () => {
  it('opens from its tab with a card per source, each with its published figure', async () => {
    await ctx.page.click('[data-testid=tab-gallery]');
    await expect.poll(() => ctx.page.evaluate(() => window.location.hash)).toBe('#view=gallery');
    expect(await ctx.page.locator('[data-testid=gallery-card]').count()).toBe(5);
    expect(await card('tair-incr').locator('[data-testid=gallery-published] [data-figure=sequential]').innerText()).toBe('5,844 ms');
    expect(await card('docs-ping').locator('[data-testid=gallery-published] [data-figure=ratio]').innerText()).toBe('~4.7×');
  });

  it('runs the docs’ netcat example in one click: one write of three inline PINGs, three +PONG back', async () => {
    await runCard('docs-netcat');
    const text = await card('docs-netcat').locator('[data-testid=gallery-netcat]').innerText();
    expect(text).toMatch(/^1 write\(\) of 18 B carried PING\\r\\nPING\\r\\nPING\\r\\n; 3 replies came back in \d+ reads?: \+PONG\\r\\n/);
    expect(await card('docs-netcat').locator('[data-testid=gallery-live] h4').innerText()).toBe('Measured here');
  });

  it('runs the 10,000 PINGs in one click and sets the live figures beside the published ones, with the explanation', async () => {
    await runCard('docs-ping', 170_000);
    const value = async (name: string) => Number(await figure('docs-ping', name).getAttribute('data-value'));
    await expect.poll(() => value('ratio')).toBeGreaterThan(0);
    expect(await value('sequential')).toBeGreaterThan(await value('pipeline'));
    for (const name of ['sequential', 'pipeline'] as const) {
      const [min, max] = await Promise.all(['data-min', 'data-max'].map(async (a) => Number(await figure('docs-ping', name).getAttribute(a))));
      expect(min).toBeLessThanOrEqual(await value(name));
      expect(await value(name)).toBeLessThanOrEqual(max!);
      expect(await figure('docs-ping', name).innerText()).toMatch(/^[\d.,]+ (µs|ms|s)( \[.+\])?$/);
    }
    expect(await card('docs-ping').locator('[data-testid=gallery-live]').innerText()).toMatch(/ioredis .* · loopback, no added delay · RTT [\d.]+ µs on the run’s connection/);
    expect(await card('docs-ping').locator('[data-testid=gallery-why]').innerText()).toMatch(/^Per command, the Redis docs measured 119 µs sequentially and 25\.1 µs pipelined; here /);
    // Under load the RTT probed before the run can read longer than a whole sequential command; the card then says "at most".
    expect(await card('docs-ping').locator('[data-testid=gallery-gap]').innerText()).toMatch(/^Besides the round trip \((?:[\d.,]+ (?:µs|ms) measured on this connection|at most [\d.,]+ (?:µs|ms): the [\d.,]+ (?:µs|ms) probed before the run read longer than a sequential command took)\)/);
    // The blog's card ran the same workload: it shows the same run against its own figure.
    expect(await figure('blog-ping', 'sequential').getAttribute('data-value')).toBe(await figure('docs-ping', 'sequential').getAttribute('data-value'));
    // The netcat card kept its result while the other ran.
    expect(await card('docs-netcat').locator('[data-testid=gallery-netcat]').innerText()).toMatch(/^1 write\(\)/);
    await ctx.page.mouse.move(0, 0);
  });

  it('shows the runs behind a card as diagrams in the single-run view', async () => {
    await card('docs-ping').locator('[data-testid=gallery-show-runs]').click();
    await expect.poll(() => ctx.page.locator('[data-testid=tab-run]').getAttribute('aria-selected')).toBe('true');
    for (const mode of ['sequential', 'pipeline'] as const) {
      await runPanel(ctx.page, mode).waitFor();
      expect(await runPanel(ctx.page, mode).getAttribute('data-n')).toBe('10000');
    }
    await waitForIdleRender(ctx.page);
  });
});

it('draws the gallery with the netcat example’s recorded run and nothing else run yet, as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['gallery/netcat-pipeline-r0.json']);
  try {
    await page.locator('[data-testid=run-panel]').waitFor(); // ?trace= opens the single-run view
    await page.click('[data-testid=tab-gallery]');
    const netcat = page.locator('[data-testid=gallery-card][data-benchmark=docs-netcat] [data-testid=gallery-netcat]');
    await expect.poll(() => netcat.innerText()).toMatch(/^1 write\(\) of 18 B carried/);
    // Connected: every Run live button enabled, as a user finds them.
    await expect.poll(() => page.locator('[data-testid=gallery-run]:not([disabled])').count()).toBe(5);
    await expectGoldenScreenshot(page.locator('[data-testid=gallery-view]'), 'gallery-netcat-recorded');
  } finally {
    await page.context().close();
  }
});
