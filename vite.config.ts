// Builds the browser app from web/ into dist/web; public/ holds static files copied as they are.
// Two pages: the app (web/index.html) and the embed player (web/embed/index.html, a folder of its own so
// that `…/embed/` works on any static host). base './' makes every asset URL relative, so a build works
// from any sub-path (https://docs.example.com/pipescope/). The custom element's single script,
// pipescope-player.js, is a separate library build (vite.player.config.ts).
// VITE_PIPESCOPE_STATIC=1 (npm run build:static) builds the backend-less static site into dist/static.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const isStatic = process.env['VITE_PIPESCOPE_STATIC'] === '1';

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: '../public',
  plugins: [react()],
  build: {
    outDir: isStatic ? '../dist/static' : '../dist/web',
    emptyOutDir: true,
    // The static site is for deploying: no source maps (they were 3.3 MB of its 5.1 MB; dist/web keeps them).
    sourcemap: !isStatic,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: { input: { main: 'web/index.html', embed: 'web/embed/index.html' } },
  },
  server: { proxy: { '/live': { target: 'ws://127.0.0.1:7380', ws: true } } },
});
