// Playback with the keyboard, as a presenter drives it: recorded runs (e2e/fixtures/, a 10 ms-RTT
// pipeline beside the same 20 PINGs in pipelines of 5) opened by ?trace= links, keys pressed with the page
// itself focused. Space plays and the playhead and the messages in flight move; → and PageDown land on
// the next event exactly; Home/End; +/− the speed; ? the help; reduced motion plays in steps without
// travelling dots. One golden: paused mid-run with messages in flight.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../trace/format/trace-io.ts';
import { mergedEventTimes } from '../web/src/model/playback-events.ts';
import { traceColumns } from '../web/src/model/trace-columns.ts';
import { useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, FIXTURES, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const FILES = ['ping-20-pipeline-rtt-10ms.json', 'ping-20-chunked-5-rtt-10ms.json'];
const columns = FILES.map((f) => traceColumns(parseTrace(readFileSync(join(FIXTURES, f), 'utf8'))));
/** Where → can land, µs since t0: every write and read of both runs. */
const STOPS = [...mergedEventTimes(columns)];
/** The shared time axis's end. */
const END_US = Math.max(...columns.map((c) => c.endUs));

const bar = (page: Page) => page.locator('[data-testid=playback-bar]');

async function position(page: Page): Promise<number | null> {
  const text = await bar(page).getAttribute('data-position-us');
  return text === '' || text === null ? null : Number(text);
}

/** Presses a key with nothing focused (the page's body gets it), as a clicker or a presenter would. */
async function press(page: Page, key: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.keyboard.press(key);
}

/** Every travelling dot's place, "x,y". */
function dots(page: Page): Promise<string[]> {
  return page.locator('[data-testid=travelling-dot]').evaluateAll((els) => els.map((e) => `${e.getAttribute('cx')},${e.getAttribute('cy')}`));
}

async function openRuns(reducedMotion: 'reduce' | 'no-preference'): Promise<Page> {
  const page = await openFixtures(ctx.browser, ctx.app.url, FILES, { reducedMotion });
  await page.locator('[data-testid=run-panel][data-render=svg]').nth(1).waitFor();
  await waitForIdleRender(page);
  return page;
}

describe('keyboard playback', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openRuns('no-preference');
  });
  afterAll(() => page.context().close());

  it('starts with everything drawn, no playhead, and a speed that makes the runs last a few seconds', async () => {
    await expect.poll(() => position(page)).toBeNull();
    expect(await page.locator('[data-testid=playhead]').count()).toBe(0);
    // 60.8 ms at 1/50 lasts 3 s.
    expect(await page.locator('[data-testid=playback-speed] option:checked').innerText()).toBe('1/50×');
    expect(await page.locator('[data-testid=playback-milestone]').count()).toBeGreaterThanOrEqual(5);
  });

  it('Space plays: the playhead moves down and the messages in flight move along their arrows; Space pauses', async () => {
    await press(page, '-');
    await press(page, '-');
    await press(page, '-');
    await press(page, '-'); // 1/1000: the 61 ms take a minute
    await expect.poll(() => page.locator('[data-testid=playback-speed] option:checked').innerText()).toBe('1/1000×');
    await press(page, 'Home');
    await press(page, ' ');
    await expect.poll(() => bar(page).getAttribute('data-playing')).toBe('true');
    // Past the first write of both runs, messages are under way.
    await expect.poll(() => position(page), { timeout: 30_000 }).toBeGreaterThan(STOPS[1]!);
    await expect.poll(async () => (await dots(page)).length).toBeGreaterThan(0);
    const playhead = page.locator('[data-testid=playhead]').first();
    const y1 = Number(await playhead.getAttribute('y1'));
    const before = await dots(page);
    await expect.poll(async () => Number(await playhead.getAttribute('y1'))).toBeGreaterThan(y1);
    await expect.poll(async () => (await dots(page)).join(' ')).not.toBe(before.join(' '));
    await press(page, ' ');
    await expect.poll(() => bar(page).getAttribute('data-playing')).toBe('false');
    const paused = await position(page);
    await waitForIdleRender(page); // paused: nothing more to draw
    expect(await position(page)).toBe(paused);
  });

  it('→ and PageDown land exactly on the next event, ← and PageUp on the previous one', async () => {
    await press(page, 'Home');
    await expect.poll(() => position(page)).toBe(0);
    await press(page, 'ArrowRight');
    await expect.poll(() => position(page)).toBe(STOPS[0]);
    await press(page, 'ArrowRight');
    await expect.poll(() => position(page)).toBe(STOPS[1]);
    await press(page, 'PageDown');
    await expect.poll(() => position(page)).toBe(STOPS[2]);
    await press(page, 'ArrowLeft');
    await expect.poll(() => position(page)).toBe(STOPS[1]);
    await press(page, 'PageUp');
    await expect.poll(() => position(page)).toBe(STOPS[0]);
    // The playhead is drawn at that time on both diagrams (the shared axis: the same y).
    await waitForIdleRender(page);
    const at = await page.locator('[data-testid=playhead]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-position-us'), e.getAttribute('y1')]));
    expect(at).toHaveLength(2);
    expect(at[0]).toEqual(at[1]);
    expect(Number(at[0]![0])).toBe(STOPS[0]);
  });

  it('`.` and `,` move one frame (1/200 of the timeline); Home goes to 0 and End to the end', async () => {
    await press(page, 'Home');
    await press(page, '.');
    await expect.poll(() => position(page)).toBeCloseTo(END_US / 200, 6);
    await press(page, ',');
    await expect.poll(() => position(page)).toBeCloseTo(0, 6);
    await press(page, 'End');
    await expect.poll(() => position(page)).toBe(END_US);
    await expect.poll(() => bar(page).locator('[data-testid=playback-position]').innerText()).toBe('60.8 ms of 60.8 ms');
    // At the end every arrow is drawn again, and no message is under way.
    await waitForIdleRender(page);
    expect(await page.locator('[data-testid=request-arrow]').count()).toBe(40);
    expect(await page.locator('[data-testid=reply-arrow]').count()).toBe(40);
    expect(await page.locator('[data-testid=travelling-dot]').count()).toBe(0);
  });

  it('+ and − change the speed', async () => {
    const label = () => page.locator('[data-testid=playback-speed] option:checked').innerText();
    await page.selectOption('[data-testid=playback-speed]', '0.01');
    await press(page, '+');
    await expect.poll(label).toBe('1/50×');
    await press(page, '=');
    await expect.poll(label).toBe('1/20×');
    await press(page, '-');
    await press(page, '-');
    await expect.poll(label).toBe('1/100×');
  });

  it('? opens the keyboard help as a modal dialog; Esc closes it and gives focus back', async () => {
    await press(page, '?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.closest('[role=dialog]') !== null)).toBe(true);
    const text = await dialog.innerText();
    for (const key of ['Space', 'PageDown', 'Home', 'End', '↑', '[', ']', '0', 'Esc']) expect(text).toContain(key);
    // Keys inside the dialog do not drive playback.
    const before = await position(page);
    await page.keyboard.press('ArrowRight');
    await waitForIdleRender(page);
    expect(await position(page)).toBe(before);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('Show all leaves playback and draws everything', async () => {
    await press(page, 'Home');
    await press(page, 'ArrowRight');
    await page.click('[data-testid=playback-show-all]');
    await expect.poll(() => position(page)).toBeNull();
    await waitForIdleRender(page);
    expect(await page.locator('[data-testid=playhead]').count()).toBe(0);
    expect(await page.locator('[data-testid=request-arrow]').count()).toBe(40);
  });

  it('paused mid-run, messages in flight along their arrows, as in its golden', async () => {
    await page.selectOption('[data-testid=playback-speed]', '0.02');
    await press(page, 'Home');
    await press(page, 'ArrowRight');
    await press(page, 'ArrowRight'); // the pipeline's one write
    for (let i = 0; i < 10; i++) await press(page, '.');
    await expect.poll(() => position(page)).toBeCloseTo(STOPS[1]! + (10 * END_US) / 200, 6);
    await page.mouse.move(0, 0);
    await waitForIdleRender(page);
    const kinds = await page.locator('[data-testid=travelling-dot]').evaluateAll((els) => els.map((e) => e.getAttribute('class')));
    expect(kinds).toContain('travelling-dot request');
    expect(kinds).toContain('travelling-dot reply');
    await expectGoldenScreenshot(page.locator('.results'), 'playback-paused-ping-20');
  });
});

it('with reduced motion, playing steps from event to event and no message travels', async () => {
  const page = await openRuns('reduce');
  try {
    await press(page, 'Home');
    await press(page, ' ');
    const seen = new Set<number>();
    // Sample until the playhead has made three steps: every place it stops is an event, and no dot is drawn.
    await expect
      .poll(
        async () => {
          const at = await position(page);
          if (at !== null && at > 0) seen.add(at);
          expect(await page.locator('[data-testid=travelling-dot]').count()).toBe(0);
          return [...seen].filter((t) => !STOPS.includes(t)).length === 0 ? seen.size : -1;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(3);
    await press(page, ' ');
  } finally {
    await page.context().close();
  }
});
