// ARCHITECTURE.md draws the layer graph as one table per tree; eslint.config.js's LAYERS is the graph the
// lint enforces. They must say the same: a folder added, removed or allowed a new import in one and not the
// other fails here.
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

describe('ARCHITECTURE.md', () => {
  const documented = documentedLayers(readFileSync(join(projectRoot(), 'ARCHITECTURE.md'), 'utf8'));

  it('shows the layer graph that eslint.config.js enforces, tree by tree', () => {
    expect(Object.keys(documented).sort()).toEqual(Object.keys(LAYERS).sort());
    for (const [tree, folders] of Object.entries(LAYERS)) {
      expect(documented[tree], tree).toEqual(folders);
    }
  });
});
