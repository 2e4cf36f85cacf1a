// The page's switch between Pipescope's private Redis and its private Redis Cluster, in Chromium against
// the built app (`npm start`, private redis-server): picked with the keyboard, the cluster starts on
// demand ("starting the private cluster…", then "ready in … s"), the link says target=cluster, the raw
// engine's pipeline runs on the cluster and is drawn with a lane per master and a socket per node; picked
// back, a run goes to the single Redis again, drawn as before.
import { expect, it } from 'vitest';
import { ARTIFACTS, requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { waitForIdleRender } from './browser.ts';

const ctx = useAppInBrowser();

it('switches to the private cluster, runs the raw pipeline across its nodes, and switches back', async () => {
  const { page, app } = ctx;
  await page.goto(`${app.url}#command=SET&n=30&valueBytes=16&mode=pipeline&engine=raw&repeats=1`);
  const group = page.getByRole('group', { name: 'Redis to measure' });
  await group.waitFor();
  const single = group.getByRole('radio', { name: 'Redis' });
  const cluster = group.getByRole('radio', { name: 'Cluster' });
  expect(await single.isChecked()).toBe(true);
  await expect.poll(() => page.locator('.connection-pill').textContent()).toMatch(/· Redis [\d.]+ · 127\.0\.0\.1:\d+ \(private\)/);

  // The keyboard: focus the pick, an arrow moves it to the cluster.
  await single.focus();
  await page.keyboard.press('ArrowRight');
  expect(await cluster.isChecked()).toBe(true);
  const note = page.locator('[data-testid=target-note]');
  await expect.poll(() => note.textContent(), { timeout: 5_000, interval: 20 }).toBe('starting the private cluster…');
  await page.screenshot({ path: `${ARTIFACTS}/target-switch-starting.png` });
  await expect.poll(() => note.textContent(), { timeout: 30_000 }).toMatch(/^the private cluster ready in \d+\.\d s$/);
  expect(await note.getAttribute('role')).toBe('status');
  expect(page.url()).toMatch(/[#&]target=cluster(&|$)/);
  await expect.poll(() => page.locator('.connection-pill').textContent()).toMatch(/· Redis Cluster [\d.]+ · 127\.0\.0\.1:\d+ \(private\)/);

  await page.click('[data-testid=run]');
  await requestDone(page);
  const panel = runPanel(page, 'pipeline');
  await panel.waitFor();
  await waitForIdleRender(page);
  expect(await panel.locator('[data-testid=node-head]').count()).toBe(3);
  expect(await panel.locator('[data-testid=node-lifeline]').count()).toBe(3);
  expect(await panel.locator('[data-testid=socket-lane]').count()).toBe(3);
  expect(await panel.locator('[data-testid=request-arrow]').count()).toBe(30);
  expect(await panel.locator('[data-testid=slot-strip]').count()).toBe(1);
  await page.screenshot({ path: `${ARTIFACTS}/target-switch-cluster-run.png` });

  // Back to the single Redis: ready at once, and the next run is drawn as one Redis's.
  await group.locator('label', { hasText: /^Redis$/ }).click(); // the label drawn as the button
  expect(await single.isChecked()).toBe(true);
  expect(page.url()).toMatch(/[#&]target=single(&|$)/);
  await expect.poll(() => page.locator('.connection-pill').textContent()).toMatch(/· Redis [\d.]+ · 127\.0\.0\.1:\d+ \(private\)/);
  await page.click('[data-testid=run]');
  await requestDone(page);
  await expect.poll(() => runPanel(page, 'pipeline').locator('[data-testid=node-head]').count()).toBe(0);
  expect(await runPanel(page, 'pipeline').locator('[data-testid=request-arrow]').count()).toBe(30);
}, 120_000);
