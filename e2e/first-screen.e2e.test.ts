// The first screen at a projector's 1280×720 and a laptop's 1440×900, in Chromium against the built app:
// after Run the first diagram starts inside the viewport (presenter mode too, its bar of everyday choices
// left in view); "More options" stays open or closed across a reload through the link (options=1); and a
// page opened with nothing to show gets the default run's recording, labelled as recorded — replaced by
// the run itself on the private Redis, kept (with a prompt, never a run) on a user's own Redis.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestDone, runPanel } from './app-in-browser.ts';
import { ROOT, startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, quietFirstVisit } from './browser.ts';

/** The run ids of the default run's recording (public/tour/ping-pong-*.json), which a measured page must not show. */
const RECORDED_IDS = readdirSync(join(ROOT, 'public', 'tour'))
  .filter((name) => name.startsWith('ping-pong-'))
  .map((name) => (JSON.parse(readFileSync(join(ROOT, 'public', 'tour', name), 'utf8')) as { run: { id: string } }).run.id);

const SIZES = [{ width: 1440, height: 900 }, { width: 1280, height: 720 }] as const;

let app: AppProcess;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startAppProcess(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A page in a context of its own; `quiet`: the plain empty first screen, as the other tests get it. */
async function openPage(url: string, viewport: { width: number; height: number }, quiet: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
  if (quiet) await quietFirstVisit(context);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/** Where the first run panel's diagram starts and how high the viewport is, CSS px. */
async function firstDiagramTop(page: Page): Promise<{ top: number; height: number }> {
  const diagram = page.locator('[data-testid=run-panel] svg.diagram-svg').first();
  await diagram.waitFor();
  return diagram.evaluate((svg) => ({ top: svg.getBoundingClientRect().top, height: window.innerHeight }));
}

/** The default form (10 INCRs, sequential vs one pipeline), five rounds: quick, and enough for a verdict line. */
const FORM = '#command=INCR&n=10&valueBytes=16&mode=both&scale=shared&repeats=5';

describe('after Run, the first diagram starts on the first screen', () => {
  for (const viewport of SIZES) {
    it(`at ${viewport.width}×${viewport.height}, and in presenter mode`, async () => {
      const page = await openPage(`${app.url}${FORM}`, viewport, true);
      try {
        await page.locator('[data-testid=empty-title]').waitFor();
        await page.locator('[data-testid=run]:not([disabled])').click();
        await requestDone(page);
        await runPanel(page, 'pipeline').waitFor();
        const { top, height } = await firstDiagramTop(page);
        expect(await page.evaluate(() => window.scrollY)).toBe(0);
        expect(top).toBeGreaterThan(0);
        expect(top).toBeLessThan(height - 40); // some of the plot shows, not only its top edge
        // No sideways scroll at either size.
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        // Presenter mode: the bar of everyday choices and Run stay; the diagrams start higher still.
        await page.click('[data-testid=present-toggle]');
        expect(await page.locator('[data-testid=run]').isVisible()).toBe(true);
        expect(await page.locator('[data-testid=more-options-panel]').isVisible()).toBe(false);
        const presented = await firstDiagramTop(page);
        expect(presented.top).toBeGreaterThan(0);
        expect(presented.top).toBeLessThan(presented.height * 0.7);
        // Run from the presenter's bar, and the diagrams are still where they were.
        await page.locator('[data-testid=run]:not([disabled])').click();
        await requestDone(page);
        expect((await firstDiagramTop(page)).top).toBeLessThan(presented.height * 0.7);
      } finally {
        await page.context().close();
      }
    });
  }
});

describe('"More options"', () => {
  it('folds the rarer fields, and its state travels in the link across a reload', async () => {
    const page = await openPage(`${app.url}${FORM}`, SIZES[1], true);
    try {
      const toggle = page.locator('[data-testid=more-options]');
      const panel = page.locator('[data-testid=more-options-panel]');
      await toggle.waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await panel.isVisible()).toBe(false);
      expect(new URL(page.url()).hash).not.toContain('options=');
      // The everyday choices are in view; the rarer ones are not.
      for (const id of ['command', 'n', 'mode', 'rtt-ms', 'preset', 'run']) expect(await page.locator(`[data-testid=${id}]`).isVisible()).toBe(true);
      for (const id of ['repeats', 'jitter-ms', 'engine', 'monitor']) expect(await page.locator(`[data-testid=${id}]`).isVisible()).toBe(false);

      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => new URL(page.url()).hash).toContain('options=1');
      await page.reload();
      await page.locator('[data-testid=repeats]').waitFor();
      expect(await page.locator('[data-testid=more-options]').getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator('[data-testid=repeats]').isVisible()).toBe(true);

      await page.click('[data-testid=more-options]');
      await expect.poll(() => new URL(page.url()).hash).not.toContain('options=');
      await page.reload();
      await page.locator('[data-testid=more-options]').waitFor();
      expect(await page.locator('[data-testid=more-options]').getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator('[data-testid=repeats]').isVisible()).toBe(false);
    } finally {
      await page.context().close();
    }
  });

  it('a newcomer is offered the tour beside Run', async () => {
    const page = await openPage(`${app.url}${FORM}`, SIZES[1], true);
    try {
      expect(await page.locator('[data-testid=run-prompt]').innerText()).toMatch(/Sequential: one command, its reply awaited, then the next[\s\S]*New here\?\s+Take the tour/);
      await page.click('[data-testid=start-tour]');
      expect(await page.locator('[data-testid=tour]').getAttribute('data-step')).toBe('1');
      expect(new URL(page.url()).hash).toContain('tour=1');
    } finally {
      await page.context().close();
    }
  });
});

