// The Export menu in the built app, on recorded fixtures (e2e/fixtures/): a keyboard-usable menu whose
// downloads match their goldens — the diagram as a standalone SVG (text, e2e/goldens/*.svg) and as a PNG
// at 2× (pixels, e2e/goldens/*.png, twice the SVG's size), the per-command table as CSV, the run as
// Mermaid and as a text flow (the same text as the CLI's, trace/export/__goldens__/) — and the depth sweep as
// redis-benchmark CSV. A trace exported, opened again (Open trace…) and exported once more is
// byte-identical. The SVG is also drawn on a page of its own and screenshotted (artifacts) to be looked at.
// A compare exports as one file (a bundle of its runs), which opens again as the same compare.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { expect, it } from 'vitest';
import { useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';
import { expectMatchesGoldenImage, goldenFiles } from './golden-image.ts';
import { GOLDENS, GOLDEN_ARTIFACTS, openFixtures } from './golden-page.ts';
import { TRACE_GOLDENS, expectGoldenText } from '../trace/test-support/text-golden.ts';

const ctx = useAppInBrowser();

/** Opens the Export menu and saves one format; the download's suggested name and bytes. */
async function exportAs(page: Page, format: string): Promise<{ name: string; bytes: Buffer }> {
  await waitForIdleRender(page);
  await page.click('[data-testid=export]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=export-${format}]`)]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

const traceGolden = (name: string) => readFileSync(join(TRACE_GOLDENS, name), 'utf8');

it('opens the Export menu from the keyboard, moves through it and closes on Escape', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-pipeline.json']);
  try {
    const button = page.locator('[data-testid=export]');
    await page.locator('[data-testid=run-panel][data-mode=pipeline]').waitFor();
    expect(await button.getAttribute('aria-haspopup')).toBe('menu');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('[role=menu]').waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    expect(await focused()).toBe('Trace (JSON)');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('SVG');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Text flow');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Trace (JSON)');
    expect(await page.locator('[role=menuitem]').allInnerTexts()).toEqual(['Trace (JSON)', 'SVG', 'PNG 2×', 'CSV (per-command table)', 'Mermaid', 'Text flow']);
    await page.keyboard.press('Escape');
    await page.locator('[role=menu]').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('export');
  } finally {
    await page.context().close();
  }
});

it('exports a recorded pipeline as SVG, PNG 2×, CSV, Mermaid and text flow, as in their goldens', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-pipeline.json']);
  try {
    await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=request-arrow]').first().waitFor({ state: 'attached' });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));

    const svg = await exportAs(page, 'svg');
    expect(svg.name).toBe('pipescope-pipeline-incr-10-mwt9dlrq-b0113f71.svg');
    const svgText = svg.bytes.toString('utf8');
    expect(svgText).not.toMatch(/var\(--|class="|https?:\/\/(?!www\.w3\.org)/); // colours resolved, no stylesheet hooks, nothing fetched
    expect(svgText).toContain('<title id="pipescope-title">Pipescope sequence diagram: Pipeline · 10 × INCR · 3.7 ms</title>');
    expectGoldenText(svgText, 'export-incr-10-pipeline.svg', GOLDENS);
    const [width, height] = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svgText)!.slice(1).map(Number) as [number, number];

    const png = await exportAs(page, 'png');
    expect(png.name).toBe('pipescope-pipeline-incr-10-mwt9dlrq-b0113f71.png');
    const image = PNG.sync.read(png.bytes);
    expect([image.width, image.height]).toEqual([2 * width, 2 * height]);
    expectMatchesGoldenImage(png.bytes, goldenFiles(GOLDENS, GOLDEN_ARTIFACTS, 'export-incr-10-pipeline-2x'));

    const csv = await exportAs(page, 'csv');
    expect(csv.name).toBe('pipescope-pipeline-incr-10-mwt9dlrq-b0113f71.csv');
    expectGoldenText(csv.bytes.toString('utf8'), 'export-incr-10-pipeline.csv', GOLDENS);

    const mermaid = await exportAs(page, 'mermaid');
    expect(mermaid.name).toBe('pipescope-pipeline-incr-10-mwt9dlrq-b0113f71.mmd');
    expect(mermaid.bytes.toString('utf8')).toBe(traceGolden('incr-10-pipeline.mmd'));
    const flow = await exportAs(page, 'flow');
    expect(flow.name).toBe('pipescope-pipeline-incr-10-mwt9dlrq-b0113f71.flow.txt');
    expect(flow.bytes.toString('utf8')).toBe(traceGolden('incr-10-pipeline.flow.txt'));

  } finally {
    await page.context().close();
  }
});

it('exports a comparison as one SVG with every panel', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-sequential.json', 'incr-10-pipeline.json']);
  try {
    await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=request-arrow]').first().waitFor({ state: 'attached' });
    await page.locator('[data-testid=run-panel][data-mode=sequential] [data-testid=request-arrow]').first().waitFor({ state: 'attached' });
    const svg = await exportAs(page, 'svg');
    expect(svg.name).toBe('pipescope-compare-sequential-pipeline-incr-10-mwt9djyu-fa1f64cd.svg');
    const text = svg.bytes.toString('utf8');
    expect(text).toContain('Pipescope sequence diagram: Sequential · 10 × INCR · 6.15 ms vs Pipeline · 10 × INCR · 3.7 ms');
    expect(text.match(/<svg /g)).toHaveLength(3); // the file and one per panel
    expect(new Set(text.match(/id="[^"]+"/g)).size).toBe(text.match(/id="[^"]+"/g)!.length); // ids unique across panels
  } finally {
    await page.context().close();
  }
});

