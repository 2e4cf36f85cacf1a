// Builds the browser app from web/ into dist/web; public/ holds static files copied as they are.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1024 },
  server: { proxy: { '/live': { target: 'ws://127.0.0.1:7380', ws: true } } },
});
