// `npm run test:hard`: the long suite (minutes), not part of `npm test`. It runs the built backend as
// users do (hard/*.hard.test.ts) and prints its figures (lines starting "FIGURE"): a 1,000,000-SET
// pipeline (memory before/peak/after, HTTP latency during it, cancel latency, what slicing costs),
// 100 concurrent clients, faults, and data safety. One file at a time: the machine has two cores, and
// each file measures. Every loop in it is bounded; it uses loopback addresses only.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'hard',
    include: ['hard/**/*.hard.test.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
