// The layer rule of eslint.config.js, as a small local ESLint plugin. A file may import only the folders
// its own folder is allowed to (LAYERS there), and only the packages its tree allows. Unlike
// no-restricted-imports, it sees every form an import can take: `import`, `export … from`, `import type`,
// a type's `import('…')` and a dynamic `import('…')`, whose relative path it resolves against the file
// (so `../../views/x` is caught from any depth, not only the `../name/` a glob would match).
import { posix, relative, sep } from 'node:path';

/**
 * Options: { root, trees: [{ dir, imports: [other tree dirs], folders: { folder: [folders it may import] },
 * testFolders: { folder: [more folders its tests may import] }, bannedPackages: [{ patterns, message, tests }] }] }.
 * A folder key may be nested ('app/live'); a file belongs to the longest key that holds it, files at the
 * tree's top to the top (which may import every folder). Folders not listed (test-support/) are for tests.
 */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layer graph of each tree (trace/, server/, web/src/).' },
    schema: [{ type: 'object', additionalProperties: true }],
  },
  create(context) {
    const { root, trees } = context.options[0];
    const path = relative(root, context.filename).split(sep).join('/');
    const tree = trees.find((t) => path.startsWith(`${t.dir}/`));
    if (!tree) return {};
    const isTest = /\.test\.tsx?$/.test(path) || path.split('/').includes('test-support');
    const from = folderOf(tree, path.slice(tree.dir.length + 1));

    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (!source.startsWith('.')) {
        for (const ban of tree.bannedPackages ?? []) {
          if ((isTest && !ban.tests) || !ban.patterns.some((pattern) => matchesPackage(source, pattern))) continue;
          context.report({ node, message: `${ban.message} ('${source}')` });
        }
        return;
      }
      const target = posix.normalize(posix.join(posix.dirname(path), source.split('?')[0]));
      const targetTree = trees.find((t) => target === t.dir || target.startsWith(`${t.dir}/`));
      if (!targetTree) return;
      if (targetTree !== tree) {
        if (!tree.imports.includes(targetTree.dir)) {
          context.report({ node, message: `${tree.dir}/ may not import ${targetTree.dir}/ (it imports ${tree.imports.length ? tree.imports.map((d) => `${d}/`).join(', ') : 'only itself'}).` });
        }
        return;
      }
      const to = folderOf(tree, target.slice(tree.dir.length + 1));
      if (to === TEST_ONLY) {
        if (!isTest) context.report({ node, message: `${source}: that folder of ${tree.dir}/ is for tests only.` });
        return;
      }
      if (from === TEST_ONLY || from === to) return;
      if (to === TOP) {
        context.report({ node, message: `${tree.dir}/${posix.basename(target)} is the top of ${tree.dir}/: nothing imports it.` });
        return;
      }
      if (from === TOP) return;
      const allowed = [...tree.folders[from], ...(isTest ? tree.testFolders?.[from] ?? [] : [])];
      if (!allowed.includes(to)) {
        const may = [...tree.folders[from], ...tree.imports].map((f) => `${f}/`);
        const list = may.length === 0 ? 'nothing beyond its own files' : `only ${may.length === 1 ? may[0] : `${may.slice(0, -1).join(', ')} and ${may.at(-1)}`}`;
        context.report({ node, message: `${tree.dir}/${from}/ may not import ${to}/: it may import ${list} (the layer graph in eslint.config.js).` });
      }
    };

    const literal = (node) => {
      if (node?.type === 'Literal') return node.value;
      if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
      return undefined;
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.argument)),
    };
  },
};

const TOP = Symbol('top of the tree');
const TEST_ONLY = Symbol('a folder for tests only');

/** The folder key a path inside the tree belongs to: the longest listed prefix, the top, or test-only. */
function folderOf(tree, inTree) {
  const dir = posix.dirname(inTree);
  if (dir === '.') return TOP;
  let best = null;
  for (const key of Object.keys(tree.folders)) {
    if ((dir === key || dir.startsWith(`${key}/`)) && (best === null || key.length > best.length)) best = key;
  }
  return best ?? TEST_ONLY;
}

/** 'd3-*' matches d3-scale; 'node:*' any node: module; a name matches itself and its subpaths (react-dom/client). */
function matchesPackage(source, pattern) {
  if (pattern.endsWith('*')) return source.startsWith(pattern.slice(0, -1));
  return source === pattern || source.startsWith(`${pattern}/`);
}

export default { rules: { imports: layersRule } };
