// Observing the user's own client, from a real redis-py to pixels: the app started with --observe shows
// the address to give the client; redis-py (Debian's python3-redis), run as its own process and pointed
// at that address, appears in the session's list; drawn, its pipeline() shows MULTI … EXEC in one write
// with one round trip, beside pipeline(transaction=False) without them. The preset "What redis-py's
// pipeline() sends" runs the same through the backend. Recorded traces of such a session match a golden.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, newPage, openFresh, pickPreset, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';
import { observeClientPath, PYTHON } from '../server/observe/observe-clients.ts';

const run = promisify(execFile);
let app: AppProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [app, browser] = await Promise.all([startAppProcess(['--observe', '0']), launchBrowser()]);
  page = await newPage(browser);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const panels = () => page.locator('[data-testid=run-panel]');

/** The session's first two connections are drawn by themselves, as they send their commands. */
async function bothDrawn(): Promise<void> {
  const rows = page.locator('[data-testid=observe-connection]');
  await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
  await expect.poll(() => rows.locator('input[type=checkbox]:checked').count()).toBe(2);
  await expect.poll(() => panels().count(), { timeout: 20_000 }).toBe(2);
  await waitForIdleRender(page);
}

describe('observing real redis-py', () => {
  it('the printed address, redis-py pointed at it: pipeline() is MULTI … EXEC in one write and one round trip, transaction=False not', async () => {
    await openFresh(page, `${app.url}#view=observe`);
    const url = await page.locator('[data-testid=observe-url]').innerText();
    expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    // The same address the backend printed at start.
    expect(app.output()).toContain(`point your client or app at ${url}`);
    for (const mode of ['transaction', 'plain']) {
      await run(PYTHON, [observeClientPath('redis-py-pipeline.py'), mode, '10', 'pipescope:observe:e2e'], { env: { ...process.env, PIPESCOPE_REDIS_URL: url } });
    }
    await bothDrawn();
    const [tx, plain] = [panels().nth(0), panels().nth(1)];
    expect(await tx.locator('[data-testid=verdict-transaction]').innerText()).toMatch(/^wrapped in MULTI\/EXEC: 1 transaction; the first wraps 10 commands \(MULTI, 10 × INCRBY, EXEC\), MULTI to EXEC in one chunk/);
    expect(await tx.locator('[data-testid=verdict-trips]').innerText()).toMatch(/^1 round trip/);
    expect(await tx.locator('[data-testid=verdict-wire]').innerText()).toMatch(/^12 commands in 1 chunk from the client/);
    expect(await plain.locator('[data-testid=verdict-transaction]').innerText()).toMatch(/^no MULTI\/EXEC/);
    expect(await plain.locator('[data-testid=verdict-trips]').innerText()).toMatch(/^1 round trip/);
    // The proxy's measured cost is printed on each trace.
    expect(await tx.locator('[data-testid=verdict-hop]').first().innerText()).toMatch(/the observing proxy's hop adds [\d.]+ µs per round trip \[95 %/);
    // The wire view shows the bytes: MULTI first in the transaction's one write.
    const labels = await tx.locator('[data-testid=request-label]').allTextContents();
    expect(labels[0]).toBe('MULTI');
    const firstWrite = page.locator('[data-testid=wire-view] [data-testid=wire-row][data-kind=client-write]').first();
    expect(await firstWrite.innerText()).toContain('*1\\r\\n$5\\r\\nMULTI\\r\\n');
  });

  it('the preset "What redis-py’s pipeline() sends" runs real redis-py through the port and draws both', async () => {
    await openFresh(page, `${app.url}#view=run`);
    await pickPreset(page, 'redis-py');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('view=observe');
    const message = page.locator('[data-testid=observe-client-message]');
    await expect.poll(() => message.count(), { timeout: 30_000 }).toBe(1);
    expect(await message.innerText()).toMatch(/redis-py 4\.3\.4 transaction: 10 commands .* redis-py 4\.3\.4 plain: 10 commands/);
    // The two connections the preset's clients made (the session's third and fourth) are the ones drawn.
    await expect.poll(() => panels().locator('h2').allInnerTexts(), { timeout: 30_000 }).toEqual([
      expect.stringMatching(/connection 3 · 12 commands/), expect.stringMatching(/connection 4 · 10 commands/),
    ]);
    await waitForIdleRender(page);
    expect(await panels().nth(0).locator('[data-testid=verdict-transaction]').innerText()).toMatch(/^wrapped in MULTI\/EXEC/);
    expect(await panels().nth(1).locator('[data-testid=verdict-transaction]').innerText()).toMatch(/^no MULTI\/EXEC/);
  });

  it('the docs’ Ruby benchmark (redis-rb) observed beside Pipescope’s run of the same 10,000 PINGs', async () => {
    await openFresh(page, `${app.url}#view=observe`);
    await page.click('[data-testid=observe-run-redis-rb]');
    // Pipescope's two runs first, then the two Ruby connections.
    await expect.poll(async () => (await panels().locator('.mode-badge').allInnerTexts()).map((b) => b.toLowerCase()), { timeout: 120_000 })
      .toEqual(['sequential', 'pipeline', 'observed · one at a time', 'observed · pipelined']);
    await waitForIdleRender(page);
    expect(await page.locator('[data-testid=observe-client-message]').innerText()).toMatch(/redis-rb 4\.8\.0 without pipelining: 10000 commands .* with pipelining: 10000 commands/);
    // Without pipelined: 10,000 round trips (and redis-rb's own connection set-up), measured at the proxy.
    expect(await panels().nth(2).locator('[data-testid=verdict-trips]').innerText()).toMatch(/^10,00\d round trips: the client waited for each reply/);
  });

  it('recorded: a redis-py session as in its golden', async () => {
    const recorded = await openFixtures(browser, app.url, ['observed-redis-py/redis-py.c1.json', 'observed-redis-py/redis-py.c2.json']);
    try {
      await recorded.locator('[data-testid=run-panel]').nth(1).locator('[data-testid=request-arrow]').first().waitFor();
      await expectGoldenScreenshot(recorded.locator('.results'), 'observed-redis-py-pipeline-vs-plain');
    } finally {
      await recorded.context().close();
    }
  });
});
