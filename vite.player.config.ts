// Builds pipescope-player.js: the <pipescope-player> custom element in one classic script (IIFE), no React,
// its CSS inlined into the element's shadow root. Written beside the app's build (npm run build:web) and
// into the static site (npm run build:static); its gzipped size is a goal in npm run bench.
// Beside it, pipescope-decode-worker.js: the decode worker (state/trace-decode-worker.ts) as a classic
// script of its own, fetched only when a trace is decoded. Two modules are swapped for the player's own
// (one script cannot split into chunks, and it runs on other sites): where the worker is, and how a page
// with no worker decodes.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const isStatic = process.env['VITE_PIPESCOPE_STATIC'] === '1';
const playerModule = (file: string) => fileURLToPath(new URL(`web/src/player/${file}`, import.meta.url));

export default defineConfig({
  root: 'web',
  publicDir: false,
  resolve: {
    alias: [
      { find: /^\.\/decode-worker-url\.ts$/, replacement: playerModule('player-decode-worker-url.ts') },
      { find: /^\.\/page-decode\.ts$/, replacement: playerModule('player-page-decode.ts') },
    ],
  },
  worker: {
    format: 'iife',
    rolldownOptions: { output: { entryFileNames: 'pipescope-decode-worker.js' } },
  },
  build: {
    outDir: isStatic ? '../dist/static' : '../dist/web',
    emptyOutDir: false,
    // The static site is for deploying: no source maps (they were 3.3 MB of its 5.1 MB; dist/web keeps them).
    sourcemap: !isStatic,
    lib: { entry: 'src/player/pipescope-player.ts', formats: ['iife'], name: 'PipescopePlayer', fileName: () => 'pipescope-player.js' },
  },
});
