// Scrolling that scrolls: over a diagram a plain wheel scrolls the page and leaves the zoom alone; the
// first such wheel shows the "Ctrl + wheel to zoom" hint, which fades and does not come back; Ctrl + wheel
// zooms (and the page stays put); a horizontal wheel pans through time while zoomed in; the zoom buttons
// zoom every diagram. Recorded runs opened by ?trace= links, in Chromium.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { runPanel, useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender, zoomWheel } from './browser.ts';
import { openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const FILES = ['incr-10-sequential.json', 'incr-10-pipeline.json'];

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const axis = (page: Page) => runPanel(page, 'sequential').locator('.diagram-svg .axis text').allTextContents();
const hint = (page: Page) => page.locator('[data-testid=wheel-hint]');

it('a plain wheel over a diagram scrolls the page and hints once; Ctrl + wheel zooms; a horizontal wheel pans; the buttons zoom', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, FILES);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    await waitForIdleRender(page);
    const diagram = runPanel(page, 'sequential').locator('.diagram-svg');
    // The diagram's top 120 px below the viewport's top, with page left below to scroll to.
    await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=run-panel][data-mode=sequential] .diagram-svg')!;
      window.scrollTo(0, window.scrollY + svg.getBoundingClientRect().top - 120);
    });
    const unzoomed = await axis(page);
    const box = (await diagram.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);

    // A plain wheel: the page scrolls, the zoom stays, and the hint says how to zoom.
    const top = await scrollY(page);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => scrollY(page)).toBeGreaterThan(top);
    await hint(page).waitFor({ state: 'visible', timeout: 5_000 });
    expect(await hint(page).innerText()).toBe('Ctrl + wheel to zoom');
    await waitForIdleRender(page);
    expect(await axis(page)).toEqual(unzoomed);
    // It fades and goes by itself (HINT_MS, 2.4 s).
    await hint(page).waitFor({ state: 'detached', timeout: 6_000 });
    // Not every time: the next plain wheel scrolls on, without it.
    const further = await scrollY(page);
    await page.mouse.wheel(0, 200);
    await expect.poll(() => scrollY(page)).toBeGreaterThan(further);
    expect(await hint(page).count()).toBe(0);
    expect(await axis(page)).toEqual(unzoomed);

    // Ctrl + wheel zooms, and the page does not move.
    const box2 = (await diagram.boundingBox())!;
    // The middle of the part of the diagram in view (the playback bar sticks to the viewport's top).
    await page.mouse.move(box2.x + box2.width / 2, (Math.max(box2.y, 0) + Math.min(box2.y + box2.height, 900)) / 2);
    const still = await scrollY(page);
    await zoomWheel(page, -300);
    await waitForIdleRender(page);
    await expect.poll(() => axis(page)).not.toEqual(unzoomed);
    expect(await scrollY(page)).toBe(still);
    const zoomed = await axis(page);

    // Zoomed in, a horizontal wheel pans through time; the page stays put.
    await page.mouse.wheel(200, 0);
    await waitForIdleRender(page);
    await expect.poll(() => axis(page)).not.toEqual(zoomed);
    expect(await scrollY(page)).toBe(still);
    expect(await hint(page).count()).toBe(0);

    // The buttons: reset, then Zoom in zooms, Zoom out comes back.
    await page.click('[data-testid=zoom-reset]');
    await expect.poll(() => axis(page)).toEqual(unzoomed);
    await page.click('[data-testid=zoom-in]');
    await expect.poll(() => axis(page)).not.toEqual(unzoomed);
    await page.click('[data-testid=zoom-out]');
    await expect.poll(() => axis(page)).toEqual(unzoomed);
  } finally {
    await page.context().close();
  }
});

it('no hint for a user who has zoomed with the wheel before (remembered across visits)', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, FILES);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    await waitForIdleRender(page);
    const diagram = runPanel(page, 'sequential').locator('.diagram-svg');
    await diagram.scrollIntoViewIfNeeded();
    const box = (await diagram.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 100);
    await zoomWheel(page, -100);
    await page.click('[data-testid=zoom-reset]');
    await page.reload();
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    await waitForIdleRender(page);
    await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=run-panel][data-mode=sequential] .diagram-svg')!;
      window.scrollTo(0, window.scrollY + svg.getBoundingClientRect().top - 120);
    });
    const again = (await diagram.boundingBox())!;
    await page.mouse.move(again.x + again.width / 2, again.y + 200);
    const top = await scrollY(page);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => scrollY(page)).toBeGreaterThan(top);
    expect(await hint(page).count()).toBe(0);
  } finally {
    await page.context().close();
  }
});
