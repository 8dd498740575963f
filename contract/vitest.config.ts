import { defineConfig } from 'vitest/config';

// Unit tests run first (group 0), then the server's integration tests, then the browser tests.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } } });
