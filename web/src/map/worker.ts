// MapLibre finds its worker next to its own module file, which bundling moves; point it at the
// worker file Vite emits instead (set once, for every map of the console).
//
// This module loads with the first map page's code, which the router fetches while the user's
// information is still on its way: the worker is started and the light base shapes are fetched
// then, so that the land is ready when the map's style is (instead of the worker starting, and
// then fetching and cutting the shapes, only once the map exists).
import { prewarm, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { BASE_SHAPES } from './baseStyle';

setWorkerUrl(workerUrl);
prewarm();
// Into the HTTP cache (the shapes are immutable assets): the worker's own fetch finds them there.
for (const url of Object.values(BASE_SHAPES.light())) void fetch(url, { priority: 'high' } as RequestInit).catch(() => undefined);
