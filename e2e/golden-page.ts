// Deterministic pages for golden screenshots. Recorded traces from e2e/fixtures/ are opened the way an
// embed opens them, by ?trace= links (a Playwright route serves them, so nothing is written into
// dist/web), in a browser context of its own with a fixed viewport, scale, locale and time zone (the
// panels print each run's start with toLocaleString). A test stylesheet pins the fonts, turns off
// transitions and the caret, hides scrollbars, the connection pill and the banner (they depend on the
// live backend). One element is then screenshotted and compared with e2e/goldens/<name>.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { ARTIFACTS, ROOT } from './app-process.ts';
import { VIEWPORT, quietFirstVisit, waitForIdleRender } from './browser.ts';
import { expectMatchesGoldenImage, goldenFiles } from './golden-image.ts';

export const FIXTURES = join(ROOT, 'e2e', 'fixtures');
/** Committed; updated only with UPDATE_GOLDENS=1. */
export const GOLDENS = join(ROOT, 'e2e', 'goldens');
/** Where a mismatch leaves <name>-changed.png and <name>-diff.png (git-ignored). */
export const GOLDEN_ARTIFACTS = join(ARTIFACTS, 'goldens');

/**
 * The app asks for system-ui and ui-monospace, which each machine's fontconfig answers its own way.
 * DejaVu is what Debian's fontconfig answers here, and fonts-dejavu-core comes with Debian's chromium
 * (chromium → libfontconfig1 → fontconfig-config → fonts-dejavu-core, its first choice), so naming it
 * keeps the goldens looking like the pictures in docs/ (npm run docs:screenshots) and like every other
 * machine with that package.
 */
export const PINNED_FONTS = { sans: 'DejaVu Sans', mono: 'DejaVu Sans Mono' } as const;

const TEST_STYLESHEET = `
:root {
  --sans: '${PINNED_FONTS.sans}' !important;
  --mono: '${PINNED_FONTS.mono}' !important;
}
*, *::before, *::after {
  transition: none !important;
  animation: none !important;
  caret-color: transparent !important;
}
html { scrollbar-width: none; }
.connection-pill, [data-testid=banner] { visibility: hidden !important; }
`;

/** URL path the fixtures are served under (by route, in this context only). */
const FIXTURE_PATH = '/e2e-fixtures/';

/** The colour scheme the page's system reports (prefers-color-scheme); the app's theme follows it. */
export type GoldenTheme = 'light' | 'dark';

export interface FixtureOptions {
  /** Default 'light'. The theme toggle stays on Auto, so the app follows this, as it follows a user's system. */
  theme?: GoldenTheme;
  /** Appended to the page's URL (e.g. '#view=gallery'). */
  hash?: string;
  /** 'reduce' by default (still screenshots); 'no-preference' to watch playback move. */
  reducedMotion?: 'reduce' | 'no-preference';
}

/** The app's URL that opens the given fixture files (names in e2e/fixtures/) as ?trace= links. */
export function fixturesUrl(appUrl: string, fixtures: string[]): string {
  return new URL(`/?${fixtures.map((f) => `trace=${FIXTURE_PATH}${f}`).join('&')}`, appUrl).href;
}

/**
 * A new context and page showing the given fixture files (names in e2e/fixtures/), as ?trace= links,
 * under the given system colour scheme.
 */
export function openFixtures(browser: Browser, appUrl: string, fixtures: string[], options: FixtureOptions = {}): Promise<Page> {
  return openFixturesAt(browser, `${fixturesUrl(appUrl, fixtures)}${options.hash ?? ''}`, fixtures, options);
}

/** Like openFixtures, at a URL of one's own (a copied link: ?trace= links and a hash) that may name only these fixtures. */
export async function openFixturesAt(browser: Browser, url: string, fixtures: string[], options: FixtureOptions = {}): Promise<Page> {
  const theme = options.theme ?? 'light';
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    locale: 'en-US',
    timezoneId: 'UTC',
    colorScheme: theme,
    reducedMotion: options.reducedMotion ?? 'reduce',
    // The app's CSP allows no inline style; the test stylesheet below is the test's, not the app's.
    bypassCSP: true,
  });
  // A page opened with no trace (the offline tour) shows no first-visit recording of its own: the picture is the test's.
  await quietFirstVisit(context);
  await context.addInitScript((css: string) => {
    const add = () => {
      const style = document.createElement('style');
      style.dataset['golden'] = 'test stylesheet';
      style.textContent = css;
      document.head.append(style);
    };
    if (document.head) add();
    else document.addEventListener('DOMContentLoaded', add, { once: true });
  }, TEST_STYLESHEET);
  // A predicate, not a glob: the page's own URL names the fixtures in its query string.
  await context.route(
    (url) => url.pathname.startsWith(FIXTURE_PATH),
    (route) => {
      const name = new URL(route.request().url()).pathname.slice(FIXTURE_PATH.length);
      if (!fixtures.includes(name)) return route.fulfill({ status: 404 });
      return route.fulfill({ contentType: 'application/json', body: readFileSync(join(FIXTURES, name)) });
    },
  );
  const page = await context.newPage();
  await page.goto(url);
  await expectPinnedFonts(page);
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  if (!font.includes(PINNED_FONTS.sans)) throw new Error(`The golden test stylesheet did not apply: the page's font is ${font}`);
  return page;
}

/**
 * Fails clearly when a pinned font is missing (else Chromium would fall back silently, and every golden
 * would differ): a missing family measures like its fallback under both fallbacks.
 */
async function expectPinnedFonts(page: Page): Promise<void> {
  const missing = await page.evaluate((families: string[]) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const width = (font: string) => {
      ctx.font = `32px ${font}`;
      return ctx.measureText('Pipescope 0123456789 ×→ mmmmiiii').width;
    };
    return families.filter((f) => ['serif', 'monospace'].every((fallback) => width(`'${f}', ${fallback}`) === width(fallback)));
  }, Object.values(PINNED_FONTS));
  if (missing.length > 0) {
    throw new Error(`Golden screenshots need the font${missing.length > 1 ? 's' : ''} ${missing.join(' and ')} (Debian: fonts-dejavu-core); Chromium here does not have them.`);
  }
}

/**
 * Waits until the page has settled (fonts loaded, no repaint pending, two more frames), screenshots
 * `element` and compares it with e2e/goldens/<name>.png (golden-image.ts).
 */
export async function expectGoldenScreenshot(element: Locator, name: string): Promise<void> {
  const page = element.page();
  await element.waitFor();
  await settle(page);
  const png = await element.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
  expectMatchesGoldenImage(png, goldenFiles(GOLDENS, GOLDEN_ARTIFACTS, name));
}

/**
 * Like expectGoldenScreenshot, of what the viewport shows (not the full page): the first screen as a
 * visitor sees it, scrolled where the page is.
 */
export async function expectGoldenViewport(page: Page, name: string): Promise<void> {
  await settle(page);
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
  expectMatchesGoldenImage(png, goldenFiles(GOLDENS, GOLDEN_ARTIFACTS, name));
}

/** Fonts loaded, no repaint pending, two more frames. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await waitForIdleRender(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
