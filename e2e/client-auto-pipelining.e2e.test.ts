// The auto-pipelining claim, through the browser on the real backend: 1,000 INCRs issued in one
// tick, no pipeline call, once with node-redis and once with ioredis (enableAutoPipelining). Each run is
// saved with Export and both files are opened together, so the compare table shows the two libraries
// side by side, each row named by its library, and each made far fewer client writes than operations.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { requestDone, useAppInBrowser } from './app-in-browser.ts';
import { openFresh, waitForIdleRender } from './browser.ts';

const ctx = useAppInBrowser();
const N = 1000;

/** Runs N same-tick INCRs on one engine in auto mode (one repeat) and returns its exported trace file. */
async function runAuto(page: Page, engine: 'node-redis' | 'ioredis'): Promise<string> {
  await openFresh(page, `${ctx.app.url}#command=INCR&n=${N}&mode=auto&repeats=1&engine=${engine}`);
  expect(await page.locator('[data-testid=engine]').inputValue()).toBe(engine);
  await page.click('[data-testid=run]');
  await requestDone(page, 120_000);
  await page.locator('[data-testid=run-panel][data-mode=auto]').waitFor({ timeout: 60_000 });
  await page.click('[data-testid=export]'); // opens the Export menu
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-trace]')]);
  return readFileSync((await download.path())!, 'utf8');
}

it('node-redis auto beside ioredis auto: both in the compare table, each with far fewer client writes than operations', async () => {
  const { page } = ctx;
  const nodeRedis = await runAuto(page, 'node-redis');
  const ioredis = await runAuto(page, 'ioredis');
  await page.setInputFiles('[data-testid=import]', [
    { name: 'node-redis-auto.json', mimeType: 'application/json', buffer: Buffer.from(nodeRedis) },
    { name: 'ioredis-auto.json', mimeType: 'application/json', buffer: Buffer.from(ioredis) },
  ]);
  const rows = page.locator('[data-testid=compare-table] [data-testid=compare-row]');
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
  await waitForIdleRender(page);
  expect(await rows.evaluateAll((r) => r.map((row) => row.getAttribute('data-mode')))).toEqual(['auto', 'auto']);
  const clients = await rows.locator('[data-testid=compare-client]').allInnerTexts();
  expect(clients).toHaveLength(2);
  expect(clients.some((c) => /^node-redis /.test(c))).toBe(true);
  expect(clients.some((c) => /^ioredis /.test(c))).toBe(true);
  expect(await page.locator('[data-testid=compare-table] .compare-caption').innerText()).toMatch(/^2 ways to run 1,000 × INCR, compared/);
  const writes = (await rows.locator('[data-metric=client-writes]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-value')))));
  for (const w of writes) {
    expect(w).toBeGreaterThanOrEqual(1);
    expect(w).toBeLessThan(N / 10); // far fewer than one write per operation (sequential makes 1,000)
  }
});
