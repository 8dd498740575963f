import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    maxWorkers: 2,
    // Component tests render antd in jsdom: about 3 s on a quiet machine, more when the machine is busy.
    testTimeout: 20_000,
    // Unit tests run first (group 0), then the server's integration tests, then the browser tests.
    sequence: { groupOrder: 0 },
  },
});
