// Time to refusal and JS heap for each hostile trace file opened in Chromium, for the before/after
// figures of bounded decoding. Not a test (those are e2e/hostile-files.e2e.test.ts): it runs against any
// running Pipescope (say, an older build) and reports what happened, crash or freeze included.
//
//   node scripts/measure-hostile-files.mjs APP_URL FOLDER [FILE…]
//
// FOLDER is where the files are served under APP_URL (e.g. /e2e-hostile/, a folder in that app's dist/web;
// write the corpus there with server/support/hostile-corpus.ts writeHostileCorpus). For each file, the app's
// ?trace= and the embed page: ms from navigation to the message (or the crash, or 60 s), the main
// thread's peak JS heap seen while waiting (CDP, polled every 250 ms), and whether the tab then answers
// a script within 2 s.
import { chromium } from 'playwright-core';

const [appUrl, folder, ...names] = process.argv.slice(2);
const files = names.length > 0 ? names : ['table-8m-rows.json.gz', 'array-400mb.json.gz', 'bomb-8gib.json.gz', 'deep-nesting.json', 'long-string.json'];
const WAIT_MS = 60_000;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });

async function measure(url, errorSelector) {
  const context = await browser.newContext();
  const page = await context.newPage();
  let crashed = false;
  page.on('crash', () => (crashed = true));
  const cdp = await context.newCDPSession(page);
  let peak = 0;
  const poll = setInterval(() => {
    cdp.send('Runtime.getHeapUsage').then(({ usedSize }) => (peak = Math.max(peak, usedSize)), () => {});
  }, 250);
  const started = Date.now();
  let outcome = 'no message';
  let message = '';
  await page.goto(url).catch(() => {});
  while (Date.now() - started < WAIT_MS && !crashed) {
    const text = await page.locator(errorSelector).first().innerText({ timeout: 1000 }).catch(() => '');
    if (text) {
      outcome = 'message';
      message = text.replace(/\s+/g, ' ').slice(0, 110);
      break;
    }
  }
  const ms = Date.now() - started;
  clearInterval(poll);
  if (crashed) outcome = 'renderer crashed';
  else if (outcome === 'no message') outcome = `no message in ${WAIT_MS / 1000} s`;
  const answers = crashed ? false : await Promise.race([page.evaluate(() => 1 + 1).then(() => true, () => false), new Promise((r) => setTimeout(() => r(false), 2000))]);
  await context.close().catch(() => {});
  return { ms, peakMiB: Math.round(peak / 1024 / 1024), outcome, answers, message };
}

console.log('file | way | ms to outcome | peak main-thread heap MiB | outcome | answers after | message');
for (const file of files) {
  const path = `${folder.replace(/\/$/, '')}/${file}`;
  for (const [way, url, selector] of [
    ['app ?trace=', new URL(`/?trace=${path}`, appUrl).href, '.message-error'],
    ['embed', new URL(`/embed/?trace=..${path}`, appUrl).href, '[data-testid=player-error]'],
  ]) {
    const r = await measure(url, selector);
    console.log(`${file} | ${way} | ${r.ms} | ${r.peakMiB} | ${r.outcome} | ${r.answers ? 'yes' : 'no'} | ${r.message}`);
  }
}
await browser.close();
