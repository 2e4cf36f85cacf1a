// Hostile trace files in a real Chromium, by every way of opening one: the app's ?trace= and Open trace…,
// the embed page's ?trace=, and <pipescope-player> on another site's page. The corpus
// (server/support/hostile-corpus.ts: a 206-byte table of 8,000,000 × 16 cells, a 388 KB gzip of a 400 MB
// JSON array, an 8 GiB gzip bomb, nesting 100,000 deep, a 2 MiB string) is refused within 2 s of arriving,
// with a message naming the limit; the tab answers at once afterwards and its JS heap stays small. Where
// each way decodes: in a worker from its own file (the embed page), from a blob: worker that imports the
// file beside the script (the element on another site), or on the page where a host allows no worker. And
// the embed tells a framing page nothing of a response it could not load.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHostileCorpus, type HostileFile } from '../server/support/hostile-corpus.ts';
import { ROOT, startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser } from './browser.ts';
import { FIXTURES } from './golden-page.ts';

const FOLDER = join(ROOT, 'dist', 'web', 'e2e-hostile');
const GOOD = 'incr-10-pipeline.json';
const SECRET = 'TOP-SECRET-7f3a: a same-origin file that is not a trace';

/** What each file's refusal says (the limit it met). */
const REFUSAL: Record<string, RegExp> = {
  'table-8m-rows.json.gz': /declares 8,000,000 records, more than the [\d,]+ left of the limit/,
  'array-400mb.json.gz': /inflates to more than 27\.8 MiB/,
  'bomb-8gib.json.gz': /inflates to more than 270\.0 MiB/,
  'deep-nesting.json': /nests arrays and objects more than 64 deep/,
  'long-string.json': /a string longer than 1,048,576 characters/,
};
/** JS heap of the page (its main thread) after a refusal, at most: the app itself uses ~20–40 MB. */
const MAX_HEAP_BYTES = 150 * 1024 * 1024;

let app: AppProcess;
let browser: Browser;
let corpus: HostileFile[];
let host: Server;
let hostUrl: string;

beforeAll(async () => {
  rmSync(FOLDER, { recursive: true, force: true });
  corpus = writeHostileCorpus(FOLDER);
  cpSync(join(FIXTURES, GOOD), join(FOLDER, GOOD));
  writeFileSync(join(FOLDER, 'secret.txt'), SECRET);
  app = await startAppProcess();
  browser = await launchBrowser();
  // Another site: a page with the custom element (its script from the app), and a page framing the embed.
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/element.html') {
      // The files from this site (the app sends no CORS headers); the element's script from the app.
      const src = `/files/${url.searchParams.get('file') ?? ''}`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8"><title>Element</title>
<button id="poke" onclick="this.dataset.clicked = 'yes'">poke</button>
<script src="${app.url.replace(/\/$/, '')}/pipescope-player.js"></script>
<pipescope-player src="${src}"></pipescope-player>`);
    } else if (url.pathname === '/element-no-workers.html') {
      // A host whose policy allows the player's script but no worker at all: the element decodes on the page.
      const policy = `default-src 'none'; script-src ${new URL(app.url).origin}; connect-src 'self'; worker-src 'none'`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy }).end(`<!doctype html><meta charset="utf-8"><title>Element</title>
<script src="${app.url.replace(/\/$/, '')}/pipescope-player.js"></script>
<pipescope-player src="/files/${GOOD}"></pipescope-player>`);
    } else if (url.pathname === `/files/${GOOD}`) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(join(FIXTURES, GOOD)));
    } else if (url.pathname === '/frame.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8"><title>Framer</title>
<iframe name="embed" src="${url.searchParams.get('src') ?? ''}" style="width:900px;height:500px"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => { if (event.data && event.data.source === 'pipescope') window.received.push(event.data); });
  window.send = (message) => document.querySelector('iframe').contentWindow.postMessage({ source: 'pipescope', version: 1, ...message }, '*');
</script>`);
    } else if (url.pathname.startsWith('/files/') && corpus.some((f) => f.name === url.pathname.slice('/files/'.length))) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(corpus.find((f) => f.name === url.pathname.slice('/files/'.length))!.bytes);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((resolve) => host?.close(resolve));
  rmSync(FOLDER, { recursive: true, force: true });
});

const url = (path: string) => new URL(path, app.url).href;

/** The main thread's JS heap in use, from the DevTools protocol (after a collection). */
async function heapUsed(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

/** ms from the file's bytes arriving (the loader's User Timing mark) to now, in the page. */
function msSinceReceived(page: Page): Promise<number> {
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('pipescope:trace-received').at(-1);
    return mark ? performance.now() - mark.startTime : Number.NaN;
  });
}

