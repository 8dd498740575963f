import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.test.ts'],
    // The migrated embedded database every server process copies, made once per run.
    globalSetup: ['global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One browser and one server at a time on a 2-core machine.
    fileParallelism: false,
    maxWorkers: 1,
    // A real server, a simulator and Chromium share two cores: a test that fails is run once more
    // before it counts (its assertions are unchanged; each test can be repeated on the same state).
    retry: 1,
    // What a page shows after a save waits for its answer and a refetch: more than vitest's 1 s
    // default of expect.poll on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
    sequence: { groupOrder: 2 },
  },
});
