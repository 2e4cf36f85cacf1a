// The app on a phone, in Chromium against the built app and a private redis-server, at 390×844 and
// 360×740: the page never scrolls sideways — before and after a live run of five modes, in every view,
// with the tour open, in presenter mode and on a follower's page — and nothing sticks out of it (the
// connection pill, the Run button); the compare table and the other wide tables and charts scroll inside
// their own region; the heads over each diagram never overlap one another; the first Run brings its diagram
// into view; axe finds nothing serious. Then the server-traced pair
// of recorded runs at 390×844, light and dark, as in their goldens.
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { describeFindings, seriousViolations } from './axe-audit.ts';
import { expectGoldenScreenshot, openFixtures, type GoldenTheme } from './golden-page.ts';

const ctx = useAppInBrowser();

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const;

/** Five modes (a compare wider than a phone), two repeats each, MONITOR on: the Redis note over each diagram is its longest. */
const FIVE_MODES = '#command=INCR&n=10&mode=custom&modes=sequential,pipeline,multi,eval,evalsha&repeats=2&monitor=1';

async function phonePage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  // bypassCSP: axe is injected as an inline script, which the app's CSP rightly refuses.
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: true, isMobile: true, bypassCSP: true });
  return context.newPage();
}

/** How far the page scrolls sideways: its scroll width less its viewport's width, px (0: not at all). */
function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement!.scrollWidth - document.documentElement.clientWidth);
}

