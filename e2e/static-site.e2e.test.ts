// The static site (npm run build:static → dist/static) as a docs author deploys it: on a plain static
// host under a sub-path (/pipescope/, nothing at /), with no Pipescope backend anywhere. The landing lists
// the recorded runs of traces/index.json; one opens and draws, Space plays it back; the page logs no error
// or warning, asks for nothing outside its folder, opens no WebSocket and sets no cookie. axe-core finds
// nothing serious on the landing in either theme. One golden: the landing page. dist/static is (re)built
// first when stale (scripts/ensure-ready.mjs --build-static).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './app-process.ts';
import { launchBrowser, VIEWPORT, waitForIdleRender } from './browser.ts';
import { describeFindings, seriousViolations } from './axe-audit.ts';
import { expectGoldenScreenshot, openFixturesAt, type GoldenTheme } from './golden-page.ts';
import { startStaticHost, type StaticHost } from './static-host.ts';

const SITE = join(ROOT, 'dist', 'static');

interface IndexEntry {
  file: string;
  title: string;
  group: string;
}

let host: StaticHost;
let browser: Browser;
let index: IndexEntry[];

beforeAll(async () => {
  const built = spawnSync('node', ['scripts/ensure-ready.mjs', '--quiet', '--build-static'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the static site (npm run build:static) failed');
  index = (JSON.parse(readFileSync(join(SITE, 'traces', 'index.json'), 'utf8')) as { traces: IndexEntry[] }).traces;
  [host, browser] = await Promise.all([startStaticHost(SITE), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** A page with everything it does recorded: console errors and warnings, requests, WebSockets, responses. */
interface WatchedPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
  requests: string[];
  sockets: string[];
  responses: { url: string; status: number }[];
}

async function watchedPage(): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const watched: WatchedPage = { context, page, problems: [], requests: [], sockets: [], responses: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') watched.problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => watched.problems.push(`page error: ${error.message}`));
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('websocket', (socket) => watched.sockets.push(socket.url()));
  page.on('response', (response) => watched.responses.push({ url: response.url(), status: response.status() }));
  return watched;
}

describe('the static site under a sub-path, no backend', () => {
  it('lists the recorded runs, draws one, plays it with Space, and stays within its folder', async () => {
    const w = await watchedPage();
    const { page } = w;
    try {
      await page.goto(host.url);
      const runs = page.locator('[data-testid=recorded-run]');
      await expect.poll(() => runs.count()).toBe(index.length);
      expect(await page.locator('[data-testid=recorded-runs-group] h3').allInnerTexts()).toEqual([...new Set(index.map((e) => e.group))]);
      const pipeline = page.locator('[data-testid=recorded-run][data-file="incr-10-pipeline.json.gz"]');
      expect(await pipeline.innerText()).toMatch(/Redis 7\.\d+\.\d+ · ioredis \d+\.\d+\.\d+ on node v\d+[\d.]* · .+ · recorded \d{4}-\d\d-\d\d \d\d:\d\d UTC · no added delay \(delay proxy off\)/);
      expect(await page.locator('[data-testid=recorded-run][data-file="incr-10-pipeline-rtt-20ms.json.gz"]').innerText()).toContain('20 ms added RTT (Pipescope’s delay proxy)');
      // Nothing that needs a backend is on the page.
      for (const gone of ['.connection-pill', '[data-testid=banner]', '[data-testid=mode-picker]', '[data-testid=follow-share]']) expect(await page.locator(gone).count()).toBe(0);

      await pipeline.locator('a').click();
      await page.waitForURL(`${host.url}?trace=traces/incr-10-pipeline.json.gz`);
      const panel = page.locator('[data-testid=run-panel][data-mode=pipeline]');
      await panel.locator('[data-testid=request-arrow]').first().waitFor();
      await waitForIdleRender(page);
      expect(await panel.locator('[data-testid=request-arrow]').count()).toBe(10);
      expect(await panel.locator('[data-testid=reply-arrow]').count()).toBe(10);
      // A page opened with ?trace= shows its runs, not the list (it never asked for the index).
      expect(await page.locator('[data-testid=recorded-runs]').count()).toBe(0);
      expect(w.requests.filter((url) => url.endsWith('/traces/index.json')), w.requests.join('\n')).toHaveLength(1);

      // Space plays: the playhead appears and moves on.
      const bar = page.locator('[data-testid=playback-bar]');
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Space');
      await expect.poll(() => bar.getAttribute('data-playing')).toBe('true');
      await expect.poll(async () => Number(await bar.getAttribute('data-position-us')), { timeout: 30_000 }).toBeGreaterThan(0);
      await page.locator('[data-testid=playhead]').first().waitFor({ state: 'attached' }); // a horizontal line: no height to be "visible"

      // Back to the list, then a pair compared side by side.
      await page.locator('[data-testid=recorded-runs-link]').click();
      await page.waitForURL(host.url);
      await page.locator('[data-testid=recorded-runs-group]', { hasText: '20 ms' }).locator('[data-testid=recorded-runs-compare]').click();
      await page.locator('[data-testid=run-panel][data-mode=sequential] [data-testid=request-arrow]').first().waitFor();
      expect(await page.locator('[data-testid=run-panel]').count()).toBe(2);
      await waitForIdleRender(page);

      expect(w.problems).toEqual([]);
      expect(w.sockets).toEqual([]);
      expect(await w.context.cookies()).toEqual([]);
      // The trace decoder's worker is a script of this site too (no blob:, no request leaves the page).
      const outside = w.requests.filter((url) => !url.startsWith(host.url));
      expect(outside).toEqual([]);
      expect(w.responses.filter((r) => r.status !== 200)).toEqual([]);
      expect(host.paths.filter((path) => !path.startsWith('/pipescope/'))).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('runs the guided tour from its recordings', async () => {
    const w = await watchedPage();
    try {
      await w.page.goto(`${host.url}#tour=1`);
      await w.page.locator('[data-testid=tour-run]').click();
      await expect.poll(() => w.page.locator('[data-testid=tour-provenance]').textContent()).toMatch(/^Recorded on \d{4}-\d\d-\d\d, Redis 7\./);
      await w.page.locator('[data-testid=run-panel][data-mode=pipeline]').waitFor();
      expect(w.problems).toEqual([]);
      expect(w.sockets).toEqual([]);
      expect(w.requests.filter((url) => !url.startsWith(host.url))).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('says so when traces/index.json cannot be read, and still opens files', async () => {
    const w = await watchedPage();
    try {
      await w.context.route((url) => url.pathname.endsWith('/traces/index.json'), (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"format":"pipescope-trace-index","version":2}' }));
      await w.page.goto(host.url);
      await expect.poll(() => w.page.locator('[data-testid=recorded-runs-error]').textContent()).toMatch(
        /^The list of recorded runs \(traces\/index\.json\) could not be read: version: .+\. Traces can still be opened/,
      );
      expect(await w.page.locator('[data-testid=import]').count()).toBe(1);
    } finally {
      await w.context.close();
    }
  });

  it('a link naming runs a live Pipescope keeps: says it cannot show them here, asks nothing for them, and lists the recordings', async () => {
    const w = await watchedPage();
    try {
      await w.page.goto(`${host.url}#command=INCR&n=10&stored=${'K'.repeat(22)}`);
      await expect.poll(() => w.page.locator('p.message[role=status]').textContent()).toMatch(/^This link names runs kept by a running Pipescope, which this static site cannot reach: it has no backend and keeps no runs\./);
      await w.page.locator('[data-testid=recorded-runs]').first().waitFor();
      expect(w.requests.filter((url) => url.includes('stored-runs'))).toEqual([]);
      expect(w.sockets).toEqual([]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('serves the embed page and the player script beside the app', async () => {
    for (const path of ['embed/', 'pipescope-player.js', 'traces/index.json', 'tour/index.json']) {
      const response = await fetch(new URL(path, host.url));
      expect(response.status, path).toBe(200);
    }
    expect((await fetch(new URL('/', host.url))).status).toBe(404);
  });

  it.each<GoldenTheme>(['light', 'dark'])('the landing page, %s theme: no serious or critical axe-core violation', async (theme) => {
    const page = await openFixturesAt(browser, host.url, [], { theme });
    try {
      await page.locator('[data-testid=recorded-run]').first().waitFor();
      const findings = await seriousViolations(page);
      expect(findings, describeFindings(findings)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('looks as it should: the landing page (golden)', async () => {
    const page = await openFixturesAt(browser, host.url, []);
    try {
      await page.locator('[data-testid=recorded-run]').first().waitFor();
      await expectGoldenScreenshot(page.locator('.app'), 'static-landing');
    } finally {
      await page.context().close();
    }
  });
});
