// npm run docs:screenshots: every picture in README.md and docs/, taken in one go from the built app
// (`npm start`'s own server on a free port) showing recorded traces that are committed to the repository
// (public/traces/, public/tour/, e2e/fixtures/), in Debian's Chromium driven by playwright-core. Recorded
// traces make the pictures repeatable: the same files draw the same diagrams on any machine with the
// same fonts. The one exception is the Observe tab, which shows a live session: real redis-py run
// through the observing port as the picture is taken, on this machine, and said so in its caption.
// Each picture has a fixed viewport (CSS px at device scale 1), and its caption — the line
// ending in `<!-- screenshot:NAME -->` in any markdown page — is rewritten with the day it was taken,
// this machine, and where and when the runs it shows were recorded.
//
//   npm run docs:screenshots                     every picture
//   npm run docs:screenshots -- --only sweep.png one (repeatable)
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, waitForIdleRender } from '../../e2e/browser.ts';
import { ROOT, startAppProcess, type AppProcess } from '../../e2e/app-process.ts';
import { openFixturesAt } from '../../e2e/golden-page.ts';

/** Where a recorded trace was measured, and when, as far as the repository says. */
interface Provenance {
  recordedOn: string;
  machine: string;
  redis: string;
}

interface Shot {
  /** File name under docs/. */
  file: string;
  viewport: { width: number; height: number };
  theme?: 'light' | 'dark';
  /** The recorded traces shown, as repository paths (public/traces/…, public/tour/…, e2e/fixtures/…). */
  traces: string[];
  /** The runs shown are recorded live while the picture is taken (no traces): on this machine, today. */
  live?: true;
  /** Flags for the app's server beyond `--port 0` (e.g. `--observe 0`); pictures with the same flags share one. */
  appArgs?: string[];
  /** Takes the picture on a page already opened on `url` (the traces as ?trace= links). */
  take: (page: Page, context: ShotContext) => Promise<Buffer>;
  /** The page's query and hash beyond the ?trace= links. */
  hash?: string;
  /** A page of its own instead of the app with the traces (e.g. a docs page framing the embed). */
  open?: (browser: Browser, appUrl: string, shot: Shot) => Promise<Page>;
}

interface ShotContext {
  appUrl: string;
}

const DOCS = join(ROOT, 'docs');

/** Waits until every font is loaded, nothing is queued to repaint, and two more frames have passed. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await waitForIdleRender(page);
  await page.mouse.move(0, 0);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Waits for one run panel per trace, each with its diagram drawn. */
async function panelsDrawn(page: Page, count: number): Promise<void> {
  await page.locator('[data-testid=run-panel]').nth(count - 1).waitFor({ timeout: 30_000 });
  for (let i = 0; i < count; i++) await page.locator('[data-testid=run-panel]').nth(i).locator('svg').first().waitFor({ state: 'attached' });
  await settle(page);
}

const shoot = (page: Page, fullPage = false) => page.screenshot({ fullPage, animations: 'disabled', caret: 'hide', scale: 'css' });

/**
 * The page's full width from the top of `from` (null: the top of the page) down to the lowest bottom of
 * the `to` elements (every match of each selector), with a margin: a tall page cut to what the picture is about.
 */
async function shootRegion(page: Page, from: string | null, to: string[]): Promise<Buffer> {
  const MARGIN_PX = 12;
  const box = await page.evaluate(({ from, to }) => {
    const top = from ? document.querySelector(from)!.getBoundingClientRect().top + scrollY : 0;
    const bottoms = to.flatMap((selector) => [...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect().bottom + scrollY));
    if (bottoms.length === 0) throw new Error(`Nothing matches ${to.join(', ')}`);
    return { top, bottom: Math.max(...bottoms), width: document.documentElement.scrollWidth };
  }, { from, to });
  const y = Math.max(0, Math.floor(box.top - MARGIN_PX));
  return page.screenshot({
    fullPage: true,
    clip: { x: 0, y, width: box.width, height: Math.ceil(box.bottom + MARGIN_PX / 2) - y },
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
  });
}

