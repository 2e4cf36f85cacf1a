// Lint, and the layer rules. trace/ is a leaf (imports neither server/ nor web/, nor Node or DOM
// modules); server/ and web/ never import each other; inside server/ and web/src/ each folder is a
// layer that imports only the layers below it (LAYERS). Import cycles of any kind, type-only imports
// included, are caught by scripts/check-import-cycles.mjs, which `npm run lint` runs after eslint.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'net', 'http', 'path', 'os', 'child_process', 'stream', 'events'];

/**
 * Each tree's folders from the bottom up. A folder may import its own files and any folder on a lower
 * row; folders on one row are peers and do not import each other. Folders not listed (test-support/)
 * are for tests only.
 */
const LAYERS = {
  server: [
    ['support'],
    ['redis', 'protocol'],
    ['drivers', 'probes'],
    ['runs'],
    ['app'],
  ],
  'web/src': [
    ['base'],
    ['model'],
    ['format'],
    ['layout'],
    ['interaction'],
    ['paint'],
    ['live'],
    ['state'],
    ['views', 'player'],
    ['embed'],
  ],
};

const SERVER_FOREIGN = { group: ['**/web/**', 'react', 'react-dom', 'd3', 'd3-*'], message: 'server/ must not import the web layer.' };
const WEB_FOREIGN = [
  { group: ['**/server/**', 'ioredis', 'ws'], message: 'web/ must not import the server layer.' },
  { group: nodeBuiltins, message: 'web/ runs in the browser: no Node modules.' },
];
const TREE_FOREIGN = { server: [SERVER_FOREIGN], 'web/src': WEB_FOREIGN };

/** One config per folder: what it may not import (higher rows, peers, test-support outside tests). */
function layerConfigs(tree, rows) {
  return rows.flatMap((row, level) => row.flatMap((folder) => {
    const above = rows.slice(level + 1).flat();
    const peers = row.filter((other) => other !== folder);
    const forbidden = [...above, ...peers];
    const order = rows.map((r) => r.join(' | ')).join(' < ');
    const upward = forbidden.length === 0 ? [] : [{
      group: forbidden.map((name) => `../${name}/**`),
      message: `${tree}/${folder}/ may import only the layers below it, not its peers (${order}).`,
    }];
    const source = [`${tree}/${folder}/**/*.ts`, `${tree}/${folder}/**/*.tsx`];
    const base = { 'no-restricted-imports': ['error', { patterns: [...TREE_FOREIGN[tree], ...upward,
      { group: ['../test-support/**'], message: 'test-support/ is for tests only.' }] }] };
    const tests = { 'no-restricted-imports': ['error', { patterns: [...TREE_FOREIGN[tree], ...upward] }] };
    return [
      { files: source, rules: base },
      { files: source.map((glob) => glob.replace(/\*\.(tsx?)$/, '*.test.$1')), rules: tests },
    ];
  }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'e2e/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['trace/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/server/**', '**/web/**', 'react', 'react-dom', 'd3', 'd3-*', 'ioredis', 'ws'], message: 'trace/ is a leaf layer: it imports only zod and itself.' },
          { group: nodeBuiltins, message: 'trace/ runs in the browser too: no Node modules.' },
        ],
      }],
    },
  },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_FOREIGN] }] } },
  { files: ['web/**/*.ts', 'web/**/*.tsx'], rules: { 'no-restricted-imports': ['error', { patterns: WEB_FOREIGN }] } },
  ...Object.entries(LAYERS).flatMap(([tree, rows]) => layerConfigs(tree, rows)),
);
