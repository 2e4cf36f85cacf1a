// Golden files for what the painters draw: an element painted in jsdom is serialised to stable text —
// one element per line, attributes sorted by name, decimal numbers rounded to 0.01 px — and compared
// with a committed golden file. On a mismatch `<name>-changed.<ext>` is written next to the golden and
// the test fails naming it; `UPDATE_GOLDENS=1` rewrites the golden instead (and removes a stale -changed).
// For unit tests only: they run in vitest's Node worker, so the golden files are read and written with
// node:fs (lint allows Node modules in web/'s tests and test-support/, never in the app).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Rounded to 0.01; -0 prints as 0. */
function round(value: number): string {
  const r = Math.round(value * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

/** Numbers with a fraction or an exponent (integers stay as written: ids, indexes, counts). */
const DECIMAL = /-?(?:\d+\.\d*|\.\d+|\d+(?=e))(?:e[-+]?\d+)?/gi;

/** Rounds the decimals in an attribute value; references and colours (`#…`, `url(…)`) are kept as they are. */
export function roundNumbers(value: string): string {
  if (value.includes('#') || value.includes('url(')) return value;
  return value.replace(DECIMAL, (m) => round(Number(m)));
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

/**
 * Stable markup for an element and its subtree: one element per line, indented two spaces a level,
 * attributes sorted by name, decimals rounded to 0.01. Text is trimmed; whitespace-only text is dropped.
 */
export function serializeStable(element: Element, depth = 0): string {
  const pad = '  '.repeat(depth);
  const name = element.localName; // SVG keeps its case (clipPath), HTML is lower case
  const attributes = Array.from(element.attributes)
    .map((a) => [a.name, roundNumbers(a.value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
  const lines: string[] = [];
  for (const child of Array.from(element.childNodes)) {
    if (child.nodeType === 1) lines.push(serializeStable(child as Element, depth + 1));
    else if (child.nodeType === 3 && child.textContent?.trim()) lines.push(`${pad}  ${escapeText(child.textContent.trim())}`);
  }
  if (lines.length === 0) return `${pad}<${name}${attributes}/>`;
  return `${pad}<${name}${attributes}>\n${lines.join('\n')}\n${pad}</${name}>`;
}

/**
 * Compares `element`'s stable markup with the golden file `__goldens__/<fileName>` next to the test
 * (testFileUrl: the test's `import.meta.url`; a `new URL(…, import.meta.url)` would be rewritten by Vite
 * into an asset URL). Throws naming the -changed file on a mismatch.
 */
export function expectGoldenMarkup(element: Element, testFileUrl: string, fileName: string): void {
  if (!testFileUrl.startsWith('file:')) throw new Error(`expectGoldenMarkup wants the test's import.meta.url (a file: URL), not ${testFileUrl}`);
  const folder = join(dirname(fileURLToPath(testFileUrl)), '__goldens__');
  const golden = join(folder, fileName);
  const changed = golden.replace(/(\.[a-z]+)$/, '-changed$1');
  const actual = `${serializeStable(element)}\n`;
  const expected = existsSync(golden) ? readFileSync(golden, 'utf8') : null;
  mkdirSync(folder, { recursive: true });
  if (process.env['UPDATE_GOLDENS'] === '1') {
    if (actual !== expected) writeFileSync(golden, actual);
    rmSync(changed, { force: true });
    return;
  }
  if (actual === expected) {
    rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, actual);
  if (expected === null) {
    throw new Error(`No golden at ${golden}; what was drawn is in ${changed}. Check it, then run with UPDATE_GOLDENS=1 to make it the golden.`);
  }
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  const found = actualLines.findIndex((text, i) => text !== expectedLines[i]);
  const line = found < 0 ? actualLines.length : found;
  throw new Error(
    `The drawing differs from its golden ${golden}; what was drawn is in ${changed} (first difference at line ${line + 1}:\n` +
      `  golden: ${expectedLines[line] ?? '(end of file)'}\n  drawn:  ${actualLines[line] ?? '(end of file)'}).\n` +
      'If the change is intended, run with UPDATE_GOLDENS=1 to rewrite the golden.',
  );
}
