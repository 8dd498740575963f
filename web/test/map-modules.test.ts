// Every map of the console is a MapView: the module that sets MapLibre's worker URL and applies
// the user's map source. A page that made its own map would work only after another page had
// loaded the map module (the worker URL is global), and would ignore the chosen source.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

describe('map modules', () => {
  it('only MapView creates a map and sets the worker', () => {
    const makers: string[] = [];
    for (const file of files(src)) {
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(src, file);
      // The default export of react-map-gl is its Map component; `new Map(` of maplibre-gl a raw map.
      const mapComponent = /import\s+(Map\b|\{[^}]*\bMap\b[^}]*\})[^;]*from\s+'react-map-gl\/maplibre'/.test(
        text,
      );
      const rawMap = /from\s+'maplibre-gl'/.test(text) && /new\s+(maplibregl\.)?Map\(/.test(text);
      if (mapComponent || rawMap) makers.push(rel);
    }
    expect(makers).toEqual([path.join('map', 'MapView.tsx')]);
    const mapView = readFileSync(path.join(src, 'map', 'MapView.tsx'), 'utf8');
    expect(mapView).toMatch(/import '\.\/worker';/);
    const setters = files(src).filter((f) => /setWorkerUrl\(/.test(readFileSync(f, 'utf8')));
    expect(setters.map((f) => path.relative(src, f))).toEqual([path.join('map', 'worker.ts')]);
  });
});
