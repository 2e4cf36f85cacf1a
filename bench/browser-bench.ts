// The front end under a big trace, in headless Chromium (Debian's, as the e2e tests drive it): the time
// from navigation to the first frame with every command of a recorded trace drawn (the app fetching it
// by ?trace=, parsing it, replaying it through the TraceBuilder, laying it out and painting it), and the
// main-thread cost of each frame of a scripted zoom in, pan and zoom out over that diagram. The trace is
// served by the app itself from dist/web, as an embedding page's would be, and removed afterwards. Given
// its served form too (compact, gzipped: trace/format/compact-trace.ts), fresh pages also load that `.json.gz`
// (sent as application/gzip, no Content-Encoding, as a static host sends it: the page gunzips it itself).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { projectRoot } from '../server/support/project-root.ts';
import { newPage } from '../e2e/browser.ts';
import type { Finding } from './bench-report.ts';
import { drawnAtMs, frameCosts, instrumentPage, nextFrame, startFrameTiming, type FrameCost } from './page-probes.ts';
import { spreadOf } from './side-by-side.ts';

export interface RenderBenchOptions {
  /** Fresh pages (new browser contexts, nothing cached) that each load and draw the trace. */
  loads: number;
  /** Wheel steps in, drag steps, wheel steps out, per load. */
  steps: number;
}

/** Where the trace is put for the app to serve, as an embedding docs author would put it next to the app. */
const TRACE_PATH = '/pipescope-bench/trace.json';

export interface BenchTrace {
  /** Plain JSON. */
  text: string;
  /** The served form (gzip of the compact encoding), when it is to be timed too. */
  served?: Uint8Array;
  n: number;
}

export async function renderBench(browser: Browser, appUrl: string, trace: BenchTrace, options: RenderBenchOptions, log: (line: string) => void): Promise<Finding[]> {
  const firstRender: number[] = [];
  const requested: number[] = [];
  const afterFetch: number[] = [];
  const received: number[] = [];
  const verified: number[] = [];
  const frames: FrameCost[] = [];
  const warm: number[] = [];
  const file = join(projectRoot(), 'dist', 'web', ...TRACE_PATH.split('/'));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, trace.text);
  if (trace.served) writeFileSync(`${file}.gz`, trace.served);
  const servedRender: number[] = [];
  try {
    for (let load = 0; load < options.loads; load++) {
      const page = await newPage(browser);
      try {
        await instrumentPage(page, trace.n);
        await page.goto(`${appUrl}?trace=${TRACE_PATH}`);
        const drawn = await drawnAtMs(page);
        const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
        received.push(marks['pipescope:trace-received'] ?? NaN);
        verified.push(marks['pipescope:trace-verified'] ?? NaN);
        const fetch = await page.evaluate(
          (path) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.endsWith(path)),
          TRACE_PATH,
        );
        firstRender.push(drawn);
        requested.push(fetch?.requestStart ?? NaN);
        afterFetch.push(drawn - (fetch?.responseEnd ?? NaN));
        frames.push(...(await panAndZoom(page, trace.n, options.steps)));
        // The same link again in the same browser: a returning visitor, the app's code cached (the trace is not).
        await page.goto(`${appUrl}?trace=${TRACE_PATH}`);
        warm.push(await drawnAtMs(page));
      } finally {
        await page.context().close();
      }
      if (trace.served) servedRender.push(await firstRenderOf(browser, appUrl, `${TRACE_PATH}.gz`, trace.n));
    }
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
  const render = spreadOf(firstRender);
  const total = spreadOf(frames.map((f) => f.totalMs));
  const frameOnly = spreadOf(frames.map((f) => f.frameMs));
  const mb = (trace.text.length / 1024 / 1024).toFixed(1);
  log(`  first complete render of ${trace.n.toLocaleString('en-US')} commands (${mb} MiB of JSON): ${render.median.toFixed(0)} ms [${render.min.toFixed(0)}–${render.max.toFixed(0)}] from navigation; the app asked for the trace at ${spreadOf(requested).median.toFixed(0)} ms and drew it ${spreadOf(afterFetch).median.toFixed(0)} ms after it arrived`);
  const at = (values: number[]) => spreadOf(values).median.toFixed(0);
  log(`    median milestones: trace requested ${at(requested)} ms, its text in the app ${at(received)} ms, parsed and verified ${at(verified)} ms, drawn ${render.median.toFixed(0)} ms`);
  const again = spreadOf(warm);
  log(`  the same link opened again in the same browser (the app's code cached, the trace fetched anew): drawn at ${again.median.toFixed(0)} ms [${again.min.toFixed(0)}–${again.max.toFixed(0)}]`);
  const served = servedRender.length ? spreadOf(servedRender) : null;
  if (served && trace.served) {
    log(`  the same trace as served, ${(trace.served.length / 1024).toFixed(1)} KiB of .json.gz (compact, gzipped): drawn at ${served.median.toFixed(0)} ms [${served.min.toFixed(0)}–${served.max.toFixed(0)}] from navigation`);
  }
  log(`  pan/zoom: ${frames.length} frames, input → frame done ${total.median.toFixed(2)} ms [${total.min.toFixed(2)}–${total.max.toFixed(2)}]; rAF → frame done ${frameOnly.median.toFixed(2)} ms`);
  const servedFinding: Finding[] = served ? [{
    name: `first complete render, the same trace as served (.json.gz)`,
    unit: 'ms',
    spread: served,
    goal: { bound: 'at most', value: 500 },
    how: `${servedRender.length} fresh pages loading ?trace=….json.gz (compact, gzip -9, ${trace.served!.length.toLocaleString('en-US')} B; the page gunzips and decodes it): navigation start → every command drawn`,
  }] : [];
  return [
    {
      name: `first complete render, recorded ${trace.n.toLocaleString('en-US')}-command trace`,
      unit: 'ms',
      spread: render,
      goal: { bound: 'at most', value: 500 },
      how: `${options.loads} fresh pages loading ?trace= in headless Chromium: navigation start → first frame with every command drawn, no repaint pending (in-page clock)`,
    },
    {
      name: 'frame time, scripted pan/zoom of that trace',
      unit: 'ms',
      spread: total,
      goal: { bound: 'at most', value: 16 },
      how: `${frames.length} frames over ${options.loads} pages (${options.steps} wheel steps in, ${options.steps} drag steps, ${options.steps} out): input event → end of that frame's rendering update`,
    },
    ...servedFinding,
  ];
}

