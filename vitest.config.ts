// The test tiers. `npm test` (one `vitest run`) runs them all; each has its own npm script too:
//   test:unit         projects unit + web: no Redis, no browser, no build (seconds); the docs' checks too
//                     (links resolve, docs/trace-format.md matches the schemas)
//   test:integration  project integration: a real redis-server (server/**/*.integration.test.ts)
//   test:e2e          project e2e: the built app in Debian's headless Chromium (e2e/, bench's own e2e)
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['trace/**/*.test.ts', 'server/**/*.test.ts', 'bench/**/*.test.ts', 'e2e/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/*.e2e.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.integration.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts', 'bench/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // One browser and one app at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
