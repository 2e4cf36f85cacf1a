// The Redis side, live: the built app (private redis-server, MONITOR, strace) in headless Chromium.
// With MONITOR and strace on, each run marks its executions on the Redis lifeline, counts Redis's
// read() calls from strace — one per command sequentially, one for the whole pipeline, the docs'
// syscall difference — and the wire view lists the bytes; the netcat preset shows the docs' example.
// The same view drawn from recorded runs (e2e/fixtures/) must look like its golden screenshot.
import { beforeAll, describe, expect, it } from 'vitest';
import { requestDone, runPanel, summaryMetric, useAppInBrowser, type Mode } from './app-in-browser.ts';
import { openMoreOptions, pickPreset, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();

const panel = (mode: Mode) => runPanel(ctx.page, mode);
const metric = (mode: Mode, name: string) => summaryMetric(ctx.page, mode, name);

describe('INCR ×10, both modes, Redis side traced', () => {
  beforeAll(async () => {
    await ctx.page.selectOption('[data-testid=command]', 'INCR');
    await ctx.page.fill('[data-testid=n]', '10');
    await ctx.page.selectOption('[data-testid=mode]', 'both');
    await openMoreOptions(ctx.page);
    await ctx.page.check('[data-testid=monitor]');
    await ctx.page.check('[data-testid=strace]');
    expect(await ctx.page.evaluate(() => window.location.hash)).toMatch(/monitor=1&strace=1/);
    await ctx.page.click('[data-testid=run]');
    await requestDone(ctx.page, 120_000);
    await panel('pipeline').waitFor({ timeout: 60_000 });
    await waitForIdleRender(ctx.page);
  });

  it('marks each command’s execution on the Redis lifeline, and names the probes', async () => {
    for (const mode of ['sequential', 'pipeline'] as const) {
      await expect.poll(() => panel(mode).getAttribute('data-render')).toBe('svg');
      expect(await panel(mode).locator('[data-testid=server-exec]').count()).toBe(10);
      expect(await panel(mode).locator('[data-testid=server-syscall][data-call=read]').count()).toBeGreaterThan(0);
      expect(await panel(mode).locator('[data-testid=probes]').innerText()).toMatch(/client socket · MONITOR · strace/);
      expect(await panel(mode).innerText()).toMatch(/executions from MONITOR, clock ±/);
    }
    // The docs' two orderings, read off the measurement.
    expect(await panel('sequential').locator('[data-testid=server-order]').innerText()).toMatch(/Client INCR, Server 1, Client INCR, Server 2/);
    expect(await panel('pipeline').locator('[data-testid=server-order]').innerText()).toMatch(/Client INCR ×10, then Server ×10/);
  });

  it('counts Redis’s read() calls with strace: one per command sequentially, one for the pipeline', async () => {
    expect(await metric('sequential', 'kernel-reads')).toBe(10);
    expect(await metric('pipeline', 'kernel-reads')).toBe(1);
    expect(await metric('sequential', 'kernel-writes')).toBeGreaterThanOrEqual(10);
    expect(await metric('pipeline', 'kernel-writes')).toBeGreaterThanOrEqual(1);
    expect(await panel('pipeline').locator('[data-testid=summary]').innerText()).toMatch(/kernel \(strace\)/);
  });

  it('lists the bytes on the wire, and finds a row from its mark in the diagram', async () => {
    const wire = ctx.page.locator('[data-testid=wire-view]');
    await ctx.page.click('[data-testid=wire-run][data-mode=pipeline]');
    const rows = wire.locator('[data-testid=wire-row]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    for (const kind of ['client-write', 'server-read', 'server-write', 'client-read']) {
      expect(await wire.locator(`[data-testid=wire-row][data-kind=${kind}]`).count()).toBeGreaterThanOrEqual(1);
    }
    expect(await wire.locator('[data-kind=client-write] code').first().innerText()).toMatch(/^\*2\\r\\n\$4\\r\\nincr\\r\\n/); // as ioredis's incr() writes it
    expect(await wire.locator('[data-kind=client-write]').first().innerText()).toMatch(/commands 1–10/);
    await panel('pipeline').locator('[data-testid=server-syscall][data-call=read]').first().click({ force: true });
    await expect.poll(() => wire.locator('[data-testid=wire-row][aria-selected=true]').getAttribute('data-kind')).toBe('server-read');
    await ctx.page.mouse.move(0, 0);
    await waitForIdleRender(ctx.page);
  });
});

it('draws recorded server-traced runs (MONITOR and strace lanes) as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential-server-trace.json', 'incr-10-pipeline-server-trace.json']);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    expect(await page.locator('[data-testid=server-exec]').count()).toBe(20);
    await expectGoldenScreenshot(page.locator('.results'), 'runs-server-traced-incr-10');
  } finally {
    await page.context().close();
  }
});

it('the netcat preset: PING\\r\\n three times in one write, three +PONG back', async () => {
  await pickPreset(ctx.page, 'netcat');
  expect(await ctx.page.isChecked('[data-testid=monitor]')).toBe(true);
  expect(await ctx.page.isChecked('[data-testid=strace]')).toBe(true);
  expect(await ctx.page.inputValue('[data-testid=engine]')).toBe('raw');
  await ctx.page.click('[data-testid=run]');
  const run = ctx.page.locator('[data-testid=run-panel][data-mode=pipeline][data-n="3"]');
  await requestDone(ctx.page, 120_000);
  await run.waitFor({ timeout: 60_000 });
  await waitForIdleRender(ctx.page);
  expect(await run.locator('[data-testid=server-exec]').count()).toBe(3);
  const wire = ctx.page.locator('[data-testid=wire-view]');
  expect(await wire.locator('[data-kind=client-write] code').first().innerText()).toBe('PING\\r\\nPING\\r\\nPING\\r\\n');
  expect(await wire.locator('[data-kind=client-read] code').first().innerText()).toBe('+PONG\\r\\n+PONG\\r\\n+PONG\\r\\n');
});
