// The run history in the built app on the real backend: two live runs are saved in this browser's
// IndexedDB; after a reload the History tab lists both and the run on screen comes back ("Restored from
// history"); picking both and Compare shows two panels on one time scale. Opening more runs than fit (8
// files at once, or a group of 8 from the history) names those not drawn. Clear history, after its
// confirm step, empties it, and a reload finds it empty. The History view of two recorded batches, as in
// its golden. Without IndexedDB the app still runs, and the History tab says the history is off.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { VIEWPORT, openFresh, openMoreOptions, quietFirstVisit, waitForIdleRender } from './browser.ts';
import { FIXTURES, expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();

const count = (page: Page) => page.locator('[data-testid=history-count]').innerText().then(Number).catch(() => -1);
const rows = (page: Page) => page.locator('[data-testid=history-row]');
const panels = (page: Page) => page.locator('[data-testid=run-panel]');
/** The message line's text, or '' when there is none (without waiting for one). */
const message = async (page: Page) => ((await page.locator('.message').count()) > 0 ? page.locator('.message').innerText() : '');

/** One request of a single mode, 10 INCRs, one repeat, through the form as a user sets it. */
async function runOnce(page: Page, mode: 'sequential' | 'pipeline'): Promise<void> {
  // Set in the form, not only by the URL hash: a hash changed just after the first load can be rewritten by the form's first render.
  await page.selectOption('[data-testid=command]', 'INCR');
  await page.fill('[data-testid=n]', '10');
  await openMoreOptions(page);
  await page.selectOption('[data-testid=repeats]', '1');
  await page.selectOption('[data-testid=mode]', mode);
  await page.locator('[data-testid=run]:not([disabled])').click();
  await requestDone(page);
  await runPanel(page, mode).waitFor();
}

const EIGHT_RUNS = [
  'modes-incr-10/error-at-4-multi-r0.json', 'modes-incr-10/error-at-4-pipeline-r0.json', 'modes-incr-10/execabort-at-4-multi-r0.json',
  'modes-incr-10/four-eval-r0.json', 'modes-incr-10/four-evalsha-r0.json', 'modes-incr-10/four-multi-r0.json', 'modes-incr-10/four-pipeline-r0.json',
  'incr-10-sequential.json',
];

it('keeps two live runs across a reload, and puts the run on screen back', async () => {
  const { page, app } = ctx;
  await openFresh(page, `${app.url}#command=INCR&n=10&mode=sequential&repeats=1`);
  await expect.poll(() => count(page)).toBe(0);
  await runOnce(page, 'sequential');
  await runOnce(page, 'pipeline');
  await expect.poll(() => count(page)).toBe(2);

  await page.reload();
  await expect.poll(() => count(page)).toBe(2);
  await runPanel(page, 'pipeline').waitFor();
  expect(await panels(page).count()).toBe(1); // the second request replaced the first on screen
  await expect.poll(() => message(page)).toMatch(/^Restored from history: the 1 run on screen before the reload\./);
  expect(await page.locator('.results .source-tag').innerText()).toBe('from history');

  await page.click('[data-testid=tab-history]');
  expect(await rows(page).evaluateAll((r) => r.map((row) => row.getAttribute('data-mode')))).toEqual(['pipeline', 'sequential']); // newest first
  expect(await rows(page).locator('.history-source').allInnerTexts()).toEqual(['live', 'live']);
  expect(await page.locator('[data-testid=history-group-title]').allInnerTexts()).toEqual(['Live request: 1 run', 'Live request: 1 run']);
});

it('compares the two picked runs in the Runs view, on one time scale', async () => {
  const { page } = ctx;
  await page.click('[data-testid=tab-history]');
  expect(await page.locator('[data-testid=history-compare]').isDisabled()).toBe(true);
  for (const box of await page.locator('[data-testid=history-pick]').all()) await box.check();
  await page.click('[data-testid=history-compare]');
  await expect.poll(() => panels(page).count()).toBe(2);
  expect(await page.locator('[data-testid=tab-run]').getAttribute('aria-selected')).toBe('true');
  expect(await panels(page).evaluateAll((p) => p.map((panel) => panel.getAttribute('data-mode')))).toEqual(['sequential', 'pipeline']);
  expect(await page.locator('[data-testid=scale-toggle]').getAttribute('aria-checked')).toBe('true');
  expect(await page.locator('[data-testid=compare-table] [data-testid=compare-row]').count()).toBe(2);
  await waitForIdleRender(page);
});

it('opening 8 runs, as files or as a group from the history, draws 6 and names the other 2', async () => {
  const { page } = ctx;
  await page.click('[data-testid=tab-run]');
  await page.setInputFiles(
    '[data-testid=import]',
    EIGHT_RUNS.map((f) => ({ name: f.split('/').at(-1)!, mimeType: 'application/json', buffer: readFileSync(join(FIXTURES, f)) })),
  );
  await expect.poll(() => panels(page).count()).toBe(6);
  const notDrawn = /^Showing the first 6 of 8 runs \(at most 6 compare side by side\); not drawn: .+; .+\. Open those on their own to see them\./;
  expect(await message(page)).toMatch(notDrawn);
  // All 8 are kept, the 2 not drawn too.
  await expect.poll(() => count(page)).toBe(10);

  await page.click('[data-testid=tab-history]');
  const group = page.locator('[data-testid=history-group]').first();
  expect(await group.locator('[data-testid=history-group-title]').innerText()).toBe('Opened together: 8 files');
  await page.locator('[data-testid=history-pick]').first().check(); // a pick elsewhere does not matter to Show all
  await group.locator('[data-testid=history-show-group]').click();
  await expect.poll(async () => ((await page.locator('.results .source-tag').count()) > 0 ? page.locator('.results .source-tag').innerText() : '')).toBe('from history');
  expect(await panels(page).count()).toBe(6);
  expect(await message(page)).toMatch(notDrawn);
});

it('Clear history asks first, empties the history, and a reload finds it empty', async () => {
  const { page } = ctx;
  await page.click('[data-testid=tab-history]');
  await page.click('[data-testid=history-clear]');
  await page.click('[data-testid=history-clear-cancel]');
  expect(await rows(page).count()).toBe(10);
  await page.click('[data-testid=history-clear]');
  await page.click('[data-testid=history-clear-confirm]');
  await expect.poll(() => count(page)).toBe(0);
  await page.locator('[data-testid=history-empty]').waitFor();

  await page.reload();
  await expect.poll(() => count(page)).toBe(0);
  await page.locator('[data-testid=history-empty]').waitFor(); // the hash keeps the History tab
  expect(await rows(page).count()).toBe(0);
  await page.click('[data-testid=tab-run]');
  await page.locator('[data-testid=empty-title]').waitFor();
  expect(await panels(page).count()).toBe(0);
  expect(await message(page)).not.toMatch(/Restored/);
});

it('lists two recorded batches, a link and two files, as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential.json', 'incr-10-pipeline.json']);
  try {
    await expect.poll(() => count(page)).toBe(2);
    await page.setInputFiles(
      '[data-testid=import]',
      ['ping-20-pipeline-rtt-10ms.json', 'ping-20-chunked-5-rtt-10ms.json'].map((f) => ({ name: f, mimeType: 'application/json', buffer: readFileSync(join(FIXTURES, f)) })),
    );
    await expect.poll(() => count(page)).toBe(4);
    await page.click('[data-testid=tab-history]');
    const boxes = page.locator('[data-testid=history-pick]');
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await expectGoldenScreenshot(page.locator('[data-testid=history-view]'), 'history-two-batches');
  } finally {
    await page.context().close();
  }
});

it('without IndexedDB (blocked storage) the app still draws runs, and the History tab says it is off', async () => {
  const context = await ctx.browser.newContext({ viewport: VIEWPORT });
  try {
    await quietFirstVisit(context);
    await context.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));
    const page = await context.newPage();
    await page.goto(`${ctx.app.url}#command=INCR&n=10&mode=pipeline&repeats=1`);
    await runOnce(page, 'pipeline');
    expect(await page.locator('[data-testid=history-count]').count()).toBe(0);
    await page.click('[data-testid=tab-history]');
    expect(await page.locator('[data-testid=history-off]').innerText()).toBe('History is off: this browser offers no IndexedDB. Runs still work; they are not kept.');
  } finally {
    await context.close();
  }
});
