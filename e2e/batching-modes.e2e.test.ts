// The batching modes in the browser, from Redis to pixels: the ways to batch beyond a plain pipeline run side by
// side in the compare view (live, on the real backend, then recorded traces against a golden), and a
// failing INCR is marked where its reply arrived, with the verdict read from the keys after the run.
// Goldens use the recorded traces in e2e/fixtures/modes-incr-10/ (see e2e/fixtures/README.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { openFresh, pickPreset, waitForIdleRender } from './browser.ts';
import { expectGoldenScreenshot, openFixtures } from './golden-page.ts';

const ctx = useAppInBrowser();
const FOUR = ['pipeline', 'multi', 'eval', 'evalsha'] as const;

describe('the compare view with four modes renders', () => {
  beforeAll(async () => {
    const { page } = ctx;
    await pickPreset(page, 'four-ways');
    expect(await page.evaluate(() => window.location.hash)).toMatch(/mode=custom&modes=pipeline%2Cmulti%2Ceval%2Cevalsha/);
    await page.click('[data-testid=run]');
    await requestDone(page, 120_000);
    await runPanel(page, 'evalsha').waitFor({ timeout: 60_000 });
    await waitForIdleRender(page);
  });

  it('live: one table row and one diagram per mode, each verdict measured', async () => {
    const { page } = ctx;
    const rows = page.locator('[data-testid=compare-table] [data-testid=compare-row]');
    expect(await rows.evaluateAll((r) => r.map((row) => row.getAttribute('data-mode')))).toEqual([...FOUR]);
    for (const mode of FOUR) await expect.poll(() => runPanel(page, mode).getAttribute('data-render')).toBe('svg');
    // One batch each: one round trip, measured at the client socket.
    expect(await rows.locator('[data-metric=round-trips]').allInnerTexts()).toEqual(['1', '1', '1', '1']);
    expect(await runPanel(page, 'multi').locator('[data-testid=verdict-wire]').innerText()).toBe('10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC');
    expect(await runPanel(page, 'eval').locator('[data-testid=verdict-wire]').innerText()).toBe('10 INCRs as 1 command on the wire: one EVAL');
    expect(await runPanel(page, 'multi').locator('[data-testid=verdict-atomic]').innerText()).toMatch(/^atomic: Redis ran the 10 INCRs as one block .*MONITOR$/s);
    expect(await runPanel(page, 'pipeline').locator('[data-testid=verdict-atomic]').innerText()).toMatch(/^not atomic/);
    const labels = await runPanel(page, 'multi').locator('[data-testid=request-label]').allTextContents();
    // Labels too close to the one before are left out; the first is MULTI, and none names anything else.
    expect(labels[0]).toBe('MULTI');
    expect(labels.every((l) => ['MULTI', 'INCR', 'EXEC'].includes(l))).toBe(true);
    expect(await runPanel(page, 'multi').locator('[data-testid=request-arrow]').count()).toBe(12);
  });

  it('recorded: as in its golden', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, FOUR.map((m) => `modes-incr-10/four-${m}-r0.json`));
    try {
      await runPanel(page, 'evalsha').locator('[data-testid=request-arrow]').first().waitFor();
      expect(await page.locator('[data-testid=compare-row]').count()).toBe(4);
      await expectGoldenScreenshot(page.locator('.results'), 'runs-four-modes-incr-10');
    } finally {
      await page.context().close();
    }
  });
});

describe('the error preset marks the error in place', () => {
  beforeAll(async () => {
    const { page } = ctx;
    await pickPreset(page, 'error');
    expect(await page.evaluate(() => window.location.hash)).toMatch(/errorAt=4&errorKind=runtime/);
    await page.click('[data-testid=run]');
    await requestDone(page, 120_000);
    await runPanel(page, 'multi').waitFor({ timeout: 60_000 });
    await waitForIdleRender(page);
  });

  it('live: the pipeline’s failing INCR crossed out where its reply arrived; no rollback, in either mode', async () => {
    const { page } = ctx;
    const pipe = runPanel(page, 'pipeline');
    await expect.poll(() => pipe.locator('[data-testid=error-mark]').count()).toBe(1);
    expect(await pipe.locator('.arrow.reply.error').getAttribute('data-index')).toBe('4');
    expect(await page.locator('[data-testid=legend-error]').count()).toBe(1);
    for (const mode of ['pipeline', 'multi'] as const) {
      expect(await runPanel(page, mode).locator('[data-testid=verdict-rollback]').innerText()).toMatch(/^operation 5 failed; operations 6–10 still ran: their keys read 1 afterwards — no rollback/);
      expect(await runPanel(page, mode).locator('[data-testid=keys-after] tbody tr').count()).toBe(10);
    }
  });

  it('recorded: as in its golden', async () => {
    const page = await openFixtures(ctx.browser, ctx.app.url, ['modes-incr-10/error-at-4-pipeline-r0.json', 'modes-incr-10/error-at-4-multi-r0.json']);
    try {
      await runPanel(page, 'multi').locator('[data-testid=request-arrow]').first().waitFor();
      expect(await runPanel(page, 'pipeline').locator('[data-testid=error-mark]').count()).toBe(1);
      await expectGoldenScreenshot(page.locator('.results'), 'runs-error-at-4-incr-10');
    } finally {
      await page.context().close();
    }
  });
});

// The preset "What redis-py's pipeline() sends" now runs real redis-py through the observing port
// (e2e/observe.e2e.test.ts); the raw engine's bytes of a plain pipeline beside MULTI/EXEC stay tested here.
describe('a plain pipeline beside MULTI/EXEC on the raw engine', () => {
  beforeAll(async () => {
    const { page } = ctx;
    await openFresh(page, `${ctx.app.url}#command=INCR&n=10&mode=custom&modes=pipeline%2Cmulti&engine=raw&monitor=1`);
    await page.click('[data-testid=run]');
    await requestDone(page, 120_000);
    await runPanel(page, 'multi').waitFor({ timeout: 60_000 });
    await waitForIdleRender(page);
  });

  it('live: the raw bytes of the MULTI run start with MULTI; the verdicts give the wire commands and atomic or not', async () => {
    const { page } = ctx;
    expect(await runPanel(page, 'pipeline').locator('[data-testid=verdict-wire]').innerText()).toBe('10 INCRs as 10 commands on the wire: 10 × INCR');
    expect(await runPanel(page, 'multi').locator('[data-testid=verdict-wire]').innerText()).toBe('10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC');
    expect(await runPanel(page, 'pipeline').locator('[data-testid=verdict-atomic]').innerText()).toMatch(/^not atomic/);
    expect(await runPanel(page, 'multi').locator('[data-testid=verdict-atomic]').innerText()).toMatch(/^atomic: Redis ran the 10 INCRs as one block/);
    const wire = page.locator('[data-testid=wire-view]');
    await wire.locator('[data-testid=wire-run][data-mode=multi]').click();
    const firstWrite = wire.locator('[data-testid=wire-row][data-kind=client-write]').first();
    expect(await firstWrite.innerText()).toContain('*1\\r\\n$5\\r\\nMULTI\\r\\n');
    await wire.locator('[data-testid=wire-run][data-mode=pipeline]').click();
    const plain = await wire.locator('[data-testid=wire-row][data-kind=client-write]').first().innerText();
    expect(plain).toContain('*2\\r\\n$4\\r\\nINCR');
    expect(plain).not.toContain('MULTI');
  });
});
