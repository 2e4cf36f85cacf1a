// Accessibility of every main screen, in both themes, in the built app (private redis-server) in
// headless Chromium: axe-core reports no serious or critical violation (colour contrast, landmarks,
// names of controls and images), and tabbing through the Runs view, every control that takes the
// focus shows it (an outline or a box-shadow). Screens are opened from recorded fixtures (e2e/fixtures/).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from './app-in-browser.ts';
import { describeFindings, seriousViolations } from './axe-audit.ts';
import { waitForIdleRender } from './browser.ts';
import { openFixtures, type GoldenTheme } from './golden-page.ts';

const ctx = useAppInBrowser();

const SERVER_TRACED = ['incr-10-sequential-server-trace.json', 'incr-10-pipeline-server-trace.json'];
const FOUR_MODES = ['pipeline', 'multi', 'eval', 'evalsha'].map((m) => `modes-incr-10/four-${m}-r0.json`);

interface Screen {
  name: string;
  fixtures: string[];
  hash?: string;
  /** Waits until the screen shows what it is checked with. */
  ready: (page: Page) => Promise<unknown>;
}

const SCREENS: Screen[] = [
  { name: 'the empty Runs view', fixtures: [], ready: (page) => page.locator('[data-testid=run]').waitFor() },
  {
    name: 'the Runs view after a run traced with MONITOR and strace',
    fixtures: SERVER_TRACED,
    ready: (page) => page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=server-exec]').first().waitFor(),
  },
  {
    name: 'the Runs view comparing four modes',
    fixtures: FOUR_MODES,
    ready: (page) => page.locator('[data-testid=run-panel][data-mode=evalsha]').waitFor(),
  },
  {
    name: 'the Runs view with error replies (an INCR failing at operation 5)',
    fixtures: ['modes-incr-10/error-at-4-pipeline-r0.json', 'modes-incr-10/error-at-4-multi-r0.json'],
    ready: (page) => page.locator('[data-testid=run-panel][data-mode=pipeline] [data-testid=error-replies]').waitFor(),
  },
  {
    name: 'the Depth sweep view with a recorded sweep',
    fixtures: ['sweep-ping-1-64.json'],
    ready: (page) => page.locator('[data-testid=sweep-chart][data-state=done]').waitFor(),
  },
  {
    name: 'the Published benchmarks view',
    fixtures: [],
    hash: '#view=gallery',
    ready: (page) => page.locator('[data-testid=gallery-card]').first().waitFor(),
  },
];

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const findings = await seriousViolations(page);
  expect(findings, describeFindings(findings)).toEqual([]);
}

describe.each<GoldenTheme>(['light', 'dark'])('axe-core, %s theme', (theme) => {
  it.each(SCREENS)('$name: no serious or critical violation', async (screen) => {
    const page = await openFixtures(ctx.browser, ctx.app.url, screen.fixtures, { theme, hash: screen.hash });
    try {
      await screen.ready(page);
      await waitForIdleRender(page);
      expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
      await expectNoSeriousViolations(page);
    } finally {
      await page.context().close();
    }
  });

  it('the dialog asking before a long run: no serious or critical violation', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, [], { theme });
    try {
      await page.fill('[data-testid=rtt-ms]', '250');
      await page.fill('[data-testid=n]', '1000');
      await page.selectOption('[data-testid=mode]', 'sequential');
      await page.click('[data-testid=run]');
      await page.locator('[data-testid=long-run-confirm]').waitFor();
      await expectNoSeriousViolations(page);
    } finally {
      await page.context().close();
    }
  });

  it('the Copy embed code dialog: no serious or critical violation', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, SERVER_TRACED, { theme });
    try {
      await page.locator('[data-testid=run-panel][data-mode=pipeline]').waitFor();
      await page.click('[data-testid=embed-code]');
      await page.locator('[data-testid=embed-code-popover] [data-testid=embed-code-iframe]').waitFor();
      expect(await page.inputValue('[data-testid=embed-code-iframe]')).toMatch(/^<iframe src="http:\/\/[^"]+\/embed\/\?trace=http/);
      await expectNoSeriousViolations(page);
    } finally {
      await page.context().close();
    }
  });
});