it('exports a trace, opens it again and exports the same bytes', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['incr-10-pipeline-server-trace.json']);
  try {
    await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=server-exec]').first().waitFor();
    const first = await exportAs(page, 'trace');
    expect(first.name).toMatch(/^pipescope-pipeline-incr-10-.+\.json$/);
    await page.setInputFiles('[data-testid=import]', { name: first.name, mimeType: 'application/json', buffer: first.bytes });
    await expect.poll(() => page.locator('.results .source-tag').innerText()).toBe('opened from file');
    await page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=server-exec]').first().waitFor();
    const second = await exportAs(page, 'trace');
    expect(second.name).toBe(first.name);
    expect(second.bytes.equals(first.bytes)).toBe(true);
  } finally {
    await page.context().close();
  }
});

it('exports the recorded depth sweep as CSV in redis-benchmark columns', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['sweep-ping-1-64.json']);
  try {
    await page.locator('[data-testid=sweep-chart][data-state=done]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=sweep-export-csv]')]);
    expect(download.suggestedFilename()).toMatch(/^pipescope-sweep-ping-1-64-.+-redis-benchmark\.csv$/);
    expect(readFileSync((await download.path())!, 'utf8')).toBe(traceGolden('sweep-ping-1-64.csv'));
  } finally {
    await page.context().close();
  }
});

it('exports a dense run (canvas mode) in the dark theme with the canvas bands as pixels inside the SVG', async () => {
  const page = await openFixtures(ctx.browser, ctx.app.url, ['ping-2000-pipeline.json'], { theme: 'dark' });
  try {
    await page.locator('[data-testid=run-panel][data-render=canvas]').waitFor();
    const svg = await exportAs(page, 'svg');
    const text = svg.bytes.toString('utf8');
    const [width, height] = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(text)!.slice(1).map(Number) as [number, number];
    // The bands, repainted at 2× for sharpness: one PNG data URL, sized to the diagram.
    const image = /<image x="0" y="0" width="(\d+)" height="(\d+)" preserveAspectRatio="none" href="data:image\/png;base64,([^"]+)"/.exec(text);
    expect(image).not.toBeNull();
    const bands = PNG.sync.read(Buffer.from(image![3]!, 'base64'));
    expect([bands.width, bands.height]).toEqual([2 * Number(image![1]), 2 * Number(image![2])]);
    // Dark theme colours, resolved: app.css's dark --paper behind everything, its --request on the bands' side.
    expect(text).toContain('<rect width="' + width + '" height="' + height + '" fill="#181d24"/>');
    const png = await exportAs(page, 'png');
    const picture = PNG.sync.read(png.bytes);
    expect([picture.width, picture.height]).toEqual([2 * width, 2 * height]);
  } finally {
    await page.context().close();
  }
});

it('exports a compare as one file that opens again as the same compare: same runs, same order, same figures', async () => {
  const files = ['sequential', 'pipeline'].flatMap((mode) => [0, 1, 2, 3, 4].map((k) => `incr-10-repeats/incr-10-${mode}-r${k}.json`));
  const page = await openFixtures(ctx.browser, ctx.app.url, files);
  const again = await openFixtures(ctx.browser, ctx.app.url, []);
  try {
    await expect.poll(() => page.locator('[data-testid=run-panel][data-render=svg]').count()).toBe(2);
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    const saved = await exportAs(page, 'trace');
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second download would have started by now
    expect(downloads).toEqual([saved.name]);
    expect(saved.name).toMatch(/^pipescope-compare-sequential-pipeline-incr-10-.+\.json$/);
    const bundle = JSON.parse(saved.bytes.toString('utf8'));
    expect(bundle).toMatchObject({ format: 'pipescope-traces', version: 1 });
    expect(bundle.traces).toHaveLength(10);

    await again.setInputFiles('[data-testid=import]', { name: saved.name, mimeType: 'application/json', buffer: saved.bytes });
    await expect.poll(() => again.locator('[data-testid=run-panel][data-render=svg]').count(), { timeout: 15_000 }).toBe(2);
    await waitForIdleRender(again);
    await waitForIdleRender(page);
    const panels = (p: Page) => p.locator('[data-testid=run-panel]').evaluateAll((els) => els.map((e) => e.getAttribute('data-mode')));
    expect(await panels(again)).toEqual(await panels(page));
    expect(await again.locator('[data-testid=compare-table]').innerText()).toBe(await page.locator('[data-testid=compare-table]').innerText());
    const summaries = (p: Page) => p.locator('[data-testid=run-panel] [data-testid=summary]').allInnerTexts();
    expect(await summaries(again)).toEqual(await summaries(page));
    // Exported again from there: the same bytes.
    expect((await exportAs(again, 'trace')).bytes.equals(saved.bytes)).toBe(true);
  } finally {
    await again.context().close();
    await page.context().close();
  }
});
