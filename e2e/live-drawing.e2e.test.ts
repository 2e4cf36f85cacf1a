// Watch it happen: live in Chromium against a real redis-server through the delay proxy: a
// sequential run slow enough to watch draws its arrows while it streams (counted twice before its end,
// the second count larger); Cancel leaves the partial diagram on screen marked incomplete, and its
// Export re-imports with the mark.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { requestDone, useAppInBrowser } from './app-in-browser.ts';
import { openFresh, openMoreOptions, waitForIdleRender } from './browser.ts';

const ctx = useAppInBrowser();

const progress = (page: Page) => page.locator('[data-testid=progress]');
/**
 * The panel of the run a test started, told by its N: after a reload the history puts back the runs that
 * were on screen (the previous test's), and their panel must not stand in for the new run's.
 */
let liveN = 0;
const livePanel = (page: Page) => page.locator(`[data-testid=run-panel][data-mode=sequential][data-n="${liveN}"]`);
const arrows = (page: Page) => livePanel(page).locator('[data-testid=request-arrow]').count();

async function startSequential(page: Page, n: number): Promise<void> {
  liveN = n;
  // 5 ms of added RTT: a few milliseconds per INCR, so the run lasts seconds.
  await openFresh(page, `${ctx.app.url}#command=INCR&n=${n}&mode=sequential&repeats=1&rttMs=5`);
  // Set in the form too, as a user would.
  await page.selectOption('[data-testid=command]', 'INCR');
  await page.fill('[data-testid=n]', String(n));
  await openMoreOptions(page);
  await page.selectOption('[data-testid=repeats]', '1');
  await page.selectOption('[data-testid=mode]', 'sequential');
  await page.fill('[data-testid=rtt-ms]', '5');
  expect(await page.inputValue('[data-testid=rtt-ms]')).toBe('5');
  await page.locator('[data-testid=run]:not([disabled])').click();
}

it('a sequential run draws its arrows while it streams, before its end', async () => {
  const { page } = ctx;
  await startSequential(page, 300);
  await progress(page).waitFor({ timeout: 15_000 });
  // The partial diagram, marked as measuring, while the progress card is still up.
  await livePanel(page).and(page.locator('[data-incomplete=in-progress]')).waitFor({ timeout: 15_000 });
  await expect.poll(() => arrows(page), { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await arrows(page);
  expect(await progress(page).count()).toBe(1);
  expect(await livePanel(page).locator('[data-testid=incomplete-mark]').innerText()).toMatch(/^Measuring… [\d,]+ of 300 commands/);
  await expect.poll(() => arrows(page), { timeout: 15_000 }).toBeGreaterThan(first);
  const second = await arrows(page);
  // Still under way at the second count: the diagram grew during the run, not after it.
  expect(await progress(page).count()).toBe(1);
  expect(await livePanel(page).getAttribute('data-incomplete')).toBe('in-progress');
  console.log(`live drawing: ${first} then ${second} request arrows of 300 before run-end`);
  await requestDone(page);
  await waitForIdleRender(page);
  // The whole run replaces its partial one in the same panel.
  expect(await livePanel(page).getAttribute('data-incomplete')).toBeNull();
  expect(await arrows(page)).toBe(300);
}, 90_000);

it('Cancel keeps the partial diagram on screen, marked incomplete, and its export re-imports with the mark', async () => {
  const { page } = ctx;
  await startSequential(page, 1_000);
  await expect.poll(() => arrows(page), { timeout: 15_000 }).toBeGreaterThan(20);
  await page.click('[data-testid=cancel]');
  await progress(page).waitFor({ state: 'detached', timeout: 15_000 });
  await waitForIdleRender(page);
  const panel = livePanel(page);
  expect(await panel.getAttribute('data-incomplete')).toBe('cancelled');
  const mark = panel.locator('[data-testid=incomplete-mark]');
  const markText = await mark.locator('strong').innerText();
  expect(markText).toMatch(/^Cancelled after [\d,]+ of 1,000 commands — incomplete$/);
  const kept = Number(markText.match(/after ([\d,]+) of/)![1]!.replace(/,/g, ''));
  expect(kept).toBeGreaterThan(20);
  expect(kept).toBeLessThan(1_000);
  expect(await mark.locator('[data-testid=incomplete-rate]').innerText()).toMatch(/ops\/s over the [\d,]+ commands measured$/);
  // Drawn as far as the run was measured: every command kept (arrows, or density bands beyond ~300).
  expect(Number(await panel.getAttribute('data-commands-drawn'))).toBe(kept);
  // The header's time is final: where the run stopped, not "so far" as if the clock still ran, and it stays put.
  const total = await panel.locator('[data-testid=run-total]').innerText();
  expect(total).toMatch(/ until cancelled$/);
  await page.waitForTimeout(1_000);
  expect(await panel.locator('[data-testid=run-total]').innerText()).toBe(total);

  await page.click('[data-testid=export]'); // opens the Export menu
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-trace]')]);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(text)).toMatchObject({ version: 4, incomplete: { reason: 'cancelled', replied: expect.any(Number), omitted: expect.arrayContaining(['redis-info']) } });
  await page.setInputFiles('[data-testid=import]', { name: 'cancelled.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.locator('.source-tag').waitFor({ timeout: 15_000 }); // "opened from file"
  await waitForIdleRender(page);
  expect(await livePanel(page).getAttribute('data-incomplete')).toBe('cancelled');
  expect(await livePanel(page).locator('[data-testid=incomplete-mark] strong').innerText()).toBe(markText);
}, 90_000);
