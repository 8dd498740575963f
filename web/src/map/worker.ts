// MapLibre finds its worker next to its own module file, which bundling moves; point it at the
// worker file Vite emits instead (set once, for every map of the console).
import { setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';

setWorkerUrl(workerUrl);
