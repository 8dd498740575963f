// A device's path on the map: the line, its points (clickable for details), stops, and the
// playback position. Renders nothing; owns the track-* sources and layers.
import { useEffect, useRef } from 'react';
import { useMap } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import type { GeoJSONSource, MapLayerMouseEvent } from 'maplibre-gl';
import { EMPTY } from './baseStyle';
import { useMapSettings, usesGcj02 } from './settings';
import { boundsOf } from './bounds';

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
}

const LAYERS = ['track-line', 'track-points', 'track-stops', 'track-current'] as const;

export function MapTrack({ points, stops = [], current = null, showPoints = true, onPointClick, onStopClick, fit = true }: MapTrackProps) {
  const { current: ref } = useMap();
  const provider = useMapSettings((s) => s.provider);
  const clicks = useRef({ onPointClick, onStopClick });
  clicks.current = { onPointClick, onStopClick };
  const project = (p: TrackPointView): [number, number] =>
    usesGcj02(provider) ? (gcoord.transform([p.lon, p.lat], gcoord.WGS84, gcoord.GCJ02) as [number, number]) : [p.lon, p.lat];

  useEffect(() => {
    const map = ref?.getMap();
    if (!map) return;
    for (const s of ['track-line', 'track-points', 'track-stops', 'track-current']) map.addSource(s, { type: 'geojson', data: EMPTY });
    map.addLayer({
      id: 'track-line',
      type: 'line',
      source: 'track-line',
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': '#409EFF', 'line-width': 4, 'line-opacity': 0.85 },
    });
    map.addLayer({
      id: 'track-points',
      type: 'circle',
      source: 'track-points',
      minzoom: 11,
      paint: { 'circle-radius': 3.5, 'circle-color': '#ffffff', 'circle-stroke-color': '#409EFF', 'circle-stroke-width': 1.5 },
    });
    map.addLayer({
      id: 'track-stops',
      type: 'circle',
      source: 'track-stops',
      paint: { 'circle-radius': 8, 'circle-color': '#fa8c16', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
    });
    map.addLayer({
      id: 'track-current',
      type: 'circle',
      source: 'track-current',
      paint: { 'circle-radius': 9, 'circle-color': '#f5222d', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 },
    });
    const point = (e: MapLayerMouseEvent) => clicks.current.onPointClick?.(Number(e.features?.[0]?.properties?.i));
    const stop = (e: MapLayerMouseEvent) => clicks.current.onStopClick?.(Number(e.features?.[0]?.properties?.i));
    map.on('click', 'track-points', point);
    map.on('click', 'track-stops', stop);
    return () => {
      map.off('click', 'track-points', point);
      map.off('click', 'track-stops', stop);
      if (!map.getStyle()) return;
      for (const l of [...LAYERS].reverse()) if (map.getLayer(l)) map.removeLayer(l);
      for (const s of LAYERS) if (map.getSource(s)) map.removeSource(s);
    };
  }, [ref]);

  useEffect(() => {
    const map = ref?.getMap();
    if (!map?.getSource('track-line')) return;
    const coords = points.map(project);
    (map.getSource('track-line') as GeoJSONSource).setData({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: coords } });
    (map.getSource('track-points') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features: showPoints ? coords.map((c, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: c } })) : [],
    });
    (map.getSource('track-stops') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features: stops.map((s, i) => ({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: project(s) } })),
    });
    const box = fit ? boundsOf(coords) : null;
    if (box) map.fitBounds(box, { padding: 60, maxZoom: 16, duration: 500 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, points, stops, showPoints, fit, provider]);

  useEffect(() => {
    const map = ref?.getMap();
    const src = map?.getSource('track-current') as GeoJSONSource | undefined;
    if (!src) return;
    const p = current !== null ? points[current] : undefined;
    void src.setData(p ? { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: project(p) } } : EMPTY);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref, current, points, provider]);

  return null;
}
