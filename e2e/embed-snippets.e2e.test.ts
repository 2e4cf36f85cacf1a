// Embedding end to end, as a docs author does it: open a recorded run on the static site (built by
// npm run build:static, served by a plain static host under /pipescope/, no backend anywhere), press
// Embed, and paste the two snippets into pages of one's own — the iframe snippet into a page on another
// origin, the custom-element snippet into a page beside the site (same origin: the element fetches the
// trace, and a plain static host sends no CORS headers). Both replay the recorded run: every arrow drawn,
// the iframe sized by the snippet's own script from the embed's height messages, playback moving.
// Nothing is asked of any other origin, no WebSocket opens, no console error or warning.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from './app-process.ts';
import { launchBrowser, VIEWPORT } from './browser.ts';
import { startStaticHost, type StaticHost } from './static-host.ts';

const SITE = join(ROOT, 'dist', 'static');
const TRACE = 'traces/incr-10-pipeline.json.gz';
const ARROWS = 10;

let site: StaticHost;
let otherSite: StaticHost;
let browser: Browser;
/** What the author pasted, by snippet; the pages below serve it once it is known. */
const pasted = { iframe: '', element: '' };
const docsPage = (snippet: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Our docs</title></head><body>\n<h1>Pipelining</h1>\n<p>Here is a recorded run:</p>\n${snippet}\n<p>The end.</p>\n</body></html>`;

beforeAll(async () => {
  const built = spawnSync('node', ['scripts/ensure-ready.mjs', '--quiet', '--build-static'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the static site (npm run build:static) failed');
  [site, otherSite, browser] = await Promise.all([
    startStaticHost(SITE, '/pipescope/', { '/docs/element.html': () => docsPage(pasted.element) }),
    startStaticHost(SITE, '/unused/', { '/docs/iframe.html': () => docsPage(pasted.iframe) }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.stop(), otherSite?.stop()]);
});

it('the Embed snippets of a recorded run, pasted into plain pages, replay it with no backend', async () => {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
  const problems: string[] = [];
  const requests: string[] = [];
  const sockets: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${page.url()}: ${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`${page.url()}: page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('websocket', (w) => sockets.push(w.url()));
  };
  try {
    const app = await context.newPage();
    watch(app);
    await app.goto(`${site.url}?trace=${TRACE}`);
    await expect.poll(() => app.locator('[data-testid=request-arrow]').count(), { timeout: 30_000 }).toBe(ARROWS);
    await app.locator('[data-testid=embed-code]').click();
    pasted.iframe = await app.locator('[data-testid=embed-code-iframe]').inputValue();
    pasted.element = await app.locator('[data-testid=embed-code-element]').inputValue();
    const traceUrl = new URL(TRACE, site.url).href;
    expect(pasted.iframe).toContain(`${site.url}embed/?trace=${traceUrl}`);
    expect(pasted.element).toContain(`<script src="${site.url}pipescope-player.js"></script>`);
    expect(pasted.element).toContain(`src="${traceUrl}"`);
    await expect.poll(() => app.locator('[data-testid=embed-code-export-note]').count()).toBe(0); // the run has a URL: nothing to export

    // The iframe snippet on a page of another origin.
    const docs = await context.newPage();
    watch(docs);
    await docs.goto(new URL('/docs/iframe.html', otherSite.url).href);
    const iframe = docs.locator('iframe');
    const frame = docs.frameLocator('iframe');
    await expect.poll(() => frame.locator('pipescope-player').getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    expect(await frame.locator('[data-testid=request-arrow]').count()).toBe(ARROWS);
    expect(await frame.locator('[data-testid=reply-arrow]').count()).toBe(ARROWS);
    // The snippet's few lines of script sized the frame to the embed's document (its first height was a guess).
    const embedHeight = await frame.locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
    await expect.poll(() => iframe.evaluate((f) => Math.round(f.getBoundingClientRect().height)), { timeout: 15_000 }).toBe(embedHeight);
    expect(await iframe.getAttribute('height')).not.toBe(String(embedHeight));
    await frame.locator('[data-testid=playback-toggle]').click();
    await expect.poll(async () => Number(await frame.locator('pipescope-player').getAttribute('data-position-us')), { timeout: 15_000 }).toBeGreaterThan(0);

    // The custom-element snippet on a page beside the site.
    const page = await context.newPage();
    watch(page);
    await page.goto(new URL('/docs/element.html', site.url).href);
    const player = page.locator('pipescope-player');
    await expect.poll(() => player.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    expect(await player.locator('[data-testid=request-arrow]').count()).toBe(ARROWS);
    expect(await player.locator('[data-testid=summary-line]').innerText()).toMatch(/^One pipeline · 10 × INCR: /);
    await player.locator('[data-testid=playback-toggle]').click();
    await expect.poll(async () => Number(await player.getAttribute('data-position-us')), { timeout: 15_000 }).toBeGreaterThan(0);

    const origins = new Set(requests.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([new URL(site.url).origin, new URL(otherSite.url).origin].sort());
    expect(sockets).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}, 120_000);
