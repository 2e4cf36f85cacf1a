// What a cluster run shows, in Chromium: a live run of the raw engine on the backend's private cluster
// (`--cluster`, 3 masters) drawn with a lane per master headed by its address, a lane per socket, an arrow
// per command to the node serving its slot, and the slot strip with a tick per slot the run used; and the
// static site's recordings of such runs (public/traces/, served by the app) as in their goldens, light and
// dark, at 1280 × 720, among them a resharding run: its slot moved during the run, drawn with its ASK
// arcs (and the ASKING each needs) and its MOVED arc, each with Redis's error text, and the legend's key.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from './app-process.ts';
import { launchBrowser, newPage, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixturesAt, type GoldenTheme } from './golden-page.ts';
import { requestDone, runPanel } from './app-in-browser.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseDocument } from '../trace/format/sweep-io.ts';
import { ROOT } from './app-process.ts';
import type { Browser } from 'playwright-core';

/** The static site's recordings on a private 3-master cluster (scripts/record-static-traces.mjs). */
const SEQUENTIAL = '/traces/cluster-set-30-sequential.json.gz';
const PIPELINE = '/traces/cluster-set-30-pipeline.json.gz';
/** 150 GET one at a time while Pipescope moved their slot to another master: ASKs, then one MOVED. */
const RESHARD = '/traces/cluster-get-150-reshard.json.gz';
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

  for (const theme of ['light', 'dark'] as const) {
    it(`a slot moved during 150 GETs: the ASK arcs with ASKING, then the MOVED, with Redis's words, ${theme}, at 1280 × 720, as in its golden`, async () => {
      // The recording itself, read as the app reads it: the redirects it must show.
      const file = parseDocument(gunzipSync(readFileSync(join(ROOT, 'public', RESHARD))).toString('utf8'));
      if (file.kind !== 'trace') throw new Error(`${RESHARD} holds a ${file.kind}, not one trace`);
      const doc = file.doc;
      const { redirects, reshard } = doc.cluster!;
      const asks = redirects.filter((r) => r.kind === 'ASK');
      const moved = redirects.filter((r) => r.kind === 'MOVED');
      expect(asks.length, 'the recording has ASKs').toBeGreaterThan(0);
      expect(moved.length, 'the recording has one MOVED').toBe(1);
      for (const r of redirects) expect(r.error).toBe(`${r.kind} ${reshard!.slot} ${r.to}`);
      const page = await openFixturesAt(browser, `${app.url.replace(/\/$/, '')}/?trace=${encodeURIComponent(RESHARD)}`, [], { theme });
      try {
        await page.setViewportSize(GOLDEN_VIEWPORT);
        const panel = runPanel(page, 'sequential');
        await panel.locator('[data-testid=redirect-arrow]').first().waitFor();
        await waitForIdleRender(page);
        // An arc per redirect, of its kind, in the order they arrived.
        const kinds = await panel.locator('g.redirect').evaluateAll((groups) => groups.map((g) => g.getAttribute('data-kind')));
        expect(kinds).toEqual(redirects.map((r) => r.kind));
        await expect(panel.locator('[data-testid=redirect-arrow]').count()).resolves.toBe(redirects.length);
        // The labels the placement kept: each one a redirect's error text as Redis sent it, or where the
        // ASKs crowd, shortened to its kind and slot; the first ASK's and the MOVED's whole.
        const labels = await panel.locator('g.redirect-label-box').evaluateAll((boxes) => boxes.map((g) => g.querySelector('[data-testid=redirect-label]')?.textContent ?? ''));
        expect(labels).toHaveLength(redirects.length);
        labels.forEach((text, i) => {
          if (text) expect([redirects[i]!.error, `${redirects[i]!.kind} ${reshard!.slot}`], `redirect ${i}: ${text}`).toContain(text);
        });
        expect(labels[0], 'the first ASK').toBe(asks[0]!.error);
        expect(labels[redirects.indexOf(moved[0]!)], 'the MOVED').toBe(moved[0]!.error);
        // The ASKING each ASK needs, marked at the new owner: in words once at least, shortened where they crowd.
        const asking = await panel.locator('[data-testid=asking-label]').allTextContents();
        expect(asking).toContain('ASKING, then the command');
        for (const text of asking) expect(['ASKING, then the command', 'ASKING']).toContain(text);
        await expect(page.locator('[data-testid=legend-redirect]').textContent()).resolves.toContain('redirect');
        await expectGoldenScreenshot(panel.locator('.diagram-host'), `cluster-get-150-reshard-${theme}-1280x720`);
      } finally {
        await page.context().close();
      }
    }, 60_000);
  }
});
