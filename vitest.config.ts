import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // @lastro/sdk resolves to its TypeScript sources (its package.json's `lastro-source`), never a stale build.
  ssr: { resolve: { conditions: ['lastro-source', ...defaultServerConditions] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Servers the tests start (and their children) take any free metrics port, never the fixed default.
    env: { METRICS_PORT: '0' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only fight over them.
    maxWorkers: 2,
  },
});
