import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'integration',
          // The SDK, the psa CLI and the viewer run against the same local stack: the stack's handlers run
          // in this process and read its environment, so a second stack beside it would take it over.
          include: ['test/integration/**/*.test.ts', 'sdk/test/**/*.test.ts', 'web/test/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          setupFiles: ['test/integration/setup-env.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
