// A device's path on the map: the line with arrows in the direction of travel, its start and end,
// its points (clickable for details), stops, and the playback position. Renders nothing; owns the
// track-* sources and layers.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import type { GeoJSONSource, Map as MapLibreMap, MapLayerMouseEvent } from 'maplibre-gl';
import { EMPTY } from './baseStyle';
import { useMapProjection } from './projection';
import { boundsOf } from './bounds';

const ARROW = 'track-arrow';

/** A chevron pointing right (east): symbols along the line turn it with the line. */
function addArrowImage(map: MapLibreMap) {
  if (map.hasImage(ARROW)) return;
  const size = 16;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  // A dark chevron with a white edge shows on the line and on the points alike.
  for (const [colour, width] of [
    ['#ffffff', 5],
    ['#0b3d91', 2.5],
  ] as const) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(5, 3);
    ctx.lineTo(11, 8);
    ctx.lineTo(5, 13);
    ctx.stroke();
  }
  map.addImage(ARROW, ctx.getImageData(0, 0, size, size), { pixelRatio: 1 });
}

export interface TrackPointView {
  lat: number;
  lon: number;
}

export interface MapTrackProps {
  points: TrackPointView[];
  stops?: TrackPointView[];
  /** Index of the playback (or live) position. */
  current?: number | null;
  /** Show every point as a dot (history); off for a live trail. */
  showPoints?: boolean;
  onPointClick?: (index: number) => void;
  onStopClick?: (index: number) => void;
  /** Fit the view to the path when it changes. */
  fit?: boolean;
  /** Texts of the start and end markers (history); none for a live trail. */
  ends?: { start: string; end: string };
}

const SOURCES = ['track-line', 'track-points', 'track-stops', 'track-ends', 'track-current'] as const;
const LAYERS = [
  'track-line',
  'track-points',
  'track-arrows',
  'track-stops',
  'track-ends',
  'track-ends-text',
  'track-current',
] as const;

export function MapTrack({
  points,
  stops = [],
  current = null,
  showPoints = true,
  onPointClick,
  onStopClick,
  fit = true,
  ends,
}: MapTrackProps) {
  const { current: ref } = useMap();
  const projection = useMapProjection();
  const clicks = useRef({ onPointClick, onStopClick });
  clicks.current = { onPointClick, onStopClick };
  const project = (p: TrackPointView): [number, number] => projection.toMap([p.lon, p.lat]);

  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    for (const s of SOURCES) map.addSource(s, { type: 'geojson', data: EMPTY });
    addArrowImage(map);
    map.addLayer({
      id: 'track-line',
      type: 'line',
      source: 'track-line',
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': '#409EFF', 'line-width': 6, 'line-opacity': 0.85 },
    });
    map.addLayer({
      id: 'track-points',
      type: 'circle',
      source: 'track-points',
      minzoom: 11,
      paint: {
        'circle-radius': 3.5,
        'circle-color': '#ffffff',
        'circle-stroke-color': '#409EFF',
        'circle-stroke-width': 1.5,
      },
    });
    map.addLayer({
      id: 'track-arrows',
      type: 'symbol',
      source: 'track-line',
      layout: {
        'symbol-placement': 'line',
        'symbol-spacing': 70,
        'icon-image': ARROW,
        'icon-allow-overlap': true,
        'icon-rotation-alignment': 'map',
        'icon-size': 1,
        'icon-ignore-placement': true,
      },
    });
    map.addLayer({
      id: 'track-stops',
      type: 'circle',
      source: 'track-stops',
      paint: {
        'circle-radius': 8,
        'circle-color': '#fa8c16',
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: 'track-ends',
      type: 'circle',
      source: 'track-ends',
      paint: {
        'circle-radius': 8,
        'circle-color': ['match', ['get', 'kind'], 'start', '#52c41a', '#f5222d'],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: 'track-ends-text',
      type: 'symbol',
      source: 'track-ends',
      layout: {
        'text-field': ['get', 'text'],
        'text-font': ['sans-serif'],
        'text-size': 13,
        'text-offset': [0, -1.7],
        'text-allow-overlap': true,
        'text-ignore-placement': true,
      },
      paint: {
        'text-color': ['match', ['get', 'kind'], 'start', '#237804', '#a8071a'],
        'text-halo-color': '#ffffff',
        'text-halo-width': 2,
      },
    });
    map.addLayer({
      id: 'track-current',
      type: 'circle',
      source: 'track-current',
      paint: {
        'circle-radius': 9,
        'circle-color': '#f5222d',
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
      },
    });
    const point = (e: MapLayerMouseEvent) =>
      clicks.current.onPointClick?.(Number(e.features?.[0]?.properties?.i));
    const stop = (e: MapLayerMouseEvent) =>
      clicks.current.onStopClick?.(Number(e.features?.[0]?.properties?.i));
    map.on('click', 'track-points', point);
    map.on('click', 'track-stops', stop);
    return () => {
      map.off('click', 'track-points', point);
      map.off('click', 'track-stops', stop);
      if (!map.getStyle()) return;
      for (const l of [...LAYERS].reverse()) if (map.getLayer(l)) map.removeLayer(l);
      for (const s of SOURCES) if (map.getSource(s)) map.removeSource(s);
    };
  }, [ref]);

  useEffect(() => {
    const map = ref?.getMap();
    if (!map?.getSource('track-line')) return;
    const coords = points.map(project);
    (map.getSource('track-line') as GeoJSONSource).setData({
      type: 'Feature',
      properties: {},
      geometry: { type: 'LineString', coordinates: coords },
    });
    (map.getSource('track-points') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features: showPoints
        ? coords.map((c, i) => ({
            type: 'Feature',
            properties: { i },
            geometry: { type: 'Point', coordinates: c },
          }))
        : [],
    });
    (map.getSource('track-stops') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features: stops.map((s, i) => ({
        type: 'Feature',
        properties: { i },
        geometry: { type: 'Point', coordinates: project(s) },
      })),
    });
    const first = coords[0];
    const last = coords[coords.length - 1];
    (map.getSource('track-ends') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features:
        ends && first && last
          ? [
              // The end first, so a start at the same place is drawn over it.
              {
                type: 'Feature',
                properties: { kind: 'end', text: ends.end },
                geometry: { type: 'Point', coordinates: last },
              },
              {
                type: 'Feature',
                properties: { kind: 'start', text: ends.start },
                geometry: { type: 'Point', coordinates: first },
              },
            ]
          : [],
    });
    const box = fit ? boundsOf(coords) : null;
    if (box) map.fitBounds(box, { padding: 60, maxZoom: 16, duration: 500 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, points, stops, showPoints, fit, projection, ends?.start, ends?.end]);

  useEffect(() => {
    const map = ref?.getMap();
    const src = map?.getSource('track-current') as GeoJSONSource | undefined;
    if (!src) return;
    const p = current !== null ? points[current] : undefined;
    void src.setData(
      p ? { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: project(p) } } : EMPTY,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, current, points, projection]);

  return null;
}
