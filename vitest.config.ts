import { defineConfig } from 'vitest/config';

// One test run for every workspace; browser tests are their own project (run after the build).
export default defineConfig({
  test: {
    projects: ['contract', 'protocols', 'server', 'simulator', 'web', 'e2e'],
  },
});
