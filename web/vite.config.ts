import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline base map's country shapes (world-atlas 50m, and 110m for a light first paint),
 * converted from TopoJSON to GeoJSON at build time: the map's worker fetches and parses them
 * itself, so the page's main thread does no conversion. `virtual:base-shapes` exports their URLs.
 */
function baseShapes(): Plugin {
  const ID = 'virtual:base-shapes';
  let files: Record<string, string> | undefined;
  const convert = () => {
    if (files) return files;
    const out: Record<string, string> = {};
    // The TopoJSON is quantised to about 0.004° (50m): four decimals lose nothing.
    const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' ? Math.round(x * 1e4) / 1e4 : x));
    const line = (g: unknown) => json({ type: 'Feature', geometry: g, properties: {} });
    for (const [scale, suffix] of [['50m', ''], ['110m', '110']] as const) {
      const world = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`world-atlas/countries-${scale}.json`), 'utf8')) as Topology;
      const countries = world.objects.countries as GeometryCollection;
      out[`land${suffix}`] = json(feature(world, countries));
      out[`borders${suffix}`] = line(mesh(world, countries, (a, b) => a !== b));
      out[`coast${suffix}`] = line(mesh(world, countries, (a, b) => a === b));
    }
    files = out;
    return files;
  };
  let build = false;
  return {
    name: 'wt-base-shapes',
    configResolved(c) {
      build = c.command === 'build';
    },
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load(id) {
      if (id !== `\0${ID}`) return;
      const f = convert();
      return Object.entries(f)
        .map(([k, source]) =>
          build
            ? `export const ${k} = import.meta.ROLLUP_FILE_URL_${this.emitFile({ type: 'asset', name: `base-${k}.json`, source })};`
            : `export const ${k} = '/@base-shapes/${k}.json';`,
        )
        .join('\n');
    },
    configureServer(server) {
      server.middlewares.use('/@base-shapes/', (req, res) => {
        const k = (req.url ?? '').replace(/^\//, '').replace(/\.json.*$/, '');
        res.setHeader('content-type', 'application/json');
        res.end(convert()[k] ?? 'null');
      });
    },
  };
}

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
