// Text goldens for the exports (trace/export/__goldens__/): the text made is compared byte for byte with the
// committed file; on a mismatch `<name>-changed.<ext>` is written beside it and the test fails naming
// the first differing line. UPDATE_GOLDENS=1 rewrites the golden instead. For tests only (Node).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file's text (UTF-8), for tests that read the recorded fixtures. */
export const readText = (path: string): string => readFileSync(path, 'utf8');
/** e2e/fixtures/<name>. */
export const fixturePath = (name: string): string => join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'e2e', 'fixtures', name);

export const TRACE_GOLDENS = join(dirname(fileURLToPath(import.meta.url)), '..', 'export', '__goldens__');

export function expectGoldenText(actual: string, fileName: string, folder = TRACE_GOLDENS): void {
  const golden = join(folder, fileName);
  const changed = golden.replace(/(\.[a-z]+)$/, '-changed$1');
  const expected = existsSync(golden) ? readFileSync(golden, 'utf8') : null;
  if (process.env['UPDATE_GOLDENS'] === '1' || actual === expected) {
    mkdirSync(folder, { recursive: true });
    if (actual !== expected) writeFileSync(golden, actual);
    rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, actual);
  if (expected === null) throw new Error(`No golden at ${golden}; the text made is in ${changed}. Check it, then run with UPDATE_GOLDENS=1 to make it the golden.`);
  const a = actual.split('\n');
  const e = expected.split('\n');
  const line = Math.max(0, a.findIndex((text, i) => text !== e[i]));
  throw new Error(`The export differs from its golden ${golden}; it is in ${changed} (first difference at line ${line + 1}:\n  golden: ${e[line] ?? '(end)'}\n  made:   ${a[line] ?? '(end)'}). If intended, rerun with UPDATE_GOLDENS=1.`);
}
