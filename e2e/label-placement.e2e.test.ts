// No two labels of a drawn diagram overlap, in Chromium with the pinned fonts, where the layout's estimate
// cannot vouch for it: the boxes the browser really drew (lane heads and notes, arrow labels, bundle badges,
// the client and Redis lanes' labels) for the dense recordings — the static site's 300 GETs in chunks of
// 30 beside their pipeline, the batching modes with MONITOR, an error inside MULTI, the cluster runs (node
// heads, request labels, the slot strip's ranges and caption, the dense run's key under it; a resharding
// run's crowded ASK and MOVED labels with their ASKINGs) — in the app at
// 1440, 1280, 390 and 360 px and in the embed at 900 and 390 px. Also the chunks trace's Export → SVG,
// compared with its golden text.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { GOLDENS, PINNED_FONTS, openFixturesAt } from './golden-page.ts';
import { expectGoldenText } from '../trace/test-support/text-golden.ts';
import { readFileSync } from 'node:fs';

const ctx = useAppInBrowser();

/** The static site's recordings, served by the app from dist/web/traces/. */
const CHUNKS = '/traces/get-300-chunked-memory.json.gz';
const PIPELINE = '/traces/get-300-pipeline-memory.json.gz';
/** Golden fixtures (e2e/fixtures/), served by the test's route. */
const FOUR_MODES = ['four-pipeline-r0.json', 'four-multi-r0.json', 'four-eval-r0.json', 'four-evalsha-r0.json'].map((f) => `modes-incr-10/${f}`);
const ERRORS = ['error-at-4-multi-r0.json', 'execabort-at-4-multi-r0.json'].map((f) => `modes-incr-10/${f}`);
/** The static site's recordings on a private 3-master cluster. */
const CLUSTER = ['sequential', 'pipeline'].map((m) => `/traces/cluster-set-30-${m}.json.gz`).concat('/traces/cluster-set-1000-pipeline.json.gz');

interface DrawnLabel {
  diagram: number;
  what: string;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Every label box drawn in every diagram on the page (client px), empty ones left out. */
function drawnLabels(page: Page): Promise<DrawnLabel[]> {
  return page.evaluate(() => {
    const out: DrawnLabel[] = [];
    const selectors = [
      '.heads text', 'text.arrow-label', 'g.bundle rect.badge-bg', 'g.mark text', 'g.syscall-mark text',
      // A cluster run's own (cluster-svg-painter.ts).
      '.node-head text', '.slot-strip text', 'text.redirect-label', 'text.asking-label', '.node-refusal text', '.client-refusal text',
    ];
    const roots = [document, ...Array.from(document.querySelectorAll('pipescope-player')).map((p) => p.shadowRoot).filter((r) => r !== null)];
    let diagram = 0;
    for (const root of roots) {
      for (const svg of Array.from(root.querySelectorAll('svg.diagram-svg'))) {
        for (const selector of selectors) {
          for (const el of Array.from(svg.querySelectorAll(selector))) {
            const text = el.localName === 'rect' ? (el.parentElement?.querySelector('text')?.textContent ?? '') : (el.firstChild?.textContent ?? '');
            const r = el.getBoundingClientRect();
            if (text === '' || r.width === 0) continue;
            out.push({ diagram, what: selector, text, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom });
          }
        }
        diagram++;
      }
    }
    return out;
  });
}

/** Pairs of labels of one diagram whose drawn boxes overlap by more than a rounding error (0.5 px each way). */
function overlapping(labels: DrawnLabel[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i]!;
      const b = labels[j]!;
      if (a.diagram !== b.diagram) continue;
      if (a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5) out.push(`“${a.text}” (${a.what}) × “${b.text}” (${b.what})`);
    }
  }
  return out;
}

async function openApp(traces: string[], fixtures: string[], width: number): Promise<Page> {
  const url = `${ctx.app.url.replace(/\/$/, '')}/?${[...traces, ...fixtures.map((f) => `/e2e-fixtures/${f}`)].map((t) => `trace=${encodeURIComponent(t)}`).join('&')}`;
  const page = await openFixturesAt(ctx.browser, url, fixtures);
  await page.setViewportSize({ width, height: 900 });
  await page.locator('svg.diagram-svg .heads text').first().waitFor();
  await waitForIdleRender(page);
  return page;
}

describe('labels never overlap as drawn', () => {
  const cases = [
    { name: 'the chunks trace beside its pipeline', traces: [CHUNKS, PIPELINE], fixtures: [] },
    { name: 'the four batching modes with MONITOR', traces: [], fixtures: FOUR_MODES },
    { name: 'errors inside MULTI', traces: [], fixtures: ERRORS },
    { name: 'the cluster runs (30 SET both ways, 1,000 piped)', traces: CLUSTER, fixtures: [] },
    { name: 'a resharding run (150 GET: 44 ASK, then a MOVED)', traces: ['/traces/cluster-get-150-reshard.json.gz'], fixtures: [] },
  ];
  for (const c of cases) {
    it(`in the app, ${c.name}, at 1440, 1280, 390 and 360 px`, async () => {
      for (const width of [1440, 1280, 390, 360]) {
        const page = await openApp(c.traces, c.fixtures, width);
        try {
          const labels = await drawnLabels(page);
          expect(labels.length, `labels drawn at ${width} px`).toBeGreaterThan(10);
          expect(overlapping(labels), `at ${width} px`).toEqual([]);
        } finally {
          await page.context().close();
        }
      }
    });
  }

  it('in the embed, the chunks trace at 900 and 390 px', async () => {
    for (const width of [900, 390]) {
      const context = await ctx.browser.newContext({ viewport: { width: width + 100, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce' });
      try {
        const page = await context.newPage();
        await page.goto(`${ctx.app.url.replace(/\/$/, '')}/embed/?trace=${encodeURIComponent(CHUNKS)}`);
        const player = page.locator('pipescope-player');
        await expect.poll(() => player.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
        // Pinned fonts inside the player's shadow root (the page's stylesheets do not reach it), as the embed goldens do;
        // then the width asked for, which repaints (and places the labels again) in those fonts.
        await player.evaluate((el, fonts) => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(`.pipescope-theme { --sans: '${fonts.sans}' !important; --mono: '${fonts.mono}' !important; }`);
          el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, sheet];
        }, PINNED_FONTS);
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => player.getAttribute('data-render-pending'), { timeout: 15_000 }).toBe('false');
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const labels = await drawnLabels(page);
        expect(labels.some((l) => l.text.startsWith('×30')), `badges at ${width} px`).toBe(true);
        expect(overlapping(labels), `at ${width} px`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('the chunks trace exported', () => {
  it('as SVG, as in its golden: the labels the page placed, badges over the arrows', async () => {
    const page = await openApp([CHUNKS], [], 1440);
    try {
      await page.click('[data-testid=export]');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-svg]')]);
      const svg = readFileSync((await download.path())!, 'utf8');
      expect(svg).toContain('×30 in 1 write');
      expectGoldenText(svg, 'export-get-300-chunked-30.svg', GOLDENS);
    } finally {
      await page.context().close();
    }
  });
});
