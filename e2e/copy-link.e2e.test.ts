// "Copy link" reproduces what one sees: recorded repeats opened by ?trace= links, zoomed with Ctrl + wheel,
// switched to each run's own scale, another repeat picked and the pipeline listed in the wire view; the
// copied link, opened in a fresh context, gives the same hash and the same pixels of the results. And a
// link typed by hand (zoom=, t=, speed=) is applied, on load and when the URL is edited. The playhead is
// read from data-playhead-us on the results section, not from the playback bar. After a live compare the
// copied link names the runs the backend keeps (stored=): opened in a fresh context it shows the same runs
// with the same figures, tagged as stored; an id no longer kept is said plainly and the form stays.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ARTIFACTS, requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { newPage, openFresh, waitForIdleRender, zoomWheel } from './browser.ts';
import { compareImages, DEFAULT_TOLERANCE } from './golden-image.ts';
import { fixturesUrl, openFixtures, openFixturesAt } from './golden-page.ts';

const ctx = useAppInBrowser();
const FILES = ['sequential', 'pipeline'].flatMap((mode) => [0, 1, 2, 3, 4].map((k) => `incr-10-repeats/incr-10-${mode}-r${k}.json`));

const hashOf = (page: Page) => page.evaluate(() => window.location.hash);
const hashKey = async (page: Page, key: string) => new URLSearchParams((await hashOf(page)).slice(1)).get(key);

async function panelsDrawn(page: Page): Promise<void> {
  await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
  await waitForIdleRender(page);
}

/** The results section as a PNG, with no pointer over it and nothing focused (hover and focus rings are not state). */
async function resultsPng(page: Page): Promise<Buffer> {
  await page.evaluate(() => window.scrollTo(0, 0)); // the playback bar is sticky: the same scroll for both pictures
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await waitForIdleRender(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.locator('.results').screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
}

/** A diagram's time-axis labels ("0", "800 µs", "1.2 ms") as µs. */
async function axisUs(page: Page, mode: 'sequential' | 'pipeline'): Promise<number[]> {
  const labels = await runPanel(page, mode).locator('.diagram-svg .axis text').allTextContents();
  return labels.map((label) => {
    const [value, unit] = label.replaceAll(',', '').split(' ');
    return Number(value) * (unit === 'ms' ? 1000 : unit === 's' ? 1e6 : 1);
  });
}

it('copies a link that opens the same settings, view, zoom, repeat and wire run, pixel for pixel', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, FILES);
  let fresh: Page | null = null;
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ctx.app.url).origin });
    await panelsDrawn(page);
    const unzoomed = await axisUs(page, 'sequential');
    // Zoom with Ctrl + wheel on the sequential diagram.
    const diagram = runPanel(page, 'sequential').locator('.diagram-svg');
    await diagram.scrollIntoViewIfNeeded();
    const box = (await diagram.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.4);
    await zoomWheel(page, -600);
    await waitForIdleRender(page);
    await expect.poll(() => axisUs(page, 'sequential')).not.toEqual(unzoomed);
    // Each run on its own scale; another repeat of the pipeline; the pipeline in the wire view.
    await page.click('[data-testid=scale-toggle]');
    const picker = runPanel(page, 'pipeline').locator('[data-testid=repeat-picker]');
    const options = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const current = await picker.inputValue();
    await picker.selectOption(options.find((v) => v !== current)!);
    await page.click('[data-testid=wire-run][data-mode=pipeline]');
    await expect.poll(() => hashKey(page, 'scale')).toBe('own');
    await expect.poll(() => hashKey(page, 'zoom')).toMatch(/^\d+(\.\d+)?-\d+(\.\d+)?$/);
    await expect.poll(() => hashKey(page, 'repeat')).toMatch(/^2:\d$/);
    expect(await hashKey(page, 'wire')).toBe('2');
    const before = await resultsPng(page);

    await page.click('[data-testid=copy-link]');
    await expect.poll(() => page.locator('[data-testid=copy-link-status]').innerText()).toBe(
      'Link copied: it opens these settings, this view, zoom and position.',
    );
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(page.url());
    expect(link.startsWith(fixturesUrl(ctx.app.url, FILES))).toBe(true);

    fresh = await openFixturesAt(ctx.browser, link, FILES);
    await panelsDrawn(fresh);
    await expect.poll(() => hashOf(fresh!)).toBe(new URL(link).hash);
    expect(await fresh.locator('[data-testid=scale-toggle]').getAttribute('aria-checked')).toBe('false');
    expect(await fresh.locator('[data-testid=wire-run][data-mode=pipeline]').getAttribute('aria-checked')).toBe('true');
    expect(await axisUs(fresh, 'sequential')).toEqual(await axisUs(page, 'sequential'));
    const after = await resultsPng(fresh);
    const result = compareImages(before, after);
    const dir = join(ARTIFACTS, 'copy-link');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'before.png'), before);
    writeFileSync(join(dir, 'after.png'), after);
    if (!(result.share <= DEFAULT_TOLERANCE.maxDiffShare)) writeFileSync(join(dir, 'diff.png'), result.diffPng);
    expect(result.sameSize).toBe(true);
    expect(result.share, `${result.differing} pixels differ (e2e/artifacts/copy-link/)`).toBeLessThanOrEqual(DEFAULT_TOLERANCE.maxDiffShare);
  } finally {
    await fresh?.context().close();
    await page.context().close();
  }
});

