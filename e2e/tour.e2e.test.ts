// The guided tour and presenter mode, from Redis to pixels: the built app (private redis-server) in
// headless Chromium. A presenter opens the tour and drives it with a clicker's two keys: PageDown runs
// step 1 live (a real run; the verdict's numbers are those of the panels it drew), PageDown again goes
// to step 2, PageUp back. With the backend out of reach (the WebSocket refused by a Playwright route) a
// step shows its recording from public/tour/ and says so. Presenter mode at 1280×720 and 1920×1080, a
// recorded step on screen, must look like its goldens.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runPanel, useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();

/** Waits until the tour shows step `step` in state `state` (idle, running, done, failed). */
async function tourAt(page: Page, step: number, state?: string, timeout = 30_000): Promise<void> {
  const selector = `[data-testid=tour][data-step="${step}"]${state ? `[data-step-state=${state}]` : ''}`;
  await page.locator(selector).waitFor({ timeout });
}

describe('the tour, live', () => {
  it('opens from the header at step 1, in the URL as tour=1', async () => {
    const { page } = ctx;
    await page.locator('.connection-pill.ok').waitFor();
    await page.click('[data-testid=tour-toggle]');
    await tourAt(page, 1, 'idle');
    expect(new URL(page.url()).hash).toContain('tour=1');
    expect(await page.locator('[data-testid=tour-title]').textContent()).toBe('Ping-pong or pipelined');
  });

  it('PageDown runs step 1 live, until certain; its verdict is the pipeline faster, with the interval of the rounds drawn', async () => {
    const { page } = ctx;
    await page.keyboard.press('PageDown');
    await tourAt(page, 1, 'done', 60_000);
    await waitForIdleRender(page);
    const rounds = await runPanel(page, 'sequential').getAttribute('data-repeats');
    expect(['10', '15', '20', '30', '40']).toContain(rounds);
    expect(await page.locator('[data-testid=tour-headline]').textContent()).toMatch(/^Measured: 10 round trips vs 1; the pipeline [\d.]+× faster \[95 % [\d.]+–[\d.]+×\]$/);
    // The pairs counted are the rounds drawn: the panels' repeat pickers hold them.
    expect(await page.locator('[data-testid=tour-verdict] li').last().textContent()).toMatch(
      new RegExp(`^Time \\(client socket, t0 → last reply\\): the pipeline .+, faster in \\d+ of ${rounds} pairs \\(until certain: certain at the ${rounds}-pair check\\)\\.$`),
    );
    expect(await page.locator('[data-testid=tour-provenance]').textContent()).toMatch(/^Live run, Redis 7\./);
    // The runs drawn are this step's: 10 INCRs each way.
    expect(await runPanel(page, 'sequential').getAttribute('data-n')).toBe('10');
  });

  it('PageDown then goes to step 2, and PageUp back to step 1 with its result kept', async () => {
    const { page } = ctx;
    await page.keyboard.press('PageDown');
    await tourAt(page, 2, 'idle');
    expect(new URL(page.url()).hash).toContain('tour=2');
    await page.keyboard.press('PageUp');
    await tourAt(page, 1, 'done');
    expect(new URL(page.url()).hash).toContain('tour=1');
  });

  it('leaves ← and → to the rest of the page', async () => {
    const { page } = ctx;
    const prevented = await page.evaluate(() => {
      const results: boolean[] = [];
      // Heard at the body, after the tour's window capture listener and before the page's playback keys
      // (a document listener that takes ←/→ for itself).
      let prevented = false;
      const record = (e: KeyboardEvent) => (prevented = e.defaultPrevented);
      document.body.addEventListener('keydown', record);
      for (const key of ['ArrowRight', 'ArrowLeft', 'PageDown']) {
        const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
        // A PageDown dispatched here is taken by the tour; answer it by stepping back again below.
        prevented = false;
        document.body.dispatchEvent(e);
        // PageDown never reaches the body (the tour stops it in the capture phase): its own flag tells.
        results.push(key === 'PageDown' ? e.defaultPrevented : prevented);
      }
      document.body.removeEventListener('keydown', record);
      return results;
    });
    expect(prevented).toEqual([false, false, true]);
    await tourAt(page, 2);
    await page.keyboard.press('PageUp');
    await tourAt(page, 1, 'done');
  });
});

/** A page of its own whose WebSocket to the backend is refused: as if no backend were reachable. */
async function offlinePage(hash: string, viewport = { width: 1280, height: 720 }): Promise<Page> {
  // openFixtures gives the golden set-up (pinned fonts, no transitions; pill and banner hidden).
  const page = await openFixtures(ctx.browser, ctx.app.url, []);
  await page.context().routeWebSocket(/\/live/, (ws) => ws.close());
  await page.setViewportSize(viewport);
  await page.goto(new URL(`/?offline${hash}`, ctx.app.url).href);
  await page.locator('.connection-pill.bad, .connection-pill.pending').first().waitFor({ state: 'attached' });
  return page;
}

describe('the tour with no backend reachable', () => {
  it('a step shows its recording and says when, where and why', async () => {
    const page = await offlinePage('#tour=1');
    try {
      await tourAt(page, 1, 'idle');
      expect(await page.locator('[data-testid=tour-run]').textContent()).toBe('Show the recording');
      await page.keyboard.press('PageDown');
      await tourAt(page, 1, 'done');
      expect(await page.locator('[data-testid=tour-provenance]').textContent()).toMatch(/^Recorded on \d{4}-\d\d-\d\d, Redis 7\.0\.15, .+ — no backend reachable$/);
      expect(await page.locator('[data-testid=tour-headline]').textContent()).toMatch(/^Measured: 10 round trips vs 1; /);
      await runPanel(page, 'pipeline').waitFor();
    } finally {
      await page.context().close();
    }
  });
});

describe('presenter mode', () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    it(`at ${viewport.width}×${viewport.height}, with step 1's recording, fits one screen as in its golden`, async () => {
      const page = await offlinePage('#present=1&tour=1', viewport);
      try {
        expect(await page.evaluate(() => document.documentElement.classList.contains('presenter'))).toBe(true);
        // The run form is folded away behind Settings.
        expect(await page.locator('#run-settings').isHidden()).toBe(true);
        await page.keyboard.press('PageDown');
        await tourAt(page, 1, 'done');
        await runPanel(page, 'pipeline').locator('svg').first().waitFor();
        // No scrolling: the page is exactly one screen high.
        expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(viewport.height);
        // Esc does not leave presenter mode; the toggle does.
        await page.keyboard.press('Escape');
        expect(await page.evaluate(() => document.documentElement.classList.contains('presenter'))).toBe(true);
        await expectGoldenScreenshot(page.locator('.app'), `presenter-tour-${viewport.width}x${viewport.height}`);
        await page.click('[data-testid=present-toggle]');
        expect(await page.evaluate(() => document.documentElement.classList.contains('presenter'))).toBe(false);
        expect(new URL(page.url()).hash).not.toContain('present=');
      } finally {
        await page.context().close();
      }
    });
  }
});