/** A trace's URL as the app sees it: public/ files are the app's own; fixtures are served by the page's route. */
function traceUrl(path: string): string {
  if (path.startsWith('public/')) return path.slice('public/'.length);
  if (path.startsWith('e2e/fixtures/')) return `/e2e-fixtures/${path.slice('e2e/fixtures/'.length)}`;
  throw new Error(`${path}: a picture shows only traces committed under public/ or e2e/fixtures/`);
}

const fixtureNames = (shot: Shot) => shot.traces.filter((t) => t.startsWith('e2e/fixtures/')).map((t) => t.slice('e2e/fixtures/'.length));

function openApp(browser: Browser, appUrl: string, shot: Shot): Promise<Page> {
  const query = shot.traces.map((t) => `trace=${traceUrl(t)}`).join('&');
  const url = new URL(`/?${query}${shot.hash ?? ''}`, appUrl).href;
  return openFixturesAt(browser, url, fixtureNames(shot), { theme: shot.theme ?? 'light' }).then(async (page) => {
    await page.setViewportSize(shot.viewport);
    return page;
  });
}

/** The app with its WebSocket refused: what a page finds with no backend reachable (the tour then shows its recordings). */
async function openOffline(browser: Browser, appUrl: string, shot: Shot): Promise<Page> {
  const page = await openFixturesAt(browser, new URL('/', appUrl).href, [], { theme: shot.theme ?? 'light' });
  await page.context().routeWebSocket(/\/live/, (ws) => ws.close());
  await page.setViewportSize(shot.viewport);
  await page.goto(new URL(`/?offline${shot.hash ?? ''}`, appUrl).href);
  await page.locator('.connection-pill.bad, .connection-pill.pending').first().waitFor({ state: 'attached' });
  return page;
}

/** The sizing script the Embed dialog gives, as a docs author pastes it. */
const SIZING_SCRIPT = `addEventListener("message", function (event) {
  var m = event.data;
  if (event.origin !== location.origin || !m || m.source !== "pipescope" || m.version !== 1 || m.type !== "height") return;
  document.querySelectorAll("iframe").forEach(function (frame) {
    if (frame.contentWindow === event.source) frame.style.height = Math.ceil(m.height) + "px";
  });
});`;

