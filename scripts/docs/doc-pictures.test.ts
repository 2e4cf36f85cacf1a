// Every picture in the docs comes from npm run docs:screenshots and carries its caption: the day it was
// taken, the machine, and where the runs it shows were recorded. A picture added by hand, or shown without
// its caption, fails here.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/support/project-root.ts';
import { linksOf } from './markdown-links.ts';

const ROOT = projectRoot();
const SCRIPT = readFileSync(join(ROOT, 'scripts/docs/docs-screenshots.ts'), 'utf8');
const PICTURES = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.png'));
const CAPTION = /^\*Screenshot of \d{4}-\d\d-\d\d on .+ \(Chromium [\d.]+, viewport \d+×\d+ CSS px\); the runs were recorded on .+\.\* <!-- screenshot:([\w.-]+) -->$/;

function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\n').filter(Boolean);
}

describe('the pictures in the docs', () => {
  it('are each taken by the screenshot script', () => {
    expect(PICTURES.length).toBeGreaterThan(0);
    expect(PICTURES.filter((p) => !SCRIPT.includes(`file: '${p}'`))).toEqual([]);
  });

  it('are each shown with their caption right below', () => {
    const missing: string[] = [];
    for (const file of markdownFiles()) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      for (const link of linksOf(lines.join('\n'))) {
        const picture = /(?:^|\/)docs\/([\w.-]+\.png)$|^([\w.-]+\.png)$/.exec(link.target);
        const name = picture?.[1] ?? (file.startsWith('docs/') ? picture?.[2] : undefined);
        if (!name || !PICTURES.includes(name)) continue;
        // The image may run over several lines: its caption is the next line that starts with "*Screenshot".
        const caption = lines.slice(link.line).find((l) => l.startsWith('*Screenshot'));
        if (CAPTION.exec(caption ?? '')?.[1] !== name) missing.push(`${file}:${link.line}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