it('applies a link typed by hand (zoom=, t=, speed=), and the URL edited afterwards', async () => {
  const page = await openFixturesAt(ctx.browser, `${fixturesUrl(ctx.app.url, FILES)}#zoom=500-1500&t=1000&speed=1/100`, FILES);
  try {
    await panelsDrawn(page);
    await expect.poll(() => page.locator('.results').getAttribute('data-playhead-us')).toBe('1000');
    const ticks = await axisUs(page, 'sequential');
    expect(ticks.length).toBeGreaterThan(2);
    expect(Math.min(...ticks)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...ticks)).toBeLessThanOrEqual(1500);
    // Kept as typed, the speed written as the step it snapped to; the run form's keys beside them.
    await expect.poll(() => hashKey(page, 'speed')).toBe('0.01');
    expect([await hashKey(page, 'zoom'), await hashKey(page, 't'), await hashKey(page, 'command')]).toEqual(['500-1500', '1000', 'INCR']);

    // The user edits the URL: the new window and playhead apply; removing them zooms out and leaves playback.
    await page.evaluate(() => {
      window.location.hash = window.location.hash.replace('zoom=500-1500', 'zoom=1000-1250').replace('t=1000', 't=1100.5');
    });
    await expect.poll(() => page.locator('.results').getAttribute('data-playhead-us')).toBe('1100.5');
    await expect.poll(async () => Math.min(...(await axisUs(page, 'sequential')))).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...(await axisUs(page, 'sequential')))).toBeLessThanOrEqual(1250);
    await page.evaluate(() => {
      window.location.hash = '#command=INCR&n=10&mode=both&scale=shared';
    });
    await expect.poll(() => page.locator('.results').getAttribute('data-playhead-us')).toBeNull();
    await expect.poll(async () => (await axisUs(page, 'sequential'))[0]).toBe(0);

    // Reset zoom removes zoom= from the link.
    const diagram = runPanel(page, 'sequential').locator('.diagram-svg');
    await diagram.scrollIntoViewIfNeeded();
    const box = (await diagram.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await zoomWheel(page, -400);
    await expect.poll(() => hashKey(page, 'zoom')).not.toBeNull();
    await page.click('[data-testid=zoom-reset]');
    await expect.poll(() => hashKey(page, 'zoom')).toBeNull();
  } finally {
    await page.context().close();
  }
});

/** Every figure a compare shows in its table and its panels' summaries (durations included), as text. */
async function figures(page: Page): Promise<{ table: string; durations: (string | null)[] }> {
  const table = await page.locator('[data-testid=compare-table]').innerText();
  const durations = await page.locator('[data-testid=run-panel] [data-testid=summary] [data-metric=duration]').evaluateAll(
    (cells) => cells.map((c) => `${c.getAttribute('data-value')} ${c.getAttribute('data-min')} ${c.getAttribute('data-max')}`),
  );
  return { table, durations };
}

it('after a live compare, copies a link that opens the same runs in a fresh browser, with the same figures', async () => {
  const page = await newPage(ctx.browser);
  let fresh: Page | null = null;
  try {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ctx.app.url).origin });
    await openFresh(page, `${ctx.app.url}#command=INCR&n=200&mode=both&repeats=3`);
    await page.click('[data-testid=run]');
    await requestDone(page);
    // The backend names the six runs once the request is done; the link carries them, in the order shown.
    await expect.poll(async () => (await hashKey(page, 'stored'))?.split('.').length ?? 0, { timeout: 15_000 }).toBe(6);
    const ids = (await hashKey(page, 'stored'))!.split('.');
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    await waitForIdleRender(page);
    const shown = await figures(page);
    expect(shown.durations).toHaveLength(2);

    await page.click('[data-testid=copy-link]');
    const status = page.locator('[data-testid=copy-link-status]');
    await expect.poll(() => status.innerText()).toMatch(/^Link copied: it opens these 6 runs, these settings, this view, zoom and position\. /);
    expect(await status.innerText()).toContain('The link shows these runs while this Pipescope keeps running: it keeps the last 240 runs it measured');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(page.url());

    // A fresh context: no history, no clipboard, nothing of the first page but the link.
    fresh = await newPage(ctx.browser);
    await fresh.goto(link);
    await expect.poll(() => fresh!.locator('[data-testid=run-panel]').count(), { timeout: 30_000 }).toBe(2);
    await waitForIdleRender(fresh);
    expect(await fresh.locator('.source-tag').innerText()).toBe('stored run, from a link');
    expect(await fresh.locator('.source-tag').getAttribute('title')).toMatch(/^The link shows these runs while this Pipescope keeps running/);
    expect(await figures(fresh)).toEqual(shown);
    expect(await fresh.locator('[data-testid=empty-title]').count()).toBe(0);
    // Its own link names the same runs (each run's repeats together now, as runs opened are shown): copied again, it still opens them.
    await expect.poll(async () => (await hashKey(fresh!, 'stored'))?.split('.').sort()).toEqual([...ids].sort());
  } finally {
    await fresh?.context().close();
    await page.context().close();
  }
}, 120_000);

it('a link whose runs are no longer kept says so plainly and opens the form with its settings', async () => {
  const page = await newPage(ctx.browser);
  try {
    await page.goto(`${ctx.app.url}#command=GET&n=30&mode=pipeline&stored=${'Q'.repeat(22)}`);
    const message = page.locator('.message');
    await expect.poll(() => message.innerText(), { timeout: 15_000 }).toMatch(/^The run this link names is no longer kept by the Pipescope that measured it: it keeps its last 240 runs/);
    expect(await message.getAttribute('role')).toBe('alert');
    await page.locator('[data-testid=empty-title]').waitFor();
    expect(await page.locator('[data-testid=run-panel]').count()).toBe(0);
    // The form holds the link's settings; the id that named nothing leaves the link.
    await expect.poll(() => hashKey(page, 'stored')).toBeNull();
    expect([await hashKey(page, 'command'), await hashKey(page, 'n')]).toEqual(['GET', '30']);
  } finally {
    await page.context().close();
  }
});