/** A plain docs page (served by a route on the app's origin) with the embed in an iframe, as the Embed dialog writes it. */
async function openDocsPage(browser: Browser, appUrl: string, shot: Shot): Promise<Page> {
  const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', colorScheme: 'light', reducedMotion: 'reduce' });
  const src = `../embed/?${shot.traces.map((t) => `trace=../${traceUrl(t)}`).join('&')}&t=3000&theme=light`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pipelining — a docs page</title>
<style>body { font: 16px/1.5 'DejaVu Sans', sans-serif; max-width: 900px; margin: 24px auto; color: #1f2328; } h1 { font-size: 28px; } code { font-family: 'DejaVu Sans Mono', monospace; }</style></head>
<body><h1>Pipelining</h1>
<p>Without pipelining, each <code>INCR</code> waits for its reply before the next is sent. Below, the same ten INCRs as
a recorded Pipescope run: one at a time, then in one pipeline. Press play, or step through it.</p>
<iframe src="${src.replace(/&/g, '&amp;')}" title="Pipescope: 10 × INCR, sequential and pipelined" width="100%" height="480" style="border:0" loading="lazy" allow="fullscreen"></iframe>
<script>${SIZING_SCRIPT}</script>
<p>The page's scripts know nothing of Redis: the embed replays a file.</p></body></html>`;
  await context.route((url) => url.pathname === '/docs-example/pipelining.html', (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  const page = await context.newPage();
  await page.goto(new URL('/docs-example/pipelining.html', appUrl).href);
  await page.waitForFunction(() => {
    const frame = document.querySelector('iframe');
    const el = frame?.contentDocument?.querySelector('pipescope-player') as HTMLElement | null | undefined;
    return el?.dataset['state'] === 'ready' && el.dataset['renderPending'] === 'false' && (frame?.getBoundingClientRect().height ?? 0) !== 480;
  }, undefined, { timeout: 30_000 });
  return page;
}

/** The Observe tab with the port open; real redis-py run through it by the tab's button, both ways, drawn. */
async function openObserve(browser: Browser, appUrl: string, shot: Shot): Promise<Page> {
  const page = await openFixturesAt(browser, new URL('/#view=observe', appUrl).href, [], { theme: shot.theme ?? 'light' });
  await page.setViewportSize(shot.viewport);
  await page.locator('[data-testid=observe-url]').waitFor({ timeout: 30_000 });
  await page.click('[data-testid=observe-run-redis-py]');
  await page.locator('[data-testid=observe-client-message]').filter({ hasText: /plain: 10 commands/ }).waitFor({ timeout: 60_000 });
  return page;
}

const SHOTS: Shot[] = [
  {
    file: 'pipescope.png',
    viewport: { width: 1440, height: 900 },
    traces: ['public/traces/incr-10-sequential-server-trace.json.gz', 'public/traces/incr-10-pipeline-server-trace.json.gz'],
    // The page from its header down to both runs' "where the time went".
    take: async (page) => {
      await panelsDrawn(page, 2);
      return shootRegion(page, null, ['[data-testid=phase-explain]']);
    },
  },
  {
    file: 'modes-compare.png',
    viewport: { width: 1440, height: 900 },
    traces: ['pipeline', 'multi', 'evalsha', 'eval'].map((m) => `e2e/fixtures/modes-incr-10/four-${m}-r0.json`),
    // The first row of panels: verdict lines and diagrams (the compare table sits under all four).
    take: async (page) => {
      await panelsDrawn(page, 4);
      return shootRegion(page, '.results', ['[data-testid=run-panel]:nth-child(-n+2) [data-testid=phase-explain]']);
    },
  },
  {
    file: 'link-250ms.png',
    viewport: { width: 1440, height: 900 },
    traces: ['public/tour/rtt-250-sequential-r0.json', 'public/tour/rtt-250-pipeline-r0.json'],
    // From the headline to each run's measured-against-expected line (the added delay's label).
    take: async (page) => {
      await panelsDrawn(page, 2);
      return shootRegion(page, '.results', ['[data-testid=rtt-annotation]']);
    },
  },
  {
    file: 'reply-queue.png',
    viewport: { width: 1440, height: 900 },
    traces: ['public/tour/memory-pipeline-r0.json', 'public/tour/memory-chunked-r0.json'],
    take: async (page) => {
      await panelsDrawn(page, 2);
      await page.locator('[data-testid=memory-chart]').nth(1).waitFor({ state: 'attached' });
      await settle(page);
      // The panels down to their memory charts (a region of the whole page: an element screenshot would scroll, and the sticky playback bar cover the diagrams).
      return shootRegion(page, '.panels', ['[data-testid=memory-gaps]', '[data-testid=memory-chart]']);
    },
  },
  {
    file: 'sweep.png',
    viewport: { width: 1440, height: 900 },
    traces: ['e2e/fixtures/sweep-ping-1-64-latency.json'],
    take: async (page) => {
      await page.locator('.sweep-results svg').first().waitFor({ timeout: 30_000 });
      await settle(page);
      return page.locator('.sweep-results').screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
    },
  },
  {
    file: 'gallery.png',
    viewport: { width: 1440, height: 900 },
    traces: ['e2e/fixtures/gallery/netcat-pipeline-r0.json'],
    take: async (page) => {
      await panelsDrawn(page, 1);
      await page.click('[data-testid=tab-gallery]');
      await page.locator('[data-testid=gallery-card][data-benchmark=docs-netcat] [data-testid=gallery-netcat]').filter({ hasText: /^1 write/ }).waitFor();
      await settle(page);
      return page.locator('[data-testid=gallery-view]').screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
    },
  },
  {
    file: 'presenter-tour.png',
    viewport: { width: 1920, height: 1080 },
    traces: ['public/tour/ping-pong-sequential-r0.json', 'public/tour/ping-pong-pipeline-r0.json'],
    hash: '#present=1&tour=1',
    open: openOffline,
    take: async (page) => {
      await page.locator('[data-testid=tour][data-step="1"]').waitFor();
      await page.keyboard.press('PageDown'); // a clicker's "next": shows step 1's recording
      await page.locator('[data-testid=tour][data-step="1"][data-step-state=done]').waitFor({ timeout: 30_000 });
      await panelsDrawn(page, 2);
      return shoot(page);
    },
  },
  {
    file: 'dark.png',
    viewport: { width: 1440, height: 900 },
    theme: 'dark',
    traces: ['public/traces/incr-10-sequential-server-trace.json.gz', 'public/traces/incr-10-pipeline-server-trace.json.gz'],
    // The results: headline, compare table, playback bar, both diagrams.
    take: async (page) => {
      await panelsDrawn(page, 2);
      return shootRegion(page, '.results', ['[data-testid=phase-explain]']);
    },
  },
  {
    file: 'observe.png',
    viewport: { width: 1440, height: 900 },
    traces: [],
    live: true,
    appArgs: ['--observe', '0'],
    open: openObserve,
    // The tab from the header down to both connections' verdict lines.
    take: async (page) => {
      await panelsDrawn(page, 2);
      return shootRegion(page, null, ['[data-testid=run-panel] [data-testid^=verdict-]']);
    },
  },
  {
    file: 'embed.png',
    viewport: { width: 960, height: 900 },
    traces: ['public/traces/incr-10-sequential.json.gz', 'public/traces/incr-10-pipeline.json.gz'],
    open: openDocsPage,
    take: async (page) => {
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      return shoot(page);
    },
  },
];

/** "Linux x64, 2 × Intel(R) Xeon(R) Processor": where the pictures were taken (as the recorded runs' index says it). */
function machineText(): string {
  const list = cpus();
  const os = ({ linux: 'Linux', darwin: 'macOS', win32: 'Windows' } as Record<string, string>)[platform()] ?? platform();
  return `${os} ${arch()}, ${list.length} × ${list[0]?.model.trim() ?? 'unknown CPU'}`;
}

interface TraceIndex {
  traces: { file: string; provenance: { redis: string; machine: string; recordedAt: string } }[];
}
interface TourIndex {
  steps: Record<string, { files: string[]; recordedAt: string; redis: string; machine: string }>;
}

/** Where each committed trace was recorded, from the indexes that come with them, or the file itself. */
function provenanceOf(path: string): Provenance {
  if (path.startsWith('public/traces/')) {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/traces/index.json'), 'utf8')) as TraceIndex;
    const entry = index.traces.find((t) => `public/traces/${t.file}` === path);
    if (!entry) throw new Error(`${path} is not in public/traces/index.json`);
    return { recordedOn: entry.provenance.recordedAt.slice(0, 10), machine: entry.provenance.machine, redis: entry.provenance.redis };
  }
  if (path.startsWith('public/tour/')) {
    const index = JSON.parse(readFileSync(join(ROOT, 'public/tour/index.json'), 'utf8')) as TourIndex;
    const step = Object.values(index.steps).find((s) => s.files.some((f) => `public/tour/${f}` === path));
    if (!step) throw new Error(`${path} is not in public/tour/index.json`);
    return { recordedOn: step.recordedAt, machine: step.machine.replace(/,.*$/, ''), redis: step.redis };
  }
  const doc = JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { run?: { startedAt: string }; sweep?: { startedAt: string }; redis: { version: string } };
  const startedAt = doc.run?.startedAt ?? doc.sweep?.startedAt ?? '';
  return { recordedOn: startedAt.slice(0, 10), machine: 'a machine not named in the file', redis: doc.redis.version };
}

const unique = (values: string[]) => [...new Set(values)];

/** The version of Debian's redis-server, which `npm start` runs as its private Redis. */
function localRedisVersion(): string {
  const text = execFileSync('redis-server', ['--version'], { encoding: 'utf8' });
  return /v=([\d.]+)/.exec(text)?.[1] ?? 'of unknown version';
}

function captionOf(shot: Shot, takenOn: string, machine: string, chromium: string): string {
  const sources = shot.live ? [{ recordedOn: `${takenOn} as the picture was taken`, machine, redis: localRedisVersion() }] : shot.traces.map(provenanceOf);
  const recorded = unique(sources.map((s) => s.recordedOn)).join(' and ');
  const where = unique(sources.map((s) => s.machine)).join('; ');
  const redis = unique(sources.map((s) => s.redis)).join(', ');
  return `Screenshot of ${takenOn} on ${machine} (Chromium ${chromium}, viewport ${shot.viewport.width}×${shot.viewport.height} CSS px); ` +
    `the runs were recorded on ${recorded} on ${where}, Redis ${redis}.`;
}

/** The markdown pages a caption may sit in. */
function markdownPages(): string[] {
  return ['README.md', 'ARCHITECTURE.md', ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
}

/** Rewrites each line ending in `<!-- screenshot:FILE -->` with the new caption; returns how many it changed. */
function updateCaptions(captions: Map<string, string>): number {
  let changed = 0;
  for (const page of markdownPages()) {
    const path = join(ROOT, page);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const next = text.replace(/^.*<!-- screenshot:([\w.-]+) -->$/gm, (line, file: string) => {
      const caption = captions.get(file);
      return caption ? `*${caption}* <!-- screenshot:${file} -->` : line;
    });
    if (next !== text) {
      writeFileSync(path, next);
      changed++;
    }
  }
  return changed;
}

async function main(): Promise<void> {
  const only = process.argv.flatMap((arg, i, all) => (all[i - 1] === '--only' ? [arg] : []));
  const unknown = only.filter((f) => !SHOTS.some((s) => s.file === f));
  if (unknown.length) {
    console.error(`Unknown picture: ${unknown.join(', ')}. The pictures: ${SHOTS.map((s) => s.file).join(', ')}.`);
    process.exit(2);
  }
  const shots = only.length ? SHOTS.filter((s) => only.includes(s.file)) : SHOTS;
  // One server per set of flags, started when a picture first needs it.
  const apps = new Map<string, Promise<AppProcess>>();
  const appFor = (shot: Shot): Promise<AppProcess> => {
    const key = (shot.appArgs ?? []).join(' ');
    if (!apps.has(key)) apps.set(key, startAppProcess(shot.appArgs ?? []));
    return apps.get(key)!;
  };
  const browser = await launchBrowser();
  const takenOn = new Date().toISOString().slice(0, 10);
  const machine = machineText();
  const captions = new Map<string, string>();
  try {
    for (const shot of shots) {
      const app = await appFor(shot);
      const page = await (shot.open ?? openApp)(browser, app.url, shot);
      try {
        const png = await shot.take(page, { appUrl: app.url });
        writeFileSync(join(DOCS, shot.file), png);
        captions.set(shot.file, captionOf(shot, takenOn, machine, browser.version()));
        console.log(`docs/${shot.file}: ${shot.viewport.width}×${shot.viewport.height}, ${png.length.toLocaleString('en-US')} B`);
      } finally {
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
    await Promise.all([...apps.values()].map(async (app) => (await app).stop()));
  }
  const pages = updateCaptions(captions);
  console.log(`Captions updated in ${pages} page${pages === 1 ? '' : 's'}.`);
}

await main();
