// Every mark of a diagram by keyboard, and the data-table view, in Chromium on a recorded server-traced
// pipeline (MONITOR and strace: commands, executions, syscalls, another client's command). Tab reaches
// the diagram; keys walk to each kind of mark, the live region holds its full label and a ring is drawn
// around it; the page's playback keys (←/→, Home/End, +/-) pass through undisturbed; ] [ 0 zoom. The
// Table tab lists the fixture's 10 commands with its numbers, and looks like its golden.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { FIXTURES, expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const FIXTURE = 'incr-10-pipeline-server-trace.json';
const ctx = useAppInBrowser();

interface FixtureCommand {
  sentUs: number;
  repliedUs: number;
  serverUs?: number;
  reply?: number;
}

describe('the diagram’s marks by keyboard, and the table view, on a recorded server-traced pipeline', () => {
  let page: Page;
  const fixture = JSON.parse(readFileSync(join(FIXTURES, FIXTURE), 'utf8')) as { commands: FixtureCommand[] };
  const panel = () => page.locator('[data-testid=run-panel][data-mode=pipeline]');
  const live = () => panel().locator('[data-testid=diagram-live]');
  const ring = () => panel().locator('[data-testid=focus-ring]');
  /** Presses a key on the focused element; returns whether the diagram took it (defaultPrevented, seen just above the diagram). */
  const press = async (key: string): Promise<boolean> => {
    await page.evaluate(() => ((window as unknown as { lastKeyPrevented: boolean | null }).lastKeyPrevented = null));
    await page.keyboard.press(key);
    await waitForIdleRender(page);
    return page.evaluate(() => (window as unknown as { lastKeyPrevented: boolean | null }).lastKeyPrevented!);
  };
  const expectRing = async (kind: string) => {
    await expect.poll(() => ring().getAttribute('data-kind')).toBe(kind);
    const box = await ring().boundingBox();
    expect(box?.width).toBeGreaterThan(4);
    expect(box?.height).toBeGreaterThan(4);
  };

  beforeAll(async () => {
    page = await openFixtures(ctx.browser, ctx.app.url, [FIXTURE]);
    await panel().locator('[data-testid=server-exec]').first().waitFor();
    await waitForIdleRender(page);
    // A bubbling listener on the diagram's host: it hears each key right after the diagram's own handler and
    // before the page's playback keys (a document listener, which takes ←/→ and the rest for itself).
    await page.evaluate(() =>
      document.querySelector('[data-testid=run-panel] .diagram-svg')!.parentElement!.addEventListener('keydown', (e) => ((window as unknown as { lastKeyPrevented: boolean }).lastKeyPrevented = e.defaultPrevented)),
    );
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('Tab reaches the diagram, whose label names its keys', async () => {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.classList.contains('diagram-svg') ?? false)) break;
    }
    const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(label).toMatch(/^Sequence diagram of the pipeline run, .*↑ and ↓ step through every mark in time order .*C, E, S, O jump/);
    expect(await ring().count()).toBe(0);
  });

  it('↓ walks in time order: the other client’s INFO, Redis’s epoll_wait(), then command 1 — its full label announced, its arrows ringed, the tooltip open', async () => {
    expect(await press('ArrowDown')).toBe(true);
    expect(await live().textContent()).toMatch(/^Other client’s command 1 of 1: info memory/);
    expect(await press('ArrowDown')).toBe(true);
    expect(await live().textContent()).toMatch(/^Syscall 1 of 3: Redis epoll_wait\(\) .* 1 event, Redis’s event loop waking up\.$/);
    await expectRing('syscall');
    expect(await press('ArrowDown')).toBe(true);
    expect(await live().textContent()).toMatch(
      /^Command 1 of 10, INCR, sent in write 1 at 4\.24 ms, reply read at 6\.78 ms \(read 1\), round trip 2\.55 ms; Redis executed it at 5\.48 ms ± 41 µs \(MONITOR\); reply 1\.$/,
    );
    expect(await live().getAttribute('aria-live')).toBe('polite');
    await expectRing('command');
    expect(await page.locator('[role=tooltip]').innerText()).toMatch(/command 1 of 10/);
  });

  it('S: the next syscall, Redis’s read() of the whole pipeline (strace)', async () => {
    expect(await press('s')).toBe(true);
    expect(await live().textContent()).toBe('Syscall 2 of 3: Redis read() on the run’s socket at 4.89 ms ± 41 µs (strace), 560 B, request bytes coming in.');
    await expectRing('syscall');
  });

  it('E: the next execution (MONITOR); Shift+O: the other client’s command before it; ↓ and ↑ step in time order', async () => {
    expect(await press('e')).toBe(true);
    expect(await live().textContent()).toMatch(/^Redis executed command 1 of 10, INCR, at 5\.48 ms ± 41 µs \(MONITOR\); the client sent it at 4\.24 ms \(write 1\)/);
    await expectRing('execution');
    expect(await press('ArrowDown')).toBe(true);
    expect(await live().textContent()).toMatch(/^Redis executed command 2 of 10/);
    expect(await press('Shift+O')).toBe(true);
    expect(await live().textContent()).toBe('Other client’s command 1 of 1: info memory, from 127.0.0.1:33582 at 3.47 ms ± 41 µs (MONITOR), on the same Redis during the run.');
    await expectRing('other');
  });

  it('leaves ←/→, Home/End and +/- to the page’s playback keys', async () => {
    const before = await live().textContent();
    for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End', '+', '-']) expect(await press(key), key).toBe(false);
    expect(await live().textContent()).toBe(before);
  });

  it('] zooms in, [ out, 0 resets (the time axis shows it); Esc leaves the marks', async () => {
    const ticks = () => panel().locator('.axis text').allTextContents();
    const unzoomed = await ticks();
    expect(await press(']')).toBe(true);
    await expect.poll(ticks).not.toEqual(unzoomed);
    expect(await press('[')).toBe(true);
    await expect.poll(ticks).toEqual(unzoomed);
    await press(']');
    await press(']');
    expect(await press('0')).toBe(true);
    await expect.poll(ticks).toEqual(unzoomed);
    expect(await press('Escape')).toBe(true);
    expect(await ring().count()).toBe(0);
    expect(await live().textContent()).toBe('');
  });

  it('the Table tab lists the 10 commands with the fixture’s numbers, and looks like its golden', async () => {
    await panel().locator('[data-testid=run-view-table]').click();
    const rows = panel().locator('[data-testid=run-table-row]');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await panel().locator('.diagram-host').isVisible()).toBe(false);
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset['column'], td.textContent]))));
    const numbers = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('th')!.textContent));
    expect(numbers).toEqual(fixture.commands.map((_, i) => String(i + 1)));
    expect(cells).toEqual(
      fixture.commands.map((c) => ({
        command: 'INCR',
        write: '1',
        sent: String(c.sentUs),
        read: '1',
        replied: String(c.repliedUs),
        latency: String(c.repliedUs - c.sentUs),
        executed: String(c.serverUs),
        reply: String(c.reply),
      })),
    );
    expect(await panel().locator('table caption').innerText()).toMatch(/^Commands of the pipeline run, .*µs since t0/);
    expect(await panel().locator('thead th').allTextContents()).toContain('Redis executed at (µs since t0, ± 41, MONITOR)');
    await page.mouse.move(0, 0);
    await expectGoldenScreenshot(panel().locator('[data-testid=run-table]'), 'run-table-incr-10-pipeline-server-trace');
    // Download CSV: every row, the same numbers.
    const [download] = await Promise.all([page.waitForEvent('download'), panel().locator('[data-testid=table-csv]').click()]);
    expect(download.suggestedFilename()).toMatch(/^pipescope-pipeline-incr-10-.*\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]).toBe('#,command,write #,sent at (µs since t0),read #,reply at (µs since t0),latency (µs),"Redis executed at (µs since t0, ± 41, MONITOR)",reply / outcome');
    const c = fixture.commands[9]!;
    expect(csv[10]).toBe(`10,INCR,1,${c.sentUs},1,${c.repliedUs},${c.repliedUs - c.sentUs},${c.serverUs},${c.reply}`);
    expect(csv).toHaveLength(12); // heads, 10 rows, and the empty string after the last CRLF
    // And back: the diagram, its marks still there.
    await panel().locator('[data-testid=run-view-diagram]').click();
    expect(await panel().locator('.diagram-host').isVisible()).toBe(true);
  });
});
