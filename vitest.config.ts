import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each tier's time at the end of the run (test/tier-timings.ts), beside the usual report.
    reporters: ['default', './test/tier-timings.ts'],
    projects: [
      // Pure code: no stack, no PDF engine; seconds (`npm run test:unit`).
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/extraction/**'],
          testTimeout: 30_000,
        },
      },
      // The extraction engine on real PDFs: pdf.js, PDFium, tesseract (`npm run test:engine`).
      { test: { name: 'engine', include: ['test/unit/extraction/**/*.test.ts'], testTimeout: 60_000 } },
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
