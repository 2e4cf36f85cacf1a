// ARCHITECTURE.md draws the layer graph as one table per tree; eslint.config.js's LAYERS is the graph the
// lint enforces. They must say the same: a folder added, removed or allowed a new import in one and not the
// other fails here. Its source tree must list the folders as they are: every folder of the repository's
// root, of trace/, server/, server/app/ and web/src/, and no folder that is gone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/support/project-root.ts';

type LayerGraph = Record<string, Record<string, string[]>>;
/** eslint.config.js is plain JavaScript: its graph is read at run time, typed here. */
const { LAYERS } = (await import(pathToFileURL(join(projectRoot(), 'eslint.config.js')).href)) as { LAYERS: LayerGraph };

/** The tables under "## Layers": tree → folder → the folders it may import, as written. */
function documentedLayers(markdown: string): LayerGraph {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Layers\n'));
  if (!section) throw new Error('ARCHITECTURE.md has no "## Layers" section');
  const trees: LayerGraph = {};
  for (const part of section.split(/^### /m).slice(1)) {
    const tree = /^`([^`]+)\/`/.exec(part)?.[1];
    if (!tree) continue;
    const folders: Record<string, string[]> = {};
    for (const row of part.split('\n').filter((line) => /^\| `/.test(line))) {
      const [folderCell, importsCell] = row.split('|').slice(1, 3).map((c) => c.trim()) as [string, string];
      const names = (cell: string) => [...cell.matchAll(/`([^`]+)\/`/g)].map((m) => m[1]!);
      folders[names(folderCell)[0]!] = names(importsCell);
    }
    trees[tree] = folders;
  }
  return trees;
}

/** The folders the fenced block under "## The source tree" names, as paths (`server/app/live`), nested by indent. */
export function documentedFolders(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('The source tree\n'));
  const block = section && /^```\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error('ARCHITECTURE.md has no "## The source tree" block');
  const stack: { indent: number; name: string }[] = [];
  const folders: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^( *)([\w.-]+)\/(?: |$)/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    stack.push({ indent, name: match[2]! });
    folders.push(stack.map((s) => s.name).join('/'));
  }
  return folders;
}

/** The folders git holds directly under `parent` ('' for the root), dot-folders left out. */
function foldersUnder(parent: string): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...(parent ? [parent] : [])], { cwd: projectRoot(), encoding: 'utf8' })
    .split('\n').filter(Boolean).map((f) => (parent ? f.slice(parent.length + 1) : f));
  return [...new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0]!))]
    .filter((f) => !f.startsWith('.')).map((f) => (parent ? `${parent}/${f}` : f)).sort();
}

describe('ARCHITECTURE.md', () => {
  const markdown = readFileSync(join(projectRoot(), 'ARCHITECTURE.md'), 'utf8');
  const documented = documentedLayers(markdown);

  it('shows the layer graph that eslint.config.js enforces, tree by tree', () => {
    expect(Object.keys(documented).sort()).toEqual(Object.keys(LAYERS).sort());
    for (const [tree, folders] of Object.entries(LAYERS)) {
      expect(documented[tree], tree).toEqual(folders);
    }
  });

  it('lists every folder of the root, trace/, server/, server/app/ and web/src/ in its source tree, and no other', () => {
    const listed = documentedFolders(markdown);
    for (const parent of ['', 'trace', 'server', 'server/app', 'web/src']) {
      const depth = parent ? parent.split('/').length + 1 : 1;
      const shown = listed.filter((f) => f.split('/').length === depth && (parent === '' || f.startsWith(`${parent}/`))).sort();
      expect(shown, parent || 'the root').toEqual(foldersUnder(parent));
    }
  });

  it('reads a tree by its indent', () => {
    expect(documentedFolders('## The source tree\n\n```\na/   x\n  b/  y\n    c/ z\n      more words\n  d/\ne/\n```\n')).toEqual(['a', 'a/b', 'a/b/c', 'a/d', 'e']);
  });
});
