import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The databases every test platform copies, migrated once per run.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own platform instances; two at a time suits a 2-core machine.
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