/** The tab answers: a script runs, a frame is painted and a click lands, each at once. */
async function expectResponsive(page: Page, click: () => Promise<void>): Promise<void> {
  const started = Date.now();
  expect(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(6 * 7))))).toBe(42);
  await click();
  expect(Date.now() - started).toBeLessThan(1000);
}

async function withPage<T>(action: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  try {
    return await action(page);
  } finally {
    await context.close();
  }
}

describe('hostile trace files', () => {
  it('the app (?trace= and Open trace…) refuses each with the limit, within 2 s, and stays responsive', async () => {
    for (const file of corpus) {
      await withPage(async (page) => {
        await page.goto(url(`/?trace=/e2e-hostile/${file.name}`));
        const message = page.locator('.message-error');
        await expect.poll(() => message.innerText(), { timeout: 10_000 }).toMatch(REFUSAL[file.name]!);
        expect(await message.innerText()).toContain(`Could not load the trace at /e2e-hostile/${file.name}: `);
        expect(await msSinceReceived(page), file.name).toBeLessThan(2000);
        expect(await heapUsed(page), file.name).toBeLessThan(MAX_HEAP_BYTES);
        const dismiss = async () => {
          await page.locator('.message-error button').click();
          await expect.poll(() => message.count(), { timeout: 1000 }).toBe(0);
        };
        await expectResponsive(page, dismiss);

        // The same file picked with Open trace….
        await page.setInputFiles('[data-testid=import]', { name: file.name, mimeType: 'application/octet-stream', buffer: file.bytes });
        await expect.poll(() => message.innerText(), { timeout: 10_000 }).toMatch(new RegExp(`^${file.name.replace(/\./g, '\\.')}: .*${REFUSAL[file.name]!.source}`));
        expect(await msSinceReceived(page), file.name).toBeLessThan(2000);
        expect(await heapUsed(page), file.name).toBeLessThan(MAX_HEAP_BYTES);
        await expectResponsive(page, dismiss);
      });
    }
  }, 180_000);

  it('the embed page refuses each, tells its host page only that the load failed, and stays responsive', async () => {
    for (const file of corpus) {
      await withPage(async (page) => {
        const embed = url(`/embed/?trace=../e2e-hostile/${file.name}`);
        await page.goto(`${hostUrl}/frame.html?src=${encodeURIComponent(embed)}`);
        const frame = page.frame({ name: 'embed' })!;
        const error = frame.locator('[data-testid=player-error]');
        await expect.poll(() => error.innerText(), { timeout: 10_000 }).toMatch(REFUSAL[file.name]!);
        const framePage = frame;
        expect(await framePage.evaluate(() => {
          const mark = performance.getEntriesByName('pipescope:trace-received').at(-1);
          return mark ? performance.now() - mark.startTime : Number.NaN;
        }), file.name).toBeLessThan(2000);
        const errors = await page.evaluate(() => (window as unknown as { received: { type: string; message?: string }[] }).received.filter((m) => m.type === 'error'));
        expect(errors.map((m) => m.message)).toEqual([`Could not load the trace at ../e2e-hostile/${file.name}.`]);
        expect(await heapUsed(page)).toBeLessThan(MAX_HEAP_BYTES);
        await expectResponsive(page, async () => {
          expect(await frame.evaluate(() => document.title.length >= 0)).toBe(true);
          await page.mouse.click(5, 5);
        });
      });
    }
  }, 180_000);

  it('<pipescope-player> on another site refuses each, and the page stays responsive', async () => {
    for (const file of corpus) {
      await withPage(async (page) => {
        await page.goto(`${hostUrl}/element.html?file=${encodeURIComponent(file.name)}`);
        const error = page.locator('pipescope-player [data-testid=player-error]');
        await expect.poll(() => error.innerText(), { timeout: 10_000 }).toMatch(REFUSAL[file.name]!);
        expect(await page.locator('pipescope-player').getAttribute('data-state')).toBe('error');
        expect(await msSinceReceived(page), file.name).toBeLessThan(2000);
        expect(await heapUsed(page), file.name).toBeLessThan(MAX_HEAP_BYTES);
        await expectResponsive(page, async () => {
          await page.locator('#poke').click();
          expect(await page.locator('#poke').getAttribute('data-clicked')).toBe('yes');
        });
      });
    }
  }, 180_000);
});