/** What the focused element shows: its outline and box-shadow, as computed. */
async function focusIndicator(page: Page): Promise<{ what: string; visible: boolean; again: boolean } | null> {
  return page.evaluate(() => {
    let el = document.activeElement;
    if (!el || el === document.body) return null;
    const again = el.hasAttribute('data-tabbed');
    el.setAttribute('data-tabbed', '');
    const label = el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : el.textContent;
    const what = `${el.tagName.toLowerCase()} ${el.getAttribute('data-testid') ?? ''} ${(el.getAttribute('aria-label') ?? label ?? '').trim().slice(0, 40)}`;
    // A visually hidden input shows its focus on the label that wraps it (e.g. "Open trace…").
    const shows = (e: Element) => {
      const style = getComputedStyle(e);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
      const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
      return outline || shadow;
    };
    const box = el.getBoundingClientRect();
    const hidden = box.width <= 1 && box.height <= 1; // visually hidden (.visually-hidden): its own outline cannot be seen
    if (!hidden && shows(el)) return { what, visible: true, again };
    if (el instanceof HTMLInputElement && el.closest('label')) el = el.closest('label')!;
    else if (hidden) return { what, visible: false, again };
    return { what, visible: shows(el), again };
  });
}

describe.each<GoldenTheme>(['light', 'dark'])('visible focus, %s theme', (theme) => {
  it('every control the Tab key reaches in the Runs view after a traced run shows its focus', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, SERVER_TRACED, { theme });
    try {
      await SCREENS[1]!.ready(page);
      await waitForIdleRender(page);
      const seen: string[] = [];
      const invisible: string[] = [];
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab');
        const focus = await focusIndicator(page);
        if (!focus) continue;
        if (focus.again) break; // around once
        seen.push(focus.what);
        if (!focus.visible) invisible.push(focus.what);
      }
      expect(seen.length, seen.join('\n')).toBeGreaterThan(10);
      expect(seen.join('\n')).toMatch(/Open trace…/);
      expect(invisible, `no visible focus on:\n${invisible.join('\n')}`).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});

describe('skip link and landmarks', () => {
  const active = (page: Page) => page.evaluate(() => {
    const el = document.activeElement;
    return { id: el?.id ?? '', testid: el?.getAttribute('data-testid') ?? '', inResults: el?.closest('#results') !== null };
  });

  it('the first Tab stop is "Skip to results", out of sight until focused; one Enter moves the focus to the results', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, SERVER_TRACED);
    try {
      await SCREENS[1]!.ready(page);
      await waitForIdleRender(page);
      const link = page.locator('[data-testid=skip-link]');
      expect((await link.boundingBox())!.y + (await link.boundingBox())!.height).toBeLessThanOrEqual(0);
      const hash = await page.evaluate(() => window.location.hash);
      await page.keyboard.press('Tab');
      expect(await active(page)).toMatchObject({ testid: 'skip-link' });
      expect(await link.innerText()).toBe('Skip to results');
      expect((await link.boundingBox())!.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press('Enter');
      expect(await active(page)).toMatchObject({ id: 'results' });
      // The page's state is in its hash: the link moved the focus without navigating to #results.
      expect(await page.evaluate(() => window.location.hash)).toBe(hash);
      // From there, Tab goes on inside the results (their toolbar, then the diagrams).
      await page.keyboard.press('Tab');
      expect(await active(page)).toMatchObject({ inResults: true });
      // The first diagram is a few Tab presses away, not dozens.
      let presses = 1;
      while (presses < 40 && !(await page.evaluate(() => document.activeElement?.classList.contains('diagram-svg') ?? false))) {
        await page.keyboard.press('Tab');
        presses++;
      }
      console.log(`skip link: the first diagram ${presses} Tab presses after Enter`);
      expect(presses).toBeLessThan(40);
    } finally {
      await page.context().close();
    }
  });

  it('with no results yet, the skip link moves the focus to the main landmark', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, []);
    try {
      await SCREENS[0]!.ready(page);
      await page.keyboard.press('Tab');
      expect(await active(page)).toMatchObject({ testid: 'skip-link' });
      await page.keyboard.press('Enter');
      expect(await active(page)).toMatchObject({ id: 'main' });
    } finally {
      await page.context().close();
    }
  });

  it('has the landmarks a screen-reader user jumps between: banner, navigation, main, the run form, the results, the footer', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, SERVER_TRACED);
    try {
      await SCREENS[1]!.ready(page);
      const count = (role: Parameters<Page['getByRole']>[0], name?: string) => page.getByRole(role, name ? { name, exact: true } : {}).count();
      expect(await count('banner')).toBe(1);
      expect(await count('navigation', 'Views')).toBe(1);
      expect(await count('main')).toBe(1);
      expect(await count('form', 'Run settings')).toBe(1);
      expect(await count('region', 'Results')).toBe(1);
      expect(await count('contentinfo')).toBe(1);
    } finally {
      await page.context().close();
    }
  });
});
