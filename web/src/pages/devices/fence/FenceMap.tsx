// The device-fence map: stored fences drawn as layers, and a terra-draw control that draws a new
// circle or polygon. The base is the offline country layer, so the map is never blank without
// internet.
import { useEffect, useMemo, useRef } from 'react';
import { Layer, Map, Marker, Source, useMap } from 'react-map-gl/maplibre';
import type { StyleSpecification } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawRenderMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';
import { boundsOf, fenceRing, shapeFromRing, type FenceShape, type LatLon } from './geometry';

export interface MapFence {
  FenceId: number;
  Name: string;
  Type: 'circle' | 'polygon';
  Lat: number | null;
  Lon: number | null;
  Radius: number | null;
  Points: LatLon[];
}

const land = feature(countries as unknown as Topology, (countries as unknown as Topology<{ countries: GeometryCollection }>).objects.countries);

export const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  sources: { countries: { type: 'geojson', data: land } },
  layers: [
    { id: 'sea', type: 'background', paint: { 'background-color': '#d6e6f2' } },
    { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f4f1ea' } },
    { id: 'borders', type: 'line', source: 'countries', paint: { 'line-color': '#b7b2a6', 'line-width': 0.8 } },
  ],
};

function DrawControl({ mode, keep, onDrawn }: { mode: 'circle' | 'polygon' | null; keep: boolean; onDrawn: (shape: FenceShape) => void }) {
  const { current } = useMap();
  const drawRef = useRef<TerraDraw | null>(null);
  const onDrawnRef = useRef(onDrawn);
  onDrawnRef.current = onDrawn;

  useEffect(() => {
    const map = current?.getMap();
    if (!map) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({ styles: { fillColor: '#409EFF', outlineColor: '#1d6fd6', fillOpacity: 0.25 } }),
        new TerraDrawCircleMode({ styles: { fillColor: '#409EFF', outlineColor: '#1d6fd6', fillOpacity: 0.25 } }),
        new TerraDrawRenderMode({ modeName: 'idle', styles: {} }),
      ],
    });
    draw.start();
    draw.setMode('idle');
    draw.on('finish', (id) => {
      const f = draw.getSnapshotFeature(id);
      if (!f || f.geometry.type !== 'Polygon') return;
      const kind = f.properties.mode === 'circle' ? 'circle' : 'polygon';
      onDrawnRef.current(shapeFromRing(kind, f.geometry.coordinates[0] as number[][]));
    });
    drawRef.current = draw;
    return () => {
      drawRef.current = null;
      try {
        draw.stop();
      } catch {
        /* the map may already be gone */
      }
    };
  }, [current]);

  useEffect(() => {
    const draw = drawRef.current;
    if (!draw) return;
    // A new drawing replaces the last one; a finished one stays on the map until saved or dropped.
    if (mode !== null || !keep) draw.clear();
    draw.setMode(mode ?? 'idle');
  }, [mode, keep, current]);

  return null;
}

function FenceLayers({ fences, selectedId }: { fences: MapFence[]; selectedId: number | null }) {
  const data = useMemo(
    () => ({
      type: 'FeatureCollection' as const,
      features: fences.flatMap((f) => {
        const ring = fenceRing(f);
        return ring
          ? [{ type: 'Feature' as const, properties: { id: f.FenceId, name: f.Name, selected: f.FenceId === selectedId }, geometry: { type: 'Polygon' as const, coordinates: [ring] } }]
          : [];
      }),
    }),
    [fences, selectedId],
  );
  return (
    <Source id="device-fences" type="geojson" data={data}>
      <Layer id="device-fences-fill" type="fill" paint={{ 'fill-color': ['case', ['get', 'selected'], '#f56c6c', '#67c23a'], 'fill-opacity': 0.2 }} />
      <Layer id="device-fences-line" type="line" paint={{ 'line-color': ['case', ['get', 'selected'], '#f56c6c', '#3a9a16'], 'line-width': 2 }} />
    </Source>
  );
}

/** Moves the view to the fences (or the device) when the device or the selection changes. */
function FitView({ fences, device, focusKey }: { fences: MapFence[]; device: LatLon | null; focusKey: string }) {
  const { current } = useMap();
  useEffect(() => {
    const map = current;
    if (!map) return;
    const b = boundsOf(fences.map(fenceRing).filter((r): r is number[][] => r !== null));
    if (b) map.fitBounds(b, { padding: 60, maxZoom: 16, duration: 0 });
    else if (device) map.jumpTo({ center: [device.Lon, device.Lat], zoom: 14 });
    // Only when the device or the focused fence changes, not on every refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, focusKey]);
  return null;
}

export function FenceMap(props: {
  fences: MapFence[];
  selectedId: number | null;
  device: LatLon | null;
  drawMode: 'circle' | 'polygon' | null;
  keepDrawing: boolean;
  onDrawn: (shape: FenceShape) => void;
  focusKey: string;
  height?: number | string;
}) {
  return (
    <div style={{ height: props.height ?? 560, position: 'relative' }} data-testid="fence-map">
      <Map
        initialViewState={{ longitude: props.device?.Lon ?? 116.397, latitude: props.device?.Lat ?? 39.908, zoom: props.device ? 14 : 3 }}
        mapStyle={OFFLINE_STYLE}
        style={{ width: '100%', height: '100%' }}
        attributionControl={false}
        doubleClickZoom={false}
      >
        <FenceLayers fences={props.fences} selectedId={props.selectedId} />
        {props.device ? (
          <Marker longitude={props.device.Lon} latitude={props.device.Lat}>
            <div style={{ width: 14, height: 14, borderRadius: 7, background: '#409EFF', border: '2px solid #fff', boxShadow: '0 0 4px rgba(0,0,0,.4)' }} />
          </Marker>
        ) : null}
        <FitView fences={props.selectedId ? props.fences.filter((f) => f.FenceId === props.selectedId) : props.fences} device={props.device} focusKey={props.focusKey} />
        <DrawControl mode={props.drawMode} keep={props.keepDrawing} onDrawn={props.onDrawn} />
      </Map>
    </div>
  );
}
