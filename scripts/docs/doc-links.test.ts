// Every link in the repository's markdown lands somewhere: a relative link on a file (or folder) that
// exists, a #fragment on a heading or an explicit id of its target page. External links are not followed
// (the check runs offline); a link out of the repository (../elsewhere/…) fails like a missing file.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/support/project-root.ts';
import { anchorsOf, githubAnchor, isExternal, linksOf } from './markdown-links.ts';

const ROOT = projectRoot();

/** The markdown files git knows of (tracked or new, not ignored): the docs, README.md, the folders' READMEs. */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter((f) => f && existsSync(join(ROOT, f)));
}

/** What is wrong with one link, or null. */
function problem(file: string, target: string, anchorsCache: Map<string, Set<string>>): string | null {
  if (isExternal(target)) return null;
  const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), decodeURIComponent(pathPart));
  const inRepo = relative(ROOT, path);
  if (inRepo.startsWith('..')) return 'points outside the repository';
  if (!existsSync(path)) return 'no such file';
  if (fragment === undefined || fragment === '' || statSync(path).isDirectory() || !path.endsWith('.md')) return null;
  let anchors = anchorsCache.get(path);
  if (!anchors) anchorsCache.set(path, (anchors = anchorsOf(readFileSync(path, 'utf8'))));
  return anchors.has(decodeURIComponent(fragment)) ? null : `no heading #${fragment} in ${inRepo}`;
}

describe('links in the markdown', () => {
  const files = markdownFiles();

  it('covers README.md, ARCHITECTURE.md and docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('ARCHITECTURE.md');
    expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('every relative link and image resolves, #anchors included', () => {
    const cache = new Map<string, Set<string>>();
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const link of linksOf(readFileSync(join(ROOT, file), 'utf8'))) {
        const why = problem(file, link.target, cache);
        if (!isExternal(link.target)) checked++;
        if (why) broken.push(`${file}:${link.line}: ${link.target} — ${why}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});

describe('the link reader', () => {
  it('makes GitHub’s anchors', () => {
    expect(githubAnchor('Traces for the web: `run.json.gz`')).toBe('traces-for-the-web-runjsongz');
    expect(githubAnchor('Workshops: play a run back, present it — and let the room follow')).toBe('workshops-play-a-run-back-present-it--and-let-the-room-follow');
    expect(githubAnchor('`points[].runs[]`')).toBe('pointsruns');
    expect(githubAnchor('The custom element: `<pipescope-player>`')).toBe('the-custom-element-pipescope-player');
  });

  it('numbers repeated headings and reads explicit ids', () => {
    expect([...anchorsOf('# A\n## B\n## B\n<a id="x"></a>\n```\n# not a heading\n```\n')]).toEqual(['a', 'b', 'b-1', 'x']);
  });

  it('finds links, images and definitions, not those in code', () => {
    const text = 'See [a](docs/a.md#x) and ![p](docs/p.png "t").\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n[ref]: ../out.md\n<img src="pic.png">\n![a picture described\nover two lines](two.png)';
    expect(linksOf(text).map((l) => [l.target, l.line])).toEqual([['docs/a.md#x', 1], ['docs/p.png', 1], ['../out.md', 6], ['pic.png', 7], ['two.png', 8]]);
  });

  it('fails a link to a missing file, a missing heading or a file outside the repository', () => {
    const cache = new Map<string, Set<string>>();
    expect(problem('README.md', 'docs/no-such-page.md', cache)).toBe('no such file');
    expect(problem('README.md', '#no-such-heading-anywhere', cache)).toBe('no heading #no-such-heading-anywhere in README.md');
    expect(problem('README.md', '../outside/NOTES.md', cache)).toBe('points outside the repository');
    expect(problem('README.md', 'https://example.com/', cache)).toBeNull();
  });
});
