// Every path the docs name in code — `server/app/live/live-endpoint.ts`, `web/src/url/`, `mode-plan.ts` —
// is in the repository, so that a file moved or renamed cannot leave ARCHITECTURE.md, a folder's README or
// a guide describing a tree that is gone. A path may be written from the repository's root, from the page's
// own folder, or from the tree a page walks (server/, web/src/, web/, trace/, server/app/, e2e/, and
// public/, whose files are the site's URLs); a bare source file name must name some file of the
// repository. What the build writes (dist/ and what is in it) is not in the repository and is not checked.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/support/project-root.ts';
import { codePathsOf } from './markdown-links.ts';

const ROOT = projectRoot();
/** The trees the pages walk; a path inside one is written from it (`views/app/app-view.tsx`, `app/cli/`). */
const TREES = ['server', 'web/src', 'web', 'trace', 'server/app', 'e2e', 'public'];
/** Written by the build or the tests, never committed: dist/ and the names the web build gives its output. */
const GENERATED = /^(?:dist|node_modules|e2e\/artifacts)\/|^assets\/$/;

const gitFiles = (pattern?: string): string[] =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...(pattern ? [pattern] : [])], { cwd: ROOT, encoding: 'utf8' })
    .split('\n').filter(Boolean);

/** Why a path named in `page` is not in the repository, or null when it is. */
function missing(page: string, path: string, names: Set<string>): string | null {
  if (GENERATED.test(path)) return null;
  if (!path.includes('/')) return names.has(path) ? null : 'no file of that name';
  const bases = [ROOT, dirname(join(ROOT, page)), ...TREES.map((t) => join(ROOT, t))];
  return bases.some((base) => existsSync(join(base, path))) ? null : 'no such file or folder';
}

describe('paths named in the docs', () => {
  const files = gitFiles();
  const names = new Set(files.map((f) => basename(f)));
  const pages = gitFiles('*.md').filter((f) => existsSync(join(ROOT, f)));

  it('read the paths in code spans, not values, URLs or globs', () => {
    const text = 'See `web/src/url/`, `public/traces/index.json` and `mode-plan.ts`; not `?trace=x`, `redis://h:1`, `*.test.ts`, ' +
      '`npm start`, `a b/c`, `0.5`, `1/100`, `n/a`, `application/gzip`, `app.json`.\n```\n`fenced/path.ts`\n```';
    expect(codePathsOf(text).map((p) => p.path)).toEqual(['web/src/url/', 'public/traces/index.json', 'mode-plan.ts']);
  });

  it('fail a file moved away', () => {
    expect(missing('ARCHITECTURE.md', 'web/src/state/url-hash-params.ts', names)).toBe('no such file or folder');
    expect(missing('ARCHITECTURE.md', 'no-such-module.ts', names)).toBe('no file of that name');
    expect(missing('ARCHITECTURE.md', 'views/app/app-view.tsx', names)).toBeNull();
  });

  it('are each in the repository: ARCHITECTURE.md, the folders’ READMEs, the guides', () => {
    const gone: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const { path, line } of codePathsOf(readFileSync(join(ROOT, page), 'utf8'))) {
        checked++;
        const why = missing(page, path, names);
        if (why) gone.push(`${page}:${line}: ${path} — ${why}`);
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(gone).toEqual([]);
  });
});
