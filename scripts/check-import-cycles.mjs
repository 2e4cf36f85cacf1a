#!/usr/bin/env node
// Fails on any import cycle among the project's own TypeScript files, type-only imports and
// `export … from` included (eslint's layer rules catch upward imports between folders; a cycle can
// still hide inside one folder). Imports are read by TypeScript's own pre-processor, not by regex.
// Also fails when the player or the embed page reaches live/ or views/ through any chain of imports
// (eslint sees one import at a time: player/ → state/ is allowed, and so is state/ → live/).
//
//   node scripts/check-import-cycles.mjs [folder …]    (default: trace server web/src bench e2e)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['trace', 'server', 'web/src', 'bench', 'e2e'];

function sourceFiles(folder) {
  const found = [];
  const visit = (path) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'artifacts') visit(join(path, name));
    } else if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts')) found.push(path);
  };
  if (existsSync(join(root, folder))) visit(join(root, folder));
  return found;
}

/** The project files a file imports (relative specifiers only; packages cannot close a cycle). */
function importsOf(file) {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map(({ fileName }) => fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec))
    .filter((target) => existsSync(target));
}

const files = folders.flatMap(sourceFiles);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components: every component with more than one file, or a file that
// imports itself, is a cycle.
let index = 0;
const indexOf = new Map();
const lowOf = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function connect(file) {
  indexOf.set(file, index);
  lowOf.set(file, index++);
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (!indexOf.has(next)) {
      connect(next);
      lowOf.set(file, Math.min(lowOf.get(file), lowOf.get(next)));
    } else if (onStack.has(next)) {
      lowOf.set(file, Math.min(lowOf.get(file), indexOf.get(next)));
    }
  }
  if (lowOf.get(file) !== indexOf.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component);
}
for (const file of graph.keys()) if (!indexOf.has(file)) connect(file);

/** The shortest loop through a component's first member, for the message: a → b → … → a. */
function loopThrough(component) {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const here = queue.shift();
    for (const next of graph.get(here) ?? []) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, here);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const loop = [start];
  for (let at = cameFrom.get(start); at !== start; at = cameFrom.get(at)) loop.unshift(at);
  return [start, ...loop];
}

const show = (file) => relative(root, file);
if (cycles.length > 0) {
  console.error(`Import cycles (${cycles.length}); break each by moving the shared piece to a lower module:`);
  for (const component of cycles) console.error(`  ${loopThrough(component).map(show).join(' → ')}`);
  process.exit(1);
}

/** The first chain of imports from `start` to a file `forbidden` accepts, or null. */
function chainTo(start, forbidden) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const here = queue.shift();
    if (forbidden(here)) {
      const chain = [];
      for (let at = here; at !== null; at = cameFrom.get(at)) chain.unshift(at);
      return chain;
    }
    for (const next of graph.get(here) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, here);
        queue.push(next);
      }
    }
  }
  return null;
}

// The <pipescope-player> element and the embed page carry no WebSocket and no React: nothing they
// import, however indirectly, may be in live/ or views/.
const web = (folder) => join(root, 'web', 'src', folder) + sep;
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.includes(`${sep}test-support${sep}`);
const reaches = files
  .filter((file) => (file.startsWith(web('player')) || file.startsWith(web('embed'))) && !isTest(file))
  .map((file) => chainTo(file, (target) => target.startsWith(web('live')) || target.startsWith(web('views'))))
  .filter((chain) => chain !== null);
if (reaches.length > 0) {
  console.error(`player/ and embed/ must not reach live/ or views/ (${reaches.length}):`);
  for (const chain of reaches) console.error(`  ${chain.map(show).join(' → ')}`);
  process.exit(1);
}
console.log(`No import cycles among ${files.length} files (${folders.join(', ')}); player/ and embed/ reach neither live/ nor views/.`);
