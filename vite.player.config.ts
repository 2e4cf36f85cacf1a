// Builds pipescope-player.js: the <pipescope-player> custom element in one classic script (IIFE), no React,
// its CSS inlined into the element's shadow root. Written beside the app's build (npm run build:web) and
// into the static site (npm run build:static); its gzipped size is a goal in npm run bench.
import { defineConfig } from 'vite';

const isStatic = process.env['VITE_PIPESCOPE_STATIC'] === '1';

export default defineConfig({
  root: 'web',
  publicDir: false,
  build: {
    outDir: isStatic ? '../dist/static' : '../dist/web',
    emptyOutDir: false,
    // The static site is for deploying: no source maps (they were 3.3 MB of its 5.1 MB; dist/web keeps them).
    sourcemap: !isStatic,
    lib: { entry: 'src/player/pipescope-player.ts', formats: ['iife'], name: 'PipescopePlayer', fileName: () => 'pipescope-player.js' },
  },
});
