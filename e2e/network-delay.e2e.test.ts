// The "250 ms link" preset, live: a real delay proxy between the run and a real redis-server. The
// sequential client manages at most 4 requests per second; the arrows slope with the time in flight.
import { expect, it } from 'vitest';
import { useAppInBrowser } from './app-in-browser.ts';
import { pickPreset, waitForIdleRender } from './browser.ts';

const ctx = useAppInBrowser();

it('the 250 ms link preset shows ≤ 4 ops/s sequentially, sloped arrows, and the added delay label', async () => {
  await pickPreset(ctx.page, '250ms');
  expect(await ctx.page.inputValue('[data-testid=rtt-ms]')).toBe('250');
  await ctx.page.click('[data-testid=run]');
  const sequential = ctx.page.locator('[data-testid=run-panel][data-mode=sequential]');
  const pipeline = ctx.page.locator('[data-testid=run-panel][data-mode=pipeline]');
  await pipeline.waitFor({ timeout: 60_000 });
  await waitForIdleRender(ctx.page);

  const ops = Number(await sequential.locator('[data-testid=summary] [data-metric=ops]').getAttribute('data-value'));
  expect(ops).toBeGreaterThan(0);
  expect(ops).toBeLessThanOrEqual(4);
  const pipelineMs = Number(await pipeline.locator('[data-testid=summary] [data-metric=duration]').getAttribute('data-value')) / 1000;
  expect(pipelineMs).toBeGreaterThanOrEqual(250);
  expect(pipelineMs).toBeLessThan(3 * 250);

  for (const panel of [sequential, pipeline]) {
    expect(await panel.innerText()).toContain('added delay: 250 ms RTT (proxy)');
    // Beside what was asked, what was measured: the added round trip, the PINGs it is read from, the direct one.
    expect(await panel.locator('[data-testid=delay-tag]').innerText()).toMatch(/^added delay: 250 ms RTT \(proxy\) · measured \+2\d\d(\.\d+)? ms per round trip.*\(PING ×\d+ [\d.]+ ms median, p10–p90 .*; direct [\d.]+ (µs|ms)\)$/);
    expect(await panel.locator('[data-testid=rtt-annotation]').innerText()).toMatch(/measured .* estimate .* RTT/);
    // Each request arrow ends lower (later) at Redis than it starts at the client: time in flight.
    const arrow = panel.locator('[data-testid=request-arrow]').first();
    const [y1, y2] = await Promise.all([arrow.getAttribute('y1'), arrow.getAttribute('y2')]);
    expect(Number(y2)).toBeGreaterThan(Number(y1));
  }
});

it('a sequential run of minutes asks first, and "reduce N" runs about a minute\'s worth', async () => {
  await ctx.page.fill('[data-testid=rtt-ms]', '250');
  await ctx.page.fill('[data-testid=n]', '1000');
  await ctx.page.selectOption('[data-testid=mode]', 'sequential');
  await ctx.page.click('[data-testid=run]');
  const confirm = ctx.page.locator('[data-testid=long-run-confirm]');
  await confirm.waitFor();
  expect(await confirm.innerText()).toMatch(/should take about 4\.\d\d min|should take about 25\d s/);
  await confirm.locator('[data-testid=reduce-n]').click();
  expect(Number(await ctx.page.inputValue('[data-testid=n]'))).toBeGreaterThan(200);
  expect(Number(await ctx.page.inputValue('[data-testid=n]'))).toBeLessThan(250);
  // The run started; its progress shows a time estimate once replies come back. Then cancel it.
  await ctx.page.locator('[data-testid=eta]').first().waitFor({ timeout: 15_000 });
  expect(await ctx.page.locator('[data-testid=eta]').first().innerText()).toMatch(/about .* left/);
  const cancelled = Date.now();
  await ctx.page.click('[data-testid=cancel]');
  await ctx.page.locator('[data-testid=progress]').waitFor({ state: 'detached', timeout: 15_000 });
  expect(Date.now() - cancelled).toBeLessThan(10_000); // far below the ~55 s the rest would take
});

it('"Run all" runs the whole N: the page\'s yes is what the backend asks of a run past two minutes', async () => {
  await ctx.page.fill('[data-testid=rtt-ms]', '250');
  await ctx.page.fill('[data-testid=n]', '1000');
  await ctx.page.selectOption('[data-testid=mode]', 'sequential');
  await ctx.page.click('[data-testid=run]');
  const confirm = ctx.page.locator('[data-testid=long-run-confirm]');
  await confirm.waitFor();
  await confirm.locator('[data-testid=run-anyway]').click();
  // Not refused: it runs, and its estimate says minutes are left (1,000 round trips of 250 ms). Then cancel it.
  await ctx.page.locator('[data-testid=eta]').first().waitFor({ timeout: 15_000 });
  expect(await ctx.page.locator('[data-testid=eta]').first().innerText()).toMatch(/about (2\d\d s|[2-5](\.\d+)? min) left/);
  await ctx.page.click('[data-testid=cancel]');
  await ctx.page.locator('[data-testid=progress]').waitFor({ state: 'detached', timeout: 15_000 });
  expect(await ctx.page.locator('[data-testid=n]').inputValue()).toBe('1000');
});

it('the RTT slider moves through link speeds and sets the added RTT', async () => {
  const slider = ctx.page.locator('[data-testid=rtt-slider]');
  await slider.focus();
  await ctx.page.keyboard.press('Home');
  expect(await ctx.page.inputValue('[data-testid=rtt-ms]')).toBe('0');
  for (let i = 0; i < 8; i++) await ctx.page.keyboard.press('ArrowRight');
  expect(await ctx.page.inputValue('[data-testid=rtt-ms]')).toBe('80');
  expect(await slider.getAttribute('aria-valuetext')).toBe('80 ms');
});
