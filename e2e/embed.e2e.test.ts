// The embed player as docs sites use it, from another origin: an iframe of /embed/?trace=… on a host
// page served by a tiny server on another port, talking protocol v1 by postMessage (ready, height, state,
// error; play, pause, seek, load-trace, ping; origin rules), and the <pipescope-player> custom element on
// a plain HTML page with one <script src=…/pipescope-player.js> (arrows, autoplay, loop, keys, errors, width). Golden screenshots of the embed in both
// themes. No console errors anywhere.
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser } from './browser.ts';
import { expectMatchesGoldenImage, goldenFiles } from './golden-image.ts';
import { FIXTURES, GOLDEN_ARTIFACTS, GOLDENS, PINNED_FONTS } from './golden-page.ts';

/** Fixture traces copied next to the app (its CSP lets the embed fetch from its own origin). */
const TRACE_FOLDER = join(ROOT, 'dist', 'web', 'e2e-embed');
const LONG = 'ping-20-pipeline-rtt-10ms.json'; // ~10 ms: seconds of playback at the default speed
const SHORT = 'incr-10-sequential.json';
const SERVER_TRACED = 'incr-10-pipeline-server-trace.json';

let app: AppProcess;
let browser: Browser;
let host: Server;
let hostUrl: string;
let appOrigin: string;