describe('a first visit', () => {
  it('on the private Redis: the recording, labelled, then the default run measured here replaces it', async () => {
    const page = await openPage(app.url, SIZES[0], false);
    try {
      // The run starts by itself; when it is done, the page holds measured runs only.
      expect(RECORDED_IDS.length).toBe(20);
      await expect.poll(() => page.locator('[data-testid=recorded-note]').count(), { timeout: 20_000 }).toBe(0);
      await runPanel(page, 'pipeline').waitFor();
      await requestDone(page);
      expect(await page.locator('.legend .source-tag').count()).toBe(0);
      const ids = await page.locator('[data-testid=run-panel] .run-id').allInnerTexts();
      expect(ids).toHaveLength(2);
      for (const text of ids) expect(RECORDED_IDS.some((id) => text.includes(id))).toBe(false);
      const { top, height } = await firstDiagramTop(page);
      expect(top).toBeLessThan(height - 40);
      // It ran once: the page is idle, the Run button back.
      await page.waitForTimeout(1000);
      expect(await page.locator('[data-testid=progress]').count()).toBe(0);
      expect(await page.locator('[data-testid=run]').isEnabled()).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('on a Redis of the user\'s own: the recording stays, labelled, with a prompt, and nothing runs by itself', async () => {
    const redisAddress = /private redis-server \S+ on (\S+) /.exec(app.output())?.[1];
    expect(redisAddress).toBeTruthy();
    // The same Redis, named by URL: to this second app it is the user's own.
    const own = await startAppProcess(['--redis-url', `redis://${redisAddress}`]);
    const page = await openPage(own.url, SIZES[1], false);
    try {
      const note = page.locator('[data-testid=recorded-note]');
      await note.waitFor();
      await expect.poll(() => note.innerText()).toMatch(
        new RegExp(`^Recorded \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC · Redis 7\\.0\\.15 · ioredis [\\d.]+ · .+ — press Run to measure it on your Redis \\(${redisAddress!.replace(/\./g, '\\.')}\\)\\.$`),
      );
      expect(await note.getAttribute('title')).toBe('Pipescope never runs by itself on a Redis of your own.');
      // At 1280×720 the label keeps to one line, the toolbar to one row, and the recording's first diagram starts on the first screen.
      expect(await note.evaluate((p) => p.getBoundingClientRect().height)).toBeLessThan(45);
      expect(await page.locator('.results > .toolbar').evaluate((t) => t.getBoundingClientRect().height)).toBeLessThan(50);
      {
        const { top, height } = await firstDiagramTop(page);
        expect(top).toBeGreaterThan(0);
        expect(top).toBeLessThan(height - 40);
      }
      expect(await page.locator('.legend .source-tag').innerText()).toBe('recorded');
      await runPanel(page, 'sequential').waitFor();
      expect(await runPanel(page, 'sequential').count()).toBe(1);
      // Nothing runs by itself.
      await page.waitForTimeout(2000);
      expect(await page.locator('[data-testid=progress]').count()).toBe(0);
      expect(await note.count()).toBe(1);
      // Run measures it, and the label goes.
      await page.locator('[data-testid=run]:not([disabled])').click();
      await requestDone(page);
      await note.waitFor({ state: 'detached' });
      expect(await page.locator('.legend .source-tag').count()).toBe(0);
    } finally {
      await page.context().close();
      await own.stop();
    }
  });
});
