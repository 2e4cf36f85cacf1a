// Lint, and the layer rules. trace/ is a leaf (imports neither server/ nor web/, nor Node or DOM
// modules outside its tests); server/ and web/ never import each other; inside each tree a folder imports
// only the folders LAYERS allows it, a graph rather than one chain: folders that need nothing of each
// other stay apart (web's live/ reads no format/, layout/ or paint/), and peers never import each other.
// The rule (scripts/eslint-layers.mjs) sees every import form, dynamic `import()` and `export … from`
// included. Import cycles of any kind, type-only imports included, and the player's and embed's reach
// into live/ or views/ through other folders are caught by scripts/check-import-cycles.mjs, which
// `npm run lint` runs after eslint.
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-layers.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const nodeBuiltins = ['node:*', ...builtinModules];

/**
 * What each folder may import, besides itself and trace/ (for server/ and web/src/). Lowest first.
 * ARCHITECTURE.md shows the same graph as tables (scripts/docs/architecture-layers.test.ts keeps them equal).
 */
export const LAYERS = {
  // The documents first; what is derived from them and what travels between processes each on format/
  // alone; the text exports on both.
  trace: {
    format: [],
    derive: ['format'],
    protocol: ['format'],
    export: ['format', 'derive'],
  },
  server: {
    support: [],
    redis: ['support'],
    protocol: ['support'],
    drivers: ['support', 'redis', 'protocol'],
    probes: ['support', 'redis', 'protocol'],
    runs: ['support', 'redis', 'protocol', 'drivers', 'probes'],
    // The observing port (a peer of runs/: neither imports the other).
    observe: ['support', 'redis', 'protocol', 'probes'],
    // app/: main.ts and record-cli.ts on top of its folders, each on those before it.
    'app/access': ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs'],
    'app/cli': ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs', 'observe', 'app/access'],
    'app/follow': ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs', 'app/access'],
    'app/live': ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs', 'observe', 'app/access', 'app/cli', 'app/follow'],
    'app/http': ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs', 'observe', 'app/access', 'app/cli', 'app/live'],
    app: ['support', 'redis', 'protocol', 'drivers', 'probes', 'runs', 'observe', 'app/access', 'app/cli', 'app/follow', 'app/live', 'app/http'],
  },
  'web/src': {
    base: [],
    model: ['base'],
    format: ['base', 'model'],
    layout: ['base', 'model', 'format'],
    interaction: ['base', 'model', 'layout'],
    paint: ['base', 'model', 'format', 'layout', 'interaction'],
    live: ['base', 'model'],
    state: ['base', 'model', 'format', 'layout', 'interaction', 'paint', 'live'],
    // The page's URL: its schema and its one store, on the forms and choices of state/ (live/ needs none of it).
    url: ['base', 'model', 'format', 'layout', 'interaction', 'state'],
    views: ['base', 'model', 'format', 'layout', 'interaction', 'paint', 'live', 'state', 'url'],
    // The player and the embed page never reach live/ or views/ (no WebSocket, no React).
    player: ['base', 'model', 'format', 'layout', 'interaction', 'paint', 'state'],
    embed: ['base', 'model', 'format', 'layout', 'interaction', 'paint', 'state', 'player'],
  },
};

/** A test exercises its folder through the whole app: tests under app/ may start it (app/http/http-app.ts). */
const SERVER_APP_TESTS = Object.fromEntries(Object.keys(LAYERS.server).filter((f) => f.startsWith('app/'))
  .map((f) => [f, Object.keys(LAYERS.server).filter((g) => g.startsWith('app'))]));

const TREES = [
  {
    dir: 'trace',
    imports: [],
    folders: LAYERS.trace,
    bannedPackages: [
      { patterns: ['react', 'react-dom', 'd3', 'd3-*', 'ioredis', 'redis', 'ws'], message: 'trace/ is a leaf layer: it imports only zod and itself.', tests: true },
      { patterns: nodeBuiltins, message: 'trace/ runs in the browser too: no Node modules outside its tests.' },
    ],
  },
  {
    dir: 'server',
    imports: ['trace'],
    folders: LAYERS.server,
    testFolders: SERVER_APP_TESTS,
    bannedPackages: [{ patterns: ['react', 'react-dom', 'd3', 'd3-*'], message: 'server/ must not import the web layer.', tests: true }],
  },
  {
    dir: 'web/src',
    imports: ['trace'],
    folders: LAYERS['web/src'],
    bannedPackages: [
      { patterns: ['ioredis', 'redis', 'ws'], message: 'web/ must not import the server layer.', tests: true },
      { patterns: nodeBuiltins, message: 'web/ runs in the browser: no Node modules outside its tests.' },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'e2e/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['trace/**/*.ts', 'server/**/*.ts', 'web/**/*.ts', 'web/**/*.tsx'],
    plugins: { layers },
    rules: { 'layers/imports': ['error', { root, trees: TREES }] },
  },
);
