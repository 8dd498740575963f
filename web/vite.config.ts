import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { baseShapes } from './scripts/map-assets';

// The server serves web/dist at / with a history fallback; in development the API and its
// websocket are proxied to the local server (API_TARGET overrides where it runs).
const apiTarget = process.env.API_TARGET ?? 'http://localhost:8080';
const proxy = { '/api': { target: apiTarget, changeOrigin: true, ws: true } };

export default defineConfig({
  base: '/',
  plugins: [react(), baseShapes()],
  server: {
    port: 5173,
    proxy,
  },
  preview: {
    proxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