/** The element's box lies wholly inside the viewport's width. */
async function expectInsideWidth(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, selector).not.toBeNull();
  expect(box!.x, `${selector} starts inside the page`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${selector} ends inside the page`).toBeLessThanOrEqual(width);
}

/**
 * The heads over every diagram on the page: per line (same y), each text's extent, measured in the SVG.
 * Returns the pairs that overlap and the texts that stick out of their SVG.
 */
function headCollisions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>('.diagram-svg')) {
      const width = svg.width.baseVal.value;
      const texts = [...svg.querySelectorAll<SVGTextElement>('.heads text')].filter((t) => t.getComputedTextLength() > 0);
      const boxes = texts.map((t) => ({ text: t.textContent ?? '', y: t.getAttribute('y'), box: t.getBBox() }));
      for (const a of boxes) {
        if (a.box.x < 0 || a.box.x + a.box.width > width + 0.5) problems.push(`"${a.text}" sticks out of its ${width} px diagram`);
        for (const b of boxes) {
          if (a === b || a.y !== b.y || a.box.x > b.box.x) continue;
          if (a.box.x + a.box.width > b.box.x) problems.push(`"${a.text}" runs into "${b.text}" (${width} px diagram)`);
        }
      }
    }
    return problems;
  });
}

describe.each(PHONES)('at $width×$height', (viewport) => {
  it("the first Run brings its first diagram into view, with no scroll of the user's", async () => {
    const page = await phonePage(ctx.browser, viewport);
    try {
      await page.goto(`${ctx.app.url}#command=INCR&n=10&mode=both&repeats=1`);
      await page.locator('.connection-pill.ok').waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.locator('[data-testid=run]:not([disabled])').click();
      await requestDone(page);
      const diagram = page.locator('[data-testid=run-panel] svg.diagram-svg').first();
      await diagram.waitFor();
      // Its top inside the viewport, with room to show some of it (the page scrolls smoothly: polled).
      await expect.poll(() => diagram.evaluate((svg) => {
        const top = svg.getBoundingClientRect().top;
        return top >= 0 && top <= window.innerHeight - 160;
      }), { timeout: 5_000 }).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('a live run of five modes: no sideways scroll, the pill and Run inside the page, the table scrolls in itself, heads apart', async () => {
    const page = await phonePage(ctx.browser, viewport);
    try {
      await page.goto(`${ctx.app.url}${FIVE_MODES}`);
      await page.locator('.connection-pill.ok').waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await expectInsideWidth(page, '.connection-pill');
      await expectInsideWidth(page, '[data-testid=run]');

      await page.locator('[data-testid=run]:not([disabled])').click();
      await requestDone(page);
      await runPanel(page, 'evalsha').waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectInsideWidth(page, '.connection-pill');
      await expectInsideWidth(page, '[data-testid=run]');

      // The compare table is wider than the phone: its own region scrolls, named and focusable, the page does not.
      const scroller = page.locator('[data-testid=compare-scroll]');
      expect(await page.locator('[data-testid=compare-row]').count()).toBe(5);
      await expect.poll(() => scroller.getAttribute('data-scrolls')).toBe('sideways');
      expect(await scroller.getAttribute('role')).toBe('region');
      expect(await scroller.getAttribute('tabindex')).toBe('0');
      const scrolled = await scroller.evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
        return { left: el.scrollLeft, wider: el.scrollWidth > el.clientWidth, overflow: getComputedStyle(el).overflowX, page: window.scrollX };
      });
      expect(scrolled).toMatchObject({ wider: true, overflow: 'auto', page: 0 });
      expect(scrolled.left).toBeGreaterThan(0);
      await expectInsideWidth(page, '[data-testid=compare-table]');

      // axe is as clean on a phone: the regions that scroll sideways take focus, the tabs' row too.
      const findings = await seriousViolations(page);
      expect(findings, describeFindings(findings)).toEqual([]);

      // Every diagram's heads fit beside one another (the client lane's note gives way to Redis's).
      expect(await headCollisions(page)).toEqual([]);
      expect(await page.locator('.diagram-svg').first().evaluate((svg: SVGSVGElement) => svg.width.baseVal.value)).toBeGreaterThanOrEqual(300);

      // The other views, and the tour, with this run's history behind them.
      for (const view of ['sweep', 'history', 'observe', 'gallery', 'run'] as const) {
        await page.click(`[data-testid=tab-${view}]`);
        await expect.poll(() => page.locator(`[data-testid=tab-${view}]`).getAttribute('aria-selected')).toBe('true');
        expect(await sidewaysScroll(page), `the ${view} view`).toBe(0);
      }
      await page.click('[data-testid=tab-history]');
      await page.locator('[data-testid=history-table]').waitFor();
      expect(await sidewaysScroll(page), 'the history with its runs').toBe(0);
      await page.click('[data-testid=tab-run]');
      await page.click('[data-testid=tour-toggle]');
      await page.locator('[data-testid=tour]').waitFor();
      expect(await sidewaysScroll(page), 'the tour').toBe(0);
      await page.click('[data-testid=tour-toggle]');
      await page.click('[data-testid=present-toggle]');
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('presenter'))).toBe(true);
      expect(await sidewaysScroll(page), 'presenter mode').toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('the share popover and a follower’s page with its banner stay within the phone', async () => {
    const page = await phonePage(ctx.browser, viewport);
    try {
      await page.goto(ctx.app.url);
      await page.locator('.connection-pill.ok').waitFor();
      await page.click('[data-testid=follow-share]');
      const link = page.locator('[data-testid=follow-link]');
      await link.waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await expectInsideWidth(page, '.follow-share-panel');
      const follower = await page.context().newPage();
      await follower.goto(await link.inputValue());
      await follower.locator('[data-testid=follow-banner][data-follow-status=following]').waitFor();
      expect(await sidewaysScroll(follower)).toBe(0);
      await expectInsideWidth(follower, '[data-testid=follow-banner]');
    } finally {
      await page.context().close();
    }
  });

  it('the recorded depth sweep: the chart and its table scroll inside the page, not the page', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, ['sweep-ping-1-64.json']);
    try {
      await page.setViewportSize(viewport);
      await page.locator('[data-testid=sweep-chart][data-state=done]').waitFor();
      await page.locator('[data-testid=sweep-table]').waitFor();
      expect(await sidewaysScroll(page)).toBe(0);
      await expectInsideWidth(page, '[data-testid=sweep-chart]');
      // The axis titles' details move under the chart, as text that wraps.
      expect(await page.locator('.sweep-axis-notes').isVisible()).toBe(true);
      expect(await page.locator('.sweep-axis-detail').first().isVisible()).toBe(false);
    } finally {
      await page.context().close();
    }
  });
});

describe('at 390×844, the server-traced pair of recorded runs', () => {
  for (const theme of ['light', 'dark'] as GoldenTheme[]) {
    it(`looks as in its ${theme} golden`, async () => {
      const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential-server-trace.json', 'incr-10-pipeline-server-trace.json'], { theme });
      try {
        await page.setViewportSize(PHONES[0]);
        await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=server-exec]').first().waitFor();
        expect(await sidewaysScroll(page)).toBe(0);
        expect(await headCollisions(page)).toEqual([]);
        // The playback bar is sticky: the results' top at the viewport's top leaves it in its place.
        await page.locator('.results').evaluate((results) => results.scrollIntoView({ block: 'start' }));
        await expectGoldenScreenshot(page.locator('.results'), `phone-${theme}-runs-server-traced-incr-10`);
      } finally {
        await page.context().close();
      }
    });
  }
});