describe('where files are decoded', () => {
  const workerScript = () => `${new URL(app.url).origin}/pipescope-decode-worker.js`;

  it('the embed page starts the decode worker from its own file on its origin (its CSP allows no blob:)', async () => {
    await withPage(async (page) => {
      const started = page.waitForEvent('worker');
      await page.goto(url(`/embed/?trace=../e2e-hostile/${GOOD}`));
      const worker = await started;
      expect(worker.url()).toMatch(new RegExp(`^${new URL(app.url).origin}/assets/trace-decode-worker-[\\w-]+\\.js$`));
      await page.locator('[data-testid=request-arrow]').first().waitFor({ state: 'attached', timeout: 10_000 });
      expect(await page.evaluate(() => Symbol.for('pipescope.decodeBody') in globalThis)).toBe(false);
    });
  }, 60_000);

  it('<pipescope-player> on another site, in a worker: a blob: one that imports pipescope-decode-worker.js from beside the player', async () => {
    await withPage(async (page) => {
      const requested: string[] = [];
      page.context().on('request', (request) => requested.push(request.url()));
      const started = page.waitForEvent('worker');
      await page.goto(`${hostUrl}/element.html?file=${GOOD}`);
      const worker = await started;
      expect(worker.url()).toMatch(new RegExp(`^blob:${hostUrl}/`));
      await expect.poll(() => page.locator('pipescope-player').getAttribute('data-state'), { timeout: 10_000 }).toBe('ready');
      // The worker holds the decoder (it listens for files); the page never loaded it as a script.
      expect(await worker.evaluate(() => typeof (self as unknown as { onmessage: unknown }).onmessage)).toBe('function');
      expect(await page.evaluate(() => Symbol.for('pipescope.decodeBody') in globalThis)).toBe(false);
      expect(requested).toContain(workerScript());
    });
  }, 60_000);

  it('<pipescope-player> on another site, on the page where the host allows no worker, loading the decoder as a script beside the player', async () => {
    await withPage(async (page) => {
      const workers: string[] = [];
      page.on('worker', (worker) => workers.push(worker.url()));
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${hostUrl}/element-no-workers.html`);
      await expect.poll(() => page.locator('pipescope-player').getAttribute('data-state'), { timeout: 10_000 }).toBe('ready');
      expect(workers).toEqual([]);
      expect(await page.evaluate(() => Symbol.for('pipescope.decodeBody') in globalThis)).toBe(true);
      expect(requested).toContain(workerScript());
    });
  }, 60_000);
});

describe('the embed tells its host nothing of a response', () => {
  it('a load-trace that fails is reported without status or content; only URLs ?trace= could name are loaded', async () => {
    await withPage(async (page) => {
      const embed = url(`/embed/?trace=../e2e-hostile/${GOOD}`);
      await page.goto(`${hostUrl}/frame.html?src=${encodeURIComponent(embed)}`);
      const received = () => page.evaluate(() => (window as unknown as { received: { type: string; message?: string }[] }).received);
      await expect.poll(async () => (await received()).some((m) => m.type === 'ready'), { timeout: 10_000 }).toBe(true);
      const send = (message: object) => page.evaluate((m) => (window as unknown as { send: (m: object) => void }).send(m), message);
      const errorsAfter = async (count: number) => {
        await expect.poll(async () => (await received()).filter((m) => m.type === 'error').length, { timeout: 10_000 }).toBe(count);
        return (await received()).filter((m) => m.type === 'error').map((m) => m.message);
      };

      // One at a time: a load-trace replaces the one before it, whose outcome is then not reported.
      await send({ type: 'load-trace', url: '/e2e-hostile/secret.txt' });
      await errorsAfter(1);
      await send({ type: 'load-trace', url: '/e2e-hostile/no-such-file.json' });
      await errorsAfter(2);
      await send({ type: 'load-trace', url: 'data:application/json,{}' });
      const errors = await errorsAfter(3);
      expect(errors).toEqual([
        'Could not load the trace at /e2e-hostile/secret.txt.',
        'Could not load the trace at /e2e-hostile/no-such-file.json.',
        'load-trace takes http: or https: URLs (or URLs relative to the embed), as ?trace= does; not "data:application/json,{}".',
      ]);
      const everything = JSON.stringify(await received());
      expect(everything).not.toContain('TOP-SECRET');
      expect(everything).not.toMatch(/HTTP \d{3}|Not Found|not valid JSON|at character/);
      // The player itself, inside the frame (which the host cannot read), says what happened.
      const frame = page.frame({ name: 'embed' })!;
      await expect.poll(() => frame.locator('[data-testid=player-error]').innerText()).toMatch(/HTTP 404 Not Found/);
    });
  }, 60_000);
});