/** A fresh page (new context, nothing cached) opening ?trace=<path>: ms from navigation to every command drawn. */
async function firstRenderOf(browser: Browser, appUrl: string, path: string, n: number): Promise<number> {
  const page = await newPage(browser);
  try {
    await instrumentPage(page, n);
    await page.goto(`${appUrl}?trace=${path}`);
    return await drawnAtMs(page);
  } finally {
    await page.context().close();
  }
}

/** Zooms in step by step at the middle of the diagram, drags it down, zooms out; one frame per step. */
async function panAndZoom(page: Page, n: number, steps: number): Promise<FrameCost[]> {
  const diagram = page.locator(`[data-testid=run-panel][data-n="${n}"] .diagram-svg`);
  // The verdict lines above a diagram can push it below the fold: input must land on its visible part.
  await diagram.scrollIntoViewIfNeeded();
  const box = await diagram.boundingBox();
  if (!box) throw new Error('The diagram is not on the page');
  const viewportHeight = page.viewportSize()?.height ?? box.y + box.height;
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height, viewportHeight - box.y) / 2;
  await page.mouse.move(x, y);
  await nextFrame(page);
  await startFrameTiming(page);
  // Ctrl + wheel zooms (a plain wheel scrolls the page); 12 px with Ctrl zooms as 120 px did without it (2^0.24).
  await page.keyboard.down('Control');
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, -12);
    await nextFrame(page);
  }
  await page.keyboard.up('Control');
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x, y + i * 8);
    await nextFrame(page);
  }
  await page.mouse.up();
  await page.keyboard.down('Control');
  for (let i = 0; i < steps; i++) {
    await page.mouse.wheel(0, 12);
    await nextFrame(page);
  }
  await page.keyboard.up('Control');
  return frameCosts(page);
}
