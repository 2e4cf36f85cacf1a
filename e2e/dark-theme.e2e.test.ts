// The dark theme, drawn from recorded runs (e2e/fixtures/) in headless Chromium whose system asks for
// dark (prefers-color-scheme): the app follows it, and the Runs view of a run traced with MONITOR and
// strace, the comparison of four modes and the depth sweep must look like their dark goldens. The
// toggle is checked too: Light wins over the system, goes into the URL and survives a reload.
import { expect, it } from 'vitest';
import { useAppInBrowser } from './app-in-browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();

it('draws the run traced with MONITOR and strace in the dark theme, as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential-server-trace.json', 'incr-10-pipeline-server-trace.json'], { theme: 'dark' });
  try {
    await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=server-exec]').first().waitFor();
    await expectGoldenScreenshot(page.locator('.results'), 'dark-runs-server-traced-incr-10');
  } finally {
    await page.context().close();
  }
});

it('draws the comparison of four modes in the dark theme, as in its golden', async () => {
  const files = ['pipeline', 'multi', 'eval', 'evalsha'].map((m) => `modes-incr-10/four-${m}-r0.json`);
  const page = await openFixtures(ctx.browser, ctx.app.url, files, { theme: 'dark' });
  try {
    await page.locator('[data-testid=run-panel][data-mode=evalsha]').waitFor();
    await expectGoldenScreenshot(page.locator('.results'), 'dark-runs-four-modes-incr-10');
  } finally {
    await page.context().close();
  }
});

it('draws the recorded depth sweep in the dark theme, as in its golden', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['sweep-ping-1-64.json'], { theme: 'dark' });
  try {
    await page.locator('[data-testid=sweep-chart][data-state=done]').waitFor();
    await expectGoldenScreenshot(page.locator('.sweep-results'), 'dark-sweep-ping-1-64');
  } finally {
    await page.context().close();
  }
});

it('follows the system until the user picks a theme, then keeps it in the URL and across a reload', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, [], { theme: 'dark' });
  try {
    const theme = () => page.evaluate(() => document.documentElement.dataset['theme']);
    expect(await theme()).toBe('dark');
    expect(await page.locator('[data-testid=theme-auto]').isChecked()).toBe(true);
    await page.locator('[data-testid=theme-toggle] label', { hasText: 'Light' }).click();
    expect(await theme()).toBe('light');
    expect(new URL(page.url()).hash).toMatch(/(^#|&)theme=light(&|$)/);
    // The page follows the variables: app.css's light --page.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(244, 246, 248)');
    await page.reload();
    expect(await theme()).toBe('light');
    // Auto again: the URL loses its key and the page follows the system's dark.
    await page.locator('[data-testid=theme-toggle] label', { hasText: 'Auto' }).click();
    expect(await theme()).toBe('dark');
    expect(new URL(page.url()).hash).not.toMatch(/theme=/);
  } finally {
    await page.context().close();
  }
});
