import { defineConfig } from 'vitest/config';

// Unit tests run first (group 0), then the server's integration tests, then the browser tests.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, maxWorkers: 2, sequence: { groupOrder: 0 } } });
