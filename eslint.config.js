// Lint, and the layer rules: trace/ is a leaf (imports neither server/ nor web/, nor Node or DOM
// modules); server/ and web/ never import each other.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'net', 'http', 'path', 'os', 'child_process', 'stream', 'events'];

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
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/web/**', 'react', 'react-dom', 'd3', 'd3-*'], message: 'server/ must not import the web layer.' }],
      }],
    },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/server/**', 'ioredis', 'ws'], message: 'web/ must not import the server layer.' },
          { group: nodeBuiltins, message: 'web/ runs in the browser: no Node modules.' },
        ],
      }],
    },
  },
);
