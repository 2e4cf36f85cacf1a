// What a cluster run shows, in Chromium: a live run of the raw engine on the backend's private cluster
// (`--cluster`, 3 masters) drawn with a lane per master headed by its address, a lane per socket, an arrow
// per command to the node serving its slot, and the slot strip with a tick per slot the run used; and the
// static site's recordings of such runs (public/traces/, served by the app) as in their goldens, light and
// dark, at 1280 × 720. The only redirect drawn is a constructed one (no recording has one yet), opened
// as a file, against a golden of its own named so, with the legend's key for it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, newPage, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixturesAt, type GoldenTheme } from './golden-page.ts';
import { requestDone, runPanel } from './app-in-browser.ts';
import { serializeTrace } from '../trace/format/trace-io.ts';
import { redirectedCounter } from '../web/src/test-support/cluster-fixtures.ts';
import type { Browser } from 'playwright-core';

/** The static site's recordings on a private 3-master cluster (scripts/record-static-traces.mjs). */
const SEQUENTIAL = '/traces/cluster-set-30-sequential.json.gz';
const PIPELINE = '/traces/cluster-set-30-pipeline.json.gz';
const GOLDEN_VIEWPORT = { width: 1280, height: 720 };

let app: AppProcess;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startAppProcess(['--cluster']), launchBrowser()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The private cluster's master ports, from the start-up line ("… on 127.0.0.1 ports 32993, 39185, 46579, ready …"). */
function masterPorts(): string[] {
  const match = /Redis Cluster [\d.]+ \(3 masters\) on [\d.]+ ports ([\d, ]+), ready/.exec(app.output());
  if (!match) throw new Error(`no cluster start-up line in: ${app.output()}`);
  return match[1]!.split(', ');
}

/** What one run panel's diagram drew (its SVG's cluster elements). */
function drawn(page: Page, mode: 'sequential' | 'pipeline') {
  return runPanel(page, mode).evaluate((panel) => {
    const all = (selector: string) => Array.from(panel.querySelectorAll(selector));
    return {
      masters: all('[data-testid=node-lifeline]').length,
      heads: all('[data-testid=node-head] .node-title').map((t) => t.textContent),
      sockets: all('[data-testid=socket-lane]').length,
      requests: all('[data-testid=request-arrow]').length,
      replies: all('[data-testid=reply-arrow]').length,
      strip: all('[data-testid=slot-strip]').length,
      ranges: all('.slot-range').map((t) => t.textContent),
      ticks: all('[data-testid=slot-tick]').map((t) => Number(t.getAttribute('data-count'))),
      // Each request arrow ends at the lifeline of the node it went to.
      lifelineXs: all('[data-testid=node-lifeline]').map((l) => Number(l.getAttribute('x1'))),
      arrowEnds: all('[data-testid=request-arrow]').map((a) => Number(a.getAttribute('x2'))),
    };
  });
}

describe('a live cluster run', () => {
  it('the raw engine on the private cluster: a lane per master and per socket, each command to its node, the slot strip', async () => {
    const page = await newPage(browser);
    try {
      await page.goto(`${app.url.replace(/\/$/, '')}/#command=SET&n=30&valueBytes=16&mode=both&engine=raw&repeats=1`);
      await page.getByRole('button', { name: /^Run/ }).first().click();
      await requestDone(page);
      const ports = masterPorts();
      for (const mode of ['sequential', 'pipeline'] as const) {
        await runPanel(page, mode).locator('[data-testid=slot-strip]').waitFor();
        await waitForIdleRender(page);
        const d = await drawn(page, mode);
        expect(d.masters, mode).toBe(3);
        expect(d.heads.map((h) => h!.replace(/^.*:/, '')).sort(), mode).toEqual([...ports].sort());
        expect(d.sockets, mode).toBe(3);
        expect([d.requests, d.replies], mode).toEqual([30, 30]);
        expect(d.strip, mode).toBe(1);
        expect(d.ranges.join(' '), mode).toMatch(/0–5460.*5461–10921.*10922–16383/);
        // 30 keys over 30 slots or fewer, every command counted once.
        expect(d.ticks.reduce((a, b) => a + b, 0), mode).toBe(30);
        for (const x of d.arrowEnds) expect(d.lifelineXs.some((l) => Math.abs(l - x) <= 1), `${mode}: an arrow ending at x ${x}`).toBe(true);
      }
      // The per-node table: three masters, every command on one of them.
      const rows = runPanel(page, 'pipeline').locator('[data-testid=cluster-nodes] tbody tr');
      await expect(rows.count()).resolves.toBe(3);
    } finally {
      await page.context().close();
    }
  }, 90_000);
});

async function openRecorded(theme: GoldenTheme): Promise<Page> {
  const url = `${app.url.replace(/\/$/, '')}/?trace=${encodeURIComponent(SEQUENTIAL)}&trace=${encodeURIComponent(PIPELINE)}`;
  const page = await openFixturesAt(browser, url, [], { theme });
  await page.setViewportSize(GOLDEN_VIEWPORT);
  await runPanel(page, 'pipeline').locator('[data-testid=slot-strip]').waitFor();
  return page;
}

describe('recorded cluster runs', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`30 SET one at a time and in one pipeline on 3 masters, ${theme}, at 1280 × 720, as in their goldens`, async () => {
      const page = await openRecorded(theme);
      try {
        await expectGoldenScreenshot(runPanel(page, 'sequential').locator('.diagram-host'), `cluster-set-30-sequential-${theme}-1280x720`);
        await expectGoldenScreenshot(runPanel(page, 'pipeline').locator('.diagram-host'), `cluster-set-30-pipeline-${theme}-1280x720`);
      } finally {
        await page.context().close();
      }
    }, 60_000);
  }

  it('a constructed MOVED then ASK (no recording has a redirect yet): the arrows with their error text and the ASKING, as in its golden', async () => {
    const doc = redirectedCounter();
    const page = await openFixturesAt(browser, app.url, [], { theme: 'light' });
    try {
      await page.setViewportSize(GOLDEN_VIEWPORT);
      await page.setInputFiles('[data-testid=import]', { name: 'constructed-moved-ask.json', mimeType: 'application/json', buffer: Buffer.from(serializeTrace(doc)) });
      const panel = runPanel(page, 'sequential');
      await panel.locator('[data-testid=redirect-arrow]').first().waitFor();
      await expect(panel.locator('[data-testid=redirect-label]').allTextContents()).resolves.toEqual(doc.cluster!.redirects.map((r) => r.error));
      await expect(panel.locator('[data-testid=asking-label]').textContent()).resolves.toBe('ASKING, then the command');
      await expect(page.locator('[data-testid=legend-redirect]').textContent()).resolves.toContain('redirect');
      await expectGoldenScreenshot(panel.locator('.diagram-host'), 'cluster-constructed-moved-ask-light-1280x720');
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
