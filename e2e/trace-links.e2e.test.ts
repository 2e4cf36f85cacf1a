// ?trace= links, as docs authors embed them: recorded traces put next to the app (dist/web), named in
// the URL, drawn at once — each downloaded once, by the early fetch in index.html that the app takes
// over — and a link that cannot be loaded says why. A sweep file opens in the sweep view. A compact
// trace gzipped (run.json.gz, trace/format/compact-trace.ts) draws the same, however the host sends it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { executeRun } from '../server/runs/run-executor.ts';
import { executeSweep } from '../server/runs/sweep-executor.ts';
import { usePrivateRedisSession } from '../server/test-support/private-redis-session.ts';
import { SweepSpecSchema } from '../trace/format/sweep-format.ts';
import { serializeSweep } from '../trace/format/sweep-io.ts';
import { serializeTrace } from '../trace/format/trace-io.ts';
import { encodeCompactTrace } from '../trace/format/compact-trace.ts';
import { ROOT } from './app-process.ts';
import { runPanel, useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';

const local = usePrivateRedisSession();
const ctx = useAppInBrowser();
const folder = join(ROOT, 'dist', 'web', 'e2e-traces');

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  const pipeline = await executeRun(local.session, 'pipeline', { command: 'INCR', n: 2000, valueBytes: 0 });
  const sequential = await executeRun(local.session, 'sequential', { command: 'INCR', n: 20, valueBytes: 0 });
  const sweep = await executeSweep(local.session, SweepSpecSchema.parse({ command: 'PING', depths: [1, 8], perPoint: 64, repeats: 1 }));
  writeFileSync(join(folder, 'pipeline.json'), serializeTrace(pipeline));
  writeFileSync(join(folder, 'sequential.json'), serializeTrace(sequential));
  writeFileSync(join(folder, 'sweep.json'), serializeSweep(sweep));
  served = gzipSync(encodeCompactTrace(pipeline), { level: 9 });
  writeFileSync(join(folder, 'pipeline.json.gz'), served);
  writeFileSync(join(folder, 'cut.json.gz'), served.subarray(0, served.length >> 1));
});

/** The pipeline trace as served: compact, gzipped. */
let served: Buffer;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('draws two linked traces side by side, downloading each once', async () => {
  const { page, app } = ctx;
  const fetched: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/e2e-traces/')) fetched.push(pathname);
  });
  await page.goto(`${app.url}?trace=/e2e-traces/pipeline.json&trace=%20/e2e-traces/sequential.json`);
  await runPanel(page, 'pipeline').locator('[data-testid=density-canvas], [data-testid=request-arrow]').first().waitFor();
  await waitForIdleRender(page);
  // Sequential first, as the docs tell it.
  expect(await page.locator('[data-testid=run-panel]').evaluateAll((panels) => panels.map((p) => [p.getAttribute('data-mode'), p.getAttribute('data-commands-drawn')]))).toEqual([
    ['sequential', '20'],
    ['pipeline', '2000'],
  ]);
  expect(await page.locator('.results .source-tag').innerText()).toBe('loaded from URL');
  expect(fetched.sort()).toEqual(['/e2e-traces/pipeline.json', '/e2e-traces/sequential.json']);
  expect(await page.locator('.message').count()).toBe(0);
});

it('says which link failed and why, and draws the rest', async () => {
  const { page, app } = ctx;
  await page.goto(`${app.url}?trace=/e2e-traces/missing.json&trace=/e2e-traces/pipeline.json`);
  // The message line ends with its dismiss button (×).
  await expect.poll(() => page.locator('.message-error').innerText()).toMatch(/^Could not load the trace at \/e2e-traces\/missing\.json: HTTP 404 Not Found\s*×$/);
  expect(await runPanel(page, 'pipeline').getAttribute('data-n')).toBe('2000');
});

it('opens a linked sweep in the sweep view', async () => {
  const { page, app } = ctx;
  await page.goto(`${app.url}?trace=/e2e-traces/sweep.json`);
  await expect.poll(() => page.locator('[data-testid=tab-sweep]').getAttribute('aria-selected')).toBe('true');
  await expect.poll(() => page.locator('.sweep-actions .source-tag').innerText()).toBe('loaded from the URL');
  expect(await page.locator('[data-testid=sweep-chart] [data-testid=sweep-point]').count()).toBe(2);
});

it('draws a compact .json.gz as a static host sends it (application/gzip) and as one that sets Content-Encoding: gzip', async () => {
  const { page, app } = ctx;
  const responses: { path: string; type: string | undefined; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/e2e-traces/')) responses.push({ path: pathname, type: response.headers()['content-type'], encoding: response.headers()['content-encoding'] });
  });
  await page.goto(`${app.url}?trace=/e2e-traces/pipeline.json.gz&trace=/e2e-traces/sequential.json`);
  await expect.poll(() => runPanel(page, 'pipeline').getAttribute('data-commands-drawn'), { timeout: 30_000 }).toBe('2000');
  expect(responses).toEqual(expect.arrayContaining([{ path: '/e2e-traces/pipeline.json.gz', type: 'application/gzip', encoding: undefined }]));
  expect(responses.filter((r) => r.path.endsWith('.gz'))).toHaveLength(1);
  expect(await page.locator('.message').count()).toBe(0);

  // A host that compresses on the fly: the browser inflates it, and the page gets the compact JSON itself.
  // (Matched on the path: a glob would match the page's own URL, whose query ends with the same name.)
  const encoded = (url: URL) => url.pathname === '/e2e-traces/encoded.json';
  await page.route(encoded, (route) => route.fulfill({
    status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: served,
  }));
  await page.goto(`${app.url}?trace=/e2e-traces/encoded.json`);
  await expect.poll(() => runPanel(page, 'pipeline').getAttribute('data-commands-drawn'), { timeout: 30_000 }).toBe('2000');
  expect(await page.locator('.message').count()).toBe(0);
  await page.unroute(encoded);
});

it('says clearly that a .json.gz is damaged', async () => {
  const { page, app } = ctx;
  await page.goto(`${app.url}?trace=/e2e-traces/cut.json.gz`);
  await expect.poll(() => page.locator('.message-error').innerText())
    .toMatch(/^Could not load the trace at \/e2e-traces\/cut\.json\.gz: the file starts like gzip but does not decompress: it is damaged or cut short/);
});