/** The host page: one iframe per embed URL given (?embed=…, repeatable), the messages it hears kept in window.received, and the sizing script the Embed dialog gives. */
function hostPage(embeds: string[]): string {
  const frames = embeds.map((src, i) => `<iframe id="embed${i}" name="embed${i}" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" style="width:900px;border:0;display:block"></iframe>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Docs page</title></head><body style="margin:0">
<h1>A docs page</h1>
${frames}
<iframe id="other" name="other" srcdoc="<p>another frame</p>"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => {
    if (event.data?.source !== 'pipescope') return;
    const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
    window.received.push({ from: frame ? frame.id : null, origin: event.origin, data: event.data });
    if (event.data.type === 'height' && frame) frame.style.height = event.data.height + 'px';
  });
  window.send = (id, message, targetOrigin = '*') => document.getElementById(id).contentWindow.postMessage(message, targetOrigin);
</script></body></html>`;
}

function elementPage(script: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Plain page</title></head><body>
<p>A plain HTML page with the custom element.</p>
<script src="${script}"></script>
<pipescope-player id="still" src="/traces/${LONG}" theme="light"></pipescope-player>
<pipescope-player id="playing" src="/traces/${LONG}" autoplay speed="1/1000" controls="false" panels="diagram"></pipescope-player>
<pipescope-player id="broken" src="/traces/missing.json /traces/bad.json"></pipescope-player>
<div style="width:480px"><pipescope-player id="looping" src="/traces/${SHORT}" autoplay loop panels="diagram"></pipescope-player></div>
</body></html>`;
}

beforeAll(async () => {
  mkdirSync(TRACE_FOLDER, { recursive: true });
  for (const name of [LONG, SHORT, SERVER_TRACED]) cpSync(join(FIXTURES, name), join(TRACE_FOLDER, name));
  app = await startAppProcess();
  appOrigin = new URL(app.url).origin;
  browser = await launchBrowser();
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/host.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(url.searchParams.getAll('embed')));
    } else if (url.pathname === '/element.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(elementPage(`${appOrigin}/pipescope-player.js`));
    } else if (url.pathname.startsWith('/traces/') && [LONG, SHORT].includes(url.pathname.slice('/traces/'.length))) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(join(FIXTURES, url.pathname.slice('/traces/'.length))));
    } else if (url.pathname === '/traces/bad.json') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"format":"pipescope-trace","version":4,"commands":"many"}');
    } else if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
    } else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((resolve) => host?.close(resolve));
  rmSync(TRACE_FOLDER, { recursive: true, force: true });
});

interface Received {
  from: string | null;
  origin: string;
  data: { type: string; [key: string]: unknown };
}

/** A page with a collector of console errors and page errors (the embed's frames' included). */
async function openPage(url: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'no-preference', colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, context, errors };
}

const embedUrl = (query: string) => `${appOrigin}/embed/?${query}`;
const received = (page: Page): Promise<Received[]> => page.evaluate(() => (window as unknown as { received: Received[] }).received);
const ofType = async (page: Page, from: string, type: string) => (await received(page)).filter((m) => m.from === from && m.data.type === type);
const send = (page: Page, id: string, message: unknown) => page.evaluate(([i, m]) => (window as unknown as { send: (id: string, m: unknown) => void }).send(i as string, m), [id, message] as const);
const msg = (body: object) => ({ source: 'pipescope', version: 1, ...body });

function embedFrame(page: Page, name: string): Frame {
  const frame = page.frame({ name });
  if (!frame) throw new Error(`no frame ${name}`);
  return frame;
}

const playerAttr = (frame: Frame, name: string) => frame.locator('pipescope-player').getAttribute(name);
/** The iframe document's height as the embed measures it, and whether it still scrolls inside the iframe. */
const documentHeight = (frame: Frame) => frame.evaluate(() => ({ body: Math.ceil(document.body.getBoundingClientRect().height), scroll: document.documentElement.scrollHeight }));

describe('the embed in an iframe on another origin', () => {
  it('says ready and its height, obeys play, pause and seek, and reports its state', async () => {
    const trace = `../e2e-embed/${LONG}`; // relative to the embed page
    const { page, context, errors } = await openPage(`${hostUrl}/host.html?embed=${encodeURIComponent(embedUrl(`trace=${trace}&origin=${hostUrl}`))}`);
    try {
      await expect.poll(() => ofType(page, 'embed0', 'ready'), { timeout: 30_000 }).toHaveLength(1);
      const [ready] = await ofType(page, 'embed0', 'ready');
      expect(ready!.origin).toBe(appOrigin);
      expect(ready!.data).toMatchObject({ source: 'pipescope', version: 1, traces: 1 });
      expect(ready!.data['durationUs']).toBeGreaterThan(10_000);
      const frame = embedFrame(page, 'embed0');
      expect(await frame.locator('[data-testid=run-panel]').getAttribute('data-commands-drawn')).toBe('20');

      // The height: the last message is the document's height, and the host's iframe sized with it no longer scrolls.
      await expect.poll(async () => (await ofType(page, 'embed0', 'height')).at(-1)?.data['height'], { timeout: 15_000 }).toBe((await documentHeight(frame)).body);
      const firstHeight = (await ofType(page, 'embed0', 'height')).at(-1)!.data['height'] as number;
      expect(firstHeight).toBeGreaterThan(500);
      expect(await page.locator('#embed0').evaluate((f) => f.getBoundingClientRect().height)).toBe(firstHeight);
      expect((await documentHeight(frame)).scroll).toBe(firstHeight);

      // play → playing, and the playhead advances.
      await send(page, 'embed0', msg({ type: 'play' }));
      await expect.poll(async () => (await ofType(page, 'embed0', 'state')).some((m) => m.data['playing'] === true), { timeout: 15_000 }).toBe(true);
      const positions = async () => (await ofType(page, 'embed0', 'state')).map((m) => m.data['positionUs']).filter((p): p is number => typeof p === 'number');
      await expect.poll(async () => Math.max(0, ...(await positions())), { timeout: 15_000 }).toBeGreaterThan(500);
      expect(Number(await frame.locator('[data-testid=playhead]').getAttribute('data-position-us'))).toBeGreaterThan(0);

      // pause → not playing, and the playhead stays.
      await send(page, 'embed0', msg({ type: 'pause' }));
      await expect.poll(() => playerAttr(frame, 'data-playing'), { timeout: 15_000 }).toBe('false');
      await expect.poll(async () => (await ofType(page, 'embed0', 'state')).at(-1)?.data['playing'], { timeout: 15_000 }).toBe(false);
      const paused = await playerAttr(frame, 'data-position-us');
      await frame.evaluate(() => new Promise((resolve) => { let n = 0; const step = () => (++n >= 20 ? resolve(null) : requestAnimationFrame(step)); requestAnimationFrame(step); }));
      expect(await playerAttr(frame, 'data-position-us')).toBe(paused);

      // seek {t} → the position is t, on the element, the playhead line and in a state message.
      await send(page, 'embed0', msg({ type: 'seek', t: 5000 }));
      await expect.poll(() => playerAttr(frame, 'data-position-us'), { timeout: 15_000 }).toBe('5000');
      await expect.poll(() => frame.locator('[data-testid=playhead]').getAttribute('data-position-us'), { timeout: 15_000 }).toBe('5000');
      await expect.poll(async () => (await ofType(page, 'embed0', 'state')).at(-1)?.data['positionUs'], { timeout: 15_000 }).toBe(5000);
      expect(await frame.locator('[data-testid=playback-position]').innerText()).toMatch(/^5 ms of 1\d\.?\d* ms$/);

      // set-theme: the player's colours follow.
      await send(page, 'embed0', msg({ type: 'set-theme', theme: 'dark' }));
      await expect.poll(() => frame.locator('.pipescope-theme').getAttribute('data-theme'), { timeout: 15_000 }).toBe('dark');

      // An invalid message gets an error reply; a message from another window is ignored.
      await send(page, 'embed0', msg({ type: 'explode' }));
      await expect.poll(async () => (await ofType(page, 'embed0', 'error')).map((m) => m.data['message']), { timeout: 15_000 }).toEqual([expect.stringMatching(/Unknown message type "explode"/)]);
      await send(page, 'embed0', msg({ type: 'seek', t: -5 }));
      await expect.poll(async () => (await ofType(page, 'embed0', 'error')).length, { timeout: 15_000 }).toBe(2);
      await embedFrame(page, 'other').evaluate((m) => (window.parent.frames as unknown as Record<string, Window>)['embed0']!.postMessage(m, '*'), msg({ type: 'seek', t: 1000 }));
      await send(page, 'embed0', msg({ type: 'ping' })); // answered after the other window's message, which came first
      await expect.poll(() => ofType(page, 'embed0', 'ready'), { timeout: 15_000 }).toHaveLength(2);
      expect(await playerAttr(frame, 'data-position-us')).toBe('5000');
      expect((await ofType(page, 'embed0', 'error')).length).toBe(2);

      // load-trace of two traces: a compare, and the height follows the new content.
      await send(page, 'embed0', msg({ type: 'load-trace', urls: [`../e2e-embed/${SHORT}`, trace] }));
      await expect.poll(async () => (await ofType(page, 'embed0', 'ready')).at(-1)?.data['traces'], { timeout: 30_000 }).toBe(2);
      expect(await frame.locator('[data-testid=run-panel]').evaluateAll((panels) => panels.map((p) => p.getAttribute('data-mode')))).toEqual(['sequential', 'pipeline']);
      expect(await frame.locator('[data-testid=summary-line]').count()).toBe(2);
      await expect.poll(async () => (await ofType(page, 'embed0', 'height')).at(-1)?.data['height'], { timeout: 15_000 }).toBe((await documentHeight(frame)).body);
      const secondHeight = (await ofType(page, 'embed0', 'height')).at(-1)!.data['height'] as number;
      expect(secondHeight).toBeGreaterThan(firstHeight);
      await expect.poll(() => page.locator('#embed0').evaluate((f) => f.getBoundingClientRect().height), { timeout: 15_000 }).toBe(secondHeight);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });

  it('with origin= given, a message from another origin is ignored (and its own messages go to that origin only)', async () => {
    const { page, context, errors } = await openPage(`${hostUrl}/host.html?embed=${encodeURIComponent(embedUrl(`trace=../e2e-embed/${LONG}&origin=https://docs.example.com`))}&embed=${encodeURIComponent(embedUrl(`trace=../e2e-embed/${LONG}&t=2ms`))}`);
    try {
      const frame = embedFrame(page, 'embed0');
      await expect.poll(() => playerAttr(frame, 'data-state'), { timeout: 30_000 }).toBe('ready');
      // The second embed, without origin=, speaks to anyone: ready arrives from it, none from the first.
      await expect.poll(() => ofType(page, 'embed1', 'ready'), { timeout: 30_000 }).toHaveLength(1);
      await expect.poll(() => playerAttr(embedFrame(page, 'embed1'), 'data-position-us'), { timeout: 15_000 }).toBe('2000'); // t=2ms
      await send(page, 'embed0', msg({ type: 'seek', t: 4000 }));
      await send(page, 'embed0', msg({ type: 'play' }));
      await send(page, 'embed1', msg({ type: 'seek', t: 4000 }));
      await expect.poll(() => playerAttr(embedFrame(page, 'embed1'), 'data-position-us'), { timeout: 15_000 }).toBe('4000');
      expect(await playerAttr(frame, 'data-position-us')).toBeNull();
      expect(await playerAttr(frame, 'data-playing')).toBe('false');
      expect((await received(page)).filter((m) => m.from === 'embed0')).toEqual([]);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });

  it('a trace that cannot be loaded is said in plain words inside the player; the host page hears only that it failed', async () => {
    const { page, context, errors } = await openPage(`${hostUrl}/host.html?embed=${encodeURIComponent(embedUrl('trace=../e2e-embed/missing.json'))}`);
    try {
      // Nothing read from the response (its status included) goes to a page on another origin.
      await expect.poll(async () => (await ofType(page, 'embed0', 'error')).map((m) => m.data['message']), { timeout: 30_000 })
        .toEqual(['Could not load the trace at ../e2e-embed/missing.json.']);
      const frame = embedFrame(page, 'embed0');
      expect(await frame.locator('[data-testid=player-error]').innerText()).toBe('Could not load the trace at ../e2e-embed/missing.json: HTTP 404 Not Found');
      expect(await playerAttr(frame, 'data-state')).toBe('error');
      // The browser logs the failed download itself; nothing else.
      expect(errors.filter((e) => !/404/.test(e)).join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });

  it('lazy: a poster, nothing fetched until it is clicked', async () => {
    const { page, context, errors } = await openPage(`${hostUrl}/host.html?embed=${encodeURIComponent(embedUrl(`trace=../e2e-embed/${SHORT}&lazy`))}`);
    try {
      const fetched: string[] = [];
      page.on('request', (r) => { if (r.url().includes('/e2e-embed/')) fetched.push(r.url()); });
      const frame = embedFrame(page, 'embed0');
      await expect.poll(() => playerAttr(frame, 'data-state'), { timeout: 30_000 }).toBe('poster');
      expect(await frame.locator('[data-testid=player-poster-button]').innerText()).toContain('Click to load the recorded run');
      expect(fetched).toEqual([]);
      await frame.locator('[data-testid=player-poster-button]').click();
      await expect.poll(() => ofType(page, 'embed0', 'ready'), { timeout: 30_000 }).toHaveLength(1);
      expect(fetched).toHaveLength(1);
      expect(errors.join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('the custom element on a plain HTML page', () => {
  it('renders every arrow, plays, shows errors inside itself, and answers its keys', async () => {
    const { page, context, errors } = await openPage(`${hostUrl}/element.html`);
    try {
      const still = page.locator('#still');
      await expect.poll(() => still.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
      expect(await still.locator('[data-testid=request-arrow]').count()).toBe(20);
      expect(await still.locator('[data-testid=reply-arrow]').count()).toBe(20);
      expect(await still.locator('[data-testid=summary-line]').innerText()).toMatch(/^One pipeline · 20 × PING: .* \(client socket, t0 → last reply\) · .* ops\/s \(client socket\)/);
      // autoplay: the second player plays by itself; its bar is hidden (controls="false") and so is its summary.
      const playing = page.locator('#playing');
      await expect.poll(async () => Number(await playing.getAttribute('data-position-us')), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await playing.getAttribute('data-playing')).toBe('true');
      expect(await playing.getAttribute('data-speed')).toBe('0.001');
      expect(await playing.locator('[data-testid=playback-bar]').isVisible()).toBe(false);
      expect(await playing.locator('[data-testid=player-summary]').isVisible()).toBe(false);
      // The first is not playing: keys belong to the focused player only.
      expect(await still.getAttribute('data-playing')).toBe('false');
      await still.locator('svg.diagram-svg').focus();
      await page.keyboard.press('End');
      await expect.poll(() => still.getAttribute('data-position-us'), { timeout: 15_000 }).toBe(await still.getAttribute('data-end-us'));
      await page.keyboard.press('Home');
      await expect.poll(() => still.getAttribute('data-position-us'), { timeout: 15_000 }).toBe('0');
      await page.keyboard.press('ArrowRight');
      await expect.poll(async () => Number(await still.getAttribute('data-position-us')), { timeout: 15_000 }).toBeGreaterThan(0);
      // Methods: pause() and seek(µs).
      await playing.evaluate((el) => { (el as unknown as { pause(): void; seek(us: number): void }).pause(); (el as unknown as { seek(us: number): void }).seek(2500); });
      await expect.poll(() => playing.getAttribute('data-position-us'), { timeout: 15_000 }).toBe('2500');
      expect(await playing.getAttribute('data-playing')).toBe('false');
      // A missing trace and an invalid one: said inside the element.
      const broken = page.locator('#broken');
      await expect.poll(() => broken.getAttribute('data-state'), { timeout: 30_000 }).toBe('error');
      expect((await broken.locator('[data-testid=player-error] p').allInnerTexts())).toEqual([
        'Could not load the trace at /traces/missing.json: HTTP 404 Not Found',
        expect.stringMatching(/^Could not load the trace at \/traces\/bad\.json: \S.+/),
      ]);
      // loop: a short run played to its end starts again by itself.
      const looping = page.locator('#looping');
      await expect.poll(() => looping.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
      const wrapped = await looping.evaluate((el) => new Promise<boolean>((resolve) => {
        let last = -1;
        const observer = new MutationObserver(() => {
          const at = Number(el.getAttribute('data-position-us') ?? -1);
          if (at < last && el.getAttribute('data-playing') === 'true') { observer.disconnect(); resolve(true); }
          last = at;
        });
        observer.observe(el, { attributes: true, attributeFilter: ['data-position-us', 'data-playing'] });
      }));
      expect(wrapped).toBe(true);
      // It follows its container's width: 480 px minus its padding.
      expect(await looping.locator('svg.diagram-svg').evaluate((svg) => svg.getBoundingClientRect().width)).toBe(464);
      await page.locator('#looping').evaluate((el) => { (el.parentElement as HTMLElement).style.width = '700px'; });
      await expect.poll(() => looping.locator('svg.diagram-svg').evaluate((svg) => Number(svg.getAttribute('width'))), { timeout: 15_000 }).toBe(684);
      // The tooltip lives inside the player's shadow root, not in the page's body.
      await still.locator('[data-testid=request-arrow]').first().hover({ force: true });
      await expect.poll(() => still.locator('[role=tooltip]').isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await still.locator('[role=tooltip] .tooltip-title').innerText()).toBe('command 1 of 20 PING');
      expect(await page.evaluate(() => document.body.querySelector(':scope > [role=tooltip]'))).toBeNull();
      expect(errors.filter((e) => !/404/.test(e)).join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('the wheel over a player', () => {
  it('scrolls the page it is on, hints how to zoom, and zooms with Ctrl + wheel, as in the app', async () => {
    const { page, context, errors } = await openPage(`${hostUrl}/element.html`);
    try {
      const still = page.locator('#still');
      await expect.poll(() => still.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
      const axis = () => still.locator('.diagram-svg .axis text').allTextContents();
      const unzoomed = await axis();
      const diagram = still.locator('svg.diagram-svg');
      await diagram.scrollIntoViewIfNeeded();
      const box = (await diagram.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height, 900 - box.y) / 2);
      const top = await page.evaluate(() => window.scrollY);
      await page.mouse.wheel(0, 200);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(top);
      await still.locator('[data-testid=wheel-hint]').waitFor({ state: 'visible', timeout: 5_000 });
      expect(await axis()).toEqual(unzoomed);
      const after = await diagram.boundingBox();
      await page.mouse.move(after!.x + after!.width / 2, Math.max(after!.y, 0) + 100);
      const scrolled = await page.evaluate(() => window.scrollY);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -200);
      await page.keyboard.up('Control');
      await expect.poll(axis).not.toEqual(unzoomed);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      expect(errors.filter((e) => !/404/.test(e)).join('\n')).toBe('');
    } finally {
      await context.close();
    }
  });
});

describe('embed goldens', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`the embed of a server-traced pipeline, ${theme} (theme=auto follows the system)`, async () => {
      const context = await browser.newContext({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', colorScheme: theme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(embedUrl(`trace=../e2e-embed/${SERVER_TRACED}`));
        const player = page.locator('pipescope-player');
        await expect.poll(() => player.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
        // Pinned fonts (golden-page.ts), set inside the player's shadow root: the page's stylesheets do not reach it.
        await player.evaluate((el, fonts) => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(`.pipescope-theme { --sans: '${fonts.sans}' !important; --mono: '${fonts.mono}' !important; } * { transition: none !important; caret-color: transparent !important; }`);
          el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, sheet];
          document.body.style.fontFamily = `'${fonts.sans}'`;
        }, PINNED_FONTS);
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        await expect.poll(() => player.getAttribute('data-render-pending'), { timeout: 15_000 }).toBe('false');
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        expect(await player.getAttribute('data-position-us')).toBeNull(); // no t=: the whole run drawn
        const png = await player.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
        expectMatchesGoldenImage(png, goldenFiles(GOLDENS, GOLDEN_ARTIFACTS, `embed-${theme}`));
        expect(errors.join('\n')).toBe('');
      } finally {
        await context.close();
      }
    });
  }
});
