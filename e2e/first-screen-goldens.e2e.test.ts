// The first screen after Run, as goldens: the default form's request (10 × INCR, sequential vs one
// pipeline, 5 repeats each; the recorded runs in e2e/fixtures/incr-10-repeats, so every figure is the
// same each time) at a projector's 1280×720 and a laptop's 1440×900, light and dark. Only what the
// viewport shows is compared — the form bar, the verdict, the toolbar and the top of both diagrams —
// and the first diagram's top is checked to be inside it, as after a live Run (first-screen.e2e.test.ts).
import { describe, expect, it } from 'vitest';
import { runPanel, useAppInBrowser } from './app-in-browser.ts';
import { expectGoldenViewport, openFixtures, type GoldenTheme } from './golden-page.ts';

const ctx = useAppInBrowser();

const FILES = ['sequential', 'pipeline'].flatMap((mode) => [0, 1, 2, 3, 4].map((k) => `incr-10-repeats/incr-10-${mode}-r${k}.json`));
/** The default form's own link, so the form bar shows what was run. */
const FORM = '#command=INCR&n=10&valueBytes=16&mode=both&scale=shared&repeats=5';

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

describe.each(SIZES)('the first screen at $width×$height', (viewport) => {
  for (const theme of ['light', 'dark'] as GoldenTheme[]) {
    it(`with the default form's runs, as in its ${theme} golden`, async () => {
      const page = await openFixtures(ctx.browser, ctx.app.url, FILES, { theme, hash: FORM });
      try {
        await page.setViewportSize(viewport);
        await runPanel(page, 'pipeline').locator('svg.diagram-svg').waitFor();
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        // The diagram starts inside the viewport, with some of it showing (these runs sampled memory: a memory line under the verdict too).
        const top = await page.locator('[data-testid=run-panel] svg.diagram-svg').first().evaluate((svg) => svg.getBoundingClientRect().top);
        expect(top).toBeGreaterThan(0);
        expect(top).toBeLessThan(viewport.height - 40);
        // Every run is in the history (its count in the tab), so the count is the same in every screenshot.
        await expect.poll(() => page.locator('[data-testid=history-count]').innerText()).toBe(String(FILES.length));
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await expectGoldenViewport(page, `first-screen-${theme}-${viewport.width}x${viewport.height}`);
      } finally {
        await page.context().close();
      }
    });
  }
});
